import Testing

@testable import MapGeometry

@Suite("MapRect")
struct MapRectTests {
  let w = MapSize.world.width
  let r = MapRect(x: 10, y: 20, width: 100, height: 50)

  @Test func edgesAndMidpoints() {
    #expect(r.minX == 10 && r.minY == 20)
    #expect(r.maxX == 110 && r.maxY == 70)
    #expect(r.midX == 60 && r.midY == 45)
    #expect(r.mid == MapPoint(x: 60, y: 45))
    #expect(r.width == 100 && r.height == 50)
    #expect(r == MapRect(origin: MapPoint(x: 10, y: 20), size: MapSize(width: 100, height: 50)))
  }

  @Test func containsRect() {
    #expect(r.contains(r))
    #expect(r.contains(MapRect(x: 10, y: 20, width: 10, height: 50)))  // shares three edges
    #expect(r.contains(MapRect(x: 50, y: 30, width: 60, height: 40)))  // touches max edges
    #expect(r.contains(MapRect(x: 50, y: 30, width: 0, height: 0)))
    #expect(!r.contains(MapRect(x: 50, y: 30, width: 61, height: 10)))
    #expect(!r.contains(MapRect(x: 9, y: 30, width: 10, height: 10)))
    #expect(!r.contains(MapRect(x: 20, y: 19, width: 10, height: 10)))
    #expect(!r.contains(MapRect(x: 500, y: 500, width: 1, height: 1)))
    // A null argument is always contained; a null receiver contains nothing real.
    #expect(r.contains(MapRect.null))
    #expect(MapRect.world.contains(MapRect.null))
    #expect(!MapRect.null.contains(r))
    #expect(!MapRect.null.contains(MapRect(x: 0, y: 0, width: 0, height: 0)))
    #expect(MapRect.world.contains(MapRect(x: 0, y: 0, width: w, height: w)))
  }

  @Test func insetBy() {
    #expect(r.insetBy(dx: 5, dy: 10) == MapRect(x: 15, y: 30, width: 90, height: 30))
    #expect(r.insetBy(dx: -5, dy: -10) == MapRect(x: 5, y: 10, width: 110, height: 70))
    #expect(r.insetBy(dx: 0, dy: 0) == r)
    #expect(r.insetBy(dx: 50, dy: 25) == MapRect(x: 60, y: 45, width: 0, height: 0))
    // Insetting past the middle leaves nothing.
    #expect(r.insetBy(dx: 51, dy: 0).isNull)
    #expect(r.insetBy(dx: 0, dy: 26).isNull)
    // The null rect comes back unchanged.
    let n = MapRect.null.insetBy(dx: 3, dy: 4)
    #expect(n.isNull)
    #expect(n.origin.x == .infinity && n.origin.y == .infinity && n.size == MapRect.null.size)
  }

  @Test func offsetBy() {
    #expect(r.offsetBy(dx: 5, dy: -20) == MapRect(x: 15, y: 0, width: 100, height: 50))
    #expect(r.offsetBy(dx: -w, dy: 0) == MapRect(x: 10 - w, y: 20, width: 100, height: 50))
    let n = MapRect.null.offsetBy(dx: 3, dy: 4)
    #expect(n.isNull)
    #expect(n.origin.x == .infinity && n.origin.y == .infinity && n.size == MapRect.null.size)
  }

  @Test func dividedFromEachEdge() {
    let minX = r.divided(atDistance: 30, from: .minX)
    #expect(minX.slice == MapRect(x: 10, y: 20, width: 30, height: 50))
    #expect(minX.remainder == MapRect(x: 40, y: 20, width: 70, height: 50))

    let maxX = r.divided(atDistance: 30, from: .maxX)
    #expect(maxX.slice == MapRect(x: 80, y: 20, width: 30, height: 50))
    #expect(maxX.remainder == MapRect(x: 10, y: 20, width: 70, height: 50))

    let minY = r.divided(atDistance: 10, from: .minY)
    #expect(minY.slice == MapRect(x: 10, y: 20, width: 100, height: 10))
    #expect(minY.remainder == MapRect(x: 10, y: 30, width: 100, height: 40))

    let maxY = r.divided(atDistance: 10, from: .maxY)
    #expect(maxY.slice == MapRect(x: 10, y: 60, width: 100, height: 10))
    #expect(maxY.remainder == MapRect(x: 10, y: 20, width: 100, height: 40))

    // Slice and remainder always tile the rect.
    for edge in [MapRect.Edge.minX, .maxX, .minY, .maxY] {
      let d = r.divided(atDistance: 17, from: edge)
      #expect(d.slice.union(d.remainder) == r, "\(edge)")
      #expect(!d.slice.intersects(d.remainder), "\(edge)")
    }
  }

  @Test func dividedWithNegativeAmountSlicesNothing() {
    let minX = r.divided(atDistance: -5, from: .minX)
    #expect(minX.slice == MapRect(x: 10, y: 20, width: 0, height: 50))
    #expect(minX.remainder == r)
    let maxX = r.divided(atDistance: -5, from: .maxX)
    #expect(maxX.slice == MapRect(x: 110, y: 20, width: 0, height: 50))
    #expect(maxX.remainder == r)
    let minY = r.divided(atDistance: -5, from: .minY)
    #expect(minY.slice == MapRect(x: 10, y: 20, width: 100, height: 0))
    #expect(minY.remainder == r)
    let maxY = r.divided(atDistance: -5, from: .maxY)
    #expect(maxY.slice == MapRect(x: 10, y: 70, width: 100, height: 0))
    #expect(maxY.remainder == r)
  }

  @Test func dividedWithAmountLargerThanTheRect() {
    let minX = r.divided(atDistance: 500, from: .minX)
    #expect(minX.slice == r)
    #expect(minX.remainder == MapRect(x: 110, y: 20, width: 0, height: 50))
    let maxX = r.divided(atDistance: 500, from: .maxX)
    #expect(maxX.slice == r)
    #expect(maxX.remainder == MapRect(x: 10, y: 20, width: 0, height: 50))
    let minY = r.divided(atDistance: 50, from: .minY)  // exactly the height
    #expect(minY.slice == r)
    #expect(minY.remainder == MapRect(x: 10, y: 70, width: 100, height: 0))
    let maxY = r.divided(atDistance: 51, from: .maxY)
    #expect(maxY.slice == r)
    #expect(maxY.remainder == MapRect(x: 10, y: 20, width: 100, height: 0))
  }

  @Test func dividedNullRect() {
    let d = MapRect.null.divided(atDistance: 5, from: .minX)
    #expect(d.slice.isNull && d.remainder.isNull)
  }

  @Test func spans180thMeridian() {
    #expect(!MapRect.world.spans180thMeridian)
    #expect(!r.spans180thMeridian)
    #expect(!MapRect(x: w - 10, y: 0, width: 10, height: 10).spans180thMeridian)  // ends at W
    #expect(MapRect(x: w - 10, y: 0, width: 20, height: 10).spans180thMeridian)
    #expect(MapRect(x: -10, y: 0, width: 20, height: 10).spans180thMeridian)
    #expect(MapRect(x: -10, y: 0, width: w + 20, height: 10).spans180thMeridian)
    #expect(!MapRect.null.spans180thMeridian)
  }

  @Test func remainderEastOfTheWorld() {
    let east = MapRect(x: w - 10, y: 5, width: 30, height: 10)
    #expect(east.remainder == MapRect(x: 0, y: 5, width: 20, height: 10))
    #expect(east.intersection(.world) == MapRect(x: w - 10, y: 5, width: 10, height: 10))
    // Wholly past the east edge: all of it wraps.
    let beyond = MapRect(x: w + 100, y: 5, width: 30, height: 10)
    #expect(beyond.remainder == MapRect(x: 100, y: 5, width: 30, height: 10))
  }

  @Test func remainderWestOfTheWorld() {
    let west = MapRect(x: -10, y: 5, width: 30, height: 10)
    #expect(west.remainder == MapRect(x: w - 10, y: 5, width: 10, height: 10))
    #expect(west.intersection(.world) == MapRect(x: 0, y: 5, width: 20, height: 10))
    let beyond = MapRect(x: -100, y: 5, width: 30, height: 10)
    #expect(beyond.remainder == MapRect(x: w - 100, y: 5, width: 30, height: 10))
  }

  @Test func remainderInsideTheWorldIsNull() {
    #expect(r.remainder.isNull)
    #expect(MapRect.world.remainder.isNull)
    #expect(MapRect.null.remainder.isNull)
  }

  @Test func boundingPoints() {
    let points = [MapPoint(x: 3, y: 4), MapPoint(x: 1, y: 9), MapPoint(x: 7, y: 2)]
    #expect(MapRect(bounding: points) == MapRect(x: 1, y: 2, width: 6, height: 7))
    #expect(MapRect(bounding: [MapPoint]()).isNull)
    let single = MapRect(bounding: [MapPoint(x: 5, y: 6)])
    #expect(single == MapRect(x: 5, y: 6, width: 0, height: 0))
    #expect(!single.isNull && single.isEmpty)
    // Any sequence will do.
    let lazy = (0..<5).lazy.map { MapPoint(x: Double($0), y: Double(-$0)) }
    #expect(MapRect(bounding: lazy) == MapRect(x: 0, y: -4, width: 4, height: 4))
  }

  @Test func description() {
    #expect(r.description == "{10.0, 20.0, 100.0, 50.0}")
  }
}
