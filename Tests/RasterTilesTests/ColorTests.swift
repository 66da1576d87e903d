import DotRaster
import RasterTiles
import Testing

@Suite("24-bit colour: TermColor, ANSI output, the canvas colour plane")
struct ColorTests {
  static let e = "\u{1B}"

  @Test("A 24-bit TermColor keeps its RGB and knows its nearest palette colour")
  func termColor() {
    let c = TermColor(red: 12, green: 200, blue: 99)
    #expect(c.isTrueColor)
    #expect(c.rgb == (12, 200, 99))
    #expect(c.index == TermColor(nearestTo: 12, g: 200, b: 99).index)
    #expect(c != TermColor(c.index))
    #expect(c.description == "#0cc863 (colour \(c.index))")
    #expect(!TermColor(196).isTrueColor)
    #expect(TermColor(red: 300, green: -4, blue: 0).rgb == (255, 0, 0))
    // Black is palette colour 16, which is exactly black.
    #expect(TermColor(red: 0, green: 0, blue: 0) == TermColor(16))
    var d = c
    d.index = 33
    #expect(d == TermColor(33) && !d.isTrueColor)
    #expect(TermColor(red: 250, green: 10, blue: 10).basic16 == .brightRed)
  }

  @Test("The nearest palette colour equals the full search over a lattice of colours")
  func nearestMatchesFullSearch() {
    var mismatches: [String] = []
    for r in stride(from: 0, through: 255, by: 7) {
      for g in stride(from: 0, through: 255, by: 7) {
        for b in stride(from: 0, through: 255, by: 7) {
          let fast = TermColor(red: r, green: g, blue: b).index
          let full = TermColor(nearestTo: r, g: g, b: b).index
          if fast != full && !(r == 0 && g == 0 && b == 0) {
            mismatches.append("(\(r),\(g),\(b)): \(fast) vs \(full)")
          }
        }
      }
    }
    #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
  }

  @Test("ANSI: truecolor sends 38;2 / 48;2 for 24-bit colours, 38;5 for palette colours")
  func ansiTrueColor() {
    var b = CellBuffer(columns: 4, rows: 1)
    let sea = TermColor(red: 170, green: 211, blue: 223)
    let land = TermColor(red: 242, green: 239, blue: 233)
    b[0, 0] = Cell(glyph: "▀", foreground: sea, background: land)
    b[1, 0] = Cell(glyph: "▀", foreground: sea, background: land)
    b[2, 0] = Cell(glyph: "x", foreground: .brightRed)
    let e = Self.e
    #expect(
      b.ansiLines(colors: .truecolor) == [
        "\(e)[0;38;2;170;211;223;48;2;242;239;233m▀▀\(e)[0;38;5;9mx\(e)[0m \(e)[0m"
      ])
    #expect(
      b.ansiLines(colors: .palette256) == [
        "\(e)[0;38;5;\(sea.index);48;5;\(land.index)m▀▀\(e)[0;38;5;9mx\(e)[0m \(e)[0m"
      ])
    #expect(sea.index == 152 && land.index == 255)
  }

  @Test("Below 24 bits, neighbours that differ only in RGB share one SGR run")
  func onePaletteRun() {
    var b = CellBuffer(columns: 2, rows: 1)
    b[0, 0] = Cell(glyph: "a", foreground: TermColor(red: 240, green: 240, blue: 240))
    b[1, 0] = Cell(glyph: "b", foreground: TermColor(red: 241, green: 241, blue: 241))
    #expect(b[0, 0].foreground!.index == b[1, 0].foreground!.index)
    let e = Self.e
    #expect(b.ansiLines(colors: .palette256) == ["\(e)[0;38;5;255mab\(e)[0m"])
    #expect(b.ansiLines(colors: .truecolor).first!.components(separatedBy: "38;2;").count == 3)
  }

  @Test("COLORTERM=truecolor or 24bit announces 24-bit colour")
  func environment() {
    #expect(ColorDepth.announcesTrueColor(["COLORTERM": "truecolor"]))
    #expect(ColorDepth.announcesTrueColor(["COLORTERM": "24BIT"]))
    #expect(!ColorDepth.announcesTrueColor(["COLORTERM": "yes"]))
    #expect(!ColorDepth.announcesTrueColor([:]))
  }

  @Test("The colour plane follows dots through composite and yields to ink drawn over them")
  func colourPlane() {
    let teal = TermColor(red: 20, green: 130, blue: 140)
    var tile = DotCanvas(width: 4, height: 8)
    tile.plot(x: 0, y: 0, layer: 1, color: teal)
    tile.plot(x: 1, y: 0, layer: 1, color: teal)
    #expect(tile.hasTrueColor)
    #expect(tile.color(x: 0, y: 0) == teal)
    #expect(tile.color(x: 2, y: 0) == nil)

    // Composited onto a plain canvas at a cell-aligned offset and on another layer.
    var frame = DotCanvas(width: 8, height: 8)
    #expect(!frame.hasTrueColor)
    frame.composite(tile, atX: 2, y: 0, layerBase: 10)
    #expect(frame.color(x: 2, y: 0) == teal)
    #expect(frame[2, 0].layer == 11)
    #expect(frame.cells(charset: .braille)[1, 0].foreground == teal)

    // A vector overlay above: its dot takes the cell (higher layer), and its palette colour.
    var overlay = DotCanvas(width: 8, height: 8)
    overlay.plot(x: 3, y: 0, ink: Ink(layer: 1, color: .brightRed))
    frame.composite(overlay, atX: 0, y: 0, layerBase: 20)
    #expect(frame.color(x: 3, y: 0) == .brightRed)
    #expect(frame.cells(charset: .braille)[1, 0].foreground == .brightRed)
    // Drawing straight over a dot (any path) also ends its 24-bit colour.
    frame.plot(x: 2, y: 0, ink: Ink(layer: 30, color: .green))
    #expect(frame.color(x: 2, y: 0) == .green)
    frame.clear()
    #expect(!frame.hasTrueColor && frame.isBlank)
  }

  @Test("Canvases without 24-bit colours paint exactly as before")
  func vectorUnchanged() {
    var c = DotCanvas(columns: 2, rows: 1)
    c.plot(x: 0, y: 0, ink: Ink(layer: 2, color: .cyan))
    c.plot(x: 3, y: 3, ink: Ink(layer: 1, color: .red))
    let cells = c.cells(charset: .braille)
    #expect(cells[0, 0] == Cell(glyph: "\u{2801}", foreground: .cyan))
    #expect(cells[1, 0] == Cell(glyph: "\u{2880}", foreground: .red))
    #expect(!c.hasTrueColor)
  }
}
