import Foundation
import LoopbackHTTPServer
import MapGeometry
import Synchronization
import Testing

@testable import TileData

/// Hostile or broken HTTP answers: bounded in size, never cached unless whole and valid, and a
/// disk cache that stays within its bound and leaves no temporary files.
@Suite struct HTTPHardeningTests {
  let zero = TileID(z: 0, x: 0, y: 0)

  /// The world's 0/0/0 tile, inflated (a valid MVT body).
  static func worldTile() throws -> Data {
    try Inflate.decompressIfNeeded(try Repo.storedTile("world-0-0-0"))
  }

  func source(
    _ server: LoopbackHTTPServer, ext: String = "pbf", cache: TemporaryDirectory,
    maxResponseBytes: Int = 1 << 20, maxCacheBytes: Int = 64 << 20
  ) throws -> HTTPTileSource {
    try HTTPTileSource(
      template: server.baseURL + "/{z}/{x}/{y}." + ext, maxZoom: 6, cacheHome: cache.url,
      maxAge: 3600, timeout: 60, maxResponseBytes: maxResponseBytes, maxCacheBytes: maxCacheBytes)
  }

  /// The error loading `id` gives, as its one-line description.
  func failure(_ s: HTTPTileSource, _ id: TileID) -> String? {
    do {
      _ = try s.tile(id)
      return nil
    } catch {
      return "\(error)"
    }
  }

  /// Every file under the cache directory, relative.
  func cacheFiles(_ cache: TemporaryDirectory) -> [String] {
    let root = cache.url.path
    guard let walk = FileManager.default.enumerator(atPath: root) else { return [] }
    return walk.compactMap { item -> String? in
      guard let name = item as? String else { return nil }
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory)
      return isDirectory.boolValue ? nil : name
    }.sorted()
  }

  func server(_ reply: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply)
    throws -> LoopbackHTTPServer
  {
    try LoopbackHTTPServer(handler: reply)
  }

  // MARK: 7. Response size

  @Test func aBodyOverTheLimitIsCancelled() throws {
    let big = Data(repeating: 0x41, count: 4 << 20)
    let server = try server { _ in .respond(status: 200, body: big) }
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try source(server, cache: cache)
    let message = try #require(failure(s, zero))
    #expect(message.hasSuffix("/0/0/0.pbf: the response is larger than the limit of 1048576 bytes"))
    s.waitForCacheMaintenance()
    #expect(cacheFiles(cache).isEmpty)
  }

  @Test func aDeclaredHugeLengthIsRefusedBeforeTheBody() throws {
    let raw = LoopbackHTTPServer.rawResponse(
      status: 200, headers: [("Content-Length", "500000000"), ("Connection", "close")],
      body: Data(repeating: 0, count: 1000))
    let server = try server { _ in .raw(raw) }
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try source(server, cache: cache)
    #expect(failure(s, zero)?.hasSuffix("larger than the limit of 1048576 bytes") == true)
    #expect(cacheFiles(cache).isEmpty)
  }

  /// A gzip member whose deflate stream (fixed Huffman codes: one zero byte, then copies of
  /// 258 bytes at distance 1) inflates to `size` zero bytes at about 160 : 1. The trailer's
  /// CRC is left 0: nothing should read that far.
  static func gzipBomb(size: Int) -> Data {
    var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
    var bits: UInt64 = 0
    var count = 0
    func put(_ value: UInt64, _ n: Int) {
      bits |= value << UInt64(count)
      count += n
      while count >= 8 {
        out.append(UInt8(bits & 0xFF))
        bits >>= 8
        count -= 8
      }
    }
    func huffman(_ code: UInt64, _ n: Int) {  // Huffman codes go most significant bit first
      var reversed: UInt64 = 0
      for i in 0..<n where code & (1 << UInt64(i)) != 0 { reversed |= 1 << UInt64(n - 1 - i) }
      put(reversed, n)
    }
    put(1, 1)  // BFINAL
    put(1, 2)  // BTYPE 01: fixed Huffman codes
    huffman(0x30, 8)  // the literal 0
    for _ in 0..<(size / 258) {
      huffman(0xC5, 8)  // length code 285: 258 bytes
      huffman(0, 5)  // distance code 0: distance 1
    }
    huffman(0, 7)  // end of block (256)
    if count > 0 { put(0, 8 - count) }
    out += [0, 0, 0, 0]  // CRC-32 (wrong on purpose)
    let n = UInt32(truncatingIfNeeded: 1 + size / 258 * 258)
    out += [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 24)]
    return Data(out)
  }

  @Test func theBombGeneratorInflates() throws {
    // Whole, it inflates to its end and fails only on the CRC left out; with a limit, on that.
    #expect {
      _ = try Inflate.decompress(Self.gzipBomb(size: 258 * 40), limit: 1 << 20)
    } throws: { "\($0)" == "corrupt compressed data: incorrect data check" }
    #expect {
      _ = try Inflate.decompress(Self.gzipBomb(size: 1 << 20), limit: 1000)
    } throws: { "\($0)" == "inflated data exceeds the limit of 1000 bytes" }
  }

  @Test func aGzipBombStopsAtTheLimit() throws {
    let bomb = Self.gzipBomb(size: 64 << 20)  // 64 MiB of zeros in about 400 kB
    let server = try server { _ in
      .respond(status: 200, headers: ["Content-Encoding": "gzip"], body: bomb)
    }
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try source(server, cache: cache)
    let message = try #require(failure(s, zero))
    // URLSession inflates while receiving: the limit stops it (or, should a body arrive still
    // compressed, the check of the tile stops its inflation).
    #expect(
      message.hasSuffix("larger than the limit of 1048576 bytes")
        || message.contains("inflated data exceeds the limit"), "\(message)")
    #expect(cacheFiles(cache).isEmpty)
  }

  // MARK: 8. Only whole, valid tiles are cached

  @Test func aTruncatedBodyIsNotCached() throws {
    let tile = try Self.worldTile()
    let raw = LoopbackHTTPServer.rawResponse(
      status: 200,
      headers: [("Content-Length", String(tile.count)), ("Connection", "close")],
      body: tile.prefix(tile.count / 2))
    let server = try server { _ in .raw(raw) }
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try source(server, cache: cache)
    let message = try #require(failure(s, zero))
    // libcurl notices first ("transfer closed with 21184 bytes remaining to read"); the
    // source's own length check is the backstop, tested below.
    #expect(message.contains("remaining") || message.contains("ended after"), "\(message)")
    #expect(cacheFiles(cache).isEmpty)
  }

  @Test func theLengthCheckItself() throws {
    let tile = try Self.worldTile()
    func response(_ headers: [String: String]) throws -> HTTPResponseHead {
      HTTPResponseHead(status: 200, fields: headers.map { ($0.key, $0.value) })
    }
    let short = try response(["Content-Length": String(tile.count + 10)])
    #expect(
      HTTPTileSource.problem(with: tile, response: short, format: .pbf)
        == "the body ended after \(tile.count) of \(tile.count + 10) bytes")
    let exact = try response(["Content-Length": String(tile.count)])
    #expect(HTTPTileSource.problem(with: tile, response: exact, format: .pbf) == nil)
    // With Content-Encoding the length counts encoded bytes: only decoding can tell.
    let encoded = try response(["Content-Length": "10", "Content-Encoding": "gzip"])
    #expect(HTTPTileSource.problem(with: tile, response: encoded, format: .pbf) == nil)
  }

  @Test(arguments: ["html", "random", "empty-gzip"])
  func aBodyThatIsNoVectorTileIsNotCached(kind: String) throws {
    let body: Data
    switch kind {
    case "html": body = Data("<!DOCTYPE html><html><body>Rate limited</body></html>".utf8)
    case "random":
      body = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })
    default: body = Data([0x1F, 0x8B, 8, 0])  // a gzip header and nothing more
    }
    let server = try server { _ in .respond(status: 200, body: body) }
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try source(server, cache: cache)
    let message = try #require(failure(s, zero))
    #expect(message.contains("HTTP 200 but the body is not a vector tile"), "\(message)")
    #expect(message.hasSuffix("; not cached") && !message.contains("\n"))
    #expect(cacheFiles(cache).isEmpty)
  }

  @Test func rasterBodiesNeedTheirSignature() throws {
    let png =
      Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data(repeating: 0, count: 50)
    let server = try server { request in
      request.path.hasPrefix("/0/")
        ? .respond(status: 200, body: Data("<html>not an image</html>".utf8))
        : .respond(status: 200, body: png)
    }
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let s = try source(server, ext: "png", cache: cache)
    #expect(
      failure(s, zero)?.hasSuffix("HTTP 200 but the body is not a PNG image; not cached") == true)
    #expect(try s.tile(TileID(z: 1, x: 0, y: 0)) == png)
    s.waitForCacheMaintenance()
    #expect(cacheFiles(cache).map { ($0 as NSString).lastPathComponent } == ["0", "0.meta"])
  }

  @Test func aStaleGoodCopyIsServedWhenTheNewBodyIsBad() throws {
    let tile = try Self.worldTile()
    let broken = Mutex(false)
    let server = try server { _ in
      broken.withLock { $0 }
        ? .respond(status: 200, body: Data("<html>oops</html>".utf8))
        : .respond(status: 200, body: tile)
    }
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    #expect(try source(server, cache: cache).tile(zero) == tile)
    broken.withLock { $0 = true }
    let stale = try HTTPTileSource(
      template: server.baseURL + "/{z}/{x}/{y}.pbf", cacheHome: cache.url, maxAge: 0)
    #expect(try stale.tile(zero) == tile)  // revalidation failed: the cached tile stays
    stale.waitForCacheMaintenance()
    let again = try HTTPTileSource(
      template: server.baseURL + "/{z}/{x}/{y}.pbf", cacheHome: cache.url, maxAge: 3600)
    #expect(try again.tile(zero) == tile)
  }

  // MARK: 7. The disk cache's bound and its files

  @Test func theCacheDropsTheLeastRecentlyUsedTiles() throws {
    let tile = try Self.worldTile()
    let server = try server { _ in .respond(status: 200, body: tile) }
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    // One entry is the body and about 80 bytes of .meta: room for three and a half.
    let entry = tile.count + 80
    let s = try source(server, cache: cache, maxCacheBytes: entry * 7 / 2)
    let a = TileID(z: 1, x: 0, y: 0)
    let b = TileID(z: 1, x: 0, y: 1)
    let c = TileID(z: 1, x: 1, y: 0)
    let d = TileID(z: 1, x: 1, y: 1)
    for id in [a, b, c] {
      #expect(try s.tile(id) == tile)
      s.waitForCacheMaintenance()
    }
    #expect(try s.tile(a) == tile)  // a disk hit: a is now more recent than b and c
    #expect(s.statistics.diskHits == 1 && server.requests.count == 3)
    #expect(try s.tile(d) == tile)
    s.waitForCacheMaintenance()
    let present = [a, b, c, d].map {
      FileManager.default.fileExists(atPath: s.cacheFile(for: $0)!.path)
    }
    #expect(present == [true, false, true, true])
    let total = cacheFiles(cache).reduce(0) {
      $0 + TileDiskCache.size(cache.url.path + "/" + $1)
    }
    #expect(total <= s.maxCacheBytes)
    #expect(!cacheFiles(cache).contains { $0.contains(".tmp-") })
  }

  @Test func theCacheBoundFromTheEnvironment() {
    let mb = { HTTPTileSource.cacheBytesFromEnvironment($0) }
    #expect(mb([:]) == 512 << 20)
    #expect(mb(["TERMMAP_TILE_CACHE_MB": "64"]) == 64 << 20)
    #expect(mb(["TERMMAP_TILE_CACHE_MB": " 0 "]) == 0)
    for bad in ["-1", "1e9", "lots", "", "99999999999999"] {
      #expect(mb(["TERMMAP_TILE_CACHE_MB": bad]) == 512 << 20)
    }
  }

  @Test func leftoversOfAKilledWriterAreRemoved() throws {
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let dir = cache.url.appendingPathComponent("t", isDirectory: true)
    let store = TileDiskCache(directory: dir, maxBytes: 1 << 20)
    store.write(zero, body: Data("body".utf8), meta: Data("{}".utf8), keepBody: false)
    store.waitForMaintenance()
    let folder = dir.appendingPathComponent("0/0").path
    let old = Date().addingTimeInterval(-3600)
    for name in [".0.tmp-old", "5"] {  // a temporary file and a body without .meta, both old
      #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("x".utf8)))
      try FileManager.default.setAttributes(
        [.modificationDate: old], ofItemAtPath: folder + "/" + name)
    }
    #expect(FileManager.default.createFile(atPath: folder + "/.1.tmp-new", contents: Data()))
    store.scanAndPrune()
    let left = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    #expect(left == [".1.tmp-new", "0", "0.meta"])  // a fresh one may be another writer's
    #expect(store.countedBytes == 6)
  }

  @Test func writesLeaveNoTemporaryFiles() throws {
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let store = TileDiskCache(directory: cache.url, maxBytes: 1 << 20)
    for k in 0..<50 {
      store.write(
        TileID(z: 2, x: k % 4, y: 0), body: Data(repeating: UInt8(k), count: 100 + k),
        meta: Data("{}".utf8), keepBody: false)
    }
    store.waitForMaintenance()
    // Writing into a directory that is a file fails cleanly too.
    #expect(
      !TileDiskCache.writeAtomically(
        Data("x".utf8), to: cache.url.appendingPathComponent("2/0/0/x")))
    #expect(!cacheFiles(cache).contains { $0.contains(".tmp-") })
    #expect(cacheFiles(cache).count == 8)
  }
}
