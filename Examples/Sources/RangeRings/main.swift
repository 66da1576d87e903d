import TermMap

/// Range rings around a point, each labelled with its distance: rings drawn as dots, labels as
/// text (`drawText`). Every tile draws every label; the context keeps each in the tile that
/// holds its point, so a label is drawn once, whole, even where it crosses a tile's edge.
struct RangeRings: OverlayRendering {
  let circle: Circle  // the outer ring; its bounding rect is the overlay's
  var rings = 3
  var color = TermColor.brightCyan

  func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let center = circle.contextPoint(for: MapPoint(circle.coordinate))
    let perMeter = Mercator.mapPointsPerMeter(atLatitude: circle.coordinate.latitude)
    context.strokeColor = color
    context.lineWidth = 1 / zoomScale
    for k in 1...rings {
      let meters = circle.radius * Double(k) / Double(rings)
      let r = meters * perMeter
      context.addEllipse(
        in: Rect2D(x: center.x - r, y: center.y - r, width: 2 * r, height: 2 * r))
      context.strokePath()
      // The distance on the ring's northern point, centred on it, over the ring's dots.
      context.drawText(
        "\(Int(meters / 1000)) km", at: Point2D(x: center.x, y: center.y - r),
        color: .brightWhite, bold: true)
    }
  }

  /// The ring's stroke reaches a dot past the bounds.
  func tileMargin(zoomScale: Double) -> Double { 2 / zoomScale }
}

/// Rings get the drawing above; the ferry's track is coloured by its speed.
@MainActor
final class Styles: MapViewDelegate {
  var speeds: [Double] = []
  func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
    if let circle = overlay as? Circle {
      return OverlayRenderer(overlay: circle, rendering: RangeRings(circle: circle))
    }
    if let track = overlay as? Polyline {
      let renderer = GradientPolylineRenderer(polyline: track)
      renderer.lineWidth = 2
      // Slow (blue) to fast (red): the speed range cut into three equal parts.
      renderer.setColors([.blue, .green, .red], values: [speeds], range: 0...30)
      return renderer
    }
    return MapView.defaultRenderer(for: overlay)
  }
}

let map = MapView(columns: 80, rows: 30)
let styles = Styles()
map.delegate = styles
let harbour = Coordinate(latitude: 60.1650, longitude: 24.9560)
map.addOverlay(Circle(center: harbour, radius: 3000))
// A ferry leaving the harbour: slow at first, then at full speed (knots at each point).
let track = Polyline(coordinates: [
  Coordinate(latitude: 60.1650, longitude: 24.9560),
  Coordinate(latitude: 60.1580, longitude: 24.9600),
  Coordinate(latitude: 60.1500, longitude: 24.9700),
  Coordinate(latitude: 60.1430, longitude: 24.9850),
  Coordinate(latitude: 60.1380, longitude: 25.0000),
])
styles.speeds = [2, 8, 14, 22, 28]
map.addOverlay(track)
map.setCenter(harbour, animated: false)
map.setZoomLevel(10.5, animated: false)
let frame = map.renderFrame()
print(frame.lines.joined(separator: "\n"))
// The colour of each leg of the track in the middle of the leg, as the frame shows it.
let points = track.run.points
let colours = zip(points, points.dropFirst()).compactMap { a, b -> String? in
  let middle = MapPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2)
  guard let cell = map.viewport.cell(for: middle) else { return nil }
  return frame[cell.column, cell.row].foreground.map { "\($0)" }
}
print("track colours, harbour outwards: \(colours.joined(separator: ", "))")
