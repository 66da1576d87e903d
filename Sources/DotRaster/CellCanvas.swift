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
  private init(
    _ canvas: DotCanvas, pending: PendingInks, _ c0: Int, _ c1: Int, _ r0: Int, _ r1: Int,
    cropped: Bool
  ) {
    if cropped {
      self.init(columns: c1 - c0, rows: r1 - r0)
    } else {
      self.init(
        columns: canvas.width / CellGeometry.dotsWide, rows: canvas.height / CellGeometry.dotsHigh)
    }
    guard c0 < c1 && r0 < r1 else { return }
    // Cell (column, row) of `canvas` is at index `row * columns + column - origin` here.
    let origin = cropped ? r0 * columns + c0 : 0
    if !pending.isEmpty {
      addColoredCells(canvas, pending, c0, c1, r0, r1, origin)
      return
    }
    if canvas.hasTrueColor {
      addColoredCells(canvas, PendingInks(), c0, c1, r0, r1, origin)
      return
    }
    // Cell by cell, its eight dots in the order `DotCanvas.paint` reads them, a row's two dots
    // in one load; a cell whose four rows are all empty (most of a map) is left as it is.
    assert(CellGeometry.dotsWide == 2, "a cell row is read as two dots")
    assert(CellGeometry.dotsHigh == 4, "a cell is read as four rows")
    let (w, columns) = (canvas.width, self.columns)
    // (Offsets in wrapping arithmetic: they lie within the canvas, so no overflow tests.)
    let cellBytes = CellGeometry.dotsWide * MemoryLayout<Ink>.stride
    canvas.dots.withUnsafeBufferPointer { d in
      let raw = UnsafeRawPointer(d.baseAddress!)
      let rowBytes = w &* MemoryLayout<Ink>.stride
      bits.withUnsafeMutableBufferPointer { b in
        top.withUnsafeMutableBufferPointer { t in
          for row in r0..<r1 {
            var p = raw + (row &* CellGeometry.dotsHigh &* rowBytes &+ c0 &* cellBytes)
            let out = row &* columns &- origin
            for column in c0..<c1 {
              defer { p += cellBytes }
              let p0 = p.loadUnaligned(as: UInt64.self)
              let p1 = (p + rowBytes).loadUnaligned(as: UInt64.self)
              let p2 = (p + 2 * rowBytes).loadUnaligned(as: UInt64.self)
              let p3 = (p + 3 * rowBytes).loadUnaligned(as: UInt64.self)
              if p0 | p1 | p2 | p3 == 0 { continue }
              var cellBits: UInt8 = 0
              var high: UInt32 = 0
              for (dy, pair) in [p0, p1, p2, p3].enumerated() where pair != 0 {
                #if _endian(big)
                  let (left, right) = (UInt32(pair >> 32), UInt32(truncatingIfNeeded: pair))
                #else
                  let (left, right) = (UInt32(truncatingIfNeeded: pair), UInt32(pair >> 32))
                #endif
                if left != 0 {
                  cellBits |= CellGeometry.brailleBit(dx: 0, dy: dy)
                  if left >= high { high = left }
                }
                if right != 0 {
                  cellBits |= CellGeometry.brailleBit(dx: 1, dy: dy)
                  if right >= high { high = right }
                }
              }
              b[out &+ column] = cellBits
              t[out &+ column] = high
            }
          }
        }
      }
    }
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
                      if colours { tc[d &+ c] = sc.isEmpty ? 0 : sc[s &+ c] }
                    }
                  }
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

  /// The cells `c0..<c1` × `r0..<r1` of a canvas with a colour plane or pending inks
  /// (`PendingInks`), on a blank canvas: what settling the canvas, then
  /// `add(_:atX:y:layerBase:within:)`, gives there, cell by cell as the palette path of
  /// `init(_:within:)` reads them (a cell's eight dots, a row's two in one load). A dot's ink
  /// is the one its pending ink stands for; the 24-bit colour is looked up once per inked
  /// cell, for its top dot (the last of the highest ink in that order, whose colour `add`
  /// leaves): its pending entry, or its colour-plane entry when it holds no pending ink. Apart
  /// from the palette path (inlined there, it made that path slower: Helsinki z15 160 × 48,
  /// 5.138 M instructions per frame against 5.106 M).
  @inline(never)
  private mutating func addColoredCells(
    _ canvas: DotCanvas, _ pending: PendingInks, _ c0: Int, _ c1: Int, _ r0: Int, _ r1: Int,
    _ origin: Int
  ) {
    let colours = pending.hasColor || canvas.hasTrueColor
    if colours { trueColors = Array(repeating: 0, count: bits.count) }
    let (w, columns) = (canvas.width, self.columns)
    let base = DrawingContext.pendingBase
    let count = UInt32(pending.entries.count)
    pending.entries.withUnsafeBufferPointer { table in
      canvas.withDotsAndColors { d, plane in
        let raw = UnsafeRawPointer(d.baseAddress!)
        let rowBytes = w &* MemoryLayout<Ink>.stride
        let cellBytes = CellGeometry.dotsWide * MemoryLayout<Ink>.stride
        bits.withUnsafeMutableBufferPointer { b in
          top.withUnsafeMutableBufferPointer { t in
            trueColors.withUnsafeMutableBufferPointer { out in
              // (Offsets in wrapping arithmetic: they lie within the canvas.)
              for row in r0..<r1 {
                var p = raw + (row &* CellGeometry.dotsHigh &* rowBytes &+ c0 &* cellBytes)
                for column in c0..<c1 {
                  defer { p += cellBytes }
                  let p0 = p.loadUnaligned(as: UInt64.self)
                  let p1 = (p + rowBytes).loadUnaligned(as: UInt64.self)
                  let p2 = (p + 2 * rowBytes).loadUnaligned(as: UInt64.self)
                  let p3 = (p + 3 * rowBytes).loadUnaligned(as: UInt64.self)
                  if p0 | p1 | p2 | p3 == 0 { continue }
                  var cellBits: UInt8 = 0
                  var high: UInt32 = 0
                  var topRaw: UInt32 = 0
                  var at = 0
                  for (dy, pair) in [p0, p1, p2, p3].enumerated() where pair != 0 {
                    #if _endian(big)
                      let (left, right) = (UInt32(pair >> 32), UInt32(truncatingIfNeeded: pair))
                    #else
                      let (left, right) = (UInt32(truncatingIfNeeded: pair), UInt32(pair >> 32))
                    #endif
                    if left != 0 {
                      cellBits |= CellGeometry.brailleBit(dx: 0, dy: dy)
                      let k = left &- base
                      let ink = k < count ? table[Int(k)].ink : left
                      if ink >= high {
                        high = ink
                        topRaw = left
                        at = dy
                      }
                    }
                    if right != 0 {
                      cellBits |= CellGeometry.brailleBit(dx: 1, dy: dy)
                      let k = right &- base
                      let ink = k < count ? table[Int(k)].ink : right
                      if ink >= high {
                        high = ink
                        topRaw = right
                        at = dy &+ 4
                      }
                    }
                  }
                  let i = row &* columns &+ column &- origin
                  b[i] = cellBits
                  t[i] = high
                  guard colours else { continue }
                  // The top dot's entry: its pending one, or the plane's while the dot keeps
                  // the ink it got it with (`DotCanvas.color(x:y:)`); a palette colour is none.
                  let k = topRaw &- base
                  var e: UInt64 = 0
                  if k < count {
                    e = table[Int(k)].entry
                  } else if !plane.isEmpty {
                    let x = column &* CellGeometry.dotsWide &+ (at >> 2)
                    e = plane[(row &* CellGeometry.dotsHigh &+ (at & 3)) &* w &+ x]
                  }
                  if e != 0 && UInt32(truncatingIfNeeded: e >> 32) == high {
                    let colour = TermColor(raw: UInt32(truncatingIfNeeded: e))
                    if colour.isTrueColor { out[i] = colour.raw }
                  }
                }
              }
            }
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
          glyphs.withUnsafeBufferPointer { glyphs in
            for row in 0..<rows {
              let base = row &* self.columns
              let outBase = row &* outColumns
              for column in 0..<columns {
                let b = bits[base &+ column]
                if b == 0 { continue }
                var colour = Ink(raw: top[base &+ column]).color
                if colours, trueColors[base &+ column] != 0 {
                  colour = TermColor(raw: trueColors[base &+ column])
                }
                // The glyph, not bold or reversed, in the ink's colour, on the cell's
                // background.
                out[outBase &+ column].glyphAndFlags = glyphs[Int(b)]
                out[outBase &+ column].foregroundRaw = colour.raw
              }
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
