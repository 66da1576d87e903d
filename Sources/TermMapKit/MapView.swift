import DotRaster
import Foundation
import MapGeometry

/// Padding in dots around a rect being fitted to the screen.
public struct EdgeInsets: Sendable, Equatable {
  /// Dots kept free at the top.
  public var top: Double
  /// Dots kept free at the left.
  public var left: Double
  /// Dots kept free at the bottom.
  public var bottom: Double
  /// Dots kept free at the right.
  public var right: Double
  /// Padding on each side, in dots.
  public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }
  /// No padding.
  public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

/// A map on a grid of terminal cells (MKMapView): a region, overlays drawn by renderers, and
/// annotations shown by reusable views. It is a facade: the camera is a value, and overlays,
/// annotations, tiles and animation live in their own types and extensions.
@MainActor
public final class MapView {
  /// Told about region changes, loading and rendering, and asked for renderers and
  /// annotation views (held weakly; called on the main actor).
  public weak var delegate: (any MapViewDelegate)?

  /// The screen size in cells.
  public private(set) var columns: Int
  /// The screen height in cells.
  public private(set) var rows: Int

  /// The map point at the centre of the screen.
  public private(set) var centerPoint: MapPoint
  /// The zoom level: the world is 256·2^zoomLevel dots wide.
  public private(set) var zoomLevel: Double

  /// Zoom levels the camera may take.
  public var zoomRange: ClosedRange<Double> = 0...22 {
    didSet { applyCamera(center: centerPoint, zoom: zoomLevel, notify: false) }
  }
  /// The area the centre must stay in (MKMapView.CameraBoundary); nil for anywhere.
  public var cameraBoundary: MapRect? {
    didSet { applyCamera(center: centerPoint, zoom: zoomLevel, notify: false) }
  }
  /// Gate user panning and zooming (programmatic changes still work).
  public var isScrollEnabled = true
  /// Whether `zoom(by:)` and other user zooming works (programmatic changes always do).
  public var isZoomEnabled = true
  /// How a cell's dots become a glyph.
  public var charset: Charset {
    get { composer.charset }
    set { composer.charset = newValue }
  }
  /// Which points of interest the map's names include (MKMapView's
  /// `pointOfInterestFilter`): labels with a ``MapLabel/category`` outside it are not placed.
  /// Nil (the default) names every point of interest.
  public var pointOfInterestFilter: PointOfInterestFilter? {
    get { composer.pointOfInterestFilter }
    set {
      composer.pointOfInterestFilter = newValue
      needsDisplay = true
    }
  }
  /// Whether the selected annotation's callout is drawn (a viewer may select first and open
  /// the callout on a second action).
  public var showsCallouts = true {
    didSet { needsDisplay = true }
  }
  // Collaborators.
  /// The layer stack, the tile cache and the frame's stages (shared with `MapSnapshotter`).
  let composer = FrameComposer()
  var overlayStore: OverlayStore { composer.overlayStore }
  let annotationIndex = AnnotationIndex()
  var tileCache: TileCache {
    get { composer.tileCache }
    _modify { yield &composer.tileCache }
  }
  var annotationViews = AnnotationViewRegistry()
  var animation: RegionAnimation?
  var changeInProgress: (animated: Bool, byUser: Bool)?
  /// The user's location and tracking mode (MapView+UserLocation).
  var userLocationState = UserLocationState()
  /// Set by renderers that asked to redraw; cleared by `renderFrame`.
  public internal(set) var needsDisplay = true
  var layoutStale = true
  /// Views on screen from which a frame places markers while its tiles draw on other cores:
  /// below this the work is shorter than waking a helper thread (about 0.1 ms), and the tiles
  /// are drawn first, on every core.
  var markersWorthOverlapping = 256
  /// Credit lines of the tile overlays drawn in the last frame.
  var frameAttribution: [String] = []
  /// The last frame's tiles and layers, for `overlays(atColumn:row:)` (arrays retained, not
  /// copied).
  var framePlacements: [FramePlan.Placement] = []
  var frameLayers: [FrameLayer] = []
  /// Called (from any thread) when something asks for a redraw, e.g. a tile finished loading.
  public var displayRequestHandler: (@Sendable () -> Void)? {
    didSet {
      // Renderers made before the handler was set must hear it too.
      let handler = displayRequestHandler
      for r in overlayStore.renderers.values { r.setDisplayHandler { handler?() } }
    }
  }

  /// A map of `columns` × `rows` cells showing the whole world.
  public init(columns: Int, rows: Int) {
    self.columns = max(columns, 1)
    self.rows = max(rows, 1)
    centerPoint = MapRect.world.mid
    zoomLevel = 0
    applyCamera(
      center: centerPoint, zoom: ZoomMath.zoomLevel(forZoomScale: fitScale(for: .world)),
      notify: false)
  }

  /// Changes the screen size; the centre and zoom level stay.
  public func resize(columns: Int, rows: Int) {
    self.columns = max(columns, 1)
    self.rows = max(rows, 1)
    setNeedsLayout()
  }

  // MARK: Camera

  /// Dots per map point.
  public var zoomScale: Double { ZoomMath.zoomScale(forZoomLevel: zoomLevel) }

  /// The screen in dots.
  public var widthInDots: Double { Double(columns * CellGeometry.dotsWide) }
  /// The screen's height in dots.
  public var heightInDots: Double { Double(rows * CellGeometry.dotsHigh) }

  /// The map rect on screen, centred on `centerPoint`.
  public var visibleMapRect: MapRect {
    get {
      let w = widthInDots / zoomScale
      let h = heightInDots / zoomScale
      return MapRect(x: centerPoint.x - w / 2, y: centerPoint.y - h / 2, width: w, height: h)
    }
    set { setVisibleMapRect(newValue, animated: false) }
  }

  /// The geographic form of `visibleMapRect`.
  public var region: CoordinateRegion {
    get { CoordinateRegion(visibleMapRect) }
    set { setRegion(newValue, animated: false) }
  }

  /// The coordinate at the centre of the screen.
  public var centerCoordinate: Coordinate {
    get { centerPoint.coordinate }
    set { setCenter(newValue, animated: false) }
  }

  /// The frame geometry used for drawing and for converting positions.
  public var viewport: Viewport {
    Viewport(center: centerPoint, zoomScale: zoomScale, columns: columns, rows: rows)
  }

  /// The region the map would show for `region`: the same centre, the span grown to the
  /// screen's shape.
  public func regionThatFits(_ region: CoordinateRegion) -> CoordinateRegion {
    CoordinateRegion(fittedRect(for: region))
  }

  /// A rect with the screen's shape holding `rect`, with the same centre.
  public func mapRectThatFits(_ rect: MapRect, edgePadding: EdgeInsets = .zero) -> MapRect {
    let s = fitScale(for: rect, edgePadding: edgePadding)
    let w = widthInDots / s
    let h = heightInDots / s
    let c = paddedCenter(of: rect, scale: s, edgePadding: edgePadding)
    return MapRect(x: c.x - w / 2, y: c.y - h / 2, width: w, height: h)
  }

  /// The fitting rules for this screen size and zoom range (shared with `MapSnapshotter`).
  var cameraFit: CameraFit {
    CameraFit(widthInDots: widthInDots, heightInDots: heightInDots, zoomRange: zoomRange)
  }

  func fittedRect(for region: CoordinateRegion) -> MapRect { cameraFit.fittedRect(for: region) }

  func fitScale(for rect: MapRect, edgePadding: EdgeInsets = .zero) -> Double {
    cameraFit.fitScale(for: rect, edgePadding: edgePadding)
  }

  func paddedCenter(of rect: MapRect, scale s: Double, edgePadding p: EdgeInsets) -> MapPoint {
    cameraFit.paddedCenter(of: rect, scale: s, edgePadding: p)
  }

  func clampScale(_ s: Double) -> Double { cameraFit.clampScale(s) }

  /// Moves the camera (clamping zoom, wrapping x, keeping y on the world and inside the
  /// camera boundary), and tells the delegate when the visible region moved.
  func applyCamera(center: MapPoint, zoom: Double, notify: Bool) {
    let z = min(max(zoom, zoomRange.lowerBound), zoomRange.upperBound)
    let w = MapSize.world.width
    var x = center.x.truncatingRemainder(dividingBy: w)
    if x < 0 { x += w }
    var y = min(max(center.y, 0), w)
    if let b = cameraBoundary, !b.isNull {
      x = min(max(x, b.minX), b.maxX)
      y = min(max(y, b.minY), b.maxY)
    }
    let moved = x != centerPoint.x || y != centerPoint.y || z != zoomLevel
    centerPoint = MapPoint(x: x, y: y)
    zoomLevel = z
    if moved {
      setNeedsLayout()
      if notify { delegate?.mapViewDidChangeVisibleRegion(self) }
    }
  }

  // MARK: Programmatic region changes

  /// Shows a region (adjusted to the screen's shape, as `regionThatFits` predicts).
  public func setRegion(_ region: CoordinateRegion, animated: Bool) {
    let rect = fittedRect(for: region)
    change(
      to: MapPoint(region.center), zoom: ZoomMath.zoomLevel(forZoomScale: widthInDots / rect.width),
      animated: animated)
  }

  /// Moves the centre, keeping the zoom level.
  public func setCenter(_ coordinate: Coordinate, animated: Bool) {
    change(to: MapPoint(coordinate), zoom: zoomLevel, animated: animated)
  }

  /// Moves the centre to a map point, keeping the zoom level.
  public func setCenter(_ point: MapPoint, animated: Bool) {
    change(to: point, zoom: zoomLevel, animated: animated)
  }

  /// Sets the zoom level about the centre.
  public func setZoomLevel(_ zoom: Double, animated: Bool) {
    change(to: centerPoint, zoom: zoom, animated: animated)
  }

  /// Shows a map rect with padding (in dots) around it.
  public func setVisibleMapRect(_ rect: MapRect, edgePadding: EdgeInsets = .zero, animated: Bool) {
    guard !rect.isNull else { return }
    let s = clampScale(fitScale(for: rect, edgePadding: edgePadding))
    change(
      to: paddedCenter(of: rect, scale: s, edgePadding: edgePadding),
      zoom: ZoomMath.zoomLevel(forZoomScale: s), animated: animated)
  }

  /// Fits the region to annotations (and keeps a cell of room around them).
  public func showAnnotations(_ annotations: [any Annotation], animated: Bool) {
    let rect = MapRect(bounding: annotations.map { MapPoint($0.coordinate) })
    guard !rect.isNull else { return }
    let pad = EdgeInsets(
      top: Double(2 * CellGeometry.dotsHigh), left: Double(2 * CellGeometry.dotsWide),
      bottom: Double(2 * CellGeometry.dotsHigh), right: Double(2 * CellGeometry.dotsWide))
    setVisibleMapRect(rect, edgePadding: pad, animated: animated)
  }

  /// The bounds of every overlay's content (`Overlay.contentBounds`: none for tile overlays)
  /// and of every annotation on the map (null when there are none).
  public var contentMapRect: MapRect {
    var r = overlayStore.all.reduce(MapRect.null) { $0.union($1.contentBounds) }
    for p in annotationIndex.allPoints {
      r = r.union(MapRect(origin: p, size: MapSize(width: 0, height: 0)))
    }
    return r
  }

  /// Shows everything on the map with a little room around it.
  public func showAllContent(animated: Bool) {
    let r = contentMapRect
    guard !r.isNull else { return }
    // A cell and a half of room: the outermost point lands inside the second cell from an edge.
    let pad = EdgeInsets(
      top: 1.5 * Double(CellGeometry.dotsHigh), left: 1.5 * Double(CellGeometry.dotsWide),
      bottom: 1.5 * Double(CellGeometry.dotsHigh), right: 1.5 * Double(CellGeometry.dotsWide))
    setVisibleMapRect(r, edgePadding: pad, animated: animated)
  }

  // MARK: Conversions

  /// The screen dot of a coordinate.
  public func convert(_ coordinate: Coordinate) -> Point2D {
    viewport.dot(for: MapPoint(coordinate))
  }

  /// The coordinate under a screen dot.
  public func convert(_ dot: Point2D) -> Coordinate {
    viewport.mapPoint(forDot: dot).coordinate
  }

  /// The coordinate at the centre of a cell.
  public func coordinate(atColumn column: Int, row: Int) -> Coordinate {
    viewport.mapPoint(forCellColumn: column, row: row).coordinate
  }

  /// The screen rect (in dots) of a region.
  public func convert(_ region: CoordinateRegion) -> Rect2D {
    let r = region.mapRect
    let a = viewport.dot(for: r.origin)
    return Rect2D(x: a.x, y: a.y, width: r.width * zoomScale, height: r.height * zoomScale)
  }

  /// The region of a screen rect given in dots.
  public func convert(_ rect: Rect2D) -> CoordinateRegion {
    let a = viewport.mapPoint(forDot: Point2D(x: rect.x, y: rect.y))
    return CoordinateRegion(
      MapRect(x: a.x, y: a.y, width: rect.width / zoomScale, height: rect.height / zoomScale))
  }

  // MARK: Display

  /// Marks the frame as needing a redraw (e.g. a renderer asked for it).
  public func setNeedsDisplay() {
    needsDisplay = true
  }

  func clearNeedsDisplay() { needsDisplay = false }

  /// The standard renderer of an overlay: the one it makes itself (`DefaultRendering`), or the
  /// built-in one for the shapes.
  public nonisolated static func defaultRenderer(for overlay: any Overlay) -> OverlayRenderer {
    if let o = overlay as? any DefaultRendering { return o.makeDefaultRenderer() }
    switch overlay {
    case let p as Polyline: return PolylineRenderer(polyline: p)
    case let p as GeodesicPolyline: return PolylineRenderer(polyline: p)
    case let p as Polygon: return PolygonRenderer(polygon: p)
    case let c as Circle: return CircleRenderer(circle: c)
    case let m as MultiPolyline: return MultiPolylineRenderer(multiPolyline: m)
    case let m as MultiPolygon: return MultiPolygonRenderer(multiPolygon: m)
    default: return OverlayRenderer(overlay: overlay)
    }
  }
}
