/// A colour of the xterm 256-colour palette, with its nearest of the 16 basic colours; or a
/// 24-bit colour (from a raster tile) that also knows its nearest palette colour.
///
/// Stored in 32 bits: the palette index in the low byte, and for a 24-bit colour its RGB
/// value above it. A palette colour has zero there, so it costs what it always did. (The
/// 24-bit colour #000000 is palette colour 16, which is exactly that black.)
public struct TermColor: Hashable, Sendable, CustomStringConvertible {
  /// `rgb << 8 | index` for a 24-bit colour, `index` for a palette colour. Only this file's
  /// initialisers and `index` set it, so a 24-bit colour's index is always its nearest
  /// palette colour (`Cell` relies on that for its packing).
  @usableFromInline var storage: UInt32

  /// `rgb << 8 | index` for a 24-bit colour, `index` for a palette colour.
  @inlinable public var raw: UInt32 { storage }

  /// The palette index (0–15 basic, 16–231 the 6×6×6 cube, 232–255 greys); for a 24-bit
  /// colour, the nearest palette colour (never one of the 16 basic ones). Setting it makes
  /// the colour a palette colour.
  @inlinable public var index: UInt8 {
    get { UInt8(truncatingIfNeeded: storage) }
    set { storage = UInt32(newValue) }
  }

  /// A colour of the xterm 256-colour palette.
  @inlinable public init(_ index: UInt8) { storage = UInt32(index) }

  /// A colour from a `raw` value that a `TermColor` had.
  @usableFromInline init(raw: UInt32) { storage = raw }

  /// A 24-bit colour (components 0–255, clamped), with its nearest palette colour for
  /// terminals that have only 256.
  public init(red: Int, green: Int, blue: Int) {
    let r = min(max(red, 0), 255)
    let g = min(max(green, 0), 255)
    let b = min(max(blue, 0), 255)
    let nearest = TermColor.nearestIndex(r: r, g: g, b: b)
    storage = UInt32(r << 16 | g << 8 | b) << 8 | UInt32(nearest)
  }

  /// True for a 24-bit colour (sent as `38;2;r;g;b` to a truecolor terminal).
  @inlinable public var isTrueColor: Bool { raw > 0xFF }

  /// A colour of the 6×6×6 cube from components 0…5.
  public static func cube(_ r: Int, _ g: Int, _ b: Int) -> TermColor {
    let rr: Int = min(max(r, 0), 5)
    let gg: Int = min(max(g, 0), 5)
    let bb: Int = min(max(b, 0), 5)
    return TermColor(UInt8(16 + 36 * rr + 6 * gg + bb))
  }

  /// Palette colour 0.
  public static let black = TermColor(0)
  /// Palette colour 1.
  public static let red = TermColor(1)
  /// Palette colour 2.
  public static let green = TermColor(2)
  /// Palette colour 3.
  public static let yellow = TermColor(3)
  /// Palette colour 4.
  public static let blue = TermColor(4)
  /// Palette colour 5.
  public static let magenta = TermColor(5)
  /// Palette colour 6.
  public static let cyan = TermColor(6)
  /// Palette colour 7.
  public static let white = TermColor(7)
  /// Palette colour 8.
  public static let brightBlack = TermColor(8)
  /// Palette colour 9.
  public static let brightRed = TermColor(9)
  /// Palette colour 10.
  public static let brightGreen = TermColor(10)
  /// Palette colour 11.
  public static let brightYellow = TermColor(11)
  /// Palette colour 12.
  public static let brightBlue = TermColor(12)
  /// Palette colour 13.
  public static let brightMagenta = TermColor(13)
  /// Palette colour 14.
  public static let brightCyan = TermColor(14)
  /// Palette colour 15.
  public static let brightWhite = TermColor(15)

  /// The RGB value of a 24-bit colour, or the one xterm shows for a palette index.
  public var rgb: (r: Int, g: Int, b: Int) {
    if raw > 0xFF { return (Int(raw >> 24), Int((raw >> 16) & 0xFF), Int((raw >> 8) & 0xFF)) }
    let i = Int(index)
    if i < 16 {
      let basic: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205),
        (0, 205, 205), (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0),
        (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
      ]
      return basic[i]
    }
    if i < 232 {
      let levels = [0, 95, 135, 175, 215, 255]
      let c = i - 16
      return (levels[c / 36], levels[(c / 6) % 6], levels[c % 6])
    }
    let v = 8 + 10 * (i - 232)
    return (v, v, v)
  }

  /// The nearest of the 16 basic colours, for terminals that have no more.
  public var basic16: TermColor {
    if raw < 16 { return self }
    let (r, g, b) = rgb
    var best = 0
    var bestDistance = Int.max
    for candidate in 0..<16 {
      let (cr, cg, cb) = TermColor(UInt8(candidate)).rgb
      let d = (r - cr) * (r - cr) + (g - cg) * (g - cg) + (b - cb) * (b - cb)
      if d < bestDistance {
        bestDistance = d
        best = candidate
      }
    }
    return TermColor(UInt8(best))
  }

  public var description: String {
    guard isTrueColor else { return "colour \(index)" }
    let hex = String(raw >> 8, radix: 16)
    return "#" + String(repeating: "0", count: 6 - hex.count) + hex + " (colour \(index))"
  }
}
