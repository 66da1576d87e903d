import DotRaster
import Foundation
import MapGeometry
import MapStyle
import Testing

@testable import MapTiles
@testable import TermMapKit
@testable import TileData

/// A style document's symbol layers as the map's labels, over Monaco's three fixtures with the
/// project's own small style documents (Fixtures/styles/labels-*.json).
@Suite("Style labels: symbol layers become map labels")
struct StyleLabelTests {
  static func document(_ name: String) throws -> StyleDocument {
    try StyleDocument(
      data: Data(contentsOf: styles.appendingPathComponent(name + ".json")))
  }
  static let styles = fixtures.appendingPathComponent("styles")

  /// The decoded tile of `path` at z14 that holds Monaco-Ville.
  static let monacoVille = TileID(z: 14, x: 8529, y: 5974)
  static func tile(_ path: String, _ id: TileID = monacoVille) throws -> DecodedTile {
    let data = try #require(try MBTilesSource(path: path).tile(id))
    return try VectorTileDecoder.decode(Inflate.decompressIfNeeded(data))
  }

  /// The labels of a tile, most important first (as the map places them; ties in tile order).
  static func labels(_ set: StyleLabels, _ tile: DecodedTile, zoom: Double) -> [MapLabel] {
    let all = set.labels(in: tile, id: monacoVille, zoom: zoom)
    return all.indices.sorted {
      all[$0].priority != all[$1].priority ? all[$0].priority > all[$1].priority : $0 < $1
    }.map { all[$0] }
  }

  static func color(_ css: String) -> TermColor { TermColor(StyleColor(css: css)!) }

  @Test("layers with text, in order; icon-only and hidden layers left out")
  func layers() throws {
    let set = StyleLabels(document: try Self.document("labels-shortbread"), sourceID: "sb")
    #expect(
      set.layerIDs == ["poi-names", "street-names", "too-far-in", "suburbs", "faint", "capital"])
    #expect(set.notes == ["poi-icons: no text-field"])
    #expect(
      StyleLabels(document: try Self.document("labels-shortbread"), sourceID: "x").layerIDs.isEmpty)
  }

  @Test("Shortbread at z15: the top layer first, sort key ascending, then the larger text-size")
  func shortbreadOrder() throws {
    let set = StyleLabels(document: try Self.document("labels-shortbread"), sourceID: "sb")
    let labels = Self.labels(set, try Self.tile(shortbreadPath), zoom: 15)
    let texts = labels.map(\.text)
    // capital (top), then the suburbs by name length (the sort key), upper-cased.
    #expect(
      Array(texts.prefix(7)) == [
        "Monaco (39050)", "FONTVIEILLE", "LA CONDAMINE", "MONACO-VILLE", "LES MONEGHETTI",
        "JARDIN EXOTIQUE", "RAVIN DE SAINTE-DÉVOTE",
      ])
    let capital = labels[0]
    #expect(capital.bold && capital.color == Self.color("#ffffff") && capital.category == nil)
    #expect(!labels[1].bold && labels[1].color == Self.color("hsl(200, 60%, 70%)"))
    // Streets after the places: primary and secondary (text-size 14) before the others (11).
    let streets = labels.dropFirst(7)
    #expect(!streets.isEmpty && streets.allSatisfy { !$0.text.uppercased().hasPrefix("NEAR") })
    #expect(streets.first { $0.text == "Tunnel Aureglia" }?.color == Self.color("#f0d040"))
    #expect(streets.first { $0.text == "Boulevard de Belgique" }?.color == Self.color("#c0c0c0"))
    let primary = try #require(texts.firstIndex(of: "Tunnel Aureglia"))
    let secondary = try #require(texts.firstIndex(of: "Avenue Princesse Alice"))
    let tertiary = try #require(texts.firstIndex(of: "Boulevard de Belgique"))
    let residential = try #require(texts.firstIndex(of: "Rue Bosio"))
    #expect(max(primary, secondary) < min(tertiary, residential))
    // Footways are filtered out; hidden, too-faint and not-yet layers give nothing.
    #expect(!texts.contains("Rue de l'Église"))
    #expect(
      !texts.contains { $0.hasPrefix("HIDDEN") || $0.hasPrefix("FAINT") || $0.hasPrefix("NEAR") })
    // No point of interest below the layer's minzoom.
    #expect(!texts.contains { $0.contains(" · ") })
  }

  @Test("Shortbread at z16: points of interest, format sections joined, category, sort key")
  func shortbreadPOIs() throws {
    let set = StyleLabels(document: try Self.document("labels-shortbread"), sourceID: "sb")
    let labels = Self.labels(set, try Self.tile(shortbreadPath), zoom: 16)
    let pois = labels.filter { $0.text.contains(" · ") }
    #expect(pois.contains { $0.text == "Castelroc · restaurant" })
    #expect(pois.allSatisfy { $0.color == Self.color("#ff8000") && $0.category != nil })
    #expect(pois.first { $0.text == "Castelroc · restaurant" }?.category == .restaurant)
    // Restaurants (sort key 1) before the other amenities (2); the POI layer is the lowest.
    let firstOther = try #require(pois.firstIndex { !$0.text.hasSuffix("· restaurant") })
    #expect(pois[firstOther...].allSatisfy { !$0.text.hasSuffix("· restaurant") })
    #expect(labels.last?.text.contains(" · ") == true)
    // The capital's layer stops below its maxzoom (17).
    #expect(labels[0].text == "Monaco (39050)")
    #expect(
      !Self.labels(set, try Self.tile(shortbreadPath), zoom: 17).contains {
        $0.text.hasPrefix("Monaco (")
      })
  }

  @Test("Protomaps: a polygon named inside, a line at its middle, lower-cased points of interest")
  func protomapsGeometry() throws {
    let set = StyleLabels(document: try Self.document("labels-protomaps"), sourceID: "protomaps")
    let tile = try Self.tile(protomapsPath)
    let labels = Self.labels(set, tile, zoom: 15)
    // Places (top): Monaco (population rank 7, sort key −7) before the quarters (rank 0).
    #expect(labels.first?.text == "Monaco" && labels.first?.bold == true)
    let fountain = try #require(
      labels.first { $0.text == "Fontaine de la roseraie Princesse Grace" })
    #expect(fountain.color == Self.color("#5080ff"))
    let water = try #require(tile.layer(named: "water"))
    let polygon = try #require(water.first { $0.value(for: "name")?.stringValue == fountain.text })
    #expect(Self.inside(fountain.point, polygon.mapParts(in: Self.monacoVille)))
    // Street names at the middle vertex of their line.
    let roads = try #require(tile.layer(named: "roads"))
    let road = try #require(roads.first { $0.type == .lineString && $0.value(for: "name") != nil })
    let name = try #require(road.value(for: "name")?.stringValue)
    let anchors = roads.filter { $0.value(for: "name")?.stringValue == name }
      .compactMap { VectorTileRenderer.anchor($0, roads.transform(for: Self.monacoVille)) }
    #expect(labels.filter { $0.text == name }.allSatisfy { anchors.contains($0.point) })
    let pois = labels.filter { $0.color == Self.color("#a0a0a0") }
    #expect(
      !pois.isEmpty && pois.allSatisfy { $0.text == $0.text.lowercased() && $0.category != nil })
    #expect(pois.contains { $0.text == "le palace café" && $0.category == "cafe" })
  }

  /// Even-odd: whether `p` is inside the rings.
  static func inside(_ p: MapPoint, _ rings: [(kind: PartKind, points: [MapPoint])]) -> Bool {
    var odd = false
    for ring in rings {
      var a = ring.points.last!
      for b in ring.points {
        if (a.y > p.y) != (b.y > p.y), p.x < a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x) {
          odd.toggle()
        }
        a = b
      }
    }
    return odd
  }

  @Test("OpenMapTiles: legacy tokens and filters, text-transform and text-font by expression")
  func openMapTiles() throws {
    let set = StyleLabels(document: try Self.document("labels-omt"), sourceID: "openmaptiles")
    let tile = try Self.tile(monacoPath)
    let z15 = Self.labels(set, tile, zoom: 15)
    #expect(z15.first?.text == "MONACO" && z15.first?.bold == true)
    #expect(z15.first?.color == Self.color("#ffffff"))
    let ville = try #require(z15.first { $0.text == "Monaco-Ville" })
    #expect(ville.bold && ville.color == Self.color("#90c0ff") && ville.category == nil)
    // Bold from z14 (a zoom step on text-font).
    #expect(Self.labels(set, tile, zoom: 13).first { $0.text == "Monaco-Ville" }?.bold == false)
    // POIs of rank ≤ 4 from z15, rank ascending, class as the category.
    let pois = z15.filter { $0.color == Self.color("#e0a0ff") }
    #expect(pois.contains { $0.text == "Monaco - Monte Carlo" && $0.category == "railway" })
    #expect(pois.contains { $0.text == "Palais princier de Monaco" && $0.category == "attraction" })
    let hospital = try #require(pois.firstIndex { $0.category == "hospital" })
    let station = try #require(pois.firstIndex { $0.text == "Monaco - Monte Carlo" })
    let palace = try #require(pois.firstIndex { $0.text == "Palais princier de Monaco" })
    #expect(hospital < station && station < palace)
    #expect(Self.labels(set, tile, zoom: 14.5).allSatisfy { $0.color != Self.color("#e0a0ff") })
    // No name:fr in these tiles: the style's own names.
    let fr = StyleLabels(
      document: try Self.document("labels-omt"), sourceID: "openmaptiles", language: "fr")
    #expect(Self.labels(fr, tile, zoom: 15).map(\.text) == z15.map(\.text))
  }

  @Test(
    "--lang en: Monaco-Ville becomes Monaco City ({name} token, get name)",
    arguments: [
      ("labels-shortbread", "sb", shortbreadPath), ("labels-protomaps", "protomaps", protomapsPath),
    ])
  func language(_ style: String, _ source: String, _ path: String) throws {
    let document = try Self.document(style)
    let tile = try Self.tile(path)
    let local = StyleLabels(document: document, sourceID: source).labels(
      in: tile, id: Self.monacoVille, zoom: 15)
    let english = StyleLabels(document: document, sourceID: source, language: "en")
      .labels(in: tile, id: Self.monacoVille, zoom: 15)
    let german = StyleLabels(document: document, sourceID: source, language: "de-CH")
      .labels(in: tile, id: Self.monacoVille, zoom: 15)
    func has(_ labels: [MapLabel], _ text: String) -> Bool {
      labels.contains { $0.text.lowercased() == text.lowercased() }
    }
    #expect(has(local, "Monaco-Ville") && !has(local, "Monaco City"))
    #expect(has(english, "Monaco City") && !has(english, "Monaco-Ville"))
    #expect(local.count == english.count)
    // Shortbread's name_de (the same words there), Protomaps without German: the local name.
    #expect(has(german, "Monaco-Ville"))
  }
}

/// Style labels through the map: the styled renderer's labels in a frame, in their colours,
/// in the renderer's language, and through the point-of-interest filter.
@MainActor
@Suite("Style labels on the map")
struct StyleLabelMapTests {
  func map(_ style: String, _ source: String, _ path: String, zoom: Double = 15)
    throws -> (MapView, StyledVectorTileRenderer, StyledRenderers)
  {
    let document = try StyleLabelTests.document(style)
    let delegate = StyledRenderers(document, sourceID: source)
    let map = MapView(columns: 160, rows: 48)
    map.delegate = delegate
    let overlay = SourceTileOverlay(source: try MBTilesSource(path: path))
    map.addOverlay(overlay, level: .aboveRoads)
    map.setCenter(Coordinate(latitude: 43.7315, longitude: 7.4206), animated: false)
    map.setZoomLevel(zoom, animated: false)
    #expect(map.renderCompleteFrame(timeout: 60).complete)
    let renderer = try #require(map.renderer(for: overlay) as? StyledVectorTileRenderer)
    return (map, renderer, delegate)
  }

  /// The colour of the first cell of `text` in the frame, nil when the text is not there.
  func color(of text: String, in frame: CellBuffer) -> TermColor? {
    for (row, line) in frame.lines.enumerated() {
      guard let r = line.range(of: text) else { continue }
      return frame[line.distance(from: line.startIndex, to: r.lowerBound), row].foreground
    }
    return nil
  }

  @Test("Shortbread at z15: place and street names in the style's colours; --lang en")
  func frame() throws {
    let (map, renderer, delegate) = try self.map("labels-shortbread", "sb", shortbreadPath)
    _ = delegate
    let f = map.renderCompleteFrame(timeout: 60).frame
    let text = f.lines.joined(separator: "\n")
    #expect(text.contains("MONACO-VILLE") && text.contains("Monaco (39050)"))
    #expect(color(of: "MONACO-VILLE", in: f) == StyleLabelTests.color("hsl(200, 60%, 70%)"))
    #expect(color(of: "Monaco (39050)", in: f) == StyleLabelTests.color("#ffffff"))
    renderer.language = "en"
    let en = map.renderCompleteFrame(timeout: 60).frame.lines.joined(separator: "\n")
    #expect(en.contains("MONACO CITY") && !en.contains("MONACO-VILLE"))
    renderer.language = nil
    let back = map.renderCompleteFrame(timeout: 60).frame.lines.joined(separator: "\n")
    #expect(back.contains("MONACO-VILLE") && !back.contains("MONACO CITY"))
  }

  @Test("a pan within the same tiles reuses the labels; the POI filter keeps restaurants only")
  func panAndFilter() throws {
    let (map, renderer, delegate) = try self.map(
      "labels-shortbread", "sb", shortbreadPath, zoom: 16.5)
    _ = delegate
    let first = renderer.labels(for: map.viewport)
    let cached = renderer.labelCache.withLock { $0.count }
    #expect(cached > 0 && first.contains { $0.text == "Castelroc · restaurant" })
    // A few cells east: the same tiles, so the same labels, none made again.
    map.setCenter(Coordinate(latitude: 43.7315, longitude: 7.4208), animated: false)
    _ = map.renderCompleteFrame(timeout: 60)
    let again = renderer.labels(for: map.viewport)
    #expect(again.map(\.text) == first.map(\.text) && again.map(\.point) == first.map(\.point))
    #expect(renderer.labelCache.withLock { $0.count } == cached)
    let before = map.renderCompleteFrame(timeout: 60).frame.lines.joined(separator: "\n")
    #expect(before.contains(" · "))
    map.pointOfInterestFilter = PointOfInterestFilter(including: [.restaurant])
    let after = map.renderCompleteFrame(timeout: 60).frame.lines.joined(separator: "\n")
    let shown = after.components(separatedBy: "\n").filter { $0.contains(" · ") }
    #expect(!shown.isEmpty)
    #expect(shown.allSatisfy { $0.contains("· restaurant") })
  }
}
