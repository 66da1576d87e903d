import Testing

@testable import DotRaster

@Suite("Wide glyphs take two columns")
struct WideGlyphTests {
  @Test("widths: ASCII 1, CJK and emoji 2, combining marks 0")
  func widths() {
    #expect(CellBuffer.displayWidth(of: "a" as Unicode.Scalar) == 1)
    #expect(CellBuffer.displayWidth(of: "é" as Unicode.Scalar) == 1)
    #expect(CellBuffer.displayWidth(of: "東" as Unicode.Scalar) == 2)
    #expect(CellBuffer.displayWidth(of: "한" as Unicode.Scalar) == 2)
    #expect(CellBuffer.displayWidth(of: "🗻" as Unicode.Scalar) == 2)
    #expect(CellBuffer.displayWidth(of: "\u{0301}" as Unicode.Scalar) == 0)
    #expect(CellBuffer.displayWidth(of: "東京 Tower") == 10)
  }

  @Test("put gives a wide glyph a continuation cell and lines stay COLS columns wide")
  func putWide() {
    var b = CellBuffer(columns: 12, rows: 1)
    let used = b.put("東京 Tower", column: 0, row: 0)
    #expect(used == 10)
    #expect(b[0, 0].glyph == "東")
    #expect(b[1, 0].isContinuation)
    #expect(b[2, 0].glyph == "京")
    #expect(b[3, 0].isContinuation)
    #expect(b[4, 0].glyph == " ")
    #expect(b[5, 0].glyph == "T")
    #expect(b.lines[0] == "東京 Tower  ")
    #expect(CellBuffer.displayWidth(of: b.lines[0]) == 12)
    #expect(!b.ansiLines(colors: .palette256)[0].unicodeScalars.contains("\u{0}"))
  }

  @Test("a wide glyph that would be cut at the edge is not written at all")
  func noHalfGlyph() {
    var b = CellBuffer(columns: 5, rows: 1)
    b.put("abcd東", column: 0, row: 0)
    #expect(b.lines[0] == "abcd ")
    var c = CellBuffer(columns: 10, rows: 1)
    c.put("東京", column: 0, row: 0, maxWidth: 3)
    #expect(c.lines[0] == "東        ")
  }

  @Test("drawing over half of a wide glyph leaves no half glyph behind")
  func repair() {
    var b = CellBuffer(columns: 6, rows: 1)
    b.put("東京", column: 0, row: 0)
    b[1, 0] = Cell(glyph: "x")  // over the second half of 東
    b[2, 0] = Cell(glyph: "y")  // over the first half of 京
    b.repairWideGlyphs()
    #expect(b.lines[0] == " xy   ")
    #expect(CellBuffer.displayWidth(of: b.lines[0]) == 6)
  }
}
