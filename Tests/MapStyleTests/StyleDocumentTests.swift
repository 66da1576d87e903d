import Foundation
import MapStyle
import Testing

/// Style documents read as a renderer needs them: typed sources, layers in order with their
/// filters and properties compiled, broken layers skipped with their JSON path.
@Suite("style documents: sources, layers in order, broken layers skipped")
struct StyleDocumentTests {
  static let small = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/small-style.json")

  static func document() throws -> StyleDocument {
    try StyleDocument(data: Data(contentsOf: small))
  }

  @Test("sources are typed with their defaults; glyphs and sprite are kept as URLs")
  func sources() throws {
    let doc = try Self.document()
    #expect(doc.version == 8 && doc.name == "termmap test style")
    #expect(doc.sourceIDs == ["omt", "relief", "pins"])
    let omt = try #require(doc.sources["omt"])
    #expect(omt.kind == .vector && omt.url == "https://tiles.example/omt.json")
    #expect(omt.tiles.isEmpty && omt.minzoom == 0 && omt.maxzoom == 14 && omt.scheme == .xyz)
    #expect(omt.attribution == "© OpenStreetMap contributors")
    #expect(omt.bounds == [-180, -85.051129, 180, 85.051129])
    let relief = try #require(doc.sources["relief"])
    #expect(relief.kind == .raster && relief.tileSize == 256 && relief.scheme == .tms)
    #expect(relief.tiles == ["https://tiles.example/relief/{z}/{x}/{y}.png"])
    #expect(relief.bounds == [5, 43, 8, 45])
    #expect(doc.sources["pins"]?.kind == .geojson)
    #expect(doc.sources["pins"]?.json["data"]?.objectValue?["type"] == "FeatureCollection")
    #expect(doc.glyphs == "https://tiles.example/fonts/{fontstack}/{range}.pbf")
    #expect(doc.sprite == "https://tiles.example/sprites/base")
  }

  @Test("layers keep the style's order; those that do not compile are skipped with their path")
  func layersAndDiagnostics() throws {
    let doc = try Self.document()
    #expect(doc.layers.map(\.id) == ["background", "water", "roads", "hidden", "labels"])
    #expect(doc.layers.map(\.kind) == [.background, .fill, .line, .circle, .symbol])
    #expect(
      doc.diagnostics.map(\.description) == [
        "sources.broken.type: expected one of [vector, raster, raster-dem, geojson, image, video], \"teapot\" found",
        "layers[3].filter: Expected two or three arguments.",
        "layers[4].paint.line-color: color expected, \"not-a-colour\" found",
        "layers[5]: source \"nowhere\" not found",
        "layers[6].type: expected one of [fill, line, symbol, circle, heatmap, fill-extrusion, raster, hillshade, background], \"teapot\" found",
        "layers[8].layout.text-shadow: not a symbol layout property termmap knows; ignored",
        "layers[9]: duplicate layer id \"water\"",
      ])
  }

  @Test("a layer's zoom range, visibility, source and properties (set or default)")
  func layerProperties() throws {
    let doc = try Self.document()
    let roads = try #require(doc.layer(id: "roads"))
    #expect(roads.source == "omt" && roads.sourceLayer == "transportation")
    #expect(roads.minzoom == 5 && roads.maxzoom == 18)
    #expect(
      !roads.isVisible(atZoom: 4.9) && roads.isVisible(atZoom: 5) && !roads.isVisible(atZoom: 18))
    #expect(roads.constantProperty("line-cap") == "round")
    #expect(roads.constantProperty("line-join") == "miter")  // the default
    #expect(roads.constantProperty("line-opacity") == 1)
    #expect(roads.property("line-dasharray") == nil)
    let width = try #require(roads.property("line-width"))
    #expect(width.isFeatureConstant && !width.isZoomConstant && width.zoomStops == [5, 18])
    #expect(try width.evaluate(zoom: 18) == .number(20))
    let colour = try #require(roads.property("line-color"))
    #expect(!colour.isFeatureConstant && colour.type == .color)
    let hidden = try #require(doc.layer(id: "hidden"))
    #expect(hidden.visibility == .none && hidden.source == "pins" && !hidden.isVisible(atZoom: 12))
    #expect(try hidden.property("circle-radius")?.evaluate(zoom: 13) == .number(5))
    #expect(
      hidden.constantProperty("circle-color") == .color(StyleColor(red: 0, green: 0, blue: 0)))
    let water = try #require(doc.layer(id: "water"))
    #expect(
      water.constantProperty("fill-color")
        == .color(StyleColor(red: 158 / 255, green: 189 / 255, blue: 1)))
    #expect(water.property("fill-outline-color") == nil)
    #expect(doc.layer(id: "background")?.source == nil)
    #expect(doc.layers(source: "omt").map(\.id) == ["water", "roads", "labels"])
    #expect(doc.layer(id: "labels")?.constantProperty("text-size") == 12)
    #expect(doc.layer(id: "labels")?.constantProperty("icon-image") == "dot")
  }

  /// A feature answering by slot, as a renderer's adapter over a tile layer does.
  final class SlotFeature: StyleFeature {
    let values: [StyleValue?]
    let geometryType: String?
    init(_ named: [String: StyleValue], type: String, keys: PropertyKeys) {
      values = keys.names.map { named[$0] }
      geometryType = type
    }
    func value(slot: Int) -> StyleValue? { values[slot] }
    func value(forKey key: String) -> StyleValue? { nil }
    var properties: StyleObject { StyleObject() }
    var id: StyleValue { .null }
  }

  @Test("filters (legacy and expression) and feature properties read one key table")
  func filtersAndKeys() throws {
    let doc = try Self.document()
    #expect(doc.keys.names.contains("class") && doc.keys.names.contains("intermittent"))
    let water = try #require(doc.layer(id: "water")?.filter)
    #expect(try water.evaluate(feature: SlotFeature([:], type: "Polygon", keys: doc.keys)) == true)
    #expect(
      try water.evaluate(feature: SlotFeature(["intermittent": 1], type: "Polygon", keys: doc.keys))
        == false)
    #expect(
      try water.evaluate(feature: SlotFeature([:], type: "LineString", keys: doc.keys)) == false)
    let roads = try #require(doc.layer(id: "roads"))
    let trunk = SlotFeature(["class": "trunk"], type: "LineString", keys: doc.keys)
    #expect(try roads.filter?.evaluate(feature: trunk) == true)
    #expect(
      try roads.filter?.evaluate(
        feature: SlotFeature(["class": "path"], type: "LineString", keys: doc.keys))
        == false)
    #expect(
      try roads.property("line-color")?.evaluate(feature: trunk)
        == .color(StyleColor(css: "#f9b29c")!))
  }

  @Test("a colour may have spaces and tabs around it, not line breaks")
  func colourSpaces() {
    let red = StyleColor(red: 1, green: 0, blue: 0)
    #expect(StyleColor(css: " \t#FF0000\u{3000} ") == red)
    #expect(StyleColor(css: "  Red") == red)
    #expect(StyleColor(css: "rgb(255, 0, 0)\t") == red)
    #expect(StyleColor(css: "\n#ff0000") == nil)
    #expect(StyleColor(css: " \t ") == nil)
  }

  @Test("a document that is not a version 8 style throws with the path")
  func fatalErrors() {
    func failure(_ text: String) -> String {
      do {
        _ = try StyleDocument(data: Data(text.utf8))
        return "no error"
      } catch {
        return error.description
      }
    }
    #expect(failure("{\"version\": 8, \"sources\": {}") == "Unexpected end of JSON text at byte 28")
    #expect(failure("[]") == "object expected, array found")
    #expect(
      failure("{\"version\": 7, \"sources\": {}, \"layers\": {}}")
        == "version: expected one of [8], 7 found; layers: array expected, object found")
    #expect(failure("{\"version\": 8, \"layers\": []}") == "missing required property \"sources\"")
  }

  @Test("every default compiles with its property's type")
  func defaults() throws {
    var keys = PropertyKeys()
    for (name, value) in StyleProperties.defaults {
      let spec = try #require(StyleProperties.spec(of: name), "\(name)")
      let e = try StyleExpression(
        propertyValue: value, type: spec.type, interpolated: spec.interpolated, keys: &keys)
      #expect(e.constantValue != nil, "\(name)")
    }
    #expect(keys.names.isEmpty)
  }
}
