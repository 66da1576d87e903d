import DotRaster
import MapGeometry

/// An overlay made of one run of points that is drawn as a line.
public protocol LineOverlay: Overlay {
  /// The line's points with their spatial index.
  var run: PointRun { get }
}

extension Polyline: LineOverlay {}
extension GeodesicPolyline: LineOverlay {}

// MARK: Drawings: the shapes as `Sendable` values

/// Strokes a polyline or a geodesic polyline with a style: what ``PolylineRenderer`` draws, as
/// a value to draw with or to compose into a drawing of one's own.
public struct PolylineDrawing: OverlayRendering {
  /// The line drawn.
  public let polyline: any LineOverlay
  /// How it is drawn.
  public var style: PathStyle

  /// A drawing of a line; by default bright red at the road width.
  public init(polyline: any LineOverlay, style: PathStyle = PathStyle(strokeColor: .brightRed)) {
    self.polyline = polyline
    self.style = style
  }

  /// Strokes the part of the line near `mapRect`.
  public func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    PathPainter(origin: polyline.boundingMapRect.origin).drawLine(
      polyline.run, style: style, in: mapRect, zoomScale: zoomScale, context: context)
  }

  /// Half the stroke and a dot.
  public func tileMargin(zoomScale: Double) -> Double { style.tileMargin(zoomScale: zoomScale) }
}

/// Fills and strokes a polygon with its holes: what ``PolygonRenderer`` draws, as a value.
public struct PolygonDrawing: OverlayRendering {
  /// The polygon drawn.
  public let polygon: Polygon
  /// How it is drawn.
  public var style: PathStyle

  /// A drawing of a polygon; by default a blue fill with a bright blue outline.
  public init(
    polygon: Polygon, style: PathStyle = PathStyle(strokeColor: .brightBlue, fillColor: .blue)
  ) {
    self.polygon = polygon
    self.style = style
  }

  /// Fills and strokes the part of the polygon in `mapRect`.
  public func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    PathPainter(origin: polygon.boundingMapRect.origin).drawPolygon(
      polygon, style: style, in: mapRect, zoomScale: zoomScale, context: context)
  }

  /// Half the stroke and a dot.
  public func tileMargin(zoomScale: Double) -> Double { style.tileMargin(zoomScale: zoomScale) }
}

/// Fills and strokes a circle: what ``CircleRenderer`` draws, as a value.
public struct CircleDrawing: OverlayRendering {
  /// The circle drawn.
  public let circle: Circle
  /// How it is drawn.
  public var style: PathStyle

  /// A drawing of a circle; by default a bright magenta outline.
  public init(circle: Circle, style: PathStyle = PathStyle(strokeColor: .brightMagenta)) {
    self.circle = circle
    self.style = style
  }

  /// Fills and strokes the circle (clipped to the tile).
  public func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let s = style
    let r = circle.contextRect(for: circle.boundingMapRect)
    if s.fillColor != nil {
      s.applyFill(to: context)
      context.addEllipse(in: r)
      context.fillPath()
    }
    if s.strokeColor != nil {
      s.applyStroke(to: context, atZoomScale: zoomScale)
      context.addEllipse(in: r)
      context.strokePath()
    }
  }

  /// Half the stroke and a dot.
  public func tileMargin(zoomScale: Double) -> Double { style.tileMargin(zoomScale: zoomScale) }
}

/// Strokes many polylines of one style: what ``MultiPolylineRenderer`` draws, as a value.
public struct MultiPolylineDrawing: OverlayRendering {
  /// The lines drawn.
  public let multiPolyline: MultiPolyline
  /// How they are drawn.
  public var style: PathStyle

  /// A drawing of many lines; by default bright red at the road width.
  public init(
    multiPolyline: MultiPolyline, style: PathStyle = PathStyle(strokeColor: .brightRed)
  ) {
    self.multiPolyline = multiPolyline
    self.style = style
  }

  /// Strokes the lines near `mapRect`; groups smaller than a dot become one dot.
  public func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let s = style
    guard s.strokeColor != nil else { return }
    let painter = PathPainter(origin: multiPolyline.boundingMapRect.origin)
    s.applyStroke(to: context, atZoomScale: zoomScale)
    let reach = s.tileMargin(zoomScale: zoomScale)
    let rect = mapRect.insetBy(dx: -reach, dy: -reach)
    let multi = multiPolyline
    multi.index.query(
      rect, tolerance: 0.75 / zoomScale,
      shape: { i in
        painter.addRun(
          multi.polylines[i].run, in: rect, zoomScale: zoomScale, closed: false, to: context,
          dashed: s.isDashed)
        context.strokePath()
      },
      speck: { p in painter.drawSpeck(p, style: s, context: context) })
  }

  /// Half the stroke and a dot.
  public func tileMargin(zoomScale: Double) -> Double { style.tileMargin(zoomScale: zoomScale) }
}

/// Fills and strokes many polygons of one style: what ``MultiPolygonRenderer`` draws, as a
/// value.
public struct MultiPolygonDrawing: OverlayRendering {
  /// The polygons drawn.
  public let multiPolygon: MultiPolygon
  /// How they are drawn.
  public var style: PathStyle

  /// A drawing of many polygons; by default a blue fill with bright blue outlines.
  public init(
    multiPolygon: MultiPolygon,
    style: PathStyle = PathStyle(strokeColor: .brightBlue, fillColor: .blue)
  ) {
    self.multiPolygon = multiPolygon
    self.style = style
  }

  /// Fills and strokes the polygons in `mapRect`; groups smaller than a dot become one dot.
  public func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let s = style
    let painter = PathPainter(origin: multiPolygon.boundingMapRect.origin)
    let reach = s.tileMargin(zoomScale: zoomScale)
    let rect = mapRect.insetBy(dx: -reach, dy: -reach)
    let multi = multiPolygon
    if s.isDashed {
      multi.index.query(
        rect, tolerance: 0.75 / zoomScale,
        shape: { i in
          painter.drawPolygon(
            multi.polygons[i], style: s, in: mapRect, zoomScale: zoomScale, context: context)
        },
        speck: { p in painter.drawSpeck(p, style: s, context: context) })
      return
    }
    // Polygons with short rings (most of a MultiPolygon of parcels or buildings, a few dots
    // across each) go into one batch per tile, with the same dots as through the path; the
    // rest through the path.
    s.applyFill(to: context)
    s.applyStroke(to: context, atZoomScale: zoomScale)
    let t = context.transform
    // Small polygons are read from the flat rings, in the order the walk meets them.
    let pointTransform = painter.pointTransform(t)
    multi.rings.withBuffers { rings in
      context.withSmallShapes { batch in
        multi.index.queryInLeafOrder(
          rect, tolerance: 0.75 / zoomScale,
          shape: { i, j in
            if rings.holds(position: j) {
              painter.drawSmallPolygon(
                at: j, of: rings, strokeRect: rect, transform: t, pointTransform: pointTransform,
                into: &batch)
            } else {
              batch.withContext { context in
                painter.drawPolygon(
                  multi.polygons[i], style: s, in: mapRect, zoomScale: zoomScale, context: context)
              }
            }
          },
          speck: { p in painter.drawSpeck(p, style: s, transform: t, into: &batch) })
      }
    }
  }

  /// Half the stroke and a dot.
  public func tileMargin(zoomScale: Double) -> Double { style.tileMargin(zoomScale: zoomScale) }
}

// MARK: Renderers: MapKit's classes, drawing with the values above

// Each renderer below adds only immutable `let` properties of `Sendable` types to
// `OverlayPathRenderer`, whose state is behind mutexes: that is why `@unchecked Sendable` is
// safe for them. Subclasses are not checked; a renderer of one's own is better written as an
// `OverlayRendering` value (composing the drawings above) than as a subclass.

/// Strokes a polyline or a geodesic polyline (MKPolylineRenderer).
open class PolylineRenderer: OverlayPathRenderer, @unchecked Sendable {
  /// The line drawn.
  public let polyline: any LineOverlay

  /// A renderer for a line, bright red at the road width.
  public init(polyline: any LineOverlay) {
    self.polyline = polyline
    super.init(overlay: polyline)
    strokeColor = .brightRed
  }

  /// Strokes the line with the current style (``PolylineDrawing``).
  open override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    PolylineDrawing(polyline: polyline, style: style).draw(
      mapRect, zoomScale: zoomScale, in: context)
  }
}

/// Fills and strokes a polygon with its holes (MKPolygonRenderer).
open class PolygonRenderer: OverlayPathRenderer, @unchecked Sendable {
  /// The polygon drawn.
  public let polygon: Polygon

  /// A renderer for a polygon: a blue fill, a bright blue outline.
  public init(polygon: Polygon) {
    self.polygon = polygon
    super.init(overlay: polygon)
    styleBox.withLock { $0 = PathStyle(strokeColor: .brightBlue, fillColor: .blue) }
  }

  /// Fills and strokes the polygon with the current style (``PolygonDrawing``).
  open override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    PolygonDrawing(polygon: polygon, style: style).draw(mapRect, zoomScale: zoomScale, in: context)
  }
}

/// Fills and strokes a circle (MKCircleRenderer).
open class CircleRenderer: OverlayPathRenderer, @unchecked Sendable {
  /// The circle drawn.
  public let circle: Circle

  /// A renderer for a circle: a bright magenta outline, no fill.
  public init(circle: Circle) {
    self.circle = circle
    super.init(overlay: circle)
    styleBox.withLock { $0 = PathStyle(strokeColor: .brightMagenta) }
  }

  /// Fills and strokes the circle with the current style (``CircleDrawing``).
  open override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    CircleDrawing(circle: circle, style: style).draw(mapRect, zoomScale: zoomScale, in: context)
  }
}

/// Strokes many polylines of one style (MKMultiPolylineRenderer).
open class MultiPolylineRenderer: OverlayPathRenderer, @unchecked Sendable {
  /// The lines drawn.
  public let multiPolyline: MultiPolyline

  /// A renderer for many lines, bright red at the road width.
  public init(multiPolyline: MultiPolyline) {
    self.multiPolyline = multiPolyline
    super.init(overlay: multiPolyline)
    strokeColor = .brightRed
  }

  /// Strokes the lines with the current style (``MultiPolylineDrawing``).
  open override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    MultiPolylineDrawing(multiPolyline: multiPolyline, style: style).draw(
      mapRect, zoomScale: zoomScale, in: context)
  }
}

/// Fills and strokes many polygons of one style (MKMultiPolygonRenderer).
open class MultiPolygonRenderer: OverlayPathRenderer, @unchecked Sendable {
  /// The polygons drawn.
  public let multiPolygon: MultiPolygon

  /// A renderer for many polygons: blue fills, bright blue outlines.
  public init(multiPolygon: MultiPolygon) {
    self.multiPolygon = multiPolygon
    super.init(overlay: multiPolygon)
    styleBox.withLock { $0 = PathStyle(strokeColor: .brightBlue, fillColor: .blue) }
  }

  /// Fills and strokes the polygons with the current style (``MultiPolygonDrawing``).
  open override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    MultiPolygonDrawing(multiPolygon: multiPolygon, style: style).draw(
      mapRect, zoomScale: zoomScale, in: context)
  }
}
