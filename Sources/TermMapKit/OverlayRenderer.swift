import DotRaster
import MapGeometry
import Synchronization

/// Draws one overlay, one map-rect tile at a time (MKOverlayRenderer).
///
/// `draw(_:zoomScale:in:)` is called on several threads at once for different tiles.
///
/// There are two ways to draw an overlay of one's own:
///
/// - **A drawing value** (checked by the compiler): a `Sendable` type adopting
///   ``OverlayRendering``, given to ``init(overlay:rendering:)``. The renderer forwards
///   `canDraw`, `draw`, `tileMargin` and `inkLayerCount` to it; alpha, invalidation and the
///   tile cache stay the map's. This is the recommended way.
/// - **A subclass** overriding `draw(_:zoomScale:in:)` (MapKit's way). A subclass inherits the
///   class's unchecked `Sendable` conformance, so the compiler does not check it: it must keep
///   to the class's rule itself (immutable data, or state behind a lock).
///
/// `@unchecked Sendable` is safe for this class itself: `overlay` is an immutable `Sendable`
/// reference, and every mutable property (alpha, the drawing value, invalidations, the display
/// hook, loading state) lives in `shared`, a `Mutex`; there is no other stored state.
open class OverlayRenderer: @unchecked Sendable {
  /// The overlay drawn.
  public let overlay: any Overlay

  struct Shared {
    var alpha: Double = 1
    var invalidations: [Invalidation] = []
    var onNeedsDisplay: (@Sendable () -> Void)? = nil
    /// Tile loads reported by the renderer, until the map view hands them to its delegate.
    var loading = LoadingState()
    /// The drawing value, when the renderer draws with one.
    var rendering: (any OverlayRendering)? = nil
  }

  /// What `setNeedsDisplay` asked to redraw.
  enum Invalidation: Sendable {
    case all
    case rect(MapRect)
    case rectAtScale(MapRect, Double)
  }

  let shared = Mutex(Shared())

  /// A renderer for an overlay; it draws nothing until a subclass overrides `draw` or a
  /// ``rendering`` value is set.
  public init(overlay: any Overlay) {
    self.overlay = overlay
  }

  /// A renderer that draws an overlay with a `Sendable` drawing value (checked by the
  /// compiler): `canDraw`, `draw`, `tileMargin` and `inkLayerCount` are the value's.
  public init(overlay: any Overlay, rendering: any OverlayRendering) {
    self.overlay = overlay
    shared.withLock { $0.rendering = rendering }
  }

  /// The drawing value the renderer forwards to (nil for a subclass drawing by itself).
  /// Setting a new value redraws every tile on the next frame.
  public var rendering: (any OverlayRendering)? {
    get { shared.withLock { $0.rendering } }
    set {
      shared.withLock { $0.rendering = newValue }
      setNeedsDisplay()
    }
  }

  /// Opacity; a renderer with alpha 0 is not drawn (a terminal cell has no partial ink).
  public var alpha: Double {
    get { shared.withLock { $0.alpha } }
    set {
      let changed = shared.withLock { s -> Bool in
        let old = s.alpha
        s.alpha = min(max(newValue, 0), 1)
        return (old > 0) != (s.alpha > 0)
      }
      if changed { requestDisplay() }
    }
  }

  /// Pixels per point; always 1 on a dot raster (one screen point is one dot).
  public var contentScaleFactor: Double { 1 }

  /// Whether the tile can be drawn now; returning false suppresses `draw` for that rect until
  /// `setNeedsDisplay(_:zoomScale:)` is called for it. By default the ``rendering`` value's
  /// answer, or true.
  open func canDraw(_ mapRect: MapRect, zoomScale: Double) -> Bool {
    rendering?.canDraw(mapRect, zoomScale: zoomScale) ?? true
  }

  /// Draws the part of the overlay inside `mapRect`: by default with the ``rendering`` value,
  /// or nothing.
  open func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    rendering?.draw(mapRect, zoomScale: zoomScale, in: context)
  }

  /// How far (in map points) drawing may reach past the overlay's bounds, e.g. half a stroke:
  /// tiles this close to the overlay are drawn too, so strokes are not cut at tile edges.
  /// Override it (or return it from the ``rendering`` value) when strokes reach past the
  /// overlay's bounding rect; 0 by default.
  open func tileMargin(zoomScale: Double) -> Double {
    rendering?.tileMargin(zoomScale: zoomScale) ?? 0
  }

  /// Ink layers the renderer's drawing uses (its ink's `layer` runs from 1 to this); the map
  /// stacks each overlay on a band of this many layers above the overlays below it. By
  /// default the ``rendering`` value's count, or 4.
  open var inkLayerCount: UInt32 { rendering?.inkLayerCount ?? 4 }

  /// Whether the overlay hides map content beneath it (inside its bounding rect) at a zoom
  /// scale: by default, when the overlay `canReplaceMapContent`.
  open func replacesMapContent(zoomScale: Double) -> Bool { overlay.canReplaceMapContent }

  /// Whether the renderer has (or is loading) content for a map tile, so that it hides map
  /// content below it there; a tile overlay whose tiles failed or are missing says no, and the
  /// map content beneath shows through. True by default.
  open func coversMapContent(_ mapRect: MapRect, zoomScale: Double) -> Bool { true }

  /// Called by a `MapView` on the main actor once per frame with the visible rects (one per
  /// copy of the world), before tiles are asked for; renderers that load data reorder or
  /// cancel loads here. A `MapSnapshotter` does not call it: its view never moves, and the
  /// overlays it draws may be shared with other snapshots, whose loads it would cancel.
  open func visibleAreaDidChange(_ visible: [MapRect], zoomScale: Double, focus: MapPoint) {}

  /// How many parts of the rects (tiles, for a tile overlay) could not be drawn because their
  /// data failed (a load or decoding error, or no data where the overlay has bounds). The
  /// frame counts them (`FrameStatistics.tilesFailed`), and the delegate hears
  /// `mapViewDidFinishRenderingMap(_:fullyRendered:)` with false while any are on screen.
  /// 0 by default.
  open func failedTileCount(in mapRects: [MapRect], zoomScale: Double) -> Int { 0 }

  // MARK: Coordinate conversions (safe inside draw)

  /// The context point of a map point: the map point less the overlay's bounding origin.
  @inlinable public func point(for mapPoint: MapPoint) -> Point2D {
    let o = overlay.boundingMapRect.origin
    return Point2D(x: mapPoint.x - o.x, y: mapPoint.y - o.y)
  }

  /// The context rect of a map rect (same size, origin moved).
  public func rect(for mapRect: MapRect) -> Rect2D {
    let p = point(for: mapRect.origin)
    return Rect2D(x: p.x, y: p.y, width: mapRect.width, height: mapRect.height)
  }

  /// The map point of a context point.
  public func mapPoint(for point: Point2D) -> MapPoint {
    let o = overlay.boundingMapRect.origin
    return MapPoint(x: point.x + o.x, y: point.y + o.y)
  }

  /// The map rect of a context rect.
  public func mapRect(for rect: Rect2D) -> MapRect {
    let p = mapPoint(for: Point2D(x: rect.x, y: rect.y))
    return MapRect(x: p.x, y: p.y, width: rect.width, height: rect.height)
  }

  // MARK: Invalidation

  /// Redraws everything, at every zoom scale, on the next frame.
  public func setNeedsDisplay() {
    shared.withLock { $0.invalidations.append(.all) }
    requestDisplay()
  }

  /// Redraws the tiles that meet `mapRect`, at every zoom scale.
  public func setNeedsDisplay(_ mapRect: MapRect) {
    shared.withLock { $0.invalidations.append(.rect(mapRect)) }
    requestDisplay()
  }

  /// Redraws the tiles that meet `mapRect` at one zoom scale.
  public func setNeedsDisplay(_ mapRect: MapRect, zoomScale: Double) {
    shared.withLock { $0.invalidations.append(.rectAtScale(mapRect, zoomScale)) }
    requestDisplay()
  }

  func takeInvalidations() -> [Invalidation] {
    shared.withLock { s in
      defer { s.invalidations.removeAll() }
      return s.invalidations
    }
  }

  func setDisplayHandler(_ handler: (@Sendable () -> Void)?) {
    shared.withLock { $0.onNeedsDisplay = handler }
  }

  private func requestDisplay() {
    let handler = shared.withLock { $0.onNeedsDisplay }
    handler?()
  }
}
