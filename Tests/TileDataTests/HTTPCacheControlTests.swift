import Foundation
import LoopbackHTTPServer
import MapGeometry
import Synchronization
import Testing

@testable import TileData

@Suite("HTTP tile source: the server's caching headers")
struct HTTPCacheControlTests {
  /// A server answering every tile with world.mbtiles' 0/0/0 and the given headers.
  func server(_ headers: [String: String]) throws -> LoopbackHTTPServer {
    let body = try #require(
      try MBTilesSource(path: Repo.worldMBTiles).tile(TileID(z: 0, x: 0, y: 0)))
    let plain = try Inflate.decompressIfNeeded(body)
    return try LoopbackHTTPServer { request in
      if request.headers["if-none-match"] == "\"t\"" {
        return .respond(status: 304, headers: headers.merging(["ETag": "\"t\""]) { a, _ in a })
      }
      return .respond(
        status: 200, headers: headers.merging(["ETag": "\"t\""]) { a, _ in a }, body: plain)
    }
  }

  func source(_ server: LoopbackHTTPServer, _ cache: TemporaryDirectory, maxAge: TimeInterval)
    throws -> HTTPTileSource
  {
    try HTTPTileSource(
      template: server.baseURL + "/{z}/{x}/{y}.pbf", maxZoom: 6, cacheHome: cache.url,
      maxAge: maxAge, timeout: 60)
  }

  let zero = TileID(z: 0, x: 0, y: 0)

  @Test("max-age keeps a tile fresh however small the source's own maxAge; no-cache asks again")
  func maxAge() throws {
    for (header, requestsAfterSecondRun) in [
      ("max-age=3600", 1), ("public, max-age=86400", 1), ("no-cache", 2), ("max-age=0", 2),
    ] {
      let s = try server(["Cache-Control": header])
      defer { s.stop() }
      let cache = try TemporaryDirectory()
      defer { cache.cleanUp() }
      _ = try source(s, cache, maxAge: 0).tile(zero)
      // A second run whose own maxAge (0) would revalidate: the server's header decides.
      _ = try source(s, cache, maxAge: 0).tile(zero)
      #expect(s.requests.count == requestsAfterSecondRun, "\(header)")
    }
  }

  @Test("Expires (relative to Date) is honoured; no-store is never written to disk")
  func expiresAndNoStore() throws {
    let expires = try server([
      "Date": "Sun, 06 Nov 2044 08:49:37 GMT", "Expires": "Sun, 06 Nov 2044 09:49:37 GMT",
    ])
    defer { expires.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    _ = try source(expires, cache, maxAge: 0).tile(zero)
    _ = try source(expires, cache, maxAge: 0).tile(zero)
    #expect(expires.requests.count == 1)

    let noStore = try server(["Cache-Control": "no-store"])
    defer { noStore.stop() }
    let other = try TemporaryDirectory()
    defer { other.cleanUp() }
    let s = try source(noStore, other, maxAge: 3600)
    #expect(try s.tile(zero) != nil)
    let file = try #require(s.cacheFile(for: zero))
    #expect(!FileManager.default.fileExists(atPath: file.path))
    _ = try source(noStore, other, maxAge: 3600).tile(zero)
    #expect(noStore.requests.count == 2)
  }

  @Test("cache policies parsed from headers")
  func parsing() throws {
    func policy(_ h: [String: String]) -> (Bool, Double?) {
      let r = HTTPResponseHead(status: 200, fields: h.map { ($0.key, $0.value) })
      let p = HTTPTileSource.cachePolicy(r)
      return (p.store, p.freshFor)
    }
    #expect(policy([:]) == (true, nil))
    #expect(policy(["Cache-Control": "max-age=60"]) == (true, 60))
    #expect(policy(["Cache-Control": "no-store, max-age=60"]) == (false, 60))
    #expect(policy(["Cache-Control": "no-cache, max-age=60"]) == (true, 0))
    #expect(policy(["Cache-Control": "max-age=-5"]) == (true, 0))
    #expect(policy(["Expires": "0"]) == (true, 0))
  }
}
