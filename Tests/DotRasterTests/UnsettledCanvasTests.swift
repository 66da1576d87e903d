import Testing

@testable import DotRaster

@Suite("Canvases handed out with their drawings unsettled")
struct UnsettledCanvasTests {
  /// `TrueColorInkTests.busyContext`'s drawings, with marks plotted among them when `marks`
  /// (24-bit and palette, over and under fills and strokes), and a stroke and a fill whose areas
  /// miss the canvas.
  static func context(count: Int, marks: Bool, on canvas: DotCanvas? = nil) -> DrawingContext {
    let c = TrueColorInkTests.busyContext(count: count / 2, settleEach: false, on: canvas)
    if marks {
      for i in 0..<40 {
        let p = Point2D(x: Double((i * 7) % 32) + 0.5, y: Double((i * 5) % 24) + 0.5)
        c.plot(p, color: i % 3 == 0 ? .yellow : TermColor(red: 90, green: i, blue: 9))
      }
    }
    c.strokeColor = TrueColorInkTests.road
    c.strokeSegment(from: Point2D(x: -50, y: -50), to: Point2D(x: -40, y: -45))
    c.fillColor = TrueColorInkTests.sea
    c.beginPath()
    c.addRect(Rect2D(x: 100, y: 3, width: 5, height: 5))
    c.fillPath()
    // Settled once on the way (as a renderer setting dots itself does), then more drawings.
    c.withCanvas { _ in }
    for i in 0..<(count - count / 2) {
      c.strokeColor = i % 5 == 2 ? .cyan : TermColor(red: 30, green: 200, blue: i % 256)
      c.lineWidth = Double(1 + i % 2)
      c.strokeDotLines { sink in
        sink.move(x: Double((i * 3) % 32) + 0.5, y: Double((i * 17) % 24) + 0.5, dashOffset: 0)
        sink.line(x: Double((i * 19) % 32) + 0.5, y: Double((i * 5) % 24) + 0.5)
      }
    }
    return c
  }

  static let areas: [DotRect?] = [
    nil, DotRect(minX: 4, minY: 4, maxX: 20, maxY: 16),
    DotRect(minX: 3, minY: 1, maxX: 31, maxY: 23),
  ]

  @Test(
    "The cells of an unsettled canvas are those of the settled one, and settling it gives that canvas",
    arguments: [(60, false), (60, true), (9000, true), (9000, false)])
  func sameAsSettled(_ count: Int, _ marks: Bool) {
    let settled = Self.context(count: count, marks: marks).takeCanvas()
    var (dots, pending) = Self.context(count: count, marks: marks).takeCanvasUnsettled()
    #expect(!pending.isEmpty)
    #expect(dots.dots.contains { $0.raw >= DrawingContext.pendingBase })
    for area in Self.areas {
      let cells = CellCanvas(dots, pending: pending, within: area)
      #expect(cells == CellCanvas(settled, within: area))
    }
    #expect(CellCanvas(dots, pending: pending).trueColors.contains { $0 != 0 })
    pending.settle(&dots)
    #expect(dots == settled)
    #expect(TrueColorInkTests.colours(dots) == TrueColorInkTests.colours(settled))
  }

  @Test("A canvas used again (cleared, its colour plane kept spare) sums and settles the same")
  func reusedCanvas() {
    var used = Self.context(count: 80, marks: true).takeCanvas()
    used.clearInkedCells(of: CellCanvas(used))
    let settled = Self.context(count: 50, marks: true, on: used).takeCanvas()
    var (dots, pending) = Self.context(count: 50, marks: true, on: used).takeCanvasUnsettled()
    #expect(CellCanvas(dots, pending: pending) == CellCanvas(settled))
    pending.settle(&dots)
    #expect(dots == settled)
  }

  /// Drawings on a canvas that keeps no colour plane (nothing settled on the way), with draws
  /// of one ink in two 24-bit colours (one palette index) sharing cells: on a blank canvas the
  /// context is told of (`kind` 0), over palette inks set before on layers below and above
  /// the drawings' (1), or with palette marks plotted among the drawings (2).
  static func planeless(kind: Int) -> DrawingContext {
    var canvas = DotCanvas(width: 32, height: 24)
    if kind == 1 {
      for i in 0..<90 {
        canvas.plot(
          x: (i * 7) % 32, y: (i * 5) % 24,
          ink: Ink(layer: UInt32(1 + i % 3), color: TermColor(UInt8(16 + i % 200))))
      }
    }
    let c = DrawingContext(canvas: canvas)
    if kind != 1 { c.holdsNoInk() }
    for i in 0..<60 {
      let (x, y) = c.drawBusy(i, dashed: false)
      if kind == 2 && i % 10 == 5 { c.plot(Point2D(x: x + 1.5, y: y + 0.5), color: .yellow) }
    }
    for (i, red) in [200, 201, 200, 202].enumerated() {
      c.fillColor = TermColor(red: red, green: 10, blue: 0)
      c.fillPattern = i % 2 == 0 ? .solid : .checker
      c.beginPath()
      c.addRect(Rect2D(x: Double(3 * i), y: Double(i), width: 7, height: 9))
      c.fillPath()
      c.strokeColor = TermColor(red: red, green: 10, blue: 0)
      c.strokeSegment(
        from: Point2D(x: 0.5, y: Double(2 * i) + 0.5), to: Point2D(x: 31.5, y: Double(i) + 0.5))
    }
    return c
  }

  @Test(
    "Pending inks on a canvas without a colour plane sum to the settled canvas's cells",
    arguments: [0, 1, 2])
  func planelessSameAsSettled(_ kind: Int) {
    let settled = Self.planeless(kind: kind).takeCanvas()
    var (dots, pending) = Self.planeless(kind: kind).takeCanvasUnsettled()
    #expect(!dots.hasTrueColor)
    #expect(pending.plain == (kind == 0))
    #expect(
      TermColor(red: 200, green: 10, blue: 0).index == TermColor(red: 201, green: 10, blue: 0).index
    )
    for area in Self.areas {
      let cells = CellCanvas(dots, pending: pending, within: area)
      #expect(cells == CellCanvas(settled, within: area), "\(String(describing: area))")
    }
    #expect(CellCanvas(dots, pending: pending).trueColors.contains { $0 != 0 })
    pending.settle(&dots)
    #expect(dots == settled)
  }

  @Test("A plain tile's cell bits are its dots with bit 31, for every pattern of dots")
  func plainBitsEveryPattern() {
    for pattern in 0...255 {
      // Each dot inked (bit 31 and an ink) or not (0, or bits below 31 only, which a plain
      // tile never holds: they do not count either).
      var rows: [UInt64] = []
      for dy in 0..<4 {
        var pair: (left: UInt32, right: UInt32) = (0, 0)
        for dx in 0..<2 {
          let inked = UInt8(pattern) & CellGeometry.brailleBit(dx: dx, dy: dy) != 0
          let junk = UInt32((pattern * 37 + dx * 11 + dy * 5) % 3) * 0x1234_5677
          let dot = inked ? DrawingContext.pendingBase | UInt32(pattern * 8 + dy) : junk
          if dx == 0 { pair.left = dot } else { pair.right = dot }
        }
        #if _endian(big)
          rows.append(UInt64(pair.left) << 32 | UInt64(pair.right))
        #else
          rows.append(UInt64(pair.right) << 32 | UInt64(pair.left))
        #endif
      }
      #expect(CellCanvas.plainBits(rows[0], rows[1], rows[2], rows[3]) == UInt8(pattern))
    }
  }

  @Test("A cell's highest dot is the highest of its eight, in either half of any row")
  func highestOfEight() {
    var g = SystemRandomNumberGenerator()
    let picks: [UInt32] = [0, 1, 0x7FFF_FFFF, 0x8000_0000, 0x8000_1001, 0xFFFF_FFFE]
    for _ in 0..<2000 {
      let dots = (0..<8).map { _ in
        Bool.random(using: &g)
          ? picks.randomElement(using: &g)! : UInt32.random(in: 0...UInt32.max, using: &g)
      }
      let rows = (0..<4).map { UInt64(dots[2 * $0 + 1]) << 32 | UInt64(dots[2 * $0]) }
      #expect(CellCanvas.highest(rows[0], rows[1], rows[2], rows[3]) == dots.max()!)
    }
  }

  @Test(
    "Cells of pending inks paint what the settled canvas paints (24-bit and palette colours)",
    arguments: [0, 1, 2])
  func planelessPaintsAsSettled(_ kind: Int) {
    let settled = Self.planeless(kind: kind).takeCanvas()
    let (dots, pending) = Self.planeless(kind: kind).takeCanvasUnsettled()
    var (a, b) = (CellBuffer(columns: 16, rows: 6), CellBuffer(columns: 16, rows: 6))
    CellCanvas(dots, pending: pending).paint(into: &a, charset: .braille)
    settled.paint(into: &b, charset: .braille)
    #expect(a == b)
    #expect(
      (0..<6).contains { r in (0..<16).contains { a[$0, r].foreground?.isTrueColor == true } })
  }

  @Test(
    "Cells painted glyph by glyph in their 24-bit or top ink's colour, odd widths too",
    arguments: [0, 1, 2])
  func paintsEachCell(_ kind: Int) {
    let (dots, pending) = Self.planeless(kind: kind).takeCanvasUnsettled()
    // 15, 16 and 1 columns (two cells a turn, and the last one of an odd row apart).
    for area in [
      DotRect(minX: 3, minY: 1, maxX: 31, maxY: 23), DotRect(minX: 0, minY: 0, maxX: 32, maxY: 24),
      DotRect(minX: 9, minY: 5, maxX: 10, maxY: 20),
    ] {
      let cells = CellCanvas.cropped(dots, pending: pending, to: area).cells
      var buffer = CellBuffer(columns: 16, rows: 6)
      cells.paint(into: &buffer, charset: .braille)
      let blank = CellBuffer(columns: 16, rows: 6)
      for r in 0..<6 {
        for c in 0..<16 {
          guard r < cells.rows && c < cells.columns && cells.bits[r * cells.columns + c] != 0 else {
            #expect(buffer[c, r] == blank[c, r])
            continue
          }
          let i = r * cells.columns + c
          let colour =
            cells.trueColors[i] != 0
            ? TermColor(raw: cells.trueColors[i]) : Ink(raw: cells.top[i]).color
          #expect(buffer[c, r].glyph == Charset.braille.glyph(forDots: cells.bits[i]))
          #expect(buffer[c, r].foreground == colour)
        }
      }
    }
  }

  @Test("Palette drawings alone leave nothing pending, and the context draws nothing afterwards")
  func paletteOnly() {
    let c = DrawingContext(canvas: DotCanvas(columns: 2, rows: 1))
    c.fillColor = .blue
    c.beginPath()
    c.addRect(Rect2D(x: 0.5, y: 0.5, width: 2, height: 2))
    c.fillPath()
    let (dots, pending) = c.takeCanvasUnsettled()
    #expect(pending.isEmpty)
    #expect(!dots.hasTrueColor)
    #expect(CellCanvas(dots, pending: pending) == CellCanvas(dots))
    c.fillPath()
    #expect(c.takeCanvas().width == 0)
  }
}
