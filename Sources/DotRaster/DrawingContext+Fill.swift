import Foundation

extension DrawingContext {
  /// Fills the current path under the even-odd rule: a dot is inked when its centre lies inside
  /// an odd number of rings, so inner rings cut holes.
  func fillEvenOdd(ink: Ink) {
    guard !xs.isEmpty else { return }
    // The buffers of the last fill, reused (a map tile fills many small polygons).
    var edges = fillScratch.edges
    fillScratch.edges = []
    defer {
      edges.removeAll(keepingCapacity: true)
      fillScratch.edges = edges
    }
    edges.reserveCapacity(xs.count)
    var bounds = FillScratch.Bounds()
    xs.withUnsafeBufferPointer { xs in
      ys.withUnsafeBufferPointer { ys in
        for (index, sub) in subpaths.enumerated() {
          let end = index + 1 < subpaths.count ? subpaths[index + 1].start : xs.count
          FillScratch.addRing(xs, ys, sub.start..<end, to: &edges, bounds: &bounds)
        }
      }
    }
    edges.withUnsafeMutableBufferPointer { fill(ink: ink, edges: $0, bounds: bounds) }
  }

  /// Fills rings handed to `body` as dot-space lines (`DotRingSink`: a move starts a ring, and
  /// each ring is closed) in the fill colour and pattern, under the even-odd rule: the dots
  /// `withDotPath` with the same lines and then `fillPath()` give, without the path, for
  /// renderers that fill many small polygons (vector tiles' buildings). The current path must
  /// be empty (it is left alone); without a fill colour nothing is drawn and `body` is not
  /// called.
  package func fillDotRings(_ body: (inout DotRingSink) -> Void) {
    guard let color = state.fillColor else { return }
    // The edges go to raw storage the context keeps from fill to fill (taken while `body`
    // runs: a fill it made through this context would take storage of its own).
    var sink = fillScratch.takeRingSink()
    body(&sink)
    sink.closeRing()
    let edges = UnsafeMutableBufferPointer(start: sink.edges, count: sink.count)
    let b = sink.bounds
    if keepsColor(color) {
      // (`pathArea(margin: 2)` of the same points: their bounds.)
      let area = dotArea(b.minX, b.minY, b.maxX, b.maxY, margin: 2)
      drawKeepingColor(color, layer: Self.fillLayer, in: area) {
        fill(ink: $0, edges: edges, bounds: b)
      }
    } else {
      fill(ink: Ink(layer: Self.fillLayer, color: color), edges: edges, bounds: b)
    }
    fillScratch.keepRingEdges(sink.edges, capacity: sink.capacity)
  }

  /// Inks the dots whose centres lie inside an odd number of the rings whose edges are
  /// `edges` (any order; more than `FillScratch.fewEdges` are counted out by the rows that
  /// reach their tops) and whose points lie in `bounds`.
  private func fill(
    ink: Ink, edges: UnsafeMutableBufferPointer<FillScratch.Edge>, bounds: FillScratch.Bounds
  ) {
    // (Cut to the canvas: one lent out meanwhile is empty, and nothing is drawn.)
    let raster = FillRaster(
      clip: state.clip, pattern: state.fillPattern, origin: patternOrigin, width: canvas.width,
      height: canvas.height)
    guard bounds.meets(raster.clip) else { return }
    canvas.withDots { raster.fill(ink: ink, edges: edges, bounds: bounds, dots: $0) }
  }
}

extension DrawingContext {
  /// Fills and outlines polygons one after another (buildings: each one's fill, then its
  /// outline over it, then the next one's), with `body`'s calls of `FillOutlineBatch.fill(_:)`
  /// and `FillOutlineBatch.outline(within:_:)`: the dots and pending draws are those of
  /// `fillDotRings(_:)` and `strokeDotLines(within:_:)` made in the same order, but the
  /// canvas is lent out, and the fill's settings and the stroker made, once for all of them,
  /// not once a polygon. The state (colours, pattern, width, dashes, clip) is read when the
  /// batch starts; the current path must be empty (it is left alone). Drawing through the
  /// context while `body` runs draws nothing (the canvas is lent out).
  package func withFillsAndOutlines(_ body: (inout FillOutlineBatch) -> Void) {
    // Room for the batch's pending draws: a fill's and an outline's, the same two all along
    // (`PendingDraws.add` finds them among its last four), so none settles while the canvas
    // is lent out.
    if pending.entries.count > Self.pendingCapacity - 2 { settlePending() }
    // (Moved out of the context while `body` runs: see "Exclusivity" in `DrawingContext`.)
    var lent = Stroker.lentOut
    swap(&lent, &canvas)
    let (width, height, hasTrueColor) = (lent.width, lent.height, lent.hasTrueColor)
    lent.withDots { dots in
      var batch = FillOutlineBatch(
        context: self, width: width, height: height, hasTrueColor: hasTrueColor, dots: dots,
        rings: fillScratch.takeRingSink())
      body(&batch)
      batch.addHeldArea()
      fillScratch.keepRingEdges(batch.rings.edges, capacity: batch.rings.capacity)
    }
    swap(&lent, &canvas)
  }
}

/// Fills and outlines drawn one after another on a context's canvas, lent out to the batch
/// (`DrawingContext.withFillsAndOutlines(_:)`).
package struct FillOutlineBatch {
  let context: DrawingContext
  let dots: UnsafeMutableBufferPointer<Ink>
  let raster: FillRaster
  let fillColor: TermColor?
  let strokeColor: TermColor?
  /// Whether the canvas has a colour plane (`DotCanvas.hasTrueColor`: it gets none while lent
  /// out).
  let hasTrueColor: Bool
  /// `DrawingContext.strokeMargin`.
  let strokeMargin: Double
  /// The fills' edges (the context's kept storage).
  var rings: DotRingSink
  /// The outlines' sink, with the stroker (its ink set for each outline).
  var strokes: DotStrokeSink
  /// The context's clip (`DrawingContext.keptInk` cuts areas to it).
  let clip: DotRect
  /// The pending ink the last fill and the last outline took (`DrawingContext.keptInk`), with
  /// how many pending draws there were then (−1: none taken yet).
  var fillPending = (ink: Ink.none, count: -1)
  var outlinePending = (ink: Ink.none, count: -1)
  /// The clip's corners in dot space, least and greatest (the greatest −∞ when the clip is
  /// empty, so `heldArea` never takes an area).
  let clipLow: SIMD2<Double>
  let clipHigh: SIMD2<Double>
  /// The box, in dot space and grown by the margins, of the areas of the draws that took
  /// their pending inks again (`heldArea`) since `addHeldArea()` last added it to the pending
  /// draws' area (empty: least above greatest).
  var heldLow = SIMD2<Double>(repeating: .infinity)
  var heldHigh = SIMD2<Double>(repeating: -.infinity)

  init(
    context: DrawingContext, width: Int, height: Int, hasTrueColor: Bool,
    dots: UnsafeMutableBufferPointer<Ink>, rings: DotRingSink
  ) {
    self.context = context
    self.dots = dots
    self.hasTrueColor = hasTrueColor
    self.rings = rings
    let state = context.state
    fillColor = state.fillColor
    strokeColor = state.strokeColor
    strokeMargin = context.strokeMargin
    clip = state.clip
    clipLow = SIMD2(Double(clip.minX), Double(clip.minY))
    clipHigh =
      clip.isEmpty
      ? SIMD2(repeating: -.infinity) : SIMD2(Double(clip.maxX), Double(clip.maxY))
    raster = FillRaster(
      clip: state.clip, pattern: state.fillPattern, origin: context.patternOrigin, width: width,
      height: height)
    strokes = DotStrokeSink(
      stroker: Stroker(context: context, width: width, height: height, ink: .none), dots: dots)
  }

  /// Whether drawing in `color` takes a pending ink (`DrawingContext.keepsColor`, the lent
  /// canvas's plane read from before it was lent). When it does not, the canvas gets a settled
  /// ink, so the context says so (`DrawingContext.mayHoldSettledInk`), as `keepsColor` does.
  @inline(__always) func keeps(_ color: TermColor) -> Bool {
    if color.isTrueColor || hasTrueColor || context.pending.hasColor { return true }
    context.mayHoldSettledInk = true
    return false
  }

  /// `DrawingContext.keptInk(_:layer:in:)` for the batch's fills (`last` is `fillPending`) or
  /// outlines (`outlinePending`): while no pending draw has been added since the last of them
  /// took its ink, `PendingDraws.add` would find that one again (the same ink and colour, the
  /// pending draws unchanged), so it is taken again and only the area is added.
  @inline(__always) func keptInk(
    _ color: TermColor, layer: UInt32, in area: DotRect, _ last: inout (ink: Ink, count: Int)
  ) -> Ink {
    if last.count == context.pending.entries.count {
      let a = area.intersection(clip)
      guard !a.isEmpty else { return DrawingContext.pendingInk }
      context.pending.area = context.pending.area.union(a)
      return last.ink
    }
    let ink = context.keptInk(color, layer: layer, in: area)
    if ink.raw >= DrawingContext.pendingBase && ink.raw != DrawingContext.pendingInk.raw {
      last = (ink, context.pending.entries.count)
    }
    return ink
  }

  /// `keptInk` when it would take `last`'s ink again for `context.dotArea(low.x, low.y,
  /// high.x, high.y, margin: 0)` (the corners already grown by the margin) and that area is
  /// not empty: the ink, with the box held in `heldLow` and `heldHigh` and not yet added to
  /// the pending draws' area; nil otherwise (nothing done: the caller takes `keptInk`).
  ///
  /// The same area in the end (`addHeldArea()`): `dotArea` and the cut to the clip are
  /// monotone in each corner (a clamp, a floor, a least or greatest with the clip's), so the
  /// area of the least of the low corners and the greatest of the high ones is the union
  /// (`DotRect.union`, a bounding box) of the areas of each; and the pending draws' area is a
  /// union, whatever the order. An area meets the clip when its corners are finite (else
  /// `dotArea` gives the whole clip: not held), the low one is left of and above the clip's
  /// far side and the high one at or beyond its near side: `floor(v) < m` is `v < m`, and
  /// `floor(v) + 1 > m` is `v >= m`, for a whole `m` (the clamps to a dot beyond the clip keep
  /// both). (A pending draw added meanwhile does not matter: the areas are a union. None is
  /// settled while the batch draws: `DrawingContext.withFillsAndOutlines(_:)` made room.)
  @inline(__always) mutating func heldArea(
    _ low: SIMD2<Double>, _ high: SIMD2<Double>, _ last: (ink: Ink, count: Int)
  ) -> Ink? {
    guard last.count == context.pending.entries.count,
      all(
        (low .< clipHigh) .& (high .>= clipLow) .& (low .> -.infinity) .& (high .< .infinity))
    else { return nil }
    heldLow = pointwiseMin(heldLow, low)
    heldHigh = pointwiseMax(heldHigh, high)
    return last.ink
  }

  /// Adds the areas held (`heldArea`) to the pending draws' area.
  mutating func addHeldArea() {
    guard heldLow.x <= heldHigh.x else { return }
    let a = context.dotArea(heldLow.x, heldLow.y, heldHigh.x, heldHigh.y, margin: 0)
    context.pending.area = context.pending.area.union(a)
    heldLow = SIMD2(repeating: .infinity)
    heldHigh = SIMD2(repeating: -.infinity)
  }

  /// Fills the rings `body` hands over, as `DrawingContext.fillDotRings(_:)` (nothing without
  /// a fill colour; `body` is then not called).
  package mutating func fill(_ body: (inout DotRingSink) -> Void) {
    guard let color = fillColor else { return }
    rings.restart()
    body(&rings)
    rings.closeRing()
    let b = rings.bounds
    let ink: Ink
    if keeps(color) {
      // (`pathArea(margin: 2)` of the same points: their bounds.)
      if let held = heldArea(
        SIMD2(b.minX, b.minY) - 2, SIMD2(b.maxX, b.maxY) + 2, fillPending)
      {
        ink = held
      } else {
        let area = context.dotArea(b.minX, b.minY, b.maxX, b.maxY, margin: 2)
        ink = keptInk(color, layer: DrawingContext.fillLayer, in: area, &fillPending)
      }
    } else {
      ink = Ink(layer: DrawingContext.fillLayer, color: color)
    }
    raster.fill(
      ink: ink, edges: UnsafeMutableBufferPointer(start: rings.edges, count: rings.count),
      bounds: b, dots: dots)
  }

  /// Strokes the lines `body` hands over, every vertex in `box` (dot space), as
  /// `DrawingContext.strokeDotLines(within:_:)` (nothing without a stroke colour; `body` is
  /// then not called).
  package mutating func outline(within box: Rect2D, _ body: (inout DotStrokeSink) -> Void) {
    guard let color = strokeColor else { return }
    if keeps(color) {
      let m = strokeMargin
      if let held = heldArea(
        SIMD2(box.x, box.y) - m, SIMD2(box.maxX, box.maxY) + m, outlinePending)
      {
        strokes.stroker.ink = held
      } else {
        let area = context.dotArea(box.x, box.y, box.maxX, box.maxY, margin: m)
        strokes.stroker.ink = keptInk(
          color, layer: DrawingContext.strokeLayer, in: area, &outlinePending)
      }
    } else {
      strokes.stroker.ink = Ink(layer: DrawingContext.strokeLayer, color: color)
    }
    body(&strokes)
    strokes.finishSubpath()
  }
}

/// A fill's settings worked out once (the clip cut to the canvas, the pattern's rows and
/// origin): `DrawingContext.fill` makes one a fill, a `FillOutlineBatch` one for all its
/// fills.
struct FillRaster {
  let clip: DotRect
  /// The pattern's origin on the canvas's dot grid (`DrawingContext.patternOrigin`).
  let ox: Int
  let oy: Int
  /// The canvas's width in dots.
  let width: Int
  /// The four rows' parities of the pattern's dots (bit 0 those of even columns, bit 1 those
  /// of odd ones), a byte each.
  let parities: UInt32
  /// A bit for each row of the pattern with dots.
  let rowsWithDots: UInt32
  /// For each row r of the pattern's grid, a byte: how many rows on the next row with dots is
  /// (1...4; 0 when no row has dots).
  let steps: UInt32
  /// The clip's ends as `FillScratch.span` and `FillScratch.rows` hold values within them (a
  /// dot beyond each side), and as `FillScratch.Bounds.meets` compares with them, worked out
  /// once for all fills (the same values: a fill's rows tested none of the conversions again).
  let spanEnds: FillScratch.SpanEnds
  let heldY: (low: Double, high: Double)
  let meetLow: (x: Double, y: Double)
  let meetHigh: (x: Double, y: Double)

  init(clip: DotRect, pattern: DotPattern, origin: (x: Int, y: Int), width: Int, height: Int) {
    let clip = clip.intersection(DotRect(minX: 0, minY: 0, maxX: width, maxY: height))
    self.clip = clip
    (ox, oy) = origin
    self.width = width
    spanEnds = FillScratch.SpanEnds(clip)
    heldY = (Double(clip.minY - 1), Double(clip.maxY + 1))
    meetLow = (Double(clip.minX) - 1, Double(clip.minY) - 1)
    meetHigh = (Double(clip.maxX), Double(clip.maxY))
    // The pattern's dots on a row (of the pattern's grid, a cell high): bit 0 those of even
    // columns, bit 1 those of odd ones. (A byte for each dot row of a cell; the braille bits
    // of row r's two dots are `CellGeometry.brailleBit(dx: 0, dy: r)` and `(dx: 1, dy: r)`:
    // bits r and r + 3 for rows 0 to 2, bits 6 and 7 for row 3.)
    assert(CellGeometry.dotsHigh == 4 && CellGeometry.brailleBit(dx: 1, dy: 1) == 1 << 4)
    let bits = UInt32(pattern.bits)
    @inline(__always) func parity(_ even: UInt32, _ odd: UInt32) -> UInt32 {
      (bits >> even) & 1 | ((bits >> odd) & 1) << 1
    }
    let parities = parity(0, 3) | parity(1, 4) << 8 | parity(2, 5) << 16 | parity(6, 7) << 24
    self.parities = parities
    // (A row's byte not zero: its bit.)
    let nonzero = (parities | parities >> 1) & 0x0101_0101
    let rows = (nonzero | nonzero >> 7 | nonzero >> 14 | nonzero >> 21) & 0xF
    rowsWithDots = rows
    // (The rows with dots, twice over, from row r + 1 on: the first of them.)
    @inline(__always) func step(_ r: UInt32) -> UInt32 {
      UInt32((((rows | rows << 4) >> (r + 1)) & 0xF).trailingZeroBitCount + 1)
    }
    steps = rows == 0 ? 0 : step(0) | step(1) << 8 | step(2) << 16 | step(3) << 24
  }

  /// Inks, in `dots` (the canvas's), the dots whose centres lie inside an odd number of the
  /// rings whose edges are `edges` (any order; more than `FillScratch.fewEdges` are counted
  /// out here by the rows that reach their tops) and whose points lie in `bounds`.
  @inline(__always) func fill(
    ink: Ink, edges: UnsafeMutableBufferPointer<FillScratch.Edge>, bounds: FillScratch.Bounds,
    dots: UnsafeMutableBufferPointer<Ink>
  ) {
    let clip = self.clip
    guard bounds.meets(low: meetLow, high: meetHigh) else { return }
    let (ox, oy) = (self.ox, self.oy)
    let w = width
    if bounds.inkSpeck(clip: clip, width: w, ink: ink, dots) { return }
    let (firstRow, lastRow) = FillScratch.rows(bounds, clip, within: heldY)
    guard firstRow <= lastRow else { return }
    let (parities, steps) = (self.parities, self.steps)
    // Rows the pattern leaves empty are skipped whole: the edges a row crosses do not depend
    // on the rows before it (a pattern with no dots on any row draws nothing). Without edges
    // no row has a crossing (nor without the canvas's dots: one lent out draws nothing).
    guard rowsWithDots != 0, let base = dots.baseAddress, let e0 = edges.baseAddress,
      !edges.isEmpty
    else { return }
    let mask = CellGeometry.dotsHigh - 1
    /// The parity of row r of the pattern's grid.
    @inline(__always) func parityOf(_ r: Int) -> UInt8 {
      UInt8(truncatingIfNeeded: parities &>> UInt32(truncatingIfNeeded: r &* 8))
    }
    /// How many rows on from row r of the pattern's grid the next row with dots is (1...4).
    @inline(__always) func step(_ r: Int) -> Int {
      Int(UInt8(truncatingIfNeeded: steps &>> UInt32(truncatingIfNeeded: r &* 8)))
    }
    var row = firstRow
    if parityOf((row &+ oy) & mask) == 0 { row &+= step((row &+ oy) & mask) }
    let edgeCount = edges.count
    let ends = spanEnds
    withUnsafeTemporaryAllocation(of: Double.self, capacity: edgeCount) { crossings in
      do {
        // Inks the dots of the pattern between pairs of a row's `count` crossings (sorted).
        @inline(__always) func spans(_ row: Int, _ rowParity: UInt8, _ count: Int) {
          let even = rowParity & 1 != 0
          var k = 0
          // (The row's dots: the span's columns lie in the clip, which lies in the canvas, so
          // the stores stay in the buffer and the column steps cannot overflow.)
          let rowDots = base + row &* w
          while k &+ 1 < count {
            let (a, b) = FillScratch.span(crossings[k], crossings[k &+ 1], ends)
            if a <= b {
              if rowParity == 3 {
                var x = a
                repeat {
                  rowDots[x] = ink
                  x &+= 1
                } while x <= b
              } else {
                // The first column of the right parity from a, then every other one: two
                // dots a step, then the last one left (a dot cost a test and a jump besides its
                // store and step).
                var x = a &+ (((even ? 0 : 1) &- (a &+ ox)) & 1)
                while x &+ 2 <= b {
                  rowDots[x] = ink
                  rowDots[x &+ 2] = ink
                  x &+= 4
                }
                if x <= b { rowDots[x] = ink }
              }
            }
            k &+= 2
          }
        }
        // A row's crossing at x, inserted among the `count` sorted so far (a row of a map's
        // polygon crosses a few edges: an insertion gives what sorting them gave, without the
        // calls per row of a growable array; `FillScratch.span` holds each within a dot of the
        // clip).
        @inline(__always) func insert(_ x: Double, _ count: Int) {
          var j = count
          while j > 0 && x < crossings[j - 1] {
            crossings[j] = crossings[j - 1]
            j -= 1
          }
          crossings[j] = x
        }
        guard edgeCount > FillScratch.fewEdges else {
          // Few edges (a building's): each row drawn takes the crossings of every edge it
          // meets (top inclusive, bottom exclusive, as the active edges below), with no sort
          // of the edges and no list of active ones. (The edges walked by a pointer: an
          // edge's tests read it in place, with no index to scale.)
          let eEnd = e0 + edgeCount
          while row <= lastRow {
            let r = (row &+ oy) & mask
            let yc = Double(row) + 0.5
            var count = 0
            var e = e0
            repeat {
              if e.pointee.yTop <= yc && e.pointee.yBottom > yc {
                insert(e.pointee.xAtTop + (yc - e.pointee.yTop) * e.pointee.slope, count)
                count &+= 1
              }
              e += 1
            } while e != eEnd
            spans(row, parityOf(r), count)
            row &+= step(r)
          }
          return
        }
        // The edges crossing the row (those begun above it and not yet ended, in the order
        // rows reach them) and their crossings, sorted as they come. Which edge gives a
        // crossing does not matter, so neither does the order of edges that the same row
        // reaches first.
        let rowCount = lastRow - firstRow + 1
        withUnsafeTemporaryAllocation(of: Int.self, capacity: edgeCount) { active in
          // The edges counted out by the first row whose centre lies at or below their top
          // (`yTop <= yc`, as a sort by their tops took them up): `reached[i]` of them, in
          // `order`, have it by row firstRow + i. (A sort of the edges, 0.09 M instructions a
          // frame for liberty, did the same.)
          withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * edgeCount + rowCount + 1) {
            let starts = $0.baseAddress.unsafelyUnwrapped
            let order = starts + edgeCount
            let reached = order + edgeCount
            reached.initialize(repeating: 0, count: rowCount + 1)
            let (top, bottom) = (Double(firstRow) + 0.5, Double(lastRow) + 0.5)
            for e in 0..<edgeCount {
              let y = edges[e].yTop
              var s = 0
              if y > bottom {
                s = rowCount
              } else if y > top {
                // The first row r with y <= r + 0.5: y − 0.5 rounded up. (The subtraction is
                // exact here: y lies above row firstRow's centre, so 0.5 < y < 2^31, where
                // y − 0.5 is a multiple of y's unit in the last place no larger than y, or,
                // for y ≤ 1, exact by Sterbenz's lemma. No correction is needed.)
                s = FillScratch.smallCeiling(y - 0.5) &- firstRow
              }
              starts[e] = Int32(truncatingIfNeeded: s)
              reached[s] &+= 1
            }
            // Each row's count becomes where its edges go, then where they end.
            var sum: Int32 = 0
            for i in 0...rowCount {
              let c = reached[i]
              reached[i] = sum
              sum &+= c
            }
            for e in 0..<edgeCount {
              let s = Int(starts[e])
              order[Int(reached[s])] = Int32(truncatingIfNeeded: e)
              reached[s] &+= 1
            }
            var activeCount = 0
            var next = 0
            while row <= lastRow {
              let r = (row &+ oy) & mask
              let yc = Double(row) + 0.5
              let reachedHere = Int(reached[row - firstRow])
              while next < reachedHere {
                active[activeCount] = Int(order[next])
                activeCount += 1
                next += 1
              }
              var kept = 0
              var count = 0
              for a in 0..<activeCount {
                let e = active[a]
                if edges[e].yBottom <= yc { continue }
                active[kept] = e
                kept += 1
                insert(edges[e].xAtTop + (yc - edges[e].yTop) * edges[e].slope, count)
                count += 1
              }
              activeCount = kept
              spans(row, parityOf(r), count)
              row &+= step(r)
            }
          }
        }
      }
    }
  }
}

/// Takes the rings of a fill as dot-space lines (`DrawingContext.fillDotRings`): a move starts
/// a ring (closing the one before), a line adds an edge; the edges are kept, not the points.
public struct DotRingSink: DotLineSink {
  // (Inlinable, with what it uses: a renderer hands it every vertex.)
  /// The edges so far, `count` of them, in raw storage for `capacity` (grown here; the
  /// context keeps it from fill to fill, `FillScratch.takeRingSink`): an edge costs a store,
  /// not an array's uniqueness and growth tests.
  @usableFromInline var edges: UnsafeMutablePointer<FillScratch.Edge>
  @usableFromInline var count = 0
  @usableFromInline var capacity: Int
  @usableFromInline var bounds = FillScratch.Bounds()
  @usableFromInline var firstX = 0.0
  @usableFromInline var firstY = 0.0
  @usableFromInline var lastX = 0.0
  @usableFromInline var lastY = 0.0
  /// Whether a ring is open.
  @usableFromInline var open = false

  init(edges: UnsafeMutablePointer<FillScratch.Edge>, capacity: Int) {
    self.edges = edges
    self.capacity = capacity
  }

  /// Closes the open ring and starts one at a dot-space point (the dash offset means nothing
  /// to a fill).
  @inlinable @inline(__always)
  public mutating func move(x: Double, y: Double, dashOffset: Double) {
    closeRing()
    (firstX, firstY, lastX, lastY) = (x, y, x, y)
    open = true
    bounds.widen(x, y)
  }

  /// Adds an edge from the last point to a dot-space point (a move when no ring is open).
  @inlinable @inline(__always) public mutating func line(x: Double, y: Double) {
    guard open else {
      move(x: x, y: y, dashOffset: 0)
      return
    }
    addEdge(lastX, lastY, x, y)
    (lastX, lastY) = (x, y)
    bounds.widen(x, y)
  }

  /// Empty again (no edges, no bounds, no ring open), its storage kept.
  mutating func restart() {
    count = 0
    bounds = FillScratch.Bounds()
    open = false
  }

  /// Adds the open ring's closing edge.
  @inlinable @inline(__always) mutating func closeRing() {
    guard open else { return }
    addEdge(lastX, lastY, firstX, firstY)
    open = false
  }

  /// Adds a ring of `count` dot-space points (at `points`, x then y for each), closed: the
  /// edges and bounds that a move to its first point, lines to the others and the ring's
  /// closing give, in one call (a renderer's line per vertex was a call, and the sink's fields
  /// went through memory). A ring open before is closed first.
  package mutating func addRing(_ points: UnsafePointer<Double>, count n: Int) {
    closeRing()
    guard n > 0 else { return }
    // Room for the ring's edges (at most one a point), so the loop tests none.
    while capacity - count < n { grow() }
    let e = edges
    var c = count
    var b = bounds
    let (x0, y0) = (points[0], points[1])
    b.widen(x0, y0)
    var (ax, ay) = (x0, y0)
    @inline(__always) func edge(_ bx: Double, _ by: Double) {
      if ay == by || !ay.isFinite || !by.isFinite { return }
      e[c] = FillScratch.Edge(ax, ay, bx, by)
      c &+= 1
    }
    var i = 1
    while i < n {
      let (x, y) = (points[2 &* i], points[2 &* i &+ 1])
      edge(x, y)
      b.widen(x, y)
      (ax, ay) = (x, y)
      i &+= 1
    }
    edge(x0, y0)
    count = c
    bounds = b
  }

  /// Starts a closed ring of at most `count` points (`count` > 0), the first at `p` (x, y), to
  /// be written point by point through the `DotRingWriter` returned and handed back to
  /// `finishRing(_:)`: the edges and bounds of `addRing(_:count:)` with the same points, made as
  /// the caller finds the points (a renderer's loop over a ring's vertices), with the writer's
  /// state in registers. The caller promises every point is finite (the writer does not test
  /// them, as `addRing` does). A ring open before is closed first. (Public and inlinable, as
  /// `DotRingWriter` is: a call a ring, with the writer returned through memory, cost about 100
  /// instructions.)
  ///
  /// The writer writes into this sink's edge storage unchecked, so its caller keeps three
  /// rules: at most `count` points (the first included) go through the writer; no other call
  /// is made on this sink until the writer is handed back (one could move the storage); and
  /// the writer is handed back to this sink, by `finishRing(_:)`. (Only the package makes a
  /// sink: `DrawingContext.fillDotRings`' body and `FillOutlineBatch.fill(_:)` lend one.)
  @inlinable @inline(__always)
  public mutating func startRing(count n: Int, at p: SIMD2<Double>) -> DotRingWriter {
    closeRing()
    // Room for the ring's edges (at most one a point), so the writer tests none.
    while capacity &- count < n { grow() }
    var b = bounds
    b.widen(p.x, p.y)
    return DotRingWriter(
      edges: edges, count: count, low: SIMD2(b.minX, b.minY), high: SIMD2(b.maxX, b.maxY), at: p)
  }

  /// Closes the ring a `DotRingWriter` wrote (its closing edge) and keeps its edges and bounds.
  @inlinable @inline(__always) public mutating func finishRing(_ w: DotRingWriter) {
    var w = w
    w.edge(w.first)
    count = w.count
    bounds = FillScratch.Bounds(minX: w.low.x, maxX: w.high.x, minY: w.low.y, maxY: w.high.y)
  }

  /// Adds the edge from (ax, ay) to (bx, by), top end first, unless it is horizontal or an end
  /// is not finite (as `FillScratch.addEdge`).
  @inlinable @inline(__always)
  mutating func addEdge(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
    if ay == by || !ay.isFinite || !by.isFinite { return }
    if count == capacity { grow() }
    edges[count] = FillScratch.Edge(ax, ay, bx, by)
    count += 1
  }

  /// Twice the room, the edges kept.
  @usableFromInline @inline(never) mutating func grow() {
    let larger = UnsafeMutablePointer<FillScratch.Edge>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: edges, count: count)
    edges.deallocate()
    edges = larger
    capacity *= 2
  }
}

/// A ring being written into a `DotRingSink`, point by point (`DotRingSink.startRing`): its
/// edges go straight into the sink's storage, which has room for them all. A point is a pair
/// (x, y), the bounds two pairs (least and greatest), so a point's bounds cost two
/// instructions (`minpd`, `maxpd`) and the state fits in registers.
///
/// Public, with `point` public and inlinable, though only the package uses it: Swift 6.3 does
/// not inline an `@inlinable package` member into another module (each use stays a call), and
/// a renderer writes every vertex it keeps through `point`.
public struct DotRingWriter {
  @usableFromInline let edges: UnsafeMutablePointer<FillScratch.Edge>
  @usableFromInline var count: Int
  /// The least and the greatest x and y of the points so far (`FillScratch.Bounds`).
  @usableFromInline var low: SIMD2<Double>
  @usableFromInline var high: SIMD2<Double>
  @usableFromInline let first: SIMD2<Double>
  @usableFromInline var last: SIMD2<Double>

  @inlinable @inline(__always)
  init(
    edges: UnsafeMutablePointer<FillScratch.Edge>, count: Int, low: SIMD2<Double>,
    high: SIMD2<Double>, at p: SIMD2<Double>
  ) {
    self.edges = edges
    self.count = count
    (self.low, self.high) = (low, high)
    (first, last) = (p, p)
  }

  /// The ring's next point (finite): the edge from the last one (none when horizontal), and the
  /// bounds widened over it (as `FillScratch.Bounds.widenFinite`: a lane is replaced where the
  /// point's is below, or above, it).
  @inlinable @inline(__always) public mutating func point(_ p: SIMD2<Double>) {
    edge(p)
    low = low.replacing(with: p, where: p .< low)
    high = high.replacing(with: p, where: p .> high)
    last = p
  }

  /// The edge from the last point to `p`, unless horizontal (both ends finite; the sink made
  /// room for it): `FillScratch.Edge(last.x, last.y, p.x, p.y)`, top end first, its slope the
  /// difference of the lower end less the upper one, x over y.
  @inlinable @inline(__always) mutating func edge(_ p: SIMD2<Double>) {
    if last.y == p.y { return }
    let (top, bottom) = last.y < p.y ? (last, p) : (p, last)
    let d = bottom - top
    edges[count] = FillScratch.Edge(
      yTop: top.y, yBottom: bottom.y, xAtTop: top.x, slope: d.x / d.y)
    count &+= 1
  }
}

/// Buffers a fill works in, kept by the context between fills.
@usableFromInline struct FillScratch {
  @usableFromInline struct Edge {
    @usableFromInline var yTop: Double
    @usableFromInline var yBottom: Double
    @usableFromInline var xAtTop: Double
    @usableFromInline var slope: Double

    @inlinable init(yTop: Double, yBottom: Double, xAtTop: Double, slope: Double) {
      (self.yTop, self.yBottom, self.xAtTop, self.slope) = (yTop, yBottom, xAtTop, slope)
    }

    /// The edge from (`ax`, `ay`) to (`bx`, `by`), whichever end is on top (`ay` ≠ `by`).
    @inlinable @inline(__always)
    init(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) {
      if ay < by {
        self.init(yTop: ay, yBottom: by, xAtTop: ax, slope: (bx - ax) / (by - ay))
      } else {
        self.init(yTop: by, yBottom: ay, xAtTop: bx, slope: (ax - bx) / (ay - by))
      }
    }
  }
  var edges: [Edge] = []
  /// The raw storage of `DotRingSink`'s edges between fills (nil: none yet, or lent out),
  /// freed with the context.
  var ringEdges: UnsafeMutablePointer<Edge>?
  var ringCapacity = 0

  /// A sink for a fill's rings writing into the kept storage (made the first time), which is
  /// lent to it until `keepRingEdges`.
  mutating func takeRingSink() -> DotRingSink {
    guard let p = ringEdges else {
      return DotRingSink(edges: .allocate(capacity: 64), capacity: 64)
    }
    ringEdges = nil
    return DotRingSink(edges: p, capacity: ringCapacity)
  }

  /// Keeps a sink's storage for the next fill (freeing what a fill made meanwhile kept).
  mutating func keepRingEdges(_ p: UnsafeMutablePointer<Edge>, capacity: Int) {
    ringEdges?.deallocate()
    ringEdges = p
    ringCapacity = capacity
  }

  /// The bounds of the points of a fill's rings (empty: no point yet).
  @usableFromInline struct Bounds {
    @usableFromInline var minX = Double.infinity
    @usableFromInline var maxX = -Double.infinity
    @usableFromInline var minY = Double.infinity
    @usableFromInline var maxY = -Double.infinity

    @inlinable init() {}

    @inlinable init(minX: Double, maxX: Double, minY: Double, maxY: Double) {
      (self.minX, self.maxX, self.minY, self.maxY) = (minX, maxX, minY, maxY)
    }

    /// Widens the bounds over a point.
    @inlinable @inline(__always) mutating func widen(_ x: Double, _ y: Double) {
      minX = min(minX, x)
      maxX = max(maxX, x)
      minY = min(minY, y)
      maxY = max(maxY, y)
    }

    /// `widen` for a finite point: the same bounds (a coordinate equal to a bound may leave a
    /// zero of the other sign there, which compares and converts the same), without the
    /// blends that `max`'s order of NaNs and zeros takes.
    @inlinable @inline(__always) mutating func widenFinite(_ x: Double, _ y: Double) {
      minX = x < minX ? x : minX
      maxX = x > maxX ? x : maxX
      minY = y < minY ? y : minY
      maxY = y > maxY ? y : maxY
    }

    /// Whether the rings can ink a dot of `clip`.
    func meets(_ clip: DotRect) -> Bool {
      meets(
        low: (Double(clip.minX) - 1, Double(clip.minY) - 1),
        high: (Double(clip.maxX), Double(clip.maxY)))
    }

    /// `meets(_:)` with the clip's ends converted already: `low` its least corner less a dot,
    /// `high` its greatest (`FillRaster` works them out once for all its fills).
    @inline(__always) func meets(low: (x: Double, y: Double), high: (x: Double, y: Double))
      -> Bool
    {
      minX.isFinite && maxX >= low.x && minX <= high.x && maxY >= low.y && minY <= high.y
    }

    /// The one dot a shape smaller than a dot shows as (nil: the shape is larger).
    @inline(__always) var speck: (x: Int, y: Int)? {
      guard maxX - minX < 1 && maxY - minY < 1 else { return nil }
      return (Int(((minX + maxX) / 2).rounded(.down)), Int(((minY + maxY) / 2).rounded(.down)))
    }

    /// A shape smaller than one dot still shows as one dot: inks its `speck` (when the clip
    /// holds it) in `dots`, rows `width` dots long. Returns false, inking nothing, when the
    /// shape is larger.
    @inline(__always) func inkSpeck(
      clip: DotRect, width: Int, ink: Ink, _ dots: UnsafeMutableBufferPointer<Ink>
    ) -> Bool {
      guard let (x, y) = speck else { return false }
      if x >= clip.minX && x < clip.maxX && y >= clip.minY && y < clip.maxY {
        dots[y * width + x] = ink
      }
      return true
    }
  }

  /// Adds the edge from (ax, ay) to (bx, by) to `edges`, top end first, unless it is
  /// horizontal or an end is not finite.
  @inlinable @inline(__always)
  static func addEdge(
    _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, to edges: inout [Edge]
  ) {
    if ay == by || !ay.isFinite || !by.isFinite { return }
    edges.append(Edge(ax, ay, bx, by))
  }

  /// Adds the edges of the ring `range` of the points, closed (as every ring is for filling),
  /// to `edges`, leaving out horizontal edges and those with an end that is not finite, and
  /// widens `bounds` over its points.
  @inline(__always)
  static func addRing(
    _ xs: UnsafeBufferPointer<Double>, _ ys: UnsafeBufferPointer<Double>, _ range: Range<Int>,
    to edges: inout [Edge], bounds b: inout Bounds
  ) {
    for i in range {
      let j = i + 1 < range.upperBound ? i + 1 : range.lowerBound
      b.widen(xs[i], ys[i])
      addEdge(xs[i], ys[i], xs[j], ys[j], to: &edges)
    }
  }

  /// `v` held within `low...high`; not a number is `low`.
  @inline(__always) static func held(_ v: Double, _ low: Double, _ high: Double) -> Double {
    v > low ? (v < high ? v : high) : low
  }

  /// The rows of `clip` whose centres lie within `bounds` (first > last: none). The bounds are
  /// held within a dot of the clip before they become integers: one beyond any integer,
  /// infinite or not a number never traps.
  @inline(__always) static func rows(_ bounds: Bounds, _ clip: DotRect) -> (first: Int, last: Int) {
    rows(bounds, clip, within: (Double(clip.minY - 1), Double(clip.maxY + 1)))
  }

  /// `rows(_:_:)` with the clip's rows held by (`clip.minY − 1`, `clip.maxY + 1`) converted
  /// already (`FillRaster` does it once for all its fills).
  @inline(__always) static func rows(
    _ bounds: Bounds, _ clip: DotRect, within ends: (low: Double, high: Double)
  ) -> (first: Int, last: Int) {
    let (low, high) = ends
    return (
      max(clip.minY, smallCeiling(held(bounds.minY, low, high) - 0.5)),
      min(clip.maxY - 1, smallFloor(held(bounds.maxY, low, high) - 0.5))
    )
  }

  /// The columns of `clip` whose dots' centres lie between two crossings of a row (first >
  /// last: none), the crossings held within a dot of the clip as `rows` holds the bounds.
  /// Both ends are worked out at once, as a pair: each lane is held (`held`: `maxpd` then
  /// `minpd`, not a number becoming the low end) and rounded up as `smallCeiling` rounds it,
  /// the same operations on the same values, so the same columns (`FillRingWriterTests`
  /// compares them), in about half the instructions of two scalar ends.
  @inline(__always) static func span(_ from: Double, _ to: Double, _ clip: DotRect) -> (
    first: Int, last: Int
  ) {
    span(from, to, SpanEnds(clip))
  }

  /// What `span` takes from the clip, worked out once (`FillRaster` keeps it for all its
  /// fills: converted in each row's span, the conversions' overflow tests stayed in the row).
  struct SpanEnds {
    /// A dot beyond the clip's left and right ends (`held`'s low and high).
    let low: SIMD2<Double>
    let high: SIMD2<Double>
    /// The clip's first and last columns.
    let first: Int
    let last: Int

    @inline(__always) init(_ clip: DotRect) {
      low = SIMD2(repeating: Double(clip.minX - 1))
      high = SIMD2(repeating: Double(clip.maxX + 1))
      (first, last) = (clip.minX, clip.maxX - 1)
    }
  }

  /// `span(_:_:_:)` with the clip's ends worked out already.
  @inline(__always) static func span(_ from: Double, _ to: Double, _ ends: SpanEnds) -> (
    first: Int, last: Int
  ) {
    let (low, high) = (ends.low, ends.high)
    let v = SIMD2(from, to)
    // (`held`: v > low ? (v < high ? v : high) : low.)
    let h = low.replacing(with: v, where: v .> low)
    let u = high.replacing(with: h, where: h .< high) - 0.5
    // (`smallCeiling` of each lane: the biased sum's low 32 bits, one more where below.)
    let bias = SIMD2(repeating: 6_755_399_441_055_744.0)
    let t = u + bias
    let below = unsafeBitCast(t - bias .< u, to: SIMD2<Int64>.self)
    let r = unsafeBitCast(t, to: SIMD2<Int64>.self) &- below
    return (
      max(Int(Int32(truncatingIfNeeded: r.x)), ends.first),
      min(Int(Int32(truncatingIfNeeded: r.y)) &- 1, ends.last)
    )
  }

  /// `Int(v.rounded(.up))` for |v| < 2^31 (a clip's coordinate held within a dot), without the
  /// call to the C library's `ceil` or a checked conversion: v plus 1.5 × 2^52 is v rounded to
  /// a whole number (the sum's units are ones), which the sum's low 32 bits hold; one more
  /// where that is below v (it is within a half of v).
  @inline(__always) static func smallCeiling(_ v: Double) -> Int {
    let bias = 6_755_399_441_055_744.0
    let t = v + bias
    let r = Int(Int32(truncatingIfNeeded: t.bitPattern))
    return t - bias < v ? r &+ 1 : r
  }

  /// `Int(v.rounded(.down))` for |v| < 2^31, as `smallCeiling`.
  @inline(__always) static func smallFloor(_ v: Double) -> Int {
    let bias = 6_755_399_441_055_744.0
    let t = v + bias
    let r = Int(Int32(truncatingIfNeeded: t.bitPattern))
    return t - bias > v ? r &- 1 : r
  }

  /// At most how many edges a fill takes each row's crossings from all of (more are taken up
  /// as rows reach their tops).
  static let fewEdges = 16
}
