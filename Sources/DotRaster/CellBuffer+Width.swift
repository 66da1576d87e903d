/// Terminal column widths: wide glyphs (CJK, fullwidth forms, most emoji) take two cells.
extension Cell {
  /// The second cell of a wide glyph: it shows nothing of its own.
  public static let continuation = Cell(glyph: "\u{0}")

  /// True for the second cell of a wide glyph.
  @inlinable public var isContinuation: Bool { glyph.value == 0 }
}

extension CellBuffer {
  /// Columns a scalar takes in a terminal: 0 for combining marks and zero-width characters, 2 for
  /// East Asian wide and fullwidth characters and emoji, else 1 (wcwidth's rules, in ranges).
  public static func displayWidth(of s: Unicode.Scalar) -> Int {
    let v = s.value
    if v < 0x300 { return 1 }
    // Box drawing, blocks, shapes, symbols and braille (every map cell): one column, without the
    // general-category lookup below (the frame's wide-glyph pass asks for each cell).
    if v >= 0x2500 && v <= 0x28FF && v != 0x25FD && v != 0x25FE && v != 0x2614 && v != 0x2615 {
      return 1
    }
    switch s.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if v == 0x200B { return 0 }
    let wide: [ClosedRange<UInt32>] = [
      0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x25FD...0x25FE,
      0x2614...0x2615, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
      0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF,
      0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
    return wide.contains { $0.contains(v) } ? 2 : 1
  }

  /// Columns a string takes in a terminal.
  public static func displayWidth(of text: String) -> Int {
    text.unicodeScalars.reduce(0) { $0 + displayWidth(of: $1) }
  }

  /// The longest prefix of `text` that fits in `width` columns.
  public static func prefix(of text: String, width: Int) -> String {
    var used = 0
    var out = ""
    for ch in text {
      let w = displayWidth(of: String(ch))
      if used + w > width { break }
      used += w
      out.append(ch)
    }
    return out
  }

  /// Copies `source` onto this buffer with its top-left cell at (column, row), clipped.
  public mutating func copy(_ source: CellBuffer, toColumn column: Int, row: Int) {
    let c0 = max(0, -column)
    let c1 = min(source.columns, columns - column)
    let r0 = max(0, -row)
    let r1 = min(source.rows, rows - row)
    guard c0 < c1, r0 < r1 else { return }
    for r in r0..<r1 {
      for c in c0..<c1 { self[column + c, row + r] = source[c, r] }
    }
  }

  /// `text` fitted into `width` columns: whole when it fits, else cut at the last word break
  /// that keeps at least half of it (or mid-word when none does) and ended with "…".
  public static func truncated(_ text: String, width: Int) -> String {
    guard displayWidth(of: text) > width else { return text }
    guard width > 1 else { return width == 1 ? "…" : "" }
    var cut = prefix(of: text, width: width - 1)
    if let space = cut.lastIndex(where: { $0 == " " || $0 == "-" || $0 == "/" }),
      cut.distance(from: cut.startIndex, to: space) >= cut.count / 2
    {
      cut = String(cut[..<space])
    }
    while cut.last == " " || cut.last == "," || cut.last == "-" { cut.removeLast() }
    return cut + "…"
  }

  /// Mends wide glyphs that something drew half over: a wide glyph whose second cell was
  /// overwritten, or a second cell whose glyph was, becomes a space (so the terminal's columns
  /// and the buffer's stay in step).
  public mutating func repairWideGlyphs() {
    guard mayHoldWideGlyphs else { return }
    // One pass over the raw values picks out the few cells worth a look (nearly every cell of
    // a map is braille, a space or ASCII); those are mended after it.
    var blank: [Int] = []
    let columns = self.columns
    cells.withUnsafeBufferPointer { cells in
      for i in cells.indices {
        let v = cells[i].glyphAndFlags & Cell.scalarMask
        if Cell.isPlainNarrow(v) { continue }
        let column = i % columns
        if v == 0 {
          if column == 0 || Self.displayWidth(of: cells[i - 1].glyph) != 2 { blank.append(i) }
        } else if Self.displayWidth(of: cells[i].glyph) == 2 {
          if column + 1 >= columns || !cells[i + 1].isContinuation { blank.append(i) }
        }
      }
    }
    for i in blank { self[i % columns, i / columns].glyph = " " }
  }
}
