import Foundation
import Testing
import TileData

@testable import MapTiles

@Suite("Tile sources by name: presets and the config file")
struct CatalogTests {
  @Test("the presets are the public services, opt-in, with their attribution")
  func presets() {
    let c = TileSourceCatalog()
    #expect(c.sources.map(\.name) == ["osm", "osm-vector", "openfreemap"])
    let osm = c.source(named: "osm")
    #expect(osm?.location == "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
    #expect(osm?.attribution == "© OpenStreetMap contributors")
    #expect(osm?.maxConnections == 2)
    #expect(TileSourceCatalog.isName("osm-vector"))
    #expect(!TileSourceCatalog.isName("Data/world.mbtiles"))
    #expect(!TileSourceCatalog.isName("https://example.com/{z}/{x}/{y}.png"))
  }

  @Test("config sources are read, and replace a preset of the same name")
  func config() throws {
    let text = """
      # my maps
      [sources.topo]
      url = "https://tiles.example.com/{z}/{x}/{y}.png"
      attribution = "© Example"
      minzoom = 2
      maxzoom = 17

      [sources.osm]
      path = "/maps/osm.mbtiles"
      max_connections = 1
      """
    let defs = try TileSourceCatalog.parse(text, path: "config.toml")
    #expect(defs.map(\.name) == ["osm", "topo"])
    let c = TileSourceCatalog(config: defs)
    #expect(c.sources.map(\.name) == ["osm", "osm-vector", "openfreemap", "topo"])
    #expect(c.source(named: "osm")?.location == "/maps/osm.mbtiles")
    #expect(c.source(named: "topo")?.minZoom == 2)
    #expect(c.source(named: "topo")?.maxZoom == 17)
    #expect(c.source(named: "topo")?.attribution == "© Example")
  }

  @Test(
    "a bad config is one line naming the file (and the line where TOML says)",
    arguments: [
      ("[sources.a]\nurl = \"x\n", "config.toml:2: unterminated string"),
      ("[sources.a]\nurll = \"x\"\n", "config.toml:2: sources.a: unknown key \"urll\""),
      ("[sources.a]\nurl = 3\n", "config.toml:2: sources.a.url must be a string"),
      (
        "[sources.a]\nurl = \"x\"\npath = \"y\"\n",
        "config.toml:1: sources.a needs one of url or path"
      ),
      ("[sources.a]\nattribution = \"x\"\n", "config.toml:1: sources.a needs one of url or path"),
      (
        "[sources.a]\nurl = \"x\"\nmaxzoom = 99\n",
        "config.toml:3: sources.a.maxzoom must be a whole number from 0 to 30"
      ),
      (
        "[sources.a]\nurl = \"x\"\nminzoom = 9\nmaxzoom = 3\n",
        "config.toml:1: sources.a: minzoom is above maxzoom"
      ),
      ("[tiles]\nx = 1\n", "config.toml:1: unknown section \"tiles\""),
      ("sources = 1\n", "config.toml:1: \"sources\" must be in a [section]"),
      ("[sources]\na = 1\n", "config.toml:2: sources.a must be a table"),
      // Found by fuzzing: inputs that tripped the assertions of toml++ (through TOMLKit).
      ("[\r\0\0\0\0\0\0\0\0t\rn]", "config.toml:1: control character U+000D is not allowed"),
      ("[[!s", "config.toml:1: arrays of tables are not supported"),
      ("[sources.a]\nurl = \"x\u{1B}]0;t\u{7}\"\n", "config.toml:2: control character U+001B"),
      ("[sources.a]\nurl = [\"x\"]\n", "config.toml:2: arrays are not supported"),
      ("[sources.a]\nmaxzoom = 1.5\n", "config.toml:2: \"1.5\": only whole numbers"),
      ("[sources.a]\n[sources.a]\n", "config.toml:2: table [sources.a] defined twice"),
      ("[sources.a]\nurl = \"x\"\nurl = \"y\"\n", "config.toml:3: \"url\" defined twice"),
      ("[sources.\"a b\"]\nurl = \"x\"\n", "config.toml:1: sources.a b: a source name is"),
    ])
  func badConfig(text: String, expected: String) {
    do {
      _ = try TileSourceCatalog.parse(text, path: "config.toml")
      Issue.record("no error for \(text)")
    } catch {
      #expect(error.description.hasPrefix(expected), "\(error.description)")
      #expect(!error.description.contains("\n"))
    }
  }

  @Test("the TOML subset: comments, quoted keys, escapes, literal strings, integers, booleans")
  func tomlSubset() throws {
    let t = try ConfigTOML.parse(
      """
      # comment
      top = true   # trailing comment
      [sources."my-maps"]
      url = "https://x.example/{z}/{x}/{y}.png?k=\\u00e9\\t#"
      path = 'C:\\maps\\a.mbtiles'
      maxzoom = +1_4
      minzoom = -0
      """)
    #expect(t.values["top"] == .boolean(true))
    let s = try #require(t.tables["sources"]?.tables["my-maps"])
    #expect(s.values["url"] == .string("https://x.example/{z}/{x}/{y}.png?k=é\t#"))
    #expect(s.values["path"] == .string("C:\\maps\\a.mbtiles"))
    #expect(s.values["maxzoom"] == .integer(14))
    #expect(s.values["minzoom"] == .integer(0))
  }

  @Test("[cache] size_mb bounds the tile cache; other keys there are refused")
  func cacheSection() throws {
    let c = try TileSourceCatalog.parseConfig("[cache]\nsize_mb = 64\n", path: "config.toml")
    #expect(c.cacheMegabytes == 64)
    #expect(c.sources.isEmpty)
    #expect(try TileSourceCatalog.parseConfig("", path: "c").cacheMegabytes == nil)
    for (text, message) in [
      ("[cache]\nsize = 1\n", "config.toml:2: cache: unknown key \"size\""),
      ("[cache]\nsize_mb = -1\n", "config.toml:2: cache.size_mb must be a whole number"),
    ] {
      do {
        _ = try TileSourceCatalog.parseConfig(text, path: "config.toml")
        Issue.record("no error for \(text)")
      } catch {
        #expect(error.description.hasPrefix(message), "\(error.description)")
      }
    }
  }

  @Test("CRLF line breaks (a config written on Windows) read as LF ones")
  func crlf() throws {
    let defs = try TileSourceCatalog.parse(
      "[sources.topo]\r\nurl = \"https://x/{z}/{x}/{y}.png\"\r\nmaxzoom = 12\r\n", path: "c")
    #expect(defs.map(\.name) == ["topo"])
    #expect(defs.first?.maxZoom == 12)
  }

  @Test("the config file lives under XDG_CONFIG_HOME, else ~/.config; a missing one is no error")
  func location() throws {
    #expect(
      TileSourceCatalog.defaultConfigPath(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"])
        == "/x/termmap/config.toml")
    #expect(
      TileSourceCatalog.defaultConfigPath(environment: ["HOME": "/h"])
        == "/h/.config/termmap/config.toml")
    let none = try TileSourceCatalog.load(configPath: "/nonexistent/termmap/config.toml")
    #expect(none.sources == TileSourceCatalog.presets)
  }
}

@Suite("Attribution on the status line")
struct AttributionTests {
  let lines = [
    "Natural Earth (public domain)", "GeoNames (CC BY 4.0)",
    "© OpenStreetMap contributors (ODbL)",
  ]

  @Test("short forms when they fit; the OpenStreetMap credit kept whole when they do not")
  func fit() {
    #expect(Attribution.fit(lines, width: 80) == "Natural Earth · GeoNames · © OpenStreetMap")
    #expect(Attribution.fit(lines, width: 30) == "© OpenStreetMap · Natural Ea…")
    #expect(Attribution.fit(lines, width: 16) == "© OpenStreetMap…")
    #expect(Attribution.fit([], width: 10) == "")
    for w in 16...60 { #expect(Attribution.fit(lines, width: w).count <= w) }
  }
}

@Suite("A source's credits on the status line")
struct AttributionTextTests {
  @Test("HTML credits (as the Protomaps planet's metadata has them) become plain text")
  func htmlCredits() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-credits-\(UUID().uuidString).pmtiles"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let meta =
      #"{"attribution": "<a href=\"https://github.com/protomaps/basemaps\">Protomaps</a> &copy; <a href=\"https://openstreetmap.org\">OpenStreetMap</a>\u001b[2J"}"#
    let writer = try PMTilesWriter(
      path: path,
      header: PMTiles.Header(
        tileType: .mvt, tileCompression: .gzip, minZoom: 0, maxZoom: 0, west: -180, south: -85,
        east: 180, north: 85), metadata: Data(meta.utf8))
    try writer.add(tileID: 0, data: Data([1, 2, 3]))
    _ = try writer.finish()
    let overlay = SourceTileOverlay(source: try PMTilesSource(path: path), variant: .dark)
    // The escape character is gone: "[2J" is only text.
    #expect(overlay.attribution == "Protomaps © OpenStreetMap [2J")
  }
}
