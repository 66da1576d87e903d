import Foundation
import LoopbackHTTPServer
import MapGeometry
import TestProcesses
import Testing
import TileData

/// `--style FILE|URL`: a MapLibre style's sources drawn with its layers, the style applied to
/// `--tiles` data, a style URL as `--tiles`, and the errors of each.
@Suite("termmap --style FILE|URL: a style's sources and layers")
struct StyleSourceCLITests {
  /// Monaco at street level, where Data/monaco.mbtiles (OpenMapTiles) has water and roads.
  static let view = ["--center", "43.7375,7.4209", "--zoom", "14", "--size", "60x16"]

  /// A style drawing OpenMapTiles' water blue and roads red from source `omt` at `url`.
  static func style(url: String, roads: Bool = true, extra: String = "") -> String {
    let road =
      roads
      ? """
      ,
        {"id": "roads", "type": "line", "source": "omt", "source-layer": "transportation",
         "paint": {"line-color": "rgb(250,10,20)", "line-width": 2}}
      """ : ""
    return """
      {"version": 8, "name": "test",
       "sources": {"omt": {"type": "vector", "url": "\(url)", "attribution": "<a href=\\"x\\">© Test Tiles</a>"}},
       "layers": [
        {"id": "bg", "type": "background", "paint": {"background-color": "#000"}},
        {"id": "water", "type": "fill", "source": "omt", "source-layer": "water",
         "paint": {"fill-color": "rgb(10,20,250)"}}\(road)\(extra)
       ]}
      """
  }

  /// The colours a frame's escapes use (`38;5;N` or `38;2;R;G;B`).
  static func colours(_ ansi: String) -> Set<String> {
    var out = Set<String>()
    var rest = Substring(ansi)
    while let r = rest.range(of: "38;") {
      let tail = rest[r.upperBound...]
      let code = tail.prefix { $0 != "m" }
      out.insert(String(code))
      rest = tail
    }
    return out
  }

  /// Blue water and red roads, in 256 colours (21, 196) or 24-bit.
  static func hasWaterAndRoads(_ ansi: String) -> (water: Bool, roads: Bool) {
    let c = colours(ansi)
    return (
      c.contains("5;21") || c.contains("2;10;20;250"),
      c.contains("5;196") || c.contains("2;250;10;20")
    )
  }

  /// A folder of z/x/y.pbf files: Data/monaco.mbtiles' tiles at zooms 10 to 14.
  static func exportMonaco(to folder: URL) throws {
    let source = try MBTilesSource(
      path: repositoryRoot.appendingPathComponent("Data/monaco.mbtiles").path)
    // The tile of a point at zoom z, from its map point (the world is 2^28 map points wide).
    func tile(_ lat: Double, _ lon: Double, _ z: Int) -> (x: Int, y: Int) {
      let p = MapPoint(Coordinate(latitude: lat, longitude: lon))
      let size = MapSize.world.width / Double(1 << z)
      return (Int(p.x / size), Int(p.y / size))
    }
    for z in 10...14 {
      let nw = tile(43.7517, 7.4092, z)
      let se = tile(43.7233, 7.4487, z)
      for x in nw.x...se.x {
        for y in nw.y...se.y {
          guard let data = try source.tile(TileID(z: z, x: x, y: y)) else { continue }
          let dir = folder.appendingPathComponent("\(z)/\(x)")
          try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
          try data.write(to: dir.appendingPathComponent("\(y).pbf"))
        }
      }
    }
  }

  static func temporaryFolder(_ name: String) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  @Test("nginx serves a style, its TileJSON (a relative url) and tiles: water and roads drawn")
  func styleOverHTTP() throws {
    let site = try Self.temporaryFolder("style-site")
    defer { try? FileManager.default.removeItem(at: site) }
    try Self.exportMonaco(to: site.appendingPathComponent("tiles"))
    try FileManager.default.createDirectory(
      at: site.appendingPathComponent("styles"), withIntermediateDirectories: true)
    // The style at /styles/style.json names its TileJSON relatively ("../monaco.json"); the
    // TileJSON names its tiles relatively too.
    try Self.style(url: "../monaco.json").write(
      to: site.appendingPathComponent("styles/style.json"), atomically: true, encoding: .utf8)
    try Self.style(url: "../monaco.json", roads: false).write(
      to: site.appendingPathComponent("styles/noroads.json"), atomically: true, encoding: .utf8)
    try """
    {"tilejson": "3.0.0", "tiles": ["tiles/{z}/{x}/{y}.pbf"], "minzoom": 10, "maxzoom": 14,
     "vector_layers": [{"id": "water"}, {"id": "transportation"}]}
    """.write(to: site.appendingPathComponent("monaco.json"), atomically: true, encoding: .utf8)
    let nginx = try Nginx(serving: site)
    defer { nginx.stop() }
    let cache = try Self.temporaryFolder("style-cache")
    defer { try? FileManager.default.removeItem(at: cache) }
    let env = ["XDG_CACHE_HOME": cache.path, "XDG_CONFIG_HOME": "/nonexistent"]

    let url = "\(nginx.baseURL)/styles/style.json"
    let r = try termmap(
      ["render", "--no-basemap", "--color", "always", "--status", "--style", url] + Self.view,
      environment: env)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty, "\(r.stderr)")
    let drawn = Self.hasWaterAndRoads(r.stdout)
    #expect(drawn.water && drawn.roads, "\(Self.colours(r.stdout))")
    // The source's attribution (HTML in the style) as plain text on the status line.
    #expect(r.stdout.split(separator: "\n").last?.contains("© Test Tiles") == true)
    let asked = nginx.waitForAccessLog { log in
      log.contains { $0.contains("GET /monaco.json ") }
        && log.contains { $0.contains("GET /tiles/13/") }
    }
    #expect(asked.contains { $0.contains("GET /monaco.json ") }, "\(asked)")
    #expect(asked.contains { $0.contains("GET /tiles/13/") }, "\(asked)")

    // The same style without its road layer: the roads go, the water stays.
    let plain = try termmap(
      ["render", "--no-basemap", "--color", "never", "--style", url] + Self.view,
      environment: env)
    let noRoads = try termmap(
      [
        "render", "--no-basemap", "--color", "never", "--style",
        "\(nginx.baseURL)/styles/noroads.json",
      ] + Self.view, environment: env)
    #expect(inkedCells(noRoads.stdout) > 0)
    #expect(inkedCells(noRoads.stdout) < inkedCells(plain.stdout))

    // The style URL as --tiles: a style, told from a TileJSON by its content.
    let asTiles = try termmap(
      ["render", "--no-basemap", "--color", "never", "--tiles", url] + Self.view,
      environment: env)
    #expect(asTiles.status == 0, "\(asTiles.stderr)")
    #expect(asTiles.stdout == plain.stdout)
    // A --style document is not applied to a --tiles style: a warning says so.
    let noRoadsURL = "\(nginx.baseURL)/styles/noroads.json"
    let both = try termmap(
      ["render", "--no-basemap", "--color", "never", "--tiles", url, "--style", noRoadsURL]
        + Self.view, environment: env)
    #expect(both.stdout == plain.stdout)
    #expect(
      both.stderr
        == "termmap: style: \(noRoadsURL) not applied to \(url): a style of its own\n")
  }

  @Test("a local style with a pmtiles:// source (a path relative to the style), no network")
  func pmtilesSource() throws {
    let dir = try Self.temporaryFolder("style-pmtiles")
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Tests/CLITests/Fixtures/two-cities.pmtiles"),
      to: dir.appendingPathComponent("two-cities.pmtiles"))
    // The Protomaps basemap layers: water and roads.
    let style = """
      {"version": 8,
       "sources": {"pm": {"type": "vector", "url": "pmtiles://two-cities.pmtiles"}},
       "layers": [
        {"id": "water", "type": "fill", "source": "pm", "source-layer": "water",
         "paint": {"fill-color": "rgb(10,20,250)"}},
        {"id": "roads", "type": "line", "source": "pm", "source-layer": "roads",
         "paint": {"line-color": "rgb(250,10,20)"}}
       ]}
      """
    try style.write(to: dir.appendingPathComponent("pm.json"), atomically: true, encoding: .utf8)
    let r = try termmap(
      [
        "render", "--no-basemap", "--color", "always", "--style",
        dir.appendingPathComponent("pm.json").path,
      ] + Self.view)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty, "\(r.stderr)")
    let drawn = Self.hasWaterAndRoads(r.stdout)
    #expect(drawn.water && drawn.roads, "\(Self.colours(r.stdout))")
  }

  @Test("--tiles DATA --style FILE: the style's layers draw the tiles, by source-layer")
  func styleAppliedToTiles() throws {
    let dir = try Self.temporaryFolder("style-apply")
    defer { try? FileManager.default.removeItem(at: dir) }
    // The style's own source is never opened: --tiles gives the data.
    let file = dir.appendingPathComponent("style.json")
    try Self.style(url: "https://tiles.invalid/planet").write(
      to: file, atomically: true, encoding: .utf8)
    let r = try termmap(
      [
        "render", "--no-basemap", "--color", "always", "--tiles", "Data/monaco.mbtiles",
        "--style", file.path,
      ] + Self.view)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.isEmpty, "\(r.stderr)")
    let drawn = Self.hasWaterAndRoads(r.stdout)
    #expect(drawn.water && drawn.roads, "\(Self.colours(r.stdout))")
    // Without --style the same tiles are drawn in the built-in style: other colours.
    let builtIn = try termmap(
      ["render", "--no-basemap", "--color", "always", "--tiles", "Data/monaco.mbtiles"]
        + Self.view)
    #expect(!Self.hasWaterAndRoads(builtIn.stdout).roads)
  }

  @Test("COLORTERM=truecolor: the style's water in its own colour (38;2); 256 colours: the nearest")
  func styleInTruecolor() throws {
    let dir = try Self.temporaryFolder("style-truecolor")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("style.json")
    try Self.style(url: "https://tiles.invalid/planet").write(
      to: file, atomically: true, encoding: .utf8)
    let arguments =
      [
        "render", "--no-basemap", "--color", "always", "--tiles", "Data/monaco.mbtiles",
        "--style", file.path,
      ] + Self.view
    let deep = try termmap(arguments, environment: ["COLORTERM": "truecolor"])
    #expect(deep.status == 0, "\(deep.stderr)")
    let deepColours = Self.colours(deep.stdout)
    // Water rgb(10,20,250) and roads rgb(250,10,20), exactly.
    #expect(deepColours.contains("2;10;20;250"), "\(deepColours)")
    #expect(deepColours.contains("2;250;10;20"), "\(deepColours)")
    #expect(!deepColours.contains("5;21"), "\(deepColours)")
    let palette = try termmap(arguments, environment: ["COLORTERM": ""])
    #expect(palette.status == 0, "\(palette.stderr)")
    let paletteColours = Self.colours(palette.stdout)
    #expect(
      paletteColours.contains("5;21") && paletteColours.contains("5;196"), "\(paletteColours)")
    #expect(!paletteColours.contains { $0.hasPrefix("2;") }, "\(paletteColours)")
  }

  @Test("layers the style cannot use are warnings on stderr; the frame is still drawn")
  func diagnostics() throws {
    let dir = try Self.temporaryFolder("style-warn")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("style.json")
    let bad = """
      ,
        {"id": "broken", "type": "line", "source": "omt", "source-layer": "transportation",
         "paint": {"line-color": "not-a-colour\\u001b[31m"}}
      """
    try Self.style(url: "pmtiles://nowhere.pmtiles", extra: bad).write(
      to: file, atomically: true, encoding: .utf8)
    let r = try termmap(
      [
        "render", "--no-basemap", "--color", "never", "--tiles", "Data/monaco.mbtiles",
        "--style", file.path,
      ] + Self.view)
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(r.stderr)")
    #expect(lines.first?.hasPrefix("termmap: style: layers[3].paint.line-color: ") == true)
    #expect(!r.stderr.contains("\u{1b}"))
    #expect(inkedCells(r.stdout) > 100)
  }

  @Test("a bad style file is one line naming it, exit 2")
  func badFile() throws {
    let dir = try Self.temporaryFolder("style-bad")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("bad.json")
    try "{\"version\": 7, \"sources\": {}, \"layers\": []}".write(
      to: file, atomically: true, encoding: .utf8)
    let r = try termmap(["render", "--style", file.path])
    #expect(r.status == 2)
    #expect(
      r.stderr
        == "termmap: --style: \(file.path): not a style: version: expected one of [8], 7 found\n")
    #expect(r.stdout.isEmpty)

    let broken = dir.appendingPathComponent("broken.json")
    try "{\"version\": 8,".write(to: broken, atomically: true, encoding: .utf8)
    let b = try termmap(["render", "--style", broken.path])
    #expect(b.status == 2)
    #expect(b.stderr.hasPrefix("termmap: --style: \(broken.path): not a style: "))
    #expect(b.stderr.filter { $0 == "\n" }.count == 1)

    let missing = try termmap(["render", "--style", dir.appendingPathComponent("no.json").path])
    #expect(missing.status == 2)
    #expect(missing.stderr == "termmap: --style: \(dir.path)/no.json: no such file\n")

    let folder = try termmap(["render", "--style", dir.path + "/"])
    #expect(folder.status == 2)
    #expect(folder.stderr.hasPrefix("termmap: --style: \(dir.path)/: not a regular file"))
  }

  @Test("an unreachable style URL is one line naming it, exit 2")
  func unreachable() throws {
    let url = "http://127.0.0.1:\(ChildProcess.freeLoopbackPort())/style.json"
    let r = try termmap(
      ["render", "--style", url], environment: ["XDG_CONFIG_HOME": "/nonexistent"])
    #expect(r.status == 2)
    #expect(r.stderr.hasPrefix("termmap: --style: \(url): "), "\(r.stderr)")
    #expect(r.stderr.filter { $0 == "\n" }.count == 1)
    #expect(r.stdout.isEmpty)
  }

  @Test("config.toml [style] name may be a style file (relative to the config's folder)")
  func configStyle() throws {
    let home = try Self.temporaryFolder("style-config")
    defer { try? FileManager.default.removeItem(at: home) }
    try FileManager.default.createDirectory(
      at: home.appendingPathComponent("termmap"), withIntermediateDirectories: true)
    try Self.style(url: "https://tiles.invalid/planet").write(
      to: home.appendingPathComponent("termmap/mine.json"), atomically: true, encoding: .utf8)
    try "[style]\nname = \"mine.json\"\n".write(
      to: home.appendingPathComponent("termmap/config.toml"), atomically: true, encoding: .utf8)
    let args =
      ["render", "--no-basemap", "--color", "always", "--tiles", "Data/monaco.mbtiles"] + Self.view
    let r = try termmap(args, environment: ["XDG_CONFIG_HOME": home.path])
    #expect(r.status == 0, "\(r.stderr)")
    let drawn = Self.hasWaterAndRoads(r.stdout)
    #expect(drawn.water && drawn.roads)
    // --style wins over the config.
    let dark = try termmap(args + ["--style", "dark"], environment: ["XDG_CONFIG_HOME": home.path])
    #expect(!Self.hasWaterAndRoads(dark.stdout).roads)
  }

  @Test("a raster source drawn by its raster layer; raster-opacity 0 draws nothing")
  func rasterOpacity() throws {
    let dir = try Self.temporaryFolder("style-raster")
    defer { try? FileManager.default.removeItem(at: dir) }
    let raster = repositoryRoot.appendingPathComponent(
      "Tests/MapTilesTests/Fixtures/monaco-raster.mbtiles")
    var inked: [Int] = []
    for opacity in ["1", "0"] {
      let file = dir.appendingPathComponent("raster\(opacity).json")
      try """
      {"version": 8, "sources": {"osm": {"type": "raster", "url": "\(raster.path)",
                                        "attribution": "raster test"}},
       "layers": [{"id": "r", "type": "raster", "source": "osm",
                   "paint": {"raster-opacity": \(opacity)}}]}
      """.write(to: file, atomically: true, encoding: .utf8)
      let r = try termmap(
        [
          "render", "--no-basemap", "--color", "never", "--style", file.path, "--center",
          "43.7375,7.4209", "--zoom", "15", "--size", "60x16",
        ])
      #expect(r.status == 0, "\(r.stderr)")
      inked.append(inkedCells(r.stdout))
    }
    #expect(inked[0] > 100, "\(inked)")
    #expect(inked[1] == 0, "\(inked)")
  }
}
