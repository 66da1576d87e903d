/// A canvas summed up per terminal cell: which of the cell's 2 × 4 dots are inked, and the
/// ink (and 24-bit colour) of its highest-layer dot — exactly what `DotCanvas.paint` turns
/// into a glyph and its colour.
///
/// The frame compositor stacks these instead of dots: a cell takes the union of the dots of
/// every layer over it and the colour of the highest ink among them, which is what painting
/// the dot-by-dot composite gives, because each layer drawn later lies on higher ink layers.
/// One cell costs what a dot cost, and a cell holds eight dots.
public struct CellCanvas: Sendable, Equatable {
  /// The width in cells.
  public let columns: Int
  /// The height in cells.
  public let rows: Int
  /// Braille bits of the inked dots, per cell (row-major).
  public private(set) var bits: [UInt8]
  /// The raw ink of the highest-layer dot, per cell (0: none).
  public private(set) var top: [UInt32]
  /// The 24-bit colour of that dot (`TermColor.raw`), or 0; empty when no cell has one.
  public private(set) var trueColors: [UInt32]
  /// Text drawn in cells (`DrawingContext.drawText`), anchored on this canvas's dot grid, lowest
  /// layer first; written over the glyphs by `paint`.
  public private(set) var textRuns: [TextRun] = []

  /// A blank canvas of `columns` × `rows` cells.
  public init(columns: Int, rows: Int) {
    self.columns = max(columns, 0)
    self.rows = max(rows, 0)
    bits = Array(repeating: 0, count: self.columns * self.rows)
    top = Array(repeating: 0, count: self.columns * self.rows)
    trueColors = []
  }

  /// The cells of a dot canvas whose size is a whole number of cells (any dots past the last
  /// whole cell are left out); with `area`, only the cells that meet it (the rest are blank:
  /// the part of a tile that was drawn).
  public init(_ canvas: DotCanvas, within area: DotRect? = nil) {
    let (c0, c1, r0, r1) = Self.cellRange(canvas, area)
    self.init(canvas, pending: PendingInks(), c0, c1, r0, r1, cropped: false)
  }

  /// The cells of the canvas that `pending.settle(_:)` makes of `canvas` (as
  /// `init(_:within:)` sums that canvas up), without settling it: each dot holding a pending
  /// ink is read as the ink it stands for, and the cell's colour is its top dot's entry.
  package init(_ canvas: DotCanvas, pending: PendingInks, within area: DotRect? = nil) {
    let (c0, c1, r0, r1) = Self.cellRange(canvas, area)
    self.init(canvas, pending: pending, c0, c1, r0, r1, cropped: false)
  }

  /// The cells of `canvas` that meet `area`, as `init(_:pending:within:)` sums them, on a
  /// canvas of only those cells (blank, 0 × 0, when none); `column` and `row`: where its first
  /// cell lies among the whole canvas's cells. What a map tile drawn in part is summed into:
  /// its cells are made, cleared and read where it was drawn, not over the whole tile.
  package static func cropped(
    _ canvas: DotCanvas, pending: PendingInks, to area: DotRect
  ) -> (cells: CellCanvas, column: Int, row: Int) {
    let (c0, c1, r0, r1) = cellRange(canvas, area)
    guard c0 < c1 && r0 < r1 else { return (CellCanvas(columns: 0, rows: 0), 0, 0) }
    return (CellCanvas(canvas, pending: pending, c0, c1, r0, r1, cropped: true), c0, r0)
  }

  /// The cells (columns `c0..<c1`, rows `r0..<r1`) of `canvas` that meet `area` (nil: all).
  private static func cellRange(
    _ canvas: DotCanvas, _ area: DotRect?
  ) -> (c0: Int, c1: Int, r0: Int, r1: Int) {
    let (columns, rows) = (
      canvas.width / CellGeometry.dotsWide, canvas.height / CellGeometry.dotsHigh
    )
    guard let a = area else { return (0, columns, 0, rows) }
    return (
      max(0, a.minX / CellGeometry.dotsWide),
      min(columns, (a.maxX + CellGeometry.dotsWide - 1) / CellGeometry.dotsWide),
      max(0, a.minY / CellGeometry.dotsHigh),
      min(rows, (a.maxY + CellGeometry.dotsHigh - 1) / CellGeometry.dotsHigh)
    )
  }

  /// The cells `c0..<c1` × `r0..<r1` of `canvas` (its pending inks read as what they stand
  /// for), on a blank canvas of the whole canvas's cells, or of only those cells (`cropped`).
  /// A cropped canvas's arrays are made without being cleared first: the sum writes every
  /// one of its cells, the blank ones too (clearing them cost `memset` a byte an instruction
  /// under callgrind, above 2 KB).
  private init(
    _ canvas: DotCanvas, pending: PendingInks, _ c0: Int, _ c1: Int, _ r0: Int, _ r1: Int,
    cropped: Bool
  ) {
    let colours = pending.hasColor || canvas.hasTrueColor
    guard cropped && c0 < c1 && r0 < r1 else {
      self.init(
        columns: canvas.width / CellGeometry.dotsWide, rows: canvas.height / CellGeometry.dotsHigh)
      guard c0 < c1 && r0 < r1 else { return }
      if colours { trueColors = Array(repeating: 0, count: bits.count) }
      let columns = self.columns
      bits.withUnsafeMutableBufferPointer { b in
        top.withUnsafeMutableBufferPointer { t in
          trueColors.withUnsafeMutableBufferPointer { tc in
            // Cell (column, row) of `canvas` is at index `row * columns + column` here.
            let at = r0 &* columns &+ c0
            Self.sumCells(
              canvas, pending, c0, c1, r0, r1, bits: b.baseAddress! + at,
              top: t.baseAddress! + at, colours: colours ? tc.baseAddress! + at : nil,
              stride: columns)
          }
        }
      }
      return
    }
    let (columns, rows) = (c1 - c0, r1 - r0)
    let n = columns * rows
    // (Every element is written by `sumCells` before the initialisers return.)
    var (t, tc): ([UInt32], [UInt32]) = ([], [])
    let bits = [UInt8](unsafeUninitializedCapacity: n) { b, bCount in
      t = [UInt32](unsafeUninitializedCapacity: n) { t, tCount in
        guard colours else {
          Self.sumCells(
            canvas, pending, c0, c1, r0, r1, bits: b.baseAddress!, top: t.baseAddress!,
            colours: nil, stride: columns)
          tCount = n
          return
        }
        tc = [UInt32](unsafeUninitializedCapacity: n) { tc, tcCount in
          Self.sumCells(
            canvas, pending, c0, c1, r0, r1, bits: b.baseAddress!, top: t.baseAddress!,
            colours: tc.baseAddress!, stride: columns)
          tcCount = n
        }
        tCount = n
      }
      bCount = n
    }
    self.init(columns: columns, rows: rows, bits: bits, top: t, trueColors: tc)
  }

  /// A canvas of these cells.
  private init(columns: Int, rows: Int, bits: [UInt8], top: [UInt32], trueColors: [UInt32]) {
    self.columns = columns
    self.rows = rows
    self.bits = bits
    self.top = top
    self.trueColors = trueColors
  }

  /// Writes the cells `c0..<c1` × `r0..<r1` of `canvas` (its pending inks read as what they
  /// stand for), blank ones too: cell (c0 + i, r0 + j) at `bits[j * stride + i]`, `top[…]`
  /// and, when `colours` is given (the canvas has a colour plane or pending 24-bit colours),
  /// `colours[…]`. Which loop: the palette path (no plane, no pending inks), the pending
  /// inks of a canvas without a colour plane (a map tile drawn in 24-bit colours), or the
  /// general one (`addColoredCells`).
  private static func sumCells(
    _ canvas: DotCanvas, _ pending: PendingInks, _ c0: Int, _ c1: Int, _ r0: Int, _ r1: Int,
    bits: UnsafeMutablePointer<UInt8>, top: UnsafeMutablePointer<UInt32>,
    colours: UnsafeMutablePointer<UInt32>?, stride: Int
  ) {
    assert(CellGeometry.dotsWide == 2, "a cell row is read as two dots")
    assert(CellGeometry.dotsHigh == 4, "a cell is read as four rows")
    let w = canvas.width
    let rowBytes = w &* MemoryLayout<Ink>.stride
    let cellBytes = CellGeometry.dotsWide * MemoryLayout<Ink>.stride
    if canvas.hasTrueColor {
      addColoredCells(
        canvas, pending, c0, c1, r0, r1, bits: bits, top: top, colours: colours, stride: stride)
      return
    }
    canvas.dots.withUnsafeBufferPointer { d in
      // The canvas's dot (2 c0, 4 r0).
      let first =
        UnsafeRawPointer(d.baseAddress!)
        + (r0 &* CellGeometry.dotsHigh &* rowBytes &+ c0 &* cellBytes)
      if !pending.isEmpty {
        pending.entries.withUnsafeBufferPointer { table in
          sumPendingCells(
            first, rowBytes: rowBytes, columns: c1 - c0, rows: r1 - r0, table,
            plain: pending.plain, bits: bits, top: top, colours: colours, stride: stride)
        }
        return
      }
      // Cell by cell, its eight dots in the order `DotCanvas.paint` reads them, a row's two
      // dots in one load; a cell whose four rows are all empty (most of a map) is blank.
      // (Offsets in wrapping arithmetic: they lie within the canvas and the cells.)
      var row = first
      var out = 0
      for _ in r0..<r1 {
        var p = row
        for i in 0..<(c1 - c0) {
          defer { p += cellBytes }
          let (p0, p1, p2, p3) = cellRows(p, rowBytes)
          if p0 | p1 | p2 | p3 == 0 {
            bits[out &+ i] = 0
            top[out &+ i] = 0
            continue
          }
          var cellBits: UInt8 = 0
          var high: UInt32 = 0
          for (dy, pair) in [p0, p1, p2, p3].enumerated() where pair != 0 {
            let (left, right) = dots(of: pair)
            if left != 0 {
              cellBits |= CellGeometry.brailleBit(dx: 0, dy: dy)
              if left >= high { high = left }
            }
            if right != 0 {
              cellBits |= CellGeometry.brailleBit(dx: 1, dy: dy)
              if right >= high { high = right }
            }
          }
          bits[out &+ i] = cellBits
          top[out &+ i] = high
        }
        row += CellGeometry.dotsHigh &* rowBytes
        out &+= stride
      }
    }
  }

  /// `sumCells` for a canvas without a colour plane holding pending inks (a map tile drawn in
  /// 24-bit colours, handed out unsettled): `first` is the first cell's top-left dot, each
  /// dot row `rowBytes` on. A dot's ink is the one its pending ink stands for, and the cell's
  /// 24-bit colour its top dot's pending entry (the last of the highest ink in reading order,
  /// as `addColoredCells` finds it): a pending entry's ink is the one the dot stands for, so
  /// the entry's colour is the cell's whenever it has one (0 when the draw was in a palette
  /// colour); a dot holding a settled ink has no colour here, there being no plane.
  ///
  /// When every inked dot holds a pending ink (`PendingInks.plain`), no dot is looked up: a
  /// pending ink holds the ink it stands for above its draw's index
  /// (`DrawingContext.pendingRaw(ink:index:)`), so the highest of a cell's dots, compared as
  /// they are, holds its top ink; the cell's dots are those with bit 31 set, four rows' worth
  /// gathered at once. The top draw's colour is the cell's unless another draw of that ink
  /// has another colour (then the top dot is the last of that ink in reading order, not the
  /// one of the highest index): such a draw's colour is marked `mixed`, and its cells summed
  /// dot by dot (`mixedCell`), as are the cells of a canvas that may hold settled inks.
  @inline(never)
  private static func sumPendingCells(
    _ first: UnsafeRawPointer, rowBytes: Int, columns: Int, rows: Int,
    _ table: UnsafeBufferPointer<(ink: UInt32, entry: UInt64)>, plain: Bool,
    bits: UnsafeMutablePointer<UInt8>, top: UnsafeMutablePointer<UInt32>,
    colours: UnsafeMutablePointer<UInt32>?, stride: Int
  ) {
    // Each draw's colour (`shown`), or `mixed` when another draw of its ink has another (a map
    // tile has a handful of draws: each compared with the others; past `shownCapacity`, every
    // cell is summed dot by dot).
    let n = table.count
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: Self.shownCapacity) { shown in
      let plain = plain && n <= Self.shownCapacity
      if plain {
        for k in 0..<n {
          let (ink, colour) = (table[k].ink, UInt32(truncatingIfNeeded: table[k].entry))
          var c = colour
          for j in 0..<n where table[j].ink == ink {
            if UInt32(truncatingIfNeeded: table[j].entry) != colour { c = mixed }
          }
          shown.initializeElement(at: k, to: c)
        }
      }
      // One loop with colours, one without, one for a canvas that may hold settled inks:
      // the tests made once, not per cell.
      if !plain {
        pendingCells(
          first, rowBytes: rowBytes, columns: columns, rows: rows, table, shown: nil,
          bits: bits, top: top, colours: colours, stride: stride)
      } else if let colours {
        pendingCells(
          first, rowBytes: rowBytes, columns: columns, rows: rows, table,
          shown: UnsafePointer(shown.baseAddress!), bits: bits, top: top, colours: colours,
          stride: stride)
      } else {
        pendingCells(
          first, rowBytes: rowBytes, columns: columns, rows: rows, table,
          shown: UnsafePointer(shown.baseAddress!), bits: bits, top: top, colours: nil,
          stride: stride)
      }
    }
  }

  /// How many draws `sumPendingCells` compares for their colours at most (a map tile has a
  /// handful; below `DrawingContext.pendingInk`'s index, so it is never taken for a draw's).
  private static let shownCapacity = 64

  /// What `sumPendingCells` marks a draw's colour with when another draw of its ink has
  /// another (no `TermColor` has this raw value: see `Cell.noColor`).
  private static let mixed: UInt32 = 0xFFFF_FFFF

  /// `sumPendingCells`' loop: `shown`, each draw's colour or `mixed`, given when every inked
  /// dot holds a pending ink (nil: each cell is summed dot by dot).
  @inline(__always)
  private static func pendingCells(
    _ first: UnsafeRawPointer, rowBytes: Int, columns: Int, rows: Int,
    _ table: UnsafeBufferPointer<(ink: UInt32, entry: UInt64)>, shown: UnsafePointer<UInt32>?,
    bits: UnsafeMutablePointer<UInt8>, top: UnsafeMutablePointer<UInt32>,
    colours: UnsafeMutablePointer<UInt32>?, stride: Int
  ) {
    let count = UInt32(truncatingIfNeeded: table.count)
    let indexMask: UInt32 = 1 << DrawingContext.pendingIndexBits - 1
    let cellBytes = CellGeometry.dotsWide * MemoryLayout<Ink>.stride
    // (Offsets in wrapping arithmetic: they lie within the canvas and the cells.)
    var row = first
    var out = 0
    for _ in 0..<rows {
      // A row's first cell, then the others: only those have a cell before them (the test
      // made once a row, not per cell).
      @inline(__always) func cell(_ p: UnsafeRawPointer, _ o: Int, first: Bool) {
        let (p0, p1, p2, p3) = cellRows(p, rowBytes)
        if p0 | p1 | p2 | p3 == 0 {
          bits[o] = 0
          top[o] = 0
          colours?[o] = 0
          return
        }
        // A cell whose dots hold what the one before it holds (a fill's pattern, cell after
        // cell: a third of liberty's inked cells) is that cell again.
        if !first && cellRows(p - cellBytes, rowBytes) == (p0, p1, p2, p3) {
          bits[o] = bits[o &- 1]
          top[o] = top[o &- 1]
          if let colours { colours[o] = colours[o &- 1] }
          return
        }
        if let shown {
          // The highest dot (an empty one is 0), and the inked ones: those with bit 31,
          // without a test a row.
          let high = highest(p0, p1, p2, p3)
          let cellBits = plainBits(p0, p1, p2, p3)
          // (`DrawingContext.pendingInk` and the like have an index past `shownCapacity`.)
          let k = high & indexMask
          if k < count {
            let colour = shown[Int(k)]
            if colour != mixed {
              bits[o] = cellBits
              top[o] = (high & ~DrawingContext.pendingBase) >> DrawingContext.pendingIndexBits
              colours?[o] = colour
              return
            }
          }
        }
        let cell = mixedCell(p0, p1, p2, p3, table)
        bits[o] = cell.bits
        top[o] = cell.top
        colours?[o] = cell.colour
      }
      if columns > 0 { cell(row, out, first: true) }
      var p = row + cellBytes
      var i = 1
      while i < columns {
        cell(p, out &+ i, first: false)
        p += cellBytes
        i &+= 1
      }
      row += CellGeometry.dotsHigh &* rowBytes
      out &+= stride
    }
  }

  /// The highest of a cell's eight dots, from its four rows (`cellRows`): the highest of the
  /// rows' low halves, and the high half of the highest row compared as a whole (its high half
  /// decides first), which is the highest of the high halves.
  @inline(__always)
  static func highest(_ p0: UInt64, _ p1: UInt64, _ p2: UInt64, _ p3: UInt64) -> UInt32 {
    @inline(__always) func low(_ p: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: p) }
    let lows = max(max(low(p0), low(p1)), max(low(p2), low(p3)))
    return max(lows, UInt32(max(max(p0, p1), max(p2, p3)) >> 32))
  }

  /// The braille bits (`CellGeometry.brailleBit(dx:dy:)`) of a cell's dots that have bit 31
  /// set, from its four rows (`cellRows`): each row's two bits moved into place at once, the
  /// left dots of rows 0–2 to bits 0–2 and row 3's to bit 6, the right ones 32 higher, then
  /// the right dots of rows 0–2 moved down to bits 3–5 and row 3's to bit 7.
  @inline(__always)
  static func plainBits(_ p0: UInt64, _ p1: UInt64, _ p2: UInt64, _ p3: UInt64) -> UInt8 {
    assert(
      CellGeometry.brailleBit(dx: 0, dy: 0) == 1 && CellGeometry.brailleBit(dx: 1, dy: 0) == 8
        && CellGeometry.brailleBit(dx: 0, dy: 3) == 0x40
        && CellGeometry.brailleBit(dx: 1, dy: 3) == 0x80)
    // The left dot in the low half of each row.
    #if _endian(big)
      @inline(__always) func swap(_ p: UInt64) -> UInt64 { p << 32 | p >> 32 }
      let (q0, q1, q2, q3) = (swap(p0), swap(p1), swap(p2), swap(p3))
    #else
      let (q0, q1, q2, q3) = (p0, p1, p2, p3)
    #endif
    let h: UInt64 = 0x8000_0000_8000_0000
    let x = (q0 & h) >> 31 | (q1 & h) >> 30 | (q2 & h) >> 29 | (q3 & h) >> 25
    return UInt8(truncatingIfNeeded: (x | x >> 29) & 0x7F)
      | UInt8(truncatingIfNeeded: q3 >> 56) & 0x80
  }

  /// A cell of `sumPendingCells` summed dot by dot, from its four rows of dots: each dot's ink
  /// looked up, the top dot the last of the highest ink in reading order, its colour its
  /// pending entry's (0 for a settled ink).
  @inline(never)
  private static func mixedCell(
    _ p0: UInt64, _ p1: UInt64, _ p2: UInt64, _ p3: UInt64,
    _ table: UnsafeBufferPointer<(ink: UInt32, entry: UInt64)>
  ) -> (bits: UInt8, top: UInt32, colour: UInt32) {
    let count = UInt32(truncatingIfNeeded: table.count)
    var cellBits: UInt8 = 0
    var high: UInt32 = 0
    var topRaw: UInt32 = 0
    @inline(__always) func dot(_ raw: UInt32, _ bit: UInt8) {
      guard raw != 0 else { return }
      cellBits |= bit
      let ink = DrawingContext.pendingIndex(raw, count: count).map { table[$0].ink } ?? raw
      if ink >= high {
        high = ink
        topRaw = raw
      }
    }
    for (dy, pair) in [p0, p1, p2, p3].enumerated() where pair != 0 {
      let (left, right) = dots(of: pair)
      dot(left, CellGeometry.brailleBit(dx: 0, dy: dy))
      dot(right, CellGeometry.brailleBit(dx: 1, dy: dy))
    }
    let colour = DrawingContext.pendingIndex(topRaw, count: count).map {
      UInt32(truncatingIfNeeded: table[$0].entry)
    }
    return (cellBits, high, colour ?? 0)
  }

  /// A cell's rows of dots (`CellGeometry.dotsHigh`, four), from its top-left dot `p` in a
  /// canvas whose dot rows are `rowBytes` apart: each row's two dots (`CellGeometry.dotsWide`)
  /// in one 64-bit load.
  @inline(__always)
  private static func cellRows(
    _ p: UnsafeRawPointer, _ rowBytes: Int
  ) -> (UInt64, UInt64, UInt64, UInt64) {
    (
      p.loadUnaligned(as: UInt64.self), (p + rowBytes).loadUnaligned(as: UInt64.self),
      (p + 2 &* rowBytes).loadUnaligned(as: UInt64.self),
      (p + 3 &* rowBytes).loadUnaligned(as: UInt64.self)
    )
  }

  /// A row's two dots (their inks), left and right, from their one load (`cellRows`).
  @inline(__always)
  private static func dots(of pair: UInt64) -> (left: UInt32, right: UInt32) {
    #if _endian(big)
      (UInt32(pair >> 32), UInt32(truncatingIfNeeded: pair))
    #else
      (UInt32(truncatingIfNeeded: pair), UInt32(pair >> 32))
    #endif
  }

  /// True when no cell has a dot.
  public var isBlank: Bool { !bits.contains { $0 != 0 } }

  /// Stacks `source` (a tile's cells) with its top-left cell at (column, row), its inks moved
  /// up by `layerBase` layers.
  public mutating func composite(
    _ source: CellCanvas, column dc: Int, row dr: Int, layerBase: UInt32
  ) {
    let c0 = max(0, -dc)
    let c1 = min(source.columns, columns - dc)
    let r0 = max(0, -dr)
    let r1 = min(source.rows, rows - dr)
    guard c0 < c1 && r0 < r1 else { return }
    let shift = layerBase << 8
    if !source.trueColors.isEmpty && trueColors.isEmpty {
      trueColors = Array(repeating: 0, count: bits.count)
    }
    // With a colour plane here, a cell's 24-bit colour follows its top dot (0 when that dot
    // has none).
    let colours = !trueColors.isEmpty
    let sourceColours = source.trueColors
    let (w, sw) = (columns, source.columns)
    // (The colours through buffers too: an array's write checks its uniqueness and bounds.)
    source.bits.withUnsafeBufferPointer { sb in
      source.top.withUnsafeBufferPointer { st in
        sourceColours.withUnsafeBufferPointer { sc in
          bits.withUnsafeMutableBufferPointer { db in
            top.withUnsafeMutableBufferPointer { dt in
              trueColors.withUnsafeMutableBufferPointer { tc in
                // One loop for each case of the colours (written here, and read there), the
                // case settled once, not per cell.
                @inline(__always) func stack(
                  _ out: UnsafeMutablePointer<UInt32>?, _ from: UnsafePointer<UInt32>?
                ) {
                  // (Indices in wrapping arithmetic: they lie within both canvases.)
                  for r in r0..<r1 {
                    let s = r &* sw
                    let d = (r &+ dr) &* w &+ dc
                    for c in c0..<c1 {
                      let b = sb[s &+ c]
                      if b == 0 { continue }
                      db[d &+ c] |= b
                      let t = st[s &+ c] &+ shift
                      if t >= dt[d &+ c] {
                        dt[d &+ c] = t
                        if let out { out[d &+ c] = from?[s &+ c] ?? 0 }
                      }
                    }
                  }
                }
                if !colours {
                  stack(nil, nil)
                } else if sc.isEmpty {
                  stack(tc.baseAddress!, nil)
                } else {
                  stack(tc.baseAddress!, sc.baseAddress!)
                }
              }
            }
          }
        }
      }
    }
    if !source.textRuns.isEmpty {
      addText(
        source.textRuns, atX: dc * CellGeometry.dotsWide, y: dr * CellGeometry.dotsHigh,
        layerBase: layerBase)
    }
  }

  /// A tile's cells to stack: `composite(_:column:row:layerBase:)`'s arguments. (A struct: an
  /// array of tuples holding a canvas is copied by the runtime's generic tuple witnesses.)
  package struct Placed: Sendable {
    package let cells: CellCanvas
    package let column: Int
    package let row: Int
    package let layerBase: UInt32
    package init(_ cells: CellCanvas, column: Int, row: Int, layerBase: UInt32) {
      (self.cells, self.column, self.row, self.layerBase) = (cells, column, row, layerBase)
    }
  }

  /// What `init(columns:rows:)` and then `composite(_:column:row:layerBase:)` of each of
  /// `tiles`, in order, make. The leading tiles whose cells on the canvas meet none of those
  /// before them (a layer's map tiles) are copied row by row in bulk, and only what none of
  /// them covers is cleared (nothing, when they cover the canvas: its arrays are made without
  /// clearing); the others are stacked by `composite`.
  ///
  /// A copy is what `composite` leaves on blank cells: a cell without dots holds no ink and no
  /// colour (every way a `CellCanvas` is made or stacked writes a cell's top ink and colour
  /// only with its dots), so a blank cell copied is blank here, and an inked one takes its
  /// dots, its ink moved up by `layerBase` (above a blank cell's 0), and its colour (0 from a
  /// tile without colours, once some tile has them).
  package init(columns: Int, rows: Int, stacking tiles: [Placed]) {
    self.columns = max(columns, 0)
    self.rows = max(rows, 0)
    let (w, h) = (self.columns, self.rows)
    // The leading tiles copied: each one's cells on this canvas, `c0..<c1` × `r0..<r1` of the
    // tile's (a tile with none leaves the canvas as it is, text too, as `composite` does).
    // (A tile is read into a local once a loop: each `tiles[k].field` read copied the whole
    // `Placed` out, its canvas's four arrays retained and released, some 300 times a frame.)
    var copied: [(index: Int, c0: Int, c1: Int, r0: Int, r1: Int, tc: Int, tr: Int)] = []
    copied.reserveCapacity(tiles.count)
    var covered = 0
    var colours = false
    var next = tiles.count
    for k in tiles.indices {
      let tile = tiles[k]
      let (tc, tr) = (tile.column, tile.row)
      let (c0, c1) = (max(0, -tc), min(tile.cells.columns, w - tc))
      let (r0, r1) = (max(0, -tr), min(tile.cells.rows, h - tr))
      guard c0 < c1 && r0 < r1 else { continue }
      let meets = copied.contains { o in
        tc + c0 < o.tc + o.c1 && o.tc + o.c0 < tc + c1 && tr + r0 < o.tr + o.r1
          && o.tr + o.r0 < tr + r1
      }
      if meets {
        next = k
        break
      }
      copied.append((k, c0, c1, r0, r1, tc, tr))
      covered += (c1 - c0) * (r1 - r0)
      if !tile.cells.trueColors.isEmpty { colours = true }
    }
    let n = w * h
    guard n > 0 else {
      (bits, top, trueColors) = ([], [], [])
      return
    }
    // Cleared first unless the copies write every cell.
    let clear = covered < n
    @inline(__always) func fill(
      _ db: UnsafeMutablePointer<UInt8>, _ dt: UnsafeMutablePointer<UInt32>,
      _ dc: UnsafeMutablePointer<UInt32>?
    ) {
      if clear {
        db.initialize(repeating: 0, count: n)
        dt.initialize(repeating: 0, count: n)
        dc?.initialize(repeating: 0, count: n)
      }
      for o in copied {
        let cells = tiles[o.index].cells
        let (sw, shift) = (cells.columns, tiles[o.index].layerBase << 8)
        let (tc, tr) = (o.tc, o.tr)
        let m = o.c1 - o.c0
        cells.bits.withUnsafeBufferPointer { sb in
          cells.top.withUnsafeBufferPointer { st in
            cells.trueColors.withUnsafeBufferPointer { sc in
              // (Offsets in wrapping arithmetic: they lie within both canvases.)
              for r in o.r0..<o.r1 {
                let s = r &* sw &+ o.c0
                let d = (r &+ tr) &* w &+ tc &+ o.c0
                (db + d).initialize(from: sb.baseAddress! + s, count: m)
                if shift == 0 {
                  (dt + d).initialize(from: st.baseAddress! + s, count: m)
                } else {
                  for i in 0..<m {
                    dt[d &+ i] = sb[s &+ i] == 0 ? 0 : st[s &+ i] &+ shift
                  }
                }
                if let dc {
                  // (An empty array's buffer may have a base address.)
                  if !sc.isEmpty {
                    (dc + d).initialize(from: sc.baseAddress! + s, count: m)
                  } else {
                    (dc + d).initialize(repeating: 0, count: m)
                  }
                }
              }
            }
          }
        }
      }
    }
    // (Every element is written by `fill` before the initialisers return.)
    var (top, trueColors): ([UInt32], [UInt32]) = ([], [])
    bits = [UInt8](unsafeUninitializedCapacity: n) { b, bCount in
      top = [UInt32](unsafeUninitializedCapacity: n) { t, tCount in
        if colours {
          trueColors = [UInt32](unsafeUninitializedCapacity: n) { c, cCount in
            fill(b.baseAddress!, t.baseAddress!, c.baseAddress!)
            cCount = n
          }
        } else {
          fill(b.baseAddress!, t.baseAddress!, nil)
        }
        tCount = n
      }
      bCount = n
    }
    self.top = top
    self.trueColors = trueColors
    for o in copied {
      let tile = tiles[o.index]
      guard !tile.cells.textRuns.isEmpty else { continue }
      addText(
        tile.cells.textRuns, atX: o.tc * CellGeometry.dotsWide, y: o.tr * CellGeometry.dotsHigh,
        layerBase: tile.layerBase)
    }
    for k in next..<tiles.count {
      let tile = tiles[k]
      composite(tile.cells, column: tile.column, row: tile.row, layerBase: tile.layerBase)
    }
  }

  /// Adds text runs of a canvas placed with its top-left dot at (x, y) on this canvas's dot
  /// grid, their layers moved up by `layerBase`: those whose anchor dot lies on this canvas
  /// (and inside `area`, in this canvas's dots, when given). A run reaching past the canvas's
  /// edge is kept here and left out when painted.
  public mutating func addText(
    _ runs: [TextRun], atX dx: Int, y dy: Int, layerBase: UInt32, within area: DotRect? = nil
  ) {
    let wDots = columns * CellGeometry.dotsWide
    let hDots = rows * CellGeometry.dotsHigh
    for var run in runs {
      run.anchorX += dx
      run.anchorY += dy
      guard run.anchorX >= 0, run.anchorX < wDots, run.anchorY >= 0, run.anchorY < hDots else {
        continue
      }
      if let a = area {
        guard run.anchorX >= a.minX, run.anchorX < a.maxX, run.anchorY >= a.minY,
          run.anchorY < a.maxY
        else { continue }
      }
      run.layer += layerBase
      textRuns.append(run)
    }
  }

  /// Whether a run lies wholly on the canvas (only those are painted).
  func fits(_ run: TextRun) -> Bool {
    run.column >= 0 && run.column + run.width <= columns && run.row >= 0 && run.row < rows
  }

  /// The cells of the text that `paint` writes, each run with a cell of space either side
  /// (row-major indices): what names placed later keep off.
  public func textCellIndices() -> [Int] {
    var out: [Int] = []
    for run in textRuns where fits(run) {
      let lo = max(run.column - 1, 0)
      let hi = min(run.column + run.width + 1, columns)
      for c in lo..<hi { out.append(run.row * columns + c) }
    }
    return out
  }

  /// `sumCells` for a canvas with a colour plane (its dots may hold pending inks too): what
  /// settling the canvas, then `add(_:atX:y:layerBase:within:)`, gives there, cell by cell as
  /// the palette path reads them (a cell's eight dots, a row's two in one load). A dot's ink
  /// is the one its pending ink stands for; the 24-bit colour is looked up once per inked
  /// cell, for its top dot (the last of the highest ink in that order, whose colour `add`
  /// leaves): its pending entry, or its colour-plane entry when it holds no pending ink.
  /// `colours` is given, the canvas having a plane.
  @inline(never)
  private static func addColoredCells(
    _ canvas: DotCanvas, _ pending: PendingInks, _ c0: Int, _ c1: Int, _ r0: Int, _ r1: Int,
    bits b: UnsafeMutablePointer<UInt8>, top t: UnsafeMutablePointer<UInt32>,
    colours: UnsafeMutablePointer<UInt32>?, stride: Int
  ) {
    guard let out = colours else { return }
    let w = canvas.width
    let count = UInt32(pending.entries.count)
    pending.entries.withUnsafeBufferPointer { table in
      canvas.withDotsAndColors { d, plane in
        let raw = UnsafeRawPointer(d.baseAddress!)
        let rowBytes = w &* MemoryLayout<Ink>.stride
        let cellBytes = CellGeometry.dotsWide * MemoryLayout<Ink>.stride
        // (Offsets in wrapping arithmetic: they lie within the canvas and the cells.)
        for row in r0..<r1 {
          var p = raw + (row &* CellGeometry.dotsHigh &* rowBytes &+ c0 &* cellBytes)
          let rowOut = (row &- r0) &* stride &- c0
          for column in c0..<c1 {
            defer { p += cellBytes }
            let i = rowOut &+ column
            let (p0, p1, p2, p3) = cellRows(p, rowBytes)
            if p0 | p1 | p2 | p3 == 0 {
              b[i] = 0
              t[i] = 0
              out[i] = 0
              continue
            }
            var cellBits: UInt8 = 0
            var high: UInt32 = 0
            var topRaw: UInt32 = 0
            // The top dot's place in the cell: its row, plus 4 for the right column.
            var at = 0
            @inline(__always) func dot(_ raw: UInt32, _ dx: Int, _ dy: Int) {
              guard raw != 0 else { return }
              cellBits |= CellGeometry.brailleBit(dx: dx, dy: dy)
              let ink = DrawingContext.pendingIndex(raw, count: count).map { table[$0].ink } ?? raw
              if ink >= high {
                high = ink
                topRaw = raw
                at = dx &* CellGeometry.dotsHigh &+ dy
              }
            }
            for (dy, pair) in [p0, p1, p2, p3].enumerated() where pair != 0 {
              let (left, right) = dots(of: pair)
              dot(left, 0, dy)
              dot(right, 1, dy)
            }
            b[i] = cellBits
            t[i] = high
            // The top dot's entry: its pending one, or the plane's while the dot keeps the
            // ink it got it with (`DotCanvas.color(x:y:)`); a palette colour is none.
            var e: UInt64 = 0
            if let k = DrawingContext.pendingIndex(topRaw, count: count) {
              e = table[k].entry
            } else if !plane.isEmpty {
              let x = column &* CellGeometry.dotsWide &+ at / CellGeometry.dotsHigh
              e = plane[(row &* CellGeometry.dotsHigh &+ at % CellGeometry.dotsHigh) &* w &+ x]
            }
            var colour: UInt32 = 0
            if e != 0 && UInt32(truncatingIfNeeded: e >> 32) == high {
              let c = TermColor(raw: UInt32(truncatingIfNeeded: e))
              if c.isTrueColor { colour = c.raw }
            }
            out[i] = colour
          }
        }
      }
    }
  }

  /// Stacks the dots of `source` placed with its top-left dot at (x, y) on this canvas's dot
  /// grid, inks moved up by `layerBase` layers, only those inside `area` (in this canvas's
  /// dots; nil: all). For tiles that do not sit on whole cells, or that map
  /// content above cuts into.
  public mutating func add(
    _ source: DotCanvas, atX dx: Int, y dy: Int, layerBase: UInt32,
    within area: DotRect? = nil
  ) {
    let wDots = columns * CellGeometry.dotsWide
    let hDots = rows * CellGeometry.dotsHigh
    let area = area ?? DotRect(minX: 0, minY: 0, maxX: wDots, maxY: hDots)
    let x0 = max(0, -dx, area.minX - dx)
    let x1 = min(source.width, wDots - dx, area.maxX - dx)
    let y0 = max(0, -dy, area.minY - dy)
    let y1 = min(source.height, hDots - dy, area.maxY - dy)
    guard x0 < x1 && y0 < y1 else { return }
    let shift = layerBase << 8
    let colours = source.hasTrueColor
    if colours && trueColors.isEmpty { trueColors = Array(repeating: 0, count: bits.count) }
    // Read and written through buffers (a bounds check and a uniqueness check per dot of a
    // 24-bit canvas made this a tenth of a styled frame's instructions).
    let cols = columns
    let sw = source.width
    source.withDotsAndColors { src, plane in
      bits.withUnsafeMutableBufferPointer { bits in
        top.withUnsafeMutableBufferPointer { top in
          trueColors.withUnsafeMutableBufferPointer { out in
            let keeps = !out.isEmpty
            for sy in y0..<y1 {
              let y = sy + dy
              let rowBase = (y / CellGeometry.dotsHigh) * cols
              let bitY = y % CellGeometry.dotsHigh
              let srcRow = sy * sw
              for sx in x0..<x1 {
                let ink = src[srcRow + sx].raw
                if ink == 0 { continue }
                let x = sx + dx
                let i = rowBase + x / CellGeometry.dotsWide
                bits[i] |= CellGeometry.brailleBit(dx: x % CellGeometry.dotsWide, dy: bitY)
                let t = ink &+ shift
                guard t >= top[i] else { continue }
                top[i] = t
                guard keeps else { continue }
                // The dot's 24-bit colour while it keeps the ink it got it with
                // (`DotCanvas.color(x:y:)`); a palette colour is none.
                var c: UInt32 = 0
                if colours {
                  let e = plane[srcRow + sx]
                  if e != 0 && UInt32(truncatingIfNeeded: e >> 32) == ink {
                    let colour = TermColor(raw: UInt32(truncatingIfNeeded: e))
                    if colour.isTrueColor { c = colour.raw }
                  }
                }
                out[i] = c
              }
            }
          }
        }
      }
    }
  }

  /// One flag per cell: true where a dot of the cell is on `layer` or above.
  public func cellsInked(atOrAbove layer: UInt32) -> [Bool] {
    let threshold = layer << 8
    return [Bool](unsafeUninitializedCapacity: top.count) { out, count in
      top.withUnsafeBufferPointer { top in
        for i in top.indices { out.initializeElement(at: i, to: top[i] >= threshold) }
      }
      count = top.count
    }
  }

  /// Writes the inked cells over `buffer` as glyphs of `charset` in their top dot's colour
  /// (blank cells are left as they are; an inked cell keeps the buffer's background there).
  public func paint(into buffer: inout CellBuffer, charset: Charset) {
    let columns = min(self.columns, buffer.columns)
    let rows = min(self.rows, buffer.rows)
    let colours = !trueColors.isEmpty
    let glyphs = charset.glyphValues
    let outColumns = buffer.columns
    let (bits, top, trueColors) = (self.bits, self.top, self.trueColors)
    // Dot glyphs are one column wide, so the cells are written in place. (Indices in wrapping
    // arithmetic: they lie within both grids.)
    buffer.withNarrowCells { out in
      bits.withUnsafeBufferPointer { bits in
        top.withUnsafeBufferPointer { top in
          trueColors.withUnsafeBufferPointer { trueColors in
            glyphs.withUnsafeBufferPointer { glyphs in
              // One loop with the colour plane, one without.
              @inline(__always) func paint(_ trueColors: UnsafePointer<UInt32>?) {
                for row in 0..<rows {
                  let base = row &* self.columns
                  let outBase = row &* outColumns
                  @inline(__always) func cell(_ column: Int) {
                    // The glyph, not bold or reversed, in the ink's colour, on the cell's
                    // background.
                    @inline(__always) func put(_ b: UInt8, _ colour: UInt32) {
                      out[outBase &+ column].glyphAndFlags = glyphs[Int(b)]
                      out[outBase &+ column].foregroundRaw = colour
                    }
                    // The 24-bit colour when the cell has one (nearly every inked cell of a
                    // style drawn in them): such a cell has dots (a cell's colour is written
                    // only with its dots), so they are not tested.
                    if let trueColors {
                      let colour = trueColors[base &+ column]
                      if colour != 0 {
                        put(bits[base &+ column], colour)
                        return
                      }
                    }
                    // Else the top ink's, for an inked cell.
                    let b = bits[base &+ column]
                    if b == 0 { return }
                    put(b, Ink(raw: top[base &+ column]).color.raw)
                  }
                  guard trueColors != nil else {
                    for column in 0..<columns { cell(column) }
                    continue
                  }
                  // With colours (most cells inked), two cells a turn: the loop's count and
                  // test once for both.
                  var column = 0
                  while column &+ 1 < columns {
                    cell(column)
                    cell(column &+ 1)
                    column &+= 2
                  }
                  if column < columns { cell(column) }
                }
              }
              if colours { paint(trueColors.baseAddress!) } else { paint(nil) }
            }
          }
        }
      }
    }
    if !textRuns.isEmpty { paintText(into: &buffer) }
  }

  /// Writes the text runs that lie wholly on the canvas over the glyphs, lowest layer first,
  /// character by character: a character whose cells hold ink of a layer above the run's keeps
  /// that ink's glyph (the upper layer wins the cell, as for dots).
  func paintText(into buffer: inout CellBuffer) {
    for run in textRuns where fits(run) && run.row < buffer.rows {
      var c = run.column
      let base = run.row * columns
      for scalar in run.text.unicodeScalars {
        let w = CellBuffer.displayWidth(of: scalar)
        if w == 0 { continue }
        let covered = (c..<(c + w)).contains { top[base + $0] >> 8 > run.layer }
        if !covered {
          buffer.put(
            String(scalar), column: c, row: run.row, foreground: run.color, bold: run.bold)
        }
        c += w
      }
    }
  }
}
