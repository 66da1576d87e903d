/// A rectangle of dots, each holding an `Ink`; the raster every renderer draws into.
public struct DotCanvas: Sendable, Equatable {
  /// The canvas's width in dots.
  public let width: Int
  /// The canvas's height in dots.
  public let height: Int
  /// The dots, row by row.
  public private(set) var dots: [Ink]
  /// 24-bit colours of dots, for raster tiles; empty (and free) on canvases that have none.
  /// Entry `i` is `UInt64(ink.raw) << 32 | color.raw` for the ink that dot `i` had when it got
  /// its colour, so the colour holds only while that dot keeps that ink: whatever overwrites
  /// the dot, by any drawing path, makes the entry stale and the dot shows its ink's palette
  /// colour again. (Only the very same ink, same layer and same palette index, keeps it: then
  /// the two colours agree to within the palette anyway.)
  private var trueColors: [UInt64] = []
  /// A colour plane of this canvas's size, all zeros, kept by `clearInkedCells` for the next
  /// drawing in 24-bit colours (a new one is 8 bytes a dot to clear: half a styled frame's
  /// `memset`); not part of what the canvas holds.
  private var sparePlane: [UInt64] = []

  /// Two canvases are equal when their dots and 24-bit colours are (a spare plane is not
  /// compared).
  public static func == (a: DotCanvas, b: DotCanvas) -> Bool {
    a.width == b.width && a.height == b.height && a.dots == b.dots && a.trueColors == b.trueColors
  }

  /// Gives the canvas a colour plane of zeros when it has none: the spare one when there is.
  @inline(__always) mutating func makePlane() {
    guard trueColors.isEmpty else { return }
    if sparePlane.count == dots.count {
      swap(&trueColors, &sparePlane)
    } else {
      trueColors = Array(repeating: 0, count: dots.count)
    }
  }

  /// A blank canvas of `width` × `height` dots.
  public init(width: Int, height: Int) {
    self.width = max(width, 0)
    self.height = max(height, 0)
    dots = Array(repeating: .none, count: self.width * self.height)
  }

  /// A canvas sized for a grid of terminal cells.
  public init(columns: Int, rows: Int) {
    self.init(width: columns * CellGeometry.dotsWide, height: rows * CellGeometry.dotsHigh)
  }

  /// The ink of a dot (no ink outside the canvas; writes outside are dropped).
  public subscript(x: Int, y: Int) -> Ink {
    get { dots[y * width + x] }
    set { dots[y * width + x] = newValue }
  }

  /// Sets one dot if it lies on the canvas.
  public mutating func plot(x: Int, y: Int, ink: Ink) {
    if x >= 0 && y >= 0 && x < width && y < height { dots[y * width + x] = ink }
  }

  /// Sets one dot (if it lies on the canvas) to a colour on a layer. A 24-bit colour is kept in
  /// the canvas's colour plane and shows when the cell is turned into a glyph; its ink has the
  /// nearest palette colour, for everything that reads only inks.
  public mutating func plot(x: Int, y: Int, layer: UInt32, color: TermColor) {
    guard x >= 0 && y >= 0 && x < width && y < height else { return }
    let ink = Ink(layer: layer, color: color)
    let i = y * width + x
    dots[i] = ink
    if color.isTrueColor {
      makePlane()
      trueColors[i] = UInt64(ink.raw) << 32 | UInt64(color.raw)
    } else if !trueColors.isEmpty {
      trueColors[i] = 0
    }
  }

  /// Turns the dots of `area` (clipped to the canvas) that hold `pending` into `ink`, and gives
  /// them `color` in the colour plane when it is 24-bit, or takes their entries away when it
  /// is not: how `DrawingContext` keeps a fill's or stroke's 24-bit colour. Its rasterisers
  /// ink only `Ink`s, so a fill or stroke in a 24-bit colour (or any, once the canvas has a
  /// colour plane) is drawn with a `pending` ink no other dot holds and settled here. The
  /// entries are made only then: canvases drawn in palette colours alone pay nothing.
  mutating func settle(_ pending: Ink, as ink: Ink, color: TermColor, in area: DotRect) {
    let r = area.intersection(DotRect(minX: 0, minY: 0, maxX: width, maxY: height))
    guard !r.isEmpty else { return }
    let keeps = color.isTrueColor
    if keeps { makePlane() }
    let entry = keeps ? UInt64(ink.raw) << 32 | UInt64(color.raw) : 0
    let (w, p) = (width, pending.raw)
    if trueColors.isEmpty {
      dots.withUnsafeMutableBufferPointer { d in
        for y in r.minY..<r.maxY {
          for i in (y * w + r.minX)..<(y * w + r.maxX) where d[i].raw == p { d[i] = ink }
        }
      }
      return
    }
    dots.withUnsafeMutableBufferPointer { d in
      trueColors.withUnsafeMutableBufferPointer { t in
        for y in r.minY..<r.maxY {
          for i in (y * w + r.minX)..<(y * w + r.maxX) where d[i].raw == p {
            d[i] = ink
            t[i] = entry
          }
        }
      }
    }
  }

  /// Settles the dots of `area` (clipped to the canvas) that hold the pending ink of an entry
  /// k of `pending` (`DrawingContext.pendingIndex(_:count:)`): they get its ink, and its
  /// colour-plane entry (0 for a palette colour) when the canvas has a plane. (Every entry is
  /// drawn either in a 24-bit colour, which made the plane, or on a canvas that had one.) What
  /// `settle(_:as:color:in:)` gives each draw's dots, for many draws in one pass. Pending
  /// inks have bit 31 set (layers from 0x800000, which drawings do not reach), so four dots
  /// are tested at once, and those with the bit are looked at one by one.
  mutating func settlePending(
    _ pending: UnsafeBufferPointer<(ink: UInt32, entry: UInt64)>, in area: DotRect
  ) {
    let r = area.intersection(DotRect(minX: 0, minY: 0, maxX: width, maxY: height))
    guard !r.isEmpty else { return }
    let (w, count) = (width, UInt32(pending.count))
    let mask: UInt64 = 0x8000_0000_8000_0000
    dots.withUnsafeMutableBufferPointer { d in
      trueColors.withUnsafeMutableBufferPointer { t in
        let plane = !t.isEmpty
        let raw = UnsafeRawPointer(d.baseAddress!)
        @inline(__always) func settle(_ i: Int) {
          guard let k = DrawingContext.pendingIndex(d[i].raw, count: count) else { return }
          d[i] = Ink(raw: pending[k].ink)
          if plane { t[i] = pending[k].entry }
        }
        for y in r.minY..<r.maxY {
          var i = y * w + r.minX
          let end = y * w + r.maxX
          while i + 4 <= end {
            let p = raw + i * MemoryLayout<Ink>.stride
            let a = p.loadUnaligned(as: UInt64.self)
            let b = (p + 2 * MemoryLayout<Ink>.stride).loadUnaligned(as: UInt64.self)
            if (a | b) & mask != 0 {
              for j in i..<(i + 4) { settle(j) }
            }
            i += 4
          }
          while i < end {
            settle(i)
            i += 1
          }
        }
      }
    }
  }

  /// True when some dot has (or had) a 24-bit colour.
  public var hasTrueColor: Bool { !trueColors.isEmpty }

  /// Calls `body` with the dots and the colour plane (empty when the canvas has none), read
  /// in place.
  func withDotsAndColors<R>(
    _ body: (UnsafeBufferPointer<Ink>, UnsafeBufferPointer<UInt64>) -> R
  ) -> R {
    dots.withUnsafeBufferPointer { d in trueColors.withUnsafeBufferPointer { body(d, $0) } }
  }

  /// The colour the dot at (x, y) shows: its 24-bit colour while it has one, else its ink's
  /// palette colour; nil for an empty dot.
  public func color(x: Int, y: Int) -> TermColor? {
    let i = y * width + x
    let ink = dots[i]
    if ink.isEmpty { return nil }
    if !trueColors.isEmpty {
      let t = trueColors[i]
      if UInt32(truncatingIfNeeded: t >> 32) == ink.raw && t != 0 {
        return TermColor(raw: UInt32(truncatingIfNeeded: t))
      }
    }
    return ink.color
  }

  /// Inks a run of dots on one row (clipped to the canvas).
  public mutating func fillSpan(y: Int, from x0: Int, to x1: Int, ink: Ink) {
    guard y >= 0 && y < height else { return }
    let a = max(x0, 0)
    let b = min(x1, width - 1)
    guard a <= b else { return }
    let base = y * width
    dots.withUnsafeMutableBufferPointer { buf in
      for x in a...b { buf[base + x] = ink }
    }
  }

  /// Direct access to the dots for rasterisers in this module.
  mutating func withUnsafeMutableDots<R>(
    _ body: (UnsafeMutableBufferPointer<Ink>) throws -> R
  ) rethrows -> R {
    try dots.withUnsafeMutableBufferPointer { try body($0) }
  }

  /// Clears every dot.
  public mutating func clear() {
    dots.withUnsafeMutableBufferPointer { buf in
      buf.update(repeating: .none)
    }
    trueColors.removeAll()
  }

  /// Clears the dots of the cells that `cells` shows inked, its first cell lying at cell
  /// (`column`, `row`) of this canvas: on a canvas whose dots all lie in those cells (`cells`
  /// summed it up, as `CellCanvas(_:within:)` does), this clears every dot, writing only where
  /// ink was (a canvas used again, not cleared whole). Each row of cells is cleared from its
  /// first inked cell to its last, in one piece; only the rows and columns `cells` covers are
  /// looked at (a map tile drawn in part has cells only for that part).
  public mutating func clearInkedCells(of cells: CellCanvas, column: Int = 0, row: Int = 0) {
    let (dw, dh) = (CellGeometry.dotsWide, CellGeometry.dotsHigh)
    guard column >= 0 && row >= 0 else { return }
    let columns = min(cells.columns, width / dw - column)
    let rows = min(cells.rows, height / dh - row)
    guard columns > 0 && rows > 0 else { return }
    // A colour plane has entries only at inked dots (it is given entries where dots are
    // inked, and dots lose ink only here and in `clear`): cleared in the same rows, it is
    // all zeros again and kept as the spare.
    let plane = !trueColors.isEmpty
    var spare: [UInt64] = []
    swap(&spare, &trueColors)
    let w = width
    let stride = cells.columns
    let (c0, r0) = (column, row)
    // A row of cells is cleared in one piece, from its first inked dot of its first dot row
    // to its last of its last: the dots in between that lie outside the inked cells are
    // empty already (and so are their plane entries). One `memset` instead of four.
    // (Indices in wrapping arithmetic: they lie within both grids.)
    cells.bits.withUnsafeBufferPointer { bits in
      dots.withUnsafeMutableBufferPointer { d in
        spare.withUnsafeMutableBufferPointer { t in
          for row in 0..<rows {
            let base = row &* stride
            var first = 0
            while first < columns && bits[base &+ first] == 0 { first &+= 1 }
            guard first < columns else { continue }
            var last = columns &- 1
            while bits[base &+ last] == 0 { last &-= 1 }
            let top = (row &+ r0) &* dh &* w
            let start = top &+ (first &+ c0) &* dw
            let end = top &+ (dh &- 1) &* w &+ (last &+ 1 &+ c0) &* dw
            (d.baseAddress! + start).update(repeating: .none, count: end &- start)
            if plane { (t.baseAddress! + start).update(repeating: 0, count: end &- start) }
          }
        }
      }
    }
    if plane && width % dw == 0 && height % dh == 0 { sparePlane = spare }
  }

  /// True when no dot is inked.
  public var isBlank: Bool { !dots.contains { !$0.isEmpty } }

  /// Copies the inked dots of `source` onto this canvas with its top-left at (dx, dy),
  /// moving their ink onto `layerBase + ink.layer` so later layers stack above earlier ones.
  /// 24-bit colours go with their dots.
  public mutating func composite(_ source: DotCanvas, atX dx: Int, y dy: Int, layerBase: UInt32) {
    composite(
      source, atX: dx, y: dy, layerBase: layerBase,
      within: DotRect(minX: 0, minY: 0, maxX: width, maxY: height))
  }

  /// `composite(_:atX:y:layerBase:)` restricted to the dots of this canvas inside `area`.
  public mutating func composite(
    _ source: DotCanvas, atX dx: Int, y dy: Int, layerBase: UInt32, within area: DotRect
  ) {
    let x0 = max(0, -dx, area.minX - dx)
    let x1 = min(source.width, width - dx, area.maxX - dx)
    let y0 = max(0, -dy, area.minY - dy)
    let y1 = min(source.height, height - dy, area.maxY - dy)
    guard x0 < x1 && y0 < y1 else { return }
    // The colour plane first (it reads only the source's inks), so that the loop below stays
    // the plain one canvases without 24-bit colour always had.
    if !source.trueColors.isEmpty || !trueColors.isEmpty {
      compositeTrueColors(source, x0, x1, y0, y1, dx, dy, layerBase)
    }
    let shift = layerBase << 8
    let w = width
    let sw = source.width
    source.dots.withUnsafeBufferPointer { src in
      dots.withUnsafeMutableBufferPointer { dst in
        for sy in y0..<y1 {
          let srow = sy * sw
          let drow = (sy + dy) * w + dx
          for sx in x0..<x1 {
            let ink = src[srow + sx].raw
            if ink != 0 { dst[drow + sx] = Ink(raw: ink &+ shift) }
          }
        }
      }
    }
  }

  /// One flag per cell (row-major): true where a dot of the cell is on `layer` or above.
  public func cellsInked(atOrAbove layer: UInt32) -> [Bool] {
    let columns = width / CellGeometry.dotsWide
    let rows = height / CellGeometry.dotsHigh
    var out = [Bool](repeating: false, count: columns * rows)
    let threshold = layer << 8
    let w = width
    dots.withUnsafeBufferPointer { d in
      for y in 0..<(rows * CellGeometry.dotsHigh) {
        let row = y / CellGeometry.dotsHigh
        for x in 0..<(columns * CellGeometry.dotsWide) where d[y * w + x].raw >= threshold {
          out[row * columns + x / CellGeometry.dotsWide] = true
        }
      }
    }
    return out
  }

  /// The colour-plane part of `composite` (only when either canvas has 24-bit colours, so
  /// canvases without them pay nothing): the source's entries follow their dots onto the new
  /// layer; dots the source inks without a 24-bit colour lose this canvas's.
  @inline(never)
  private mutating func compositeTrueColors(
    _ source: DotCanvas, _ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int, _ dx: Int, _ dy: Int,
    _ layerBase: UInt32
  ) {
    makePlane()
    let shift = UInt64(layerBase) << 40
    let w = width
    let sw = source.width
    let srcColors = source.trueColors
    source.dots.withUnsafeBufferPointer { src in
      trueColors.withUnsafeMutableBufferPointer { dst in
        for sy in y0..<y1 {
          let srow = sy * sw
          let drow = (sy + dy) * w + dx
          for sx in x0..<x1 where src[srow + sx].raw != 0 {
            let t = srcColors.isEmpty ? 0 : srcColors[srow + sx]
            dst[drow + sx] = t == 0 ? 0 : t &+ shift
          }
        }
      }
    }
  }

  /// The cells of this canvas as glyphs in a charset, each with the colour of its highest-layer dot.
  public func cells(charset: Charset) -> CellBuffer {
    let columns = width / CellGeometry.dotsWide
    let rows = height / CellGeometry.dotsHigh
    var buffer = CellBuffer(columns: columns, rows: rows)
    paint(into: &buffer, charset: charset)
    return buffer
  }

  /// Writes the inked cells of this canvas over `buffer` (blank cells are left as they are; an
  /// inked cell keeps the background colour the buffer had there).
  public func paint(into buffer: inout CellBuffer, charset: Charset) {
    if !trueColors.isEmpty {
      paintWithTrueColors(into: &buffer, charset: charset)
      return
    }
    let columns = min(width / CellGeometry.dotsWide, buffer.columns)
    let rows = min(height / CellGeometry.dotsHigh, buffer.rows)
    let w = width
    dots.withUnsafeBufferPointer { d in
      for row in 0..<rows {
        for column in 0..<columns {
          var bits: UInt8 = 0
          var top: UInt32 = 0
          let x = column * CellGeometry.dotsWide
          let y = row * CellGeometry.dotsHigh
          for dy in 0..<CellGeometry.dotsHigh {
            let base = (y + dy) * w + x
            for dx in 0..<CellGeometry.dotsWide {
              let ink = d[base + dx].raw
              if ink != 0 {
                bits |= CellGeometry.brailleBit(dx: dx, dy: dy)
                if ink >= top { top = ink }
              }
            }
          }
          if bits != 0 {
            // A background already there (a half-block picture beneath) stays.
            buffer[column, row] = Cell(
              glyph: charset.glyph(forDots: bits), foreground: Ink(raw: top).color,
              background: buffer[column, row].background)
          }
        }
      }
    }
  }

  /// `paint` for a canvas with a colour plane: the cell shows its highest-layer dot's colour,
  /// 24-bit when that dot has one.
  @inline(never)
  private func paintWithTrueColors(into buffer: inout CellBuffer, charset: Charset) {
    let columns = min(width / CellGeometry.dotsWide, buffer.columns)
    let rows = min(height / CellGeometry.dotsHigh, buffer.rows)
    for row in 0..<rows {
      for column in 0..<columns {
        var bits: UInt8 = 0
        var top: UInt32 = 0
        var topX = 0
        var topY = 0
        let x = column * CellGeometry.dotsWide
        let y = row * CellGeometry.dotsHigh
        for dy in 0..<CellGeometry.dotsHigh {
          for dx in 0..<CellGeometry.dotsWide {
            let ink = dots[(y + dy) * width + x + dx].raw
            if ink != 0 {
              bits |= CellGeometry.brailleBit(dx: dx, dy: dy)
              if ink >= top {
                top = ink
                topX = x + dx
                topY = y + dy
              }
            }
          }
        }
        if bits != 0 {
          buffer[column, row] = Cell(
            glyph: charset.glyph(forDots: bits), foreground: color(x: topX, y: topY),
            background: buffer[column, row].background)
        }
      }
    }
  }
}
