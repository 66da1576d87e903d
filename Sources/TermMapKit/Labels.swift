import DotRaster
import Foundation
import MapGeometry

/// A name the map may print in cells (a place, a street): where, how important, in what
/// colour. Renderers that have names adopt `LabelProviding`; the map places every renderer's
/// labels once per frame, at the labels' position in the layer stack.
public struct MapLabel: Sendable {
  /// The text (sanitised when placed).
  public var text: String {
    didSet { shown = Self.shownText(text) }
  }
  /// The text as cells show it (printable, cut to `LabelPlacer.maximumLength`) and its width,
  /// worked out once per label rather than once per frame.
  private(set) var shown: (text: String, width: Int)
  /// Where the label belongs (the place itself, or the middle of a street).
  public var point: MapPoint
  /// Higher wins a place first.
  public var priority: Double
  /// The text's colour.
  public var color: TermColor
  /// Whether the text is bold.
  public var bold: Bool
  /// A glyph drawn at the place with the name beside it (cities); nil centres the name.
  public var marker: (glyph: Unicode.Scalar, color: TermColor)?
  /// The point-of-interest class of the named place (nil: not a point of interest, such as a
  /// town or a street), for the map's ``MapView/pointOfInterestFilter``.
  public var category: PointOfInterestCategory?
  /// Where the text may stand against the point, tried in order until one fits (MapLibre's
  /// `text-anchor` and `text-offset`, or its `text-variable-anchor`s). Empty: the text is
  /// centred on the point, or with a marker starts two cells to its right (on the left where
  /// the right edge cuts it).
  public var positions: [LabelPosition]

  /// A label of a text at a map point.
  public init(
    text: String, point: MapPoint, priority: Double, color: TermColor, bold: Bool = false,
    marker: (glyph: Unicode.Scalar, color: TermColor)? = nil,
    category: PointOfInterestCategory? = nil, positions: [LabelPosition] = []
  ) {
    self.text = text
    shown = Self.shownText(text)
    self.point = point
    self.priority = priority
    self.color = color
    self.bold = bold
    self.marker = marker
    self.category = category
    self.positions = positions
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

extension MapLabel {
  static func shownText(_ text: String) -> (text: String, width: Int) {
    let t = CellBuffer.truncated(
      String(text.unicodeScalars.filter { CellBuffer.isPrintable($0) }.map(Character.init)),
      width: LabelPlacer.maximumLength)
    return (t, CellBuffer.displayWidth(of: t))
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
    // The order of places, by index (labels are not copied to sort them; a list already in
    // order, as a tile renderer keeps its labels, is not sorted at all).
    var order = Array(labels.indices)
    if labels.indices.dropFirst().contains(where: { labels[$0 - 1].priority < labels[$0].priority })
    {
      let priorities = labels.map(\.priority)
      order.sort { priorities[$0] != priorities[$1] ? priorities[$0] > priorities[$1] : $0 < $1 }
    }
    let cols = viewport.columns
    var placed = 0
    for index in order {
      // Fields read in place: a copy of the label would retain and release its strings for
      // every label tried, and most are not placed.
      guard let cell = viewport.cell(for: labels[index].point) else { continue }
      let width = labels[index].shown.width
      let marker = labels[index].marker
      var at: (column: Int, row: Int)?
      if labels[index].positions.isEmpty {
        var start: Int
        if marker != nil {
          start = cell.column + 2
          if start + width > cols { start = cell.column - 1 - width }
        } else {
          start = cell.column - width / 2
        }
        if fits(start, cell.row, width, marker: marker == nil ? nil : cell) {
          at = (start, cell.row)
        }
      } else {
        for p in labels[index].positions {
          let c = p.cell(column: cell.column, row: cell.row, width: width)
          if fits(c.column, c.row, width, marker: marker == nil ? nil : cell) {
            at = c
            break
          }
        }
      }
      guard let at else { continue }
      take(at.column, at.row, width, marker: marker == nil ? nil : cell)
      if let m = marker {
        cells[cell.column, cell.row] = Cell(glyph: m.glyph, foreground: m.color, bold: true)
        if at.row == cell.row {
          // Nothing between the marker and its name: the map's dots there would read as part
          // of either.
          let gap =
            at.column > cell.column
            ? (cell.column + 1)..<at.column : (at.column + width)..<cell.column
          for col in gap { cells[col, cell.row] = .blank }
        }
      }
      cells.put(
        labels[index].shown.text, column: at.column, row: at.row, foreground: labels[index].color,
        bold: labels[index].bold)
      placed += 1
    }
    return placed
  }

  /// The cells a text at (`start`, `row`) and `width` wide takes, with a free cell either
  /// side, and its marker's cell: the span from one to the other when on the same row.
  private func spans(_ start: Int, _ row: Int, _ width: Int, marker: (column: Int, row: Int)?)
    -> (text: Range<Int>, marker: Int?)
  {
    let cols = viewport.columns
    if let m = marker, m.row == row {
      let lo = max(min(start, m.column) - 1, 0)
      let hi = min(max(start + width, m.column + 1) + 1, cols)
      return (lo..<hi, nil)
    }
    return (max(start - 1, 0)..<min(start + width + 1, cols), marker.map { m in m.column })
  }

  /// Whether a text fits at (`start`, `row`): on screen, its cells and a cell either side
  /// free, its marker's cell free and not under the text.
  private func fits(_ start: Int, _ row: Int, _ width: Int, marker: (column: Int, row: Int)?)
    -> Bool
  {
    let cols = viewport.columns
    guard start >= 0, start + width <= cols, row >= 0, row < viewport.rows else { return false }
    if let m = marker, m.row == row, m.column >= start, m.column < start + width { return false }
    let (text, markerColumn) = spans(start, row, width, marker: marker)
    // Through the buffer: `text` is within the row (`spans` clamps it to the screen) and the
    // row and the marker's cell are on it, so no index needs the array's check.
    return taken.withUnsafeBufferPointer { t in
      let base = row * cols
      var col = base &+ text.lowerBound
      let end = base &+ text.upperBound
      while col < end {
        if t[col] { return false }
        col &+= 1
      }
      if let c = markerColumn, let m = marker, t[m.row * cols + c] { return false }
      return true
    }
  }

  /// Marks the cells `fits` checked as taken.
  private mutating func take(
    _ start: Int, _ row: Int, _ width: Int, marker: (column: Int, row: Int)?
  ) {
    let cols = viewport.columns
    let (text, markerColumn) = spans(start, row, width, marker: marker)
    // Through the buffer, for the reasons in `fits`.
    taken.withUnsafeMutableBufferPointer { t in
      let base = row * cols
      var col = base &+ text.lowerBound
      let end = base &+ text.upperBound
      while col < end {
        t[col] = true
        col &+= 1
      }
      if let c = markerColumn, let m = marker { t[m.row * cols + c] = true }
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
