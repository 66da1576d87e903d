import DotRaster
import MapGeometry
import Synchronization

/// The drawing style of a path renderer: colours, width and dashes in screen points (dots).
public struct PathStyle: Sendable, Equatable {
  public var fillColor: TermColor? = nil
  public var strokeColor: TermColor? = nil
  /// Stroke width in dots; 0 means the road width at the current zoom scale.
  public var lineWidth: Double = 0
  /// Dash lengths in dots (nil draws solid lines).
  public var lineDashPattern: [Double]? = nil
  public var lineDashPhase: Double = 0
  /// The dot texture of fills.
  public var fillPattern: DotPattern = .checker

  public init() {}

  /// Whether strokes are dashed.
  var isDashed: Bool { lineDashPattern.map { $0.contains { $0 > 0 } } ?? false }
}

/// A renderer that fills and strokes paths (MKOverlayPathRenderer), with its style behind a
/// mutex so it can be changed on the main thread while tiles draw elsewhere.
open class OverlayPathRenderer: OverlayRenderer, @unchecked Sendable {
  let styleBox = Mutex(PathStyle())

  /// A snapshot of the whole style (read once per tile).
  public var style: PathStyle {
    get { styleBox.withLock { $0 } }
    set {
      styleBox.withLock { $0 = newValue }
      setNeedsDisplay()
    }
  }

  public var fillColor: TermColor? {
    get { style.fillColor }
    set { style.fillColor = newValue }
  }
  public var strokeColor: TermColor? {
    get { style.strokeColor }
    set { style.strokeColor = newValue }
  }
  public var lineWidth: Double {
    get { style.lineWidth }
    set { style.lineWidth = max(newValue, 0) }
  }
  public var lineDashPattern: [Double]? {
    get { style.lineDashPattern }
    set { style.lineDashPattern = newValue }
  }
  public var lineDashPhase: Double {
    get { style.lineDashPhase }
    set { style.lineDashPhase = newValue }
  }
  public var fillPattern: DotPattern {
    get { style.fillPattern }
    set { style.fillPattern = newValue }
  }

  /// Sets stroke colour, width and dashes on the context, scaled from dots into context units
  /// by the zoom scale (a width of 4 becomes 4 / zoomScale). Does not save the graphics state.
  public func applyStrokeProperties(to context: DrawingContext, atZoomScale zoomScale: Double) {
    applyStroke(style, to: context, atZoomScale: zoomScale)
  }

  /// Sets the fill colour and pattern on the context.
  public func applyFillProperties(to context: DrawingContext, atZoomScale zoomScale: Double) {
    applyFill(style, to: context)
  }

  func applyStroke(_ s: PathStyle, to context: DrawingContext, atZoomScale zoomScale: Double) {
    context.strokeColor = s.strokeColor
    context.lineWidth =
      s.lineWidth > 0 ? s.lineWidth / zoomScale : ZoomMath.roadWidth(atZoomScale: zoomScale)
    context.setLineDash(
      phase: s.lineDashPhase / zoomScale, lengths: (s.lineDashPattern ?? []).map { $0 / zoomScale })
  }

  func applyFill(_ s: PathStyle, to context: DrawingContext) {
    context.fillColor = s.fillColor
    context.fillPattern = s.fillPattern
  }

  /// Strokes the context's current path if there is a stroke colour (and clears the path).
  public func strokePath(in context: DrawingContext) {
    if context.strokeColor != nil { context.strokePath() } else { context.beginPath() }
  }

  /// Fills the context's current path if there is a fill colour (and clears the path).
  public func fillPath(in context: DrawingContext) {
    if context.fillColor != nil { context.fillPath() } else { context.beginPath() }
  }

  /// The stroke width in map points at a zoom scale, to grow query rects so strokes that start
  /// just outside a tile still reach into it.
  func strokeReach(_ s: PathStyle, zoomScale: Double) -> Double {
    let dots =
      s.lineWidth > 0 ? s.lineWidth : ZoomMath.roadWidth(atZoomScale: zoomScale) * zoomScale
    return (dots / 2 + 1) / zoomScale
  }

  open override func tileMargin(zoomScale: Double) -> Double {
    strokeReach(style, zoomScale: zoomScale)
  }

  /// Adds a run's visible points to the context path (in context space), with level of detail.
  /// With `dashed`, each piece starts at its distance along the run, so dashes stay in step
  /// however the run is cut into pieces and tiles.
  func addRun(
    _ run: PointRun, in rect: MapRect, zoomScale: Double, closed: Bool, to context: DrawingContext,
    dashed: Bool = false
  ) {
    let origin = overlay.boundingMapRect.origin
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

  /// Fills a ring with its holes, then strokes the outlines, inside `rect`.
  func drawPolygon(
    _ polygon: Polygon, style s: PathStyle, in rect: MapRect, zoomScale: Double,
    context: DrawingContext
  ) {
    if s.fillColor != nil {
      applyFill(s, to: context)
      addRun(polygon.run, in: rect, zoomScale: zoomScale, closed: true, to: context)
      context.closePath()
      for hole in polygon.interiorPolygons {
        addRun(hole.run, in: rect, zoomScale: zoomScale, closed: true, to: context)
        context.closePath()
      }
      context.fillPath()
    }
    if s.strokeColor != nil {
      applyStroke(s, to: context, atZoomScale: zoomScale)
      let reach = strokeReach(s, zoomScale: zoomScale)
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

  /// Marks a shape smaller than a dot with one dot (none when the style has no colour).
  func drawSpeck(_ p: MapPoint, style s: PathStyle, context: DrawingContext) {
    // `plot` falls back to the context's stroke colour for a nil colour, so check here.
    guard let color = s.strokeColor ?? s.fillColor else { return }
    context.plot(point(for: p), color: color)
  }
}
