import DotRaster
import Foundation
import MapGeometry
import MapStyle
import RegionFixtures
import Testing

@testable import MapTiles
@testable import TermMapKit
@testable import TileData

/// One hand-made vector tile (zoom 14, at Helsinki) served as a tile source: points and lines
/// in one layer, in tile units of 4096.
final class HandMadeSource: TileSource {
  static let id = TileID(z: 14, x: 9327, y: 4742)
  enum Geometry {
    case point(Int, Int)
    case line([(Int, Int)])
  }
  let bytes: Data
  init(layer: String, _ features: [(name: String, geometry: Geometry)]) {
    var w = ProtoWriter()
    w.varintField(15, 2)
    w.stringField(1, layer)
    func zigzag(_ v: Int) -> UInt32 { UInt32(truncatingIfNeeded: (v << 1) ^ (v >> 63)) }
    for (i, f) in features.enumerated() {
      var fw = ProtoWriter()
      fw.packedField(2, [0, UInt32(i)])
      var commands: [UInt32] = []
      switch f.geometry {
      case .point(let x, let y):
        fw.varintField(3, 1)
        commands = [9, zigzag(x), zigzag(y)]
      case .line(let points):
        fw.varintField(3, 2)
        var (px, py) = (0, 0)
        for (k, p) in points.enumerated() {
          if k == 0 { commands.append(9) }
          if k == 1 { commands.append(UInt32(2 | (points.count - 1) << 3)) }
          commands += [zigzag(p.0 - px), zigzag(p.1 - py)]
          (px, py) = p
        }
      }
      fw.packedField(4, commands)
      w.bytesField(2, fw.bytes)
    }
    w.stringField(3, "name")
    for f in features {
      var vw = ProtoWriter()
      vw.stringField(1, f.name)
      w.bytesField(4, vw.bytes)
    }
    var t = ProtoWriter()
    t.bytesField(3, w.bytes)
    self.bytes = Data(t.bytes)
  }
  var minZoom: Int { 14 }
  var maxZoom: Int { 14 }
  var bounds: MapRect? { nil }
  var attribution: String { "" }
  var vectorLayers: [String] { [] }
  var format: TileFormat { .pbf }
  var name: String { "hand-made" }
  func tile(_ id: TileID) throws -> Data? { id == Self.id ? bytes : nil }

  /// The map point of tile units (`x`, `y`) of the tile.
  static func point(_ x: Int, _ y: Int) -> MapPoint {
    let t = TileTransform(tile: id)
    return t.mapPoint(x: Double(x), y: Double(y))
  }
}

/// `text-anchor`, `text-offset`, `text-radial-offset`, `text-variable-anchor` (labels placed
/// against their point in cells) and `line-offset`, `line-gap-width` (lines drawn beside their
/// feature), in frames of small style documents of the tests' own.
@MainActor
@Suite("Style placement: text anchors and offsets, line offsets and gaps")
struct StylePlacementTests {
  static func document(_ layers: String) throws -> StyleDocument {
    let json = """
      {"version": 8,
       "sources": {"t": {"type": "vector", "tiles": ["https://tiles.example/{z}/{x}/{y}.pbf"]}},
       "layers": [\(layers)]}
      """
    let document = try StyleDocument(data: Data(json.utf8))
    #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
    return document
  }

  /// The frame of `source` drawn with `layers`, centred on the tile's middle at zoom 15 (a
  /// cell is 16 tile units across and 32 down).
  static func frame(
    _ layers: String, _ source: HandMadeSource, columns: Int = 31, rows: Int = 7
  ) throws -> [String] {
    let document = try document(layers)
    let delegate = StyledRenderers(document, sourceID: "t")
    let map = MapView(columns: columns, rows: rows)
    map.delegate = delegate
    map.addOverlay(SourceTileOverlay(source: source), level: .aboveRoads)
    map.setCenter(HandMadeSource.point(2040, 2032).coordinate, animated: false)
    map.setZoomLevel(15, animated: false)
    let result = map.renderCompleteFrame(timeout: 10)
    #expect(result.complete)
    return result.frame.lines
  }

  /// A symbol layer naming the features `only` names (all when nil) with more `layout`.
  static func symbols(_ layout: String, only: String? = nil) -> String {
    """
    {"id": "names\(only ?? "")", "type": "symbol", "source": "t", "source-layer": "places",
     \(only.map { #""filter": ["==", ["get", "name"], "\#($0)"],"# } ?? "")
     "layout": {"text-field": ["get", "name"]\(layout.isEmpty ? "" : ", " + layout)},
     "paint": {"text-color": "#ffffff"}}
    """
  }

  static let kiosk = HandMadeSource(layer: "places", [("Kiosk", .point(2040, 2032))])

  @Test("text-anchor: the text's side or corner at its point, a cell off it")
  func anchors() throws {
    #expect(
      try Self.frame(Self.symbols(""), Self.kiosk) == [
        "                               ",
        "                               ",
        "                               ",
        "             Kiosk             ",
        "                               ",
        "                               ",
        "                               ",
      ])
    #expect(
      try Self.frame(Self.symbols(#""text-anchor": "top""#), Self.kiosk)[3...4] == [
        "                               ",
        "             Kiosk             ",
      ])
    #expect(
      try Self.frame(Self.symbols(#""text-anchor": "bottom-left""#), Self.kiosk)[2...3] == [
        "                Kiosk          ",
        "                               ",
      ])
    #expect(
      try Self.frame(Self.symbols(#""text-anchor": "right""#), Self.kiosk)[3]
        == "          Kiosk                ")
  }

  @Test("text-offset in ems: 1.8 cells across and one row down an em")
  func offsets() throws {
    // One em right of a text anchored left: 1.8 cells further, rounded: two (and one em
    // and a half, 2.7, three).
    #expect(
      try Self.frame(
        Self.symbols(#""text-anchor": "left", "text-offset": [1, 0]"#), Self.kiosk)[3]
        == "                 Kiosk         ")
    #expect(
      try Self.frame(
        Self.symbols(#""text-anchor": "left", "text-offset": [1.5, 0]"#), Self.kiosk)[3]
        == "                  Kiosk        ")
    // Two ems up from the middle: two rows up.
    #expect(
      try Self.frame(Self.symbols(#""text-offset": [0, -2]"#), Self.kiosk)[1]
        == "             Kiosk             ")
    // Under half a cell keeps the place.
    #expect(
      try Self.frame(Self.symbols(#""text-anchor": "top", "text-offset": [0, 0.4]"#), Self.kiosk)[
        4] == "             Kiosk             ")
    // The radial offset in the anchor's direction (two rows further down than the text's top
    // at the point); text-offset then does not count.
    #expect(
      try Self.frame(
        Self.symbols(#""text-anchor": "top", "text-radial-offset": 2, "text-offset": [5, 5]"#),
        Self.kiosk)[6] == "             Kiosk             ")
  }

  @Test("text-variable-anchor: the first anchor whose place is free")
  func variableAnchors() throws {
    // Another name at the same point, from a layer above (placed first), takes the row below
    // it: Kiosk's first anchor, top, finds its cells taken and its second, left, is free.
    let two = HandMadeSource(
      layer: "places", [("Kiosk", .point(2040, 2032)), ("Harbour Café", .point(2040, 2032))])
    let lines = try Self.frame(
      Self.symbols(#""text-variable-anchor": ["top", "left", "right"]"#, only: "Kiosk") + ", "
        + Self.symbols(#""text-anchor": "top""#, only: "Harbour Café"), two)
    #expect(lines[3...4] == ["                Kiosk          ", "         Harbour Café          "])
    // Alone, it takes its first anchor.
    #expect(
      try Self.frame(
        Self.symbols(#""text-variable-anchor": ["top", "left", "right"]"#), Self.kiosk)[
          4] == "             Kiosk             ")
  }

  @Test("a marker and its name: the name where the anchor puts it, the cells between cleared")
  func markers() throws {
    // A line under the point fills the cells around it with dots.
    let source = HandMadeSource(
      layer: "places",
      [("Kiosk", .point(2040, 2032)), ("", .line([(1700, 2032), (2400, 2032)]))])
    let road = """
      {"id": "road", "type": "line", "source": "t", "source-layer": "places",
       "paint": {"line-color": "#ff0000", "line-width": 16}},
      """
    let beside = try Self.frame(
      road
        + Self.symbols(#""icon-image": "dot", "text-anchor": "left", "text-offset": [0.9, 0]"#),
      source)
    #expect(beside[3].contains("• Kiosk"), "\(beside.joined(separator: "\n"))")
    let below = try Self.frame(
      road + Self.symbols(#""icon-image": "dot", "text-anchor": "top", "text-offset": [0, 0.6]"#),
      source)
    #expect(below[3].contains("•"), "\(below.joined(separator: "\n"))")
    #expect(below[4].contains("Kiosk"))
    // termmap's own way (termmap:icon, no anchor): the name two cells right, the one between
    // cleared.
    let own = try Self.frame(
      road + """
        {"id": "own", "type": "symbol", "source": "t", "source-layer": "places",
         "metadata": {"termmap:icon": "•"},
         "layout": {"text-field": ["get", "name"], "icon-image": "dot"}}
        """, source)
    #expect(own[3].contains("• Kiosk"), "\(own.joined(separator: "\n"))")
  }

  /// A line layer `width` pixels wide (4: one dot) with more `paint`.
  static func line(_ paint: String, width: Double = 4) -> String {
    """
    {"id": "road", "type": "line", "source": "t", "source-layer": "roads",
     "paint": {"line-color": "#ffffff", "line-width": \(width)\(paint.isEmpty ? "" : ", " + paint)}}
    """
  }

  /// A road going east, then turning north-east.
  static let road = HandMadeSource(
    layer: "roads", [("Main Street", .line([(1800, 2032), (2100, 2032), (2200, 1932)]))])

  @Test("line-offset: the line beside its feature, right of its direction (down, going east)")
  func lineOffset() throws {
    // On the feature: a dot row in the middle of row 3's cells.
    #expect(
      try Self.frame(Self.line(""), Self.road) == [
        "                        ⢀⠔     ",
        "                      ⢀⠔⠁      ",
        "                    ⢀⠔⠁        ",
        "⠠⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠔⠁          ",
        "                               ",
        "                               ",
        "                               ",
      ])
    // 8 pixels, 2 dots: going east, two dots down (the top of row 4); the diagonal moved
    // right and down with it, the corner mitred.
    #expect(
      try Self.frame(Self.line(#""line-offset": 8"#), Self.road) == [
        "                         ⢀⠄    ",
        "                       ⢀⠔⠁     ",
        "                      ⡠⠃       ",
        "                    ⡠⠊         ",
        "⠈⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉           ",
        "                               ",
        "                               ",
      ])
    // Negative: to the left, two dots up (the top of row 3).
    #expect(
      try Self.frame(Self.line(#""line-offset": -8"#), Self.road)[3]
        == "⠈⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉            ")
  }

  @Test("line-gap-width: two lines of line-width either side of the gap")
  func lineGap() throws {
    // (12 + 4) ÷ 2 pixels, 2 dots, either side: the two lines of the last test at once.
    #expect(
      try Self.frame(Self.line(#""line-gap-width": 12"#), Self.road) == [
        "                       ⡠⠊⢀⠄    ",
        "                     ⡠⠊⢀⠔⠁     ",
        "                   ⡠⠊ ⡠⠃       ",
        "⠈⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉ ⡠⠊         ",
        "⠈⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉           ",
        "                               ",
        "                               ",
      ])
    // Around an offset middle: 8 pixels (2 dots) down, the sides 2 dots either side of it:
    // one on the feature (row 3), one 4 dots below it (row 4).
    let both = try Self.frame(
      Self.line(#""line-gap-width": 12, "line-offset": 8"#), Self.road)
    #expect(both[3].hasPrefix("⠠⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠔⠁"), "\(both.joined(separator: "\n"))")
    #expect(both[4].hasPrefix("⠠⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠔⠁"))
    // (2 + 4) ÷ 8 is 0.75 dots each side, rounded to one: two lines a dot either side.
    #expect(
      try Self.frame(Self.line(#""line-gap-width": 2"#), Self.road)[3]
        == "⢐⣒⣒⣒⣒⣒⣒⣒⣒⣒⣒⣒⣒⣒⣒⣒⣒⣒⣒⡪⠊          ")
    // A gap the sides cannot part ((0.5 + 3) ÷ 8 rounds to no dot): one line as wide as the
    // whole casing, 0.5 + 2 × 3 pixels, 2 dots, where the line alone is one.
    #expect(
      try Self.frame(Self.line("", width: 3), Self.road)[3]
        == "⠠⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠤⠔⠁          ")
    #expect(
      try Self.frame(Self.line(#""line-gap-width": 0.5"#, width: 3), Self.road)[3]
        == "⢴⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⣶⡾⠋          ")
  }
}
