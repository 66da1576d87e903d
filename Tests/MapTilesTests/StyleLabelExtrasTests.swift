import DotRaster
import Foundation
import MapGeometry
import MapStyle
import RegionFixtures
import Testing

@testable import MapTiles
@testable import TermMapKit
@testable import TileData

/// A hand-made vector tile of point features with string and integer properties.
enum HandMadeTile {
  enum Value {
    case s(String)
    case n(Int)
  }

  /// One layer, `features` in order: each its properties and a point in tile units (of 4096).
  static func tile(
    _ layer: String, _ features: [(properties: [(String, Value)], x: UInt32, y: UInt32)]
  ) throws -> DecodedTile {
    var keys: [String] = []
    var values: [Value] = []
    var w = ProtoWriter()
    w.varintField(15, 2)
    w.stringField(1, layer)
    for f in features {
      var tags: [UInt32] = []
      for (k, v) in f.properties {
        let ki = keys.firstIndex(of: k) ?? keys.count
        if ki == keys.count { keys.append(k) }
        values.append(v)
        tags += [UInt32(ki), UInt32(values.count - 1)]
      }
      var fw = ProtoWriter()
      fw.packedField(2, tags)
      fw.varintField(3, 1)
      fw.packedField(4, [9, f.x << 1, f.y << 1])
      w.bytesField(2, fw.bytes)
    }
    for k in keys { w.stringField(3, k) }
    for v in values {
      var vw = ProtoWriter()
      switch v {
      case .s(let s): vw.stringField(1, s)
      case .n(let n): vw.varintField(4, UInt64(bitPattern: Int64(n)))
      }
      w.bytesField(4, vw.bytes)
    }
    var t = ProtoWriter()
    t.bytesField(3, w.bytes)
    return try VectorTileDecoder.decode(Data(t.bytes))
  }

  static let id = TileID(z: 14, x: 8529, y: 5974)
}

/// What the built-in styles need of `StyleLabels` beyond MapLibre's own properties (the
/// `termmap:` metadata of docs/styles.md), with small style documents of the tests' own: a
/// place's dot, names that fit a cell grid preferred to wide CJK ones, xterm colours.
@Suite("Style labels: markers, narrow-first names, xterm colours")
struct StyleLabelExtrasTests {
  static func document(_ layers: String, xterm: Bool = false) throws -> StyleDocument {
    let metadata = xterm ? #""metadata": {"termmap:colors": "xterm"},"# : ""
    let json = """
      {"version": 8, \(metadata)
       "sources": {"t": {"type": "vector", "tiles": ["https://tiles.example/{z}/{x}/{y}.pbf"]}},
       "layers": [\(layers)]}
      """
    let document = try StyleDocument(data: Data(json.utf8))
    #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
    return document
  }

  /// The texts of a tile's labels, most important first.
  static func labels(
    _ document: StyleDocument, _ tile: DecodedTile, zoom: Double = 12, language: String? = nil
  ) -> [MapLabel] {
    let all = StyleLabels(document: document, sourceID: "t", language: language)
      .labels(in: tile, id: HandMadeTile.id, zoom: zoom)
    return all.indices.sorted {
      all[$0].priority != all[$1].priority ? all[$0].priority > all[$1].priority : $0 < $1
    }.map { all[$0] }
  }

  static let cities = try! HandMadeTile.tile(
    "place",
    [
      ([("name", .s("東京")), ("name_en", .s("Tokyo")), ("name:ja", .s("東京都"))], 100, 100),
      ([("name", .s("北京"))], 300, 100),
      ([("name", .s("")), ("name_en", .s("Oslo"))], 500, 100),
      ([("name", .s("Αθήνα")), ("name_en", .s("Athens"))], 700, 100),
      ([("name", .s("서울")), ("name:latin", .s("Seoul"))], 900, 100),
    ])

  static let namesLayer = """
    {"id": "names", "type": "symbol", "source": "t", "source-layer": "place",
     %@
     "layout": {"text-field": ["coalesce", ["get", "name"], ["get", "name_en"], ["get", "name:latin"]]},
     "paint": {"text-color": "#ffffff"}}
    """

  @Test("narrow-first: a CJK name passed over for its Latin one; --lang ja takes Japanese")
  func narrowFirst() throws {
    let narrow = try Self.document(
      Self.namesLayer.replacingOccurrences(
        of: "%@", with: #""metadata": {"termmap:narrow-first": true},"#))
    // Tokyo and Seoul in Latin letters, Beijing with no other name as it is, Athens in
    // Greek (narrow), Oslo past an empty name.
    #expect(
      Self.labels(narrow, Self.cities).map(\.text) == ["Tokyo", "北京", "Oslo", "Αθήνα", "Seoul"])
    // MapLibre's own coalesce: the first non-null name, whatever its script.
    let plain = try Self.document(Self.namesLayer.replacingOccurrences(of: "%@", with: ""))
    #expect(
      Self.labels(plain, Self.cities).map(\.text)
        == ["東京", "北京", "", "Αθήνα", "서울"].filter { !$0.isEmpty })
    // The reader's language wins whatever its script; where it is missing, narrow-first.
    #expect(
      Self.labels(narrow, Self.cities, language: "ja").map(\.text) == [
        "東京都", "北京", "Oslo", "Αθήνα", "Seoul",
      ])
    #expect(
      Self.labels(narrow, Self.cities, language: "ja-JP").first?.text == "東京都")
  }

  @Test("a place's dot: icon-image beside the text, termmap:icon, icon-color; none on a shield")
  func markers() throws {
    let layers = """
      {"id": "shields", "type": "symbol", "source": "t", "source-layer": "place",
       "filter": ["==", ["get", "kind"], "shield"],
       "layout": {"text-field": ["get", "name"], "icon-image": "road_2"},
       "paint": {"text-color": "#00ff00"}},
      {"id": "towns", "type": "symbol", "source": "t", "source-layer": "place",
       "filter": ["==", ["get", "kind"], "town"],
       "layout": {"text-field": ["get", "name"], "text-anchor": "bottom",
         "icon-image": ["step", ["zoom"], "circle_11", 10, ""]},
       "paint": {"text-color": "#0000ee"}},
      {"id": "cities", "type": "symbol", "source": "t", "source-layer": "place",
       "metadata": {"termmap:icon": "◆"},
       "filter": ["==", ["get", "kind"], "city"],
       "layout": {"text-field": ["get", "name"], "icon-image": "dot"},
       "paint": {"text-color": "#ffff00", "icon-color": "#cd0000"}}
      """
    let tile = try HandMadeTile.tile(
      "place",
      [
        ([("name", .s("E18")), ("kind", .s("shield"))], 100, 100),
        ([("name", .s("Espoo")), ("kind", .s("town"))], 300, 100),
        ([("name", .s("Helsinki")), ("kind", .s("city"))], 500, 100),
      ])
    // 24-bit colours in a plain document.
    let plain = Self.labels(try Self.document(layers), tile, zoom: 9)
    #expect(plain.map(\.text) == ["Helsinki", "Espoo", "E18"])
    #expect(
      plain[0].marker?.glyph == "◆"
        && plain[0].marker?.color == TermColor(red: 205, green: 0, blue: 0))
    #expect(plain[0].color == TermColor(red: 255, green: 255, blue: 0))
    // Without icon-color, the dot is in the text's colour; a shield's number has none.
    #expect(plain[1].marker?.glyph == "•" && plain[1].marker?.color == plain[1].color)
    #expect(plain[2].marker == nil)
    // The town's icon stops at zoom 10 (an empty image name): a plain centred name.
    let z10 = Self.labels(try Self.document(layers), tile, zoom: 10)
    #expect(z10.map { $0.marker?.glyph } == ["◆", nil, nil])
    // Marked `termmap:colors` `xterm`: exact palette entries are palette colours.
    let xterm = Self.labels(try Self.document(layers, xterm: true), tile, zoom: 9)
    #expect(xterm[0].color == .brightYellow && xterm[0].marker?.color == .red)
    #expect(xterm[1].color == .blue && xterm[1].marker?.color == .blue)
    #expect(xterm[2].color == .brightGreen)
  }
}

/// The built-in styles' labels in a frame, as a user sees them.
@MainActor
@Suite("Built-in style documents: labels on the map")
struct BuiltinStyleLabelTests {
  static let styles = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "Sources/MapTiles/Styles")

  static func frame(
    _ style: String, _ path: String, center: Coordinate, zoom: Double, language: String? = nil
  ) throws -> (CellBuffer, [MapLabel]) {
    let document = try StyleDocument(
      data: Data(contentsOf: styles.appendingPathComponent(style + ".json")))
    let delegate = StyledRenderers(document, sourceID: try #require(document.sourceIDs.first))
    let map = MapView(columns: 100, rows: 30)
    map.delegate = delegate
    let source: any TileSource
    if path.hasSuffix(".mbtiles") {
      source = try MBTilesSource(path: path)
    } else if path.hasSuffix(".pmtiles") {
      source = try PMTilesSource(path: path)
    } else {
      source = try DirectoryTileSource(root: path)
    }
    let overlay = SourceTileOverlay(source: source)
    map.addOverlay(overlay, level: .aboveRoads)
    map.setCenter(center, animated: false)
    map.setZoomLevel(zoom, animated: false)
    _ = map.renderCompleteFrame(timeout: 60)
    let renderer = try #require(map.renderer(for: overlay) as? StyledVectorTileRenderer)
    if let language {
      renderer.language = language
    }
    let result = map.renderCompleteFrame(timeout: 60)
    #expect(result.complete)
    return (result.frame, renderer.labels(for: map.viewport))
  }

  /// The cell of the first occurrence of `text` in a frame.
  static func find(_ text: String, in frame: CellBuffer) -> (column: Int, row: Int)? {
    for (row, line) in frame.lines.enumerated() {
      guard let r = line.range(of: text) else { continue }
      return (line.distance(from: line.startIndex, to: r.lowerBound), row)
    }
    return nil
  }
}

extension BuiltinStyleLabelTests {
  static let helsinki = Coordinate(latitude: 60.1699, longitude: 24.9440)
  static let monaco = Coordinate(latitude: 43.7384, longitude: 7.4246)

  @Test("dark at z3 (Data/world.pmtiles): capitals with a bright yellow dot, countries bold")
  func capitals() throws {
    let (frame, labels) = try Self.frame(
      "openmaptiles-dark", worldPath, center: Self.helsinki, zoom: 3)
    let text = frame.lines.joined(separator: "\n")
    for city in ["Helsinki", "Oslo", "Stockholm", "Tallinn", "Moscow"] {
      // The dot at the place, the name a cell after it (the cell between keeps its dots).
      guard let at = Self.find(city, in: frame), at.column >= 2,
        frame[at.column - 2, at.row].glyph == "•"
      else {
        Issue.record("no • \(city) in\n\(text)")
        continue
      }
      #expect(frame[at.column - 2, at.row].foreground == TermColor.brightYellow)
      #expect(frame[at.column, at.row].foreground == TermColor.brightYellow)
    }
    let finland = try #require(Self.find("Finland", in: frame))
    #expect(frame[finland.column, finland.row].foreground == TermColor.brightWhite)
    #expect(frame[finland.column, finland.row].bold)
    // Countries (the top layer) before cities, each city with its marker.
    let firstCity = try #require(labels.firstIndex { $0.marker != nil })
    #expect(firstCity > 0)
    #expect(labels[..<firstCity].allSatisfy { $0.bold && $0.color == .brightWhite })
    #expect(labels[firstCity...].allSatisfy { !$0.bold })
  }

  @Test("dark at z5.5: the countries, then the cities by population")
  func cityOrder() throws {
    let (_, labels) = try Self.frame(
      "openmaptiles-dark", worldPath, center: Self.helsinki, zoom: 5.5)
    #expect(labels.prefix(2).map(\.text) == ["Latvia", "Estonia"])
    #expect(
      labels.dropFirst(2).prefix(6).map(\.text) == [
        "Saint Petersburg", "Stockholm", "Copenhagen", "Riga", "Helsinki", "Tallinn",
      ])
  }

  @Test("dark at z15 in Monaco: the country, the quarters in grey 250, street names in 252")
  func streets() throws {
    let (frame, labels) = try Self.frame(
      "openmaptiles-dark", monacoPath, center: Self.monaco, zoom: 15)
    #expect(labels.first?.text == "Monaco" && labels.first?.color == .brightWhite)
    let quarters = labels.dropFirst().prefix { $0.color == TermColor(250) }.map(\.text)
    #expect(quarters.contains("Monte-Carlo") && quarters.contains("Monaco-Ville"))
    #expect(labels.dropFirst(1 + quarters.count).allSatisfy { $0.color == TermColor(252) })
    let street = try #require(Self.find("Avenue de la Costa", in: frame))
    #expect(frame[street.column, street.row].foreground == TermColor(252))
    #expect(labels.allSatisfy { $0.marker == nil })
  }

  @Test("Shortbread light at z13: Monaco with its red dot, the quarters in grey 238")
  func shortbreadLight() throws {
    let (frame, labels) = try Self.frame(
      "shortbread-light", shortbreadPath, center: Self.monaco, zoom: 13)
    let at = try #require(Self.find("Monaco", in: frame))
    #expect(at.column >= 2 && frame[at.column - 2, at.row].glyph == "•")
    #expect(frame[at.column - 2, at.row].foreground == TermColor.red)
    #expect(frame[at.column, at.row].foreground == TermColor.red)
    #expect(labels.first?.text == "Monaco")
    let quarter = try #require(Self.find("La Condamine", in: frame))
    #expect(frame[quarter.column, quarter.row].foreground == TermColor(238))
  }
}
