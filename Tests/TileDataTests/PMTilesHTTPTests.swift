import Foundation
import LoopbackHTTPServer
import MapGeometry
import Synchronization
import Testing

@testable import TileData

@Suite("PMTiles over HTTP (loopback server)") struct PMTilesHTTPTests {
  static func worldServer(honoursRange: Bool = true) throws -> RangeFileServer {
    let body = try Data(contentsOf: URL(fileURLWithPath: Repo.worldPMTiles))
    return try RangeFileServer(
      files: ["/world.pmtiles": .init(body: body, etag: "\"world-1\"")],
      honoursRange: honoursRange)
  }

  /// Tiles compared over HTTP: all of zooms 0-4 and a spread of zooms 5-6.
  static var sample: [TileID] {
    var ids: [TileID] = []
    for z in 0...6 {
      for x in 0..<(1 << z) {
        for y in 0..<(1 << z) where z <= 4 || (x * 7 + y * 13) % 11 == 0 {
          ids.append(TileID(z: z, x: x, y: y))
        }
      }
    }
    return ids
  }

  @Test("world.pmtiles through Range requests: the same header, metadata and tiles")
  func world() throws {
    let server = try Self.worldServer()
    defer { server.stop() }
    let url = try #require(URL(string: server.url("/world.pmtiles")))
    let remote = try PMTilesSource(url: url, timeout: 60)
    let local = try PMTilesSource(path: Repo.worldPMTiles)
    let mb = try MBTilesSource(path: Repo.worldMBTiles)
    #expect(remote.isRemote)
    #expect(remote.header == local.header)
    #expect(remote.name == "termmap world")
    #expect(remote.attribution == mb.attribution)
    #expect(remote.vectorLayers == mb.vectorLayers)
    #expect(remote.bounds == local.bounds)
    #expect(remote.minZoom == 0 && remote.maxZoom == 8 && remote.format == .pbf)
    // Opening: one request for the first 16 KiB (header, root directory and metadata).
    #expect(server.requests.count == 1)
    #expect(server.requests.first?.headers["range"] == "bytes=0-16383")

    var found = 0
    for id in Self.sample {
      let a = try remote.tile(id)
      let b = try mb.tile(id)
      #expect((a == nil) == (b == nil), "\(id)")
      if let a, let b {
        found += 1
        #expect(try Inflate.decompressIfNeeded(a) == (try Inflate.decompressIfNeeded(b)), "\(id)")
      }
    }
    #expect(found == 704)
    // One range request per leaf directory read and per tile, each with a Range header.
    #expect(remote.statistics.directoryReads > 0)
    #expect(server.requests.count == 1 + remote.statistics.directoryReads + found)
    #expect(server.requests.allSatisfy { $0.headers["range"]?.hasPrefix("bytes=") == true })
    #expect(remote.statistics.reloads == 0)
  }

  @Test("an ETag change mid-session drops the directories and re-reads the header")
  func etagChange() throws {
    let tiles = PMTilesTestWriter.sampleTiles()
    var changed: [TileID: Data] = [:]
    for (id, _) in tiles { changed[id] = Data("second \(id.z)/\(id.x)/\(id.y)".utf8) }
    let first = PMTilesTestWriter.archive(tiles: tiles, leafSize: 4)
    let second = PMTilesTestWriter.archive(tiles: changed, leafSize: 7)
    let server = try RangeFileServer(files: ["/a.pmtiles": .init(body: first, etag: "\"v1\"")])
    defer { server.stop() }
    let s = try PMTilesSource(url: URL(string: server.url("/a.pmtiles"))!, timeout: 60)
    let probe = TileID(z: 2, x: 1, y: 3)
    #expect(try s.tile(probe) == tiles[probe])
    #expect(try s.tile(TileID(z: 3, x: 5, y: 2)) == tiles[TileID(z: 3, x: 5, y: 2)])
    #expect(s.cachedDirectoryCount > 0)

    server.replace("/a.pmtiles", with: .init(body: second, etag: "\"v2\""))
    #expect(try s.tile(probe) == changed[probe])
    #expect(s.statistics.reloads == 1)
    #expect(s.currentHeader == (try PMTiles.Header.parse(second, location: "")))
    #expect(s.currentHeader != s.header)
    for (id, bytes) in changed { #expect(try s.tile(id) == bytes, "\(id)") }
    #expect(try s.tile(TileID(z: 3, x: 7, y: 7)) == nil)
    #expect(s.statistics.reloads == 1)
  }

  @Test("without ETags, a change of size is detected (Content-Range total)")
  func sizeChange() throws {
    let tiles = PMTilesTestWriter.sampleTiles()
    var changed: [TileID: Data] = [:]
    for (id, _) in tiles { changed[id] = Data("v2 \(id.z)/\(id.x)/\(id.y)".utf8) }
    let first = PMTilesTestWriter.archive(tiles: tiles)
    let second = PMTilesTestWriter.archive(tiles: changed)
    #expect(first.count != second.count)
    let server = try RangeFileServer(files: ["/n.pmtiles": .init(body: first)])
    defer { server.stop() }
    let s = try PMTilesSource(url: URL(string: server.url("/n.pmtiles"))!, timeout: 60)
    let id = TileID(z: 3, x: 4, y: 4)
    #expect(try s.tile(id) == tiles[id])
    server.replace("/n.pmtiles", with: .init(body: second))
    #expect(try s.tile(id) == changed[id])
    #expect(s.statistics.reloads == 1)
  }

  @Test("scheduling: nearest the focus first, joined duplicates, cancellation")
  func scheduling() throws {
    let server = try Self.worldServer()
    defer { server.stop() }
    let s = try PMTilesSource(
      url: URL(string: server.url("/world.pmtiles"))!, timeout: 60, maxConcurrentRequests: 1)
    let done = Mutex<[(TileID, String)]>([])
    @Sendable func record(_ id: TileID) -> @Sendable (Result<Data?, any Error>) -> Void {
      { r in
        let outcome: String
        switch r {
        case .success(let d?): outcome = "\(d.count) bytes"
        case .success(nil): outcome = "none"
        case .failure(let e): outcome = e is CancellationError ? "cancelled" : "\(e)"
        }
        done.withLock { $0.append((id, outcome)) }
      }
    }
    let first = TileID(z: 3, x: 0, y: 0)
    let far = TileID(z: 3, x: 7, y: 7)
    let near = TileID(z: 3, x: 4, y: 2)
    let dropped = TileID(z: 3, x: 1, y: 1)
    server.closeGate()
    let before = server.requests.count
    s.loadTile(first, completion: record(first))
    #expect(waitUntil(60) { server.requests.count == before + 1 })  // running, held
    s.loadTile(far, completion: record(far))
    s.loadTile(dropped, completion: record(dropped))
    s.loadTile(near, completion: record(near))
    s.loadTile(near, completion: record(near))  // joins the queued load
    #expect(s.pendingTiles == [first, far, near, dropped])
    s.cancel(dropped)
    #expect(done.withLock { $0.map(\.0) } == [dropped])
    s.focus = near.mapRect.mid
    server.openGate()
    #expect(waitUntil(60) { done.withLock { $0.count } == 5 })
    let order = done.withLock { $0 }
    #expect(order.map(\.0) == [dropped, first, near, near, far])
    #expect(order[0].1 == "cancelled")
    #expect(order.dropFirst().allSatisfy { $0.1.hasSuffix("bytes") })
    // Three tiles, and the leaf directory that holds them.
    #expect(server.requests.count == before + 3 + s.statistics.directoryReads)
    #expect(s.pendingTiles.isEmpty)

    // Cancelling a running load: its completion gets CancellationError at once.
    server.closeGate()
    let held = TileID(z: 2, x: 1, y: 1)
    s.loadTile(held, completion: record(held))
    #expect(waitUntil(60) { s.pendingTiles == [held] })
    s.cancelAll(except: [])
    #expect(done.withLock { $0.last?.0 == held && $0.last?.1 == "cancelled" })
    server.openGate()
  }

  @Test("the range reader: versions, Content-Range, a read expecting another version")
  func rangeReader() throws {
    #expect(HTTPByteRangeReader.contentRange("bytes 0-99/1000")! == (0, 99, 1000))
    #expect(HTTPByteRangeReader.contentRange("bytes 5-9/*")! == (5, 9, nil))
    #expect(HTTPByteRangeReader.contentRange("bytes 5-1000/1000") == nil)
    #expect(HTTPByteRangeReader.contentRange("bytes 9-5/100") == nil)
    #expect(HTTPByteRangeReader.contentRange("items 0-1/2") == nil)
    #expect(HTTPByteRangeReader.unsatisfiedLength("bytes */1234") == 1234)
    let body = Data((0..<1000).map { UInt8($0 % 251) })
    let server = try RangeFileServer(files: ["/f": .init(body: body, etag: "W/\"a\"")])
    defer { server.stop() }
    let reader = HTTPByteRangeReader(
      url: URL(string: server.url("/f"))!, timeout: 60, maxConnections: 2,
      maxFullBodyBytes: 1 << 20, userAgent: "test")
    let (head, v1) = try reader.read(offset: 0, length: 16_384, expecting: nil)
    #expect(head == body)
    #expect(v1 == ArchiveVersion(etag: "W/\"a\"", size: 1000))
    #expect(server.requests.last?.headers["range"] == "bytes=0-16383")
    #expect(try reader.read(offset: 990, length: 50, expecting: v1).data == body.suffix(10))
    #expect(server.requests.last?.headers["range"] == "bytes=990-999")
    #expect(try reader.read(offset: 1000, length: 5, expecting: v1).data.isEmpty)
    server.replace("/f", with: .init(body: body, etag: "W/\"b\""))
    do {
      _ = try reader.read(offset: 10, length: 5, expecting: v1)
      Issue.record("a read of another version succeeded")
    } catch ByteRangeReadError.changed(let old, let new) {
      #expect(old == "W/\"a\"" && new == "W/\"b\"")
    }
    // A reader that has not seen the new version yet adopts it when asked without one.
    #expect(try reader.read(offset: 10, length: 5, expecting: nil).version.etag == "W/\"b\"")
    #expect(server.requests.allSatisfy { $0.headers["if-match"] == nil })
  }

  @Test("leaf directories over HTTP: each read once, even by parallel loads; then cached")
  func leavesOverHTTP() throws {
    let tiles = PMTilesTestWriter.sampleTiles()
    let archive = PMTilesTestWriter.archive(tiles: tiles, leafSize: 4)
    let server = try RangeFileServer(files: ["/l.pmtiles": .init(body: archive, etag: "\"l\"")])
    defer { server.stop() }
    let s = try PMTilesSource(url: URL(string: server.url("/l.pmtiles"))!, timeout: 60)
    #expect(server.requests.count == 1)
    let results = Mutex<[TileID: Result<Data?, any Error>]>([:])
    for id in tiles.keys { s.loadTile(id) { r in results.withLock { $0[id] = r } } }
    #expect(waitUntil(60) { results.withLock { $0.count } == tiles.count })
    for (id, bytes) in tiles { #expect(try results.withLock { $0[id]! }.get() == bytes, "\(id)") }
    let leaves = Int(s.header.leafDirectoryLength > 0 ? (s.header.tileEntriesCount + 3) / 4 : 0)
    #expect(leaves > 10)
    #expect(s.statistics.directoryReads == leaves)
    // One request at open, one per leaf, one per tile.
    #expect(server.requests.count == 1 + leaves + tiles.count)
    for (id, bytes) in tiles.prefix(10) { #expect(try s.tile(id) == bytes) }
    #expect(server.requests.count == 1 + leaves + tiles.count + 10)
  }

  @Test("a server that ignores Range: the whole archive once, then every tile from it")
  func ignoresRange() throws {
    let server = try Self.worldServer(honoursRange: false)
    defer { server.stop() }
    // The world (19 MB) is above the default limit of 16 MiB for a whole body.
    let s = try PMTilesSource(
      url: URL(string: server.url("/world.pmtiles"))!, timeout: 60, maxFullBodyBytes: 32 << 20)
    let mb = try MBTilesSource(path: Repo.worldMBTiles)
    for id in Self.sample.prefix(120) {
      let a = try s.tile(id).map { try Inflate.decompressIfNeeded($0) }
      let b = try mb.tile(id).map { try Inflate.decompressIfNeeded($0) }
      #expect(a == b, "\(id)")
    }
    #expect(server.requests.count == 1)
    #expect(s.attribution == mb.attribution)
  }

  @Test("a server that ignores Range, with an archive above the limit: one clear error")
  func ignoresRangeTooLarge() throws {
    let server = try Self.worldServer(honoursRange: false)
    defer { server.stop() }
    let url = server.url("/world.pmtiles")
    #expect(
      errorText {
        _ = try PMTilesSource(url: URL(string: url)!, timeout: 60, maxFullBodyBytes: 100_000)
      } == "\(url): the server ignores Range requests and the archive is larger than 100000 bytes")
  }

  @Test("HTTP errors: 404, not an archive, a time-out, an unsupported scheme")
  func errors() throws {
    let server = try RangeFileServer(
      files: ["/text.pmtiles": .init(body: Data("<html>hello</html>".utf8))])
    defer { server.stop() }
    let missing = server.url("/missing.pmtiles")
    #expect(
      errorText { _ = try PMTilesSource(url: URL(string: missing)!, timeout: 60) }
        == "\(missing): HTTP 404 Not Found")
    let text = server.url("/text.pmtiles")
    #expect(
      errorText { _ = try PMTilesSource(url: URL(string: text)!, timeout: 60) }
        == "\(text): not a PMTiles archive (no \"PMTiles\" magic at byte 0)")
    let page = try LoopbackHTTPServer { _ in
      .respond(status: 503, body: Data(repeating: 0x41, count: 200_000))
    }
    defer { page.stop() }
    #expect(
      errorText { _ = try PMTilesSource(url: URL(string: page.baseURL + "/a.pmtiles")!) }
        == "\(page.baseURL)/a.pmtiles: HTTP 503 Service Unavailable")
    server.closeGate()
    #expect(
      errorText { _ = try PMTilesSource(url: URL(string: text)!, timeout: 0.5) }
        == "\(text): timed out after 0.5 s")
    server.openGate()
    #expect(
      errorText { _ = try PMTilesSource(url: URL(string: "ftp://example.com/a.pmtiles")!) }
        == "ftp://example.com/a.pmtiles: unsupported URL scheme (expected http or https)")
  }

  @Test("loadTile returns before the server answers; parallel loads all arrive")
  func nonBlocking() throws {
    let server = try Self.worldServer()
    defer { server.stop() }
    let s = try PMTilesSource(url: URL(string: server.url("/world.pmtiles"))!, timeout: 60)
    let local = try PMTilesSource(path: Repo.worldPMTiles)
    let results = Mutex<[TileID: Result<Data?, any Error>]>([:])
    let id = TileID(z: 6, x: 33, y: 23)
    server.closeGate()
    s.loadTile(id) { r in results.withLock { $0[id] = r } }
    // The server holds every answer, so the load cannot have finished.
    #expect(results.withLock { $0.isEmpty })
    server.openGate()
    #expect(waitUntil(60) { results.withLock { $0[id] != nil } })
    #expect(try results.withLock { $0[id]! }.get() == (try Repo.storedTile("world-6-33-23")))

    let many = Array(Self.sample.suffix(60))
    for t in many { s.loadTile(t) { r in results.withLock { $0[t] = r } } }
    #expect(waitUntil(60) { results.withLock { $0.count } == Set(many + [id]).count })
    for t in many {
      #expect(try results.withLock { $0[t]! }.get() == (try local.tile(t)), "\(t)")
    }
  }
}
