import DotRaster
import MapGeometry

/// How an overlay is drawn, as a `Sendable` value: the checked way to write a renderer.
///
/// A value of a type adopting this protocol is handed to ``OverlayRenderer/init(overlay:rendering:)``
/// (or set as ``OverlayRenderer/rendering``). The renderer calls it from several threads at once,
/// one map-rect tile at a time, exactly as it would call an overridden
/// ``OverlayRenderer/draw(_:zoomScale:in:)``; the map keeps alpha, invalidation and the tile cache.
/// Because the protocol refines `Sendable`, the compiler checks that the drawing is safe to share
/// between those threads: no `@unchecked Sendable` is needed. To change how an overlay looks,
/// set a new value on the renderer (its tiles are redrawn on the next frame).
///
/// ```swift
/// struct Crosshair: OverlayRendering {
///   let overlay: any Overlay
///   var color: TermColor = .brightGreen
///
///   func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
///     let r = overlay.contextRect(for: overlay.boundingMapRect)
///     context.strokeColor = color
///     context.lineWidth = 1 / zoomScale
///     context.move(to: Point2D(x: r.x, y: r.y))
///     context.addLine(to: Point2D(x: r.x + r.width, y: r.y + r.height))
///     context.strokePath()
///   }
/// }
/// ```
///
/// The shape drawings (``PolylineDrawing``, ``PolygonDrawing``, ``CircleDrawing``,
/// ``MultiPolylineDrawing``, ``MultiPolygonDrawing``) adopt it too, so a drawing of one's own can
/// draw a standard shape and add to it.
public protocol OverlayRendering: Sendable {
  /// Whether the tile can be drawn now (MKOverlayRenderer's `canDraw(_:zoomScale:)`); false
  /// leaves the tile waiting until the renderer's `setNeedsDisplay` covers it. True by default.
  func canDraw(_ mapRect: MapRect, zoomScale: Double) -> Bool

  /// Draws the part of the overlay inside `mapRect` (MKOverlayRenderer's
  /// `draw(_:zoomScale:in:)`). The context's user space is map points less the overlay's
  /// `boundingMapRect.origin`, scaled by `zoomScale` to dots and clipped to the tile.
  func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext)

  /// How far (in map points) the drawing reaches past the overlay's bounding rect, e.g. half a
  /// stroke; tiles this close to the overlay are drawn too. 0 by default.
  func tileMargin(zoomScale: Double) -> Double

  /// Ink layers the drawing uses (its ink's `layer` runs from 1 to this). 4 by default.
  var inkLayerCount: UInt32 { get }
}

extension OverlayRendering {
  /// Always true: the drawing needs nothing loaded.
  public func canDraw(_ mapRect: MapRect, zoomScale: Double) -> Bool { true }
  /// No margin: nothing is drawn outside the overlay's bounding rect.
  public func tileMargin(zoomScale: Double) -> Double { 0 }
  /// Four ink layers (fill, stroke, marks and one spare).
  public var inkLayerCount: UInt32 { 4 }
}

extension Overlay {
  /// The drawing-context point of a map point: the map point less the overlay's bounding
  /// origin (what ``OverlayRenderer/point(for:)`` gives, usable from a drawing value).
  public func contextPoint(for mapPoint: MapPoint) -> Point2D {
    let o = boundingMapRect.origin
    return Point2D(x: mapPoint.x - o.x, y: mapPoint.y - o.y)
  }

  /// The drawing-context rect of a map rect (same size, origin moved).
  public func contextRect(for mapRect: MapRect) -> Rect2D {
    let p = contextPoint(for: mapRect.origin)
    return Rect2D(x: p.x, y: p.y, width: mapRect.width, height: mapRect.height)
  }
}
