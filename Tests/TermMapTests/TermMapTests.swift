import Foundation
import TermMap
import Testing

/// A renderer of one's own: a cross through the overlay's bounds.
final class CrossRenderer: OverlayRenderer, @unchecked Sendable {
  // `@unchecked Sendable`: no state of its own; the base class keeps its own behind a mutex.
  override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let r = rect(for: overlay.boundingMapRect)
    context.strokeColor = .brightGreen
    context.lineWidth = 1 / zoomScale
    context.move(to: Point2D(x: r.x, y: r.y))
    context.addLine(to: Point2D(x: r.x + r.width, y: r.y + r.height))
    context.move(to: Point2D(x: r.x + r.width, y: r.y))
    context.addLine(to: Point2D(x: r.x, y: r.y + r.height))
    context.strokePath()
  }
}

final class Square: Overlay {
  let boundingMapRect: MapRect
  init(_ r: MapRect) { boundingMapRect = r }
}

@MainActor
final class Styles: MapViewDelegate {
  func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
    if overlay is Square { return CrossRenderer(overlay: overlay) }
    let r = MapView.defaultRenderer(for: overlay)
    (r as? OverlayPathRenderer)?.strokeColor = .brightRed
    return r
  }
}

@Suite("import TermMap")
struct TermMapTests {
  @Test("one import gives the map, shapes, annotations, callouts and a renderer of one's own")
  @MainActor func oneImport() throws {
    let map = MapView(columns: 60, rows: 20)
    let styles = Styles()
    map.delegate = styles
    let route = Polyline(coordinates: [
      Coordinate(latitude: 38.70, longitude: -9.16), Coordinate(latitude: 38.72, longitude: -9.12),
    ])
    let hole = Polygon(coordinates: [
      Coordinate(latitude: 38.705, longitude: -9.15),
      Coordinate(latitude: 38.705, longitude: -9.14),
      Coordinate(latitude: 38.71, longitude: -9.14),
    ])
    let block = Polygon(
      coordinates: [
        Coordinate(latitude: 38.70, longitude: -9.155),
        Coordinate(latitude: 38.70, longitude: -9.135),
        Coordinate(latitude: 38.715, longitude: -9.135),
        Coordinate(latitude: 38.715, longitude: -9.155),
      ], interiorPolygons: [hole])
    let marker = PointAnnotation(
      coordinate: Coordinate(latitude: 38.713, longitude: -9.13), title: "Miradouro",
      subtitle: "Viewpoint")
    map.addOverlays([route, block, Square(route.boundingMapRect)])
    map.addAnnotation(marker)
    map.showAllContent(animated: false)
    map.selectAnnotation(marker, animated: false)
    let frame = map.renderFrame()
    let text = frame.lines.joined(separator: "\n")
    #expect(text.contains("Miradouro"))
    #expect(text.contains("Viewpoint"))
    #expect(frame.cells.contains { $0.foreground == .brightGreen })
    #expect(frame.cells.contains { $0.foreground == .brightRed })
    #expect(frame.cells.filter { (0x2801...0x28FF).contains($0.glyph.value) }.count > 50)
  }
}

/// A kind of overlay the kit has never heard of: rings around a radio mast. Its bounding rect
/// is the world (the rings' radius changes), its content the rings, and it carries credits.
final class RangeRings: Overlay {
  let center: MapPoint
  let radius: Double
  init(_ center: Coordinate, radius: Double) {
    self.center = MapPoint(center)
    self.radius = radius
  }
  var boundingMapRect: MapRect { .world }
  var contentBounds: MapRect {
    MapRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
  }
  var attribution: String { "Rings: test licence" }
}

final class RingsRenderer: OverlayRenderer, @unchecked Sendable {
  // `@unchecked Sendable`: no state of its own; the base class keeps its own behind a mutex.
  override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    guard let rings = overlay as? RangeRings else { return }
    let c = point(for: rings.center)
    context.strokeColor = .brightCyan
    context.lineWidth = 1 / zoomScale
    for k in 1...3 {
      let r = rings.radius * Double(k) / 3
      context.addEllipse(in: Rect2D(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
    }
    context.strokePath()
  }
}

/// The mast itself: an annotation kind with a view of its own, no delegate needed.
final class Mast: DefaultAnnotationViewProviding {
  let coordinate: Coordinate
  init(_ c: Coordinate) { coordinate = c }
  var title: String? { "S55ABC" }
  @MainActor func makeDefaultAnnotationView() -> AnnotationView {
    let v = AnnotationView(annotation: self, reuseIdentifier: nil)
    v.glyph = "⚑"
    v.color = .brightMagenta
    return v
  }
}

@MainActor
final class RingStyles: MapViewDelegate {
  func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
    overlay is RangeRings
      ? RingsRenderer(overlay: overlay) : MapView.defaultRenderer(for: overlay)
  }
}

@Suite("Layers answer for themselves")
struct OverlayContentTests {
  @Test(
    "an overlay kind from outside the kit: the view fits its content bounds, and its credits show while it draws"
  )
  @MainActor func outsideKind() throws {
    let map = MapView(columns: 60, rows: 20)
    let styles = RingStyles()
    map.delegate = styles
    let rings = RangeRings(Coordinate(latitude: 46.05, longitude: 14.5), radius: 20_000)
    map.addOverlay(rings)
    #expect(map.contentMapRect == rings.contentBounds)
    map.showAllContent(animated: false)
    #expect(map.visibleMapRect.contains(rings.contentBounds.mid))
    #expect(map.visibleMapRect.width < MapRect.world.width / 100)
    let frame = map.renderFrame()
    #expect(frame.cells.contains { $0.foreground == .brightCyan })
    #expect(map.visibleAttribution == ["Rings: test licence"])
    // An annotation kind with its own view: drawn with it, though the delegate gives none.
    map.addAnnotation(Mast(Coordinate(latitude: 46.05, longitude: 14.5)))
    let marked = map.renderFrame()
    #expect(marked.cells.contains { $0.glyph == "⚑" && $0.foreground == .brightMagenta })
    // Off screen, its credits go.
    map.setCenter(Coordinate(latitude: -40, longitude: 170), animated: false)
    _ = map.renderFrame()
    #expect(map.visibleAttribution.isEmpty)
  }
}

@MainActor
final class SelectionLog: MapViewDelegate {
  var events: [String] = []
  func mapView(_ mapView: MapView, didSelect view: AnnotationView) {
    events.append("view+ \(view.annotation?.title ?? "")")
  }
  func mapView(_ mapView: MapView, didDeselect view: AnnotationView) {
    events.append("view- \(view.annotation?.title ?? "")")
  }
  func mapView(_ mapView: MapView, didSelect annotation: any Annotation) {
    events.append("annotation+ \(annotation.title ?? "")")
  }
  func mapView(_ mapView: MapView, didDeselect annotation: any Annotation) {
    events.append("annotation- \(annotation.title ?? "")")
  }
  func mapView(_ mapView: MapView, viewFor annotation: any Annotation) -> AnnotationView? {
    let v = MarkerAnnotationView(annotation: annotation, reuseIdentifier: nil)
    // The café, a cell east, is drawn a cell west: above the bakery, in its cell.
    v.zPriority = annotation.title == "Café" ? 800 : 600
    if annotation.title == "Café" { v.centerOffset = (-1, 0) }
    v.collisionMode = .none
    return v
  }
}

@Suite("Which marker is at this cell")
struct HitTestingTests {
  @Test(
    "annotationView(atColumn:row:) is the one drawn on top; annotations(atColumn:row:) lists all, top first; select and deselect tell the view, then the annotation"
  )
  @MainActor func hitTesting() throws {
    let map = MapView(columns: 40, rows: 12)
    let log = SelectionLog()
    map.delegate = log
    let here = Coordinate(latitude: 46.05, longitude: 14.5)
    map.setCenter(here, animated: false)
    map.setZoomLevel(12, animated: false)
    let cell = try #require(map.viewport.cell(for: MapPoint(here)))
    let bakery = PointAnnotation(coordinate: here, title: "Bakery")
    let cafe = PointAnnotation(
      coordinate: map.coordinate(atColumn: cell.column + 1, row: cell.row), title: "Café")
    map.addAnnotations([bakery, cafe])
    _ = map.renderFrame()
    #expect(map.annotationView(atColumn: cell.column, row: cell.row)?.annotation === cafe)
    #expect(
      map.annotations(atColumn: cell.column, row: cell.row).map { $0.title ?? "" } == [
        "Café", "Bakery",
      ])
    #expect(map.annotationView(atColumn: cell.column + 5, row: cell.row) == nil)
    map.selectAnnotation(bakery, animated: false)
    map.selectAnnotation(cafe, animated: false)
    map.deselectAnnotation(cafe, animated: false)
    #expect(
      log.events == [
        "view+ Bakery", "annotation+ Bakery", "view- Bakery", "annotation- Bakery", "view+ Café",
        "annotation+ Café", "view- Café", "annotation- Café",
      ])
  }
}

@Suite("MapCamera")
struct MapCameraTests {
  @Test(
    "the camera is a value: read it, set it back on another map and the view is the same; a nearer eye is a deeper zoom"
  )
  @MainActor func cameraRoundTrip() async throws {
    let map = MapView(columns: 80, rows: 24)
    // In async code the setters are awaited: they return once the change has settled.
    await map.setCenter(Coordinate(latitude: 46.05, longitude: 14.5), animated: false)
    await map.setZoomLevel(13, animated: false)
    let camera = map.camera
    #expect(camera.heading == 0 && camera.pitch == 0)
    // 24 rows of 4 dots at zoom 13 over Ljubljana (about 13 m a dot): about 1.3 km of
    // ground, seen from about 2.4 km.
    #expect(
      camera.centerCoordinateDistance > 2_000 && camera.centerCoordinateDistance < 3_000,
      "\(camera.centerCoordinateDistance)")
    let other = MapView(columns: 80, rows: 24)
    other.camera = camera
    #expect(abs(other.zoomLevel - 13) < 1e-9)
    #expect(abs(other.centerCoordinate.latitude - 46.05) < 1e-9)
    #expect(abs(other.centerCoordinate.longitude - 14.5) < 1e-9)
    // Half the distance is one zoom level deeper; animated, awaited.
    var nearer = camera
    nearer.centerCoordinateDistance /= 2
    nearer.heading = 90  // kept, not drawn
    await other.setCamera(nearer, animated: true)
    #expect(abs(other.zoomLevel - 14) < 1e-9)
    #expect(!other.isAnimating)
  }
}

@MainActor
final class LocationLog: MapViewDelegate {
  var updates = 0
  var times: [Date] = []
  func mapView(_ mapView: MapView, didUpdate userLocation: UserLocation) {
    updates += 1
    if let t = userLocation.location?.timestamp { times.append(t) }
  }
}

@Suite("A location source in one line")
struct LocationProviderTests {
  static let ride = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent(
      "LiveLocationTests/Fixtures/monaco-ride.nmea")

  @Test(
    "map.locationProvider = NMEAStreamProvider(…): the fixes arrive on the main actor in order, the position is on the map; nil stops it"
  )
  @MainActor func oneLine() async throws {
    let map = MapView(columns: 60, rows: 20)
    let log = LocationLog()
    map.delegate = log
    map.locationProvider = NMEAStreamProvider(path: Self.ride.path)
    #expect(map.showsUserLocation)
    // The whole ride: the last fix of the file is where the position stays.
    // A failure bound of 120 s on the clock, not a count of naps.
    let end = Date().addingTimeInterval(120)
    while log.updates < 1_000 && Date() < end {
      try await Task.sleep(for: .milliseconds(50))
    }
    #expect(log.updates >= 1_000, "\(log.updates) fixes")
    // In the order the receiver took them.
    #expect(zip(log.times, log.times.dropFirst()).allSatisfy { $0 <= $1 })
    let here = try #require(map.userLocation.location)
    #expect(abs(here.coordinate.latitude - 43.73) < 0.05)
    #expect(abs(here.coordinate.longitude - 7.42) < 0.05)
    #expect(map.annotations.contains { $0 === map.userLocation })
    map.locationProvider = nil
    #expect(!map.showsUserLocation)
    #expect(map.locationProvider == nil)
  }
}

@Suite("Which overlay is at this cell")
struct OverlayHitTests {
  @Test("overlays(atColumn:row:): those whose ink is in the cell, the one on top first")
  @MainActor func overlaysAtCell() throws {
    let map = MapView(columns: 60, rows: 20)
    let field = Polygon(coordinates: [
      Coordinate(latitude: 46.00, longitude: 14.40), Coordinate(latitude: 46.00, longitude: 14.60),
      Coordinate(latitude: 46.10, longitude: 14.60), Coordinate(latitude: 46.10, longitude: 14.40),
    ])
    let road = Polyline(coordinates: [
      Coordinate(latitude: 46.05, longitude: 14.30), Coordinate(latitude: 46.05, longitude: 14.70),
    ])
    map.addOverlays([field, road])
    map.setVisibleMapRect(road.boundingMapRect.union(field.boundingMapRect), animated: false)
    _ = map.renderFrame()
    // On the road inside the field: both, the road (added later) on top.
    let mid = try #require(
      map.viewport.cell(for: MapPoint(Coordinate(latitude: 46.05, longitude: 14.5))))
    let both = map.overlays(atColumn: mid.column, row: mid.row)
    #expect(both.count == 2 && both.first === road && both.last === field, "\(both)")
    // On the road outside the field: the road alone.
    let west = try #require(
      map.viewport.cell(for: MapPoint(Coordinate(latitude: 46.05, longitude: 14.32))))
    #expect(map.overlays(atColumn: west.column, row: west.row).map { $0 === road } == [true])
    // A corner of the screen far from both: nothing.
    #expect(map.overlays(atColumn: 0, row: 19).isEmpty)
  }
}
