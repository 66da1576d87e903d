/// Turns frames into the bytes that make a terminal show them, each frame written as its
/// difference from the one before.
///
/// Only cells that differ from what the terminal shows are written. The cursor is moved only
/// where a run of changes starts (by the shortest of CUP, CUF, CUB, CUU, CUD and CR, or by
/// rewriting a few unchanged cells when that is shorter), and SGR is sent only where the style
/// changes (the shorter of an incremental change and a reset with the whole style). Trailing
/// blanks are cleared with EL.
///
/// Panning moves most of the picture by whole cells, so before diffing the writer lets the
/// terminal move what it already shows: rows that moved up or down are scrolled inside a
/// region (DECSTBM with SU or SD, then the region is reset), and rows whose cells moved
/// sideways are shifted with DCH or ICH (`CSI n P`, `CSI n @`). The shift is estimated from a
/// few rows and tried on each row; a row takes it only when fewer cells are then left to write.
/// Whatever the estimate, the rows are then diffed against what the terminal shows after the
/// shift, so a poor estimate costs bytes, never a wrong frame.
///
/// The writer assumes a terminal with automatic margins that wraps late (terminfo `am` and
/// `xenl`, as xterm, VTE, kitty, tmux and screen do): it writes the last column of a row,
/// then moves the cursor explicitly, so the screen never scrolls. Erasing and shifting are done
/// in the default style, so terminals that fill with the current background (`bce`) show the
/// same blanks as those that do not. Each frame ends with the style reset.
///
/// Frames should have their wide glyphs mended (`CellBuffer.repairWideGlyphs`); a half glyph
/// left in a frame is written as a space, so the cursor never loses count.
public struct TerminalWriter: Sendable {
  /// What the terminal can do beyond moving the cursor, writing text, erasing and setting SGR.
  public struct Features: Sendable, Equatable {
    /// How colours are sent.
    public var colors: ColorDepth
    /// DCH and ICH (`CSI n P`, `CSI n @`): a row's cells shifted sideways by the terminal.
    public var shiftsRows: Bool
    /// DECSTBM with SU and SD (`CSI t;b r`, `CSI n S`, `CSI n T`): rows scrolled in a region.
    public var scrollsRegions: Bool

    /// What a terminal can do: colours sent as `colors`, with or without row shifts and scrolling.
    public init(colors: ColorDepth, shiftsRows: Bool = true, scrollsRegions: Bool = true) {
      self.colors = colors
      self.shiftsRows = shiftsRows
      self.scrollsRegions = scrollsRegions
    }
  }

  /// What the terminal written to can do.
  public let features: Features
  /// The frame the terminal shows, as far as this writer knows (nil: unknown, so the next
  /// frame clears the screen and is written whole).
  public private(set) var shown: CellBuffer?
  /// The bytes of the last frame (the buffer is reused from frame to frame).
  public var bytes: [UInt8] { out.bytes }
  /// What the last frame did, for the bench and the tests.
  public private(set) var lastPlan = Plan()

  /// The terminal operations the last frame used besides writing cells.
  public struct Plan: Sendable, Equatable {
    /// Rows scrolled (positive: the picture moved up), 0 when none.
    public var scrolledRows = 0
    /// Rows shifted sideways with DCH or ICH.
    public var shiftedRows = 0
    /// The sideways shift most rows took (positive: the picture moved left).
    public var shift = 0
    /// True when the frame was written whole on a cleared screen.
    public var fullRepaint = false
    /// A plan that used nothing.
    public init() {}
  }

  private var out: Emitter
  private var shownHashes: [UInt64] = []
  private var newHashes: [UInt64] = []
  private var scratch: [Cell] = []
  private var rowShifts: [Int] = []

  /// A writer for a terminal with these features; its first frame clears the screen.
  public init(features: Features) {
    self.features = features
    out = Emitter(colors: features.colors)
  }

  /// Forgets what the terminal shows: the next frame clears the screen and is written whole.
  public mutating func reset() {
    shown = nil
    out.forget()
  }

  /// The bytes that change the terminal from the frame last written (or from an unknown
  /// screen) to `frame`. The result is valid until the next call.
  @discardableResult
  public mutating func update(to frame: CellBuffer) -> [UInt8] {
    out.begin()
    let cols = frame.columns
    let rows = frame.rows
    TerminalWriter.hashRows(of: frame, into: &newHashes)
    var plan = Plan()
    var screen = scratch
    scratch = []
    if let previous = shown, previous.columns == cols, previous.rows == rows, cols > 0 {
      var useScreen = false
      var beliefHashes = shownHashes
      let blankHash = TerminalWriter.blankRowHash(columns: cols)
      if features.scrollsRegions,
        let scroll = TerminalWriter.verticalShift(
          old: beliefHashes, new: newHashes, blankHash: blankHash)
      {
        screen.removeAll(keepingCapacity: true)
        screen.append(contentsOf: previous.cells)
        useScreen = true
        TerminalWriter.scroll(
          &screen, columns: cols, top: scroll.top, bottom: scroll.bottom, by: scroll.rows,
          hashes: &beliefHashes, blankHash: blankHash)
        out.scroll(top: scroll.top, bottom: scroll.bottom, by: scroll.rows)
        plan.scrolledRows = scroll.rows
      }
      rowShifts.removeAll(keepingCapacity: true)
      rowShifts.append(contentsOf: repeatElement(0, count: rows))
      if features.shiftsRows && cols >= 8 {
        let newCells = frame.cells
        let shifts: (Int, Int) =
          useScreen
          ? screen.withUnsafeBufferPointer { s in
            newCells.withUnsafeBufferPointer { n in
              TerminalWriter.planShifts(
                old: s, new: n, columns: cols, rows: rows, oldHashes: beliefHashes,
                newHashes: newHashes, into: &rowShifts)
            }
          }
          : previous.cells.withUnsafeBufferPointer { s in
            newCells.withUnsafeBufferPointer { n in
              TerminalWriter.planShifts(
                old: s, new: n, columns: cols, rows: rows, oldHashes: beliefHashes,
                newHashes: newHashes, into: &rowShifts)
            }
          }
        plan.shiftedRows = shifts.0
        plan.shift = shifts.1
        if shifts.0 > 0 && !useScreen {
          screen.removeAll(keepingCapacity: true)
          screen.append(contentsOf: previous.cells)
          useScreen = true
        }
      }
      if plan.shiftedRows > 0 {
        for r in 0..<rows where rowShifts[r] != 0 {
          TerminalWriter.shiftRow(&screen, columns: cols, row: r, by: rowShifts[r])
        }
      }
      let shifts = rowShifts
      let write = { (old: UnsafeBufferPointer<Cell>, out: inout Emitter) in
        frame.cells.withUnsafeBufferPointer { new in
          for r in 0..<rows {
            if shifts[r] != 0 { out.shiftRow(r, by: shifts[r]) }
            out.diffRow(r, old: old, new: new, columns: cols)
          }
        }
      }
      if useScreen {
        screen.withUnsafeBufferPointer { write($0, &out) }
      } else {
        previous.cells.withUnsafeBufferPointer { write($0, &out) }
      }
    } else {
      plan.fullRepaint = true
      out.clearScreen()
      screen.removeAll(keepingCapacity: true)
      screen.append(contentsOf: repeatElement(Cell.blank, count: cols * rows))
      screen.withUnsafeBufferPointer { old in
        frame.cells.withUnsafeBufferPointer { new in
          for r in 0..<rows { out.diffRow(r, old: old, new: new, columns: cols) }
        }
      }
    }
    out.finish()
    scratch = screen
    swap(&shownHashes, &newHashes)
    shown = frame
    lastPlan = plan
    return out.bytes
  }

  /// The bytes that change a terminal showing `old` (nil: anything) to `new`.
  public static func bytes(from old: CellBuffer?, to new: CellBuffer, features: Features)
    -> [UInt8]
  {
    var w = TerminalWriter(features: features)
    if let old {
      w.shown = old
      TerminalWriter.hashRows(of: old, into: &w.shownHashes)
    }
    return w.update(to: new)
  }

  // MARK: Planning

  private static func hashRows(of frame: CellBuffer, into hashes: inout [UInt64]) {
    hashes.removeAll(keepingCapacity: true)
    let cols = frame.columns
    frame.cells.withUnsafeBufferPointer { p in
      for r in 0..<frame.rows { hashes.append(hashRow(p, from: r * cols, count: cols)) }
    }
  }

  /// A row's hash (FNV-1a style), in four lanes over every fourth cell, so the multiplies of
  /// neighbouring cells do not wait for each other (a row of 300 cells is hashed every frame).
  static func hashRow(_ p: UnsafeBufferPointer<Cell>, from start: Int, count: Int) -> UInt64 {
    let prime: UInt64 = 0x100_0000_01b3
    var lanes: (UInt64, UInt64, UInt64, UInt64) = (
      0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4, 0x9ce4_8422_2325_cbf2, 0x2325_cbf2_9ce4_8422
    )
    @inline(__always) func mix(_ h: UInt64, _ c: Cell) -> UInt64 {
      let h1 = (h ^ (UInt64(c.glyphAndFlags) | UInt64(c.foregroundRaw) << 32)) &* prime
      return (h1 ^ UInt64(c.backgroundRaw)) &* prime
    }
    var i = start
    let end = start + count
    while i + 4 <= end {
      lanes.0 = mix(lanes.0, p[i])
      lanes.1 = mix(lanes.1, p[i + 1])
      lanes.2 = mix(lanes.2, p[i + 2])
      lanes.3 = mix(lanes.3, p[i + 3])
      i += 4
    }
    while i < end {
      lanes.0 = mix(lanes.0, p[i])
      i += 1
    }
    return ((((lanes.0 ^ lanes.1) &* prime) ^ lanes.2) &* prime ^ lanes.3) &* prime
  }

  static func blankRowHash(columns: Int) -> UInt64 {
    let row = [Cell](repeating: .blank, count: columns)
    return row.withUnsafeBufferPointer { hashRow($0, from: 0, count: columns) }
  }

  /// A scroll of rows `top...bottom` by `rows` (positive: up, the new row r is the old row
  /// r + rows).
  struct Scroll: Equatable {
    var top: Int
    var bottom: Int
    var rows: Int
  }

  /// The scroll that makes most rows right, from the rows' hashes: a few distinctive new rows
  /// are looked up among the old ones, and the offsets they vote for are tried on every row.
  static func verticalShift(old: [UInt64], new: [UInt64], blankHash: UInt64) -> Scroll? {
    let rows = new.count
    guard rows >= 3, old.count == rows else { return nil }
    var votes: [(offset: Int, count: Int)] = []
    let samples = min(rows, 12)
    for s in 0..<samples {
      let r = (s * rows + rows / 2) / samples
      let h = new[r]
      if h == old[r] || h == blankHash { continue }
      if r > 0 && new[r - 1] == h { continue }
      // The nearest old row with the same content.
      var found: Int?
      for distance in 1..<rows {
        if r - distance >= 0 && old[r - distance] == h {
          found = -distance
          break
        }
        if r + distance < rows && old[r + distance] == h {
          found = distance
          break
        }
        if r - distance < 0 && r + distance >= rows { break }
      }
      guard let d = found else { continue }
      if let i = votes.firstIndex(where: { $0.offset == d }) {
        votes[i].count += 1
      } else {
        votes.append((d, 1))
      }
    }
    votes.sort { $0.count > $1.count }
    var best: (scroll: Scroll, gain: Int)?
    for (d, count) in votes.prefix(2) where count >= 2 {
      // Rows the scroll makes right: new row r is old row r + d.
      var lo = -1
      var hi = -1
      for r in max(0, -d)..<min(rows, rows - d) where new[r] == old[r + d] && new[r] != blankHash {
        if lo < 0 { lo = r }
        hi = r
      }
      guard lo >= 0 else { continue }
      let top = d > 0 ? lo : lo + d
      let bottom = d > 0 ? hi + d : hi
      var gain = 0
      for r in top...bottom {
        let moved = r + d
        let after =
          (d > 0 ? r <= bottom - d : r >= top - d) && moved >= 0 && moved < rows
          ? old[moved] : blankHash
        gain += (new[r] == after ? 1 : 0) - (new[r] == old[r] ? 1 : 0)
      }
      if gain >= 2, gain > best?.gain ?? 0 {
        best = (Scroll(top: top, bottom: bottom, rows: d), gain)
      }
    }
    return best?.scroll
  }

  /// Scrolls rows `top...bottom` of `cells` as the terminal does (blank rows come in).
  static func scroll(
    _ cells: inout [Cell], columns: Int, top: Int, bottom: Int, by d: Int,
    hashes: inout [UInt64], blankHash: UInt64
  ) {
    if d > 0 {
      for r in top...bottom {
        let source = r + d
        for c in 0..<columns {
          cells[r * columns + c] = source <= bottom ? cells[source * columns + c] : .blank
        }
        hashes[r] = source <= bottom ? hashes[source] : blankHash
      }
    } else {
      for r in stride(from: bottom, through: top, by: -1) {
        let source = r + d
        for c in 0..<columns {
          cells[r * columns + c] = source >= top ? cells[source * columns + c] : .blank
        }
        hashes[r] = source >= top ? hashes[source] : blankHash
      }
    }
  }

  /// Decides, row by row, whether shifting the shown row sideways leaves fewer cells to write;
  /// fills `shifts` (0: no shift) and returns the rows shifted and the most common shift.
  static func planShifts(
    old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>, columns cols: Int, rows: Int,
    oldHashes: [UInt64], newHashes: [UInt64], into shifts: inout [Int]
  ) -> (Int, Int) {
    let candidates = shiftCandidates(
      old: old, new: new, columns: cols, rows: rows, oldHashes: oldHashes, newHashes: newHashes)
    guard !candidates.isEmpty else { return (0, 0) }
    var shifted = 0
    var counts = [Int](repeating: 0, count: candidates.count)
    guard let o = old.baseAddress, let n = new.baseAddress else { return (0, 0) }
    for r in 0..<rows where oldHashes[r] != newHashes[r] {
      let base = r * cols
      // The best shift first (the first of the fewest misses), then the row unshifted, counted
      // only as far as decides: a shift costs about as much as writing a few cells (the move,
      // the reset, CSI k P), so it must leave more than 4 fewer cells to write.
      var best = Int.max
      var choice = -1
      for (i, k) in candidates.enumerated() {
        // The row shifted by k: the old cells moved over, blanks where the row was uncovered.
        let moved = max(cols - abs(k), 0)
        var misses =
          k > 0
          ? mismatches(n + base, o + base + k, count: moved, limit: best)
          : mismatches(n + base + (cols - moved), o + base, count: moved, limit: best)
        if misses < best {
          let uncovered = k > 0 ? n + base + moved : n + base
          misses += mismatches(uncovered, blankOf: cols - moved, limit: best - misses)
        }
        if misses < best {
          best = misses
          choice = i
        }
      }
      if choice >= 0 {
        let misses0 = mismatches(n + base, o + base, count: cols, limit: best + 5)
        if best >= misses0 - 4 { choice = -1 }
      }
      if choice >= 0 {
        shifts[r] = candidates[choice]
        counts[choice] += 1
        shifted += 1
      }
    }
    let most = counts.indices.max { counts[$0] < counts[$1] } ?? 0
    return (shifted, shifted > 0 ? candidates[most] : 0)
  }

  /// How many of `count` cells differ between `a` and `b`, counted 32 cells at a time with no
  /// branch per cell, stopping at the first group that reaches `limit`.
  @inline(__always)
  static func mismatches(
    _ a: UnsafePointer<Cell>, _ b: UnsafePointer<Cell>, count: Int, limit: Int
  ) -> Int {
    var total = 0
    var i = 0
    while i < count {
      let end = min(i + 32, count)
      var k = i
      while k < end {
        total &+= Cell.same(a[k], b[k]) ? 0 : 1
        k += 1
      }
      if total >= limit { return total }
      i = end
    }
    return total
  }

  /// How many of `count` cells from `a` are not blank, stopping once `limit` is reached.
  static func mismatches(_ a: UnsafePointer<Cell>, blankOf count: Int, limit: Int) -> Int {
    var total = 0
    for k in 0..<count where a[k] != .blank {
      total += 1
      if total >= limit { break }
    }
    return total
  }

  /// Sideways shifts worth trying: a few short runs of cells from rows that changed are looked
  /// up in the old rows, and the offsets found on at least two of them are kept (at most two).
  static func shiftCandidates(
    old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>, columns cols: Int, rows: Int,
    oldHashes: [UInt64], newHashes: [UInt64]
  ) -> [Int] {
    let run = 4
    var votes: [(shift: Int, count: Int)] = []
    let samples = min(rows, 8)
    var found: [Int] = []
    for s in 0..<samples {
      let r = (s * rows + rows / 2) / samples
      if oldHashes[r] == newHashes[r] { continue }
      let base = r * cols
      for a in 1...4 {
        let p = a * cols / 5
        guard p + run <= cols, !new[base + p].isContinuation else { continue }
        // A distinctive run: not one cell repeated.
        var distinct = false
        for i in 1..<run where new[base + p + i] != new[base + p] { distinct = true }
        guard distinct else { continue }
        found.removeAll(keepingCapacity: true)
        var q = 0
        while q + run <= cols {
          var same = true
          for i in 0..<run where old[base + q + i] != new[base + p + i] {
            same = false
            break
          }
          if same {
            found.append(q - p)
            if found.count > 3 { break }
          }
          q += 1
        }
        // Not shifted at all, or too common a run to tell.
        if found.contains(0) || found.isEmpty || found.count > 3 { continue }
        for k in found {
          if let i = votes.firstIndex(where: { $0.shift == k }) {
            votes[i].count += 1
          } else {
            votes.append((k, 1))
          }
        }
      }
    }
    votes.sort { $0.count > $1.count }
    return votes.prefix(2).filter { $0.count >= 2 }.map(\.shift)
  }

  /// Shifts one row of `cells` as DCH (k > 0) or ICH (k < 0) at its first column does; a wide
  /// glyph cut in half becomes unknown, so it is written again.
  static func shiftRow(_ cells: inout [Cell], columns cols: Int, row: Int, by k: Int) {
    let base = row * cols
    let n = min(abs(k), cols)
    // The row's cells moved in one copy (cells are plain values), the uncovered ones blanked.
    cells.withUnsafeMutableBufferPointer { p in
      guard let row = p.baseAddress?.advanced(by: base) else { return }
      if k > 0 {
        row.update(from: row + n, count: cols - n)
        (row + cols - n).update(repeating: .blank, count: n)
      } else {
        (row + n).update(from: row, count: cols - n)
        row.update(repeating: .blank, count: n)
      }
    }
    if k > 0 {
      if cells[base].isContinuation { cells[base] = .unknown }
    } else {
      let last = cells[base + cols - 1]
      if !last.isContinuation && last.glyph.value >= 0x1100
        && CellBuffer.displayWidth(of: last.glyph) == 2
      {
        cells[base + cols - 1] = .unknown
      }
    }
  }
}

extension Cell {
  /// A cell no frame has: what the terminal shows there is not known, so it is always written.
  static let unknown: Cell = {
    var c = Cell.blank
    c.glyphAndFlags = UInt32.max
    return c
  }()
}

/// The byte builder behind `TerminalWriter`: the cursor and the style the terminal has, and
/// the shortest sequences that change them.
struct Emitter: Sendable {
  /// A cell's style as the terminal receives it (colours reduced to what it shows).
  struct Style: Equatable {
    var foreground: UInt32
    var background: UInt32
    var flags: UInt32
    static let plain = Style(foreground: Cell.noColor, background: Cell.noColor, flags: 0)
  }

  let colors: ColorDepth
  var bytes: [UInt8] = []
  /// The cursor's row and column; row −1 when unknown (at the start, after the last column).
  private var row = -1
  private var column = 0
  private var style: Style?
  /// Columns of the frame being written.
  private var columns = 0

  init(colors: ColorDepth) {
    self.colors = colors
  }

  /// Starts a frame: the cursor is not known (a resize or another program may have moved it);
  /// the style is the one the last frame ended with.
  mutating func begin() {
    bytes.removeAll(keepingCapacity: true)
    row = -1
  }

  /// Forgets the terminal's style too.
  mutating func forget() {
    style = nil
  }

  /// Resets the style, homes the cursor and clears the screen.
  mutating func clearScreen() {
    setStyle(.plain)
    append("\u{1B}[H\u{1B}[2J")
    row = 0
    column = 0
  }

  /// Leaves the terminal in the default style.
  mutating func finish() {
    if style != nil && style != .plain { setStyle(.plain) }
  }

  /// Scrolls rows top...bottom by `d` (positive: up) inside a scroll region, then resets the
  /// region. Both DECSTBM calls home the cursor.
  mutating func scroll(top: Int, bottom: Int, by d: Int) {
    setStyle(.plain)
    append("\u{1B}[")
    decimal(top + 1)
    bytes.append(UInt8(ascii: ";"))
    decimal(bottom + 1)
    bytes.append(UInt8(ascii: "r"))
    csi(abs(d), final: d > 0 ? "S" : "T")
    append("\u{1B}[r")
    row = 0
    column = 0
  }

  /// Shifts row `r` sideways from its first column: DCH k (k > 0) or ICH −k.
  mutating func shiftRow(_ r: Int, by k: Int) {
    moveTo(r, 0, gap: nil)
    setStyle(.plain)
    csi(abs(k), final: k > 0 ? "P" : "@")
  }

  /// Writes the cells of row `r` that differ from `old`.
  mutating func diffRow(
    _ r: Int, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>, columns cols: Int
  ) {
    columns = cols
    let base = r * cols
    // Where the row's trailing blanks start.
    var tail = cols
    while tail > 0 && new[base + tail - 1] == .blank { tail -= 1 }
    var c = 0
    // Columns before this one have been written or were right already.
    var done = 0
    while c < cols {
      // Equal cells skipped with one test each (the fields' differences or-ed together).
      while c < cols && Cell.same(new[base + c], old[base + c]) { c += 1 }
      if c == cols { break }
      // A wide glyph's second cell is written with its first (once: a second cell whose first
      // is not wide is written as a space).
      if new[base + c].isContinuation && c > done { c -= 1 }
      if c >= tail {
        var stale = 0
        for j in c..<cols where old[base + j] != .blank { stale += 1 }
        if stale >= 3 {
          moveTo(r, c, gap: new.baseAddress! + base)
          setStyle(.plain)
          append("\u{1B}[K")
          return
        }
      }
      moveTo(r, c, gap: new.baseAddress! + base)
      c += put(new.baseAddress! + base, c)
      done = c
    }
  }

  /// Writes the cell at `c` of a row (its glyph, after its style); returns the columns used.
  @discardableResult
  private mutating func put(_ rowCells: UnsafePointer<Cell>, _ c: Int) -> Int {
    let cell = rowCells[c]
    setStyle(styleOf(cell))
    var v = cell.glyph.value
    var width = 1
    if v >= 0x2500 && v <= 0x28FF && v != 0x25FD && v != 0x25FE && v != 0x2614 && v != 0x2615 {
      // Braille, blocks, box drawing: one column, printable (most cells of a map).
    } else if v < 0x20 || (v >= 0x7F && v <= 0x9F) {
      v = v == 0 ? 0x20 : 0x3F  // a lone second half: a space; a control character: "?"
    } else if v >= 0x300 {
      if !CellBuffer.isPrintable(cell.glyph) {
        v = 0x3F
      } else {
        switch CellBuffer.displayWidth(of: cell.glyph) {
        case 0: v = 0x20
        case 2:
          if c + 1 < columns && rowCells[c + 1].isContinuation { width = 2 } else { v = 0x20 }
        default: break
        }
      }
    }
    utf8(v)
    column += width
    // In the last column the terminal waits to wrap: the next write must move explicitly.
    if column >= columns { row = -1 }
    return width
  }

  /// Moves the cursor to (r, c) by the shortest sequence; on the same row, rewriting the
  /// unchanged cells in between (`gap`: the row's new cells) when that is shorter.
  private mutating func moveTo(_ r: Int, _ c: Int, gap: UnsafePointer<Cell>?) {
    if row == r && column == c { return }
    var cup = 3 + Emitter.digits(r + 1) + (c == 0 ? 0 : 1 + Emitter.digits(c + 1))
    if row >= 0 {
      let vertical = row == r ? 0 : 3 + (abs(r - row) == 1 ? 0 : Emitter.digits(abs(r - row)))
      var horizontal = 0
      if c != column {
        if c == 0 {
          horizontal = 1
        } else {
          let n = abs(c - column)
          horizontal = 3 + (n == 1 ? 0 : Emitter.digits(n))
        }
      }
      if row == r && c > column, let gap, gapBytes(gap, from: column, to: c, limit: horizontal) {
        while column < c { put(gap, column) }
        return
      }
      if vertical + horizontal < cup {
        if row != r { csi(abs(r - row), final: r > row ? "B" : "A") }
        if c != column {
          if c == 0 {
            bytes.append(0x0D)
          } else {
            csi(abs(c - column), final: c > column ? "C" : "D")
          }
        }
        row = r
        column = c
        return
      }
    }
    cup = 0
    bytes.append(0x1B)
    bytes.append(UInt8(ascii: "["))
    decimal(r + 1)
    if c > 0 {
      bytes.append(UInt8(ascii: ";"))
      decimal(c + 1)
    }
    bytes.append(UInt8(ascii: "H"))
    row = r
    column = c
  }

  /// True when the cells from `start` to `end` (unchanged) can be written again in the current
  /// style in at most `limit` bytes.
  private func gapBytes(_ cells: UnsafePointer<Cell>, from start: Int, to end: Int, limit: Int)
    -> Bool
  {
    guard end - start <= limit, let style else { return false }
    var total = 0
    for i in start..<end {
      let cell = cells[i]
      if cell.isContinuation { continue }
      let v = cell.glyph.value
      // Only plain one-column glyphs: ASCII, and the braille and box range.
      if v < 0x20 || v >= 0x7F && v < 0x2500 || v > 0x28FF { return false }
      if styleOf(cell) != style { return false }
      total += v < 0x80 ? 1 : 3
      if total > limit { return false }
    }
    return true
  }

  private func styleOf(_ cell: Cell) -> Style {
    let flags = cell.glyphAndFlags & (Cell.boldBit | Cell.reverseBit)
    switch colors {
    case .none: return Style(foreground: Cell.noColor, background: Cell.noColor, flags: flags)
    case .truecolor:
      return Style(foreground: cell.foregroundRaw, background: cell.backgroundRaw, flags: flags)
    case .palette256:
      return Style(
        foreground: cell.foregroundRaw == Cell.noColor ? Cell.noColor : cell.foregroundRaw & 0xFF,
        background: cell.backgroundRaw == Cell.noColor ? Cell.noColor : cell.backgroundRaw & 0xFF,
        flags: flags)
    case .basic16:
      let f = cell.foregroundRaw
      let b = cell.backgroundRaw
      return Style(
        foreground: f == Cell.noColor ? f : UInt32(Emitter.basic16[Int(f & 0xFF)]),
        background: b == Cell.noColor ? b : UInt32(Emitter.basic16[Int(b & 0xFF)]),
        flags: flags)
    }
  }

  /// The nearest basic colour of each palette colour.
  static let basic16: [UInt8] = (0..<256).map { TermColor(UInt8($0)).basic16.index }

  /// Sends the SGR that changes the terminal's style to `target`: only what changed, or a reset
  /// with the whole style, whichever is shorter.
  private mutating func setStyle(_ target: Style) {
    if style == target { return }
    let bold = Cell.boldBit
    let reverse = Cell.reverseBit
    // The length of each form, to send the shorter: "ESC [" params "m".
    var full = 4
    if target.flags & bold != 0 { full += 2 }
    if target.flags & reverse != 0 { full += 2 }
    if target.foreground != Cell.noColor {
      full += 1 + codeLength(target.foreground, background: false)
    }
    if target.background != Cell.noColor {
      full += 1 + codeLength(target.background, background: true)
    }
    if let current = style {
      var changed = 3
      if current.flags & bold != target.flags & bold {
        changed += target.flags & bold != 0 ? 2 : 3
      }
      if current.flags & reverse != target.flags & reverse {
        changed += target.flags & reverse != 0 ? 2 : 3
      }
      if current.foreground != target.foreground {
        changed +=
          1
          + (target.foreground == Cell.noColor
            ? 2 : codeLength(target.foreground, background: false))
      }
      if current.background != target.background {
        changed +=
          1
          + (target.background == Cell.noColor
            ? 2 : codeLength(target.background, background: true))
      }
      // One separator fewer than the parameters.
      changed -= 1
      if changed <= full {
        bytes.append(0x1B)
        bytes.append(UInt8(ascii: "["))
        var first = true
        if current.flags & bold != target.flags & bold {
          first = false
          append(target.flags & bold != 0 ? "1" : "22")
        }
        if current.flags & reverse != target.flags & reverse {
          if !first { bytes.append(UInt8(ascii: ";")) }
          first = false
          append(target.flags & reverse != 0 ? "7" : "27")
        }
        if current.foreground != target.foreground {
          if !first { bytes.append(UInt8(ascii: ";")) }
          first = false
          if target.foreground == Cell.noColor {
            append("39")
          } else {
            Emitter.colorCode(target.foreground, colors: colors, background: false, into: &bytes)
          }
        }
        if current.background != target.background {
          if !first { bytes.append(UInt8(ascii: ";")) }
          if target.background == Cell.noColor {
            append("49")
          } else {
            Emitter.colorCode(target.background, colors: colors, background: true, into: &bytes)
          }
        }
        bytes.append(UInt8(ascii: "m"))
        style = target
        return
      }
    }
    // The whole style from a reset.
    append("\u{1B}[0")
    if target.flags & bold != 0 { append(";1") }
    if target.flags & reverse != 0 { append(";7") }
    if target.foreground != Cell.noColor {
      bytes.append(UInt8(ascii: ";"))
      Emitter.colorCode(target.foreground, colors: colors, background: false, into: &bytes)
    }
    if target.background != Cell.noColor {
      bytes.append(UInt8(ascii: ";"))
      Emitter.colorCode(target.background, colors: colors, background: true, into: &bytes)
    }
    bytes.append(UInt8(ascii: "m"))
    style = target
  }

  /// The length of `colorCode`'s parameters for a colour.
  private func codeLength(_ raw: UInt32, background: Bool) -> Int {
    switch colors {
    case _ where raw < 16, .basic16, .none:
      // 30–37, 90–97, 40–47; 100–107.
      return background && raw & 0xFF >= 8 ? 3 : 2
    case .palette256, .truecolor:
      if raw > 0xFF {
        return 7 + Emitter.digits(Int(raw >> 24)) + Emitter.digits(Int((raw >> 16) & 0xFF))
          + Emitter.digits(Int((raw >> 8) & 0xFF))
      }
      return 5 + Emitter.digits(Int(raw))
    }
  }

  /// The SGR parameters of a colour (as reduced by `styleOf`). The 16 basic colours go as
  /// 30–37 and 90–97 (40–47, 100–107) in every depth, as terminfo's `setaf` sends them.
  private static func colorCode(
    _ raw: UInt32, colors: ColorDepth, background: Bool, into b: inout [UInt8]
  ) {
    switch colors {
    case _ where raw < 16, .basic16, .none:
      let i = Int(raw & 0xFF)
      Emitter.decimal((background ? 40 : 30) + (i < 8 ? i : 60 + i - 8), into: &b)
    case .palette256, .truecolor:
      b.append(background ? 0x34 : 0x33)
      b.append(0x38)
      b.append(UInt8(ascii: ";"))
      if raw > 0xFF {
        b.append(0x32)
        for shift: UInt32 in [24, 16, 8] {
          b.append(UInt8(ascii: ";"))
          Emitter.decimal(Int((raw >> shift) & 0xFF), into: &b)
        }
      } else {
        b.append(0x35)
        b.append(UInt8(ascii: ";"))
        Emitter.decimal(Int(raw), into: &b)
      }
    }
  }

  // MARK: Bytes

  private mutating func append(_ s: StaticString) {
    s.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// CSI n final, with n left out when it is 1.
  private mutating func csi(_ n: Int, final: Unicode.Scalar) {
    bytes.append(0x1B)
    bytes.append(UInt8(ascii: "["))
    if n != 1 { decimal(n) }
    bytes.append(UInt8(final.value))
  }

  private mutating func decimal(_ n: Int) { Emitter.decimal(n, into: &bytes) }

  static func decimal(_ n: Int, into b: inout [UInt8]) {
    if n >= 100 {
      if n >= 1000 { decimal(n / 1000, into: &b) }
      b.append(UInt8(48 + n / 100 % 10))
    }
    if n >= 10 { b.append(UInt8(48 + n / 10 % 10)) }
    b.append(UInt8(48 + n % 10))
  }

  static func digits(_ n: Int) -> Int {
    n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : 5
  }

  private mutating func utf8(_ v: UInt32) {
    switch v {
    case ..<0x80:
      bytes.append(UInt8(v))
    case ..<0x800:
      bytes.append(UInt8(0xC0 | v >> 6))
      bytes.append(UInt8(0x80 | v & 0x3F))
    case ..<0x10000:
      bytes.append(UInt8(0xE0 | v >> 12))
      bytes.append(UInt8(0x80 | (v >> 6) & 0x3F))
      bytes.append(UInt8(0x80 | v & 0x3F))
    default:
      bytes.append(UInt8(0xF0 | v >> 18))
      bytes.append(UInt8(0x80 | (v >> 12) & 0x3F))
      bytes.append(UInt8(0x80 | (v >> 6) & 0x3F))
      bytes.append(UInt8(0x80 | v & 0x3F))
    }
  }
}
