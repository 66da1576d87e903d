import Foundation
import Testing

@testable import MapTiles
@testable import TileData

@Suite("Items by bands")
struct ItemBandsTests {
  @Test("The items in the bands a box reaches include, in order, every item that meets it")
  func bandsFindTheItemsThatMeet() {
    var seed: UInt64 = 0x1BA5_D5EE_D000_0022
    func random(_ n: Int) -> Int32 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int32(truncatingIfNeeded: (seed >> 33) % UInt64(n))
    }
    func box(_ range: Int32, _ size: Int) -> TileBox {
      let (x, y) = (random(Int(range) + 400) - 200, random(Int(range) + 400) - 200)
      return TileBox(minX: x, minY: y, maxX: x + random(size), maxY: y + random(size))
    }
    var found = 0
    for count in [0, 1, 5, 64, 65, 200, 700] {
      var items = (0..<count).map { _ in
        PreparedVectorTile.Item(
          box: box(4096, random(3) == 0 ? 2000 : 120), parts: 0..<1, minZoom: 0, polygon: true,
          chunks: 0..<1)
      }
      if count > 10 {
        // A box that is not one (least beyond greatest), which `meets` may still find.
        items[3] = PreparedVectorTile.Item(
          box: TileBox(minX: 900, minY: -100, maxX: 100, maxY: 5000), parts: 0..<1,
          minZoom: 0, polygon: true, chunks: 0..<1)
      }
      var union = TileBox.empty
      for item in items { union.formUnion(item.box) }
      let bands = PreparedVectorTile.ItemBands(items, box: union)
      for _ in 0..<200 {
        let query = box(4096, random(2) == 0 ? 600 : 3000)
        let all = items.indices.filter { items[$0].box.meets(query) }
        var near: [Int] = []
        bands.forEachItem(near: query) { near.append($0) }
        #expect(near == near.sorted() && Set(near).count == near.count, "\(count)")
        #expect(near.filter { items[$0].box.meets(query) } == all, "\(count) \(query)")
        #expect(near.allSatisfy { $0 < items.count })
        found += all.count
      }
      // (Boxes beyond every item: few or none, none that meets.)
      let far = TileBox(minX: 9000, minY: 9000, maxX: 9100, maxY: 9100)
      var beyond: [Int] = []
      bands.forEachItem(near: far) { beyond.append($0) }
      #expect(beyond.filter { items[$0].box.meets(far) }.isEmpty)
    }
    #expect(found > 1000)
  }
}
