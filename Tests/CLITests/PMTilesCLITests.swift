import Foundation
import LoopbackHTTPServer
import Testing

@Suite("termmap render --tiles with PMTiles and other sources")
struct PMTilesCLITests {
  func render(_ tiles: String, cache: URL? = nil) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    try termmap(
      [
        "render", "--no-basemap", "--color", "never", "--size", "80x24", "--zoom", "3",
        "--center", "44,8", "--tiles", tiles,
      ], environment: cache.map { ["XDG_CACHE_HOME": $0.path] } ?? [:])
  }

  @Test("an http(s) .pmtiles URL and a TileJSON URL draw the same as the local file")
  func remote() throws {
    let local = try render("Data/world.pmtiles")
    let world = repositoryRoot.appendingPathComponent("Data/world.pmtiles")
    let archive = try RangeFileServer(
      files: ["/world.pmtiles": .init(body: try Data(contentsOf: world), etag: "\"w\"")])
    defer { archive.stop() }
    let viaRanges = try render(archive.url("/world.pmtiles"))
    #expect(viaRanges.status == 0)
    #expect(viaRanges.stderr.isEmpty)
    #expect(viaRanges.stdout == local.stdout)
    #expect(archive.requests.allSatisfy { $0.headers["range"] != nil })

    let tiles = try LoopbackHTTPServer.tileServer(mbtiles: WorldMBTiles.path)
    defer { tiles.stop() }
    let doc =
      #"{"tilejson": "3.0.0", "tiles": ["\#(tiles.baseURL)/{z}/{x}/{y}.pbf"], "maxzoom": 6}"#
    let json = try RangeFileServer(files: ["/tiles.json": .init(body: Data(doc.utf8))])
    defer { json.stop() }
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cli-tilejson-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    let viaJSON = try render(json.url("/tiles.json"), cache: cache)
    #expect(viaJSON.status == 0)
    #expect(viaJSON.stderr.isEmpty)
    #expect(viaJSON.stdout == local.stdout)
    #expect(tiles.requests.count > 0)
  }

  @Test("Data/world.pmtiles draws exactly what the same tiles in an MBTiles file draw")
  func sameAsMBTiles() throws {
    let pm = try render("Data/world.pmtiles")
    let mb = try render(WorldMBTiles.path)
    #expect(pm.status == 0 && mb.status == 0)
    #expect(pm.stderr.isEmpty)
    let dots = pm.stdout.unicodeScalars.filter { $0.value > 0x2800 && $0.value <= 0x28FF }.count
    #expect(dots > 100)
    #expect(pm.stdout == mb.stdout)
  }

  @Test("an unsupported URL scheme or a missing file is one usage error line")
  func errors() throws {
    let ftp = try render("ftp://example.com/world.pmtiles")
    #expect(ftp.status == 2)
    #expect(
      ftp.stderr.contains(
        "--tiles: ftp://example.com/world.pmtiles: unsupported URL scheme \"ftp\""))
    let missing = try render("Data/nope.pmtiles")
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("--tiles: Data/nope.pmtiles: no such file or directory"))
  }
}
