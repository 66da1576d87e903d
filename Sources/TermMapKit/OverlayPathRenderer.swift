import DotRaster
import MapGeometry
import Synchronization

/// The drawing style of a path renderer: colours, width and dashes in screen points (dots).
public struct PathStyle: Sendable, Equatable {
  /// The colour inside shapes; nil leaves them unfilled.
  public var fillColor: TermColor? = nil
  /// The colour of outlines and lines; nil draws none.
  public var strokeColor: TermColor? = nil
  /// Stroke width in dots; 0 means the road width at the current zoom scale.
  public var lineWidth: Double = 0
  /// Dash lengths in dots (nil draws solid lines).
  public var lineDashPattern: [Double]? = nil
  /// How far into the dash pattern (in dots) each line starts.
  public var lineDashPhase: Double = 0
  /// The dot texture of fills.
  public var fillPattern: DotPattern = .checker

  /// A style that draws nothing (no fill, no stroke).
  public init() {}

  /// A style with a stroke and, optionally, a fill.
  public init(strokeColor: TermColor?, fillColor: TermColor? = nil, lineWidth: Double = 0) {
    self.strokeColor = strokeColor
    self.fillColor = fillColor
    self.lineWidth = max(lineWidth, 0)
  }

  /// Whether strokes are dashed.
  var isDashed: Bool { lineDashPattern.map { $0.contains { $0 > 0 } } ?? false }

  /// Sets stroke colour, width and dashes on the context, scaled from dots into context units
  /// by the zoom scale (a width of 4 becomes 4 / zoomScale). Does not save the graphics state.
  public func applyStroke(to context: DrawingContext, atZoomScale zoomScale: Double) {
    context.strokeColor = strokeColor
    context.lineWidth =
      lineWidth > 0 ? lineWidth / zoomScale : ZoomMath.roadWidth(atZoomScale: zoomScale)
    context.setLineDash(
      phase: lineDashPhase / zoomScale, lengths: (lineDashPattern ?? []).map { $0 / zoomScale })
  }

  /// Sets the fill colour and pattern on the context.
  public func applyFill(to context: DrawingContext) {
    context.fillColor = fillColor
    context.fillPattern = fillPattern
  }

  /// How far (in map points) a stroke of this style reaches past the line it draws at a zoom
  /// scale: half the width and a dot. Tiles this close to a shape are drawn, and query rects
  /// grow by it, so strokes starting just outside a tile still reach into it.
  public func tileMargin(zoomScale: Double) -> Double {
    let dots = lineWidth > 0 ? lineWidth : ZoomMath.roadWidth(atZoomScale: zoomScale) * zoomScale
    return (dots / 2 + 1) / zoomScale
  }
}

/// A renderer that fills and strokes paths (MKOverlayPathRenderer), with its style behind a
/// mutex so it can be changed on the main thread while tiles draw elsewhere.
///
/// `@unchecked Sendable`: its only stored state of its own is `styleBox`, a `Mutex`.
open class OverlayPathRenderer: OverlayRenderer, @unchecked Sendable {
  let styleBox = Mutex(PathStyle())

  /// A snapshot of the whole style (read once per tile). Setting it redraws every tile.
  public var style: PathStyle {
    get { styleBox.withLock { $0 } }
    set {
      styleBox.withLock { $0 = newValue }
      setNeedsDisplay()
    }
  }

  /// The style's fill colour (nil: no fill).
  public var fillColor: TermColor? {
    get { style.fillColor }
    set { style.fillColor = newValue }
  }
  /// The style's stroke colour (nil: no stroke).
  public var strokeColor: TermColor? {
    get { style.strokeColor }
    set { style.strokeColor = newValue }
  }
  /// The style's stroke width in dots (0: the road width at the zoom scale).
  public var lineWidth: Double {
    get { style.lineWidth }
    set { style.lineWidth = max(newValue, 0) }
  }
  /// The style's dash lengths in dots (nil: solid).
  public var lineDashPattern: [Double]? {
    get { style.lineDashPattern }
    set { style.lineDashPattern = newValue }
  }
  /// The style's dash phase in dots.
  public var lineDashPhase: Double {
    get { style.lineDashPhase }
    set { style.lineDashPhase = newValue }
  }
  /// The style's fill texture.
  public var fillPattern: DotPattern {
    get { style.fillPattern }
    set { style.fillPattern = newValue }
  }

  /// Sets stroke colour, width and dashes on the context, scaled from dots into context units
  /// by the zoom scale (a width of 4 becomes 4 / zoomScale). Does not save the graphics state.
  public func applyStrokeProperties(to context: DrawingContext, atZoomScale zoomScale: Double) {
    style.applyStroke(to: context, atZoomScale: zoomScale)
  }

  /// Sets the fill colour and pattern on the context.
  public func applyFillProperties(to context: DrawingContext, atZoomScale zoomScale: Double) {
    style.applyFill(to: context)
  }

  /// Strokes the context's current path if there is a stroke colour (and clears the path).
  public func strokePath(in context: DrawingContext) {
    if context.strokeColor != nil { context.strokePath() } else { context.beginPath() }
  }

  /// Fills the context's current path if there is a fill colour (and clears the path).
  public func fillPath(in context: DrawingContext) {
    if context.fillColor != nil { context.fillPath() } else { context.beginPath() }
  }

  /// Half the style's stroke and a dot, in map points (``PathStyle/tileMargin(zoomScale:)``).
  open override func tileMargin(zoomScale: Double) -> Double {
    style.tileMargin(zoomScale: zoomScale)
  }
}

/// Puts runs of map points into a drawing context whose user space starts at `origin` (an
/// overlay's bounding origin): the shared path code of the shape drawings.
struct PathPainter {
  let origin: MapPoint

  func point(for p: MapPoint) -> Point2D { Point2D(x: p.x - origin.x, y: p.y - origin.y) }

  /// Adds a run's visible points to the context path (in context space), with level of detail.
  /// With `dashed`, each piece starts at its distance along the run, so dashes stay in step
  /// however the run is cut into pieces and tiles.
  func addRun(
    _ run: PointRun, in rect: MapRect, zoomScale: Double, closed: Bool, to context: DrawingContext,
    dashed: Bool = false
  ) {
    let origin = origin
    let tolerance = 0.75 / zoomScale
    // Straight into dots (one builder for the run, no call into the context per point).
    let t = context.transform
    let ox = t.translateX - origin.x * t.scaleX
    let oy = t.translateY - origin.y * t.scaleY
    let dashScale = abs(t.scaleX)
    context.withDotPath { path in
      run.walkWithIndices(in: rect, tolerance: tolerance, closedForFill: closed) { step, index in
        switch step {
        case .move(let p):
          let x = p.x * t.scaleX + ox
          let y = p.y * t.scaleY + oy
          if dashed {
            path.move(x: x, y: y, dashOffset: run.distance(toIndex: index) * dashScale)
          } else {
            path.move(x: x, y: y)
          }
        case .line(let p): path.line(x: p.x * t.scaleX + ox, y: p.y * t.scaleY + oy)
        }
      }
    }
  }

  /// Strokes a line inside `rect` (grown by the stroke's reach).
  func drawLine(
    _ run: PointRun, style s: PathStyle, in mapRect: MapRect, zoomScale: Double,
    context: DrawingContext
  ) {
    guard s.strokeColor != nil else { return }
    s.applyStroke(to: context, atZoomScale: zoomScale)
    let reach = s.tileMargin(zoomScale: zoomScale)
    addRun(
      run, in: mapRect.insetBy(dx: -reach, dy: -reach), zoomScale: zoomScale, closed: false,
      to: context, dashed: s.isDashed)
    context.strokePath()
  }

  /// Fills a ring with its holes, then strokes the outlines, inside `rect`.
  func drawPolygon(
    _ polygon: Polygon, style s: PathStyle, in rect: MapRect, zoomScale: Double,
    context: DrawingContext
  ) {
    if s.fillColor != nil {
      s.applyFill(to: context)
      addRun(polygon.run, in: rect, zoomScale: zoomScale, closed: true, to: context)
      context.closePath()
      for hole in polygon.interiorPolygons {
        addRun(hole.run, in: rect, zoomScale: zoomScale, closed: true, to: context)
        context.closePath()
      }
      context.fillPath()
    }
    if s.strokeColor != nil {
      s.applyStroke(to: context, atZoomScale: zoomScale)
      let reach = s.tileMargin(zoomScale: zoomScale)
      let strokeRect = rect.insetBy(dx: -reach, dy: -reach)
      let dashed = s.isDashed
      for k in -1..<polygon.interiorPolygons.count {
        let ring = k < 0 ? polygon : polygon.interiorPolygons[k]
        addRun(
          ring.run, in: strokeRect, zoomScale: zoomScale, closed: false, to: context,
          dashed: dashed)
        context.strokePath()
        if let first = ring.run.points.first, let last = ring.run.points.last, first != last {
          context.strokeSegment(from: point(for: last), to: point(for: first))
        }
      }
    }
  }

  /// Whether `drawSmallPolygon` draws a polygon: each ring is short enough to have no index
  /// (so the path gets every point of it, as the batch does).
  static func drawsInBatch(_ polygon: Polygon) -> Bool {
    polygon.run.levels.isEmpty && polygon.interiorPolygons.allSatisfy { $0.run.levels.isEmpty }
  }

  /// Draws a polygon with short rings (`drawsInBatch`) as `drawPolygon` does, dot for dot,
  /// without a path: the rings' points straight into the batch's fill, then each ring's
  /// segments and closing segment into its stroker. The batch holds the style (solid strokes)
  /// and `transform` is the context's.
  func drawSmallPolygon(
    _ polygon: Polygon, strokeRect: MapRect, transform t: Transform2D,
    into batch: inout SmallShapeBatch
  ) {
    // The dot-space formulas of `addRun` (ring points) and of `strokeSegment` (the closing
    // segment, through `point(for:)` and the transform), kept apart: the two can differ in
    // the last bit, and so in a dot.
    let ox = t.translateX - origin.x * t.scaleX
    let oy = t.translateY - origin.y * t.scaleY
    let holes = polygon.interiorPolygons
    if batch.fills {
      for k in -1..<holes.count {
        let points = k < 0 ? polygon.run.points : holes[k].run.points
        for p in points { batch.addPoint(x: p.x * t.scaleX + ox, y: p.y * t.scaleY + oy) }
        batch.closeRing()
      }
      batch.fillRings()
    }
    guard batch.strokes else { return }
    for k in -1..<holes.count {
      let run = k < 0 ? polygon.run : holes[k].run
      let points = run.points
      guard let first = points.first, let last = points.last else { continue }
      // The walk of a ring without an index gives all its points, or none when its bounds
      // miss the rect (`PointRun.Box.outside`).
      let b = run.bounds
      if !(b.maxX < strokeRect.minX || b.minX > strokeRect.maxX || b.maxY < strokeRect.minY
        || b.minY > strokeRect.maxY)
      {
        var px = first.x * t.scaleX + ox
        var py = first.y * t.scaleY + oy
        if points.count == 1 { batch.strokeSegment(px, py, px, py) }
        for p in points.dropFirst() {
          let qx = p.x * t.scaleX + ox
          let qy = p.y * t.scaleY + oy
          batch.strokeSegment(px, py, qx, qy)
          (px, py) = (qx, qy)
        }
      }
      if first != last {
        let a = t.apply(point(for: last))
        let c = t.apply(point(for: first))
        batch.strokeSegment(a.x, a.y, c.x, c.y)
      }
    }
  }

  /// `drawSpeck` into a batch.
  func drawSpeck(
    _ p: MapPoint, style s: PathStyle, transform t: Transform2D,
    into batch: inout SmallShapeBatch
  ) {
    guard let color = s.strokeColor ?? s.fillColor else { return }
    let d = t.apply(point(for: p))
    batch.plot(x: d.x, y: d.y, color: color)
  }

  /// Marks a shape smaller than a dot with one dot (none when the style has no colour).
  func drawSpeck(_ p: MapPoint, style s: PathStyle, context: DrawingContext) {
    // `plot` falls back to the context's stroke colour for a nil colour, so check here.
    guard let color = s.strokeColor ?? s.fillColor else { return }
    context.plot(point(for: p), color: color)
  }
}
