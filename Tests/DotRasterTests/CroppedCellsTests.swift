import Testing

@testable import DotRaster

/// A map tile drawn in part is summed into cells for that part only (`CellCanvas.cropped`),
/// and its canvas, used again, is cleared from those cells (`clearInkedCells(of:column:row:)`).
@Suite("Cells of the drawn part of a canvas")
struct CroppedCellsTests {
  /// Areas of a 32 × 24-dot canvas: inside, on odd dots, reaching past its edges, one dot,
  /// off it, empty.
  static let areas: [DotRect] = [
    DotRect(minX: 0, minY: 0, maxX: 32, maxY: 24),
    DotRect(minX: 4, minY: 4, maxX: 20, maxY: 16),
    DotRect(minX: 3, minY: 1, maxX: 31, maxY: 23),
    DotRect(minX: -9, minY: 5, maxX: 7, maxY: 99),
    DotRect(minX: 17, minY: 9, maxX: 18, maxY: 10),
    DotRect(minX: 40, minY: 0, maxX: 50, maxY: 24),
    DotRect(minX: 6, minY: 6, maxX: 6, maxY: 12),
  ]

  /// `cropped` cells put back on a blank canvas of the whole canvas's cells.
  static func uncropped(_ c: (cells: CellCanvas, column: Int, row: Int), like whole: CellCanvas)
    -> CellCanvas
  {
    var out = CellCanvas(columns: whole.columns, rows: whole.rows)
    out.composite(c.cells, column: c.column, row: c.row, layerBase: 0)
    return out
  }

  @Test(
    "Cropped cells are the cells within the area, placed where they lie: palette, 24-bit, pending",
    arguments: [0, 1, 2])
  func croppedMatchesWithin(_ kind: Int) {
    let context = UnsettledCanvasTests.context(count: 200, marks: true)
    var plain = DotCanvas(width: 32, height: 24)
    if kind == 0 {
      // Palette inks only: the canvas's inks with no colour plane.
      for (i, ink) in context.takeCanvas().dots.enumerated() where !ink.isEmpty {
        plain.plot(x: i % 32, y: i / 32, ink: ink)
      }
      #expect(!plain.hasTrueColor)
    }
    let (dots, pending) =
      kind == 0
      ? (plain, PendingInks())
      : kind == 1 ? (context.takeCanvas(), PendingInks()) : context.takeCanvasUnsettled()
    #expect(kind != 2 || !pending.isEmpty)
    for area in Self.areas {
      let whole = CellCanvas(dots, pending: pending, within: area)
      let c = CellCanvas.cropped(dots, pending: pending, to: area)
      // Only the cells that meet the area (and the canvas).
      let x0 = max(area.minX, 0) / 2
      let x1 = min((area.maxX + 1) / 2, 16)
      let y0 = max(area.minY, 0) / 4
      let y1 = min((area.maxY + 3) / 4, 6)
      if x0 < x1 && y0 < y1 {
        #expect([c.column, c.row, c.cells.columns, c.cells.rows] == [x0, y0, x1 - x0, y1 - y0])
      } else {
        #expect(c.cells.columns * c.cells.rows == 0)
        #expect(whole.isBlank)
      }
      let back = Self.uncropped(c, like: whole)
      #expect(back.bits == whole.bits, "\(area)")
      #expect(back.top == whole.top, "\(area)")
      #expect(back.trueColors == whole.trueColors, "\(area)")
    }
  }

  @Test("A canvas drawn in an area is cleared whole from its cropped cells, dots elsewhere kept")
  func clearFromCropped() {
    for area in Self.areas {
      let context = DrawingContext(canvas: DotCanvas(width: 32, height: 24))
      context.clip(
        to: Rect2D(
          x: Double(area.minX), y: Double(area.minY), width: Double(area.maxX - area.minX),
          height: Double(area.maxY - area.minY)))
      for i in 0..<30 {
        context.fillColor = i % 2 == 0 ? .green : TermColor(red: 9, green: 99, blue: i)
        context.beginPath()
        context.addRect(
          Rect2D(x: Double((i * 13) % 29), y: Double((i * 7) % 21), width: 5, height: 3))
        context.fillPath()
      }
      var canvas = context.takeCanvas()
      let c = CellCanvas.cropped(canvas, pending: PendingInks(), to: area)
      // A dot beyond the cropped cells is not the cropped cells' to clear.
      let outside = (x: 31, y: 23)
      let beyond =
        outside.x / 2 >= c.column + c.cells.columns || outside.y / 4 >= c.row + c.cells.rows
      if beyond { canvas.plot(x: outside.x, y: outside.y, ink: Ink(layer: 1, color: .red)) }
      canvas.clearInkedCells(of: c.cells, column: c.column, row: c.row)
      var expected = DotCanvas(width: 32, height: 24)
      if beyond { expected.plot(x: outside.x, y: outside.y, ink: Ink(layer: 1, color: .red)) }
      #expect(canvas == expected, "\(area)")
    }
  }
}
