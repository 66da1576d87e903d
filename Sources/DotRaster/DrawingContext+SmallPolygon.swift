extension DrawingContext {
  /// Draws many small shapes without building a path for each: `body` gets a
  /// ``SmallShapeBatch`` holding the canvas (the context lets go of it until `body` returns)
  /// and the context's current fill and stroke state (colours, fill pattern, stroke width,
  /// clip). What the batch draws is dot for dot what the same rings drawn through the path
  /// give (`fillPath` of closed rings, `strokePath`, `strokeSegment`, `plot`), but without a
  /// path, a fill's edge list sorted per shape, or a stroker made per ring: a map tile of a
  /// MultiPolygon draws hundreds of polygons a few dots across. Dashes start afresh at every
  /// segment; draw dashed strokes through the path.
  public func withSmallShapes<R>(_ body: (inout SmallShapeBatch) throws -> R) rethrows -> R {
    settlePending()
    mayHoldSettledInk = true
    var batch = SmallShapeBatch(context: self)
    // The batch holds the canvas; the context has an empty one until the batch ends.
    defer {
      canvas = batch.canvas
      if batch.keepsColors { batch.settle() }
    }
    return try body(&batch)
  }
}

/// Small shapes drawn straight onto a context's canvas (``DrawingContext/withSmallShapes(_:)``):
/// a polygon's rings are added with ``addRing(_:transform:stroked:closingSegment:)`` and drawn,
/// filled and stroked, by ``drawPolygon()``; or rings of dot-space points are collected with
/// ``addPoint(x:y:)`` and ``closeRing()``, then filled with ``fillRings()``, and strokes go
/// segment by segment with ``strokeSegment(_:_:_:_:)``.
public struct SmallShapeBatch {
  /// The context's canvas, moved out of it while the batch lasts.
  var canvas: DotCanvas
  var stroker: Stroker
  /// The context drawn on, for drawing through the path in between (``withContext(_:)``).
  let context: DrawingContext
  let fillInk: Ink?
  let strokeInk: Ink?
  let pattern: DotPattern
  let patternOrigin: (x: Int, y: Int)
  let clip: DotRect
  /// Solid strokes one dot wide (drawn by `thinSegment`).
  let thin: Bool
  /// The current rings, in dot space, and the fill's buffers.
  let scratch = PolygonScratch()
  /// The canvas while `drawPolygon` draws (empty otherwise).
  var lent = DotCanvas(width: 0, height: 0)

  init(context: DrawingContext) {
    self.context = context
    let state = context.state
    fillColor = state.fillColor
    strokeColor = state.strokeColor
    // 24-bit colours (or any, on a canvas that has some) are drawn with inks of their own and
    // settled when the batch ends (`DrawingContext.drawKeepingColor`).
    keepsColors =
      state.fillColor.map(context.keepsColor) ?? false
      || state.strokeColor.map(context.keepsColor) ?? false
    let keeps = keepsColors
    fillInk = state.fillColor.map {
      keeps ? Self.pendingFill : Ink(layer: DrawingContext.fillLayer, color: $0)
    }
    strokeInk = state.strokeColor.map {
      keeps ? Self.pendingStroke : Ink(layer: DrawingContext.strokeLayer, color: $0)
    }
    pattern = state.fillPattern
    patternOrigin = context.patternOrigin
    // (Moved out of the context: a swap, no copy.)
    var taken = Stroker.lentOut
    swap(&taken, &context.canvas)
    stroker = Stroker(context: context, canvas: taken, ink: strokeInk ?? .none)
    canvas = taken
    // (The context's clip cut to the canvas, as the stroker's is.)
    clip = stroker.clip
    thin = stroker.brush.reach == 0 && stroker.dashTotal <= 0
  }

  /// The colours the batch draws in.
  let fillColor: TermColor?
  let strokeColor: TermColor?
  /// Whether the batch draws with `pendingFill` and `pendingStroke`, settled when it ends.
  let keepsColors: Bool
  /// Inks no other dot holds (layer 0xFFFFFF, as `DrawingContext.pendingInk`).
  static let pendingFill = Ink(raw: 0xFFFF_FFFE)
  static let pendingStroke = Ink(raw: 0xFFFF_FFFD)

  /// Gives the dots drawn with the pending inks their colours (the context holds the canvas
  /// again).
  func settle() {
    let area = clip
    context.withCanvas { canvas in
      if let c = fillColor {
        canvas.settle(
          Self.pendingFill, as: Ink(layer: DrawingContext.fillLayer, color: c), color: c, in: area)
      }
      if let c = strokeColor {
        canvas.settle(
          Self.pendingStroke, as: Ink(layer: DrawingContext.strokeLayer, color: c), color: c,
          in: area)
      }
    }
  }

  /// Whether fills draw (the context had a fill colour when the batch began).
  public var fills: Bool { fillInk != nil }
  /// Whether strokes draw (the context had a stroke colour when the batch began).
  public var strokes: Bool { strokeInk != nil }
  /// Whether strokes are dashed (the batch starts the dash pattern afresh at every segment, so
  /// dashed strokes whose dashes must run on along a ring go through the path).
  public var strokesAreDashed: Bool { stroker.dashTotal > 0 }

  /// Adds a dot-space point to the current ring.
  @inline(__always) public mutating func addPoint(x: Double, y: Double) {
    scratch.append(x, y)
  }

  /// Ends the current ring (rings are always closed for filling).
  public mutating func closeRing() {
    scratch.closeRing()
  }

  /// Forgets the rings without drawing them.
  public mutating func discardRings() {
    scratch.reset()
  }

  /// Says where the points of the next polygon lie, before `transform`: `bounds` are the
  /// least and greatest x and y of every point that ``addRing(_:transform:stroked:closingSegment:)``
  /// will add for it (exactly those values, all points finite; NaN bounds say nothing). The
  /// transform of increasing scale keeps their order, so the polygon's dot-space bounds are
  /// the bounds' transform, and the rings' points are only transformed and stored (no bounds
  /// or finiteness kept per point). Forgotten with the polygon.
  public mutating func setPolygonBounds(
    _ bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double), transform t: Transform2D
  ) {
    guard t.scaleX > 0 && t.scaleY > 0 && scratch.pointCount == 0 else { return }
    let b = FillScratch.Bounds(
      minX: bounds.minX * t.scaleX + t.translateX, maxX: bounds.maxX * t.scaleX + t.translateX,
      minY: bounds.minY * t.scaleY + t.translateY, maxY: bounds.maxY * t.scaleY + t.translateY)
    // Finite dot-space bounds: every point, lying between them, is finite too.
    guard b.minX.isFinite && b.maxX.isFinite && b.minY.isFinite && b.maxY.isFinite else { return }
    scratch.bounds = b
    scratch.boundsGiven = true
  }

  /// Adds a ring of a polygon for ``drawPolygon()``: its points are `coordinates` read as x, y
  /// pairs and put into dot space by `transform` (`x * scaleX + translateX`, as
  /// ``Transform2D/apply(_:)``). With `stroked`, each segment from one point to the next is
  /// stroked (a ring of one point strokes that point); `closingSegment`, in dot space, is
  /// stroked as well (the segment from the last point back to the first, computed by the
  /// caller: it may round differently from the points).
  public mutating func addRing(
    _ coordinates: UnsafeBufferPointer<Double>, transform t: Transform2D, stroked: Bool,
    closingSegment: (x0: Double, y0: Double, x1: Double, y1: Double)?
  ) {
    let n = coordinates.count / 2
    guard n > 0, let base = coordinates.baseAddress else { return }
    scratch.closeRing()
    scratch.reservePoints(scratch.pointCount + n)
    let (sx, sy, tx, ty) = (t.scaleX, t.scaleY, t.translateX, t.translateY)
    let start = scratch.pointCount
    let xs = scratch.xs + start
    let ys = scratch.ys + start
    if scratch.boundsGiven {
      // The bounds are known (`setPolygonBounds`): the points only.
      for i in 0..<n {
        xs[i] = base[2 * i] * sx + tx
        ys[i] = base[2 * i + 1] * sy + ty
      }
      scratch.pointCount = start + n
      scratch.addRing(stroked: stroked, closingSegment: closingSegment)
      return
    }
    var b = scratch.bounds
    var check = scratch.finiteCheck
    for i in 0..<n {
      let x = base[2 * i] * sx + tx
      let y = base[2 * i + 1] * sy + ty
      xs[i] = x
      ys[i] = y
      // (`min` as `FillScratch.addRing` has it; `max` as well but for the sign of an equal
      // zero, which no dot depends on: one instruction each.)
      b.minX = x < b.minX ? x : b.minX
      b.maxX = x > b.maxX ? x : b.maxX
      b.minY = y < b.minY ? y : b.minY
      b.maxY = y > b.maxY ? y : b.maxY
      check += (x - x) + (y - y)
    }
    scratch.bounds = b
    scratch.finiteCheck = check
    scratch.pointCount = start + n
    scratch.addRing(stroked: stroked, closingSegment: closingSegment)
  }

  /// Fills the rings added since the last polygon (even-odd, in the fill colour and pattern, as
  /// ``fillRings()``), then strokes the segments of those added by
  /// ``addRing(_:transform:stroked:closingSegment:)`` as it asks (as
  /// ``strokeSegment(_:_:_:_:)`` would), with one access to the canvas, and forgets them.
  public mutating func drawPolygon() {
    scratch.closeRing()
    defer { discardRings() }
    guard scratch.pointCount > 0 else { return }
    let fillInk = fillInk
    let strokes = strokeInk != nil
    let (clip, pattern, patternOrigin) = (clip, pattern, patternOrigin)
    // The batch holds the scratch throughout: used without a retain.
    let s = Unmanaged.passUnretained(scratch)
    // The canvas is moved out of the batch (a swap: no copy, no retain) while its dots are
    // written and the stroker is passed on.
    swap(&lent, &canvas)
    defer { swap(&lent, &canvas) }
    let width = stroker.width
    withUnsafeMutablePointer(to: &self) { batch in
      // Safe without exclusivity checks: `batch` is this batch, held exclusively by this
      // mutating method; `lent` (whose dots are written) and `stroker` (passed on) are
      // distinct stored properties, and nothing else reaches either.
      batch.pointee.lent.withDots { dots in
        s._withUnsafeGuaranteedRef { s in
          // Most small polygons: a stroke within a block of 2 × 2 dots, which covers the
          // fill (whose dots lie within the bounds) when it inks every dot they reach.
          let block = strokes ? s.blockStroke(batch.pointee.stroker) : nil
          if let ink = fillInk, block.map({ $0.mask != $0.full }) ?? true {
            s.fill(
              ink: ink, clip: clip, pattern: pattern, patternOrigin: patternOrigin, dots: dots,
              width: width)
          }
          if let block {
            block.write(into: dots, ink: batch.pointee.stroker.ink)
          } else if strokes {
            s.stroke(with: &batch.pointee.stroker, dots: dots)
          }
        }
      }
    }
  }

  /// Fills the rings (even-odd, in the fill colour and pattern) and forgets them: the dots
  /// `fillPath` gives for the same rings as closed subpaths.
  public mutating func fillRings() {
    scratch.closeRing()
    defer { discardRings() }
    guard let ink = fillInk, scratch.pointCount > 0 else { return }
    let s = scratch
    let (clip, pattern, patternOrigin) = (clip, pattern, patternOrigin)
    let w = canvas.width
    canvas.withDots { dots in
      s.fill(
        ink: ink, clip: clip, pattern: pattern, patternOrigin: patternOrigin, dots: dots, width: w)
    }
  }

  /// Strokes one dot-space segment (solid) in the stroke colour and width: the dots of
  /// `strokeSegment` for the same ends (or of one step of `strokePath`).
  @inline(__always) public mutating func strokeSegment(
    _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double
  ) {
    guard let ink = strokeInk else { return }
    if thin {
      thinSegment(x0, y0, x1, y1, ink: ink)
    } else {
      stroker.dashDistance = 0
      canvas.withDots { stroker.segment(x0, y0, x1, y1, $0) }
    }
  }

  /// `Stroker.segment` for a solid one-dot brush, step for step (the same clipping, the same
  /// steps from the same rounded ends, the same clip test per dot), without what only dashes
  /// and wider brushes need: most segments of a small polygon are a few dots long. (Lending
  /// the canvas to the stroker for each segment instead cost 14 % more instructions on the
  /// combined bench's redraw, 1,219M against 1,071M; `SmallPolygonTests` keeps the two equal.)
  @inline(__always) mutating func thinSegment(
    _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, ink: Ink
  ) {
    guard x0.isFinite && y0.isFinite && x1.isFinite && y1.isFinite else { return }
    let clip = clip
    // Liang–Barsky against the clip grown by a dot (the brush's reach, 0, and one).
    let minX = Double(clip.minX) - 1
    let minY = Double(clip.minY) - 1
    let maxX = Double(clip.maxX) + 1
    let maxY = Double(clip.maxY) + 1
    let dx = x1 - x0
    let dy = y1 - y0
    var t0 = 0.0
    var t1 = 1.0
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
    let inside =
      x0 >= minX && x0 <= maxX && x1 >= minX && x1 <= maxX && y0 >= minY && y0 <= maxY
      && y1 >= minY && y1 <= maxY
    guard
      inside
        || (edge(-dx, x0 - minX) && edge(dx, maxX - x0) && edge(-dy, y0 - minY)
          && edge(dy, maxY - y0))
    else { return }
    let far = 1e12
    let whole = abs(x0) < far && abs(y0) < far && abs(x1) < far && abs(y1) < far
    let (s0, s1) = whole ? (0.0, 1.0) : (t0, t1)
    let ix0 = floorToInt(x0 + s0 * dx)
    let iy0 = floorToInt(y0 + s0 * dy)
    let ix1 = floorToInt(x0 + s1 * dx)
    let iy1 = floorToInt(y0 + s1 * dy)
    let steps = max(abs(ix1 - ix0), abs(iy1 - iy0))
    let kFirst = whole && t0 > 0 ? max(0, Int((t0 * Double(steps)).rounded(.down)) - 1) : 0
    let kLast = whole && t1 < 1 ? min(steps, Int((t1 * Double(steps)).rounded(.up)) + 1) : steps
    let (cminX, cminY, cmaxX, cmaxY) = (clip.minX, clip.minY, clip.maxX, clip.maxY)
    let w = canvas.width
    canvas.withDots { dots in
      if steps == 0 {
        if ix0 >= cminX && ix0 < cmaxX && iy0 >= cminY && iy0 < cmaxY { dots[iy0 * w + ix0] = ink }
        return
      }
      let fx = Double(ix1 - ix0) / Double(steps)
      let fy = Double(iy1 - iy0) / Double(steps)
      let px0 = Double(ix0) + 0.5
      let py0 = Double(iy0) + 0.5
      if min(ix0, ix1) >= cminX && max(ix0, ix1) < cmaxX && min(iy0, iy1) >= cminY
        && max(iy0, iy1) < cmaxY
      {
        for k in kFirst...kLast {
          let x = floorToInt(px0 + fx * Double(k))
          let y = floorToInt(py0 + fy * Double(k))
          dots[y * w + x] = ink
        }
        return
      }
      for k in kFirst...kLast {
        let x = floorToInt(px0 + fx * Double(k))
        let y = floorToInt(py0 + fy * Double(k))
        if x >= cminX && x < cmaxX && y >= cminY && y < cmaxY { dots[y * w + x] = ink }
      }
    }
  }

  /// Inks the dot under a dot-space point with `color` on the mark layer, inside the clip (as
  /// `plot`).
  public mutating func plot(x dx: Double, y dy: Double, color: TermColor) {
    let x = Int(dx.rounded(.down))
    let y = Int(dy.rounded(.down))
    let clip = clip
    if x >= clip.minX && x < clip.maxX && y >= clip.minY && y < clip.maxY {
      if color.isTrueColor || canvas.hasTrueColor {
        canvas.plot(x: x, y: y, layer: DrawingContext.markLayer, color: color)
        return
      }
      let w = canvas.width
      let ink = Ink(layer: DrawingContext.markLayer, color: color)
      canvas.withDots { $0[y * w + x] = ink }
    }
  }

  /// Gives the canvas back to the context while `body` draws through it (a shape too large or
  /// dashed for the batch), then takes it again. The context's state is as `body` leaves it;
  /// the batch keeps the colours, width and clip it began with.
  public mutating func withContext<R>(_ body: (DrawingContext) throws -> R) rethrows -> R {
    context.canvas = canvas
    canvas = DotCanvas(width: 0, height: 0)
    defer {
      canvas = context.canvas
      context.canvas = DotCanvas(width: 0, height: 0)
    }
    return try body(context)
  }
}

/// The rings of the polygon a ``SmallShapeBatch`` is drawing, in dot space, and the buffers its
/// fill works in: raw storage, grown when a polygon needs more and kept from one polygon to the
/// next, so that a point costs a store (no array's uniqueness check or growth test) and a
/// polygon no allocation. Used by one batch, on one thread.
final class PolygonScratch {
  /// A ring: where its points end, and how it is stroked by `SmallShapeBatch.drawPolygon`.
  struct Ring {
    var end: Int
    var stroked: Bool
    var closes: Bool
    var closing: (x0: Double, y0: Double, x1: Double, y1: Double)
  }

  private(set) var xs: UnsafeMutablePointer<Double>
  private(set) var ys: UnsafeMutablePointer<Double>
  /// One edge per point at most; one crossing per edge.
  private(set) var edges: UnsafeMutablePointer<FillScratch.Edge>
  private(set) var crossings: UnsafeMutablePointer<Double>
  private(set) var pointCapacity: Int
  var pointCount = 0
  private(set) var rings: UnsafeMutablePointer<Ring>
  private(set) var ringCapacity: Int
  var ringCount = 0

  init() {
    pointCapacity = 64
    ringCapacity = 8
    xs = .allocate(capacity: pointCapacity)
    ys = .allocate(capacity: pointCapacity)
    edges = .allocate(capacity: pointCapacity)
    crossings = .allocate(capacity: pointCapacity)
    rings = .allocate(capacity: ringCapacity)
  }

  deinit {
    xs.deallocate()
    ys.deallocate()
    edges.deallocate()
    crossings.deallocate()
    rings.deallocate()
  }

  /// Room for `count` points (those held are kept).
  @inline(__always) func reservePoints(_ count: Int) {
    if count > pointCapacity { growPoints(to: count) }
  }

  @inline(never) private func growPoints(to count: Int) {
    let capacity = max(count, pointCapacity * 2)
    let (newXs, newYs) = (
      UnsafeMutablePointer<Double>.allocate(capacity: capacity),
      UnsafeMutablePointer<Double>.allocate(capacity: capacity)
    )
    newXs.update(from: xs, count: pointCount)
    newYs.update(from: ys, count: pointCount)
    xs.deallocate()
    ys.deallocate()
    edges.deallocate()
    crossings.deallocate()
    (xs, ys) = (newXs, newYs)
    edges = .allocate(capacity: capacity)
    crossings = .allocate(capacity: capacity)
    pointCapacity = capacity
  }

  @inline(never) private func growRings() {
    let capacity = ringCapacity * 2
    let newRings = UnsafeMutablePointer<Ring>.allocate(capacity: capacity)
    newRings.moveInitialize(from: rings, count: ringCount)
    rings.deallocate()
    rings = newRings
    ringCapacity = capacity
  }

  /// The bounds of the points (as `FillScratch.addRing` widens them: points that are not
  /// numbers are left out).
  var bounds = FillScratch.Bounds()
  /// The bounds of the closing segments' ends.
  var closingBounds = FillScratch.Bounds()
  /// Zero while every point and closing segment's end is finite (the sum of each `v - v`).
  var finiteCheck = 0.0
  /// Whether `bounds` were given for the polygon (`SmallShapeBatch.setPolygonBounds`), so
  /// points are added without widening them.
  var boundsGiven = false

  /// Forgets the rings.
  @inline(__always) func reset() {
    pointCount = 0
    ringCount = 0
    bounds = FillScratch.Bounds()
    closingBounds = FillScratch.Bounds()
    finiteCheck = 0
    boundsGiven = false
  }

  /// Adds a point to the current ring.
  @inline(__always) func append(_ x: Double, _ y: Double) {
    if pointCount == pointCapacity { growPoints(to: pointCount + 1) }
    xs[pointCount] = x
    ys[pointCount] = y
    pointCount += 1
    bounds.minX = min(bounds.minX, x)
    bounds.maxX = max(bounds.maxX, x)
    bounds.minY = min(bounds.minY, y)
    bounds.maxY = max(bounds.maxY, y)
    finiteCheck += (x - x) + (y - y)
  }

  /// Ends the ring of the points added since the last ring, unstroked (none when there are
  /// none).
  @inline(__always) func closeRing() {
    if ringCount == 0 ? pointCount > 0 : rings[ringCount - 1].end != pointCount {
      addRing(stroked: false, closingSegment: nil)
    }
  }

  /// Ends the ring of the points added since the last ring.
  @inline(__always) func addRing(
    stroked: Bool, closingSegment: (x0: Double, y0: Double, x1: Double, y1: Double)?
  ) {
    if ringCount == ringCapacity { growRings() }
    if let c = closingSegment {
      closingBounds.minX = min(min(closingBounds.minX, c.x0), c.x1)
      closingBounds.maxX = max(max(closingBounds.maxX, c.x0), c.x1)
      closingBounds.minY = min(min(closingBounds.minY, c.y0), c.y1)
      closingBounds.maxY = max(max(closingBounds.maxY, c.y0), c.y1)
      finiteCheck += (c.x0 - c.x0) + (c.y0 - c.y0) + (c.x1 - c.x1) + (c.y1 - c.y1)
    }
    (rings + ringCount).initialize(
      to: Ring(
        end: pointCount, stroked: stroked, closes: closingSegment != nil,
        closing: closingSegment ?? (0, 0, 0, 0)))
    ringCount += 1
  }

  /// Fills the rings (even-odd) into `dots`: the dots of `fillPath` for the same rings as
  /// closed subpaths. Each row's crossings with the edges its centre line meets (an edge
  /// counts from its top, inclusive, to its bottom, exclusive, as the active edges of `fill`
  /// do), sorted, inked between pairs: the same crossings, so the same dots, without sorting
  /// the edges.
  func fill(
    ink: Ink, clip: DotRect, pattern: DotPattern, patternOrigin: (x: Int, y: Int),
    dots: UnsafeMutableBufferPointer<Ink>, width w: Int
  ) {
    // The bounds first (those of `FillScratch.addRing`, kept as the points came): most small
    // polygons are specks, which need no edges.
    let bounds = self.bounds
    guard bounds.meets(clip) else { return }
    if bounds.inkSpeck(clip: clip, width: w, ink: ink, dots) { return }
    let (firstRow, lastRow) = FillScratch.rows(bounds, clip)
    guard firstRow <= lastRow else { return }
    if lastRow - firstRow < 2 {
      // One or two rows (most small polygons): each row's crossings straight from the segments
      // that `FillScratch.addRing` would make edges of, in the same order, with the same
      // formulas (so the same crossings), without making the edges.
      fillFewRows(
        firstRow...lastRow, ink: ink, clip: clip, pattern: pattern, patternOrigin: patternOrigin,
        dots: dots, width: w)
      return
    }
    // The edges of `FillScratch.addRing`, ring by ring.
    var count = 0
    let (xs, ys, edges) = (self.xs, self.ys, self.edges)
    var start = 0
    for r in 0..<ringCount {
      let end = rings[r].end
      var i = start
      while i < end {
        let j = i + 1 < end ? i + 1 : start
        let (ax, ay, bx, by) = (xs[i], ys[i], xs[j], ys[j])
        i += 1
        if ay == by || !ay.isFinite || !by.isFinite { continue }
        edges[count] = FillScratch.Edge(ax, ay, bx, by)
        count += 1
      }
      start = end
    }
    let solid = pattern == .solid
    let (ox, oy) = patternOrigin
    let crossings = self.crossings
    for row in firstRow...lastRow {
      let yc = Double(row) + 0.5
      var n = 0
      for e in 0..<count where edges[e].yTop <= yc && edges[e].yBottom > yc {
        // Insertion sort: a row of a small shape crosses a few edges.
        let c = edges[e].xAtTop + (yc - edges[e].yTop) * edges[e].slope
        var k = n
        while k > 0 && crossings[k - 1] > c {
          crossings[k] = crossings[k - 1]
          k -= 1
        }
        crossings[k] = c
        n += 1
      }
      guard n >= 2 else { continue }
      var k = 0
      let base = row * w
      while k + 1 < n {
        let (a, b) = FillScratch.span(crossings[k], crossings[k + 1], clip)
        if a <= b {
          if solid {
            for x in a...b { dots[base + x] = ink }
          } else {
            for x in a...b where pattern.covers(x: x + ox, y: row + oy) {
              dots[base + x] = ink
            }
          }
        }
        k += 2
      }
    }
  }

  /// `fill` for a few rows: for each row, the segments (point to next point, ring by ring, the
  /// last back to the first) whose ends lie on either side of its centre line, as the edges
  /// `fill` makes would (top inclusive, bottom exclusive; horizontal segments and those with an
  /// end that is not finite left out), crossed there by the same formula.
  private func fillFewRows(
    _ rows: ClosedRange<Int>, ink: Ink, clip: DotRect, pattern: DotPattern,
    patternOrigin: (x: Int, y: Int), dots: UnsafeMutableBufferPointer<Ink>, width w: Int
  ) {
    let (xs, ys, crossings) = (self.xs, self.ys, self.crossings)
    let solid = pattern == .solid
    let (ox, oy) = patternOrigin
    for row in rows {
      let yc = Double(row) + 0.5
      var n = 0
      var start = 0
      for r in 0..<ringCount {
        let end = rings[r].end
        var i = start
        while i < end {
          let j = i + 1 < end ? i + 1 : start
          let (ay, by) = (ys[i], ys[j])
          let k0 = i
          i += 1
          let c: Double
          if ay < by {
            guard ay <= yc && by > yc && ay.isFinite && by.isFinite else { continue }
            let (ax, bx) = (xs[k0], xs[j])
            c = ax + (yc - ay) * ((bx - ax) / (by - ay))
          } else if by < ay {
            guard by <= yc && ay > yc && ay.isFinite && by.isFinite else { continue }
            let (ax, bx) = (xs[k0], xs[j])
            c = bx + (yc - by) * ((ax - bx) / (ay - by))
          } else {
            continue
          }
          var k = n
          while k > 0 && crossings[k - 1] > c {
            crossings[k] = crossings[k - 1]
            k -= 1
          }
          crossings[k] = c
          n += 1
        }
        start = end
      }
      guard n >= 2 else { continue }
      var k = 0
      let base = row * w
      while k + 1 < n {
        let (a, b) = FillScratch.span(crossings[k], crossings[k + 1], clip)
        if a <= b {
          if solid {
            for x in a...b { dots[base + x] = ink }
          } else {
            for x in a...b where pattern.covers(x: x + ox, y: row + oy) {
              dots[base + x] = ink
            }
          }
        }
        k += 2
      }
    }
  }

  /// Strokes the rings as they ask (`Ring.stroked`, `Ring.closes`) into `dots`: the dots of
  /// `Stroker.segment` for each segment (dashed strokes start the dash pattern afresh at each).
  ///
  /// A solid one-dot stroke steps a segment whose ends lie in the clip grown by a dot as
  /// `Stroker.segment` does (its inside path, or `clippedSegment` with nothing to clip): from
  /// the ends' dots ⌊x0⌋ and ⌊x0 + (x1 − x0)⌋ — x1's own dot whenever x0 + (x1 − x0) is x1, so
  /// each point's dot is found once —, each step's dot kept if it lies in the clip (not
  /// tested when every point of the polygon lies in the clip). Other segments go through
  /// `Stroker.segment`. A polygon whose points all lie in one dot is that dot. (`drawPolygon`
  /// first tries `blockStroke`, for polygons within a block of 2 × 2 dots.)
  func stroke(with stroker: inout Stroker, dots: UnsafeMutableBufferPointer<Ink>) {
    guard stroker.plain && finiteCheck == 0 && stroker.clip.minX >= 0 && stroker.clip.minY >= 0
    else {
      strokeSegments(with: &stroker, dots: dots)
      return
    }
    var b = bounds
    b.minX = min(b.minX, closingBounds.minX)
    b.maxX = max(b.maxX, closingBounds.maxX)
    b.minY = min(b.minY, closingBounds.minY)
    b.maxY = max(b.maxY, closingBounds.maxY)
    let inside =
      b.minX >= stroker.innerMinX && b.maxX < stroker.innerMaxX && b.minY >= stroker.innerMinY
      && b.maxY < stroker.innerMaxY
    if inside {
      // Every end of every segment in one dot (with room for x0 + (x1 − x0) to round off x1
      // by a few units in the last place): the stroke is that dot.
      let margin = 1e-7
      let x = Int(b.minX - margin)
      let y = Int(b.minY - margin)
      if b.minX - margin >= 0 && b.minY - margin >= 0 && x == Int(b.maxX + margin)
        && y == Int(b.maxY + margin)
      {
        var start = 0
        for r in 0..<ringCount {
          let ring = rings[r]
          if ring.closes || (ring.stroked && ring.end > start) {
            dots[y * stroker.width + x] = stroker.ink
            return
          }
          start = ring.end
        }
        return
      }
    }
    // The clip grown by a dot, as `Stroker.clippedSegment` grows it for a one-dot brush.
    let (gMinX, gMinY) = (stroker.innerMinX - 1, stroker.innerMinY - 1)
    let (gMaxX, gMaxY) = (stroker.innerMaxX + 1, stroker.innerMaxY + 1)
    let grown = b.minX >= gMinX && b.maxX <= gMaxX && b.minY >= gMinY && b.maxY <= gMaxY
    let stepper = Stepper(stroker: stroker, dots: dots, tested: !inside)
    let (xs, ys) = (self.xs, self.ys)
    var start = 0
    for r in 0..<ringCount {
      let ring = rings[r]
      let end = ring.end
      if ring.stroked && end > start {
        if inside {
          stepper.insideRing(xs + start, ys + start, count: end - start)
        } else if grown {
          stepper.ring(xs + start, ys + start, count: end - start)
        } else {
          // Ends outside the grown clip: segment by segment.
          var (x0, y0) = (xs[start], ys[start])
          if end - start == 1 { stroker.segment(x0, y0, x0, y0, dots) }
          var i = start + 1
          while i < end {
            let (x1, y1) = (xs[i], ys[i])
            if x0 >= gMinX && x0 <= gMaxX && y0 >= gMinY && y0 <= gMaxY && x1 >= gMinX
              && x1 <= gMaxX && y1 >= gMinY && y1 <= gMaxY
            {
              stepper.segment(x0, y0, x1, y1)
            } else {
              stroker.segment(x0, y0, x1, y1, dots)
            }
            (x0, y0) = (x1, y1)
            i += 1
          }
        }
      }
      if ring.closes {
        let c = ring.closing
        if inside {
          stepper.insideSegment(c.x0, c.y0, c.x1, c.y1)
        } else if c.x0 >= gMinX && c.x0 <= gMaxX && c.y0 >= gMinY && c.y0 <= gMaxY
          && c.x1 >= gMinX && c.x1 <= gMaxX && c.y1 >= gMinY && c.y1 <= gMaxY
        {
          stepper.segment(c.x0, c.y0, c.x1, c.y1)
        } else {
          stroker.segment(c.x0, c.y0, c.x1, c.y1, dots)
        }
      }
      start = end
    }
  }

  /// The stroke of `stroke` (solid, one dot) when every point and closing segment's end lies
  /// in the clip and in one block of 2 × 2 dots, more than `margin` from the block's edges and
  /// from the lines between its dots: every segment is then at most one step, and its far end
  /// x0 + (x1 − x0), within a few units in the last place of x1, lies in x1's own dot, so the
  /// stroke (`insideRing`, `insideSegment`) is the dots of the stroked rings' points and of
  /// the closing segments' ends, collected as four bits. Nil when the points are not so
  /// placed (points near a line between dots are allowed once the others ink every dot the
  /// bounds reach: theirs are among them).
  func blockStroke(_ stroker: Stroker) -> BlockStroke? {
    guard stroker.plain && finiteCheck == 0 && stroker.clip.minX >= 0 && stroker.clip.minY >= 0
    else { return nil }
    var b = bounds
    b.minX = min(b.minX, closingBounds.minX)
    b.maxX = max(b.maxX, closingBounds.maxX)
    b.minY = min(b.minY, closingBounds.minY)
    b.maxY = max(b.maxY, closingBounds.maxY)
    guard
      b.minX >= stroker.innerMinX && b.maxX < stroker.innerMaxX && b.minY >= stroker.innerMinY
        && b.maxY < stroker.innerMaxY
    else { return nil }
    // x0 + (x1 − x0) is within 2⁻²⁷ of x1 below 2²⁴ (each of the two roundings at most half a
    // unit in the last place of a value below 2²⁵).
    let margin = 1e-7
    let limit = 16_777_216.0
    guard b.maxX < limit && b.maxY < limit else { return nil }
    let bx = floorSmall(b.minX)
    let by = floorSmall(b.minY)
    let (x0, y0) = (Double(bx), Double(by))
    guard
      b.minX - x0 > margin && b.minY - y0 > margin && b.maxX < x0 + (2 - margin)
        && b.maxY < y0 + (2 - margin)
    else { return nil }
    // A point's dot in the block is bit (x ≥ x0 + 1) + 2 (y ≥ y0 + 1); it is near the line
    // between dots when the same test with the line moved by the margin either way differs.
    let (loX, hiX) = (x0 + (1 - margin), x0 + (1 + margin))
    let (loY, hiY) = (y0 + (1 - margin), y0 + (1 + margin))
    let w = stroker.width
    let base = by &* w &+ bx
    let (xs, ys) = (self.xs, self.ys)
    let (left, right) = (b.maxX < loX, b.minX >= hiX)
    let (top, bottom) = (b.maxY < loY, b.minY >= hiY)
    if (left || right) && (top || bottom) {
      // Every point in one dot, none near its edges: the stroke is that dot, if any segment.
      let bit = 1 &<< ((right ? 1 : 0) | (bottom ? 2 : 0))
      var start = 0
      for r in 0..<ringCount {
        let ring = rings[r]
        if ring.closes || (ring.stroked && ring.end > start) {
          return BlockStroke(base: base, width: w, mask: bit, full: bit)
        }
        start = ring.end
      }
      return BlockStroke(base: base, width: w, mask: 0, full: bit)
    }
    // The dots of the points not near a line between dots; once they are all the dots the
    // bounds reach (`full`), the points near a line (whose segments' ends are dots of the
    // block within the bounds) add none.
    let columns = left ? 0b01 : right ? 0b10 : 0b11
    let full = (top || !bottom ? columns : 0) | (bottom || !top ? columns &<< 2 : 0)
    var mask = 0
    var near = 0
    @inline(__always) func add(_ x: Double, _ y: Double) {
      let (lx, hx) = (x >= loX ? 1 : 0, x >= hiX ? 1 : 0)
      let (ly, hy) = (y >= loY ? 2 : 0, y >= hiY ? 2 : 0)
      let n = (lx ^ hx) | (ly ^ hy)
      mask |= (n == 0 ? 1 : 0) &<< (hx | hy)
      near |= n
    }
    var start = 0
    var r = 0
    scan: while r < ringCount {
      let ring = rings[r]
      let end = ring.end
      if ring.stroked {
        var i = start
        while i < end {
          add(xs[i], ys[i])
          if mask == full { break scan }
          i &+= 1
        }
      }
      if ring.closes {
        // The closing segment's ends, unless each lies within half the margin of the ring's
        // last and first point (as they mostly do, computed apart): those points are counted,
        // and an end so close to a point more than the margin from the lines between dots
        // (or the block's edges) lies in its dot, as does x0 + (x1 − x0) for it; a point
        // nearer sets `near` itself.
        let c = ring.closing
        let half = margin / 2
        if !(ring.stroked && end > start && abs(c.x0 - xs[end &- 1]) < half
          && abs(c.y0 - ys[end &- 1]) < half && abs(c.x1 - xs[start]) < half
          && abs(c.y1 - ys[start]) < half)
        {
          add(c.x0, c.y0)
          add(c.x1, c.y1)
          if mask == full { break scan }
        }
      }
      start = end
      r &+= 1
    }
    guard mask == full || near == 0 else { return nil }
    return BlockStroke(base: base, width: w, mask: mask, full: full)
  }

  /// The stroke of a polygon within a block of 2 × 2 dots (`blockStroke`).
  struct BlockStroke {
    /// The index of the block's top left dot.
    let base: Int
    let width: Int
    /// The dots inked: bit x + 2 y for the block's dot (x, y).
    let mask: Int
    /// The dots of the block that the polygon's bounds reach (every dot its fill can ink).
    let full: Int

    /// Inks the dots of `mask`.
    @inline(__always) func write(into dots: UnsafeMutableBufferPointer<Ink>, ink: Ink) {
      if mask & 1 != 0 { dots[base] = ink }
      if mask & 2 != 0 { dots[base &+ 1] = ink }
      if mask & 4 != 0 { dots[base &+ width] = ink }
      if mask & 8 != 0 { dots[base &+ width &+ 1] = ink }
    }
  }

  /// `stroke` for any stroker: every segment through `Stroker.segment`.
  private func strokeSegments(with stroker: inout Stroker, dots: UnsafeMutableBufferPointer<Ink>) {
    let (xs, ys) = (self.xs, self.ys)
    let restartingDashes = stroker.dashTotal > 0
    var start = 0
    for r in 0..<ringCount {
      let ring = rings[r]
      let end = ring.end
      if ring.stroked && end > start {
        var (px, py) = (xs[start], ys[start])
        if end - start == 1 {
          if restartingDashes { stroker.dashDistance = 0 }
          stroker.segment(px, py, px, py, dots)
        }
        var i = start + 1
        while i < end {
          let (qx, qy) = (xs[i], ys[i])
          if restartingDashes { stroker.dashDistance = 0 }
          stroker.segment(px, py, qx, qy, dots)
          (px, py) = (qx, qy)
          i += 1
        }
      }
      if ring.closes {
        let c = ring.closing
        if restartingDashes { stroker.dashDistance = 0 }
        stroker.segment(c.x0, c.y0, c.x1, c.y1, dots)
      }
      start = end
    }
  }

  /// Steps solid one-dot segments whose ends lie in the clip grown by a dot (`stroke`).
  struct Stepper {
    let dots: UnsafeMutableBufferPointer<Ink>
    let ink: Ink
    let width: Int
    let clip: DotRect
    /// Whether each dot is tested against the clip (false: every dot lies in it).
    let testsDots: Bool

    init(stroker: Stroker, dots: UnsafeMutableBufferPointer<Ink>, tested: Bool) {
      self.init(
        dots: dots, ink: stroker.ink, width: stroker.width, clip: stroker.clip, tested: tested)
    }

    init(dots: UnsafeMutableBufferPointer<Ink>, ink: Ink, width: Int, clip: DotRect, tested: Bool) {
      self.dots = dots
      self.ink = ink
      self.width = width
      self.clip = clip
      testsDots = tested
    }

    /// This stepper testing each dot against the clip.
    var testing: Stepper {
      Stepper(dots: dots, ink: ink, width: width, clip: clip, tested: true)
    }

    /// The segments from each of `count` points to the next (a ring of one point: that
    /// point's dot).
    @inline(__always)
    func ring(_ xs: UnsafeMutablePointer<Double>, _ ys: UnsafeMutablePointer<Double>, count: Int) {
      var (x0, y0) = (xs[0], ys[0])
      var (ix0, iy0) = (floorToInt(x0), floorToInt(y0))
      if count == 1 { steps(ix0, iy0, ix0, iy0) }
      var i = 1
      while i < count {
        let (x1, y1) = (xs[i], ys[i])
        let (ix1, iy1) = (floorToInt(x1), floorToInt(y1))
        segment(x0, y0, ix0, iy0, x1, y1, ix1, iy1)
        (x0, y0, ix0, iy0) = (x1, y1, ix1, iy1)
        i += 1
      }
    }

    /// `ring` when every point lies in the clip (not negative, so truncation is the floor):
    /// no test per dot, and segments of one or two steps written without a conversion.
    @inline(__always)
    func insideRing(
      _ xs: UnsafeMutablePointer<Double>, _ ys: UnsafeMutablePointer<Double>, count: Int
    ) {
      let base = dots.baseAddress!
      let (w, ink) = (width, ink)
      var (x0, y0) = (xs[0], ys[0])
      var (ix0, iy0) = (floorSmall(x0), floorSmall(y0))
      base[iy0 &* w &+ ix0] = ink
      // Whether the start's dot is inked (not after a segment stepped from elsewhere).
      var startInked = true
      var i = 1
      while i < count {
        let (x1, y1) = (xs[i], ys[i])
        let (ix1, iy1) = (floorSmall(x1), floorSmall(y1))
        if x0 + (x1 - x0) == x1 && y0 + (y1 - y0) == y1 {
          // The start's dot is inked (the previous step ended on it); one step: the end's dot.
          let dx = ix1 &- ix0
          let dy = iy1 &- iy0
          if !startInked { base[iy0 &* w &+ ix0] = ink }
          startInked = true
          base[iy1 &* w &+ ix1] = ink
          if UInt(bitPattern: dx &+ 1) > 2 || UInt(bitPattern: dy &+ 1) > 2 {
            let (adx, ady) = (dx < 0 ? 0 &- dx : dx, dy < 0 ? 0 &- dy : dy)
            if adx == 2 && ady <= 2 {
              base[(iy0 &+ ((dy &+ 1) >> 1)) &* w &+ ix0 &+ dx / 2] = ink
            } else if ady == 2 && adx < 2 {
              base[(iy0 &+ dy / 2) &* w &+ ix0 &+ ((dx &+ 1) >> 1)] = ink
            } else {
              steps(ix0, iy0, ix1, iy1)
            }
          }
        } else {
          segment(x0, y0, ix0, iy0, x1, y1, ix1, iy1)
          startInked = false
        }
        (x0, y0, ix0, iy0) = (x1, y1, ix1, iy1)
        i += 1
      }
    }

    /// One segment.
    @inline(__always)
    func segment(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
      segment(x0, y0, floorToInt(x0), floorToInt(y0), x1, y1, floorToInt(x1), floorToInt(y1))
    }

    /// `segment` when both ends lie in the clip (so in 0 ..< 2³⁰, where `floorSmall` is the
    /// floor).
    @inline(__always)
    func insideSegment(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
      segment(x0, y0, floorSmall(x0), floorSmall(y0), x1, y1, floorSmall(x1), floorSmall(y1))
    }

    /// One segment, its ends' own dots given.
    @inline(__always)
    func segment(
      _ x0: Double, _ y0: Double, _ ix0: Int, _ iy0: Int, _ x1: Double, _ y1: Double,
      _ fx1: Int, _ fy1: Int
    ) {
      // The far end's dot as the stroker finds it: ⌊x0 + (x1 − x0)⌋.
      let sx = x0 + (x1 - x0)
      let sy = y0 + (y1 - y0)
      if sx == x1 && sy == y1 {
        steps(ix0, iy0, fx1, fy1)
      } else {
        // It may round onto the clip's edge: dots tested.
        testing.steps(ix0, iy0, floorToInt(sx), floorToInt(sy))
      }
    }

    /// Inks a dot (if it lies in the clip, when dots are tested).
    @inline(__always) func put(_ x: Int, _ y: Int) {
      if !testsDots || (x >= clip.minX && x < clip.maxX && y >= clip.minY && y < clip.maxY) {
        dots[y * width + x] = ink
      }
    }

    /// The dots from (`ix0`, `iy0`) to (`ix1`, `iy1`), as `Stroker.clippedSegment` steps them:
    /// step k is ix0 ± k along the major axis (x when the distances tie) and ⌊p0 + f·k⌋
    /// across it, with p0 = i0 + ½ and f = d / steps. For one step that is the two ends; for
    /// two, the middle dot across the major axis is ⌊i0 + ½ + d/2⌋ = i0 + ⌊(d + 1) / 2⌋ (d in
    /// −1...1, halves exact in binary); longer segments are stepped as the stroker does.
    @inline(__always)
    func steps(_ ix0: Int, _ iy0: Int, _ ix1: Int, _ iy1: Int) {
      let dx = ix1 &- ix0
      let dy = iy1 &- iy0
      put(ix0, iy0)
      // At most one step: the two ends.
      if UInt(bitPattern: dx &+ 1) <= 2 && UInt(bitPattern: dy &+ 1) <= 2 {
        put(ix1, iy1)
        return
      }
      longSteps(ix0, iy0, ix1, iy1)
    }

    /// `steps` for two steps or more (the start's dot is inked).
    @inline(never)
    func longSteps(_ ix0: Int, _ iy0: Int, _ ix1: Int, _ iy1: Int) {
      let dx = ix1 - ix0
      let dy = iy1 - iy0
      let (adx, ady) = (abs(dx), abs(dy))
      let steps = max(adx, ady)
      put(ix1, iy1)
      if steps == 2 {
        if adx >= ady {
          put(ix0 + dx / 2, iy0 + ((dy + 1) >> 1))
        } else {
          put(ix0 + ((dx + 1) >> 1), iy0 + dy / 2)
        }
        return
      }
      let fx = Double(dx) / Double(steps)
      let fy = Double(dy) / Double(steps)
      let px0 = Double(ix0) + 0.5
      let py0 = Double(iy0) + 0.5
      if adx >= ady {
        let sx = dx >= 0 ? 1 : -1
        for k in 1..<steps { put(ix0 + sx * k, floorToInt(py0 + fy * Double(k))) }
      } else {
        let sy = dy >= 0 ? 1 : -1
        for k in 1..<steps { put(floorToInt(px0 + fx * Double(k)), iy0 + sy * k) }
      }
    }
  }
}

/// ⌊v⌋ for 0 ≤ v < 2³⁰, without the checks of Swift's conversion (`Int(v)` tests that v is
/// finite and in range: a dozen instructions, two per point of a polygon's stroke).
/// v + 1.5 · 2⁵² lies in [2⁵², 2⁵³), where doubles are the integers: it is 1.5 · 2⁵² plus the
/// integer n nearest v, whose low 32 bits are n; one less when n is above v.
@inline(__always) func floorSmall(_ v: Double) -> Int {
  let magic = 6_755_399_441_055_744.0
  let r = v + magic
  let n = Int(Int32(truncatingIfNeeded: r.bitPattern))
  return r - magic > v ? n &- 1 : n
}
