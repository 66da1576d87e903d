import DotRaster
import Foundation
import RasterTiles
import Testing

/// Text snapshots of the Mapnik fixtures (Snapshots/), compared exactly. To update after a
/// deliberate change: `TERMMAP_UPDATE_SNAPSHOTS=1 swift test --filter RasterTilesTests`.
@Suite("Snapshots of real map tiles")
struct SnapshotTests {
  static func stem(_ name: String) -> String {
    String(name[..<name.lastIndex(of: ".")!]).replacingOccurrences(of: "@", with: "-")
      + (name.hasSuffix(".jpg") ? "-jpg" : "")
  }

  /// The tile as braille: `dots` × `dots` dots (256: 1:1 for a 256 px tile).
  static func braille(_ name: String, method: RasterDotMethod, dots: Int) throws -> CellBuffer {
    let im = try Fixture.image(name)
    var canvas = DotCanvas(width: dots, height: dots)
    im.drawDots(
      into: &canvas, mapping: .whole(im, x: 0, y: 0, width: dots, height: dots),
      options: RasterDotOptions(method: method))
    return canvas.cells(charset: .braille)
  }

  @Test(
    "Braille, 128 × 128 dots (2× down for 256 px, 4× for 512 px), adaptive, ordered, hybrid",
    arguments: Fixture.mapTiles)
  func braille(_ name: String) throws {
    for method in [RasterDotMethod.adaptive, .ordered, .hybrid] {
      let cells = try Self.braille(name, method: method, dots: 128)
      try expectSnapshot(
        cells.lines.joined(separator: "\n") + "\n",
        named: "\(Self.stem(name))-\(method.rawValue)-128.txt")
    }
  }

  @Test("Braille at 1:1 (256 × 256 dots), adaptive, with 256-colour escapes")
  func brailleFull() throws {
    let name = "monaco-z15-17059-11948.png"
    let cells = try Self.braille(name, method: .adaptive, dots: 256)
    try expectSnapshot(
      cells.lines.joined(separator: "\n") + "\n", named: "\(Self.stem(name))-adaptive-256.txt")
    try expectSnapshot(
      cells.ansiLines(colors: .palette256).joined(separator: "\n") + "\n",
      named: "\(Self.stem(name))-adaptive-256.ansi")
  }

  @Test("Half blocks, 64 × 32 cells, 256 colours", arguments: Fixture.mapTiles)
  func halfBlocks(_ name: String) throws {
    let im = try Fixture.image(name)
    var buffer = CellBuffer(columns: 64, rows: 32)
    im.drawHalfBlocks(into: &buffer, mapping: .whole(im, x: 0, y: 0, width: 64, height: 32))
    try expectSnapshot(
      buffer.ansiLines(colors: .palette256).joined(separator: "\n") + "\n",
      named: "\(Self.stem(name))-halfblock-64.ansi")
  }

  @Test("Half blocks in truecolor, and the ASCII fallback")
  func halfBlocksTrueColorAndASCII() throws {
    let name = "monaco-z16-34119-23895.png"
    let im = try Fixture.image(name)
    var buffer = CellBuffer(columns: 64, rows: 32)
    im.drawHalfBlocks(into: &buffer, mapping: .whole(im, x: 0, y: 0, width: 64, height: 32))
    try expectSnapshot(
      buffer.ansiLines(colors: .truecolor).joined(separator: "\n") + "\n",
      named: "\(Self.stem(name))-halfblock-64-truecolor.ansi")
    var ascii = CellBuffer(columns: 64, rows: 32)
    im.drawHalfBlocks(
      into: &ascii, mapping: .whole(im, x: 0, y: 0, width: 64, height: 32), charset: .ascii)
    try expectSnapshot(
      ascii.lines.joined(separator: "\n") + "\n", named: "\(Self.stem(name))-ascii-64.txt")
  }
}
