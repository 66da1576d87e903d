import TermMap

/// Draws a route with the standard line drawing, then a ring around each end. A `Sendable`
/// value: the compiler checks it is safe to draw from several threads, no `@unchecked` needed.
struct RouteWithEnds: OverlayRendering {
  var line: PolylineDrawing
  var ringColor = TermColor.brightCyan
  var ringRadius = 5.0  // in dots

  func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    line.draw(mapRect, zoomScale: zoomScale, in: context)
    context.strokeColor = ringColor
    context.lineWidth = 1 / zoomScale
    context.setLineDash(phase: 0, lengths: [])
    let r = ringRadius / zoomScale
    for end in [line.polyline.run.points.first, line.polyline.run.points.last] {
      guard let end else { continue }
      let c = line.polyline.contextPoint(for: end)
      context.addEllipse(in: Rect2D(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
      context.strokePath()
    }
  }

  /// The rings reach past the line's bounds: ask for the tiles around it too.
  func tileMargin(zoomScale: Double) -> Double {
    max(line.tileMargin(zoomScale: zoomScale), (ringRadius + 1) / zoomScale)
  }
}

/// Gives routes the drawing above; other overlays get the standard renderers.
@MainActor
final class Styles: MapViewDelegate {
  func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
    guard let route = overlay as? Polyline else { return MapView.defaultRenderer(for: overlay) }
    let line = PolylineDrawing(
      polyline: route, style: PathStyle(strokeColor: .brightRed, lineWidth: 2))
    return OverlayRenderer(overlay: route, rendering: RouteWithEnds(line: line))
  }
}

let map = MapView(columns: 72, rows: 20)
let styles = Styles()
map.delegate = styles
// A lake with an island cut out of it (a polygon with a hole), and a walk along its shore.
let island = Polygon(coordinates: [
  Coordinate(latitude: 46.3628, longitude: 14.0895),
  Coordinate(latitude: 46.3628, longitude: 14.0915),
  Coordinate(latitude: 46.3612, longitude: 14.0915),
  Coordinate(latitude: 46.3612, longitude: 14.0895),
])
let lake = Polygon(
  coordinates: [
    Coordinate(latitude: 46.3660, longitude: 14.0820),
    Coordinate(latitude: 46.3660, longitude: 14.1010),
    Coordinate(latitude: 46.3570, longitude: 14.1010),
    Coordinate(latitude: 46.3570, longitude: 14.0820),
  ], interiorPolygons: [island], title: "Blejsko jezero")
let walk = Polyline(coordinates: [
  Coordinate(latitude: 46.3675, longitude: 14.0830),
  Coordinate(latitude: 46.3680, longitude: 14.0950),
  Coordinate(latitude: 46.3655, longitude: 14.1040),
  Coordinate(latitude: 46.3590, longitude: 14.1050),
])
map.addOverlays([lake, walk])
let church = PointAnnotation(
  coordinate: Coordinate(latitude: 46.3620, longitude: 14.0905), title: "Assumption of Mary",
  subtitle: "Church on Bled Island")
map.addAnnotation(church)
map.showAllContent(animated: false)
map.selectAnnotation(church, animated: false)  // opens its callout
print(map.renderFrame().lines.joined(separator: "\n"))
