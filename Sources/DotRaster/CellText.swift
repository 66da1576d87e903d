/// A text measured once for cells: the glyph of every cell it takes, as `CellBuffer.put` would
/// write it (a character that is not printable shows as "?", a combining mark takes no cell, a
/// wide glyph two: itself and `Cell.continuation`). A map's names are measured when made and
/// written every frame: `put(_:column:row:foreground:bold:)` copies the glyphs, with no UTF-8
/// decoding and no width look-up per character.
public struct CellText: Sendable, Equatable {
  /// Each cell's scalar value, left to right; 0 for a wide glyph's second cell.
  @usableFromInline let glyphs: [UInt32]
  /// Whether a wide glyph is among them.
  @usableFromInline let hasWide: Bool

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

/// A measured text in its colours: the very cells `CellTextWriter.put(_:column:row:foreground:bold:)`
/// writes for a `CellText`, made once. A map's names are made once and written every frame:
/// `CellTextWriter.put(_:column:row:)` copies a run's cells with one `memmove` where the text
/// lies on the frame (a placed label always does), building no cell per character.
public struct CellRun: Sendable, Equatable {
  /// The cells, left to right (a wide glyph's second cell has the scalar 0).
  @usableFromInline let cells: [Cell]
  /// Whether a wide glyph is among them.
  @usableFromInline let hasWide: Bool

  /// The cells of `text` in `foreground` (nil: the terminal's default), bold or not.
  public init(_ text: CellText, foreground: TermColor? = nil, bold: Bool = false) {
    let flags = bold ? Cell.boldBit : 0
    let fg = foreground?.raw ?? Cell.noColor
    cells = text.glyphs.map { Cell(raw: $0 | flags, foreground: fg, background: Cell.noColor) }
    hasWide = text.hasWide
  }

  /// Columns the run takes (its text's `CellText.width`).
  @inlinable public var width: Int { cells.count }
}

/// A frame's cells lent out by `CellBuffer.withTextWriter(_:)`: measured texts and single
/// cells written as `CellBuffer`'s `put` and subscript write them, without the array's
/// uniqueness check per write.
public struct CellTextWriter {
  /// The frame's cells, row-major (`columns` × `rows`), valid while the writer is lent.
  @usableFromInline let cells: UnsafeMutableBufferPointer<Cell>
  /// The frame's width in cells.
  public let columns: Int
  /// The frame's height in cells.
  public let rows: Int
  /// Whether a wide glyph or a wide glyph's second cell was written (the buffer's
  /// `mayHoldWideGlyphs`).
  @usableFromInline var wroteWide = false

  @usableFromInline init(cells: UnsafeMutableBufferPointer<Cell>, columns: Int, rows: Int) {
    self.cells = cells
    self.columns = columns
    self.rows = rows
  }

  /// `CellBuffer.put(_:column:row:foreground:bold:)`.
  @inlinable @discardableResult
  public mutating func put(
    _ text: CellText, column: Int, row: Int, foreground: TermColor? = nil, bold: Bool = false
  ) -> Int {
    guard row >= 0 && row < rows else { return 0 }
    let flags = bold ? Cell.boldBit : 0
    let fg = foreground?.raw ?? Cell.noColor
    let cols = columns
    // The row's cells: `cells` holds `rows` of them.
    let cell = cells.baseAddress! + row * cols
    return text.glyphs.withUnsafeBufferPointer { g in
      let n = g.count
      if column >= 0 && column <= cols - n {
        // All of it on the screen (a placed label): every cell written is in the row.
        let start = cell + column
        for i in 0..<n {
          start[i] = Cell(raw: g[i] | flags, foreground: fg, background: Cell.noColor)
        }
        if text.hasWide { wroteWide = true }
        return n
      }
      // As `put` of a string: up to `columns` cells from the start, each written tested
      // to lie in the row (0 ≤ c and c + width ≤ limit ≤ cols); every glyph read is one of
      // the text's (i < n).
      let limit = min(cols, column + cols)
      var c = column
      var i = 0
      while i < n && c < limit {
        let v = g[i]
        let w = i + 1 < n && g[i + 1] == 0 ? 2 : 1
        if w == 2 && c + 1 >= limit { break }
        if c >= 0 { cell[c] = Cell(raw: v | flags, foreground: fg, background: Cell.noColor) }
        if w == 2 && c + 1 >= 0 {
          cell[c + 1] = Cell(raw: flags, foreground: fg, background: Cell.noColor)
          wroteWide = true
        }
        c += w
        i += w
      }
      return c - column
    }
  }

  /// Writes a run's cells at (`column`, `row`): the cells `put(_:column:row:foreground:bold:)`
  /// writes for its text and colours. Returns the columns written.
  @inlinable @inline(__always) @discardableResult
  public mutating func put(_ run: CellRun, column: Int, row: Int) -> Int {
    let n = run.cells.count
    guard row >= 0 && row < rows && column >= 0 && column <= columns &- n else {
      return putCut(run, column: column, row: row)
    }
    // All of it on the screen (a placed label): the `n` cells from `column` of the row are
    // in the frame (`cells` holds `rows` rows of `columns`).
    run.cells.withUnsafeBufferPointer { r in
      if n > 0 {
        Self.copyCells(
          from: UnsafeRawPointer(r.baseAddress!),
          to: UnsafeMutableRawPointer(cells.baseAddress! + (row &* columns &+ column)),
          bytes: n &* MemoryLayout<Cell>.stride)
      }
    }
    if run.hasWide { wroteWide = true }
    return n
  }

  /// Copies `bytes` bytes of cells (at least one cell: 12 bytes) from `source` to `target`,
  /// 16 bytes at a time, the last 16 (or, under 16, two 8-byte words) overlapping what came
  /// before rather than running past the end. Inline loads and stores, not `memmove`: with no
  /// call between them, the run's array is not retained and released around the copy, and
  /// the placer's values stay in registers.
  @inlinable @inline(__always) static func copyCells(
    from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, bytes: Int
  ) {
    // Cells are three `UInt32`s (a trivial type): their bytes are copied as words. Every
    // load and store lies within the first `bytes` bytes of its side, and the two sides do
    // not overlap (a run's own array and the frame's cells).
    typealias Chunk = SIMD2<UInt64>
    if bytes >= 16 {
      var i = 0
      while bytes &- i > 16 {
        target.storeBytes(
          of: source.loadUnaligned(fromByteOffset: i, as: Chunk.self), toByteOffset: i,
          as: Chunk.self)
        i &+= 16
      }
      target.storeBytes(
        of: source.loadUnaligned(fromByteOffset: bytes &- 16, as: Chunk.self),
        toByteOffset: bytes &- 16, as: Chunk.self)
    } else if bytes >= 8 {
      let a = source.loadUnaligned(as: UInt64.self)
      let b = source.loadUnaligned(fromByteOffset: bytes &- 8, as: UInt64.self)
      target.storeBytes(of: a, as: UInt64.self)
      target.storeBytes(of: b, toByteOffset: bytes &- 8, as: UInt64.self)
    } else {
      target.copyMemory(from: source, byteCount: bytes)
    }
  }

  /// `put(_:column:row:)` of a run cut by an edge of the frame (or off it), as `put` of a
  /// measured text: up to `columns` cells from the start, each written tested to lie in the row
  /// (0 ≤ c and c + width ≤ limit ≤ cols); every cell read is one of the run's (i < n).
  @usableFromInline mutating func putCut(_ run: CellRun, column: Int, row: Int) -> Int {
    guard row >= 0 && row < rows else { return 0 }
    let cols = columns
    let cell = cells.baseAddress! + row * cols
    let r = run.cells
    let n = r.count
    let limit = min(cols, column + cols)
    var c = column
    var i = 0
    while i < n && c < limit {
      let w = i + 1 < n && r[i + 1].glyphAndFlags & Cell.scalarMask == 0 ? 2 : 1
      if w == 2 && c + 1 >= limit { break }
      if c >= 0 { cell[c] = r[i] }
      if w == 2 && c + 1 >= 0 {
        cell[c + 1] = r[i + 1]
        wroteWide = true
      }
      c += w
      i += w
    }
    return c - column
  }

  /// Writes one cell, as `CellBuffer`'s subscript does (the cell must be on the frame).
  @inlinable public mutating func set(column: Int, row: Int, _ newValue: Cell) {
    precondition(
      column >= 0 && column < columns && row >= 0 && row < rows, "cell off the frame")
    let v = newValue.glyphAndFlags & Cell.scalarMask
    if !Cell.isPlainNarrow(v) && (v == 0 || CellBuffer.displayWidth(of: newValue.glyph) == 2) {
      wroteWide = true
    }
    cells[row * columns + column] = newValue
  }
}

extension Cell {
  /// A cell from its packed fields (`glyphAndFlags`, `foregroundRaw`, `backgroundRaw`).
  @inlinable init(raw glyphAndFlags: UInt32, foreground: UInt32, background: UInt32) {
    self.glyphAndFlags = glyphAndFlags
    foregroundRaw = foreground
    backgroundRaw = background
  }
}
