import Synchronization

/// A thread-safe least-recently-used cache bounded both by entry count and by an approximate
/// total cost in bytes. Lookups and insertions are O(1); the least recently used entries go
/// first when either bound is exceeded. An entry larger than the byte bound is not kept.
public final class LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  /// Most entries kept.
  public let countLimit: Int
  /// Most total cost kept (the sum of the costs given to `insert`).
  public let costLimit: Int

  private struct Node {
    var key: Key
    var value: Value
    var cost: Int
    var prev: Int  // towards most recent; -1 at the head
    var next: Int  // towards least recent; -1 at the tail
  }

  private struct State {
    var index: [Key: Int] = [:]
    var nodes: [Node?] = []
    var free: [Int] = []
    var head = -1  // most recently used
    var tail = -1  // least recently used
    var totalCost = 0
    var hits = 0
    var misses = 0
    var evictions = 0

    mutating func unlink(_ i: Int) {
      let n = nodes[i]!
      if n.prev >= 0 { nodes[n.prev]!.next = n.next } else { head = n.next }
      if n.next >= 0 { nodes[n.next]!.prev = n.prev } else { tail = n.prev }
    }

    mutating func pushFront(_ i: Int) {
      nodes[i]!.prev = -1
      nodes[i]!.next = head
      if head >= 0 { nodes[head]!.prev = i }
      head = i
      if tail < 0 { tail = i }
    }

    mutating func remove(_ i: Int) {
      unlink(i)
      let n = nodes[i]!
      index[n.key] = nil
      totalCost -= n.cost
      nodes[i] = nil
      free.append(i)
    }
  }

  private let state = Mutex(State())

  /// - Parameters:
  ///   - countLimit: most entries (at least 1).
  ///   - costLimit: most total cost, e.g. bytes (at least 1).
  public init(countLimit: Int, costLimit: Int = .max) {
    self.countLimit = max(1, countLimit)
    self.costLimit = max(1, costLimit)
  }

  /// The value for `key`, marking it most recently used.
  public func value(for key: Key) -> Value? {
    state.withLock { s in
      guard let i = s.index[key] else {
        s.misses += 1
        return nil
      }
      s.hits += 1
      if s.head != i {
        s.unlink(i)
        s.pushFront(i)
      }
      return s.nodes[i]!.value
    }
  }

  /// True when `key` is cached (does not change recency).
  public func contains(_ key: Key) -> Bool { state.withLock { $0.index[key] != nil } }

  /// Stores `value` as most recently used, then evicts least recently used entries until both
  /// limits hold. A value whose cost alone exceeds `costLimit` is not stored.
  public func insert(_ value: Value, for key: Key, cost: Int = 0) {
    let cost = max(0, cost)
    state.withLock { s in
      if let i = s.index[key] { s.remove(i) }
      guard cost <= costLimit else { return }
      let node = Node(key: key, value: value, cost: cost, prev: -1, next: -1)
      let i: Int
      if let f = s.free.popLast() {
        s.nodes[f] = node
        i = f
      } else {
        s.nodes.append(node)
        i = s.nodes.count - 1
      }
      s.index[key] = i
      s.totalCost += cost
      s.pushFront(i)
      while s.index.count > countLimit || s.totalCost > costLimit, s.tail >= 0, s.tail != i {
        s.remove(s.tail)
        s.evictions += 1
      }
    }
  }

  /// Removes the entry for `key`, returning its value.
  @discardableResult public func removeValue(for key: Key) -> Value? {
    state.withLock { s in
      guard let i = s.index[key] else { return nil }
      let v = s.nodes[i]!.value
      s.remove(i)
      return v
    }
  }

  /// Removes every entry whose key matches.
  public func removeAll(where predicate: (Key) -> Bool) {
    state.withLock { s in
      for (k, i) in s.index where predicate(k) { s.remove(i) }
    }
  }

  /// Drops every entry.
  public func removeAll() {
    state.withLock { s in
      s = State()
    }
  }

  /// Number of entries.
  public var count: Int { state.withLock { $0.index.count } }
  /// Sum of the entries' costs.
  public var totalCost: Int { state.withLock { $0.totalCost } }
  /// Keys from most to least recently used.
  public var keysByRecency: [Key] {
    state.withLock { s in
      var out = [Key]()
      var i = s.head
      while i >= 0 {
        out.append(s.nodes[i]!.key)
        i = s.nodes[i]!.next
      }
      return out
    }
  }

  /// Lookup and eviction counters since creation.
  public var statistics: (hits: Int, misses: Int, evictions: Int) {
    state.withLock { ($0.hits, $0.misses, $0.evictions) }
  }
}
