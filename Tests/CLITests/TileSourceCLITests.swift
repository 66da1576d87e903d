import Foundation
import LoopbackHTTPServer
import TestProcesses
import Testing

@Suite("termmap --tiles NAME: presets and the config file")
struct TileSourceCLITests {
  @Test("an unknown name is one line naming the sources, exit 2")
  func unknownName() throws {
    let r = try termmap(["render", "--size", "40x10", "--tiles", "nope"])
    #expect(r.status == 2)
    #expect(
      r.stderr
        == "termmap: --tiles: nope: no such file or source name (sources: osm, osm-vector, openfreemap)\n"
    )
    #expect(r.stdout.isEmpty)
  }

  @Test("a named source may be a URL template, a TileJSON URL or a PMTiles URL (nginx)")
  func everyKindOfNamedSource() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-kinds-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let site = home.appendingPathComponent("site")
    try FileManager.default.createDirectory(
      at: home.appendingPathComponent("termmap"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
    let world = WorldMBTiles.path
    let tiles = try LoopbackHTTPServer.tileServer(mbtiles: world)
    defer { tiles.stop() }
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent("Data/world.pmtiles"),
      to: site.appendingPathComponent("world.pmtiles"))
    // A TileJSON named without ".json", as OpenFreeMap's /planet is.
    try """
    {"tilejson": "3.0.0", "tiles": ["\(tiles.baseURL)/{z}/{x}/{y}.pbf"], "maxzoom": 6,
     "vector_layers": [{"id": "water"}, {"id": "place"}, {"id": "boundary"}]}
    """.write(to: site.appendingPathComponent("planet"), atomically: true, encoding: .utf8)
    let nginx = try Nginx(serving: site)
    defer { nginx.stop() }
    try """
    [sources.template]
    url = "\(tiles.baseURL)/{z}/{x}/{y}.pbf"
    maxzoom = 6
    [sources.tilejson]
    url = "\(nginx.baseURL)/planet"
    [sources.pmtiles]
    url = "\(nginx.baseURL)/world.pmtiles"
    max_connections = 2
    """.write(
      to: home.appendingPathComponent("termmap/config.toml"), atomically: true, encoding: .utf8)
    let env = [
      "XDG_CONFIG_HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("c").path,
    ]
    let local = try termmap(
      ["render", "--no-basemap", "--color", "never", "--size", "60x12", "--tiles", world])
    #expect(local.stdout.contains("South Africa"))
    for name in ["template", "tilejson", "pmtiles"] {
      let r = try termmap(
        ["render", "--no-basemap", "--color", "never", "--size", "60x12", "--tiles", name],
        environment: env)
      #expect(r.status == 0, "\(name): \(r.stderr)")
      #expect(r.stderr.isEmpty, "\(name): \(r.stderr)")
      #expect(r.stdout == local.stdout, "\(name)")
    }
    let asked = nginx.waitForAccessLog { log in
      log.contains { $0.contains("GET /planet ") }
        && log.contains { $0.hasSuffix("\"GET /world.pmtiles HTTP/1.1\"") }
    }
    #expect(asked.contains { $0.contains("GET /planet ") }, "\(asked)")
    #expect(asked.contains { $0.hasSuffix("\"GET /world.pmtiles HTTP/1.1\"") }, "\(asked)")
  }

  @Test("the openfreemap preset is read as a TileJSON URL, not refused as a template")
  func openFreeMapPreset() throws {
    // No network here: a proxy on a dead loopback port makes the fetch fail at once, which
    // shows the preset was fetched as a document.
    let dead = "http://127.0.0.1:\(ChildProcess.freeLoopbackPort())"
    let r = try termmap(
      ["render", "--size", "40x10", "--tiles", "openfreemap"],
      environment: ["HTTPS_PROXY": dead, "XDG_CONFIG_HOME": "/nonexistent"])
    #expect(r.status == 2)
    #expect(!r.stderr.contains("not a tile URL template"), "\(r.stderr)")
    #expect(
      r.stderr.hasPrefix("termmap: --tiles: https://tiles.openfreemap.org/planet: "), "\(r.stderr)")
    #expect(r.stderr.filter { $0 == "\n" }.count == 1)
  }

  @Test("a source from the config file is drawn, with its attribution on the status line")
  func configSource() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-config-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    try FileManager.default.createDirectory(
      at: home.appendingPathComponent("termmap"), withIntermediateDirectories: true)
    let world = WorldMBTiles.path
    try """
    [sources.mine]
    path = "\(world)"
    attribution = "my own world"
    """.write(
      to: home.appendingPathComponent("termmap/config.toml"), atomically: true, encoding: .utf8)
    let r = try termmap(
      [
        "render", "--no-basemap", "--color", "never", "--size", "60x12", "--status", "--tiles",
        "mine",
      ],
      environment: ["XDG_CONFIG_HOME": home.path])
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    #expect(r.stdout.contains("South Africa"))
    #expect(r.stdout.split(separator: "\n").last?.contains("my own world") == true)

    try "[sources.mine]\nurl = \"x\n".write(
      to: home.appendingPathComponent("termmap/config.toml"), atomically: true, encoding: .utf8)
    let bad = try termmap(
      ["render", "--size", "40x10", "--tiles", "mine"], environment: ["XDG_CONFIG_HOME": home.path])
    #expect(bad.status == 2)
    #expect(bad.stderr.hasPrefix("termmap: config: \(home.path)/termmap/config.toml:2: "))
    #expect(bad.stderr.filter { $0 == "\n" }.count == 1)
  }

  @Test("raster tiles render as braille dots or half blocks; a bad --raster is one line, exit 2")
  func rasterModes() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-raster-cli-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("15/17059"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: repositoryRoot.appendingPathComponent(
        "Tests/RasterTilesTests/Fixtures/monaco-z15-17059-11948.png"),
      to: root.appendingPathComponent("15/17059/11948.png"))
    let common = [
      "render", "--no-basemap", "--size", "40x8", "--center", "43.73538,7.42126", "--zoom", "15",
      "--tiles", root.path,
    ]
    let dots = try termmap(common + ["--color", "never"])
    #expect(dots.status == 0)
    #expect(dots.stderr.isEmpty)
    #expect(inkedCells(dots.stdout) > 100)
    let blocks = try termmap(common + ["--color", "always", "--raster", "blocks"])
    #expect(blocks.status == 0)
    #expect(blocks.stdout.contains("48;5;"))
    #expect(blocks.stdout.filter { $0 == "▀" }.count == 40 * 8)
    let truecolor = try termmap(
      common + ["--color", "always", "--raster", "blocks"], environment: ["COLORTERM": "truecolor"])
    #expect(truecolor.stdout.contains("48;2;"))
    let bad = try termmap(common + ["--raster", "sixel"])
    #expect(bad.status == 2)
    #expect(bad.stderr == "termmap: --raster: expected dots or blocks, found \"sixel\"\n")
  }
}

@Suite("termmap bench --tiles")
struct BenchTilesCLITests {
  @Test("scenarios on any tile source at a view; --tiles without a view is one line, exit 2")
  func benchTiles() throws {
    let r = try termmap([
      "bench", "--quick", "--json", "--tiles", "Data/world.pmtiles", "--center", "20,0", "--zoom",
      "1",
    ])
    #expect(r.status == 0)
    for name in [
      "tiles-first-frame", "tiles-160x48-cached", "tiles-160x48-redraw", "tiles-300x100-cached",
      "tiles-300x100-redraw",
    ] {
      #expect(r.stdout.contains("\"name\": \"\(name)\""), "\(name)")
    }
    let bad = try termmap(["bench", "--tiles", "Data/world.pmtiles"])
    #expect(bad.status == 2)
    #expect(bad.stderr == "termmap: bench: --tiles needs --center LAT,LON and --zoom Z\n")
  }
}
