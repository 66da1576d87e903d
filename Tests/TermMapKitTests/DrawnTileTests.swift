import DotRaster
import Testing

@testable import TermMapKit

@Suite("Drawn tiles whose drawings are settled when their dots are read")
struct DrawnTileTests {
  /// A tile's worth of fills and strokes in 24-bit and palette colours, with a mark plotted.
  static func draw(_ c: DrawingContext) {
    for i in 0..<90 {
      let x = Double((i * 13) % 60)
      let y = Double((i * 7) % 60)
      if i % 3 == 0 {
        c.fillColor = i % 2 == 0 ? TermColor(red: 40, green: 180, blue: i) : .green
        c.fillPattern = i % 4 == 0 ? .checker : .solid
        c.beginPath()
        c.addRect(Rect2D(x: x, y: y, width: Double(4 + i % 9), height: Double(3 + i % 7)))
        c.fillPath()
      } else {
        c.strokeColor = i % 5 == 1 ? .red : TermColor(red: 220, green: i, blue: 30)
        c.lineWidth = Double(1 + i % 3)
        c.strokeDotLines { sink in
          sink.move(x: x + 0.5, y: y + 0.5, dashOffset: 0)
          sink.line(x: Double((i * 29) % 64) + 0.5, y: Double((i * 11) % 64) + 0.5)
        }
      }
      if i == 45 { c.plot(Point2D(x: 20.5, y: 20.5), color: TermColor(red: 1, green: 2, blue: 3)) }
    }
  }

  /// The user-space rect whose clip is `a` (identity transform).
  static func rect(_ a: DotRect) -> Rect2D {
    Rect2D(
      x: Double(a.minX), y: Double(a.minY), width: Double(a.maxX - a.minX),
      height: Double(a.maxY - a.minY))
  }

  @Test(
    "A tile made from an unsettled canvas has the cells and dots of the settled canvas",
    arguments: [nil, DotRect(minX: 8, minY: 4, maxX: 40, maxY: 36)])
  func unsettledTile(_ area: DotRect?) throws {
    let size = TileGrid.size
    let settledContext = DrawingContext(canvas: DotCanvas(width: size, height: size))
    if let a = area { settledContext.clip(to: Self.rect(a)) }
    Self.draw(settledContext)
    let settled = settledContext.takeCanvas()
    let context = DrawingContext(canvas: DotCanvas(width: size, height: size))
    if let a = area { context.clip(to: Self.rect(a)) }
    Self.draw(context)
    let (dots, pending) = context.takeCanvasUnsettled()
    #expect(!pending.isEmpty)
    let tile = try #require(DrawnTile(dots, pending: pending, drawnIn: area))
    // The cells of the part drawn only (all of them when drawn whole), where they lie.
    let cells = CellCanvas(settled, within: area)
    let a = area ?? TileGrid.whole
    #expect(tile.cellColumn == a.minX / 2 && tile.cellRow == a.minY / 4)
    #expect(tile.cells.columns == (a.maxX + 1) / 2 - a.minX / 2)
    #expect(tile.cells.rows == (a.maxY + 3) / 4 - a.minY / 4)
    var placed = CellCanvas(columns: cells.columns, rows: cells.rows)
    placed.composite(tile.cells, column: tile.cellColumn, row: tile.cellRow, layerBase: 0)
    #expect(placed == cells)
    #expect(tile.cells.trueColors.contains { $0 != 0 })
    // The dots, settled when first read, and the same when read again.
    #expect(tile.dots == settled)
    #expect(tile.dots == settled)
    #expect(!tile.dots.dots.contains { $0.raw >= 0x8000_0000 })
  }
}
