extension CellBuffer {
  /// Writes printable ASCII text (each byte 0x20–0x7E) from `column` on in `row`, one cell a
  /// byte, as the subscript writes `Cell(glyph:foreground:bold:)` for each (cells left of
  /// the screen skipped, the text cut at the right edge): one call for a run of text, and no
  /// glyph measured (each is one column wide, so no wide glyph is noted).
  public mutating func setASCII(
    _ bytes: UnsafeBufferPointer<UInt8>, column: Int, row: Int, foreground: TermColor?,
    bold: Bool
  ) {
    precondition(row >= 0 && row < rows, "row out of range")
    let first = max(column, 0)
    let end = min(column + bytes.count, columns)
    guard first < end else { return }
    let style = Cell(glyph: " ", foreground: foreground, bold: bold)
    let start = row * columns
    withNarrowCells { cells in
      for c in first..<end {
        let byte = bytes[c - column]
        assert(byte &- 0x20 < 0x5F, "not printable ASCII")
        var cell = style
        cell.glyphAndFlags = (style.glyphAndFlags & ~Cell.scalarMask) | UInt32(byte)
        cells[start + c] = cell
      }
    }
  }
}
