import Testing

@testable import DotRaster

@Suite("Strokes: exact dots, width, dashes, clip")
struct StrokeTests {
  func stroke(
    _ points: [Point2D], width: Int = 20, height: Int = 12,
    setup: (DrawingContext) -> Void = { _ in }
  ) -> DotCanvas {
    let c = makeContext(width: width, height: height)
    setup(c)
    c.beginPath()
    c.addLines(between: points)
    c.strokePath()
    return c.takeCanvas()
  }

  @Test("A horizontal line sets exactly the dots under it")
  func horizontal() {
    let canvas = stroke([Point2D(x: 0.5, y: 2.5), Point2D(x: 9.5, y: 2.5)])
    #expect(canvas.inkedDots == row(2, 0...9))
  }

  @Test(
    "A stroke begun while another's lines are handed over draws nothing; the outer one and later ones draw"
  )
  func strokeWithinStrokeDrawsNothing() {
    let c = makeContext(width: 40, height: 24)
    c.strokeDotLines { sink in
      sink.move(x: 0.5, y: 2.5, dashOffset: 0)
      c.strokeSegment(from: Point2D(x: 0.5, y: 8.5), to: Point2D(x: 9.5, y: 8.5))
      c.strokeDotLines { inner in
        inner.move(x: 0.5, y: 12.5, dashOffset: 0)
        inner.line(x: 9.5, y: 12.5)
      }
      let points = [Point2D(x: 0.5, y: 14.5), Point2D(x: 9.5, y: 14.5)]
      points.withUnsafeBufferPointer { c.strokePolyline($0) }
      sink.line(x: 9.5, y: 2.5)
    }
    c.strokeSegment(from: Point2D(x: 0.5, y: 20.5), to: Point2D(x: 9.5, y: 20.5))
    c.strokeDotLines { sink in
      sink.move(x: 0.5, y: 22.5, dashOffset: 0)
      sink.line(x: 9.5, y: 22.5)
    }
    #expect(c.takeCanvas().inkedDots == row(2, 0...9).union(row(20, 0...9)).union(row(22, 0...9)))
  }

  @Test(
    "A stroke's sink may lift beyond the clip when solid and at most a dot each side of its line",
    arguments: [
      (1.0, [Double](), true), (1.74, [], true), (1.75, [], true), (2.0, [], true),
      (2.0000001, [], false), (3.0, [], false), (1.0, [2, 1], false), (2.0, [1, 1], false),
    ])
  func sinkMayLiftBeyondClip(_ width: Double, _ dash: [Double], _ lifts: Bool) {
    let c = makeContext(width: 40, height: 24)
    c.lineWidth = width
    c.setLineDash(phase: 0, lengths: dash)
    var seen: Bool?
    c.strokeDotLines { sink in
      seen = sink.mayLiftBeyondClip
      #expect(
        sink.mayLiftBeyondClip == (sink.stroker.dashTotal <= 0 && sink.stroker.brush.reach <= 1))
    }
    #expect(seen == lifts)
  }

  @Test("A vertical line sets exactly the dots under it")
  func vertical() {
    let canvas = stroke([Point2D(x: 3.5, y: 1.5), Point2D(x: 3.5, y: 10.5)])
    #expect(canvas.inkedDots == column(3, 1...10))
  }

  @Test("A 45° diagonal sets one dot per step on the diagonal")
  func diagonal() {
    let canvas = stroke([Point2D(x: 0.5, y: 0.5), Point2D(x: 7.5, y: 7.5)])
    #expect(canvas.inkedDots == Set((0...7).map { Dot($0, $0) }))
  }

  @Test("A shallow diagonal sets one dot per column, stepping down evenly")
  func shallowDiagonal() {
    let canvas = stroke([Point2D(x: 0.5, y: 0.5), Point2D(x: 8.5, y: 4.5)])
    let expected: Set<Dot> = [
      Dot(0, 0), Dot(1, 1), Dot(2, 1), Dot(3, 2), Dot(4, 2), Dot(5, 3), Dot(6, 3), Dot(7, 4),
      Dot(8, 4),
    ]
    #expect(canvas.inkedDots == expected)
  }

  @Test("Stroke ink is on the stroke layer in the stroke colour; nil colour strokes nothing")
  func strokeInk() {
    let red = stroke([Point2D(x: 0.5, y: 0.5), Point2D(x: 3.5, y: 0.5)]) { $0.strokeColor = .red }
    #expect(red[2, 0] == Ink(layer: DrawingContext.strokeLayer, color: .red))
    let none = stroke([Point2D(x: 0.5, y: 0.5), Point2D(x: 3.5, y: 0.5)]) { $0.strokeColor = nil }
    #expect(none.isBlank)
  }

  /// How many dots thick a horizontal line is, measured in its middle.
  func thickness(lineWidth: Double, scale: Double = 1) -> Int {
    let canvas = stroke(
      [Point2D(x: 4.5 / scale, y: 15.5 / scale), Point2D(x: 35.5 / scale, y: 15.5 / scale)],
      width: 40, height: 32
    ) { c in
      c.scaleBy(x: scale, y: scale)
      c.lineWidth = lineWidth
    }
    return (0..<32).filter { !canvas[20, $0].isEmpty }.count
  }

  @Test("Thick strokes: 1, 3 and 5 dots wide, with the width scaled by the transform")
  func thickStroke() {
    #expect(thickness(lineWidth: 1) == 1)
    #expect(thickness(lineWidth: 3) == 3)
    #expect(thickness(lineWidth: 5) == 5)
    #expect(thickness(lineWidth: 9) == 9)
    // A width in user units is multiplied by the transform's scale.
    #expect(thickness(lineWidth: 0.5, scale: 6) == 3)
    #expect(thickness(lineWidth: 0.001, scale: 1000) == 1)
  }

  @Test("A thick stroke is centred on its line")
  func thickStrokeCentred() {
    let canvas = stroke([Point2D(x: 4.5, y: 6.5), Point2D(x: 15.5, y: 6.5)], width: 20, height: 14)
    {
      $0.lineWidth = 3
    }
    #expect(column(10, 5...7).isSubset(of: canvas.inkedDots))
    #expect(canvas[10, 4].isEmpty && canvas[10, 8].isEmpty)
  }

  @Test("A dash pattern [3, 2] inks 3 dots and skips 2")
  func dashPattern() {
    let line = [Point2D(x: 0.5, y: 0.5), Point2D(x: 19.5, y: 0.5)]
    let dashed = stroke(line) { $0.setLineDash(phase: 0, lengths: [3, 2]) }
    #expect(dashed.inkedDots == row(0, [0, 1, 2, 5, 6, 7, 10, 11, 12, 15, 16, 17]))
    let shifted = stroke(line) { $0.setLineDash(phase: 1, lengths: [3, 2]) }
    #expect(shifted.inkedDots == row(0, [0, 1, 4, 5, 6, 9, 10, 11, 14, 15, 16, 19]))
    // Lengths are in user units: at scale 2, [1.5, 1] is the same 3-on 2-off in dots.
    let scaled = stroke([Point2D(x: 0.25, y: 0.25), Point2D(x: 9.75, y: 0.25)]) { c in
      c.scaleBy(x: 2, y: 2)
      c.lineWidth = 0.5
      c.setLineDash(phase: 0, lengths: [1.5, 1])
    }
    #expect(scaled.inkedDots == dashed.inkedDots)
    // An empty, all-zero or negative pattern draws a solid line.
    for lengths in [[], [0, 0], [3, -1]] as [[Double]] {
      let solid = stroke(line) { $0.setLineDash(phase: 0, lengths: lengths) }
      #expect(solid.inkedDots == row(0, 0...19), "\(lengths)")
    }
  }

  @Test("A line stroked in pieces keeps its dashes when each piece says how far along it starts")
  func dashOffset() {
    let whole = stroke([Point2D(x: 0.5, y: 0.5), Point2D(x: 19.5, y: 0.5)]) {
      $0.setLineDash(phase: 0, lengths: [3, 2])
    }
    for scale in [1.0, 2.0] {
      let c = makeContext(width: 20, height: 12)
      c.scaleBy(x: scale, y: scale)
      c.lineWidth = 1 / scale
      c.setLineDash(phase: 0, lengths: [3 / scale, 2 / scale])
      c.move(to: Point2D(x: 0.5 / scale, y: 0.5 / scale))
      c.addLine(to: Point2D(x: 7.5 / scale, y: 0.5 / scale))
      c.move(to: Point2D(x: 7.5 / scale, y: 0.5 / scale), dashOffset: 7 / scale)
      c.addLine(to: Point2D(x: 19.5 / scale, y: 0.5 / scale))
      c.strokePath()
      #expect(c.takeCanvas() == whole, "scale \(scale)")
    }
    // Without the offset the second piece restarts the pattern (the test can fail).
    let restarted = stroke([Point2D(x: 0.5, y: 0.5)]) { c in
      c.setLineDash(phase: 0, lengths: [3, 2])
      c.addLine(to: Point2D(x: 7.5, y: 0.5))
      c.move(to: Point2D(x: 7.5, y: 0.5))
      c.addLine(to: Point2D(x: 19.5, y: 0.5))
    }
    #expect(restarted != whole)
  }

  @Test("Nothing is drawn outside the clip rect, however thick the line")
  func clip() {
    let line = [Point2D(x: 0.5, y: 5.5), Point2D(x: 19.5, y: 5.5)]
    let thin = stroke(line) { $0.clip(to: Rect2D(x: 4, y: 0, width: 8, height: 12)) }
    #expect(thin.inkedDots == row(5, 4...11))
    let thick = stroke(line) { c in
      c.clip(to: Rect2D(x: 4, y: 4, width: 8, height: 3))
      c.lineWidth = 7
    }
    #expect(thick.inkedDots == Set((4...6).flatMap { y in (4...11).map { Dot($0, y) } }))
  }

  @Test("Clips combine, and restoreGState undoes a clip")
  func clipState() {
    let c = makeContext(width: 20, height: 12)
    c.saveGState()
    c.clip(to: Rect2D(x: 2, y: 0, width: 10, height: 12))
    c.clip(to: Rect2D(x: 6, y: 0, width: 10, height: 12))
    #expect(c.clipBounds == DotRect(minX: 6, minY: 0, maxX: 12, maxY: 12))
    c.restoreGState()
    #expect(c.clipBounds == DotRect(minX: 0, minY: 0, maxX: 20, maxY: 12))
    c.beginPath()
    c.addLines(between: [Point2D(x: 0.5, y: 0.5), Point2D(x: 19.5, y: 0.5)])
    c.strokePath()
    #expect(c.takeCanvas().inkedDots == row(0, 0...19))
  }

  @Test("A closed path strokes its closing edge; an open one does not")
  func closedPath() {
    let square = [Point2D(x: 1.5, y: 1.5), Point2D(x: 6.5, y: 1.5), Point2D(x: 6.5, y: 6.5)]
    let open = makeContext(width: 10, height: 10)
    open.addLines(between: square + [Point2D(x: 1.5, y: 6.5)])
    open.strokePath()
    let closed = makeContext(width: 10, height: 10)
    closed.addLines(between: square + [Point2D(x: 1.5, y: 6.5)])
    closed.closePath()
    closed.strokePath()
    #expect(open.takeCanvas().inkedDots.contains(Dot(1, 4)) == false)
    #expect(closed.takeCanvas().inkedDots.contains(column(1, 1...6)))
  }

  @Test("strokeSegment and strokePolyline match a stroked path")
  func segmentAndPolyline() {
    let pts = [Point2D(x: 0.5, y: 0.5), Point2D(x: 9.5, y: 4.5), Point2D(x: 14.5, y: 10.5)]
    let path = stroke(pts)
    let seg = makeContext(width: 20, height: 12)
    seg.strokeSegment(from: pts[0], to: pts[1])
    seg.strokeSegment(from: pts[1], to: pts[2])
    let poly = makeContext(width: 20, height: 12)
    pts.withUnsafeBufferPointer { poly.strokePolyline($0) }
    #expect(seg.takeCanvas() == path)
    #expect(poly.takeCanvas() == path)
    #expect(path.inkedCount > 15)
  }

  @Test(
    "strokeDotLines draws the dots of the same path stroked: thin, wide and dashed, clipped, with one-point subpaths",
    arguments: [(1.0, [Double]()), (3.0, []), (1.0, [2, 1]), (2.5, [3, 2, 1, 2])])
  func strokeAsItComes(_ width: Double, _ dash: [Double]) {
    // Subpaths of pseudo-random points across and beyond a clipped 40 × 24 canvas.
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(seed >> 11) / Double(1 << 53) * 60 - 10
    }
    var subpaths: [(offset: Double, points: [(Double, Double)])] = []
    for n in 0..<24 {
      let count = n % 5 == 0 ? 1 : 2 + n % 4
      subpaths.append((Double(n) * 0.7, (0..<count).map { _ in (next(), next()) }))
    }
    func context() -> DrawingContext {
      let c = makeContext(width: 40, height: 24)
      c.lineWidth = width
      c.setLineDash(phase: 0.5, lengths: dash)
      c.clip(to: Rect2D(x: 3, y: 2, width: 30, height: 19))
      return c
    }
    let viaPath = context()
    viaPath.withDotPath { path in
      for s in subpaths {
        path.move(x: s.points[0].0, y: s.points[0].1, dashOffset: s.offset)
        for p in s.points.dropFirst() { path.line(x: p.0, y: p.1) }
      }
    }
    viaPath.strokePath()
    let asItComes = context()
    asItComes.strokeDotLines { sink in
      for s in subpaths {
        sink.move(x: s.points[0].0, y: s.points[0].1, dashOffset: s.offset)
        for p in s.points.dropFirst() { sink.line(x: p.0, y: p.1) }
      }
    }
    let expected = viaPath.takeCanvas()
    #expect(asItComes.takeCanvas() == expected)
    #expect(expected.inkedCount > 100)
    // No stroke colour: nothing drawn.
    let none = context()
    none.strokeColor = nil
    none.strokeDotLines { $0.line(x: 5, y: 5) }
    #expect(none.takeCanvas().isBlank)
  }

  /// Segments for the clip tests: pseudo-random ends across and beyond a 40 × 24 canvas,
  /// some on whole dots and halves, some far outside.
  func clipTestSegments() -> [(Double, Double, Double, Double)] {
    var seed: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ n: Int) -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let v = Double(seed >> 11) / Double(1 << 53) * 70 - 15
      switch n % 4 {
      case 0: return v.rounded(.down)
      case 1: return v.rounded(.down) + 0.5
      default: return v
      }
    }
    var out = (0..<300).map { n in (next(n), next(n / 3), next(n / 5), next(n / 7)) }
    out += [(-5e5, 3.5, 2e5, 20.25), (7, -1e9, 9.5, 1e9), (-30, -30, 70, 54), (39.99, 0, 0, 23.99)]
    return out
  }

  @Test(
    "A thin segment's dots are its ends' dots joined by ⌊p0 + f·k⌋ across the major axis, cut by the clip"
  )
  func thinSegmentDotsFollowTheRule() {
    let clip = (x: 3, y: 2, width: 30, height: 19)
    for (x0, y0, x1, y1) in clipTestSegments() {
      let c = makeContext(width: 40, height: 24)
      c.clip(to: Rect2D(x: 3, y: 2, width: 30, height: 19))
      c.strokeSegment(from: Point2D(x: x0, y: y0), to: Point2D(x: x1, y: y1))
      // The rule, in doubles, as the general path states it.
      let (ix0, iy0) = (Int(x0.rounded(.down)), Int(y0.rounded(.down)))
      let (ix1, iy1) = (Int((x0 + (x1 - x0)).rounded(.down)), Int((y0 + (y1 - y0)).rounded(.down)))
      let steps = max(abs(ix1 - ix0), abs(iy1 - iy0))
      // (A billion steps is too many to check here; the next test draws it.)
      guard steps < 5_000_000 else { continue }
      var expected = Set<Dot>()
      let xMajor = abs(ix1 - ix0) >= abs(iy1 - iy0)
      for k in 0...steps {
        let f = steps == 0 ? 0 : Double(xMajor ? iy1 - iy0 : ix1 - ix0) / Double(steps)
        let (x, y) =
          xMajor
          ? (ix0 + (ix1 >= ix0 ? k : -k), Int((Double(iy0) + 0.5 + f * Double(k)).rounded(.down)))
          : (Int((Double(ix0) + 0.5 + f * Double(k)).rounded(.down)), iy0 + (iy1 >= iy0 ? k : -k))
        if x >= clip.x && x < clip.x + clip.width && y >= clip.y && y < clip.y + clip.height {
          expected.insert(Dot(x, y))
        }
      }
      #expect(c.takeCanvas().inkedDots == expected, "\((x0, y0, x1, y1))")
    }
  }

  @Test(
    "A segment cut by a clip draws the dots it draws whole, inside the clip: thin, wide, dashed",
    arguments: [(1.0, [Double]()), (3.0, []), (1.0, [2, 1]), (2.0, [1, 1])])
  func clippedSegmentKeepsItsDots(_ width: Double, _ dash: [Double]) {
    let clip = Rect2D(x: 5, y: 3, width: 17, height: 11)
    var inked = 0
    for (x0, y0, x1, y1) in clipTestSegments() {
      func draw(_ clipped: Bool) -> Set<Dot> {
        let c = makeContext(width: 40, height: 24)
        c.lineWidth = width
        c.setLineDash(phase: 0.25, lengths: dash)
        if clipped { c.clip(to: clip) }
        c.strokeSegment(from: Point2D(x: x0, y: y0), to: Point2D(x: x1, y: y1))
        return c.takeCanvas().inkedDots
      }
      let whole = draw(false).filter {
        $0.x >= 5 && $0.x < 22 && $0.y >= 3 && $0.y < 14
      }
      #expect(draw(true) == whole, "\((x0, y0, x1, y1))")
      inked += whole.count
    }
    #expect(inked > 300)
  }

  /// The dots of a brush `w` dots wide around (0, 0), as the rule states them: every dot
  /// within `reach` = ⌈w / 2⌉ each way whose dx² + dy² is at most (w / 2)² + ¼ (a dot alone
  /// below 1.75).
  static func brushDots(_ w: Double) -> [(dx: Int, dy: Int)] {
    if w < 1.75 { return [(0, 0)] }
    let r = w / 2
    let reach = Int(r.rounded(.up))
    var out: [(dx: Int, dy: Int)] = []
    for dy in -reach...reach {
      for dx in -reach...reach where Double(dx * dx + dy * dy) <= r * r + 0.25 {
        out.append((dx, dy))
      }
    }
    return out
  }

  @Test(
    "A brush stamps the dots within (w / 2)² + ¼ of its centre, row by row, cut by the clip",
    arguments: [
      0.5, 1, 1.74, 1.75, 1.9, 1.94, 2, 2.0000001, 2.5, 3, 3.3, 3.9, 4, 5.5, 7, 8.06, 10, 21.3,
    ])
  func brushRows(_ w: Double) {
    let brush = Brush(widthInDots: w)
    let dots = Self.brushDots(w)
    #expect(brush.reach == (w < 1.75 ? 0 : Int((w / 2).rounded(.up))))
    #expect(dots.allSatisfy { max(abs($0.dx), abs($0.dy)) <= brush.reach })
    // Centres inside, on and beyond each edge of a clip of a 40 × 30 canvas.
    let clip = DotRect(minX: 4, minY: 3, maxX: 31, maxY: 22)
    for (x, y) in [(15, 12), (4, 3), (30, 21), (2, 12), (33, 12), (15, 0), (15, 25), (-9, -9)] {
      var canvas = DotCanvas(width: 40, height: 30)
      let ink = Ink(layer: 2, color: .white)
      canvas.withDots { brush.stamp(x, y, clip: clip, width: 40, ink: ink, $0) }
      var expected = Set<Dot>()
      for o in dots {
        let (dx, dy) = (x + o.dx, y + o.dy)
        if dx >= 4 && dx < 31 && dy >= 3 && dy < 22 { expected.insert(Dot(dx, dy)) }
      }
      #expect(canvas.inkedDots == expected, "w \(w) at \(x), \(y)")
    }
  }

  @Test(
    "A wide segment's dots are its steps' brushes (dashed: the steps the dash test passes), cut by the clip",
    arguments: [
      (1.75, [Double]()), (2.0, []), (2.3, []), (3.3, []), (4.0, []), (6.5, []), (2.0, [2, 1]),
      (3.3, [1.5, 2.5]),
    ])
  func wideSegmentDotsFollowTheRule(_ w: Double, _ dash: [Double]) {
    let clip = (x: 3, y: 2, width: 30, height: 19)
    let brush = Self.brushDots(w)
    var inked = 0
    var segments = clipTestSegments()
    // Zero-length segments, on whole dots and not, in and beyond the clip.
    segments += [(7, 7, 7, 7), (3.5, 2.5, 3.5, 2.5), (1, 1, 1, 1), (33.2, 20.9, 33.2, 20.9)]
    for (x0, y0, x1, y1) in segments {
      let c = makeContext(width: 40, height: 24)
      c.clip(to: Rect2D(x: 3, y: 2, width: 30, height: 19))
      c.lineWidth = w
      c.setLineDash(phase: 0.25, lengths: dash)
      c.strokeSegment(from: Point2D(x: x0, y: y0), to: Point2D(x: x1, y: y1))
      // The rule, in doubles, as the general path states it.
      let (ix0, iy0) = (Int(x0.rounded(.down)), Int(y0.rounded(.down)))
      let (ix1, iy1) = (Int((x0 + (x1 - x0)).rounded(.down)), Int((y0 + (y1 - y0)).rounded(.down)))
      let steps = max(abs(ix1 - ix0), abs(iy1 - iy0))
      // (A billion steps is too many to check here.)
      guard steps < 5_000_000 else { continue }
      let length = ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).squareRoot()
      let stepLength = steps == 0 ? 0 : length / Double(steps)
      var expected = Set<Dot>()
      let xMajor = abs(ix1 - ix0) >= abs(iy1 - iy0)
      for k in 0...steps {
        guard
          Stroker.dashIsOn(
            at: Double(k) * stepLength, dashes: dash, dashTotal: dash.reduce(0, +),
            dashPhase: 0.25)
        else { continue }
        let f = steps == 0 ? 0 : Double(xMajor ? iy1 - iy0 : ix1 - ix0) / Double(steps)
        let (x, y) =
          xMajor
          ? (ix0 + (ix1 >= ix0 ? k : -k), Int((Double(iy0) + 0.5 + f * Double(k)).rounded(.down)))
          : (Int((Double(ix0) + 0.5 + f * Double(k)).rounded(.down)), iy0 + (iy1 >= iy0 ? k : -k))
        for o in brush {
          let (bx, by) = (x + o.dx, y + o.dy)
          if bx >= clip.x && bx < clip.x + clip.width && by >= clip.y && by < clip.y + clip.height {
            expected.insert(Dot(bx, by))
          }
        }
      }
      let got = c.takeCanvas().inkedDots
      #expect(got == expected, "w \(w) \(dash): \((x0, y0, x1, y1))")
      inked += got.count
    }
    #expect(inked > 1000)
  }

  @Test(
    "A wide segment with an end not finite, or far beyond the clip, draws nothing and does not trap"
  )
  func wideNotFinite() {
    for w in [2.0, 4.5] {
      for (a, b) in [
        (Point2D(x: .nan, y: 3), Point2D(x: 9, y: 9)),
        (Point2D(x: 3, y: .infinity), Point2D(x: 9, y: 9)),
        (Point2D(x: -.infinity, y: 3), Point2D(x: .infinity, y: 3)),
        (Point2D(x: 1e300, y: 3), Point2D(x: 1e300, y: 9)),
        (Point2D(x: -1e19, y: -1e19), Point2D(x: -1e19, y: 1e19)),
      ] {
        let c = makeContext(width: 20, height: 12)
        c.lineWidth = w
        c.strokeSegment(from: a, to: b)
        #expect(c.takeCanvas().isBlank, "\(a) \(b)")
      }
    }
  }

  @Test(
    "floorToIntNear is ⌊v⌋ on whole numbers, halves, values next to them and the ends of its range")
  func floorToIntNearIsFloor() {
    var values: [Double] = [0, -0.0, 0.5, -0.5, 1, -1, 2.5, -2.5, 3.5, 1e-300, -1e-300]
    for n in [-70.0, -3, -1, 0, 1, 2, 63, 64, 1_048_575, 0x1p50] {
      values += [n, n.nextUp, n.nextDown, n + 0.5, (n + 0.5).nextUp, (n + 0.5).nextDown, -n]
    }
    let edge = (0x1p51 as Double).nextDown
    values += [edge, -edge]
    for v in values { #expect(floorToIntNear(v) == Int(v.rounded(.down)), "\(v)") }
  }

  @Test("A zero-length stroke shows as one dot; non-finite points draw nothing")
  func degenerate() {
    let dot = stroke([Point2D(x: 3.2, y: 4.7)])
    #expect(dot.inkedDots == [Dot(3, 4)])
    let bad = stroke([Point2D(x: .nan, y: 1), Point2D(x: 5, y: .infinity)])
    #expect(bad.isBlank)
  }
}

extension Set {
  func contains(_ other: Set<Element>) -> Bool { other.isSubset(of: self) }
}
