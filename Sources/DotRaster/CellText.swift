/// A text measured once for cells: the glyph of every cell it takes, as `CellBuffer.put` would
/// write it (a character that is not printable shows as "?", a combining mark takes no cell, a
/// wide glyph two: itself and `Cell.continuation`). A map's names are measured when made and
/// written every frame: `put(_:column:row:foreground:bold:)` copies the glyphs, with no UTF-8
/// decoding and no width look-up per character.
public struct CellText: Sendable, Equatable {
  /// Each cell's scalar value, left to right; 0 for a wide glyph's second cell.
  @usableFromInline let glyphs: [UInt32]
  /// Whether a wide glyph is among them.
  let hasWide: Bool

  /// The cells of `text`.
  public init(_ text: String) {
    var glyphs: [UInt32] = []
    glyphs.reserveCapacity(text.utf8.count)
    var wide = false
    for s in text.unicodeScalars {
      let v = CellBuffer.isPrintable(value: s.value) ? s.value : 0x3F  // "?"
      let width =
        v < 0x300 ? 1 : CellBuffer.displayWidth(of: unsafeBitCast(v, to: Unicode.Scalar.self))
      if width == 0 { continue }
      glyphs.append(v)
      if width == 2 {
        glyphs.append(0)
        wide = true
      }
    }
    self.glyphs = glyphs
    hasWide = wide
  }

  /// Columns the text takes (`CellBuffer.displayWidth(of:)` of a printable text).
  @inlinable public var width: Int { glyphs.count }
}

extension Cell {
  /// A cell from its packed fields (`glyphAndFlags`, `foregroundRaw`, `backgroundRaw`).
  @inline(__always) init(raw glyphAndFlags: UInt32, foreground: UInt32, background: UInt32) {
    self.glyphAndFlags = glyphAndFlags
    foregroundRaw = foreground
    backgroundRaw = background
  }
}
