import DotRaster
import Foundation
import RasterTiles
import Testing

/// geometry.png: white, black pixels (i, i) for i in 0…255 and a black rectangle
/// x 160…223, y 32…63.
@Suite("A tile with known geometry lands on the expected dots")
struct GeometryTests {
  static func rectangle(_ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>, dx: Int = 0, dy: Int = 0)
    -> Set<DotPosition>
  {
    var out = Set<DotPosition>()
    for y in ys { for x in xs { out.insert(DotPosition(x + dx, y + dy)) } }
    return out
  }

  static func draw(
    _ method: RasterDotMethod, size: Int, canvas: Int = 256, at: Int = 0,
    trueColor: Bool = true
  ) throws -> DotCanvas {
    let im = try Fixture.image("geometry.png")
    var c = DotCanvas(width: canvas, height: canvas)
    im.drawDots(
      into: &c, mapping: .whole(im, x: at, y: at, width: size, height: size),
      options: RasterDotOptions(method: method, trueColor: trueColor))
    return c
  }

  @Test(
    "1:1: exactly the black pixels become dots, with every method",
    arguments: RasterDotMethod.allCases)
  func oneToOne(_ method: RasterDotMethod) throws {
    let c = try Self.draw(method, size: 256)
    let expected = Set((0..<256).map { DotPosition($0, $0) }).union(
      Self.rectangle(160...223, 32...63))
    #expect(c.inkedDots == expected)
  }

  @Test("1:1 at an offset: the dots move with the destination rectangle")
  func offset() throws {
    let c = try Self.draw(.adaptive, size: 256, canvas: 300, at: 6)
    let expected = Set((0..<256).map { DotPosition($0 + 6, $0 + 6) }).union(
      Self.rectangle(160...223, 32...63, dx: 6, dy: 6))
    #expect(c.inkedDots == expected)
  }

  /// Each dot of the 2× downscale covers 2 × 2 pixels: the diagonal's dots are half black
  /// (darkness 0.5), the rectangle's all black. `adaptive` inks 0.5 because it is well above
  /// its surroundings' mean, `threshold` because it is past halfway from paper (0.08) to ink
  /// (0.65). For `ordered`, 0.5 is (0.5 − 0.08) / (0.65 − 0.08) ≈ 0.74 of the way, and the
  /// diagonal meets the 4 × 4 Bayer matrix only on its own diagonal, whose thresholds are 0.5,
  /// 4.5, 1.5 and 5.5 sixteenths: all below, so every diagonal dot is inked there too.
  @Test(
    "2× downscale: the diagonal (half of each 2 × 2) and the rectangle's dots",
    arguments: RasterDotMethod.allCases)
  func downscale(_ method: RasterDotMethod) throws {
    let c = try Self.draw(method, size: 128, canvas: 128)
    let expected = Set((0..<128).map { DotPosition($0, $0) }).union(
      Self.rectangle(80...111, 16...31))
    #expect(c.inkedDots == expected)
  }

  @Test("4× downscale, ordered: a quarter-dark diagonal takes the pattern's lowest thresholds")
  func quarterOrdered() throws {
    // Each dot covers 4 × 4 pixels, four of them black: darkness 0.25, (0.25 − 0.08) / 0.57
    // ≈ 0.30 of the way; of the diagonal's thresholds (0.5, 4.5, 1.5, 5.5)/16 = 0.03, 0.28,
    // 0.09, 0.34, the first three are below.
    let c = try Self.draw(.ordered, size: 64, canvas: 64)
    let diagonal = Set((0..<64).map { DotPosition($0, $0) })
    let rect = Self.rectangle(40...55, 8...15)
    #expect(c.inkedDots.subtracting(rect) == Set(diagonal.filter { $0.x & 3 != 3 }))
    #expect(c.inkedDots.isSuperset(of: rect))
  }

  @Test("Cells take the mean colour of the pixels they cover")
  func cellColours() throws {
    let c = try Self.draw(.adaptive, size: 256)
    let cells = c.cells(charset: .braille)
    // Cell (0, 0) covers pixels x 0…1, y 0…3: (0,0) and (1,1) are black, six are white.
    let v = (6 * 255 + 4) / 8
    #expect(cells[0, 0].foreground == TermColor(red: v, green: v, blue: v))
    #expect(cells[0, 0].glyph == Unicode.Scalar(0x2800 + 0x01 + 0x10)!)
    // Inside the rectangle: solid black, all eight dots.
    #expect(cells[90, 10].foreground == TermColor(red: 0, green: 0, blue: 0))
    #expect(cells[90, 10].glyph == "\u{28FF}")
    // Blank paper: no glyph, no colour.
    #expect(cells[10, 40] == .blank)
  }

  @Test("Without trueColor the canvas has no colour plane and cells get palette colours")
  func paletteOnly() throws {
    let c = try Self.draw(.adaptive, size: 256, trueColor: false)
    #expect(!c.hasTrueColor)
    let cells = c.cells(charset: .braille)
    #expect(cells[0, 0].foreground == TermColor(nearestTo: 191, g: 191, b: 191))
  }
}
