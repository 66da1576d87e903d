import Testing

@testable import DotRaster

@Suite("Fills, patterns and ink layers")
struct FillAndInkTests {
  func filled(
    width: Int = 20, height: Int = 20, pattern: DotPattern = .solid,
    origin: (x: Int, y: Int) = (0, 0), _ build: (DrawingContext) -> Void
  ) -> DotCanvas {
    let c = DrawingContext(canvas: DotCanvas(width: width, height: height), patternOrigin: origin)
    c.fillColor = .blue
    c.fillPattern = pattern
    c.beginPath()
    build(c)
    c.fillPath()
    return c.takeCanvas()
  }

  @Test("A rect fill inks the dots whose centres lie inside it")
  func rectFill() {
    let canvas = filled { $0.addRect(Rect2D(x: 2, y: 3, width: 5, height: 4)) }
    #expect(canvas.inkedDots == Set((3..<7).flatMap { y in (2..<7).map { Dot($0, y) } }))
    #expect(canvas[2, 3] == Ink(layer: DrawingContext.fillLayer, color: .blue))
  }

  @Test("Even-odd fill: an inner ring is a hole, whichever way it winds")
  func evenOddHole() {
    for reversed in [false, true] {
      let canvas = filled { c in
        c.addRect(Rect2D(x: 0, y: 0, width: 20, height: 20))
        var hole = [
          Point2D(x: 5, y: 5), Point2D(x: 15, y: 5), Point2D(x: 15, y: 15), Point2D(x: 5, y: 15),
        ]
        if reversed { hole.reverse() }
        c.addLines(between: hole)
        c.closePath()
      }
      // 400 dots less the 10 × 10 hole.
      #expect(canvas.inkedCount == 300, "reversed: \(reversed)")
      #expect(canvas[10, 10].isEmpty)
      #expect(canvas[5, 5].isEmpty && canvas[14, 14].isEmpty)
      #expect(!canvas[4, 4].isEmpty && !canvas[15, 15].isEmpty && !canvas[2, 10].isEmpty)
    }
  }

  @Test("Overlapping rings cancel under even-odd; a triangle fills its inside only")
  func evenOddOverlapAndTriangle() {
    let canvas = filled { c in
      c.addRect(Rect2D(x: 0, y: 0, width: 10, height: 10))
      c.addRect(Rect2D(x: 5, y: 0, width: 10, height: 10))
    }
    // Two 100-dot squares overlapping on 50 dots: 50 + 50 remain.
    #expect(canvas.inkedCount == 100)
    #expect(canvas[7, 5].isEmpty)
    let triangle = filled { c in
      c.addLines(between: [Point2D(x: 0, y: 0), Point2D(x: 16, y: 0), Point2D(x: 0, y: 16)])
      c.closePath()
    }
    // Dots whose centres are strictly inside x + y < 16.
    var expected = Set<Dot>()
    for y in 0..<20 {
      for x in 0..<20 where Double(x) + 0.5 + Double(y) + 0.5 < 16 { expected.insert(Dot(x, y)) }
    }
    #expect(triangle.inkedDots == expected)
  }

  @Test("A fill without a fill colour draws nothing; fill is clipped")
  func fillColourAndClip() {
    let c = DrawingContext(canvas: DotCanvas(width: 10, height: 10))
    c.fillColor = nil
    c.addRect(Rect2D(x: 0, y: 0, width: 10, height: 10))
    c.fillPath()
    #expect(c.takeCanvas().isBlank)
    let clipped = filled(width: 10, height: 10) { c in
      c.clip(to: Rect2D(x: 2, y: 2, width: 3, height: 3))
      c.addRect(Rect2D(x: -100, y: -100, width: 1000, height: 1000))
    }
    #expect(clipped.inkedDots == Set((2..<5).flatMap { y in (2..<5).map { Dot($0, y) } }))
  }

  @Test("A shape smaller than a dot still shows as one dot")
  func speck() {
    let canvas = filled { c in c.addRect(Rect2D(x: 3.2, y: 4.1, width: 0.3, height: 0.2)) }
    #expect(canvas.inkedDots == [Dot(3, 4)])
  }

  @Test("Fill patterns repeat their 2 × 4 mask in every cell")
  func patterns() {
    let square: (DrawingContext) -> Void = { $0.addRect(Rect2D(x: 0, y: 0, width: 8, height: 8)) }
    let cases: [(DotPattern, Int)] = [(.solid, 64), (.checker, 32), (.sparse, 8), (.hatch, 32)]
    for (pattern, count) in cases {
      let canvas = filled(width: 8, height: 8, pattern: pattern, square)
      #expect(canvas.inkedCount == count, "\(pattern)")
      let cells = canvas.cells(charset: .braille)
      for r in 0..<2 {
        for col in 0..<4 {
          #expect(cells[col, r].glyph.value == 0x2800 + UInt32(pattern.bits), "\(pattern)")
        }
      }
    }
    #expect(DotPattern.checker.bits == 0x95)
    #expect(DotPattern.hatch.bits == 0xD2)
  }

  @Test("Fill patterns line up with the absolute dot grid through patternOrigin")
  func patternOrigin() {
    let square: (DrawingContext) -> Void = { $0.addRect(Rect2D(x: 0, y: 0, width: 8, height: 8)) }
    let shifted = filled(width: 8, height: 8, pattern: .checker, origin: (1, 0), square)
    // Moving the grid by one dot turns the checkerboard into its complement.
    #expect(shifted.cells(charset: .braille)[0, 0].glyph.value == 0x2800 + 0x6A)
    // A whole cell's move leaves it as it was.
    let cellShift = filled(width: 8, height: 8, pattern: .checker, origin: (2, 4), square)
    #expect(cellShift == filled(width: 8, height: 8, pattern: .checker, square))
  }

  @Test("Ink layering: the highest layer's colour wins the cell, whatever the order")
  func inkLayering() {
    for order in [false, true] {
      var canvas = DotCanvas(columns: 1, rows: 1)
      let low = (Dot(0, 0), Ink(layer: 2, color: .blue))
      let high = (Dot(1, 3), Ink(layer: 5, color: .red))
      for (d, ink) in order ? [high, low] : [low, high] { canvas.plot(x: d.x, y: d.y, ink: ink) }
      let cell = canvas.cells(charset: .braille)[0, 0]
      #expect(cell.foreground == .red)
      #expect(cell.glyph.value == 0x2800 + 0x01 + 0x80)
    }
    #expect(Ink(layer: 7, color: .cyan).layer == 7)
    #expect(Ink(layer: 7, color: .cyan).color == .cyan)
    #expect(Ink(layer: 0, color: .cyan).layer == 1)
    #expect(!Ink(layer: 0, color: .black).isEmpty)
    #expect(Ink.none.isEmpty)
  }

  @Test("A stroke's colour wins over its own fill in cells they share")
  func strokeAboveFill() {
    let c = DrawingContext(canvas: DotCanvas(columns: 4, rows: 2))
    c.fillColor = .blue
    c.strokeColor = .red
    c.fillPattern = .solid
    c.addRect(Rect2D(x: 0.5, y: 0.5, width: 7, height: 7))
    c.fillAndStrokePath()
    let cells = c.takeCanvas().cells(charset: .braille)
    #expect(cells[0, 0].foreground == .red)  // outline and fill
    #expect(cells[1, 0].foreground == .red)
    let inner = DrawingContext(canvas: DotCanvas(columns: 4, rows: 4))
    inner.fillColor = .blue
    inner.strokeColor = .red
    inner.addRect(Rect2D(x: 0.5, y: 0.5, width: 15, height: 15))
    inner.fillAndStrokePath()
    let innerCells = inner.takeCanvas().cells(charset: .braille)
    #expect(innerCells[2, 2].foreground == .blue)  // fill only
    #expect(innerCells[0, 2].foreground == .red)
  }

  @Test("Compositing keeps the upper layer's colour and never erases dots")
  func composite() {
    var base = DotCanvas(columns: 2, rows: 1)
    base.plot(x: 0, y: 0, ink: Ink(layer: 3, color: .red))
    base.plot(x: 2, y: 0, ink: Ink(layer: 3, color: .red))
    var top = DotCanvas(width: 2, height: 4)
    top.plot(x: 1, y: 1, ink: Ink(layer: 1, color: .green))
    base.composite(top, atX: 0, y: 0, layerBase: 10)
    #expect(base[0, 0] == Ink(layer: 3, color: .red))
    #expect(base[1, 1] == Ink(layer: 11, color: .green))
    let cells = base.cells(charset: .braille)
    #expect(cells[0, 0].foreground == .green)
    #expect(cells[1, 0].foreground == .red)
    // A source placed partly off the canvas is clipped, not wrapped.
    base.composite(top, atX: 3, y: -2, layerBase: 1)
    #expect(base.inkedCount == 3)
    base.composite(top, atX: 100, y: 100, layerBase: 1)
    #expect(base.inkedCount == 3)
  }

  @Test("fillSpan and clear")
  func spansAndClear() {
    var canvas = DotCanvas(width: 10, height: 3)
    canvas.fillSpan(y: 1, from: -5, to: 3, ink: Ink(layer: 1, color: .white))
    canvas.fillSpan(y: 2, from: 8, to: 20, ink: Ink(layer: 1, color: .white))
    canvas.fillSpan(y: 7, from: 0, to: 9, ink: Ink(layer: 1, color: .white))
    #expect(canvas.inkedDots == row(1, 0...3).union(row(2, 8...9)))
    canvas.clear()
    #expect(canvas.isBlank)
  }
}
