import Foundation
import Testing

@testable import TileData

@Suite struct CacheTests {
  @Test func evictsLeastRecentlyUsedByCount() {
    let cache = LRUCache<Int, String>(countLimit: 3)
    for i in 1...3 { cache.insert("v\(i)", for: i) }
    #expect(cache.keysByRecency == [3, 2, 1])
    #expect(cache.value(for: 1) == "v1")  // 1 becomes most recent
    cache.insert("v4", for: 4)  // evicts 2
    #expect(cache.keysByRecency == [4, 1, 3])
    #expect(cache.value(for: 2) == nil)
    #expect(cache.count == 3)
    cache.insert("v5", for: 5)
    #expect(!cache.contains(3))
    let stats = cache.statistics
    #expect(stats.hits == 1 && stats.misses == 1 && stats.evictions == 2)
  }

  @Test func evictsByCost() {
    let cache = LRUCache<String, Int>(countLimit: 100, costLimit: 1000)
    cache.insert(1, for: "a", cost: 400)
    cache.insert(2, for: "b", cost: 400)
    #expect(cache.totalCost == 800)
    cache.insert(3, for: "c", cost: 300)  // 1100 > 1000: "a" goes
    #expect(cache.keysByRecency == ["c", "b"])
    #expect(cache.totalCost == 700)
    cache.insert(4, for: "huge", cost: 5000)  // larger than the limit: not kept, nothing evicted
    #expect(!cache.contains("huge"))
    #expect(cache.count == 2)
    cache.insert(5, for: "b", cost: 100)  // replacing updates the cost
    #expect(cache.totalCost == 400)
    #expect(cache.value(for: "b") == 5)
    #expect(cache.removeValue(for: "c") == 3)
    #expect(cache.totalCost == 100)
    cache.removeAll()
    #expect(cache.count == 0 && cache.totalCost == 0)
  }

  @Test func reusesSlotsAndRemovesByPredicate() {
    let cache = LRUCache<Int, Int>(countLimit: 8)
    for i in 0..<1000 { cache.insert(i, for: i, cost: 1) }
    #expect(cache.count == 8)
    #expect(cache.keysByRecency == Array((992..<1000).reversed()))
    cache.removeAll { $0 % 2 == 0 }
    #expect(cache.keysByRecency == [999, 997, 995, 993])
    #expect(cache.totalCost == 4)
  }

  @Test func concurrentUse() async {
    let cache = LRUCache<Int, Int>(countLimit: 50, costLimit: 10_000)
    await withTaskGroup(of: Void.self) { group in
      for t in 0..<8 {
        group.addTask {
          for i in 0..<2000 {
            let k = (i * 7 + t) % 120
            if let v = cache.value(for: k) { #expect(v == k * 2) }
            cache.insert(k * 2, for: k, cost: 100)
          }
        }
      }
    }
    #expect(cache.count <= 50)
    #expect(cache.totalCost == cache.count * 100)
    #expect(Set(cache.keysByRecency).count == cache.count)
  }
}
