import Testing

@testable import DotRaster

@Suite("Fills and strokes in 24-bit colours")
struct TrueColorInkTests {
  static let sea = TermColor(red: 10, green: 20, blue: 250)

  /// Fills the rect from the origin in the sea's 24-bit colour.
  static func fillSea(_ c: DrawingContext, width: Double, height: Double) {
    c.fillColor = sea
    c.beginPath()
    c.addRect(Rect2D(x: 0, y: 0, width: width, height: height))
    c.fillPath()
  }
  static let road = TermColor(red: 250, green: 10, blue: 20)

  /// The foreground of every inked cell of a canvas, row by row ("." for an empty cell).
  static func colours(_ canvas: DotCanvas) -> [[String]] {
    let cells = canvas.cells(charset: .braille)
    return (0..<cells.rows).map { row in
      (0..<cells.columns).map { column in
        guard let c = cells[column, row].foreground else { return "." }
        let (r, g, b) = c.rgb
        return c.isTrueColor ? "\(r),\(g),\(b)" : "\(c.index)"
      }
    }
  }

  @Test(
    "A 24-bit fill and stroke give their cells that exact colour; a palette stroke over them wins")
  func trueColorFillAndStroke() {
    // 8 × 2 cells.
    let c = DrawingContext(canvas: DotCanvas(columns: 8, rows: 2))
    Self.fillSea(c, width: 8, height: 8)
    c.strokeColor = Self.road
    c.strokeSegment(from: Point2D(x: 8.5, y: 0.5), to: Point2D(x: 11.5, y: 7.5))
    // A palette stroke over part of the fill: its cells show the palette colour.
    c.strokeColor = .yellow
    c.strokeSegment(from: Point2D(x: 0.5, y: 4.5), to: Point2D(x: 3.5, y: 4.5))
    let canvas = c.takeCanvas()
    #expect(canvas.hasTrueColor)
    #expect(
      Self.colours(canvas) == [
        ["10,20,250", "10,20,250", "10,20,250", "10,20,250", "250,10,20", ".", ".", "."],
        ["3", "3", "10,20,250", "10,20,250", ".", "250,10,20", ".", "."],
      ])
    // The dots keep the nearest palette colour in their ink, for everything reading inks.
    #expect(canvas[0, 0] == Ink(layer: DrawingContext.fillLayer, color: TermColor(Self.sea.index)))
  }

  @Test("A palette fill over a 24-bit fill on the same layer takes the colour away")
  func paletteOverTrueColorSameLayer() {
    let c = DrawingContext(canvas: DotCanvas(columns: 2, rows: 1))
    Self.fillSea(c, width: 4, height: 4)
    // The nearest palette colour of the sea, the same ink: only the colour plane tells them apart.
    c.fillColor = TermColor(Self.sea.index)
    c.beginPath()
    c.addRect(Rect2D(x: 0, y: 0, width: 2, height: 4))
    c.fillPath()
    #expect(Self.colours(c.takeCanvas()) == [["\(Self.sea.index)", "10,20,250"]])
  }

  @Test("Dot lines, paths, polylines and small-shape batches keep a 24-bit colour too")
  func everyStrokePath() {
    let c = DrawingContext(canvas: DotCanvas(columns: 4, rows: 1))
    c.strokeColor = Self.road
    c.strokeDotLines { sink in
      sink.move(x: 0.5, y: 0.5, dashOffset: 0)
      sink.line(x: 1.5, y: 3.5)
    }
    c.strokeColor = Self.sea
    c.beginPath()
    c.addLines(between: [Point2D(x: 2.5, y: 0.5), Point2D(x: 2.5, y: 3.5)])
    c.strokePath()
    let green = TermColor(red: 0, green: 200, blue: 0)
    c.strokeColor = green
    [Point2D(x: 4.5, y: 0.5), Point2D(x: 5.5, y: 3.5)].withUnsafeBufferPointer {
      c.strokePolyline($0)
    }
    c.fillColor = TermColor(red: 200, green: 200, blue: 0)
    c.strokeColor = nil
    c.withSmallShapes { batch in
      for (x, y) in [(6.0, 0.0), (8.0, 0.0), (8.0, 4.0), (6.0, 4.0)] { batch.addPoint(x: x, y: y) }
      batch.fillRings()
    }
    #expect(
      Self.colours(c.takeCanvas()) == [["250,10,20", "10,20,250", "0,200,0", "200,200,0"]])
  }

  @Test("Palette colours alone make no colour plane (and cost what they did)")
  func paletteOnly() {
    let c = DrawingContext(canvas: DotCanvas(columns: 2, rows: 1))
    c.fillColor = .blue
    c.strokeColor = .red
    c.beginPath()
    c.addRect(Rect2D(x: 0.5, y: 0.5, width: 2, height: 2))
    c.fillAndStrokePath()
    let canvas = c.takeCanvas()
    #expect(!canvas.hasTrueColor)
    #expect(Self.colours(canvas) == [["1", "1"]])
  }

  @Test(
    "strokeDotLines(within:) with the lines' box draws what strokeDotLines draws, 24-bit colours and all",
    arguments: [(1.0, [Double]()), (3.0, []), (2.0, [2, 1])])
  func strokeWithinBox(_ width: Double, _ dash: [Double]) {
    // A 24-bit fill, then three roads over it, one in a palette colour, on 12 × 5 cells.
    let lines: [(TermColor, [(Double, Double)])] = [
      (Self.road, [(3.5, 2.5), (10.5, 15.5), (20.5, 12.5)]),
      (.yellow, [(14.5, 1.5), (14.5, 18.5)]),
      (Self.road, [(16.5, 17.5), (22.5, 3.5), (21.5, 3.5)]),
    ]
    func draw(boxed: Bool) -> DotCanvas {
      let c = DrawingContext(canvas: DotCanvas(columns: 12, rows: 5))
      Self.fillSea(c, width: 16, height: 12)
      c.lineWidth = width
      c.setLineDash(phase: 0, lengths: dash)
      for (colour, points) in lines {
        c.strokeColor = colour
        let xs = points.map(\.0)
        let ys = points.map(\.1)
        let box = Rect2D(
          x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!,
          height: ys.max()! - ys.min()!)
        let body = { (sink: inout DotStrokeSink) in
          sink.move(x: points[0].0, y: points[0].1, dashOffset: 0)
          for p in points.dropFirst() { sink.line(x: p.0, y: p.1) }
        }
        if boxed { c.strokeDotLines(within: box, body) } else { c.strokeDotLines(body) }
      }
      return c.takeCanvas()
    }
    let whole = draw(boxed: false)
    let boxed = draw(boxed: true)
    #expect(boxed == whole)
    #expect(Self.colours(boxed) == Self.colours(whole))
    // The strokes' 24-bit colour shows (a wrong box would leave dots of no colour).
    #expect(Self.colours(boxed).joined().contains("250,10,20"))
    #expect(!boxed.dots.contains(DrawingContext.pendingInk))
  }

  @Test("A 24-bit canvas stacked onto cells keeps each cell's top dot's colour")
  func cellCanvasKeepsColours() {
    let c = DrawingContext(canvas: DotCanvas(columns: 3, rows: 1))
    Self.fillSea(c, width: 6, height: 4)
    c.strokeColor = .yellow
    c.strokeSegment(from: Point2D(x: 2.5, y: 0.5), to: Point2D(x: 2.5, y: 3.5))
    c.strokeColor = Self.road
    c.strokeSegment(from: Point2D(x: 4.5, y: 0.5), to: Point2D(x: 4.5, y: 1.5))
    let canvas = c.takeCanvas()
    // Placed one cell to the right on 4 cells: the first stays empty.
    var cells = CellCanvas(columns: 4, rows: 1)
    cells.add(canvas, atX: 2, y: 0, layerBase: 0)
    var buffer = CellBuffer(columns: 4, rows: 1)
    cells.paint(into: &buffer, charset: .braille)
    let shown = (0..<4).map { column -> String in
      guard let f = buffer[column, 0].foreground else { return "." }
      let (r, g, b) = f.rgb
      return f.isTrueColor ? "\(r),\(g),\(b)" : "\(f.index)"
    }
    #expect(shown == [".", "10,20,250", "3", "250,10,20"])
  }

  /// Fills and strokes in many colours over each other on 16 × 6 cells: 24-bit ones (some
  /// with the same nearest palette colour, on the same layer: only the colour plane tells
  /// them apart), palette ones, wide and thin, dashed and solid; `settleEach` hands the canvas
  /// out after every drawing (which settles what is pending).
  static func busyCanvas(count: Int, settleEach: Bool, on canvas: DotCanvas? = nil) -> DotCanvas {
    busyContext(count: count, settleEach: settleEach, on: canvas).takeCanvas()
  }

  /// The context `busyCanvas` draws with, its last drawings not settled.
  static func busyContext(count: Int, settleEach: Bool, on canvas: DotCanvas? = nil)
    -> DrawingContext
  {
    let c = DrawingContext(canvas: canvas ?? DotCanvas(columns: 16, rows: 6))
    for i in 0..<count {
      c.drawBusy(i, dashed: true)
      if settleEach { _ = c.takeCanvas() }
    }
    return c
  }

  @Test(
    "Drawings settled together give the dots and colours of each settled at once",
    arguments: [60, 5000])
  func settledTogether(_ count: Int) {
    // 5000 drawings: more than wait to be settled at a time.
    let together = Self.busyCanvas(count: count, settleEach: false)
    let each = Self.busyCanvas(count: count, settleEach: true)
    #expect(together == each)
    #expect(Self.colours(together) == Self.colours(each))
    #expect(Self.colours(together).joined().contains { $0.hasPrefix("20") })
    #expect(!together.dots.contains { $0.raw >= DrawingContext.pendingBase })
  }

  @Test("A canvas's cells are those its dots stack into, 24-bit colours and all")
  func cellsOfColouredCanvas() {
    let canvas = Self.busyCanvas(count: 60, settleEach: false)
    var stacked = CellCanvas(columns: 16, rows: 6)
    stacked.add(canvas, atX: 0, y: 0, layerBase: 0)
    #expect(CellCanvas(canvas) == stacked)
    #expect(stacked.trueColors.contains { $0 != 0 })
    // Only the cells of an area: the rest blank.
    let area = DotRect(minX: 4, minY: 4, maxX: 20, maxY: 16)
    var part = CellCanvas(columns: 16, rows: 6)
    part.add(canvas, atX: 0, y: 0, layerBase: 0, within: area)
    #expect(CellCanvas(canvas, within: area) == part)
  }

  @Test(
    "A canvas cleared for the next tile keeps no colour: drawn again, it is a new canvas's twin")
  func clearedCanvasReused() {
    var canvas = Self.busyCanvas(count: 60, settleEach: false)
    canvas.clearInkedCells(of: CellCanvas(canvas))
    #expect(canvas == DotCanvas(columns: 16, rows: 6))
    #expect(!canvas.hasTrueColor)
    // Palette drawing alone makes no colour plane on it.
    let c = DrawingContext(canvas: canvas)
    c.fillColor = .green
    c.beginPath()
    c.addRect(Rect2D(x: 0, y: 0, width: 4, height: 4))
    c.fillPath()
    let palette = c.takeCanvas()
    #expect(!palette.hasTrueColor)
    #expect(Self.colours(palette)[0][0] == "2")
    // 24-bit drawing on it gives what it gives on a new canvas.
    let again = Self.busyCanvas(count: 60, settleEach: false, on: canvas)
    #expect(again == Self.busyCanvas(count: 60, settleEach: false))
    #expect(Self.colours(again) == Self.colours(Self.busyCanvas(count: 60, settleEach: false)))
  }
}

extension DrawingContext {
  /// Drawing `i` of the colour tests' busy canvases: a fill (a third of them) or a line, in a
  /// 24-bit colour (some with the same nearest palette colour) or a palette one, wide or thin;
  /// `dashed` lines through `strokeDotLines` with some dashed, else solid through
  /// `strokeSegment`. Returns where it starts.
  @discardableResult
  func drawBusy(_ i: Int, dashed: Bool) -> (x: Double, y: Double) {
    let colour: TermColor =
      i % 7 == 3
      ? TermColor(UInt8(i % 200 + 20))
      : TermColor(red: 200 + i % 3, green: 10, blue: (i * 37) % 256)
    let (x, y) = (Double((i * 13) % 29), Double((i * 7) % 21))
    let (endX, endY) = (Double((i * 5) % 32) + 0.5, Double((i * 11) % 24) + 0.5)
    if i % 3 == 0 {
      fillColor = colour
      fillPattern = i % 2 == 0 ? .solid : .checker
      beginPath()
      addRect(Rect2D(x: x, y: y, width: Double(3 + i % 5), height: Double(2 + i % 4)))
      fillPath()
    } else if dashed {
      strokeColor = colour
      lineWidth = Double(1 + i % 3)
      setLineDash(phase: 0, lengths: i % 4 == 1 ? [2, 1] : [])
      strokeDotLines { sink in
        sink.move(x: x + 0.5, y: y + 0.5, dashOffset: 0)
        sink.line(x: endX, y: endY)
      }
    } else {
      strokeColor = colour
      lineWidth = Double(1 + i % 3)
      strokeSegment(from: Point2D(x: x + 0.5, y: y + 0.5), to: Point2D(x: endX, y: endY))
    }
    return (x, y)
  }
}
