import DotRaster
import MapGeometry

/// An overlay made of one run of points that is drawn as a line.
public protocol LineOverlay: Overlay {
  var run: PointRun { get }
}

extension Polyline: LineOverlay {}
extension GeodesicPolyline: LineOverlay {}

/// Strokes a polyline or a geodesic polyline (MKPolylineRenderer).
public final class PolylineRenderer: OverlayPathRenderer, @unchecked Sendable {
  let run: PointRun

  public init(polyline: any LineOverlay) {
    run = polyline.run
    super.init(overlay: polyline)
    strokeColor = .brightRed
  }

  public override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let s = style
    guard s.strokeColor != nil else { return }
    applyStroke(s, to: context, atZoomScale: zoomScale)
    let reach = strokeReach(s, zoomScale: zoomScale)
    addRun(
      run, in: mapRect.insetBy(dx: -reach, dy: -reach), zoomScale: zoomScale, closed: false,
      to: context, dashed: s.isDashed)
    context.strokePath()
  }
}

/// Fills and strokes a polygon with its holes (MKPolygonRenderer).
public final class PolygonRenderer: OverlayPathRenderer, @unchecked Sendable {
  let polygon: Polygon

  public init(polygon: Polygon) {
    self.polygon = polygon
    super.init(overlay: polygon)
    var s = PathStyle()
    s.strokeColor = .brightBlue
    s.fillColor = .blue
    styleBox.withLock { $0 = s }
  }

  public override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    drawPolygon(polygon, style: style, in: mapRect, zoomScale: zoomScale, context: context)
  }
}

/// Fills and strokes a circle (MKCircleRenderer).
public final class CircleRenderer: OverlayPathRenderer, @unchecked Sendable {
  public init(circle: Circle) {
    super.init(overlay: circle)
    var s = PathStyle()
    s.strokeColor = .brightMagenta
    s.fillColor = nil
    styleBox.withLock { $0 = s }
  }

  public override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let s = style
    let r = rect(for: overlay.boundingMapRect)
    if s.fillColor != nil {
      applyFill(s, to: context)
      context.addEllipse(in: r)
      context.fillPath()
    }
    if s.strokeColor != nil {
      applyStroke(s, to: context, atZoomScale: zoomScale)
      context.addEllipse(in: r)
      context.strokePath()
    }
  }
}

/// Strokes many polylines of one style (MKMultiPolylineRenderer).
public final class MultiPolylineRenderer: OverlayPathRenderer, @unchecked Sendable {
  let multi: MultiPolyline

  public init(multiPolyline: MultiPolyline) {
    multi = multiPolyline
    super.init(overlay: multiPolyline)
    strokeColor = .brightRed
  }

  public override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let s = style
    guard s.strokeColor != nil else { return }
    applyStroke(s, to: context, atZoomScale: zoomScale)
    let reach = strokeReach(s, zoomScale: zoomScale)
    let rect = mapRect.insetBy(dx: -reach, dy: -reach)
    multi.index.query(
      rect, tolerance: 0.75 / zoomScale,
      shape: { i in
        addRun(
          multi.polylines[i].run, in: rect, zoomScale: zoomScale, closed: false, to: context,
          dashed: s.isDashed)
        context.strokePath()
      },
      speck: { p in drawSpeck(p, style: s, context: context) })
  }
}

/// Fills and strokes many polygons of one style (MKMultiPolygonRenderer).
public final class MultiPolygonRenderer: OverlayPathRenderer, @unchecked Sendable {
  let multi: MultiPolygon

  public init(multiPolygon: MultiPolygon) {
    multi = multiPolygon
    super.init(overlay: multiPolygon)
    var s = PathStyle()
    s.strokeColor = .brightBlue
    s.fillColor = .blue
    styleBox.withLock { $0 = s }
  }

  public override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let s = style
    let reach = strokeReach(s, zoomScale: zoomScale)
    let rect = mapRect.insetBy(dx: -reach, dy: -reach)
    multi.index.query(
      rect, tolerance: 0.75 / zoomScale,
      shape: { i in
        drawPolygon(
          multi.polygons[i], style: s, in: mapRect, zoomScale: zoomScale, context: context)
      },
      speck: { p in drawSpeck(p, style: s, context: context) })
  }
}
