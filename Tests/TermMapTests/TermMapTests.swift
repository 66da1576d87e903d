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
