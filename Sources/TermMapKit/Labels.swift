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

  /// A label of a text at a map point.
  public init(
    text: String, point: MapPoint, priority: Double, color: TermColor, bold: Bool = false,
    marker: (glyph: Unicode.Scalar, color: TermColor)? = nil,
    category: PointOfInterestCategory? = nil
  ) {
    self.text = text
    shown = Self.shownText(text)
    self.point = point
    self.priority = priority
    self.color = color
    self.bold = bold
    self.marker = marker
    self.category = category
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
/// Every label keeps a free cell on either side.
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
      var start: Int
      var dotColumn: Int?
      if marker != nil {
        dotColumn = cell.column
        start = cell.column + 2
        if start + width > cols { start = cell.column - 1 - width }
      } else {
        start = cell.column - width / 2
      }
      guard start >= 0, start + width <= cols else { continue }
      let row = cell.row
      // The label's cells plus a cell of space either side must be free.
      let lo = max(min(start, dotColumn ?? start) - 1, 0)
      let hi = min(max(start + width, (dotColumn ?? 0) + 1) + 1, cols)
      var free = true
      for col in lo..<hi where taken[row * cols + col] {
        free = false
        break
      }
      guard free else { continue }
      for col in lo..<hi { taken[row * cols + col] = true }
      if let d = dotColumn, let m = marker {
        cells[d, row] = Cell(glyph: m.glyph, foreground: m.color, bold: true)
      }
      cells.put(
        labels[index].shown.text, column: start, row: row, foreground: labels[index].color,
        bold: labels[index].bold)
      placed += 1
    }
    return placed
  }
}

/// A renderer that draws cells rather than dots (a picture in half blocks, each cell two
/// colours). The map calls it once per frame in the cell stage, in stack order, before any dots
/// are turned into glyphs, so dots of every layer are drawn over it (keeping its background).
public protocol CellLayerRendering: AnyObject {
  /// Draws the renderer's cells for the viewport into `cells` (blank before the first layer).
  func drawCells(into cells: inout CellBuffer, viewport: Viewport)
}
