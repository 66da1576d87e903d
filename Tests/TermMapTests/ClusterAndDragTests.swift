import TermMap
import Testing

/// A view of one's own that moves on from `.starting` only when told (as an animated pin
/// would), and a delegate that names its clusters: clustering and dragging from outside the
/// kit.
@MainActor
final class SlowPin: AnnotationView {
  override func setDragState(_ newState: DragState, animated: Bool) {
    // `.dragging` comes later, from `lifted()`; a drop or a cancel settles at once.
    dragState = newState
    if newState == .ending || newState == .canceling { dragState = .none }
  }

  func lifted() { dragState = .dragging }
}

@MainActor
final class Stations: MapViewDelegate {
  var heard: [String] = []

  func mapView(_ mapView: MapView, viewFor annotation: any Annotation) -> AnnotationView? {
    guard !(annotation is ClusterAnnotation) else { return nil }
    let view = try? mapView.dequeueReusableAnnotationView(withIdentifier: "pin", for: annotation)
    view?.label = annotation.title
    view?.clusteringIdentifier = "stations"
    view?.displayPriority = .defaultLow
    view?.isDraggable = true
    return view
  }

  func mapView(
    _ mapView: MapView, clusterAnnotationForMemberAnnotations memberAnnotations: [any Annotation]
  ) -> ClusterAnnotation {
    let cluster = ClusterAnnotation(memberAnnotations: memberAnnotations)
    cluster.title = "\(memberAnnotations.count) stations"
    cluster.subtitle = nil
    return cluster
  }

  func mapView(
    _ mapView: MapView, annotationView view: AnnotationView,
    didChange newState: AnnotationView.DragState, fromOldState oldState: AnnotationView.DragState
  ) {
    heard.append("\(oldState)→\(newState)")
  }
}

@Suite("Clustering and dragging from outside the kit")
@MainActor
struct ClusterAndDragTests {
  @Test("a cluster of one's own titles its callout; a view of one's own moves its drag on")
  func clusterAndDrag() throws {
    let map = MapView(columns: 60, rows: 16)
    let stations = Stations()
    map.delegate = stations
    map.register(SlowPin.self, forAnnotationViewWithReuseIdentifier: "pin")
    let centre = Coordinate(latitude: 60.1710, longitude: 24.9414)
    map.setCenter(centre, animated: false)
    map.setZoomLevel(12, animated: false)
    let vp = map.viewport
    func at(_ c: Int, _ r: Int) -> Coordinate { vp.mapPoint(forCellColumn: c, row: r).coordinate }
    let names = ["Central", "Kaisaniemi", "Kamppi", "Rautatientori"]
    let places = names.enumerated().map { n, name in
      PointAnnotation(coordinate: at(30 + 2 * n, 8), title: name)
    }
    let lone = PointAnnotation(coordinate: at(10, 3), title: "Pasila")
    map.addAnnotations(places + [lone])
    let frame = map.renderFrame()
    #expect(frame.lines[8].contains("◉ 4"), "\(frame.lines.joined(separator: "\n"))")
    let view = try #require(map.annotationView(atColumn: 30, row: 8))
    let cluster = try #require(view.annotation as? ClusterAnnotation)
    #expect(cluster.memberAnnotations.count == 4)
    map.selectAnnotation(cluster, animated: false)
    let selected = map.renderFrame().lines.joined(separator: "\n")
    #expect(selected.contains("4 stations") && selected.contains("Kamppi"), "\(selected)")

    // Pasila, dragged two cells down by its own view's pace.
    #expect(map.beginDrag(atColumn: 10, row: 3))
    let pin = try #require(map.view(for: lone) as? SlowPin)
    #expect(pin.dragState == .starting)
    pin.lifted()
    map.drag(toColumn: 10, row: 5)
    map.endDrag()
    #expect(
      stations.heard == ["none→starting", "starting→dragging", "dragging→ending", "ending→none"])
    let after = map.renderFrame()
    #expect(after.lines[5].contains("● Pasila") && !after.lines[3].contains("Pasila"))
  }
}
