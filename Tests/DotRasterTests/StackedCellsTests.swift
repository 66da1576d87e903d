import Testing

@testable import DotRaster

/// A frame's tiles stacked at once (`CellCanvas(columns:rows:stacking:)`): the leading tiles
/// that meet no other copied in bulk, the rest stacked one by one; the same canvas as a blank
/// one with each tile stacked by `composite(_:column:row:layerBase:)` in turn.
@Suite("Cells of tiles stacked at once")
struct StackedCellsTests {
  /// A tile's cells: a 32 × 24-dot canvas of palette or 24-bit fills and strokes (pending or
  /// settled), cropped to `area`, with text at two of its dots.
  static func tile(_ seed: Int, colours: Bool, pending: Bool, area: DotRect? = nil) -> CellCanvas {
    let context = DrawingContext(canvas: DotCanvas(width: 32, height: 24))
    for i in 0..<(12 + seed % 7) {
      let k = i &* 31 &+ seed &* 17
      let colour = colours && i % 3 != 1 ? TermColor(red: k % 256, green: 80, blue: i) : .green
      context.fillColor = colour
      context.beginPath()
      context.addRect(
        Rect2D(x: Double(k % 29), y: Double((k / 3) % 21), width: Double(2 + i % 5), height: 3))
      context.fillPath()
      context.strokeColor = colour
      context.strokeSegment(
        from: Point2D(x: Double(k % 32) + 0.5, y: Double((k / 5) % 24) + 0.5),
        to: Point2D(x: Double((k / 7) % 32) + 0.5, y: Double((k / 11) % 24) + 0.5))
    }
    let (dots, inks) =
      pending ? context.takeCanvasUnsettled() : (context.takeCanvas(), PendingInks())
    var c = CellCanvas.cropped(
      dots, pending: inks, to: area ?? DotRect(minX: 0, minY: 0, maxX: 32, maxY: 24))
    let runs = [(3, 5), (20, 17)].map { x, y in
      TextRun(
        text: "t\(seed)", width: 2, anchorX: x, anchorY: y, columnOffset: 0, color: .red,
        bold: false, layer: DrawingContext.markLayer)
    }
    c.cells.addText(
      runs, atX: -c.column * CellGeometry.dotsWide, y: -c.row * CellGeometry.dotsHigh,
      layerBase: 0)
    return c.cells
  }

  /// A blank canvas, each tile stacked in turn.
  static func composited(_ columns: Int, _ rows: Int, _ tiles: [CellCanvas.Placed]) -> CellCanvas {
    var out = CellCanvas(columns: columns, rows: rows)
    for t in tiles { out.composite(t.cells, column: t.column, row: t.row, layerBase: t.layerBase) }
    return out
  }

  /// Tiles of 16 × 6 cells on a grid covering a 40 × 15-cell canvas (reaching past its edges),
  /// `colours` saying which have 24-bit colours; then, from `above`, a second layer overlapping.
  static func grid(colours: (Int) -> Bool, layerBase: UInt32, above: Bool) -> [CellCanvas.Placed] {
    var out: [CellCanvas.Placed] = []
    for j in 0..<3 {
      for i in 0..<3 {
        let n = j * 3 + i
        out.append(
          CellCanvas.Placed(
            tile(n, colours: colours(n), pending: n % 2 == 0), column: i * 16 - 4,
            row: j * 6 - 2, layerBase: layerBase))
      }
    }
    if above {
      out.append(
        CellCanvas.Placed(
          tile(40, colours: true, pending: true), column: 7, row: 3, layerBase: layerBase + 20))
      out.append(
        CellCanvas.Placed(
          tile(41, colours: false, pending: false), column: 20, row: 9,
          layerBase: layerBase + 20))
    }
    return out
  }

  @Test(
    "Stacked at once, the canvas is the one stacked tile by tile",
    arguments: [0, 1, 2, 3], [false, true])
  func sameAsComposited(_ colours: Int, _ above: Bool) {
    let coloured: (Int) -> Bool = [{ _ in false }, { _ in true }, { $0 == 4 }, { $0 % 2 == 1 }][
      colours]
    for layerBase: UInt32 in [0, 3] {
      let tiles = Self.grid(colours: coloured, layerBase: layerBase, above: above)
      // All of them; some left out (the canvas not covered); the first placed twice (meeting
      // itself: nothing copied); one off the canvas first.
      let lists: [[CellCanvas.Placed]] = [
        tiles, Array(tiles.dropFirst(2)), [tiles[4]], [tiles[0]] + tiles,
        [CellCanvas.Placed(tiles[1].cells, column: 50, row: 0, layerBase: 1)] + tiles, [],
      ]
      for list in lists {
        let stacked = CellCanvas(columns: 40, rows: 15, stacking: list)
        let expected = Self.composited(40, 15, list)
        #expect(stacked == expected, "\(colours) \(above) \(layerBase) \(list.count)")
        #expect(stacked.textRuns == expected.textRuns)
      }
    }
  }

  @Test("Cropped tiles, a canvas of no cells, a tile of no cells")
  func edges() {
    let area = DotRect(minX: 5, minY: 3, maxX: 27, maxY: 13)
    let tiles: [CellCanvas.Placed] = [
      CellCanvas.Placed(
        Self.tile(1, colours: true, pending: true, area: area), column: 2, row: 1, layerBase: 0),
      CellCanvas.Placed(CellCanvas(columns: 0, rows: 0), column: 0, row: 0, layerBase: 0),
      CellCanvas.Placed(
        Self.tile(2, colours: false, pending: false, area: area), column: 14, row: 1,
        layerBase: 0),
    ]
    for (w, h) in [(30, 8), (0, 0), (0, 5), (1, 1)] {
      #expect(
        CellCanvas(columns: w, rows: h, stacking: tiles) == Self.composited(w, h, tiles),
        "\(w) × \(h)")
    }
  }
}
