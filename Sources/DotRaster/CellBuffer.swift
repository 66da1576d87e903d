/// One terminal cell: a character, its colours and its emphasis.
///
/// Packed into 12 bytes, as when colours were palette indices only: a frame is diffed and
/// written cell by cell, so its size is frame time. The glyph's scalar value (21 bits) shares
/// a word with the emphasis bits, and each colour is its `TermColor.raw` with one value that
/// no colour has standing for "none".
public struct Cell: Hashable, Sendable {
  /// The glyph's scalar value (bits 0–20), bold (bit 21), reverse (bit 22).
  @usableFromInline var glyphAndFlags: UInt32
  /// `TermColor.raw`, or `Cell.noColor`.
  @usableFromInline var foregroundRaw: UInt32
  @usableFromInline var backgroundRaw: UInt32

  /// No `TermColor` has this raw value: it would be RGB white with palette index 255, and a
  /// 24-bit colour's index is always its nearest palette colour (231 for white).
  @usableFromInline static let noColor = UInt32.max
  @usableFromInline static let scalarMask: UInt32 = 0x1F_FFFF
  @usableFromInline static let boldBit: UInt32 = 1 << 21
  @usableFromInline static let reverseBit: UInt32 = 1 << 22

  /// True for a scalar value that is surely one column wide without a table look-up: below
  /// U+1100 (but not 0, a wide glyph's second cell) or braille. (Two unsigned compares.)
  @usableFromInline @inline(__always) static func isPlainNarrow(_ v: UInt32) -> Bool {
    v &- 1 < 0x10FF || v &- 0x2800 < 0x100
  }

  /// `a == b` with one branch: the fields' differences or-ed together.
  @inline(__always) static func same(_ a: Cell, _ b: Cell) -> Bool {
    (a.glyphAndFlags ^ b.glyphAndFlags) | (a.foregroundRaw ^ b.foregroundRaw)
      | (a.backgroundRaw ^ b.backgroundRaw) == 0
  }

  /// A cell showing a glyph in colours (nil: the terminal's default), bold or reversed.
  public init(
    glyph: Unicode.Scalar, foreground: TermColor? = nil, background: TermColor? = nil,
    bold: Bool = false, reverse: Bool = false
  ) {
    glyphAndFlags =
      glyph.value | (bold ? Cell.boldBit : 0) | (reverse ? Cell.reverseBit : 0)
    foregroundRaw = foreground?.raw ?? Cell.noColor
    backgroundRaw = background?.raw ?? Cell.noColor
  }

  /// The character shown.
  @inlinable public var glyph: Unicode.Scalar {
    get {
      // Only valid scalars are ever stored (from a Unicode.Scalar), so no check is needed.
      unsafeBitCast(glyphAndFlags & Cell.scalarMask, to: Unicode.Scalar.self)
    }
    set { glyphAndFlags = (glyphAndFlags & ~Cell.scalarMask) | newValue.value }
  }

  /// The text colour (nil: the terminal's default).
  @inlinable public var foreground: TermColor? {
    get { foregroundRaw == Cell.noColor ? nil : TermColor(raw: foregroundRaw) }
    set { foregroundRaw = newValue?.raw ?? Cell.noColor }
  }

  /// The background colour (nil: the terminal's default).
  @inlinable public var background: TermColor? {
    get { backgroundRaw == Cell.noColor ? nil : TermColor(raw: backgroundRaw) }
    set { backgroundRaw = newValue?.raw ?? Cell.noColor }
  }

  /// Whether the glyph is bold.
  @inlinable public var bold: Bool {
    get { glyphAndFlags & Cell.boldBit != 0 }
    set { glyphAndFlags = newValue ? glyphAndFlags | Cell.boldBit : glyphAndFlags & ~Cell.boldBit }
  }

  /// Whether foreground and background are swapped.
  @inlinable public var reverse: Bool {
    get { glyphAndFlags & Cell.reverseBit != 0 }
    set {
      glyphAndFlags = newValue ? glyphAndFlags | Cell.reverseBit : glyphAndFlags & ~Cell.reverseBit
    }
  }

  /// An empty cell.
  public static let blank = Cell(glyph: " ")

  /// The same cell with 24-bit colours replaced by their nearest palette colours.
  @inlinable public var paletteOnly: Cell {
    var c = self
    if foregroundRaw != Cell.noColor && foregroundRaw > 0xFF { c.foregroundRaw &= 0xFF }
    if backgroundRaw != Cell.noColor && backgroundRaw > 0xFF { c.backgroundRaw &= 0xFF }
    return c
  }

  /// The same styling, for run-length grouping.
  @inlinable public func sameStyle(as other: Cell) -> Bool {
    foregroundRaw == other.foregroundRaw && backgroundRaw == other.backgroundRaw
      && glyphAndFlags & ~Cell.scalarMask == other.glyphAndFlags & ~Cell.scalarMask
  }
}

/// A frame: a row-major grid of cells. A value, so frames can be compared and diffed.
public struct CellBuffer: Sendable, Equatable {
  /// The frame's width in cells.
  public let columns: Int
  /// The frame's height in cells.
  public let rows: Int
  /// The cells, row by row.
  public private(set) var cells: [Cell]
  /// Whether a wide glyph or a wide glyph's second cell was ever written (only then can
  /// `repairWideGlyphs` have anything to mend). Not part of the frame: `==` ignores it.
  var mayHoldWideGlyphs = false

  /// A blank frame of `columns` × `rows` cells.
  public init(columns: Int, rows: Int) {
    self.columns = max(columns, 0)
    self.rows = max(rows, 0)
    cells = Array(repeating: .blank, count: self.columns * self.rows)
  }

  /// The cell at a column and row (reading outside gives a blank; writing outside does nothing).
  public subscript(column: Int, row: Int) -> Cell {
    get { cells[row * columns + column] }
    set {
      // The few glyphs not surely narrow (a place's dot, box drawing) are looked up.
      let v = newValue.glyphAndFlags & Cell.scalarMask
      if !Cell.isPlainNarrow(v) && (v == 0 || CellBuffer.displayWidth(of: newValue.glyph) == 2) {
        mayHoldWideGlyphs = true
      }
      cells[row * columns + column] = newValue
    }
  }

  /// The cells to write in place, for a painter that writes only glyphs one column wide
  /// (dots: braille, quadrant blocks, ASCII), which never need the wide-glyph repair.
  mutating func withNarrowCells<R>(_ body: (UnsafeMutableBufferPointer<Cell>) -> R) -> R {
    cells.withUnsafeMutableBufferPointer { body($0) }
  }

  /// Two frames are equal when their cells are.
  public static func == (a: CellBuffer, b: CellBuffer) -> Bool {
    a.columns == b.columns && a.rows == b.rows && a.cells == b.cells
  }

  /// Writes text from (column, row), clipped at the right edge; returns the columns used.
  @discardableResult
  public mutating func put(
    _ text: String, column: Int, row: Int, foreground: TermColor? = nil,
    background: TermColor? = nil, bold: Bool = false, reverse: Bool = false, maxWidth: Int? = nil
  ) -> Int {
    guard row >= 0 && row < rows else { return 0 }
    let limit = min(columns, column + (maxWidth ?? columns))
    var c = column
    let blank = Cell(
      glyph: " ", foreground: foreground, background: background, bold: bold, reverse: reverse)
    let base = row * columns
    var wide = false
    // Written through the row's buffer (a map's labels are a thousand calls a frame: the
    // subscript's uniqueness and bounds checks and its wide-glyph test per character were
    // most of their cost). Every cell written lies in the row: 0 ≤ c and c + width ≤ limit
    // ≤ columns.
    cells.withUnsafeMutableBufferPointer { out in
      // A native string's UTF-8, decoded here (a label is a dozen scalars: the scalar view's
      // iterator cost as much as the rest of the loop).
      let done = text.utf8.withContiguousStorageIfAvailable { bytes in
        var scalars = UTF8Scalars(bytes: bytes)
        return CellBuffer.write(&scalars, out, base: base, from: c, limit: limit, blank: blank)
      }
      if let done {
        (c, wide) = done
      } else {
        var scalars = text.unicodeScalars.lazy.map(\.value).makeIterator()
        (c, wide) = CellBuffer.write(&scalars, out, base: base, from: c, limit: limit, blank: blank)
      }
    }
    if wide { mayHoldWideGlyphs = true }
    return c - column
  }

  /// Writes a measured text from (column, row), clipped at the screen's edges (never half a
  /// wide glyph); the cells are those `put(_:column:row:foreground:background:bold:reverse:maxWidth:)`
  /// of the text's string writes. Returns the columns used.
  @discardableResult
  public mutating func put(
    _ text: CellText, column: Int, row: Int, foreground: TermColor? = nil, bold: Bool = false
  ) -> Int {
    withTextWriter { $0.put(text, column: column, row: row, foreground: foreground, bold: bold) }
  }

  /// Lends the cells to `body` as a writer of measured texts and single cells (many labels
  /// a frame: one uniqueness check of the cells for all of them). The writer must not
  /// outlive `body`.
  public mutating func withTextWriter<R>(_ body: (inout CellTextWriter) -> R) -> R {
    let columns = columns
    let rows = rows
    var wide = false
    let result = cells.withUnsafeMutableBufferPointer { cells in
      var writer = CellTextWriter(cells: cells, columns: columns, rows: rows)
      let result = body(&writer)
      wide = writer.wroteWide
      return result
    }
    if wide { mayHoldWideGlyphs = true }
    return result
  }

  /// `put`'s loop: the cells of `scalars` from column `c` of the row at `base` in `out`, up to
  /// `limit`; returns the column after the last cell written and whether a wide glyph was.
  /// Every cell written lies in the row: 0 ≤ c and c + width ≤ limit ≤ columns.
  @inline(__always) static func write<S: IteratorProtocol<UInt32>>(
    _ scalars: inout S, _ out: UnsafeMutableBufferPointer<Cell>, base: Int, from column: Int,
    limit: Int, blank: Cell
  ) -> (Int, Bool) {
    var c = column
    var wide = false
    while c < limit, let raw = scalars.next() {
      let v = CellBuffer.isPrintable(value: raw) ? raw : 0x3F  // "?"
      // (Below U+0300 a scalar is one column wide: no call.)
      let width =
        v < 0x300 ? 1 : CellBuffer.displayWidth(of: unsafeBitCast(v, to: Unicode.Scalar.self))
      if width == 0 { continue }  // combining marks have no cell of their own
      if width == 2 && c + 1 >= limit { break }  // never half a wide glyph
      var cell = blank
      cell.glyphAndFlags = blank.glyphAndFlags & ~Cell.scalarMask | v
      if c >= 0 { out[base + c] = cell }
      if width == 2 {
        cell.glyphAndFlags &= ~Cell.scalarMask  // the second cell: `Cell.continuation`
        if c + 1 >= 0 {
          out[base + c + 1] = cell
          // (What the subscript notes for a wide glyph or its second cell.)
          wide = true
        }
      }
      c += width
    }
    return (c, wide)
  }

  /// False for control characters (C0, DEL, C1) and bidi overrides: text from files is shown
  /// only without them, so no escape sequence from a file can reach the terminal.
  public static func isPrintable(_ s: Unicode.Scalar) -> Bool {
    isPrintable(value: s.value)
  }

  /// `isPrintable(_:)` of a scalar's value (four unsigned compares).
  @inline(__always) static func isPrintable(value v: UInt32) -> Bool {
    v &- 0x20 < 0x5F || (v >= 0xA0 && v &- 0x202A >= 5 && v &- 0x2066 >= 4)
  }

  /// The frame as plain text lines, each exactly `columns` terminal columns wide (a wide
  /// glyph's second cell adds nothing).
  public var lines: [String] {
    (0..<rows).map { row in
      var s = String.UnicodeScalarView()
      for column in 0..<columns where !self[column, row].isContinuation {
        s.append(self[column, row].glyph)
      }
      return String(s)
    }
  }

  /// The frame as text with ANSI SGR colour sequences (24-bit, 256 or 16 colours), each line
  /// reset at its end.
  public func ansiLines(colors: ColorDepth) -> [String] {
    (0..<rows).map { row in
      var out = ""
      var current: Cell? = nil
      for column in 0..<columns where !self[column, row].isContinuation {
        // Below 24 bits, colours that differ only in RGB look the same: one run.
        let cell = colors == .truecolor ? self[column, row] : self[column, row].paletteOnly
        if current == nil || !cell.sameStyle(as: current!) {
          out += Self.sgr(for: cell, colors: colors)
          current = cell
        }
        out.unicodeScalars.append(cell.glyph)
      }
      return out + "\u{1B}[0m"
    }
  }

  /// The SGR sequence that sets a cell's style from a reset state.
  public static func sgr(for cell: Cell, colors: ColorDepth) -> String {
    var codes = ["0"]
    if cell.bold { codes.append("1") }
    if cell.reverse { codes.append("7") }
    // With no colours, only the emphasis is sent.
    if colors != .none, let fg = cell.foreground { codes.append(colors.foregroundCode(fg)) }
    if colors != .none, let bg = cell.background { codes.append(colors.backgroundCode(bg)) }
    return "\u{1B}[" + codes.joined(separator: ";") + "m"
  }

  /// A run of changed cells on one row.
  public struct Change: Equatable, Sendable {
    /// The row of the run.
    public var row: Int
    /// The column the run starts at.
    public var column: Int
    /// The new cells, left to right.
    public var cells: ArraySlice<Cell>
  }

  /// The runs of cells that differ from `old` (everything when the sizes differ).
  public func changes(from old: CellBuffer?) -> [Change] {
    var result: [Change] = []
    let same = old.map { $0.columns == columns && $0.rows == rows } ?? false
    for row in 0..<rows {
      var column = 0
      let base = row * columns
      while column < columns {
        if same && old!.cells[base + column] == cells[base + column] {
          column += 1
          continue
        }
        let start = column
        while column < columns && !(same && old!.cells[base + column] == cells[base + column]) {
          column += 1
        }
        result.append(
          Change(row: row, column: start, cells: cells[(base + start)..<(base + column)]))
      }
    }
    return result
  }
}

/// How many colours a terminal or output has.
public enum ColorDepth: Sendable {
  /// No colour at all: text only.
  case none
  /// The 16 basic colours (`30–37`, `90–97`).
  case basic16
  /// The xterm 256-colour palette (`38;5;n`).
  case palette256
  /// 24-bit colour: a `TermColor` that holds RGB is sent as `38;2;r;g;b` / `48;2;r;g;b`;
  /// palette colours are still sent as `38;5;n`, so themes keep their say over them.
  case truecolor

  /// True when the environment says the terminal shows 24-bit colour
  /// (`COLORTERM=truecolor` or `COLORTERM=24bit`, the convention most terminals follow).
  public static func announcesTrueColor(_ environment: [String: String]) -> Bool {
    switch environment["COLORTERM"]?.lowercased() {
    case "truecolor", "24bit": return true
    default: return false
    }
  }

  func foregroundCode(_ c: TermColor) -> String {
    switch self {
    case .truecolor where c.isTrueColor:
      let (r, g, b) = c.rgb
      return "38;2;\(r);\(g);\(b)"
    case .palette256, .truecolor: return "38;5;\(c.index)"
    case .basic16, .none:
      let b = Int(c.basic16.index)
      return b < 8 ? "\(30 + b)" : "\(90 + b - 8)"
    }
  }

  func backgroundCode(_ c: TermColor) -> String {
    switch self {
    case .truecolor where c.isTrueColor:
      let (r, g, b) = c.rgb
      return "48;2;\(r);\(g);\(b)"
    case .palette256, .truecolor: return "48;5;\(c.index)"
    case .basic16, .none:
      let b = Int(c.basic16.index)
      return b < 8 ? "\(40 + b)" : "\(100 + b - 8)"
    }
  }
}

/// The scalars of valid UTF-8 (a native string's bytes: each lead byte says how many
/// continuation bytes follow), as their values.
struct UTF8Scalars: IteratorProtocol {
  let bytes: UnsafeBufferPointer<UInt8>
  var i = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  @inline(__always) mutating func next() -> UInt32? {
    guard i < bytes.count else { return nil }
    let b0 = UInt32(bytes[i])
    if b0 < 0x80 {
      i &+= 1
      return b0
    }
    if b0 < 0xE0 {
      defer { i &+= 2 }
      return (b0 & 0x1F) << 6 | UInt32(bytes[i + 1]) & 0x3F
    }
    if b0 < 0xF0 {
      defer { i &+= 3 }
      return (b0 & 0x0F) << 12 | (UInt32(bytes[i + 1]) & 0x3F) << 6 | UInt32(bytes[i + 2]) & 0x3F
    }
    defer { i &+= 4 }
    return (b0 & 0x07) << 18 | (UInt32(bytes[i + 1]) & 0x3F) << 12
      | (UInt32(bytes[i + 2]) & 0x3F) << 6 | UInt32(bytes[i + 3]) & 0x3F
  }
}
