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
    var batch = SmallShapeBatch(context: self)
    // The stroker holds the canvas; the context has an empty one until the batch ends.
    defer { canvas = batch.stroker.canvas }
    return try body(&batch)
  }
}

/// Small shapes drawn straight onto a context's canvas (``DrawingContext/withSmallShapes(_:)``):
/// rings of dot-space points are collected with ``addPoint(x:y:)`` and ``closeRing()``, then
/// filled with ``fillRings()``; strokes go segment by segment with
/// ``strokeSegment(_:_:_:_:)``.
public struct SmallShapeBatch {
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
  // The current rings, in dot space, and where each ends.
  var xs: [Double] = []
  var ys: [Double] = []
  var ringEnds: [Int] = []
  // Reused by fills.
  var edges: [FillScratch.Edge] = []

  init(context: DrawingContext) {
    self.context = context
    let state = context.state
    fillInk = state.fillColor.map { Ink(layer: DrawingContext.fillLayer, color: $0) }
    strokeInk = state.strokeColor.map { Ink(layer: DrawingContext.strokeLayer, color: $0) }
    pattern = state.fillPattern
    patternOrigin = context.patternOrigin
    clip = state.clip
    stroker = context.makeStroker(ink: strokeInk ?? .none)
    thin = stroker.brush.reach == 0 && stroker.dashTotal <= 0
    xs.reserveCapacity(64)
    ys.reserveCapacity(64)
    ringEnds.reserveCapacity(8)
    edges.reserveCapacity(64)
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
    xs.append(x)
    ys.append(y)
  }

  /// Ends the current ring (rings are always closed for filling).
  public mutating func closeRing() {
    if ringEnds.last != xs.count { ringEnds.append(xs.count) }
  }

  /// Forgets the rings without drawing them.
  public mutating func discardRings() {
    xs.removeAll(keepingCapacity: true)
    ys.removeAll(keepingCapacity: true)
    ringEnds.removeAll(keepingCapacity: true)
  }

  /// Fills the rings (even-odd, in the fill colour and pattern) and forgets them: the dots
  /// `fillPath` gives for the same rings as closed subpaths.
  public mutating func fillRings() {
    defer { discardRings() }
    closeRing()
    guard let ink = fillInk, !xs.isEmpty else { return }
    edges.removeAll(keepingCapacity: true)
    var bounds = FillScratch.Bounds()
    var start = 0
    // As `fill` in DrawingContext+Fill.swift.
    let (xs, ys) = (self.xs, self.ys)
    xs.withUnsafeBufferPointer { xs in
      ys.withUnsafeBufferPointer { ys in
        for end in ringEnds {
          FillScratch.addRing(xs, ys, start..<end, to: &edges, bounds: &bounds)
          start = end
        }
      }
    }
    let clip = clip
    guard bounds.meets(clip) else { return }
    let w = stroker.canvas.width
    // A shape smaller than one dot still shows as one dot.
    if let (x, y) = bounds.speck {
      if x >= clip.minX && x < clip.maxX && y >= clip.minY && y < clip.maxY {
        stroker.canvas.withDots { $0[y * w + x] = ink }
      }
      return
    }
    let firstRow = max(clip.minY, Int((bounds.minY - 0.5).rounded(.up)))
    let lastRow = min(clip.maxY - 1, Int((bounds.maxY - 0.5).rounded(.down)))
    guard firstRow <= lastRow else { return }
    let pattern = pattern
    let solid = pattern == .solid
    let (ox, oy) = patternOrigin
    // Row by row, the crossings of the edges the row's centre line meets (an edge counts from
    // its top, inclusive, to its bottom, exclusive, as the active edges of `fill` do), sorted,
    // inked between pairs: the same crossings, so the same dots, without sorting the edges.
    let edgeList = self.edges
    edgeList.withUnsafeBufferPointer { edges in
      withUnsafeTemporaryAllocation(of: Double.self, capacity: edges.count) { crossings in
        stroker.canvas.withDots { dots in
          for row in firstRow...lastRow {
            let yc = Double(row) + 0.5
            var count = 0
            for e in edges where e.yTop <= yc && e.yBottom > yc {
              // Insertion sort: a row of a small shape crosses a few edges.
              let c = e.xAtTop + (yc - e.yTop) * e.slope
              var k = count
              while k > 0 && crossings[k - 1] > c {
                crossings[k] = crossings[k - 1]
                k -= 1
              }
              crossings[k] = c
              count += 1
            }
            guard count >= 2 else { continue }
            var k = 0
            let base = row * w
            while k + 1 < count {
              let a = max(Int((crossings[k] - 0.5).rounded(.up)), clip.minX)
              let b = min(Int((crossings[k + 1] - 0.5).rounded(.up)) - 1, clip.maxX - 1)
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
      }
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
      stroker.segment(x0, y0, x1, y1)
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
    let w = stroker.canvas.width
    stroker.canvas.withDots { dots in
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
      let w = stroker.canvas.width
      let ink = Ink(layer: DrawingContext.markLayer, color: color)
      stroker.canvas.withDots { $0[y * w + x] = ink }
    }
  }

  /// Gives the canvas back to the context while `body` draws through it (a shape too large or
  /// dashed for the batch), then takes it again. The context's state is as `body` leaves it;
  /// the batch keeps the colours, width and clip it began with.
  public mutating func withContext<R>(_ body: (DrawingContext) throws -> R) rethrows -> R {
    context.canvas = stroker.canvas
    stroker.canvas = DotCanvas(width: 0, height: 0)
    defer {
      stroker.canvas = context.canvas
      context.canvas = DotCanvas(width: 0, height: 0)
    }
    return try body(context)
  }
}
