import DotRaster
import MapGeometry
import Testing

@testable import TermMapKit

/// Records the delegate calls of clustering and dragging, in order, and makes standard markers
/// with a clustering identifier (by annotation title: "bar…" titles get "bars", others "cafes").
@MainActor
final class ClusterDelegate: MapViewDelegate {
  enum Event: Equatable {
    case viewFor(String)
    case added(Int)
    case clusterFor([String])
    case select(String)
    case deselect(String)
    case drag(AnnotationView.DragState, from: AnnotationView.DragState)
  }
  var events: [Event] = []
  /// The identifier given to each view (nil: no clustering).
  var identifier: ((any Annotation) -> String?) = { a in
    (a.title ?? "").hasPrefix("Bar") ? "bars" : "cafes"
  }
  var priority = DisplayPriority.defaultLow
  var draggable = false
  /// The dragged annotation's coordinate when the delegate heard `.ending`.
  var coordinateAtEnding: Coordinate?

  static func name(_ a: (any Annotation)?) -> String {
    guard let a else { return "nil" }
    if let c = a as? ClusterAnnotation { return "cluster(\(c.memberAnnotations.count))" }
    return a.title ?? "?"
  }

  func mapView(_ mapView: MapView, viewFor annotation: any Annotation) -> AnnotationView? {
    events.append(.viewFor(Self.name(annotation)))
    // Clusters get the standard cluster view.
    guard !(annotation is ClusterAnnotation) else { return nil }
    let v = try? mapView.dequeueReusableAnnotationView(withIdentifier: "cafe", for: annotation)
    v?.clusteringIdentifier = identifier(annotation)
    v?.displayPriority = priority
    v?.isDraggable = draggable
    return v
  }
  func mapView(_ mapView: MapView, didAdd views: [AnnotationView]) {
    events.append(.added(views.count))
  }
  func mapView(
    _ mapView: MapView, clusterAnnotationForMemberAnnotations memberAnnotations: [any Annotation]
  ) -> ClusterAnnotation {
    events.append(.clusterFor(memberAnnotations.map { Self.name($0) }))
    return ClusterAnnotation(memberAnnotations: memberAnnotations)
  }
  func mapView(_ mapView: MapView, didSelect annotation: any Annotation) {
    events.append(.select(Self.name(annotation)))
  }
  func mapView(_ mapView: MapView, didDeselect annotation: any Annotation) {
    events.append(.deselect(Self.name(annotation)))
  }
  func mapView(
    _ mapView: MapView, annotationView view: AnnotationView,
    didChange newState: AnnotationView.DragState, fromOldState oldState: AnnotationView.DragState
  ) {
    events.append(.drag(newState, from: oldState))
    if newState == .ending { coordinateAtEnding = view.annotation?.coordinate }
  }
}

/// A 60 × 20 map at zoom 12 (centre cell 30, 10) with a `ClusterDelegate`, and the coordinate at
/// the centre of a cell.
@MainActor
func clusterScene(_ d: ClusterDelegate) -> (MapView, (Int, Int) -> Coordinate) {
  let map = MapView(columns: 60, rows: 20)
  map.delegate = d
  map.register(MarkerAnnotationView.self, forAnnotationViewWithReuseIdentifier: "cafe")
  map.setCenter(Coordinate(latitude: 38.7223, longitude: -9.1393), animated: false)
  map.setZoomLevel(12, animated: false)
  let vp = map.viewport
  return (map, { c, r in vp.mapPoint(forCellColumn: c, row: r).coordinate })
}

@MainActor
@Suite("Clustering: clusteringIdentifier, ClusterAnnotation, the cluster view")
struct ClusteringTests {
  /// Alpha at the centre (with Alpha 2 in its cell), Bravo and Charlie on its label, and Delta
  /// far off, all "cafes".
  func cafes(_ at: (Int, Int) -> Coordinate) -> [PointAnnotation] {
    [
      PointAnnotation(coordinate: at(30, 10), title: "Alpha"),
      PointAnnotation(coordinate: at(30, 10), title: "Alpha 2"),
      PointAnnotation(coordinate: at(33, 10), title: "Bravo"),
      PointAnnotation(coordinate: at(36, 10), title: "Charlie"),
      PointAnnotation(coordinate: at(10, 3), title: "Delta"),
    ]
  }

  @Test("Colliding markers with one identifier become one cluster marker showing the count")
  func collidingMarkersCluster() throws {
    let d = ClusterDelegate()
    let (map, at) = clusterScene(d)
    let places = cafes(at)
    map.addAnnotations(places)
    let frame = map.renderFrame()
    // Bravo and Charlie ran into Alpha's label: one cluster of four stands at Alpha's cell.
    #expect(frame[30, 10].glyph == "◉", "\(frame.lines[10])")
    #expect(frame.lines[10].contains("◉ 4"), "\(frame.lines[10])")
    #expect(!frame.text.contains("Bravo") && !frame.text.contains("Alpha"), "\(frame.text)")
    // Delta, alone, is a marker of its own.
    #expect(frame[10, 3].glyph == "●" && frame.lines[3].contains("● Delta"))

    let clusterView = try #require(map.annotationView(atColumn: 30, row: 10))
    let cluster = try #require(clusterView.annotation as? ClusterAnnotation)
    #expect(clusterView is ClusterAnnotationView)
    #expect(clusterView.reuseIdentifier == MapView.defaultClusterAnnotationViewReuseIdentifier)
    // Alpha's cell first (Alpha stood for it), then the others, first added first.
    #expect(
      cluster.memberAnnotations.map { $0.title ?? "" } == ["Alpha", "Alpha 2", "Bravo", "Charlie"])
    #expect(cluster.coordinate == places[0].coordinate)
    #expect(map.annotations(atColumn: 30, row: 10).first === cluster)
    // The members' views are hidden and point at the cluster's view; Delta's is not clustered.
    for p in places[0..<4] where map.view(for: p) != nil {
      #expect(map.view(for: p)?.isHidden == true)
      #expect(map.view(for: p)?.cluster === clusterView)
    }
    #expect(map.view(for: places[4])?.cluster == nil)
    #expect(map.view(for: cluster) === clusterView)
    // A cluster is not one of the map's annotations.
    #expect(map.annotationCount == 5)

    // The delegate: the views of the four cells with annotations (in the index's order), then
    // the cluster and its view.
    #expect(
      d.events == [
        .viewFor("Delta"), .viewFor("Alpha"), .viewFor("Bravo"), .viewFor("Charlie"), .added(4),
        .clusterFor(["Alpha", "Alpha 2", "Bravo", "Charlie"]), .viewFor("cluster(4)"), .added(1),
      ])
  }

  @Test("Markers with another identifier or none are hidden and counted, not clustered")
  func otherIdentifiersAreNotClustered() {
    let d = ClusterDelegate()
    let (map, at) = clusterScene(d)
    var places = cafes(at)
    // Bravo becomes a bar: it collides with Alpha but joins no cluster.
    places[2] = PointAnnotation(coordinate: at(33, 10), title: "Bar Bravo")
    map.addAnnotations(places)
    let row = map.renderFrame().lines[10]
    // Alpha, Alpha 2 and Charlie: a cluster of 3, with the bar counted in its +1.
    #expect(row.contains("◉ 3 +1"), "\(row)")
    #expect(map.view(for: places[2])?.isHidden == true)
    #expect(map.view(for: places[2])?.cluster == nil)

    // With no identifiers, no clusters: the old marker counts everything.
    let plain = ClusterDelegate()
    plain.identifier = { _ in nil }
    let (map2, at2) = clusterScene(plain)
    map2.addAnnotations(cafes(at2))
    let row2 = map2.renderFrame().lines[10]
    #expect(row2.contains("● Alpha +3") && !row2.contains("◉"), "\(row2)")
    #expect(!plain.events.contains { if case .clusterFor = $0 { true } else { false } })
  }

  @Test("Required views always show and never cluster")
  func requiredViewsNeverCluster() {
    let d = ClusterDelegate()
    d.priority = .required
    let (map, at) = clusterScene(d)
    map.addAnnotations(cafes(at))
    let frame = map.renderFrame()
    #expect(!frame.text.contains("◉"))
    #expect(frame[30, 10].glyph == "●" && frame[33, 10].glyph == "●" && frame[36, 10].glyph == "●")
  }

  @Test("A cluster is selectable: its callout counts and lists the members")
  func clusterSelection() throws {
    let d = ClusterDelegate()
    let (map, at) = clusterScene(d)
    map.addAnnotations(cafes(at))
    _ = map.renderFrame()
    let clusterView = try #require(map.annotationView(atColumn: 30, row: 10))
    let cluster = try #require(clusterView.annotation)
    d.events.removeAll()
    map.selectAnnotation(cluster, animated: false)
    #expect(map.selectedAnnotations.first === cluster && clusterView.isSelected)
    #expect(map.isCalloutVisible)
    #expect(d.events == [.select("cluster(4)")])
    let frame = map.renderFrame()
    // The box beside the marker: the first member's title, the count of the others, their
    // titles.
    let lines = frame.lines
    #expect(lines[10].contains("│ Alpha"), "\(frame.text)")
    #expect(lines[11].contains("│ +3 more"), "\(frame.text)")
    #expect(lines[12].contains("│ Alpha 2"), "\(frame.text)")
    #expect(lines[13].contains("│ Bravo"), "\(frame.text)")
    #expect(lines[14].contains("│ Charlie"), "\(frame.text)")
    #expect(frame[30, 10].glyph == "◉" && frame[30, 10].reverse)

    // Panning a cell keeps the same cluster, still selected (its members are the same).
    map.pan(byDotsX: Double(CellGeometry.dotsWide), y: 0)
    _ = map.renderFrame()
    #expect(map.selectedAnnotations.first === cluster)
    #expect(map.annotationView(atColumn: 29, row: 10) === clusterView)
    #expect(d.events == [.select("cluster(4)")])
  }

  @Test("A cluster is zoomable: showing its members splits it, and it is deselected")
  func zoomToMembers() throws {
    let d = ClusterDelegate()
    let (map, at) = clusterScene(d)
    map.addAnnotations(cafes(at))
    _ = map.renderFrame()
    let cluster = try #require(map.annotationView(atColumn: 30, row: 10)?.annotation)
    let members = try #require((cluster as? ClusterAnnotation)?.memberAnnotations)
    map.selectAnnotation(cluster, animated: false)
    d.events.removeAll()
    map.showAnnotations(members, animated: false)
    let frame = map.renderFrame()
    #expect(!frame.text.contains("◉"), "\(frame.text)")
    // Three markers in a row: Alpha (with Alpha 2 in its cell), Bravo, and Charlie at the edge.
    let row = try #require(frame.lines.first { $0.contains("Alpha") })
    #expect(row.contains("● Alpha +1") && row.contains("● Bravo"), "\(frame.text)")
    #expect(row.filter { $0 == "●" }.count == 3, "\(frame.text)")
    #expect(map.view(for: members[2])?.cluster == nil)
    #expect(map.selectedAnnotations.isEmpty)
    #expect(d.events.first == .deselect("cluster(4)"))
    // Zooming out again makes a new cluster of the same four.
    map.setZoomLevel(12, animated: false)
    map.setCenter(members[0].coordinate, animated: false)
    let again = map.renderFrame()
    #expect(again.lines[10].contains("◉ 4"), "\(again.text)")
    #expect(d.events.contains(.clusterFor(["Alpha", "Alpha 2", "Bravo", "Charlie"])))
  }

  @Test("Every annotation on screen is in one cluster or counted by one marker, every time")
  func everyAnnotationCountedOnce() throws {
    for seed in [1, 2] as [UInt64] {
      var frames: [String] = []
      for _ in 0..<2 {
        let d = ClusterDelegate()
        let (map, at) = clusterScene(d)
        var rng = SplitMix(seed: seed)
        var places: [PointAnnotation] = []
        for n in 0..<10_000 {
          let c = Int(rng.next() % 70) - 5
          let r = Int(rng.next() % 26) - 3
          places.append(
            PointAnnotation(coordinate: at(c, r), title: n % 3 == 0 ? "Bar \(n)" : "C\(n)"))
        }
        map.addAnnotations(places)
        let frame = map.renderFrame()
        frames.append(frame.text)
        let onScreen = map.annotations(in: map.viewport.mapRect).count
        var counted = 0
        var members = Set<ObjectIdentifier>()
        var clusters = 0
        for v in map.annotationViewsOnScreen where !v.isHidden {
          if let c = v.annotation as? ClusterAnnotation {
            clusters += 1
            counted += c.memberAnnotations.count + v.collidedCount
            for m in c.memberAnnotations { #expect(members.insert(ObjectIdentifier(m)).inserted) }
          } else {
            counted += v.representedCount + v.collidedCount
          }
        }
        #expect(clusters > 10)
        #expect(counted == onScreen, "seed \(seed)")
        // The members found in one walk of the screen are those found cell by cell.
        let vp = map.viewport
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
          // The first member stands where the cluster stands.
          let first = try #require(c.memberAnnotations.first)
          #expect(vp.cell(for: MapPoint(first.coordinate))! == vp.cell(for: cv.layoutPoint)!)
        }
      }
      #expect(frames[0] == frames[1], "the same scene draws the same frame")
    }
  }
}
