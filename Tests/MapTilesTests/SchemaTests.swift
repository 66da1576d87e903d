import DotRaster
import Foundation
import MapGeometry
import Testing
import TextSnapshots

@testable import MapTiles
@testable import TermMapKit
@testable import TileData

/// Monaco as tilemaker writes it with our Shortbread and Protomaps profiles
/// (Data/tools/tilemaker/, made by Data/tools/build-data.sh).
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Fixtures")
let shortbreadPath = fixtures.appendingPathComponent("monaco-shortbread.mbtiles").path
let protomapsPath = fixtures.appendingPathComponent("monaco-protomaps.mbtiles").path
let monacoPath = dataDirectory.appendingPathComponent("monaco.mbtiles").path

/// A source that hides its metadata's layer list (as an HTTP template, which has no metadata).
final class NoLayerList: TileSource {
  let inner: MBTilesSource
  init(_ path: String) throws { inner = try MBTilesSource(path: path) }
  var minZoom: Int { inner.minZoom }
  var maxZoom: Int { inner.maxZoom }
  var bounds: MapRect? { inner.bounds }
  var attribution: String { inner.attribution }
  var vectorLayers: [String] { [] }
  var format: TileFormat { inner.format }
  var name: String { inner.name }
  func tile(_ id: TileID) throws -> Data? { try inner.tile(id) }
}

/// Frames stored as text in Tests/MapTilesTests/Fixtures/snapshots/NAME.txt, compared
/// exactly. TERMMAP_RECORD_SNAPSHOTS=1 writes them afresh (the test then fails, saying so).
func checkSnapshot(
  _ frame: CellBuffer, named name: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  checkSnapshot(
    text: frame.lines.joined(separator: "\n") + "\n", named: name, sourceLocation: sourceLocation)
}

/// `checkSnapshot` for any text (e.g. a frame's ANSI lines, where colours are what matters).
func checkSnapshot(
  text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  checkTextSnapshot(
    text, in: fixtures.appendingPathComponent("snapshots"), named: name,
    sourceLocation: sourceLocation)
}

/// Cells drawn in one of `colors`.
func cells(_ frame: CellBuffer, in colors: Set<TermColor>) -> Int {
  var n = 0
  for row in 0..<frame.rows {
    for column in 0..<frame.columns {
      if let c = frame[column, row].foreground, colors.contains(c),
        frame[column, row].glyph != " "
      {
        n += 1
      }
    }
  }
  return n
}

@Suite("Vector schemas: detection")
struct SchemaDetectionTests {
  @Test("layer lists of the three schemas, and lists that do not tell")
  func detectFromNames() {
    #expect(
      VectorSchema.detect(layerNames: ["water", "coastline", "boundary", "place"]) == .openMapTiles)
    #expect(
      VectorSchema.detect(layerNames: ["ocean", "water_polygons", "streets", "street_labels"])
        == .shortbread)
    #expect(VectorSchema.detect(layerNames: ["earth", "water", "roads", "places"]) == .protomaps)
    #expect(VectorSchema.detect(layerNames: []) == nil)
    // Shared names tell nothing; a tie tells nothing.
    #expect(
      VectorSchema.detect(layerNames: ["water", "landuse", "buildings", "boundaries"]) == nil)
    #expect(VectorSchema.detect(layerNames: ["roads", "streets"]) == nil)
    #expect(VectorSchema.detect(layerNames: ["roads", "streets", "street_labels"]) == .shortbread)
  }

  @Test("the shipped files and the fixtures, from their metadata")
  func detectFromMetadata() throws {
    let expected: [(String, VectorSchema)] = [
      (worldPath, .openMapTiles), (monacoPath, .openMapTiles), (shortbreadPath, .shortbread),
      (protomapsPath, .protomaps),
    ]
    for (path, schema) in expected {
      let source = try TileSourceSpec.open(path)
      #expect(VectorSchema.detect(layerNames: source.vectorLayers) == schema, "\(path)")
      let light = BasemapStyle.forSchema(vectorLayers: source.vectorLayers, variant: .light)
      #expect(light?.name == BasemapStyle.forSchema(schema, variant: .light).name)
      let overlay = SourceTileOverlay(source: source, variant: .light)
      #expect(overlay.schema == schema)
      #expect(overlay.style.name == BasemapStyle.forSchema(schema, variant: .light).name)
      let renderer = try #require(overlay.makeDefaultRenderer() as? VectorTileRenderer)
      #expect(renderer.style.name == overlay.style.name)
      #expect(renderer.detectionVariant == nil, "the metadata told: no detection from tiles")
    }
    #expect(BasemapStyle.forSchema(vectorLayers: ["a", "b"]) == nil)
    // The fixed-style initializer keeps its style and detects nothing.
    let fixed = SourceTileOverlay(source: try MBTilesSource(path: shortbreadPath))
    #expect(fixed.style.name == "dark" && fixed.schema == nil && fixed.variant == nil)
  }

  @Test("without a layer list, the renderer takes the schema from the first decoded tile")
  @MainActor func detectFromFirstTile() throws {
    for (path, schema) in [(shortbreadPath, VectorSchema.shortbread), (protomapsPath, .protomaps)] {
      let overlay = SourceTileOverlay(source: try NoLayerList(path), variant: .dark)
      #expect(overlay.schema == nil)
      let map = MapView(columns: 80, rows: 24)
      map.addOverlay(overlay, level: .aboveRoads)
      map.setCenter(Coordinate(latitude: 43.7384, longitude: 7.4246), animated: false)
      map.setZoomLevel(15, animated: false)
      let fresh = try #require(overlay.makeDefaultRenderer() as? VectorTileRenderer)
      #expect(fresh.detectionVariant == .dark && fresh.detectedSchema == nil)
      #expect(fresh.style.name == "dark", "OpenMapTiles until a tile is seen")
      let frame = map.renderCompleteFrame(timeout: 60)
      #expect(frame.complete)
      let renderer = try #require(map.renderer(for: overlay) as? VectorTileRenderer)
      #expect(renderer.detectedSchema == schema)
      #expect(renderer.style.name == schema.rawValue)
      // Drawn with the detected style: the same frame as with the style given outright.
      let given = MapView(columns: 80, rows: 24)
      given.addOverlay(
        SourceTileOverlay(
          source: try MBTilesSource(path: path), style: .forSchema(schema, variant: .dark)),
        level: .aboveRoads)
      given.setCenter(Coordinate(latitude: 43.7384, longitude: 7.4246), animated: false)
      given.setZoomLevel(15, animated: false)
      #expect(given.renderCompleteFrame(timeout: 60).frame.lines == frame.frame.lines)
    }
  }

  @Test("tiles whose layers tell nothing leave the style alone; the first that tells sets it")
  func detectionWaitsForATellingTile() throws {
    // A tile with one empty layer named "water" (a name several schemas use).
    let name = Array("water".utf8)
    let layer: [UInt8] = [0x0A, UInt8(name.count)] + name + [0x78, 0x02, 0x28, 0x80, 0x20]
    let waterOnly = Data([0x1A, UInt8(layer.count)] + layer)
    let overlay = SourceTileOverlay(source: try NoLayerList(shortbreadPath), variant: .light)
    let renderer = VectorTileRenderer(overlay: overlay, detectingSchema: .light)
    let path = TileOverlayPath(x: 8529, y: 5973, z: 14)
    _ = try renderer.decodeTile(waterOnly, at: path)
    #expect(renderer.detectedSchema == nil && renderer.style.name == "light")
    let real = try #require(
      try MBTilesSource(path: shortbreadPath).tile(TileID(z: 14, x: 8529, y: 5973)))
    _ = try renderer.decodeTile(real, at: path)
    #expect(renderer.detectedSchema == .shortbread && renderer.style.name == "shortbread-light")
    // Once set, it stays.
    _ = try renderer.decodeTile(
      try #require(try MBTilesSource(path: protomapsPath).tile(TileID(z: 14, x: 8529, y: 5973))),
      at: path)
    #expect(renderer.detectedSchema == .shortbread)
  }

  @Test("each theme draws the three schemas layer for layer in the same colours")
  func themes() {
    for schema in VectorSchema.allCases {
      let dark = BasemapStyle.forSchema(schema, variant: .dark)
      for theme in BasemapStyle.Variant.allCases {
        let style = BasemapStyle.forSchema(schema, variant: theme)
        let omt = BasemapStyle.forSchema(.openMapTiles, variant: theme)
        #expect(style.document.layers.count == dark.document.layers.count)
        let suffix = theme == .dark ? "" : "-" + theme.rawValue
        #expect(
          style.name
            == (schema == .openMapTiles ? theme.rawValue : schema.rawValue + suffix))
        // Motorways, buildings, parks and the place dot take the theme's colour whatever the
        // schema.
        let motorway = schema == .protomaps ? "road-highway" : "road-motorway"
        let park = ["landcover-park", "land-park", "landuse-park"].first {
          BuiltinColours.colour(style, $0) != nil
        }
        #expect(
          BuiltinColours.colour(style, motorway) == BuiltinColours.colour(omt, "road-motorway"))
        #expect(BuiltinColours.colour(style, "building") == BuiltinColours.colour(omt, "building"))
        #expect(
          park.flatMap { BuiltinColours.colour(style, $0) }
            == BuiltinColours.colour(omt, "landcover-park"))
        #expect(
          BuiltinColours.colour(style, "label-city", "icon-color")
            == BuiltinColours.colour(omt, "label-city", "icon-color"))
      }
    }
    #expect(BasemapStyle.named("mono")?.name == "mono" && BasemapStyle.named("sepia") == nil)
  }
}

@MainActor
@Suite("Vector schemas: Monaco drawn from each schema")
struct SchemaSnapshotTests {
  static let water: Set<TermColor> = [
    BuiltinColours.colour(.dark, "water")!, BuiltinColours.colour(.dark, "water-outline")!,
  ]
  static let roads: Set<TermColor> = [
    BuiltinColours.colour(.dark, "road-minor")!, BuiltinColours.colour(.dark, "road-primary")!,
    BuiltinColours.colour(.dark, "road-tertiary")!,
  ]

  func frame(_ path: String, zoom: Double, style: BasemapStyle? = nil) throws -> CellBuffer {
    let map = MapView(columns: 160, rows: 48)
    let source = try MBTilesSource(path: path)
    let overlay =
      style.map { SourceTileOverlay(source: source, style: $0) }
      ?? SourceTileOverlay(source: source, variant: .dark)
    map.addOverlay(overlay, level: .aboveRoads)
    map.setCenter(Coordinate(latitude: 43.7384, longitude: 7.4246), animated: false)
    map.setZoomLevel(zoom, animated: false)
    let result = map.renderCompleteFrame(timeout: 60)
    #expect(result.complete)
    return result.frame
  }

  // Street names compete for room; which segment of a street carries its name depends on the
  // order of features in the tile, so the names that win differ a little between schemas.
  @Test(
    "water, roads, street and place names at zoom 15",
    arguments: [
      (
        "shortbread", shortbreadPath,
        ["Boulevard Princesse Charlotte", "Avenue de la Costa", "Boulevard des Moulins"]
      ),
      (
        "protomaps", protomapsPath,
        ["Avenue de la Costa", "Boulevard des Moulins", "Boulevard Louis II"]
      ),
    ])
  func streets(_ name: String, _ path: String, _ streets: [String]) throws {
    let f = try frame(path, zoom: 15)
    let text = f.lines.joined(separator: "\n")
    for street in streets {
      #expect(text.contains(street), "\(name): \(street)")
    }
    #expect(text.contains("Monte-Carlo"), "\(name): quarter name")
    #expect(cells(f, in: Self.water) > 300, "\(name): the sea")
    #expect(cells(f, in: Self.roads) > 1000, "\(name): streets")
    checkSnapshot(f, named: "\(name)-zoom15")
  }

  @Test(
    "the city and main roads at zoom 13",
    arguments: [("shortbread", shortbreadPath), ("protomaps", protomapsPath)])
  func city(_ name: String, _ path: String) throws {
    let f = try frame(path, zoom: 13)
    let text = f.lines.joined(separator: "\n")
    // Shortbread's place_labels hold the city; Protomaps' places also the country of the same
    // name, which outranks it (one label per name and layer: the most important).
    #expect(
      text.contains(name == "shortbread" ? "• Monaco" : "Monaco"), "\(name): the city or country")
    #expect(!text.contains("Boulevard"), "\(name): no street names below zoom 14")
    #expect(cells(f, in: Self.water) > 300, "\(name): the sea")
    checkSnapshot(f, named: "\(name)-zoom13")
  }

  @Test("a schema's tiles drawn with another schema's style show only the layers they share")
  func wrongStyle() throws {
    let f = try frame(shortbreadPath, zoom: 15, style: .protomaps)
    #expect(cells(f, in: Self.roads) == 0 && cells(f, in: Self.water) == 0)
    #expect(!f.lines.joined().contains("Boulevard"))
    #expect(
      cells(f, in: [BuiltinColours.colour(.dark, "building")!]) > 100,
      "buildings: both name the layer `buildings`")
  }

  @Test("the OpenMapTiles files keep their look: the same frame through detection")
  func openMapTilesUnchanged() throws {
    #expect(
      try frame(monacoPath, zoom: 15).lines == (try frame(monacoPath, zoom: 15, style: .dark)).lines
    )
  }
}
