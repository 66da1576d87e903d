import DotRaster
import Foundation
import MapGeometry
import Synchronization

/// A name the map may print in cells (a place, a street): where, how important, in what
/// colour. Renderers that have names adopt `LabelProviding`; the map places every renderer's
/// labels once per frame, at the labels' position in the layer stack.
public struct MapLabel: Sendable {
  /// The text (sanitised when placed).
  public var text: String {
    didSet {
      shown = Self.shownText(text, color: color, bold: bold)
      firstOffset = Self.offset(positions, width: shown.width)
    }
  }
  /// The text as cells show it (printable, cut to `LabelPlacer.maximumLength`) in the label's
  /// colour, measured and made once per label rather than once per frame: placing the label
  /// copies these cells.
  private(set) var shown: CellRun
  /// Where the first of `positions` puts the text against the point's cell, in cells (nil:
  /// no positions), worked out with the text's width once per label.
  private(set) var firstOffset: LabelOffset?
  /// Where the label belongs (the place itself, or the middle of a street).
  public var point: MapPoint
  /// Higher wins a place first.
  public var priority: Double
  /// The text's colour.
  public var color: TermColor {
    didSet { shown = Self.shownText(text, color: color, bold: bold) }
  }
  /// Whether the text is bold.
  public var bold: Bool {
    didSet { shown = Self.shownText(text, color: color, bold: bold) }
  }
  /// A glyph drawn at the place with the name beside it (cities); nil centres the name.
  public var marker: (glyph: Unicode.Scalar, color: TermColor)?
  /// The point-of-interest class of the named place (nil: not a point of interest, such as a
  /// town or a street), for the map's ``MapView/pointOfInterestFilter``.
  public var category: PointOfInterestCategory?
  /// Where the text may stand against the point, tried in order until one fits (MapLibre's
  /// `text-anchor` and `text-offset`, or its `text-variable-anchor`s). Empty: the text is
  /// centred on the point, or with a marker starts two cells to its right (on the left where
  /// the right edge cuts it).
  public var positions: [LabelPosition] {
    didSet { firstOffset = Self.offset(positions, width: shown.width) }
  }

  /// A label of a text at a map point.
  public init(
    text: String, point: MapPoint, priority: Double, color: TermColor, bold: Bool = false,
    marker: (glyph: Unicode.Scalar, color: TermColor)? = nil,
    category: PointOfInterestCategory? = nil, positions: [LabelPosition] = []
  ) {
    self.text = text
    shown = Self.shownText(text, color: color, bold: bold)
    self.point = point
    self.priority = priority
    self.color = color
    self.bold = bold
    self.marker = marker
    self.category = category
    self.positions = positions
    firstOffset = Self.offset(positions, width: shown.width)
  }
}

/// The part of a label's text that stands at its point, as MapLibre's `text-anchor`: `left`
/// puts the text's left end at the point (the text runs to its right), `top` its top (the text
/// is below the point), `center` its middle.
public enum LabelAnchor: String, Sendable, CaseIterable {
  /// The middle of the text at the point.
  case center
  /// The left end at the point: the text to the right of it.
  case left
  /// The right end at the point: the text to the left of it.
  case right
  /// The top at the point: the text below it.
  case top
  /// The bottom at the point: the text above it.
  case bottom
  /// The top left corner at the point: the text below and to the right.
  case topLeft = "top-left"
  /// The top right corner at the point: the text below and to the left.
  case topRight = "top-right"
  /// The bottom left corner at the point: the text above and to the right.
  case bottomLeft = "bottom-left"
  /// The bottom right corner at the point: the text above and to the left.
  case bottomRight = "bottom-right"

  /// Where the point is across the text, 0 (its left end) to 1 (its right end).
  public var horizontal: Double {
    switch self {
    case .left, .topLeft, .bottomLeft: return 0
    case .right, .topRight, .bottomRight: return 1
    case .center, .top, .bottom: return 0.5
    }
  }

  /// Where the point is down the text's row, 0 (its top) to 1 (its bottom).
  public var vertical: Double {
    switch self {
    case .top, .topLeft, .topRight: return 0
    case .bottom, .bottomLeft, .bottomRight: return 1
    case .center, .left, .right: return 0.5
    }
  }
}

/// One place a label's text may take: its `anchor` at the point, then moved by an offset in
/// cells (positive: right and down).
///
/// The point stands for its whole cell, the text for a box one row high and as wide as the
/// text, and the box is rounded to whole cells away from the point's cell: a text anchored
/// `left` starts in the cell right of the point's, one anchored `top` is on the row below it,
/// one anchored `center` covers the point's cell (with an even width, one more cell left of
/// it than right). An offset of up to half a cell keeps that place.
public struct LabelPosition: Sendable, Equatable {
  /// The part of the text at the point.
  public var anchor: LabelAnchor
  /// How far the text is moved right, in cells (negative: left).
  public var columns: Double
  /// How far the text is moved down, in rows (negative: up).
  public var rows: Double

  /// A place with `anchor` at the point, moved `columns` right and `rows` down.
  public init(anchor: LabelAnchor, columns: Double = 0, rows: Double = 0) {
    self.anchor = anchor
    self.columns = columns
    self.rows = rows
  }

  /// The first column and the row of a text `width` cells wide placed so against the point's
  /// cell (`column`, `row`).
  func cell(column: Int, row: Int, width: Int) -> (column: Int, row: Int) {
    // From the middle of the point's cell to the text box's top left corner, in cells; a half
    // is rounded away from the point.
    let dx = (0.5 + columns - anchor.horizontal * Double(width))
    let dy = (0.5 + rows - anchor.vertical)
    guard dx.magnitude < 1e6, dy.magnitude < 1e6 else { return (Int.min / 2, Int.min / 2) }
    return (column + Self.roundedAway(dx), row + Self.roundedAway(dy))
  }

  /// `Int(v.rounded(.toNearestOrAwayFromZero))` for |v| < 1e6 without libm's `round` (a
  /// call): `v - Double(Int(v))` is exact there (the two are within 1 and of one sign).
  @inline(__always) static func roundedAway(_ v: Double) -> Int {
    let t = Int(v)
    let f = v - Double(t)
    return f >= 0.5 ? t + 1 : f <= -0.5 ? t - 1 : t
  }
}

/// The first column and the row of a text against its point's cell, as differences
/// (`LabelPosition.cell(column:row:width:)` of the cell (0, 0)).
struct LabelOffset {
  var columns: Int32
  var rows: Int32
}

extension MapLabel {
  /// `positions`' first, for a text `width` cells wide.
  static func offset(_ positions: [LabelPosition], width: Int) -> LabelOffset? {
    guard let p = positions.first else { return nil }
    let c = p.cell(column: 0, row: 0, width: width)
    // A position too far off (`cell` answers far to the upper left, where nothing fits)
    // stays as far off.
    return LabelOffset(
      columns: Int32(clamping: c.column), rows: Int32(clamping: c.row))
  }

  static func shownText(_ text: String, color: TermColor, bold: Bool) -> CellRun {
    CellRun(
      CellText(
        CellBuffer.truncated(
          String(text.unicodeScalars.filter { CellBuffer.isPrintable($0) }.map(Character.init)),
          width: LabelPlacer.maximumLength)),
      foreground: color, bold: bold)
  }
}

/// A renderer whose content has names (MapKit's base map has them between `aboveRoads` and
/// `aboveLabels` overlays). Called on the main actor once per frame.
public protocol LabelProviding: AnyObject {
  /// The labels that could show in the viewport (the map decides which fit).
  func labels(for viewport: Viewport) -> [MapLabel]
}

/// Places labels in cells: the most important first, none over another, over a taken cell (a
/// marker, the callout, ink of an overlay above the labels), and none cut by the screen's edge.
/// Every label keeps a free cell on either side. A label's text takes the first of its
/// `MapLabel.positions` that fits; a marker's cell and its name's are on one row or apart, and
/// cells between them on one row are cleared.
public struct LabelPlacer {
  /// The frame's geometry the labels are placed in.
  public let viewport: Viewport
  var taken: [Bool]

  /// `taken` is row-major, one flag per cell (true: no label may cover it).
  public init(viewport: Viewport, taken: [Bool]) {
    self.viewport = viewport
    self.taken = taken
    let n = viewport.columns * viewport.rows
    if self.taken.count != n { self.taken = Array(repeating: false, count: n) }
  }

  /// Longest label, in columns (longer ones end in "…").
  public static let maximumLength = 30

  /// Places `labels` by priority (a stable order among equals) and writes them into `cells`;
  /// returns how many were placed.
  @discardableResult
  public mutating func place(_ labels: [MapLabel], into cells: inout CellBuffer) -> Int {
    let viewport = viewport
    let w = MapSize.world.width
    // A list found in order before is not checked again: a tile renderer answers the same list
    // frame after frame while the view stays on the same tiles.
    let known = Self.lastInOrder.withLock { $0.map { Self.same($0, labels) } ?? false }
    // Labels read in place, through the buffer: a copy of a label would retain and release its
    // arrays for every label tried, and most are not placed. The taken cells through theirs:
    // `init` made it one flag per cell of the screen.
    let labelList = labels
    return labels.withUnsafeBufferPointer { labels in
      taken.withUnsafeMutableBufferPointer { taken in
        cells.withTextWriter { cells in
          guard let first = labels.baseAddress else { return 0 }
          let pass = Pass(viewport: viewport, worldWidth: w, taken: taken)
          // A list already in order, as a tile renderer keeps its labels, is taken as it is;
          // another is sorted by index (labels are not copied to sort them).
          var inOrder = true
          var last = first.pointee.priority
          var p = first
          let end = first + labels.count
          while !known && p < end {
            if last < p.pointee.priority {
              inOrder = false
              break
            }
            last = p.pointee.priority
            p += 1
          }
          var placed = 0
          if inOrder {
            p = first
            while p < end {
              if pass.place(p, into: &cells) { placed += 1 }
              p += 1
            }
          } else {
            let priorities = labels.map(\.priority)
            var order = Array(labels.indices)
            order.sort {
              priorities[$0] != priorities[$1] ? priorities[$0] > priorities[$1] : $0 < $1
            }
            for i in order where pass.place(first + i, into: &cells) { placed += 1 }
          }
          if inOrder && !known { Self.lastInOrder.withLock { $0 = labelList } }
          return placed
        }
      }
    }
  }

  /// The last list of labels `place(_:into:)` found in priority order, held: while held, its
  /// buffer is neither freed (so no other list gets its address) nor changed in place (a
  /// change to any copy of the array copies the buffer first), so a list with the same buffer
  /// and count is that very list, in order.
  private static let lastInOrder = Mutex<[MapLabel]?>(nil)

  /// Whether two lists are one array buffer (the same labels, not compared).
  private static func same(_ a: [MapLabel], _ b: [MapLabel]) -> Bool {
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count }
    }
  }

  /// One `place(_:into:)`: the frame's geometry in locals and the taken cells through their
  /// buffer, so that nothing is read again from the placer per label.
  private struct Pass {
    let viewport: Viewport
    /// The world's width in map points (a global of another module: a call to read).
    let worldWidth: Double
    /// One flag per cell of the screen, row-major.
    let taken: UnsafeMutableBufferPointer<Bool>

    /// Places one label if it fits; returns whether it was placed.
    @inline(__always) func place(
      _ label: UnsafePointer<MapLabel>, into cells: inout CellTextWriter
    ) -> Bool {
      guard let cell = viewport.cell(for: label.pointee.point, worldWidth: worldWidth) else {
        return false
      }
      let cols = viewport.columns
      let width = label.pointee.shown.width
      let marker = label.pointee.marker
      let markerCell = marker == nil ? nil : cell
      var at: (column: Int, row: Int)?
      if let offset = label.pointee.firstOffset {
        // The first position (worked out with the label), then any others.
        // (A cell on the screen moved by an `Int32`: no overflow.)
        let c = (cell.column &+ Int(offset.columns), cell.row &+ Int(offset.rows))
        if fits(c.0, c.1, width, marker: markerCell) {
          at = c
        } else {
          for p in label.pointee.positions.dropFirst() {
            let c = p.cell(column: cell.column, row: cell.row, width: width)
            if fits(c.column, c.row, width, marker: markerCell) {
              at = c
              break
            }
          }
        }
      } else {
        var start: Int
        if marker != nil {
          start = cell.column + 2
          if start + width > cols { start = cell.column - 1 - width }
        } else {
          start = cell.column - width / 2
        }
        if fits(start, cell.row, width, marker: markerCell) {
          at = (start, cell.row)
        }
      }
      guard let at else { return false }
      take(at.column, at.row, width, marker: markerCell)
      if let m = marker {
        cells.set(
          column: cell.column, row: cell.row, Cell(glyph: m.glyph, foreground: m.color, bold: true))
        if at.row == cell.row {
          // Nothing between the marker and its name: the map's dots there would read as part
          // of either.
          let gap =
            at.column > cell.column
            ? (cell.column + 1)..<at.column : (at.column + width)..<cell.column
          for col in gap { cells.set(column: col, row: cell.row, .blank) }
        }
      }
      // The label's cells in its colours, copied.
      cells.put(label.pointee.shown, column: at.column, row: at.row)
      return true
    }

    /// The cells a text at (`start`, `row`) and `width` wide takes, with a free cell either
    /// side, and its marker's cell: the span from one to the other when on the same row. The
    /// text must be on the screen (`0 <= start <= columns - width`), so the span is not empty
    /// and within the row, and no sum overflows (a marker's cell is on the screen too).
    @inline(__always) private func spans(
      _ start: Int, _ row: Int, _ width: Int, marker: (column: Int, row: Int)?
    ) -> (lower: Int, upper: Int, marker: Int?) {
      let cols = viewport.columns
      if let m = marker, m.row == row {
        let lo = max(min(start, m.column) &- 1, 0)
        let hi = min(max(start &+ width, m.column &+ 1) &+ 1, cols)
        return (lo, hi, nil)
      }
      return (max(start &- 1, 0), min(start &+ width &+ 1, cols), marker.map { m in m.column })
    }

    /// Whether a text fits at (`start`, `row`): on screen, its cells and a cell either side
    /// free, its marker's cell free and not under the text.
    @inline(__always) private func fits(
      _ start: Int, _ row: Int, _ width: Int, marker: (column: Int, row: Int)?
    ) -> Bool {
      let cols = viewport.columns
      guard start >= 0, start <= cols &- width, row >= 0, row < viewport.rows else {
        return false
      }
      if let m = marker, m.row == row, m.column >= start, m.column < start &+ width {
        return false
      }
      let (lower, upper, markerColumn) = spans(start, row, width, marker: marker)
      // The span is within the row (`spans` clamps it to the screen) and the row and the
      // marker's cell are on it, so every index is in the buffer.
      let base = row &* cols
      if anyTaken(base &+ lower, base &+ upper) { return false }
      if let c = markerColumn, let m = marker, taken[m.row &* cols &+ c] { return false }
      return true
    }

    /// Whether a flag in `from..<to` (not empty, in the buffer) is set, read eight flags (a
    /// word) at a time: a `Bool` is a byte, 0 or 1, so eight false flags read as a zero word.
    /// Reads (and `mark`'s writes) overlap rather than run past the span: a span shorter than
    /// a word is read as two overlapping halves, quarters or bytes.
    @inline(__always) private func anyTaken(_ from: Int, _ to: Int) -> Bool {
      // The flags' bytes as raw memory: loads of a trivial type, unaligned, each within
      // `from..<to` and so within the buffer.
      let p = UnsafeRawPointer(taken.baseAddress!)
      let n = to &- from
      if n >= 8 {
        var i = from
        while to &- i > 8 {
          if p.loadUnaligned(fromByteOffset: i, as: UInt64.self) != 0 { return true }
          i &+= 8
        }
        return p.loadUnaligned(fromByteOffset: to &- 8, as: UInt64.self) != 0
      }
      if n >= 4 {
        return p.loadUnaligned(fromByteOffset: from, as: UInt32.self)
          | p.loadUnaligned(fromByteOffset: to &- 4, as: UInt32.self) != 0
      }
      if n >= 2 {
        return p.loadUnaligned(fromByteOffset: from, as: UInt16.self)
          | p.loadUnaligned(fromByteOffset: to &- 2, as: UInt16.self) != 0
      }
      return p.load(fromByteOffset: from, as: UInt8.self) != 0
    }

    /// Sets the flags in `from..<to` (not empty, in the buffer) as `anyTaken` reads them: a
    /// word of eight true flags (bytes of 1) at a time.
    @inline(__always) private func mark(_ from: Int, _ to: Int) {
      // Stores of a trivial type's bytes, each a valid `Bool` (1), within `from..<to`.
      let p = UnsafeMutableRawPointer(taken.baseAddress!)
      let n = to &- from
      if n >= 8 {
        // Two words for most spans, written so rather than in a loop (which LLVM makes a call
        // of `memset`).
        if n > 16 {
          var i = from
          while to &- i > 8 {
            p.storeBytes(of: 0x0101_0101_0101_0101 as UInt64, toByteOffset: i, as: UInt64.self)
            i &+= 8
          }
        } else {
          p.storeBytes(of: 0x0101_0101_0101_0101 as UInt64, toByteOffset: from, as: UInt64.self)
        }
        p.storeBytes(of: 0x0101_0101_0101_0101 as UInt64, toByteOffset: to &- 8, as: UInt64.self)
      } else if n >= 4 {
        p.storeBytes(of: 0x0101_0101 as UInt32, toByteOffset: from, as: UInt32.self)
        p.storeBytes(of: 0x0101_0101 as UInt32, toByteOffset: to &- 4, as: UInt32.self)
      } else if n >= 2 {
        p.storeBytes(of: 0x0101 as UInt16, toByteOffset: from, as: UInt16.self)
        p.storeBytes(of: 0x0101 as UInt16, toByteOffset: to &- 2, as: UInt16.self)
      } else {
        p.storeBytes(of: 1 as UInt8, toByteOffset: from, as: UInt8.self)
      }
    }

    /// Marks the cells `fits` checked as taken.
    @inline(__always) private func take(
      _ start: Int, _ row: Int, _ width: Int, marker: (column: Int, row: Int)?
    ) {
      let cols = viewport.columns
      let (lower, upper, markerColumn) = spans(start, row, width, marker: marker)
      // In the buffer, for the reasons in `fits`.
      let base = row &* cols
      mark(base &+ lower, base &+ upper)
      if let c = markerColumn, let m = marker { taken[m.row &* cols &+ c] = true }
    }
  }
}

/// A renderer that draws cells rather than dots (a picture in half blocks, each cell two
/// colours). The map calls it once per frame in the cell stage, in stack order, before any dots
/// are turned into glyphs, so dots of every layer are drawn over it (keeping its background).
public protocol CellLayerRendering: AnyObject {
  /// Draws the renderer's cells for the viewport into `cells` (blank before the first layer).
  func drawCells(into cells: inout CellBuffer, viewport: Viewport)
}
