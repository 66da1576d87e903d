import Foundation
import MapStyle
import MapTiles
import TermMapKit
import Testing
import TileData

@Suite("StyleMapLayers: a style's sources as tile overlays in the style's order")
struct StyleSourcesTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  /// A style beside the fixtures (relative URLs resolve against it): a vector source and a
  /// raster one whose layers interleave.
  static func style(_ json: String) throws -> LoadedStyle {
    let document = try StyleDocument(data: Data(json.utf8))
    return LoadedStyle(
      document: document, location: fixtures.appendingPathComponent("style.json").path)
  }

  static let interleaved = """
    {"version": 8,
     "sources": {
       "v": {"type": "vector", "url": "monaco-protomaps.mbtiles", "maxzoom": 13,
             "attribution": "<b>Vector</b> &amp; co"},
       "r": {"type": "raster", "url": "file://\(fixtures.path)/monaco-raster.mbtiles"},
       "dem": {"type": "raster-dem", "url": "dem.json"}
     },
     "layers": [
       {"id": "bg", "type": "background"},
       {"id": "water", "type": "fill", "source": "v", "source-layer": "water"},
       {"id": "relief", "type": "raster", "source": "r", "paint": {"raster-opacity": 0.5}},
       {"id": "roads", "type": "line", "source": "v", "source-layer": "roads"},
       {"id": "shade", "type": "hillshade", "source": "dem"},
       {"id": "names", "type": "symbol", "source": "v", "source-layer": "places",
        "layout": {"text-field": "{name}"}},
       {"id": "labels-r", "type": "symbol", "source": "v", "source-layer": "roads"}
     ]}
    """

  @Test("one overlay per run of layers of one source; symbol layers join their source's run")
  func runs() throws {
    let made = try StyleMapLayers(style: Self.style(Self.interleaved))
    #expect(made.layers.map(\.sourceID) == ["v", "r", "v"])
    #expect(made.layers.map(\.kind) == [.vector, .raster, .vector])
    #expect(
      made.layers.map(\.layerIDs) == [["water"], ["relief"], ["roads", "names", "labels-r"]])
    // A source split in two runs: each overlay's document has only its run's layers.
    #expect(made.layers[0].document.layers.map(\.id) == ["water"])
    #expect(made.layers[2].document.layers.map(\.id) == ["roads", "names", "labels-r"])
    // Only the bottom overlay hides the map beneath it.
    #expect(made.layers.map(\.overlay.canReplaceMapContent) == [true, false, false])
    // The style's zooms and attribution (HTML as plain text) over the archive's.
    #expect(made.layers[0].overlay.maximumZ == 13)
    #expect(made.layers[0].overlay.attribution == "Vector & co")
    #expect(made.notes == ["sources.dem: raster-dem sources are not drawn"])
    #expect(made.mainVectorSourceID == "v")
    // Renderers: the styled vector renderer, and the raster one with the layer's opacity.
    let raster = made.layers[1].overlay.makeDefaultRenderer() as? StyleRasterTileRenderer
    #expect(raster?.opacity(atZoom: 12) == 0.5)
    #expect(made.layers[2].overlay.makeDefaultRenderer() is StyledVectorTileRenderer)
  }

  @Test("a source's layers together: one overlay with the whole document")
  func together() throws {
    let style = try Self.style(
      """
      {"version": 8, "sources": {"v": {"type": "vector", "url": "pmtiles://nowhere.pmtiles"},
                                 "w": {"type": "vector", "url": "monaco-shortbread.mbtiles"}},
       "layers": [
         {"id": "a", "type": "fill", "source": "w", "source-layer": "water"},
         {"id": "b", "type": "line", "source": "w", "source-layer": "streets"}
       ]}
      """)
    let made = try StyleMapLayers(style: style)
    #expect(made.layers.count == 1)
    #expect(made.layers[0].document.layers.map(\.id) == ["a", "b"])
    // A source no layer reads is not opened (v's archive does not exist).
    #expect(made.notes.isEmpty)
  }

  @Test("no source could be opened: one error naming the style and the first failure")
  func nothingOpens() throws {
    let style = try Self.style(
      """
      {"version": 8, "sources": {"v": {"type": "vector", "url": "pmtiles://nowhere.pmtiles"}},
       "layers": [{"id": "a", "type": "fill", "source": "v", "source-layer": "water"}]}
      """)
    #expect {
      try StyleMapLayers(style: style)
    } throws: {
      let d = ($0 as? StyleLoadError)?.description ?? ""
      return d.hasPrefix("\(Self.fixtures.path)/style.json: no source could be opened (sources.v: ")
        && d.contains("nowhere.pmtiles")
    }
  }

  @Test("a local tiles template with scheme tms is a tile folder read bottom-up")
  func localTemplate() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-template-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("t/0/0"), withIntermediateDirectories: true)
    try Data([0x1a, 0x00]).write(to: dir.appendingPathComponent("t/0/0/0.pbf"))
    let document = try StyleDocument(
      data: Data(
        """
        {"version": 8, "sources": {"v": {"type": "vector", "tiles": ["t/{z}/{x}/{y}.pbf"],
         "scheme": "tms", "maxzoom": 5}},
         "layers": [{"id": "a", "type": "fill", "source": "v", "source-layer": "water"}]}
        """.utf8))
    let made = try StyleMapLayers(
      style: LoadedStyle(document: document, location: dir.appendingPathComponent("s.json").path))
    #expect(made.layers.count == 1)
    #expect(made.layers[0].overlay.maximumZ == 5)
    #expect(made.layers[0].overlay.source.format == .pbf)
  }
}
