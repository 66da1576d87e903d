import DotRaster
import Foundation
import MapGeometry
import TermMapKit
import TileData

/// Places basemap names in cells: the most important first, none over another, over a marker
/// or the callout, and none cut by the screen's edge.
struct LabelPlacer {
  struct Candidate {
    var text: String
    var point: MapPoint
    var priority: Double
    var color: TermColor
    var bold: Bool
    /// Cities get a dot at their place and the name beside it; other labels are centred.
    var dotted: Bool
  }

  let viewport: Viewport
  let style: BasemapStyle
  var taken: [Bool]
  var candidates: [Candidate] = []
  var names = Set<String>()

  init(viewport: Viewport, reserved: Set<Int>, style: BasemapStyle) {
    self.viewport = viewport
    self.style = style
    taken = [Bool](repeating: false, count: viewport.columns * viewport.rows)
    for r in reserved where r >= 0 && r < taken.count { taken[r] = true }
  }

  /// The population a place needs to be named at a zoom level (more as one zooms out).
  static func minimumPopulation(zoom: Double) -> Double {
    5_000_000 / pow(2, zoom * 1.25)
  }

  mutating func collect(from t: AvailableTile, zoom: Double, shift: Double) {
    for rule in style.labels where zoom >= rule.minZoom {
      guard let layer = t.tile.layer(named: rule.layer) else { continue }
      let transform = layer.transform(for: t.sourceID)
      let keyIndex = rule.key.flatMap { layer.keyIndex(of: $0) }
      for feature in layer {
        if let k = keyIndex, !rule.values.isEmpty {
          guard let v = feature.value(forKeyIndex: k)?.stringValue, rule.values.contains(v) else {
            continue
          }
        } else if rule.key != nil && !rule.values.isEmpty {
          continue
        }
        guard let name = Self.displayName(feature), !name.isEmpty else { continue }
        var priority = rule.priority
        if rule.populationScale > 0 {
          let population = feature.value(for: "population")?.doubleValue ?? 0
          if population < Self.minimumPopulation(zoom: zoom)
            && (feature.value(for: "capital")?.intValue ?? 0) == 0
          {
            continue
          }
          priority += log10(max(population, 1)) * 10
        }
        if let rank = feature.value(for: "rank")?.doubleValue { priority -= rank }
        guard let p = Self.anchor(feature, transform) else { continue }
        let key = rule.layer + "/" + name
        guard names.insert(key).inserted else { continue }
        candidates.append(
          Candidate(
            text: name, point: MapPoint(x: p.x + shift, y: p.y), priority: priority,
            color: rule.color, bold: rule.bold, dotted: rule.populationScale > 0))
      }
    }
  }

  /// A Latin-script name where the tile has one (terminal columns hold one character each),
  /// else the local name.
  static func displayName(_ f: VectorFeature) -> String? {
    let local = f.value(for: "name")?.stringValue
    let english = f.value(for: "name_en")?.stringValue
    if let l = local, l.unicodeScalars.allSatisfy({ $0.value < 0x2E80 }) { return l }
    return english ?? local
  }

  /// Where a feature's label goes: the point, or a line's middle vertex.
  static func anchor(_ f: VectorFeature, _ t: TileTransform) -> MapPoint? {
    switch f.type {
    case .point:
      return f.allPoints.first.map(t.mapPoint)
    case .lineString:
      let longest = f.parts.max { $0.points.count < $1.points.count }
      guard let pts = longest?.points, !pts.isEmpty else { return nil }
      return t.mapPoint(pts[pts.startIndex + pts.count / 2])
    default:
      return nil
    }
  }

  mutating func place(into cells: inout CellBuffer) {
    candidates.sort { $0.priority > $1.priority }
    let cols = viewport.columns
    for c in candidates {
      guard let cell = viewport.cell(for: c.point) else { continue }
      let text = String(
        c.text.unicodeScalars.filter { CellBuffer.isPrintable($0) }.prefix(30).map(Character.init))
      let width = CellBuffer.displayWidth(of: text)
      var start: Int
      var dotColumn: Int?
      if c.dotted {
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
      if let d = dotColumn {
        cells[d, row] = Cell(
          glyph: style.placeDot.unicodeScalars.first!, foreground: style.placeDotColor, bold: true)
      }
      cells.put(text, column: start, row: row, foreground: c.color, bold: c.bold)
    }
  }
}
