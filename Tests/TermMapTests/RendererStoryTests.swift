import Foundation
import TermMap
import Testing

// Renderers written as `Sendable` values: no `@unchecked` anywhere in this file, and the target
// builds in Swift 6 language mode, so the compiler checks that they are safe to draw from
// several threads.

/// A diagonal cross through an overlay's bounds, in one colour.
struct Crosshair: OverlayRendering {
  let overlay: any Overlay
  var color: TermColor = .brightGreen

  func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let r = overlay.contextRect(for: overlay.boundingMapRect)
    context.strokeColor = color
    context.lineWidth = 1 / zoomScale
    context.move(to: Point2D(x: r.x, y: r.y))
    context.addLine(to: Point2D(x: r.x + r.width, y: r.y + r.height))
    context.move(to: Point2D(x: r.x + r.width, y: r.y))
    context.addLine(to: Point2D(x: r.x, y: r.y + r.height))
    context.strokePath()
  }
}

/// A standard line drawing with a ring drawn around each end: composition, not subclassing.
struct RouteWithEnds: OverlayRendering {
  var line: PolylineDrawing
  var endColor: TermColor = .brightCyan
  /// Ring radius in dots.
  var radius: Double = 6

  func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    line.draw(mapRect, zoomScale: zoomScale, in: context)
    let points = line.polyline.run.points
    context.strokeColor = endColor
    context.lineWidth = 1 / zoomScale
    context.setLineDash(phase: 0, lengths: [])
    for p in [points.first, points.last].compactMap({ $0 }) {
      let c = line.polyline.contextPoint(for: p)
      let r = radius / zoomScale
      context.addEllipse(in: Rect2D(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
      context.strokePath()
    }
  }

  /// The rings reach `radius` dots past the line's bounds.
  func tileMargin(zoomScale: Double) -> Double {
    max(line.tileMargin(zoomScale: zoomScale), (radius + 1) / zoomScale)
  }
}

/// A point with a ring of `radius` dots around it: all of its ink lies outside its bounds (a
/// rect without area), so only its declared margin gets its tiles drawn.
final class Beacon: Overlay {
  let point: MapPoint
  init(_ c: Coordinate) { point = MapPoint(c) }
  var boundingMapRect: MapRect { MapRect(origin: point, size: MapSize(width: 0, height: 0)) }
}

struct BeaconRing: OverlayRendering {
  let beacon: Beacon
  let radius: Double
  let declaresMargin: Bool

  func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let c = beacon.contextPoint(for: beacon.point)
    let r = radius / zoomScale
    context.strokeColor = .brightYellow
    context.lineWidth = 1 / zoomScale
    context.addEllipse(in: Rect2D(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
    context.strokePath()
  }

  func tileMargin(zoomScale: Double) -> Double { declaresMargin ? (radius + 1) / zoomScale : 0 }
}

/// Hands out drawing values for the overlays of the tests.
@MainActor
final class DrawingDelegate: MapViewDelegate {
  var make: (any Overlay) -> (any OverlayRendering)? = { _ in nil }
  func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
    if let value = make(overlay) { return OverlayRenderer(overlay: overlay, rendering: value) }
    return MapView.defaultRenderer(for: overlay)
  }
}

/// The cells drawn in a colour, as (column, row).
func cells(of frame: CellBuffer, in color: TermColor) -> [(Int, Int)] {
  var out: [(Int, Int)] = []
  for row in 0..<frame.rows {
    for column in 0..<frame.columns where frame[column, row].foreground == color {
      out.append((column, row))
    }
  }
  return out
}

@Suite("renderers written as Sendable values")
@MainActor
struct RendererStoryTests {
  let lisbon = [
    Coordinate(latitude: 38.70, longitude: -9.16), Coordinate(latitude: 38.72, longitude: -9.12),
  ]

  @Test("a drawing value draws its overlay, and a new value redraws it on the next frame")
  func drawingValue() throws {
    let map = MapView(columns: 40, rows: 12)
    let delegate = DrawingDelegate()
    map.delegate = delegate
    let line = Polyline(coordinates: lisbon)
    delegate.make = { Crosshair(overlay: $0) }
    map.addOverlay(line)
    map.setVisibleMapRect(line.boundingMapRect, animated: false)
    let first = map.renderFrame()
    #expect(cells(of: first, in: .brightGreen).count > 20)
    #expect(cells(of: first, in: .brightRed).isEmpty)
    // The map owns invalidation: setting a value is enough, the cached tiles go.
    let renderer = try #require(map.renderer(for: line))
    renderer.rendering = Crosshair(overlay: line, color: .brightRed)
    let second = map.renderFrame()
    #expect(cells(of: second, in: .brightGreen).isEmpty)
    #expect(cells(of: second, in: .brightRed).count == cells(of: first, in: .brightGreen).count)
    // And the map owns alpha.
    renderer.alpha = 0
    #expect(cells(of: map.renderFrame(), in: .brightRed).isEmpty)
  }

  @Test("a standard shape drawing composes into a drawing of one's own")
  func composition() {
    let map = MapView(columns: 50, rows: 16)
    let delegate = DrawingDelegate()
    map.delegate = delegate
    let line = Polyline(coordinates: lisbon)
    delegate.make = { overlay in
      RouteWithEnds(
        line: PolylineDrawing(
          polyline: overlay as! Polyline, style: PathStyle(strokeColor: .brightMagenta)))
    }
    map.addOverlay(line)
    map.setVisibleMapRect(
      line.boundingMapRect, edgePadding: EdgeInsets(top: 16, left: 16, bottom: 16, right: 16),
      animated: false)
    let frame = map.renderFrame()
    let ends = cells(of: frame, in: .brightCyan)
    #expect(cells(of: frame, in: .brightMagenta).count > 10)
    // Two rings, one at each end of the line: cyan cells at the far left and the far right.
    let start = map.convert(lisbon[0])
    let end = map.convert(lisbon[1])
    let startColumn = Int(start.x) / 2
    let endColumn = Int(end.x) / 2
    #expect(ends.contains { abs($0.0 - startColumn) <= 4 })
    #expect(ends.contains { abs($0.0 - endColumn) <= 4 })
  }

  @Test("a declared tile margin gets the tiles around the overlay drawn")
  func tileMargin() {
    func ring(declaresMargin: Bool) -> [(Int, Int)] {
      let map = MapView(columns: 80, rows: 40)
      let delegate = DrawingDelegate()
      map.delegate = delegate
      let beacon = Beacon(Coordinate(latitude: 46.05, longitude: 14.5))
      delegate.make = { _ in BeaconRing(beacon: beacon, radius: 60, declaresMargin: declaresMargin)
      }
      map.addOverlay(beacon)
      map.setRegion(
        CoordinateRegion(
          center: Coordinate(latitude: 46.05, longitude: 14.5),
          span: .init(
            latitudeDelta: 0.2, longitudeDelta: 0.2)), animated: false)
      return cells(of: map.renderFrame(), in: .brightYellow)
    }
    // The ring is 120 dots across: 60 columns and 30 rows of cells, over several 64-dot tiles.
    let whole = ring(declaresMargin: true)
    let columns = whole.map(\.0)
    let rows = whole.map(\.1)
    #expect((columns.max() ?? 0) - (columns.min() ?? 0) >= 58)
    #expect((rows.max() ?? 0) - (rows.min() ?? 0) >= 28)
    // Without the margin only the tile holding the point is drawn: the ring is cut.
    let cut = ring(declaresMargin: false)
    #expect(cut.count < whole.count)
    #expect((cut.map(\.0).max() ?? 0) - (cut.map(\.0).min() ?? 0) < 58)
  }
}
