import DotRaster
import Foundation
import RasterTiles
import Testing

@Suite("Half blocks, the ASCII fallback, and mappings that leave the grid")
struct HalfBlockTests {
  static func image(_ pixels: [RGBA], width: Int) -> RasterImage {
    RasterImage(
      width: width, height: pixels.count / width,
      pixels: pixels.flatMap { [$0.r, $0.g, $0.b, $0.a] })!
  }

  @Test("Each cell: ▀ with the upper pixel as foreground and the lower as background")
  func upperAndLower() {
    let red = RGBA(r: 200, g: 0, b: 0)
    let blue = RGBA(r: 0, g: 0, b: 200)
    let green = RGBA(r: 0, g: 180, b: 0)
    let white = RGBA(r: 255, g: 255, b: 255)
    let im = Self.image([red, green, blue, white], width: 2)
    var b = CellBuffer(columns: 4, rows: 2)
    im.drawHalfBlocks(into: &b, mapping: .whole(im, x: 1, y: 1, width: 2, height: 1))
    #expect(
      b[1, 1]
        == Cell(
          glyph: "▀", foreground: TermColor(red: 200, green: 0, blue: 0),
          background: TermColor(red: 0, green: 0, blue: 200)))
    #expect(
      b[2, 1]
        == Cell(
          glyph: "▀", foreground: TermColor(red: 0, green: 180, blue: 0),
          background: TermColor(red: 255, green: 255, blue: 255)))
    #expect(b[0, 0] == .blank && b[3, 1] == .blank && b[1, 0] == .blank)
    // Without 24 bits: the nearest palette colours.
    var p = CellBuffer(columns: 4, rows: 2)
    im.drawHalfBlocks(
      into: &p, mapping: .whole(im, x: 1, y: 1, width: 2, height: 1), trueColor: false)
    #expect(p[1, 1].foreground == TermColor(nearestTo: 200, g: 0, b: 0))
    #expect(p[1, 1].foreground?.isTrueColor == false)
  }

  @Test("Transparent halves: one half alone, or the cell left as it was")
  func transparency() throws {
    // rgba.png: (255,0,0,255) (0,255,0,128) / (0,0,255,0) (200,100,50,255)
    let im = try Fixture.image("rgba.png")
    var b = CellBuffer(columns: 2, rows: 1)
    b[0, 0] = Cell(glyph: "x")
    im.drawHalfBlocks(into: &b, mapping: .whole(im, x: 0, y: 0, width: 2, height: 1))
    #expect(b[0, 0] == Cell(glyph: "▀", foreground: TermColor(red: 255, green: 0, blue: 0)))
    #expect(
      b[1, 0]
        == Cell(
          glyph: "▀", foreground: TermColor(red: 0, green: 255, blue: 0),
          background: TermColor(red: 200, green: 100, blue: 50)))
    let clear = Self.image([RGBA(r: 0, g: 0, b: 0, a: 0), RGBA(r: 9, g: 9, b: 9, a: 0)], width: 1)
    var c = CellBuffer(columns: 1, rows: 1)
    c[0, 0] = Cell(glyph: "x")
    clear.drawHalfBlocks(into: &c, mapping: .whole(clear, x: 0, y: 0, width: 1, height: 1))
    #expect(c[0, 0] == Cell(glyph: "x"))
    let lowerOnly = Self.image([RGBA(r: 0, g: 0, b: 0, a: 0), RGBA(r: 9, g: 9, b: 9)], width: 1)
    lowerOnly.drawHalfBlocks(
      into: &c, mapping: .whole(lowerOnly, x: 0, y: 0, width: 1, height: 1))
    #expect(c[0, 0] == Cell(glyph: "▄", foreground: TermColor(red: 9, green: 9, blue: 9)))
  }

  @Test("ASCII: darkness between paper and ink picks the ramp character, in the mean colour")
  func ascii() {
    let paper = RGBA(r: 242, g: 239, b: 233)
    let black = RGBA(r: 0, g: 0, b: 0)
    let grey = RGBA(r: 160, g: 160, b: 160)
    let im = Self.image([paper, black, grey, paper, black, paper], width: 3)
    var b = CellBuffer(columns: 3, rows: 1)
    im.drawHalfBlocks(
      into: &b, mapping: .whole(im, x: 0, y: 0, width: 3, height: 1), charset: .ascii)
    // Column 2: mean (201, 200, 197), luminance 0.785: (0.92 − 0.785) / 0.57 ≈ 0.24 → ":".
    #expect(b.lines == [" @:"])
    #expect(b[1, 0].foreground == TermColor(red: 0, green: 0, blue: 0))
    #expect(b[2, 0].foreground == TermColor(red: 201, green: 200, blue: 197))
  }

  @Test("Mappings partly off the canvas draw only the part on it, at the same dots")
  func offCanvas() throws {
    let im = try Fixture.image("geometry.png")
    var whole = DotCanvas(width: 256, height: 256)
    im.drawDots(into: &whole, mapping: .whole(im, x: 0, y: 0, width: 256, height: 256))
    var part = DotCanvas(width: 100, height: 60)
    im.drawDots(into: &part, mapping: .whole(im, x: -150, y: -20, width: 256, height: 256))
    let expected = Set(
      whole.inkedDots.map { DotPosition($0.x - 150, $0.y - 20) }.filter {
        $0.x >= 0 && $0.y >= 0 && $0.x < 100 && $0.y < 60
      })
    #expect(part.inkedDots == expected)
    #expect(!expected.isEmpty)
    var none = DotCanvas(width: 10, height: 10)
    im.drawDots(into: &none, mapping: .whole(im, x: 10, y: 0, width: 256, height: 256))
    im.drawDots(into: &none, mapping: .whole(im, x: 0, y: 0, width: 0, height: 256))
    #expect(none.isBlank)
  }

  @Test("Degenerate mappings (NaN, infinite, zero-sized, huge) draw nothing and never trap")
  func degenerate() throws {
    let im = try Fixture.image("geometry.png")
    let bad: [RasterMapping] = [
      RasterMapping(
        sourceX: .nan, sourceY: 0, sourceWidth: 256, sourceHeight: 256, x: 0, y: 0, width: 16,
        height: 16),
      RasterMapping(
        sourceX: 0, sourceY: 0, sourceWidth: .infinity, sourceHeight: 256, x: 0, y: 0,
        width: 16, height: 16),
      RasterMapping(
        sourceX: 1e300, sourceY: 0, sourceWidth: 256, sourceHeight: 256, x: 0, y: 0,
        width: 16, height: 16),
      RasterMapping(
        sourceX: 0, sourceY: 0, sourceWidth: 0, sourceHeight: -5, x: 0, y: 0, width: 16,
        height: 16),
      RasterMapping(
        sourceX: 0, sourceY: 0, sourceWidth: 256, sourceHeight: 256, x: -(1 << 40), y: 0,
        width: 1 << 41, height: 16),
      RasterMapping(
        sourceX: 0, sourceY: 0, sourceWidth: 256, sourceHeight: 256, x: Int.max - 1, y: Int.min,
        width: Int.max, height: 16),
    ]
    for m in bad {
      var c = DotCanvas(width: 16, height: 16)
      im.drawDots(into: &c, mapping: m)
      var b = CellBuffer(columns: 8, rows: 4)
      im.drawHalfBlocks(into: &b, mapping: m)
      #expect(c.isBlank)
    }
  }

  @Test("A quarter of a tile overzoomed 4×: each pixel becomes a 4 × 4 block of dots")
  func overzoom() throws {
    let im = try Fixture.image("geometry.png")
    var c = DotCanvas(width: 256, height: 256)
    let m = RasterMapping(
      sourceX: 160, sourceY: 0, sourceWidth: 64, sourceHeight: 64, x: 0, y: 0, width: 256,
      height: 256)
    im.drawDots(into: &c, mapping: m, options: RasterDotOptions(method: .threshold))
    // The rectangle's pixels x 160…223, y 32…63 fill dots y 128…255 across the whole width.
    var expected = Set<DotPosition>()
    for y in 128..<256 { for x in 0..<256 { expected.insert(DotPosition(x, y)) } }
    #expect(c.inkedDots == expected)
  }

  @Test("Braille cells in truecolor: 38;2 with the cell's mean colour")
  func brailleTrueColor() throws {
    let im = try Fixture.image("geometry.png")
    var canvas = DotCanvas(width: 8, height: 8)
    im.drawDots(into: &canvas, mapping: .whole(im, x: 0, y: 0, width: 256, height: 256))
    let cells = canvas.cells(charset: .braille)
    let e = "\u{1B}"
    // Cell (0,0): 2 of 8 pixels black → (191,191,191); cell (1,1) covers pixels (2…3, 4…7):
    // none black, so blank; cell (2, 0) is blank; cell (1, 0) covers (2,2) and (3,3).
    #expect(
      cells.ansiLines(colors: .truecolor)[0]
        == "\(e)[0;38;2;191;191;191m\u{2811}\u{2884}\(e)[0m  \(e)[0m")
    #expect(
      cells.ansiLines(colors: .palette256)[0]
        == "\(e)[0;38;5;250m\u{2811}\u{2884}\(e)[0m  \(e)[0m")
  }
}
