extension CellBuffer {
  /// Whether writing a cell with this glyph through the subscript notes a wide glyph: U+0000
  /// (the second cell of one) or a glyph two columns wide.
  public static func notesWideGlyph(_ s: Unicode.Scalar) -> Bool {
    s.value == 0 || (!Cell.isPlainNarrow(s.value) && displayWidth(of: s) == 2)
  }

  /// `self[column, row] = cell` for a caller that knows `notesWideGlyph(cell.glyph)` (`wide`):
  /// the same cell written and the same note of a wide glyph, without measuring the glyph
  /// again. (A screenful of markers of one glyph measured it thousands of times a frame.)
  public mutating func set(_ cell: Cell, column: Int, row: Int, wide: Bool) {
    let i = row * columns + column
    precondition(i >= 0 && i < cells.count, "cell out of range")
    if wide { mayHoldWideGlyphs = true }
    withNarrowCells { $0[i] = cell }
  }
}
