/// How a cell's 2 × 4 dots become one character.
public enum Charset: String, Sendable, CaseIterable {
  /// Unicode braille: every dot shows (U+2800–U+28FF).
  case braille
  /// Quadrant block characters: the dots folded into 2 × 2.
  case block
  /// Plain ASCII: the dots' shape guessed as a line or a mark.
  case ascii

  /// `glyph(forDots:)` of every dot pattern, as scalar values (for painting many cells).
  var glyphValues: [UInt32] {
    switch self {
    case .braille: return Charset.brailleValues
    case .block: return Charset.blockValues
    case .ascii: return Charset.asciiValues
    }
  }
  static let brailleValues = (0..<256).map { Charset.braille.glyph(forDots: UInt8($0)).value }
  static let blockValues = (0..<256).map { Charset.block.glyph(forDots: UInt8($0)).value }
  static let asciiValues = (0..<256).map { Charset.ascii.glyph(forDots: UInt8($0)).value }

  /// The character for a cell whose inked dots are `bits` (braille numbering).
  public func glyph(forDots bits: UInt8) -> Unicode.Scalar {
    switch self {
    case .braille: return Unicode.Scalar(0x2800 + UInt32(bits))!
    case .block: return Charset.blockGlyphs[Int(Charset.quadrants(bits))]
    case .ascii: return Charset.asciiGlyphs[Int(bits)]
    }
  }

  /// The 2 × 2 quadrant mask (bit 0 upper-left, 1 upper-right, 2 lower-left, 3 lower-right).
  static func quadrants(_ bits: UInt8) -> UInt8 {
    let half = CellGeometry.dotsHigh / 2
    var q: UInt8 = 0
    for dx in 0..<CellGeometry.dotsWide {
      for dy in 0..<CellGeometry.dotsHigh where bits & CellGeometry.brailleBit(dx: dx, dy: dy) != 0
      {
        q |= UInt8(1) << UInt8(dx + (dy >= half ? 2 : 0))
      }
    }
    return q
  }

  static let blockGlyphs: [Unicode.Scalar] = [
    " ", "\u{2598}", "\u{259D}", "\u{2580}", "\u{2596}", "\u{258C}", "\u{259E}", "\u{259B}",
    "\u{2597}", "\u{259A}", "\u{2590}", "\u{259C}", "\u{2584}", "\u{2599}", "\u{259F}", "\u{2588}",
  ]

  /// ASCII for every dot pattern, chosen from where the dots sit in the cell.
  static let asciiGlyphs: [Unicode.Scalar] = (0..<256).map { asciiGlyph(UInt8($0)) }

  private static func asciiGlyph(_ bits: UInt8) -> Unicode.Scalar {
    if bits == 0 { return " " }
    var count = 0
    var rowsUsed = 0
    var colsUsed = 0
    var sumY = 0
    var sumX = 0
    for (dy, mask) in CellGeometry.rowMasks.enumerated() where bits & mask != 0 {
      rowsUsed += 1
      sumY += dy * (bits & mask).nonzeroBitCount
    }
    for (dx, mask) in CellGeometry.columnMasks.enumerated() where bits & mask != 0 {
      colsUsed += 1
      sumX += dx * (bits & mask).nonzeroBitCount
    }
    count = bits.nonzeroBitCount
    if count >= 7 { return "#" }
    if count == 1 {
      return sumY * 2 < CellGeometry.dotsHigh ? "'" : "."
    }
    if rowsUsed == 1 { return sumY / count * 2 < CellGeometry.dotsHigh ? "-" : "_" }
    if colsUsed == 1 { return "|" }
    // Two columns and several rows: a diagonal if the columns' dots sit at different heights.
    let left = bits & CellGeometry.columnMasks[0]
    let right = bits & CellGeometry.columnMasks[1]
    let leftY = meanRow(left)
    let rightY = meanRow(right)
    if leftY + 0.75 < rightY { return "\\" }
    if rightY + 0.75 < leftY { return "/" }
    if rowsUsed <= 2 { return "=" }
    return count >= 5 ? "%" : ":"
  }

  private static func meanRow(_ bits: UInt8) -> Double {
    var n = 0
    var s = 0
    for dy in 0..<CellGeometry.dotsHigh where bits & CellGeometry.rowMasks[dy] != 0 {
      let c = (bits & CellGeometry.rowMasks[dy]).nonzeroBitCount
      n += c
      s += dy * c
    }
    return n == 0 ? 0 : Double(s) / Double(n)
  }
}
