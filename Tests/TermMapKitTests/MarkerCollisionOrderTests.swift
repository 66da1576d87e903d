import DotRaster
import MapGeometry
import Testing

@testable import TermMapKit

/// Which marker wins a collision when priority and distance from the centre tie, and the two
/// ways the collision order is found (by counting and by comparisons) agree.
@MainActor
@Suite("Marker collision order")
struct MarkerCollisionOrderTests {
  /// A 60 × 21 map (centre cell 30, 10) and the coordinate at the centre of a cell.
  func makeScene() -> (MapView, (Int, Int) -> Coordinate) {
    let map = makeMap(columns: 60, rows: 21)
    map.setCenter(Coordinate(latitude: 38.7223, longitude: -9.1393), animated: false)
    map.setZoomLevel(12, animated: false)
    let vp = map.viewport
    return (map, { c, r in vp.mapPoint(forCellColumn: c, row: r).coordinate })
  }

  @Test("A tie of priority and distance goes to the annotation added first, every time")
  func tieGoesToFirstAdded() {
    for westFirst in [true, false] {
      for _ in 0..<5 {
        let (map, at) = makeScene()
        // Two standard markers four columns apart in the centre row, each two columns from the
        // centre: the western one's label runs over the eastern marker.
        let west = PointAnnotation(coordinate: at(28, 10), title: "West")
        let east = PointAnnotation(coordinate: at(32, 10), title: "East")
        map.addAnnotations(westFirst ? [west, east] : [east, west])
        let frame = map.renderFrame()
        let row = frame.lines[10]
        if westFirst {
          #expect(frame[28, 10].glyph == "●" && frame[32, 10].glyph != "●", "\(row)")
          #expect(row.contains("West +1") && !row.contains("East"), "\(row)")
          #expect(map.view(for: east)?.isHidden == true)
        } else {
          #expect(frame[32, 10].glyph == "●" && frame[28, 10].glyph != "●", "\(row)")
          #expect(row.contains("East +1") && !row.contains("West"), "\(row)")
          #expect(map.view(for: west)?.isHidden == true)
        }
      }
    }
  }

  @Test("A moved annotation keeps its place in the order of addition")
  func moveKeepsOrder() {
    let (map, at) = makeScene()
    let west = PointAnnotation(coordinate: at(40, 3), title: "West")
    let east = PointAnnotation(coordinate: at(32, 10), title: "East")
    map.addAnnotations([west, east])
    west.coordinate = at(28, 10)
    map.annotationDidMove(west)
    let frame = map.renderFrame()
    #expect(frame[28, 10].glyph == "●" && frame[32, 10].glyph != "●", "\(frame.lines[10])")
  }

  /// Inputs spread over a screen, in a few priority groups, with ties of distance and order.
  func inputs(count: Int, groups: [(selected: Bool, priority: Float)], seed: UInt64)
    -> [CollisionInput]
  {
    var state = seed
    func next(_ n: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(n))
    }
    return (0..<count).map { _ in
      let g = groups[next(groups.count)]
      let column = next(80)
      // Widths clipped at the screen's edge, as the map view clips them.
      return CollisionInput(
        column: column, row: next(30), width: min(1 + next(12), 80 - column), claims: true,
        always: g.selected,
        isSelected: g.selected, priority: g.priority, order: next(count / 3 + 1),
        representedCount: 1 + next(3))
    }
  }

  @Test("Counting and comparison give the same collision order")
  func countingMatchesComparison() {
    let cases: [[(selected: Bool, priority: Float)]] = [
      [(false, 250)],
      [(false, 250), (false, 750), (true, 250)],
      [(false, 0), (false, 1000), (false, 500), (true, 1000)],
    ]
    var counted = 0
    for (k, groups) in cases.enumerated() {
      for count in [64, 300, 2000] {
        let inputs = inputs(count: count, groups: groups, seed: UInt64(k * 10 + count))
        let cx = 40
        let cy = 15
        let majors = inputs.map { c -> UInt64 in
          let d = (c.column - cx) * (c.column - cx) + (c.row - cy) * (c.row - cy) * 4
          let rank = UInt64((1000 - c.priority).bitPattern)
          return (c.isSelected ? 0 : 1 << 63) | rank << 32 | UInt64(d)
        }
        let maxDistance = 40 * 40 + 15 * 15 * 4
        let byComparison = CollisionInput.comparisonOrder(inputs, majors)
        if let byCounting = CollisionInput.countingOrder(
          inputs, majors, maxDistance: maxDistance)
        {
          counted += 1
          #expect(byCounting == byComparison, "groups \(groups.count), \(count) inputs")
        }
        // The outcome as a user sees it: some hidden, counted in others' +N.
        let outcomes = CollisionInput.resolve(inputs, columns: 80, rows: 30)
        let hidden = outcomes.filter(\.isHidden).count
        #expect(hidden > 0)
        let counts = outcomes.reduce(0) { $0 + $1.collidedCount }
        let hiddenRepresented = zip(inputs, outcomes).filter { $0.1.isHidden }.reduce(0) {
          $0 + $1.0.representedCount
        }
        #expect(counts == hiddenRepresented)
      }
    }
    // Counting was used in most cases (not skipped for all of them).
    #expect(counted >= 6)
  }

  /// Points inside one cell, from its top-left corner towards its bottom-right one (fractions
  /// of the cell).
  func pointsInCell(_ map: MapView, column: Int, row: Int, count: Int) -> [Coordinate] {
    let vp = map.viewport
    let cell = vp.cellSizeInMapPoints
    let corner = vp.mapPoint(forCellColumn: column, row: row)
    let origin = MapPoint(x: corner.x - cell.width / 2, y: corner.y - cell.height / 2)
    return (0..<count).map { k in
      let f = (Double(k) + 0.5) / Double(count)
      return MapPoint(x: origin.x + cell.width * f, y: origin.y + cell.height * f).coordinate
    }
  }

  @Test("The annotation added first stands for a crowded cell, wherever it lies in the cell")
  func firstAddedStandsForItsCell() {
    for together in [true, false] {
      let (map, _) = makeScene()
      // Five in the centre cell, the first added in its bottom-right corner (the last a walk
      // of the tree in space would meet), and a crowd around to split the index's nodes.
      let inCell = pointsInCell(map, column: 30, row: 10, count: 5).reversed()
      var all = inCell.enumerated().map { k, c in PointAnnotation(coordinate: c, title: "P\(k)") }
      var state: UInt64 = 7
      for k in 0..<400 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let column = Int((state >> 33) % 60)
        let row = Int((state >> 13) % 21)
        guard abs(column - 30) > 12 || row != 10 else { continue }
        let c = pointsInCell(map, column: column, row: row, count: 3)[k % 3]
        all.append(PointAnnotation(coordinate: c, title: "Q"))
      }
      if together {
        map.addAnnotations(all)
      } else {
        for a in all { map.addAnnotation(a) }
      }
      var row = map.renderFrame().lines[10]
      #expect(row.contains("P0 +4") && !row.contains("P1"), "\(together): \(row)")
      #expect(map.view(for: all[0])?.representedCount == 5)
      map.removeAnnotation(all[0])
      row = map.renderFrame().lines[10]
      #expect(row.contains("P1 +3") && !row.contains("P0"), "\(together): \(row)")
    }
  }

  @Test("Annotations added together draw the frames added one by one draw")
  func togetherEqualsOneByOne() {
    var state: UInt64 = 99
    func unit() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    let places = (0..<3_000).map { k in
      PointAnnotation(
        coordinate: Coordinate(latitude: 38.70 + unit() * 0.05, longitude: -9.17 + unit() * 0.07),
        title: "Place \(k)")
    }
    var frames: [[String]] = []
    for together in [true, false] {
      let (map, _) = makeScene()
      if together {
        map.addAnnotations(places)
      } else {
        for p in places { map.addAnnotation(p) }
      }
      var seen = map.renderFrame().lines
      for _ in 0..<6 {
        map.pan(byDotsX: 22, y: 8)
        seen += map.renderFrame().lines
      }
      frames.append(seen)
    }
    let differing = zip(frames[0], frames[1]).enumerated().first { $0.element.0 != $0.element.1 }
    #expect(
      differing == nil, "line \(differing?.offset ?? -1): \(String(describing: differing?.element))"
    )
    #expect(frames[0].count == frames[1].count && frames[0].joined().contains("Place"))
  }

  @Test("An annotation whose coordinate is not a number is kept, drawn nowhere, and harms none")
  func notANumber() {
    for together in [true, false] {
      let (map, at) = makeScene()
      let lost = PointAnnotation(
        coordinate: Coordinate(latitude: .nan, longitude: .nan), title: "Lost")
      let found = PointAnnotation(coordinate: at(30, 10), title: "Found")
      if together {
        map.addAnnotations([lost, found])
      } else {
        map.addAnnotation(lost)
        map.addAnnotation(found)
      }
      let frame = map.renderFrame()
      #expect(map.annotationCount == 2)
      #expect(frame.lines[10].contains("Found") && !frame.lines.joined().contains("Lost"))
    }
  }
}
