import DotRaster
import MapGeometry
import Testing

@testable import TermMapKit

/// Annotations that move in place (`annotationsDidMove(_:)`, as live targets do): the index
/// moves an annotation within its leaf without walking from the root, and a cluster whose
/// members stayed in their cells is kept.
@MainActor
@Suite("Moving annotations: the index, bulk moves, clusters kept while members stay")
struct MovingAnnotationTests {
  /// `count` annotations scattered over the cluster scene (some off screen), titled so about a
  /// third are "bars".
  func scatter(_ at: (Int, Int) -> Coordinate, count: Int, seed: UInt64) -> [PointAnnotation] {
    var rng = SplitMix(seed: seed)
    return (0..<count).map { n in
      let c = Int(rng.next() % 70) - 5
      let r = Int(rng.next() % 26) - 3
      return PointAnnotation(coordinate: at(c, r), title: n % 3 == 0 ? "Bar \(n)" : "C\(n)")
    }
  }

  /// A new place for annotation `n` in round `round`: most move a fraction of a cell (within
  /// their cell or into the next), every seventh jumps across the screen.
  func step(_ a: PointAnnotation, _ n: Int, round: Int, _ vp: Viewport) -> Coordinate {
    let cell = vp.cellSizeInMapPoints
    var p = MapPoint(a.coordinate)
    if (n + round) % 7 == 0 {
      p.x += Double((n * 13 + round * 5) % 40 - 20) * cell.width
      p.y += Double((n * 7 + round * 3) % 16 - 8) * cell.height
    } else {
      p.x += Double((n + round) % 5 - 2) * 0.3 * cell.width
      p.y += Double((n * 3 + round) % 5 - 2) * 0.3 * cell.height
    }
    return p.coordinate
  }

  /// Every cluster's members are the annotations its views' cells stand for (found again from
  /// the index), and every annotation on screen is counted once.
  func checkClusters(_ map: MapView) throws {
    let vp = map.viewport
    let onScreen = map.annotations(in: vp.mapRect).count
    var counted = 0
    for v in map.annotationViewsOnScreen where !v.isHidden {
      if let c = v.annotation as? ClusterAnnotation {
        counted += c.memberAnnotations.count + v.collidedCount
      } else {
        counted += v.representedCount + v.collidedCount
      }
    }
    #expect(counted == onScreen)
    for cv in map.annotationViewsOnScreen {
      guard let c = cv.annotation as? ClusterAnnotation else { continue }
      var byCell = Set<ObjectIdentifier>()
      for v in map.annotationViewsOnScreen where v.cluster === cv {
        let cell = try #require(vp.cell(for: v.layoutPoint))
        for a in map.annotationIndex.members(
          ofCell: cell.column, row: cell.row, first: v.layoutSlot, viewport: vp)
        {
          byCell.insert(ObjectIdentifier(a))
        }
      }
      #expect(byCell == Set(c.memberAnnotations.map { ObjectIdentifier($0) }))
      #expect(vp.cell(for: MapPoint(c.coordinate))! == vp.cell(for: cv.layoutPoint)!)
    }
  }

  /// The clusters on screen as sets of member titles, sorted.
  func clusterTitles(_ map: MapView) -> [[String]] {
    map.annotationViewsOnScreen.compactMap { v -> [String]? in
      guard !v.isHidden, let c = v.annotation as? ClusterAnnotation else { return nil }
      return c.memberAnnotations.map { $0.title ?? "" }.sorted()
    }.sorted { $0.joined(separator: ",") < $1.joined(separator: ",") }
  }

  @Test("The index after many moves finds what a search of every annotation finds")
  func indexAfterMoves() {
    let d = ClusterDelegate()
    let (map, at) = clusterScene(d)
    let places = scatter(at, count: 5_000, seed: 7)
    map.addAnnotations(places)
    let vp = map.viewport
    for round in 0..<6 {
      for (n, a) in places.enumerated() where (n + round) % 3 == 0 {
        a.coordinate = step(a, n, round: round, vp)
      }
      map.annotationsDidMove(places)
      #expect(map.annotationCount == places.count)
      // Rects of a few cells to the whole screen, the same answers as checking every one.
      let screen = vp.mapRect
      for (k, f) in [(0, 1.0), (1, 0.5), (2, 0.1), (3, 0.02)] {
        let w = screen.width * f
        let h = screen.height * f
        let r = MapRect(
          x: screen.minX + Double(k) * w * 0.3, y: screen.minY + Double(k) * h * 0.2, width: w,
          height: h)
        let found = Set(map.annotations(in: r).map { ObjectIdentifier($0) })
        let expected = Set(
          places.filter { r.contains(AnnotationIndex.clamped(MapPoint($0.coordinate))) }.map {
            ObjectIdentifier($0)
          })
        #expect(found == expected, "round \(round), rect \(k)")
      }
    }
  }

  @Test("Each cell's marker is the annotation added first there, after a bulk add and after moves")
  func firstAddedStandsForTheCell() throws {
    let d = ClusterDelegate()
    let (map, at) = clusterScene(d)
    // At cell centres (a node narrower than a cell then holds one cell's annotations): the
    // index's bulk insertion goes in Z-order, not the order of addition.
    let places = scatter(at, count: 4_000, seed: 11)
    map.addAnnotations(places)
    func check(_ label: String) throws {
      map.layoutIfNeeded()
      let vp = map.viewport
      var first: [Int: Int] = [:]
      for (n, a) in places.enumerated() {
        guard let c = vp.cell(for: MapPoint(a.coordinate)) else { continue }
        let key = c.row * vp.columns + c.column
        if first[key] == nil { first[key] = n }
      }
      var checked = 0
      for v in map.annotationViewsOnScreen where !(v.annotation is ClusterAnnotation) {
        let a = try #require(v.annotation)
        let c = try #require(vp.cell(for: v.layoutPoint))
        let n = try #require(first[c.row * vp.columns + c.column])
        #expect(places[n] === a, "\(label): cell \(c)")
        checked += 1
      }
      #expect(checked == first.count, "\(label)")
    }
    try check("added")
    // Moves of a whole cell keep every annotation at a cell centre.
    let vp = map.viewport
    for round in 0..<3 {
      var moved: [PointAnnotation] = []
      for (n, a) in places.enumerated() where (n + round) % 4 == 0 {
        guard let c = vp.cell(for: MapPoint(a.coordinate)) else { continue }
        a.coordinate = at(c.column + (n % 3) - 1, c.row + (n / 3 % 3) - 1)
        moved.append(a)
      }
      map.annotationsDidMove(moved)
      try check("round \(round)")
    }
  }

  @Test("Moving many at once draws what moving them one at a time draws, clusters and all")
  func bulkMoveSameAsSingle() throws {
    let maps = [ClusterDelegate(), ClusterDelegate()].map { d -> (MapView, ClusterDelegate) in
      let (map, _) = clusterScene(d)
      return (map, d)
    }
    let (_, at) = clusterScene(ClusterDelegate())
    let sets = [scatter(at, count: 3_000, seed: 3), scatter(at, count: 3_000, seed: 3)]
    for (k, (map, _)) in maps.enumerated() { map.addAnnotations(sets[k]) }
    #expect(maps[0].0.renderFrame().text == maps[1].0.renderFrame().text)
    let vp = maps[0].0.viewport
    for round in 0..<5 {
      for k in 0..<2 {
        var moved: [PointAnnotation] = []
        for (n, a) in sets[k].enumerated() where (n + round) % 3 == 0 {
          a.coordinate = step(a, n, round: round, vp)
          moved.append(a)
        }
        if k == 0 {
          maps[0].0.annotationsDidMove(moved)
        } else {
          for a in moved { maps[1].0.annotationDidMove(a) }
        }
      }
      let bulk = maps[0].0.renderFrame().text
      let single = maps[1].0.renderFrame().text
      #expect(bulk == single, "round \(round)\n\(bulk)\n\(single)")
      #expect(bulk.contains("◉"))
      #expect(clusterTitles(maps[0].0) == clusterTitles(maps[1].0))
      try checkClusters(maps[0].0)
      try checkClusters(maps[1].0)
    }
  }

  @Test(
    "A cluster whose members move within their cells is kept, selected; one that loses a member is made again"
  )
  func clusterKeptWhileMembersStay() throws {
    let d = ClusterDelegate()
    let (map, at) = clusterScene(d)
    let cafes = [
      PointAnnotation(coordinate: at(30, 10), title: "Alpha"),
      PointAnnotation(coordinate: at(30, 10), title: "Alpha 2"),
      PointAnnotation(coordinate: at(33, 10), title: "Bravo"),
      PointAnnotation(coordinate: at(36, 10), title: "Charlie"),
    ]
    map.addAnnotations(cafes)
    _ = map.renderFrame()
    let clusterView = try #require(map.annotationView(atColumn: 30, row: 10))
    let cluster = try #require(clusterView.annotation as? ClusterAnnotation)
    map.selectAnnotation(cluster, animated: false)
    d.events.removeAll()
    // Every member moves a quarter of a cell, staying in its cell.
    let cell = map.viewport.cellSizeInMapPoints
    for a in cafes {
      var p = MapPoint(a.coordinate)
      p.x += cell.width / 4
      p.y -= cell.height / 4
      a.coordinate = p.coordinate
    }
    map.annotationsDidMove(cafes)
    let frame = map.renderFrame()
    #expect(map.selectedAnnotations.first === cluster)
    #expect(map.annotationView(atColumn: 30, row: 10) === clusterView)
    #expect(d.events.isEmpty, "\(d.events)")
    #expect(frame[30, 10].glyph == "◉" && frame[30, 10].reverse)
    // The cluster stands where its first member stands now.
    #expect(cluster.coordinate == cafes[0].coordinate)
    // Charlie leaves: the cluster of the three left is a new one, the old one deselected.
    cafes[3].coordinate = at(10, 16)
    map.annotationsDidMove([cafes[3]])
    let after = map.renderFrame()
    #expect(d.events.first == .deselect("cluster(4)"))
    #expect(d.events.contains(.clusterFor(["Alpha", "Alpha 2", "Bravo"])))
    #expect(after.lines[10].contains("◉ 3"), "\(after.text)")
    #expect(after.lines[16].contains("● Charlie"), "\(after.text)")
    #expect(map.selectedAnnotations.isEmpty)
  }

  @Test(
    "Moves handed over by slot (with their coordinates, their map points or neither) draw what moves by annotation draw, clusters and all",
    arguments: [0, 1, 2])
  func movesBySlotSameAsByAnnotation(handing: Int) throws {
    // The delegates kept (a map holds its delegate weakly): they give the views their
    // clustering identifiers.
    let delegates = [ClusterDelegate(), ClusterDelegate()]
    let maps = delegates.map { clusterScene($0).0 }
    let (_, at) = clusterScene(ClusterDelegate())
    let sets = [scatter(at, count: 3_000, seed: 5), scatter(at, count: 3_000, seed: 5)]
    for (k, map) in maps.enumerated() { map.addAnnotations(sets[k]) }
    let slots = try sets[0].map { try #require(maps[0].slot(of: $0)) }
    #expect(maps[0].renderFrame().text == maps[1].renderFrame().text)
    let vp = maps[0].viewport
    for round in 0..<5 {
      var bySlot: [AnnotationSlot] = []
      var coordinates: [Coordinate] = []
      var byAnnotation: [PointAnnotation] = []
      for n in sets[0].indices where (n + round) % 3 == 0 {
        sets[0][n].coordinate = step(sets[0][n], n, round: round, vp)
        sets[1][n].coordinate = step(sets[1][n], n, round: round, vp)
        bySlot.append(slots[n])
        coordinates.append(sets[0][n].coordinate)
        byAnnotation.append(sets[1][n])
      }
      // Only the places changed: the views need not be prepared again.
      if handing == 1 {
        maps[0].annotationsDidMove(
          inSlots: bySlot.reversed(), coordinates: coordinates.reversed(), redisplaying: false)
      } else if handing == 2 {
        maps[0].annotationsDidMove(
          inSlots: bySlot.reversed(), points: coordinates.reversed().map(MapPoint.init),
          redisplaying: false)
      } else {
        maps[0].annotationsDidMove(inSlots: bySlot.reversed(), redisplaying: false)
      }
      maps[1].annotationsDidMove(byAnnotation)
      let a = maps[0].renderFrame().text
      let b = maps[1].renderFrame().text
      #expect(a == b, "round \(round)\n\(a)\n\(b)")
      #expect(a.contains("◉"), "\(a)")
      #expect(clusterTitles(maps[0]) == clusterTitles(maps[1]))
      try checkClusters(maps[0])
    }
    withExtendedLifetime(delegates) {}
  }

  @Test(
    "Clusters kept by their members' claims are those kept by their signatures: frames, clusters kept, delegate calls"
  )
  func keptByClaimsSameAsBySignature() throws {
    // Map 0 keeps a cluster whose members' claims are the last pass's without reading its
    // signature; map 1 is made to read every cluster's signature before each frame, as a pass
    // did before.
    let delegates = [ClusterDelegate(), ClusterDelegate()]
    let maps = delegates.map { clusterScene($0).0 }
    let (_, at) = clusterScene(ClusterDelegate())
    let sets = [scatter(at, count: 2_500, seed: 9), scatter(at, count: 2_500, seed: 9)]
    for (k, map) in maps.enumerated() { map.addAnnotations(sets[k]) }
    func frames(_ label: String) throws {
      maps[1].annotationViews.lastClusterPass = ClusterPass()
      let a = maps[0].renderFrame().text
      let b = maps[1].renderFrame().text
      #expect(a == b, "\(label)\n\(a)\n\(b)")
      #expect(a.contains("◉"), "\(a)")
      #expect(delegates[0].events == delegates[1].events, "\(label)")
      #expect(clusterTitles(maps[0]) == clusterTitles(maps[1]), "\(label)")
      #expect(
        maps[0].selectedAnnotations.map { ClusterDelegate.name($0) }
          == maps[1].selectedAnnotations.map { ClusterDelegate.name($0) }, "\(label)")
      try checkClusters(maps[0])
      for d in delegates { d.events.removeAll() }
    }
    try frames("added")
    let vp = maps[0].viewport
    var extra: [[PointAnnotation]] = [[], []]
    for round in 0..<8 {
      switch round {
      case 2:
        // A cluster selected stays selected while its members stay.
        maps[1].annotationViews.lastClusterPass = ClusterPass()
        for map in maps {
          let cluster = map.annotationViewsOnScreen.compactMap {
            $0.annotation as? ClusterAnnotation
          }
          .min { ($0.title ?? "") < ($1.title ?? "") }
          map.selectAnnotation(try #require(cluster), animated: false)
        }
      case 3:
        // Annotations come and go.
        for k in 0..<2 {
          maps[k].removeAnnotations(Array(sets[k][100..<140]))
          extra[k] = scatter(at, count: 60, seed: 21)
          maps[k].addAnnotations(extra[k])
        }
      case 5:
        // A member of a cluster is selected and deselected between two frames (it shows while
        // selected): the next frame hides it again in its cluster, though its claim is as it
        // was.
        maps[1].annotationViews.lastClusterPass = ClusterPass()
        for (k, map) in maps.enumerated() {
          // The first member of a cluster none of whose members move in this round.
          var movers = Set<ObjectIdentifier>()
          for (n, a) in sets[k].enumerated() where (n + round) % 11 == 0 {
            movers.insert(ObjectIdentifier(a))
          }
          let still = map.annotationViewsOnScreen.compactMap { $0.annotation as? ClusterAnnotation }
            .filter { c in !c.memberAnnotations.contains { movers.contains(ObjectIdentifier($0)) } }
          let cluster = try #require(still.min { ($0.title ?? "") < ($1.title ?? "") })
          let member = try #require(cluster.memberAnnotations.first)
          #expect(try #require(map.view(for: member)).isHidden)
          map.selectAnnotation(member, animated: false)
          map.deselectAnnotation(member, animated: false)
        }
      default:
        break
      }
      // A few move (most within their cells, some across the screen): most clusters keep their
      // members' claims.
      for k in 0..<2 {
        var moved: [PointAnnotation] = []
        for (n, a) in sets[k].enumerated() where (n + round) % 11 == 0 {
          a.coordinate = step(a, n, round: round, vp)
          moved.append(a)
        }
        maps[k].annotationsDidMove(moved)
      }
      try frames("round \(round)")
    }
    // Panning moves every cell: every cluster is kept (same members, same zoom).
    for map in maps {
      map.setCenter(vp.mapPoint(forCellColumn: 33, row: 11).coordinate, animated: false)
    }
    try frames("panned")
    withExtendedLifetime(delegates) {}
  }

  /// A 40 × 10 map of Lisbon at zoom 12, and the coordinate of a cell's centre on it.
  static func smallLisbonMap() -> (MapView, (Int, Int) -> Coordinate) {
    let map = MapView(columns: 40, rows: 10)
    map.setCenter(Coordinate(latitude: 38.7223, longitude: -9.1393), animated: false)
    map.setZoomLevel(12, animated: false)
    let vp = map.viewport
    return (map, { c, r in vp.mapPoint(forCellColumn: c, row: r).coordinate })
  }

  @Test("A slot names its annotation until it is removed, not the one that takes its place")
  func slotOfRemovedAnnotation() {
    let (map, at) = Self.smallLisbonMap()
    let alpha = PointAnnotation(coordinate: at(5, 2), title: "Alpha")
    let bravo = PointAnnotation(coordinate: at(5, 6), title: "Bravo")
    map.addAnnotations([alpha, bravo])
    let alphaSlot = map.slot(of: alpha)
    #expect(alphaSlot != nil)
    map.removeAnnotation(alpha)
    #expect(map.slot(of: alpha) == nil)
    // Charlie takes the place Alpha left in the index.
    let charlie = PointAnnotation(coordinate: at(20, 2), title: "Charlie")
    map.addAnnotation(charlie)
    charlie.coordinate = at(20, 8)
    map.annotationsDidMove(inSlots: [alphaSlot!])
    var frame = map.renderFrame()
    #expect(frame[20, 2].glyph == "●" && frame[20, 8].glyph != "●", "\(frame.text)")
    let charlieSlot = map.slot(of: charlie)
    #expect(charlieSlot != nil && charlieSlot != alphaSlot)
    map.annotationsDidMove(inSlots: [charlieSlot!])
    frame = map.renderFrame()
    #expect(frame[20, 8].glyph == "●" && frame[20, 2].glyph != "●", "\(frame.text)")
    #expect(frame.lines[8].contains("● Charlie") && frame.lines[6].contains("● Bravo"))
  }

  @Test("Moved by slot without redisplaying, a view keeps what it shows; redisplayed, it follows")
  func redisplayingOrNot() throws {
    let (map, at) = Self.smallLisbonMap()
    let alpha = PointAnnotation(coordinate: at(5, 2), title: "Alpha")
    map.addAnnotation(alpha)
    #expect(map.renderFrame().lines[2].contains("● Alpha"))
    let slot = try #require(map.slot(of: alpha))
    alpha.coordinate = at(5, 5)
    alpha.title = "Zulu"
    map.annotationsDidMove(inSlots: [slot], redisplaying: false)
    var frame = map.renderFrame()
    #expect(frame.lines[5].contains("● Alpha") && !frame.lines[2].contains("●"), "\(frame.text)")
    alpha.coordinate = at(5, 7)
    map.annotationsDidMove(inSlots: [slot])
    frame = map.renderFrame()
    #expect(frame.lines[7].contains("● Zulu") && !frame.text.contains("Alpha"), "\(frame.text)")
  }
}
