import Foundation

extension DrawingContext {
  /// Strokes every subpath of the current path with `ink`.
  func strokeCurrentPath(ink: Ink) {
    guard !xs.isEmpty else { return }
    // Local copies (no copying: the arrays are shared) so the loop reads plain values.
    let (xs, ys, subpaths) = (self.xs, self.ys, self.subpaths)
    withStroker(ink: ink) { stroker, dots in
      xs.withUnsafeBufferPointer { xs in
        ys.withUnsafeBufferPointer { ys in
          for index in subpaths.indices {
            let sub = subpaths[index]
            let end = index + 1 < subpaths.count ? subpaths[index + 1].start : xs.count
            let start = sub.start
            stroker.dashDistance = sub.dashOffset
            if end - start == 1 {
              stroker.segment(xs[start], ys[start], xs[start], ys[start], dots)
              continue
            }
            for i in start..<(end - 1) {
              stroker.segment(xs[i], ys[i], xs[i + 1], ys[i + 1], dots)
            }
            if sub.closed && end - start > 2 {
              stroker.segment(xs[end - 1], ys[end - 1], xs[start], ys[start], dots)
            }
          }
        }
      }
    }
  }

  /// Runs `body` with a stroker of the current width, dashes and clip drawing `ink`, and the
  /// canvas's dots. The canvas is moved out of the context meanwhile (a swap: no copy, no
  /// reference counting), so a drawing through the context while `body` runs finds an empty
  /// canvas and draws nothing, and no access to `canvas` lasts while `body` runs.
  ///
  /// The canvas is swapped with `spareCanvas` (no reference counting); a stroke begun while
  /// one is drawing lends out the empty canvas it finds.
  @inline(__always)
  func withStroker(ink: Ink, _ body: (inout Stroker, UnsafeMutableBufferPointer<Ink>) -> Void) {
    if spareHoldsCanvas {
      var lent = Stroker.lentOut
      swap(&lent, &canvas)
      var stroker = Stroker(context: self, canvas: lent, ink: ink)
      lent.withDots { body(&stroker, $0) }
      swap(&lent, &canvas)
      return
    }
    spareHoldsCanvas = true
    swap(&spareCanvas, &canvas)
    var stroker = Stroker(context: self, canvas: spareCanvas, ink: ink)
    spareCanvas.withDots { body(&stroker, $0) }
    swap(&spareCanvas, &canvas)
    spareHoldsCanvas = false
  }

  /// Strokes one segment given in user space, without building a path (the hot path of
  /// polyline renderers).
  public func strokeSegment(from a: Point2D, to b: Point2D) {
    guard let color = state.strokeColor else { return }
    let p = state.transform.apply(a)
    let q = state.transform.apply(b)
    if keepsColor(color) {
      let area = dotArea(
        min(p.x, q.x), min(p.y, q.y), max(p.x, q.x), max(p.y, q.y), margin: strokeMargin)
      drawKeepingColor(color, layer: Self.strokeLayer, in: area) { ink in
        withStroker(ink: ink) { $0.segment(p.x, p.y, q.x, q.y, $1) }
      }
      return
    }
    withStroker(ink: Ink(layer: Self.strokeLayer, color: color)) {
      $0.segment(p.x, p.y, q.x, q.y, $1)
    }
  }

  /// Strokes a run of user-space points as one open polyline.
  public func strokePolyline(_ points: UnsafeBufferPointer<Point2D>) {
    guard let color = state.strokeColor, !points.isEmpty else { return }
    if keepsColor(color) {
      drawKeepingColor(color, layer: Self.strokeLayer, in: state.clip) {
        strokePolyline(points, ink: $0)
      }
    } else {
      strokePolyline(points, ink: Ink(layer: Self.strokeLayer, color: color))
    }
  }

  private func strokePolyline(_ points: UnsafeBufferPointer<Point2D>, ink: Ink) {
    let t = state.transform
    withStroker(ink: ink) { stroker, dots in
      var prev = t.apply(points[0])
      if points.count == 1 { stroker.segment(prev.x, prev.y, prev.x, prev.y, dots) }
      for i in 1..<points.count {
        let next = t.apply(points[i])
        stroker.segment(prev.x, prev.y, next.x, next.y, dots)
        prev = next
      }
    }
  }
}

extension DrawingContext {
  /// Strokes lines given in dot space as `body` hands them over, with the stroke colour,
  /// width and dashes, each segment as it comes: the dots are those of building the same path
  /// with `withDotPath` and `strokePath()`, without the path (for renderers that stroke many
  /// vertices, such as vector tiles). The current path is left alone; without a stroke
  /// colour nothing is drawn and `body` is not called.
  public func strokeDotLines(_ body: (inout DotStrokeSink) -> Void) {
    strokeDotLines(nil, body)
  }

  /// `strokeDotLines(_:)` for lines whose every vertex lies in `box` (dot space, edges
  /// included): the same dots. In a 24-bit colour only the dots of `box` grown by the stroke's
  /// reach are settled (`DotCanvas.settle`), not the whole clip: a renderer stroking one
  /// small outline at a time (buildings) then pays for its outline's area, not the tile's.
  /// A vertex outside `box` may leave dots outside it unsettled; give the whole clip
  /// (`strokeDotLines(_:)`) when the vertices are not known beforehand.
  public func strokeDotLines(within box: Rect2D, _ body: (inout DotStrokeSink) -> Void) {
    strokeDotLines(box, body)
  }

  private func strokeDotLines(_ box: Rect2D?, _ body: (inout DotStrokeSink) -> Void) {
    guard let color = state.strokeColor else { return }
    if keepsColor(color) {
      // (Without a box, where the lines go is not known beforehand: the clip is settled.)
      let area =
        box.map {
          dotArea($0.x, $0.y, $0.maxX, $0.maxY, margin: strokeMargin)
        } ?? state.clip
      // (The ink taken first, not through `drawKeepingColor`'s closure: a stroke a feature,
      // for buildings, paid for the closure's context and its retains.)
      strokeDotLines(ink: keptInk(color, layer: Self.strokeLayer, in: area), body)
      return
    }
    strokeDotLines(ink: Ink(layer: Self.strokeLayer, color: color), body)
  }

  /// The lines of `body` stroked with `ink`: the stroker is made in the sink while the
  /// canvas is lent out (`withStroker(ink:_:)`'s swap with `spareCanvas`).
  private func strokeDotLines(ink: Ink, _ body: (inout DotStrokeSink) -> Void) {
    if spareHoldsCanvas {
      // (A stroke begun from another's lines: the empty canvas found is lent out.)
      var lent = Stroker.lentOut
      swap(&lent, &canvas)
      Self.strokeDotLines(context: self, ink: ink, on: &lent, body)
      swap(&lent, &canvas)
      return
    }
    spareHoldsCanvas = true
    swap(&spareCanvas, &canvas)
    Self.strokeDotLines(context: self, ink: ink, on: &spareCanvas, body)
    swap(&spareCanvas, &canvas)
    spareHoldsCanvas = false
  }

  /// The lines of `body` stroked with `ink` into `lent` (the context's canvas, lent out).
  @inline(__always)
  private static func strokeDotLines(
    context: DrawingContext, ink: Ink, on lent: inout DotCanvas,
    _ body: (inout DotStrokeSink) -> Void
  ) {
    let (width, height) = (lent.width, lent.height)
    lent.withDots { dots in
      // (Made in place in the sink: a stroker made before and captured here was copied.)
      var sink = DotStrokeSink(
        stroker: Stroker(context: context, width: width, height: height, ink: ink), dots: dots)
      body(&sink)
      sink.finishSubpath()
    }
  }
}

/// Where lines in dot space go: a path being built (`DotPathBuilder`) or strokes drawn as they
/// come (`DotStrokeSink`).
public protocol DotLineSink {
  /// Starts a subpath at a dot-space point whose dashes begin `dashOffset` dots into the
  /// pattern.
  mutating func move(x: Double, y: Double, dashOffset: Double)
  /// Adds a line to a dot-space point (a move when no subpath is open).
  mutating func line(x: Double, y: Double)
  /// Whether a line whose ends both lie more than two dots beyond the same edge of the clip
  /// (`DrawingContext.clipBounds`) may be left out, the subpath going on from its far end as
  /// after a move: true where such a line inks no dot of the clip and leaves nothing behind
  /// for the lines after it (solid strokes at most a dot beyond their centre line); false for
  /// a path (a fill needs every edge) and by default.
  var mayLiftBeyondClip: Bool { get }
}

extension DotLineSink {
  /// False: every line is needed (see the requirement).
  public var mayLiftBeyondClip: Bool { false }
}

extension DotPathBuilder: DotLineSink {}

/// Strokes the lines handed to it at once (see `DrawingContext.strokeDotLines`): a subpath of
/// one point is a dot, as when a path is stroked.
public struct DotStrokeSink: DotLineSink {
  var stroker: Stroker
  let dots: UnsafeMutableBufferPointer<Ink>
  var lastX = 0.0
  var lastY = 0.0
  /// Points in the open subpath: 0, 1, or 2 for two or more.
  var points = 0
  /// `mayLiftBeyondClip`, kept (the stroker's dashes and brush do not change), so that a
  /// renderer in another module reads it without a call.
  @usableFromInline let liftsBeyondClip: Bool

  init(stroker: Stroker, dots: UnsafeMutableBufferPointer<Ink>) {
    self.stroker = stroker
    self.dots = dots
    liftsBeyondClip = stroker.dashTotal <= 0 && stroker.brush.reach <= 1
  }

  public mutating func move(x: Double, y: Double, dashOffset: Double) {
    finishSubpath()
    stroker.dashDistance = dashOffset.isFinite ? dashOffset : 0
    lastX = x
    lastY = y
    points = 1
  }

  public mutating func line(x: Double, y: Double) {
    if points == 0 {
      move(x: x, y: y, dashOffset: 0)
      return
    }
    stroker.segment(lastX, lastY, x, y, dots)
    lastX = x
    lastY = y
    points = 2
  }

  @inline(__always) mutating func finishSubpath() {
    if points == 1 { dotAlone() }
    points = 0
  }

  /// The dot of a subpath of one point (out of line: `move` stays small).
  @inline(never) mutating func dotAlone() {
    stroker.segment(lastX, lastY, lastX, lastY, dots)
  }

  /// True for a solid stroke whose dots lie at most a dot from its centre line (the dots of a
  /// segment are then those of its own ends, each within the brush's reach of the steps
  /// between the ends' dots: none in the clip when both ends lie over two dots beyond one
  /// edge of it).
  @inlinable public var mayLiftBeyondClip: Bool { liftsBeyondClip }
}

/// The dots a stroke of some width stamps around each step of its centre line: those within
/// its radius (dx² + dy² at most `limit`), row by row a span (a plain value: no array per
/// stroker).
struct Brush {
  /// How far the brush may reach from its centre, in dots, each way: ⌈r⌉, r half the width
  /// (0: a single dot). Clipping and lifting grow the clip by this much.
  let reach: Int
  /// The largest dx² + dy² of a dot of the brush: ⌊r² + ¼⌋ (the dots whose
  /// `Double(dx * dx + dy * dy) <= r * r + 0.25`; r² + ¼ is below (reach + 1)², so none
  /// lies beyond `reach`).
  let limit: Int
  /// How far its dots do reach, each way: ⌊√limit⌋ (at most `reach`; its middle row's half
  /// span too).
  let rows: Int
  /// Each row's half span for |dy| ≤ 7, a byte each, for brushes of at most 7 rows each way
  /// (wider ones work them out).
  let packed: UInt64

  init(widthInDots w: Double) {
    if w < 1.75 {
      reach = 0
      limit = 0
      rows = 0
      packed = 0
      return
    }
    let r = w / 2
    reach = Int(r.rounded(.up))
    let limit = Int((r * r + 0.25).rounded(.down))
    self.limit = limit
    rows = Brush.squareRootFloor(limit)
    var p: UInt64 = 0
    if rows <= 7 {
      for dy in 0...rows { p |= UInt64(Brush.squareRootFloor(limit - dy * dy)) << (8 * dy) }
    }
    packed = p
  }

  /// `init(widthInDots:)`, with a stroke a dot wide (most strokes) made without a call.
  @inline(__always) static func of(widthInDots w: Double) -> Brush {
    w < 1.75 ? Brush(reach: 0, limit: 0, rows: 0, packed: 0) : Brush(widthInDots: w)
  }

  @inline(__always) private init(reach: Int, limit: Int, rows: Int, packed: UInt64) {
    self.reach = reach
    self.limit = limit
    self.rows = rows
    self.packed = packed
  }

  /// ⌊√n⌋ for a whole n ≥ 0 below 2⁵² (exact in doubles: the square root rounds correctly,
  /// and k − 1/2k, just below a whole k, is a double apart from k).
  @inline(__always) static func squareRootFloor(_ n: Int) -> Int {
    Int(Double(n).squareRoot())
  }

  /// Half the span of row `dy` of the brush, |dy| ≤ `rows` (its dots there run from −h to h).
  @inline(__always) func halfWidth(_ dy: Int) -> Int {
    rows <= 7 ? packedHalfWidth(dy) : Brush.squareRootFloor(limit &- dy &* dy)
  }

  /// `halfWidth` read from `packed` (`rows` ≤ 7).
  @inline(__always) func packedHalfWidth(_ dy: Int) -> Int {
    Int(truncatingIfNeeded: packed &>> UInt64(truncatingIfNeeded: magnitude(dy) &<< 3) & 0xFF)
  }

  /// The brushes of one row each way (`rows` 1: `limit` 1, 2 or 3, so ⌊√limit⌋ = 1): the
  /// middle row's half span is 1, the others' ⌊√(limit − 1)⌋, 0 for `limit` 1 (a plus) and 1
  /// else (a 3 × 3 square). `plus` inks the plus around `dots[index]` in rows `w` dots wide.
  @inline(__always) static func plus(
    _ dots: UnsafeMutableBufferPointer<Ink>, _ index: Int, _ w: Int, _ ink: Ink
  ) {
    dots[index &- w] = ink
    dots[index &- 1] = ink
    dots[index] = ink
    dots[index &+ 1] = ink
    dots[index &+ w] = ink
  }

  /// The 3 × 3 square around `dots[index]` (see `plus`).
  @inline(__always) static func square(
    _ dots: UnsafeMutableBufferPointer<Ink>, _ index: Int, _ w: Int, _ ink: Ink
  ) {
    let up = index &- w
    let down = index &+ w
    dots[up &- 1] = ink
    dots[up] = ink
    dots[up &+ 1] = ink
    dots[index &- 1] = ink
    dots[index] = ink
    dots[index &+ 1] = ink
    dots[down &- 1] = ink
    dots[down] = ink
    dots[down &+ 1] = ink
  }

  /// Inks `dots[centre − h]` through `dots[centre + h]`. Spans of up to five dots (most
  /// brushes' rows) are five writes without a branch, some of them to the same dot (the same
  /// ink: harmless); a loop over a few dots cost the vectoriser's set-up, some 30
  /// instructions, each time.
  @inline(__always) static func span(
    _ dots: UnsafeMutableBufferPointer<Ink>, _ centre: Int, _ h: Int, _ ink: Ink
  ) {
    if h <= 2 {
      // (h = 0: the centre five times; 1: the three dots; 2: the five.)
      let m = (h &+ 1) &>> 1
      dots[centre &- h] = ink
      dots[centre &- m] = ink
      dots[centre] = ink
      dots[centre &+ m] = ink
      dots[centre &+ h] = ink
      return
    }
    var c = centre &- h
    let end = centre &+ h
    while c <= end {
      dots[c] = ink
      c &+= 1
    }
  }

  /// Inks the brush's dots around (`x`, `y`) that lie in `clip`, row by row.
  @inline(__always) func stamp(
    _ x: Int, _ y: Int, clip: DotRect, width w: Int, ink: Ink,
    _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    var dy = max(0 &- rows, clip.minY &- y)
    let last = min(rows, clip.maxY &- 1 &- y)
    while dy <= last {
      let h = halfWidth(dy)
      let lo = max(x &- h, clip.minX)
      let hi = min(x &+ h, clip.maxX &- 1)
      if lo <= hi {
        let base = (y &+ dy) &* w
        var c = lo
        while c <= hi {
          dots[base &+ c] = ink
          c &+= 1
        }
      }
      dy &+= 1
    }
  }

  /// `stamp` for a brush of one row each way (`rows` 1: a plus for `limit` 1, else a 3 × 3
  /// square): the same dots, the clipped span of each row (one to three dots) written as its
  /// first, middle and last dot, with no loop.
  @inline(__always) func stampOneRow(
    _ x: Int, _ y: Int, clip: DotRect, width w: Int, ink: Ink,
    _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    let lo = max(x &- 1, clip.minX)
    let hi = min(x &+ 1, clip.maxX &- 1)
    // (No dot of the middle row, the widest, in the clip: none at all.)
    guard lo <= hi else { return }
    let mid = (lo &+ hi) &>> 1
    let (up, down) = (y &- 1, y &+ 1)
    if y >= clip.minY && y < clip.maxY {
      let base = y &* w
      dots[base &+ lo] = ink
      dots[base &+ mid] = ink
      dots[base &+ hi] = ink
    }
    if limit == 1 {
      // A plus: the centre's column only, above and below.
      guard x >= clip.minX && x < clip.maxX else { return }
      if up >= clip.minY && up < clip.maxY { dots[up &* w &+ x] = ink }
      if down >= clip.minY && down < clip.maxY { dots[down &* w &+ x] = ink }
      return
    }
    if up >= clip.minY && up < clip.maxY {
      let base = up &* w
      dots[base &+ lo] = ink
      dots[base &+ mid] = ink
      dots[base &+ hi] = ink
    }
    if down >= clip.minY && down < clip.maxY {
      let base = down &* w
      dots[base &+ lo] = ink
      dots[base &+ mid] = ink
      dots[base &+ hi] = ink
    }
  }

  /// `stamp`, out of line (for loops over thin strokes that must also stamp wide ones: the
  /// call, not the stamp, is inlined there).
  @inline(never) func stampApart(
    _ x: Int, _ y: Int, clip: DotRect, width w: Int, ink: Ink,
    _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    stamp(x, y, clip: clip, width: w, ink: ink, dots)
  }

  /// `stamp` for a brush wholly in the clip (`x` and `y` at least `rows` inside it): no
  /// clipping, each row's span written at once.
  @inline(__always) func stampInside(
    _ x: Int, _ y: Int, width w: Int, ink: Ink, _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    stampInside(at: y &* w &+ x, width: w, ink: ink, dots)
  }

  /// `stampInside` around the dot at `index` (row-major, rows `w` dots wide).
  @inline(__always) func stampInside(
    at index: Int, width w: Int, ink: Ink, _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    if rows == 1 {
      // (Most wide strokes: a plus or a 3 × 3 square, written straight.)
      if limit == 1 {
        Brush.plus(dots, index, w, ink)
      } else {
        Brush.square(dots, index, w, ink)
      }
      return
    }
    var dy = 0 &- rows
    var centre = index &- rows &* w
    if rows <= 7 {
      while dy <= rows {
        Brush.span(dots, centre, packedHalfWidth(dy), ink)
        centre &+= w
        dy &+= 1
      }
    } else {
      while dy <= rows {
        Brush.span(dots, centre, Brush.squareRootFloor(limit &- dy &* dy), ink)
        centre &+= w
        dy &+= 1
      }
    }
  }
}

/// Rasterises segments in dot space into a canvas's dots (lent to it by the context while it
/// strokes), clipped, with an optional dash pattern. A plain value but for its dashes (an
/// empty array for solid strokes): making one, copying it into a sink and letting it go cost
/// no reference counting for the canvas or the brush.
struct Stroker {
  /// (Set again between outlines by a `FillOutlineBatch`.)
  var ink: Ink
  let clip: DotRect
  let brush: Brush
  let dashes: [Double]
  let dashTotal: Double
  let dashPhase: Double
  /// Distance drawn so far along the current subpath, in dots.
  var dashDistance: Double = 0
  /// Thin and solid: one dot per step and no dash test (most strokes).
  let plain: Bool
  /// One dot per step (solid or dashed).
  let thin: Bool
  /// The canvas's width in dots (the canvas itself is lent out while segments are drawn).
  let width: Int
  /// The clip as doubles: a segment whose ends lie in it (and are finite) is stepped without
  /// clipping or a test per dot.
  let innerMinX: Double
  let innerMinY: Double
  let innerMaxX: Double
  let innerMaxY: Double

  /// A canvas with no dots, stored while a stroker lends its canvas out.
  static let lentOut = DotCanvas(width: 0, height: 0)

  /// A stroker drawing on `canvas` (the context's, moved out of it while the stroker draws:
  /// only its size is read here) with the context's width, dashes and clip.
  init(context: DrawingContext, canvas: borrowing DotCanvas, ink: Ink) {
    self.init(context: context, width: canvas.width, height: canvas.height, ink: ink)
  }

  /// A stroker drawing on a canvas of `width` × `height` dots (the context's, lent out).
  @inline(__always)
  init(context: DrawingContext, width: Int, height: Int, ink: Ink) {
    self.ink = ink
    // (Cut to the canvas: one lent out meanwhile is empty, and nothing is drawn.)
    let clip = context.clipBounds.intersection(
      DotRect(minX: 0, minY: 0, maxX: width, maxY: height))
    self.clip = clip
    brush = Brush.of(widthInDots: context.lineWidthInDots)
    let scale = abs(context.transform.scaleX)
    let pattern = context.lineDashPattern
    // (No new array for a solid stroke.)
    dashes = pattern.isEmpty ? [] : pattern.map { $0 * scale }
    dashTotal = dashes.reduce(0, +)
    dashPhase = context.state.dashPhase * scale
    plain = brush.reach == 0 && dashTotal <= 0
    thin = brush.reach == 0
    self.width = width
    innerMinX = Double(clip.minX)
    innerMinY = Double(clip.minY)
    innerMaxX = Double(clip.maxX)
    innerMaxY = Double(clip.maxY)
  }

  /// Whether the dash pattern is on `distance` dots along the subpath.
  @inline(__always) func dashOn(_ distance: Double) -> Bool {
    Stroker.dashIsOn(at: distance, dashes: dashes, dashTotal: dashTotal, dashPhase: dashPhase)
  }

  static func dashIsOn(at distance: Double, dashes: [Double], dashTotal: Double, dashPhase: Double)
    -> Bool
  {
    if dashTotal <= 0 { return true }
    // (x − ⌊x / total⌋ · total: the remainder without a call to fmod, which is slow.)
    let x = distance + dashPhase
    // (⌊q⌋ by truncation where that is the same, q ≥ 0: no call into libm per dot.)
    let q = x / dashTotal
    var d = x - (q >= 0 && q < 0x1p52 ? Double(Int(q)) : q.rounded(.down)) * dashTotal
    if d < 0 { d += dashTotal }
    if d >= dashTotal { d -= dashTotal }
    for (i, length) in dashes.enumerated() {
      if d < length { return i % 2 == 0 }
      d -= length
    }
    return true
  }

  /// Strokes one segment into `dots` (the canvas's, lent out by `withDots`).
  @inline(__always)
  mutating func segment(
    _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
    _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    // The common case first: a thin segment (most are, and most lie in the clip). The dots
    // are the general path's (the same expressions), without its clipping: in the clip,
    // without a test per dot; else stepped in integers with a test per step, not one
    // conversion per step.
    if thin && abs(x0) < 0x1p20 && abs(y0) < 0x1p20 && abs(x1) < 0x1p20 && abs(y1) < 0x1p20 {
      thinSegment(x0, y0, x1, y1, dots)
      return
    }
    // A solid wide one with such ends: `clippedSegment`'s first case, without its set-up.
    if !thin && dashTotal <= 0 && abs(x0) < 0x1p20 && abs(y0) < 0x1p20 && abs(x1) < 0x1p20
      && abs(y1) < 0x1p20
    {
      solidWideSegment(x0, y0, x1, y1, dots)
      return
    }
    // A thin segment wholly beyond one edge of the clip (grown by the one dot the clipper
    // allows) has no dot to draw: many of a path's segments run outside a tile.
    if thin
      && ((x0 < innerMinX - 1 && x1 < innerMinX - 1) || (x0 > innerMaxX + 1 && x1 > innerMaxX + 1)
        || (y0 < innerMinY - 1 && y1 < innerMinY - 1) || (y0 > innerMaxY + 1 && y1 > innerMaxY + 1))
    {
      if !plain { dashDistance += ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot() }
      return
    }
    clippedSegment(x0, y0, x1, y1, dots)
  }

  /// A thin segment whose ends are below 2²⁰ in size (and finite): the dots of
  /// `clippedSegment` for it (its ends are stepped from, t0 and t1 only narrow the steps
  /// looked at, and a segment that misses the clip grown by a dot has no dot in the clip).
  @inline(__always)
  mutating func thinSegment(
    _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
    _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    let dx = x1 - x0
    let dy = y1 - y0
    let ix0 = floorToIntNear(x0)
    let iy0 = floorToIntNear(y0)
    let ix1 = floorToIntNear(x0 + dx)
    let iy1 = floorToIntNear(y0 + dy)
    // (Below 2²⁰: no overflow.)
    let steps = max(magnitude(ix1 &- ix0), magnitude(iy1 &- iy0))
    if ix0 >= clip.minX && ix0 < clip.maxX && iy0 >= clip.minY && iy0 < clip.maxY
      && ix1 >= clip.minX && ix1 < clip.maxX && iy1 >= clip.minY && iy1 < clip.maxY
    {
      if plain {
        Self.plainSteps(ix0, iy0, ix1, iy1, steps: steps, width: width, ink: ink, dots)
      } else {
        dashedInside(x0, y0, x1, y1, ix0, iy0, ix1, iy1, steps, dots)
      }
      return
    }
    // Wholly beyond one edge of the clip (grown by the one dot the clipper allows): no dot
    // to draw (many of a path's segments run outside a tile).
    if (x0 < innerMinX - 1 && x1 < innerMinX - 1) || (x0 > innerMaxX + 1 && x1 > innerMaxX + 1)
      || (y0 < innerMinY - 1 && y1 < innerMinY - 1) || (y0 > innerMaxY + 1 && y1 > innerMaxY + 1)
    {
      if !plain { dashDistance += ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot() }
      return
    }
    let distance = dashDistance
    var stepLength = 0.0
    if !plain {
      let length = ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot()
      dashDistance += length
      stepLength = steps == 0 ? 0 : length / Double(steps)
    }
    if steps == 0 {
      if ix0 >= clip.minX && ix0 < clip.maxX && iy0 >= clip.minY && iy0 < clip.maxY
        && (plain || dashOn(distance + Double(0) * stepLength))
      {
        dots[iy0 &* width &+ ix0] = ink
      }
      return
    }
    clippedSteps(
      ix0, iy0, ix1, iy1, steps: steps, 0, steps, start: distance, stepLength: stepLength, dots)
  }

  /// The dots of a thin solid segment from dot (`ix0`, `iy0`) to (`ix1`, `iy1`), both in the
  /// clip, `steps` apart (the larger of the two distances): the general path's dots, without
  /// its clipping, dash bookkeeping or tests per dot.
  ///
  /// The general path puts step k's dot, across the major axis, at ⌊p0 + f·k⌋ in doubles
  /// (p0 = i0 + ½, f = Δ / steps). Exactly, that is i0 + ⌊(steps + 2Δk) / 2·steps⌋, which
  /// is stepped here in integers (Bresenham's error term): where the exact value is not a
  /// whole number it is at least 1 / 2·steps from one, far more than the doubles' rounding
  /// (a few units in the last place of numbers below the canvas's size), so both give the same
  /// dot; where it is a whole number (the error term is 0) the doubles may round either way,
  /// and that dot is worked out as the general path does.
  ///
  /// Stepped here with Δ taken as |Δ| and its sign put into the step across, the remainder
  /// growing from steps by 2|Δ| a step: that is the same dot wherever the exact value is not
  /// whole (⌊−v⌋ = −⌊v⌋ − 1 there, and the remainders mirror each other), and the remainder
  /// can only land on 0 (the whole values) as it wraps, so the test for them is made there,
  /// not at every dot.
  @inline(__always)
  static func plainSteps(
    _ ix0: Int, _ iy0: Int, _ ix1: Int, _ iy1: Int, steps: Int, width w: Int, ink: Ink,
    _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    var i = iy0 &* w &+ ix0
    dots[i] = ink
    if steps == 0 { return }
    let ddx = ix1 &- ix0
    let ddy = iy1 &- iy0
    let xMajor = magnitude(ddx) >= magnitude(ddy)
    let major = xMajor ? (ddx >= 0 ? 1 : -1) : (ddy >= 0 ? w : 0 &- w)
    let minor = xMajor ? (ddy >= 0 ? w : 0 &- w) : (ddx >= 0 ? 1 : -1)
    let twice = steps &* 2
    let step = (xMajor ? magnitude(ddy) : magnitude(ddx)) &* 2
    // (steps + 2|Δ|k) = q · 2steps + r, 0 ≤ r < 2steps; k = 0: q = 0, r = steps. The last
    // step's dot is the far end's, and no other step's is (the major axis moves by one a
    // step), so that ends the loop; the last step's value, steps·(1 + 2|Δ|) / 2·steps, is
    // not whole.
    let last = iy1 &* w &+ ix1
    var r = steps
    var q = 0
    repeat {
      i &+= major
      r &+= step
      if r >= twice {
        r &-= twice
        i &+= minor
        q &+= 1
        if r == 0 {
          // (The rest out of line: nothing of this loop is kept across a call.)
          plainStepsOn(ix0, iy0, ix1, iy1, steps: steps, at: i, q, width: w, ink: ink, dots)
          return
        }
      }
      dots[i] = ink
    } while i != last
  }

  /// `plainSteps` from the step whose exact place across is whole (`q` wraps so far, the
  /// integer steps at dot `i`) to the end: that dot the doubles give, the rest as there.
  @inline(never)
  static func plainStepsOn(
    _ ix0: Int, _ iy0: Int, _ ix1: Int, _ iy1: Int, steps: Int, at index: Int, _ wraps: Int,
    width w: Int, ink: Ink, _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    let ddx = ix1 &- ix0
    let ddy = iy1 &- iy0
    let xMajor = magnitude(ddx) >= magnitude(ddy)
    let major = xMajor ? (ddx >= 0 ? 1 : -1) : (ddy >= 0 ? w : 0 &- w)
    let minor = xMajor ? (ddy >= 0 ? w : 0 &- w) : (ddx >= 0 ? 1 : -1)
    let twice = steps &* 2
    let step = (xMajor ? magnitude(ddy) : magnitude(ddx)) &* 2
    let last = iy1 &* w &+ ix1
    var i = index
    var r = 0
    var q = wraps
    while true {
      if r == 0 {
        // Step k where steps + 2|Δ|k = q · 2steps: the dot the doubles give.
        let k = (q &* twice &- steps) / step
        let kd = Double(k)
        if xMajor {
          let y = Int(Double(iy0) + 0.5 + Double(iy1 &- iy0) / Double(steps) * kd)
          dots[y &* w &+ ix0 &+ (ix1 >= ix0 ? k : 0 &- k)] = ink
        } else {
          let x = Int(Double(ix0) + 0.5 + Double(ix1 &- ix0) / Double(steps) * kd)
          dots[(iy0 &+ (iy1 >= iy0 ? k : 0 &- k)) &* w &+ x] = ink
        }
      } else {
        dots[i] = ink
      }
      if i == last { return }
      i &+= major
      r &+= step
      if r >= twice {
        r &-= twice
        i &+= minor
        q &+= 1
      }
    }
  }

  /// Stepping from dot (`ix0`, `iy0`) to (`ix1`, `iy1`) as an index into a canvas `w` dots
  /// wide: whether x is the major axis, the index's move along it (`major`) and across it when
  /// the error term wraps (`minor`), and the distance across (`delta`, signed).
  @inline(__always)
  static func indexAxes(_ ix0: Int, _ iy0: Int, _ ix1: Int, _ iy1: Int, width w: Int)
    -> (xMajor: Bool, major: Int, minor: Int, delta: Int)
  {
    if magnitude(ix1 &- ix0) >= magnitude(iy1 &- iy0) {
      return (true, ix1 >= ix0 ? 1 : -1, w, iy1 &- iy0)
    }
    return (false, iy1 >= iy0 ? w : -w, 1, ix1 &- ix0)
  }

  /// `plainSteps` inking only the steps k for which `on(k)` is true (`on` is asked in order,
  /// once per step).
  @inline(__always)
  static func stepDots(
    _ ix0: Int, _ iy0: Int, _ ix1: Int, _ iy1: Int, steps: Int, width w: Int, ink: Ink,
    _ dots: UnsafeMutableBufferPointer<Ink>, on: (Int) -> Bool
  ) {
    var i = iy0 &* w &+ ix0
    if steps == 0 {
      if on(0) { dots[i] = ink }
      return
    }
    let twice = steps &* 2
    let (xMajor, major, minor, delta) = indexAxes(ix0, iy0, ix1, iy1, width: w)
    let step = delta &* 2
    // (steps + 2Δk) = q · 2steps + r, 0 ≤ r < 2steps; k = 0: q = 0, r = steps.
    var r = steps
    var k = 0
    while true {
      if !on(k) {
        // Not inked.
      } else if r != 0 {
        dots[i] = ink
      } else {
        // A whole number: the dot the doubles give.
        let kd = Double(k)
        if xMajor {
          let y = Int(Double(iy0) + 0.5 + Double(delta) / Double(steps) * kd)
          dots[y &* w &+ ix0 &+ (ix1 >= ix0 ? k : 0 &- k)] = ink
        } else {
          let x = Int(Double(ix0) + 0.5 + Double(delta) / Double(steps) * kd)
          dots[(iy0 &+ (iy1 >= iy0 ? k : 0 &- k)) &* w &+ x] = ink
        }
      }
      if k == steps { return }
      k &+= 1
      i &+= major
      r &+= step
      if r >= twice {
        r &-= twice
        i &+= minor
      } else if r < 0 {
        r &+= twice
        i &-= minor
      }
    }
  }

  /// A thin dashed segment whose dots all lie in the clip: the general path's dots and dash
  /// test (the same expressions, with the segment whole), without clipping or a bounds test
  /// per dot.
  @inline(__always)
  mutating func dashedInside(
    _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ ix0: Int, _ iy0: Int, _ ix1: Int,
    _ iy1: Int, _ steps: Int, _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    let length = ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot()
    let start = dashDistance
    dashDistance += length
    // (The dots are `plainSteps`' (the general path's), those the dash test passes.)
    let stepLength = steps == 0 ? 0 : length / Double(steps)
    let dashes = self.dashes
    var walk = DashWalk(self)
    Self.stepDots(ix0, iy0, ix1, iy1, steps: steps, width: width, ink: ink, dots) { k in
      walk.isOn(start + Double(k) * stepLength, dashes)
    }
  }

  /// The dots of a segment's ends below 2²⁰ in size (and finite), the far end's worked out as
  /// x0 + (x1 − x0) as the general path steps it, and the steps between them (the larger of
  /// the two distances).
  @inline(__always)
  static func endDots(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double)
    -> (ix0: Int, iy0: Int, ix1: Int, iy1: Int, steps: Int)
  {
    let ix0 = floorToIntNear(x0)
    let iy0 = floorToIntNear(y0)
    let ix1 = floorToIntNear(x0 + (x1 - x0))
    let iy1 = floorToIntNear(y0 + (y1 - y0))
    // (Below 2²⁰: no overflow.)
    return (ix0, iy0, ix1, iy1, max(magnitude(ix1 &- ix0), magnitude(iy1 &- iy0)))
  }

  /// Whether the brush stamped at every step of a segment from dot (`ix0`, `iy0`) to
  /// (`ix1`, `iy1`) lies wholly in the clip (the steps lie in the ends' box).
  @inline(__always)
  func brushesInClip(_ ix0: Int, _ iy0: Int, _ ix1: Int, _ iy1: Int) -> Bool {
    let rows = brush.rows
    return min(ix0, ix1) &- rows >= clip.minX && max(ix0, ix1) &+ rows < clip.maxX
      && min(iy0, iy1) &- rows >= clip.minY && max(iy0, iy1) &+ rows < clip.maxY
  }

  /// A solid segment of a brush wider than a dot whose ends are below 2²⁰ in size (and
  /// finite): `clippedSegment`'s dots for it (its first case, with no length: a solid stroke
  /// reads no distance), out of line with a small frame.
  @inline(never)
  mutating func solidWideSegment(
    _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
    _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    let (ix0, iy0, ix1, iy1, steps) = Self.endDots(x0, y0, x1, y1)
    if steps == 0 {
      brush.stamp(ix0, iy0, clip: clip, width: width, ink: ink, dots)
      return
    }
    if brushesInClip(ix0, iy0, ix1, iy1) {
      wideInside(ix0, iy0, ix1, iy1, steps: steps, dots)
    } else {
      solidWideSteps(ix0, iy0, ix1, iy1, steps: steps, dots)
    }
  }

  /// Any segment: clipped, dashed, wide.
  mutating func clippedSegment(
    _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
    _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    // (Only dashes read the distance: none for a solid stroke.)
    let length =
      dashTotal > 0 ? ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot() : 0
    let distance = dashDistance
    dashDistance += length
    // Ends below 2²⁰ in size (every segment of a map tile; wide strokes come here for all
    // their segments): stepped from their dots at once, without Liang–Barsky. The dots are
    // those below: for such ends the steps are taken from the ends themselves (`whole`),
    // t0 and t1 only narrow the steps visited, and a step they leave out has its point on
    // the centre line beyond the clip grown by the brush's reach and a dot, so no dot of its
    // brush in the clip (a step's dot centre lies within a dot of that point, each way);
    // `clippedSteps` visits only steps whose brush meets the clip. A segment that misses
    // the grown clip has every step so, and inks nothing either way.
    if abs(x0) < 0x1p20 && abs(y0) < 0x1p20 && abs(x1) < 0x1p20 && abs(y1) < 0x1p20 {
      let (ix0, iy0, ix1, iy1, steps) = Self.endDots(x0, y0, x1, y1)
      // (As below with s0 = 0, s1 = 1: `length * 1` is `length`, `distance + 0 * length` is
      // `distance` but for a −0, which the dash test takes as 0.)
      if steps == 0 {
        if dashTotal <= 0 || dashOn(distance) {
          brush.stamp(ix0, iy0, clip: clip, width: width, ink: ink, dots)
        }
        return
      }
      if thin {
        clippedSteps(
          ix0, iy0, ix1, iy1, steps: steps, 0, steps, start: distance,
          stepLength: length / Double(steps), dots)
      } else if dashTotal <= 0 && brushesInClip(ix0, iy0, ix1, iy1) {
        wideInside(ix0, iy0, ix1, iy1, steps: steps, dots)
      } else {
        wideSteps(
          ix0, iy0, ix1, iy1, steps: steps, start: distance, stepLength: length / Double(steps),
          dots)
      }
      return
    }
    guard x0.isFinite && y0.isFinite && x1.isFinite && y1.isFinite else { return }
    // Liang–Barsky against the clip grown by the brush's reach.
    let margin = Double(brush.reach + 1)
    let minX = Double(clip.minX) - margin
    let minY = Double(clip.minY) - margin
    let maxX = Double(clip.maxX) + margin
    let maxY = Double(clip.maxY) + margin
    let dx = x1 - x0
    let dy = y1 - y0
    var t0 = 0.0
    var t1 = 1.0
    // The four edges, unrolled (no array per segment).
    @inline(__always) func edge(_ p: Double, _ q: Double) -> Bool {
      if p == 0 { return q >= 0 }
      let r = q / p
      if p < 0 {
        if r > t1 { return false }
        if r > t0 { t0 = r }
      } else {
        if r < t0 { return false }
        if r < t1 { t1 = r }
      }
      return true
    }
    // Both ends inside: nothing to clip (most segments of a tile).
    let inside =
      x0 >= minX && x0 <= maxX && x1 >= minX && x1 <= maxX && y0 >= minY && y0 <= maxY
      && y1 >= minY && y1 <= maxY
    guard
      inside
        || (edge(-dx, x0 - minX) && edge(dx, maxX - x0) && edge(-dy, y0 - minY)
          && edge(dy, maxY - y0))
    else { return }
    // The dots are those of the whole segment, stepped from its own ends, and only the steps
    // inside the clip are visited: a segment cut by different clip rects (as by tiles) gives
    // the same dots, so lines join without a jog at tile edges. Ends too far out to step from
    // are replaced by the clipped ones.
    let far = 1e12
    let whole = abs(x0) < far && abs(y0) < far && abs(x1) < far && abs(y1) < far
    let (s0, s1) = whole ? (0.0, 1.0) : (t0, t1)
    let ix0 = floorToInt(x0 + s0 * dx)
    let iy0 = floorToInt(y0 + s0 * dy)
    let ix1 = floorToInt(x0 + s1 * dx)
    let iy1 = floorToInt(y0 + s1 * dy)
    let steps = max(abs(ix1 - ix0), abs(iy1 - iy0))
    let stepLength = steps == 0 ? 0 : length * (s1 - s0) / Double(steps)
    let startDistance = distance + s0 * length
    // The steps that can reach the clip (one more each side for the rounding of the ends;
    // t0 and t1 lie in 0...1, so ⌊⌋ is truncation and ⌈⌉ is at most one more).
    let kFirst = whole && t0 > 0 ? max(0, Int(t0 * Double(steps)) - 1) : 0
    var kLast = steps
    if whole && t1 < 1 {
      let v = t1 * Double(steps)
      let c = Int(v)
      kLast = min(steps, (Double(c) < v ? c + 1 : c) + 1)
    }
    let dashed = dashTotal > 0
    let cminX = clip.minX
    let cminY = clip.minY
    let cmaxX = clip.maxX
    let cmaxY = clip.maxY
    let w = width
    let inkValue = ink
    // (A function, not a closure value: a closure kept in a constant would be allocated for
    // every segment.)
    @inline(__always) func on(_ k: Int) -> Bool {
      !dashed || dashOn(startDistance + Double(k) * stepLength)
    }
    if steps == 0 {
      if on(0) { brush.stamp(ix0, iy0, clip: clip, width: w, ink: inkValue, dots) }
      return
    }
    let fx = Double(ix1 - ix0) / Double(steps)
    let fy = Double(iy1 - iy0) / Double(steps)
    let px0 = Double(ix0) + 0.5
    let py0 = Double(iy0) + 0.5
    // The dot of step k: along the major axis the step is exactly ±1 (⌊i0 + ½ ± k⌋ = i0 ± k,
    // no conversion), across it ⌊p0 + f·k⌋; computed from k, not accumulated, so every clip
    // gives the same position.
    let xMajor = abs(ix1 - ix0) >= abs(iy1 - iy0)
    let (sx, sy) = (ix1 >= ix0 ? 1 : -1, iy1 >= iy0 ? 1 : -1)
    @inline(__always) func dot(_ k: Int) -> (x: Int, y: Int) {
      xMajor
        ? (ix0 + sx * k, floorToInt(py0 + fy * Double(k)))
        : (floorToInt(px0 + fx * Double(k)), iy0 + sy * k)
    }
    // Ends small enough for `plainSteps`' argument (the doubles' rounding far below
    // 1 / 2·steps): stepped in integers.
    let small = 1 << 20
    if abs(ix0) < small && abs(iy0) < small && abs(ix1) < small && abs(iy1) < small {
      clippedSteps(
        ix0, iy0, ix1, iy1, steps: steps, kFirst, kLast, start: startDistance,
        stepLength: stepLength, dots)
      return
    }
    // A thin, solid segment whose dots all lie in the clip: no test per dot.
    let r = brush.reach
    if thin && !dashed && min(ix0, ix1) - r >= cminX && max(ix0, ix1) + r < cmaxX
      && min(iy0, iy1) - r >= cminY && max(iy0, iy1) + r < cmaxY
    {
      for k in kFirst...kLast {
        let (x, y) = dot(k)
        dots[y * w + x] = inkValue
      }
      return
    }
    for k in kFirst...kLast {
      if !dashed || on(k) {
        let (x, y) = dot(k)
        if thin {
          if x >= cminX && x < cmaxX && y >= cminY && y < cmaxY { dots[y * w + x] = inkValue }
        } else {
          brush.stamp(x, y, clip: clip, width: w, ink: inkValue, dots)
        }
      }
    }
  }
}

extension Stroker {
  /// The steps `kFirst`...`kLast` of the segment from dot (`ix0`, `iy0`) to (`ix1`, `iy1`),
  /// `steps` > 0 apart, each coordinate below 2²⁰ in size, inked where they (grown by the
  /// brush) meet the clip and the dash test (step k `start + k · stepLength` dots along)
  /// passes: the dots of `clippedSegment`'s `dot(k)`, stepped in integers as `plainSteps`
  /// steps them (with coordinates below 2²⁰ and steps below 2²¹ the doubles' rounding is
  /// below 2⁻³⁰, far under 1 / 2·steps). Only the steps whose dot can meet the clip along
  /// the major axis are visited, and the clip is tested before the dash test (which gives
  /// the same for any order).
  @inline(__always)
  func clippedSteps(
    _ ix0: Int, _ iy0: Int, _ ix1: Int, _ iy1: Int, steps: Int, _ kFirst: Int, _ kLast: Int,
    start: Double, stepLength: Double, _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    // (Coordinates below 2²⁰: no overflow anywhere below.)
    guard
      case (
        let xMajor, var a, var b, let da, let bMin, let bMax, let b0, let kLo, let kHi, let delta,
        let twice, let step, var r
      )? = clippedRange(
        ix0, iy0, ix1, iy1, steps: steps, kFirst, kLast)
    else { return }
    let dashed = dashTotal > 0
    let w = width
    let inkValue = ink
    let fb = Double(delta) / Double(steps)
    let pb0 = Double(b0) + 0.5
    var walk = DashWalk(self)
    let dashes = self.dashes
    var k = kLo
    while true {
      // (r = 0: the exact value is whole, and the dot is the one the doubles give.)
      let bk = r != 0 ? b : floorToIntNear(pb0 + fb * Double(k))
      if bk >= bMin && bk < bMax && (!dashed || walk.isOn(start + Double(k) * stepLength, dashes)) {
        let (x, y) = xMajor ? (a, bk) : (bk, a)
        if thin {
          dots[y &* w &+ x] = inkValue
        } else {
          // (Out of line: the thin strokes' loops, where this is inlined, stay small.
          // Wide segments with small ends go through `wideSteps`.)
          brush.stampApart(x, y, clip: clip, width: w, ink: inkValue, dots)
        }
      }
      if k == kHi { return }
      k &+= 1
      a &+= da
      r &+= step
      if r >= twice {
        r &-= twice
        b &+= 1
      } else if r < 0 {
        r &+= twice
        b &-= 1
      }
    }
  }
}

extension Stroker {
  /// The steps of a segment from dot (`ix0`, `iy0`) to (`ix1`, `iy1`), `steps` apart, among
  /// `kFirst`...`kLast` whose place along the major axis lies in the clip grown by the brush's
  /// reach (nil for none): whether x is the major axis, the first such step's place along it
  /// (`a`) and across it (`b`), the step along it (`da`), the span across (`bMin`..<`bMax`),
  /// the place across at step 0 (`b0`), the steps (`kLo`...`kHi`), the distance across
  /// (`delta`), and the error term's modulus, step and value at `kLo` (b(k) = b0 +
  /// ⌊(steps + 2Δk) / 2·steps⌋, `r` the remainder: see `plainSteps`). Coordinates below 2²⁰:
  /// no overflow.
  @inline(__always)
  func clippedRange(
    _ ix0: Int, _ iy0: Int, _ ix1: Int, _ iy1: Int, steps: Int, _ kFirst: Int, _ kLast: Int
  ) -> (
    xMajor: Bool, a: Int, b: Int, da: Int, bMin: Int, bMax: Int, b0: Int, kLo: Int, kHi: Int,
    delta: Int, twice: Int, step: Int, r: Int
  )? {
    let xMajor = magnitude(ix1 &- ix0) >= magnitude(iy1 &- iy0)
    let reach = brush.reach
    // The major axis a, the minor axis b, and the clip's span on each (grown by the brush).
    let (a0, a1, b0, b1) = xMajor ? (ix0, ix1, iy0, iy1) : (iy0, iy1, ix0, ix1)
    let (aMin, aMax, bMin, bMax) =
      xMajor
      ? (clip.minX &- reach, clip.maxX &+ reach, clip.minY &- reach, clip.maxY &+ reach)
      : (clip.minY &- reach, clip.maxY &+ reach, clip.minX &- reach, clip.maxX &+ reach)
    let forward = a1 >= a0
    let kLo = max(kFirst, forward ? aMin &- a0 : a0 &- (aMax &- 1))
    let kHi = min(kLast, forward ? aMax &- 1 &- a0 : a0 &- aMin)
    guard kLo <= kHi else { return nil }
    let delta = b1 &- b0
    let twice = steps &* 2
    let step = delta &* 2
    let num = steps &+ step &* kLo
    var q = num / twice
    var r = num &- q &* twice
    if r < 0 {
      r &+= twice
      q &-= 1
    }
    return (
      xMajor, forward ? a0 &+ kLo : a0 &- kLo, b0 &+ q, forward ? 1 : -1, bMin, bMax, b0, kLo,
      kHi, delta, twice, step, r
    )
  }

  /// `clippedSteps` for a brush wider than a dot (the same steps, tests and dots), each
  /// step's brush stamped row by row: `Brush.stampInside` where it lies wholly in the clip,
  /// else cut to it. (Its callers send a solid segment whose every brush lies in the clip to
  /// `wideInside`.)
  @inline(never)
  mutating func wideSteps(
    _ ix0: Int, _ iy0: Int, _ ix1: Int, _ iy1: Int, steps: Int, start: Double,
    stepLength: Double, _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    if dashTotal <= 0 {
      solidWideSteps(ix0, iy0, ix1, iy1, steps: steps, dots)
      return
    }
    var walk = DashWalk(self)
    let dashes = self.dashes
    wideClippedSteps(ix0, iy0, ix1, iy1, steps: steps, dots) { k in
      walk.isOn(start + Double(k) * stepLength, dashes)
    }
  }

  /// `wideSteps` for a solid stroke: no dash test, nor the walk's values kept across the loop.
  @inline(never)
  mutating func solidWideSteps(
    _ ix0: Int, _ iy0: Int, _ ix1: Int, _ iy1: Int, steps: Int,
    _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    wideClippedSteps(ix0, iy0, ix1, iy1, steps: steps, dots) { _ in true }
  }

  /// `wideSteps`' loop: the steps that `clippedRange` leaves whose dot lies in the clip grown
  /// by the brush and for which `on` (asked in order of the steps) is true have their brush
  /// stamped.
  @inline(__always)
  func wideClippedSteps(
    _ ix0: Int, _ iy0: Int, _ ix1: Int, _ iy1: Int, steps: Int,
    _ dots: UnsafeMutableBufferPointer<Ink>, on: (Int) -> Bool
  ) {
    // (Coordinates below 2²⁰: no overflow anywhere below.)
    guard
      case (
        let xMajor, var a, var b, let da, let bMin, let bMax, let b0, let kLo, let kHi, let delta,
        let twice, let step, var r
      )? = clippedRange(
        ix0, iy0, ix1, iy1, steps: steps, 0, steps)
    else { return }
    let rows = brush.rows
    let (w, inkValue, brush, clip) = (width, ink, brush, clip)
    // (A centre this far inside the clip has its whole brush in it.)
    let (xLo, xHi, yLo, yHi) =
      (clip.minX &+ rows, clip.maxX &- rows, clip.minY &+ rows, clip.maxY &- rows)
    let fb = Double(delta) / Double(steps)
    let pb0 = Double(b0) + 0.5
    var k = kLo
    while true {
      // (r = 0: the exact value is whole, and the dot is the one the doubles give.)
      let bk = r != 0 ? b : floorToIntNear(pb0 + fb * Double(k))
      if bk >= bMin && bk < bMax && on(k) {
        let (x, y) = xMajor ? (a, bk) : (bk, a)
        if x >= xLo && x < xHi && y >= yLo && y < yHi {
          brush.stampInside(x, y, width: w, ink: inkValue, dots)
        } else if rows == 1 {
          brush.stampOneRow(x, y, clip: clip, width: w, ink: inkValue, dots)
        } else {
          brush.stamp(x, y, clip: clip, width: w, ink: inkValue, dots)
        }
      }
      if k == kHi { return }
      k &+= 1
      a &+= da
      r &+= step
      if r >= twice {
        r &-= twice
        b &+= 1
      } else if r < 0 {
        r &+= twice
        b &-= 1
      }
    }
  }

  /// The solid wide segment from dot (`ix0`, `iy0`) to (`ix1`, `iy1`), `steps` > 0 apart,
  /// every step's brush in the clip: `wideSteps`' dots (its steps stepped as `plainSteps`
  /// steps them, as an index into the canvas), with no test per step but the error term's.
  /// The brushes of one row each way (a plus or a 3 × 3 square: most wide strokes) have a
  /// loop each, with their dots written straight.
  @inline(__always)
  mutating func wideInside(
    _ ix0: Int, _ iy0: Int, _ ix1: Int, _ iy1: Int, steps: Int,
    _ dots: UnsafeMutableBufferPointer<Ink>
  ) {
    let w = width
    let (brush, inkValue) = (brush, ink)
    if brush.rows == 1 {
      if brush.limit == 1 {
        Self.wideInsideSteps(ix0, iy0, ix1, iy1, steps: steps, width: w) {
          Brush.plus(dots, $0, w, inkValue)
        }
      } else {
        Self.wideInsideSteps(ix0, iy0, ix1, iy1, steps: steps, width: w) {
          Brush.square(dots, $0, w, inkValue)
        }
      }
      return
    }
    Self.wideInsideSteps(ix0, iy0, ix1, iy1, steps: steps, width: w) {
      brush.stampInside(at: $0, width: w, ink: inkValue, dots)
    }
  }

  /// `wideInside`'s steps: `stamp` is given the index of each step's centre dot.
  @inline(__always)
  static func wideInsideSteps(
    _ ix0: Int, _ iy0: Int, _ ix1: Int, _ iy1: Int, steps: Int, width w: Int,
    _ stamp: (Int) -> Void
  ) {
    var i = iy0 &* w &+ ix0
    let twice = steps &* 2
    let (xMajor, major, minor, delta) = indexAxes(ix0, iy0, ix1, iy1, width: w)
    let step = delta &* 2
    let fb = Double(delta) / Double(steps)
    var r = steps
    var k = 0
    while true {
      if r != 0 {
        stamp(i)
      } else {
        // A whole number: the dot the doubles give (as `plainSteps`).
        let kd = Double(k)
        if xMajor {
          let y = Int(Double(iy0) + 0.5 + fb * kd)
          stamp(y &* w &+ ix0 &+ (ix1 >= ix0 ? k : 0 &- k))
        } else {
          let x = Int(Double(ix0) + 0.5 + fb * kd)
          stamp((iy0 &+ (iy1 >= iy0 ? k : 0 &- k)) &* w &+ x)
        }
      }
      if k == steps { return }
      k &+= 1
      i &+= major
      r &+= step
      if r >= twice {
        r &-= twice
        i &+= minor
      } else if r < 0 {
        r &+= twice
        i &-= minor
      }
    }
  }
}

/// `Stroker.dashIsOn` for distances asked in increasing order (the steps of a segment), the
/// same answers with no division for most of them: for a pattern of two lengths, the
/// distance's place in its period is `x − n·total` with n, the whole periods before it,
/// carried from the last distance (one more when it has passed the period's end). That is the
/// very expression `dashIsOn` evaluates once its ⌊x / total⌋ is n, and it is n wherever the
/// place lies more than 10⁻⁷ dots inside a dash or a gap (with x below 2²⁰ the roundings are
/// below 2⁻³⁰): there the answer is read from the place; elsewhere (near an edge of a dash,
/// far distances, other patterns) `dashIsOn` answers, and n is found again by division.
struct DashWalk {
  let total: Double
  let phase: Double
  /// Whether the pattern is two lengths (each longer than the margins below).
  let two: Bool
  /// The first dash's end less and more the margin, and the period's end less it.
  let onBelow: Double
  let offAbove: Double
  let offBelow: Double
  /// Whole periods before the last distance asked (−1 before the first).
  var periods = -1.0

  @inline(__always) init(_ s: Stroker) {
    total = s.dashTotal
    phase = s.dashPhase
    let margin = 1e-7
    two = s.dashes.count == 2 && s.dashes[0] > 2 * margin && s.dashes[1] > 2 * margin
    let first = two ? s.dashes[0] : 0
    onBelow = first - margin
    offAbove = first + margin
    offBelow = total - margin
  }

  /// Whether the pattern `dashes` (the stroker's) is on `distance` dots along the subpath
  /// (`Stroker.dashIsOn`).
  @inline(__always) mutating func isOn(_ distance: Double, _ dashes: [Double]) -> Bool {
    let x = distance + phase
    if two && x < 0x1p20 {
      var d = x - periods * total
      if d >= total {
        periods += 1
        d = x - periods * total
      }
      if d > 1e-7 {
        if d < onBelow { return true }
        if d > offAbove && d < offBelow { return false }
      }
      let q = x / total
      if q >= 0 && q < 0x1p52 { periods = Double(Int(q)) }
    }
    return Stroker.dashIsOn(at: distance, dashes: dashes, dashTotal: total, dashPhase: phase)
  }
}

/// |v| for a v far from `Int.min` (no overflow test, as `abs` makes).
@inline(__always) func magnitude(_ v: Int) -> Int { v < 0 ? 0 &- v : v }

/// ⌊v⌋ for |v| < 2⁵¹ (v + 1.5·2⁵² is then v rounded to a whole number, held in the low bits
/// of its pattern; one less where that rounded up): no range test, as `Int(v)` makes.
@inline(__always) func floorToIntNear(_ v: Double) -> Int {
  let t = v + 0x1.8p52
  let n = Int(Int64(bitPattern: t.bitPattern)) &- 0x4338_0000_0000_0000
  return t - 0x1.8p52 > v ? n &- 1 : n
}

/// ⌊v⌋ for a finite v well inside Int's range: truncation where that is the same (v ≥ 0,
/// nearly every dot), so the step loop makes no call into libm.
@inline(__always) func floorToInt(_ v: Double) -> Int {
  v >= 0 ? Int(v) : Int(v.rounded(.down))
}

extension DotCanvas {
  /// Direct access to the dots, row-major, for rasterisers.
  public mutating func withDots<R>(_ body: (UnsafeMutableBufferPointer<Ink>) throws -> R)
    rethrows -> R
  {
    try withUnsafeMutableDots(body)
  }
}
