import DotRaster
import MapGeometry
import Synchronization

/// Colours along lines, as a `Sendable` value: what ``GradientPolylineRenderer`` draws.
///
/// Each leg of a line (from one point to the next) is stroked in one colour, because a
/// terminal cell shows one colour: legs of the same colour in a row are drawn as one stroke.
/// The colours come either from stops along each line's length (MapKit's
/// `setColors(_:locations:)`: a leg takes the stop nearest the middle of the leg) or from a
/// value at each point (elevation, speed, time), the value range cut into as many equal
/// parts as there are colours and a leg taking the colour of the value at its start.
public struct GradientPolylineDrawing: OverlayRendering {
  /// A run of legs of one colour.
  struct Piece: Sendable {
    let run: PointRun
    /// Nil: the style's stroke colour.
    let color: TermColor?
  }

  /// The lines drawn, in order.
  public let lines: [PointRun]
  /// Each line's leg colours (leg `i` runs from point `i` to `i + 1`).
  public let legColors: [[TermColor]]
  /// Width and dashes (the stroke colour is the legs'); the road width by default.
  public var style: PathStyle
  let origin: MapPoint
  let pieces: [Piece]

  /// A drawing of lines whose legs have the given colours (legs without one: the style's
  /// stroke colour); `origin` is the overlay's bounding origin (the context's user space).
  public init(
    lines: [PointRun], legColors: [[TermColor]], origin: MapPoint,
    style: PathStyle = PathStyle(strokeColor: .brightRed)
  ) {
    self.lines = lines
    self.legColors = legColors
    self.style = style
    self.origin = origin
    var pieces: [Piece] = []
    for (k, line) in lines.enumerated() where line.count > 1 {
      let colours = k < legColors.count ? legColors[k] : []
      func colour(_ i: Int) -> TermColor? { i < colours.count ? colours[i] : nil }
      var from = 0
      while from < line.count - 1 {
        let c = colour(from)
        var to = from + 1
        while to < line.count - 1 && colour(to) == c { to += 1 }
        pieces.append(Piece(run: PointRun(Array(line.points[from...to])), color: c))
        from = to
      }
    }
    self.pieces = pieces
  }

  /// The colour of each leg of `line` for colours at `locations` (0 to 1 along the line's
  /// length, one per colour): the colour whose location is nearest the middle of the leg.
  public static func legColors(of line: PointRun, colors: [TermColor], locations: [Double])
    -> [TermColor]
  {
    guard line.count > 1, !colors.isEmpty else { return [] }
    let stops = Array(zip(locations, colors))
    let total = line.distance(toIndex: line.count - 1)
    var out: [TermColor] = []
    out.reserveCapacity(line.count - 1)
    var along = 0.0
    for i in 0..<(line.count - 1) {
      let a = line.points[i]
      let b = line.points[i + 1]
      let leg = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
      let middle =
        total > 0 ? (along + leg / 2) / total : Double(i) / Double(max(line.count - 2, 1))
      along += leg
      guard !stops.isEmpty else {
        out.append(colors[0])
        continue
      }
      var best = stops[0]
      for s in stops.dropFirst() where abs(s.0 - middle) < abs(best.0 - middle) { best = s }
      out.append(best.1)
    }
    return out
  }

  /// The colour of each leg of a line for values at its points: the value at the leg's start,
  /// placed in `range` cut into `colors.count` equal parts (the lowest part the first colour);
  /// a value that is not finite, or a line whose values do not match its points, gives
  /// `missing`.
  public static func legColors(
    pointCount: Int, values: [Double], colors: [TermColor], range: ClosedRange<Double>,
    missing: TermColor
  ) -> [TermColor] {
    guard pointCount > 1 else { return [] }
    guard values.count == pointCount, !colors.isEmpty else {
      return Array(repeating: missing, count: pointCount - 1)
    }
    let span = max(range.upperBound - range.lowerBound, 1e-9)
    return values.dropLast().map { v in
      guard v.isFinite else { return missing }
      let f = (v - range.lowerBound) / span
      return colors[min(max(Int(f * Double(colors.count)), 0), colors.count - 1)]
    }
  }

  /// Strokes the pieces near `mapRect`, each in its colour.
  public func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let painter = PathPainter(origin: origin)
    let reach = style.tileMargin(zoomScale: zoomScale)
    let near = mapRect.insetBy(dx: -reach, dy: -reach)
    var s = style
    for piece in pieces
    where piece.run.bounds.maxX >= near.minX && piece.run.bounds.minX <= near.maxX
      && piece.run.bounds.maxY >= near.minY && piece.run.bounds.minY <= near.maxY
    {
      s.strokeColor = piece.color ?? style.strokeColor
      painter.drawLine(piece.run, style: s, in: mapRect, zoomScale: zoomScale, context: context)
    }
  }

  /// Half the stroke and a dot.
  public func tileMargin(zoomScale: Double) -> Double { style.tileMargin(zoomScale: zoomScale) }
}

/// Strokes a line (or the lines of a multi-polyline) in colours that change along it
/// (MKGradientPolylineRenderer): by colour stops along the length, `setColors(_:locations:)`,
/// or by a value at each point mapped onto colours, `setColors(_:values:range:)` (a track's
/// elevation, speed or time). Width and dashes come from the path style; the stroke colour is
/// used only for legs without a colour (before any colours are set: the whole line).
///
/// `@unchecked Sendable`: beyond `OverlayPathRenderer`'s mutex-guarded state it adds `lines`
/// (immutable) and `gradient`, a `Mutex`.
open class GradientPolylineRenderer: OverlayPathRenderer, @unchecked Sendable {
  /// The lines drawn: the polyline's run, or each line of the multi-polyline.
  public let lines: [PointRun]

  struct Gradient {
    var colors: [TermColor] = []
    var locations: [Double] = []
    /// Built once per change of colours; its style is replaced by the current one per tile.
    var drawing: GradientPolylineDrawing
  }
  let gradient: Mutex<Gradient>

  /// A renderer for a line, bright red at the road width until colours are set.
  public init(polyline: any LineOverlay) {
    lines = [polyline.run]
    gradient = Mutex(
      Gradient(
        drawing: GradientPolylineDrawing(
          lines: lines, legColors: [], origin: polyline.boundingMapRect.origin)))
    super.init(overlay: polyline)
    strokeColor = .brightRed
  }

  /// A renderer for the lines of a multi-polyline (one gradient per line).
  public init(multiPolyline: MultiPolyline) {
    lines = multiPolyline.polylines.map(\.run)
    gradient = Mutex(
      Gradient(
        drawing: GradientPolylineDrawing(
          lines: lines, legColors: [], origin: multiPolyline.boundingMapRect.origin)))
    super.init(overlay: multiPolyline)
    strokeColor = .brightRed
  }

  /// The colours set last (the stops, or the colours values are mapped onto).
  public var colors: [TermColor] { gradient.withLock { $0.colors } }
  /// The stops' locations set by `setColors(_:locations:)` (empty for colours by value).
  public var locations: [Double] { gradient.withLock { $0.locations } }

  /// Colours at locations along each line's length, 0 (its start) to 1 (its end), one
  /// location per colour; a leg takes the colour whose location is nearest its middle.
  /// Redraws the line.
  public func setColors(_ colors: [TermColor], locations: [Double]) {
    let legs = lines.map {
      GradientPolylineDrawing.legColors(of: $0, colors: colors, locations: locations)
    }
    let drawing = GradientPolylineDrawing(
      lines: lines, legColors: legs, origin: overlay.boundingMapRect.origin)
    gradient.withLock { $0 = Gradient(colors: colors, locations: locations, drawing: drawing) }
    setNeedsDisplay()
  }

  /// Colours by a value at each point: `values[k]` for line `k` (one value per point; a line
  /// with no values, or values that are not finite, is drawn in `missingColor`). The range
  /// (by default the values' own) is cut into `colors.count` equal parts, lowest first, and a
  /// leg takes the colour of the value at its start. Redraws the line.
  public func setColors(
    _ colors: [TermColor], values: [[Double]], range: ClosedRange<Double>? = nil,
    missingColor: TermColor = .brightBlack
  ) {
    var low = Double.infinity
    var high = -Double.infinity
    for vs in values {
      for v in vs where v.isFinite {
        low = min(low, v)
        high = max(high, v)
      }
    }
    let r = range ?? (low <= high ? low...high : 0...1)
    let legs = lines.enumerated().map { k, line in
      GradientPolylineDrawing.legColors(
        pointCount: line.count, values: k < values.count ? values[k] : [], colors: colors,
        range: r, missing: missingColor)
    }
    let drawing = GradientPolylineDrawing(
      lines: lines, legColors: legs, origin: overlay.boundingMapRect.origin)
    gradient.withLock { $0 = Gradient(colors: colors, locations: [], drawing: drawing) }
    setNeedsDisplay()
  }

  /// The drawing with the current colours and style (read once per tile).
  public var drawing: GradientPolylineDrawing {
    var d = gradient.withLock { $0.drawing }
    d.style = style
    return d
  }

  /// Strokes the lines leg by leg in their colours.
  open override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    drawing.draw(mapRect, zoomScale: zoomScale, in: context)
  }
}
