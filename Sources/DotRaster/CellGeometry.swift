/// The braille cell: 2 × 4 dots per terminal cell. These two numbers live here and nowhere else.
public enum CellGeometry {
  /// Dots across one cell.
  public static let dotsWide = 2
  /// Dots down one cell.
  public static let dotsHigh = 4
  /// Dots in one cell.
  public static let dotsPerCell = dotsWide * dotsHigh

  /// The Unicode braille bit for the dot at (dx, dy) inside a cell.
  @inlinable public static func brailleBit(dx: Int, dy: Int) -> UInt8 {
    // U+2800 numbering: dots 1-2-3 down the left column, 4-5-6 down the right, 7 and 8 below.
    dy == 3 ? (dx == 0 ? 0x40 : 0x80) : UInt8(1) << UInt8(dy + 3 * dx)
  }

  /// The bit patterns of each dot row inside a cell (top to bottom), for pattern and glyph maps.
  public static let rowMasks: [UInt8] = (0..<dotsHigh).map { dy in
    brailleBit(dx: 0, dy: dy) | brailleBit(dx: 1, dy: dy)
  }
  /// The bit patterns of each dot column inside a cell (left, right).
  public static let columnMasks: [UInt8] = (0..<dotsWide).map { dx in
    (0..<dotsHigh).reduce(UInt8(0)) { $0 | brailleBit(dx: dx, dy: $1) }
  }
}
