import Foundation
import LoopbackHTTPServer
import MapGeometry
import Testing

@testable import TileData

@Suite("TileSourceSpec: one resolver of --tiles arguments") struct TileSourceSpecTests {
  /// A temporary directory with a z/x/y tile directory, copies of the archives under other
  /// names, a TileJSON file and a text file.
  struct Fixture {
    let dir: TemporaryDirectory
    init() throws {
      dir = try TemporaryDirectory()
      let fm = FileManager.default
      try fm.createDirectory(at: dir.file("tiles/0/0"), withIntermediateDirectories: true)
      try Repo.storedTile("world-0-0-0").write(to: dir.file("tiles/0/0/0.pbf"))
      try fm.copyItem(at: URL(fileURLWithPath: Repo.worldPMTiles), to: dir.file("world.bin"))
      try fm.copyItem(at: URL(fileURLWithPath: Repo.worldMBTiles), to: dir.file("world.db"))
      try Data(
        #"  {"tiles": ["https://tiles.example/{z}/{x}/{y}.pbf"], "maxzoom": 9, "attribution": "© ex"}"#
          .utf8
      ).write(to: dir.file("source.tilejson"))
      try fm.copyItem(at: dir.file("source.tilejson"), to: dir.file("source.json"))
      try Data("just some notes\n".utf8).write(to: dir.file("notes.txt"))
    }
    func path(_ name: String) -> String { dir.file(name).path }
  }

  @Test("classifies every kind of argument")
  func classify() throws {
    let f = try Fixture()
    defer { f.dir.cleanUp() }
    #expect(try TileSourceSpec.classify(Repo.worldMBTiles) == .mbtiles(path: Repo.worldMBTiles))
    #expect(try TileSourceSpec.classify(Repo.worldPMTiles) == .pmtilesFile(path: Repo.worldPMTiles))
    #expect(try TileSourceSpec.classify(f.path("tiles")) == .directory(path: f.path("tiles")))
    #expect(
      try TileSourceSpec.classify(f.path("source.json"))
        == .tileJSONFile(path: f.path("source.json")))
    // Other names: by the first bytes.
    #expect(
      try TileSourceSpec.classify(f.path("world.bin")) == .pmtilesFile(path: f.path("world.bin")))
    #expect(try TileSourceSpec.classify(f.path("world.db")) == .mbtiles(path: f.path("world.db")))
    #expect(
      try TileSourceSpec.classify(f.path("source.tilejson"))
        == .tileJSONFile(path: f.path("source.tilejson")))
    #expect(try TileSourceSpec.classify(f.path("notes.txt")) == .mbtiles(path: f.path("notes.txt")))
    #expect(
      try TileSourceSpec.classify("file://" + Repo.worldPMTiles)
        == .pmtilesFile(path: Repo.worldPMTiles))
    #expect(
      try TileSourceSpec.classify("file://localhost" + Repo.worldPMTiles)
        == .pmtilesFile(path: Repo.worldPMTiles))

    let template = "https://{s}.tile.example/{z}/{x}/{y}.pbf"
    #expect(try TileSourceSpec.classify(template) == .urlTemplate(template))
    #expect(
      try TileSourceSpec.classify("HTTP://h/{z}/{x}/{-y}.png")
        == .urlTemplate("HTTP://h/{z}/{x}/{-y}.png"))
    #expect(
      try TileSourceSpec.classify("https://example.com/planet.pmtiles")
        == .pmtilesURL(URL(string: "https://example.com/planet.pmtiles")!))
    #expect(
      try TileSourceSpec.classify("https://example.com/v3/tiles.json?key=k")
        == .tileJSONURL(URL(string: "https://example.com/v3/tiles.json?key=k")!))
    // A URL without placeholders that is not an archive is a TileJSON document (OpenFreeMap's
    // is https://tiles.openfreemap.org/planet).
    #expect(
      try TileSourceSpec.classify("https://tiles.example.com/planet")
        == .tileJSONURL(URL(string: "https://tiles.example.com/planet")!))
  }

  @Test("one-line errors for everything else")
  func errors() throws {
    #expect(
      errorText { _ = try TileSourceSpec.open("ftp://example.com/world.pmtiles") }
        == "ftp://example.com/world.pmtiles: unsupported URL scheme \"ftp\" (expected http, https or a file)"
    )
    #expect(
      errorText { _ = try TileSourceSpec.open("s3://bucket/tiles.json") }
        == "s3://bucket/tiles.json: unsupported URL scheme \"s3\" (expected http, https or a file)")
    #expect(
      errorText { _ = try TileSourceSpec.open("/no/such/world.pmtiles") }
        == "/no/such/world.pmtiles: no such file or directory")
    #expect(
      errorText { _ = try TileSourceSpec.open("https://example.com/{z}/{x}.pbf") }
        == "https://example.com/{z}/{x}.pbf: not a tile URL template: {y} missing")
    #expect(
      errorText { _ = try TileSourceSpec.open("https://exa mple.com/planet") }
        == "https://exa mple.com/planet: not a valid URL")
    #expect(errorText { _ = try TileSourceSpec.open("") } == "\"\": empty tile source")
    let f = try Fixture()
    defer { f.dir.cleanUp() }
    #expect(
      errorText { _ = try TileSourceSpec.open(f.path("notes.txt")) }
        == "\(f.path("notes.txt")): not an MBTiles file (not an SQLite database)")
    for text in [#"{"tiles": "nope"}"#, "{nope"] {
      try Data(text.utf8).write(to: f.dir.file("bad.json"))
      #expect(
        errorText { _ = try TileSourceSpec.open(f.path("bad.json")) }?.hasPrefix(
          f.path("bad.json") + ": ") == true)
    }
    #expect(errorText { _ = try TileSourceSpec.open(f.path("bad.json")) }?.contains("\n") == false)
  }

  @Test("opens each kind as its source")
  func open() throws {
    let f = try Fixture()
    defer { f.dir.cleanUp() }
    let cache = f.dir.url
    #expect(try TileSourceSpec.open(Repo.worldMBTiles) is MBTilesSource)
    #expect(try TileSourceSpec.open(f.path("tiles")) is DirectoryTileSource)
    let pm = try #require(try TileSourceSpec.open(f.path("world.bin")) as? PMTilesSource)
    #expect(try pm.tile(TileID(z: 0, x: 0, y: 0)) == (try Repo.storedTile("world-0-0-0")))
    let json = try #require(
      try TileSourceSpec.open(f.path("source.json"), cacheHome: cache) as? HTTPTileSource)
    #expect(json.template == "https://tiles.example/{z}/{x}/{y}.pbf")
    #expect(json.maxZoom == 9 && json.attribution == "© ex")
    let t = try #require(
      try TileSourceSpec.open("https://{s}.example/{z}/{x}/{y}.png", cacheHome: cache)
        as? HTTPTileSource)
    #expect(t.format == .png && t.subdomains == ["a", "b", "c"])

    // Over HTTP: a .pmtiles URL and a TileJSON URL.
    let body = try Data(contentsOf: URL(fileURLWithPath: Repo.worldPMTiles))
    let server = try RangeFileServer(files: [
      "/maps/world.pmtiles": .init(body: body, etag: "\"1\"")
    ])
    defer { server.stop() }
    let remote = try #require(
      try TileSourceSpec.open(server.url("/maps/world.pmtiles"), timeout: 60) as? PMTilesSource)
    #expect(remote.isRemote && remote.name == "termmap world")
    #expect(try remote.tile(TileID(z: 6, x: 33, y: 23)) == (try Repo.storedTile("world-6-33-23")))
    let jsonServer = try tileJSONServer()
    defer { jsonServer.stop() }
    let viaJSON = try #require(
      try TileSourceSpec.open(jsonServer.baseURL + "/tiles.json", cacheHome: cache, timeout: 60)
        as? HTTPTileSource)
    #expect(viaJSON.maxZoom == 5)
    #expect(try viaJSON.tile(TileID(z: 0, x: 0, y: 0)) == (try Repo.storedTile("world-0-0-0")))
  }
}
