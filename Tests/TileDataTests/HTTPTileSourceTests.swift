import Foundation
import LoopbackHTTPServer
import MapGeometry
import Synchronization
import TestProcesses
import Testing

@testable import TileData

/// Waits (bounded) for a condition checked every few milliseconds.
func waitUntil(_ seconds: Double = 60, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while Date() < deadline {
    if condition() { return true }
    usleep(2_000)
  }
  return condition()
}

@Suite("HTTP tile source") struct HTTPTileSourceTests {
  let zero = TileID(z: 0, x: 0, y: 0)

  func source(
    _ server: LoopbackHTTPServer, _ prefix: String = "", cache: TemporaryDirectory,
    maxAge: TimeInterval = 3600, timeout: TimeInterval = 60, concurrent: Int = 6
  ) throws -> HTTPTileSource {
    try HTTPTileSource(
      template: server.baseURL + prefix + "/{z}/{x}/{y}.pbf", maxZoom: 6, cacheHome: cache.url,
      maxAge: maxAge, timeout: timeout, maxConcurrentRequests: concurrent)
  }

  @Test("loads a tile, writes it to the disk cache, and a second source reads it from disk")
  func loadsAndCaches() throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: Repo.worldMBTiles)
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try source(server, cache: cache)
    let data = try #require(try s.tile(zero))
    let tile = try VectorTileDecoder.decodeCompressed(data)
    #expect(tile.layer(named: "water") != nil)
    let file = try #require(s.cacheFile(for: zero))
    #expect(file.path.hasPrefix(cache.url.path + "/termmap/tiles/"))
    #expect(FileManager.default.fileExists(atPath: file.path))
    #expect(FileManager.default.fileExists(atPath: file.path + ".meta"))
    #expect(s.statistics.requests == 1)
    #expect(server.requests.count == 1)
    #expect(server.requests[0].headers["user-agent"]?.contains("termmap") == true)

    // A fresh source (a second run) is served from disk without asking.
    let again = try source(server, cache: cache)
    #expect(try again.tile(zero) == data)
    #expect(again.statistics.diskHits == 1)
    #expect(again.statistics.requests == 0)
    #expect(server.requests.count == 1)
  }

  @Test("a stale cached tile is revalidated with If-None-Match and a 304 keeps it")
  func conditionalRefresh() throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: Repo.worldMBTiles)
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let first = try source(server, cache: cache)
    let data = try #require(try first.tile(zero))
    let metaFile = try #require(first.cacheFile(for: zero)).appendingPathExtension("meta")
    let before = try Data(contentsOf: metaFile)
    usleep(20_000)

    let stale = try source(server, cache: cache, maxAge: 0)
    #expect(try stale.tile(zero) == data)
    #expect(server.requests.count == 2)
    let conditional = server.requests[1]
    #expect(conditional.headers["if-none-match"] == "\"0-0-0\"")
    #expect(conditional.headers["if-modified-since"] == "Mon, 01 Jan 2024 00:00:00 GMT")
    #expect(stale.statistics.notModified == 1)
    #expect(try Data(contentsOf: metaFile) != before)  // the fetch time moved on
  }

  @Test("Content-Encoding gzip is inflated by URLSession; the tile still decodes")
  func gzipEncoding() throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: Repo.worldMBTiles)
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let provider = try VectorTileProvider(source: try source(server, "/gz", cache: cache))
    let tile = try #require(try provider.decodedTile(TileID(z: 6, x: 33, y: 23)))
    #expect(tile.layer(named: "place") != nil)
  }

  @Test("404 is no tile (nil, no error), and is cached")
  func notFound() throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: Repo.worldMBTiles)
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try source(server, "/404", cache: cache)
    #expect(try s.tile(zero) == nil)
    #expect(try s.tile(zero) == nil)
    #expect(server.requests.count == 1)
    #expect(s.statistics.failures == 0)
  }

  @Test("500 fails with the status")
  func serverError() throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: Repo.worldMBTiles)
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try source(server, "/500", cache: cache)
    #expect {
      try s.tile(zero)
    } throws: { error in
      "\(error)".contains("HTTP 500") && error is TileSourceError
    }
    #expect(s.statistics.failures == 1)
    #expect(s.cacheFile(for: zero).map { FileManager.default.fileExists(atPath: $0.path) } == false)
  }

  @Test("a server that never answers times out after the set time")
  func timeOut() throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: Repo.worldMBTiles)
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try source(server, "/hang", cache: cache, timeout: 0.5)
    // The request runs on this thread (curl_easy_perform): its time less what this thread
    // waited for a core is the time-out as the client kept it, however loaded the machine.
    let waitedBefore = KernelState.waitingOfThisThread()
    let start = Date()
    #expect {
      try s.tile(zero)
    } throws: { error in
      "\(error)".contains("timed out after 0.5 s")
    }
    let elapsed = Date().timeIntervalSince(start)
    let kept = elapsed - (KernelState.waitingOfThisThread() - waitedBefore)
    #expect(elapsed >= 0.4 && kept < 3, "took \(elapsed) s, \(kept) s less its wait for a core")
  }

  @Test("a garbage body is refused by the source (not a vector tile), so the provider has nothing")
  func garbage() throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: Repo.worldMBTiles)
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let provider = try VectorTileProvider(source: try source(server, "/garbage", cache: cache))
    #expect(throws: (any Error).self) { try provider.decodedTile(zero) }
    #expect(provider.bestAvailable(for: zero) == nil)
  }

  @Test("loadTile returns at once; the completion comes later")
  func doesNotBlock() throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: Repo.worldMBTiles)
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try source(server, "/hang", cache: cache, timeout: 0.5)
    let done = Mutex<Result<Data?, any Error>?>(nil)
    s.loadTile(zero) { r in done.withLock { $0 = r } }
    #expect(done.withLock { $0 == nil }, "loadTile waited for the server")
    #expect(waitUntil(60) { done.withLock { $0 != nil } })
  }

  @Test("at most N requests in flight; all complete")
  func boundedInFlight() throws {
    // Answers held until two requests are being answered at once: the bound reached for sure
    // (with answers taking 0.2 s, a client starved for that long never had two in flight).
    let gate = AnswerGate(closed: true)
    let server = try LoopbackHTTPServer.tileServer(mbtiles: Repo.worldMBTiles, gate: gate)
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try source(server, "/held", cache: cache, concurrent: 2)
    let finished = Mutex(0)
    for x in 0..<4 {
      for y in 0..<2 {
        s.loadTile(TileID(z: 2, x: x, y: y)) { r in
          if case .success(let d) = r, d != nil { finished.withLock { $0 += 1 } }
        }
      }
    }
    #expect(waitUntil(60) { server.requests.count >= 2 })
    gate.open()
    #expect(waitUntil(60) { finished.withLock { $0 } == 8 })
    #expect(server.peakConcurrentRequests <= 2)
    #expect(server.peakConcurrentRequests == 2)
    #expect(s.statistics.peakInFlight == 2)
  }

  @Test("queued tiles are fetched nearest to the focus first")
  func nearestFirst() throws {
    // The first answer held until every other tile is queued (an answer of 0.2 s came back
    // before a starved test had queued them, and the queue's order was not the one asked).
    let gate = AnswerGate(closed: true)
    let server = try LoopbackHTTPServer.tileServer(mbtiles: Repo.worldMBTiles, gate: gate)
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try source(server, "/held", cache: cache, concurrent: 1)
    // The focus is in tile 3/6/2; queue tiles from far to near while the first one holds the
    // only slot.
    s.focus = TileID(z: 3, x: 6, y: 2).mapRect.mid
    let finished = Mutex(0)
    let blocker = TileID(z: 3, x: 0, y: 7)
    s.loadTile(blocker) { _ in finished.withLock { $0 += 1 } }
    #expect(waitUntil(60) { server.requests.count == 1 })
    let queued = [
      TileID(z: 3, x: 0, y: 0), TileID(z: 3, x: 2, y: 5), TileID(z: 3, x: 4, y: 2),
      TileID(z: 3, x: 6, y: 3), TileID(z: 3, x: 6, y: 2),
    ]
    for id in queued { s.loadTile(id) { _ in finished.withLock { $0 += 1 } } }
    #expect(waitUntil(60) { s.pendingTiles.count == 6 })
    gate.open()
    #expect(waitUntil(60) { finished.withLock { $0 } == 6 })
    let order = server.requests.dropFirst().map { $0.path }
    #expect(
      order == [
        // 3/0/0 is two tiles away across the antimeridian.
        "/held/3/6/2.pbf", "/held/3/6/3.pbf", "/held/3/4/2.pbf", "/held/3/0/0.pbf",
        "/held/3/2/5.pbf",
      ])
  }

  @Test("cancelled tiles are never fetched and their completions get CancellationError")
  func cancellation() throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: Repo.worldMBTiles)
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try source(server, "/hang", cache: cache, timeout: 60, concurrent: 1)
    let cancelled = Mutex<[TileID]>([])
    let ids = (0..<4).map { TileID(z: 2, x: $0, y: 1) }
    for id in ids {
      s.loadTile(id) { r in
        if case .failure(let e) = r, e is CancellationError { cancelled.withLock { $0.append(id) } }
      }
    }
    #expect(waitUntil(60) { s.pendingTiles.count == 4 && server.requests.count == 1 })
    // Cancel a queued one, then everything but one queued tile (the running request too).
    s.cancel(ids[3])
    #expect(cancelled.withLock { $0 } == [ids[3]])
    s.cancelAll(except: [ids[2]])
    #expect(waitUntil(60) { cancelled.withLock { $0.count } == 3 })
    #expect(s.pendingTiles == [ids[2]])
    #expect(s.statistics.cancelled == 3)
    // The kept tile takes the freed slot.
    #expect(waitUntil(60) { server.requests.count == 2 })
    #expect(server.requests.map(\.path).contains("/hang/2/2/1.pbf"))
    #expect(!server.requests.map(\.path).contains("/hang/2/3/1.pbf"))
    s.cancelAll()
  }

  @Test("templates: {s}, {-y}, {r}, format from the extension, stable cache folder, errors")
  func templates() throws {
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try HTTPTileSource(
      template: "https://{s}.tiles.example/v1/{z}/{x}/{-y}{r}.png?key=k", cacheHome: cache.url)
    #expect(s.subdomains == ["a", "b", "c"])
    #expect(s.format == .png)
    let id = TileID(z: 3, x: 2, y: 2)
    #expect(s.url(for: id)?.absoluteString == "https://b.tiles.example/v1/3/2/5.png?key=k")
    let t = try HTTPTileSource(
      template: "http://h/{z}/{x}/{y}.mvt", subdomains: ["x"], cacheHome: cache.url)
    #expect(t.format == .pbf)
    let again = try HTTPTileSource(template: "http://h/{z}/{x}/{y}.mvt", cacheHome: cache.url)
    #expect(again.cacheDirectory == t.cacheDirectory)
    #expect(t.cacheDirectory != s.cacheDirectory)
    #expect(HTTPTileSource.stableHash("http://h/{z}/{x}/{y}.mvt") == "128052007f841ab4")
    #expect(throws: TileSourceError.self) { try HTTPTileSource(template: "http://h/{z}/{x}.pbf") }
    #expect(throws: TileSourceError.self) { try HTTPTileSource(template: "/tmp/{z}/{x}/{y}.pbf") }
    let none = try HTTPTileSource(template: "http://h/{z}/{x}/{y}", diskCache: false)
    #expect(none.cacheDirectory == nil)
    #expect(HTTPTileSource.isTemplate("HTTPS://x/{z}/{x}/{y}"))
    #expect(!HTTPTileSource.isTemplate("Data/world.mbtiles"))
  }
}
