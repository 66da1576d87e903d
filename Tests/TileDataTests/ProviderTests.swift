import Foundation
import MapGeometry
import Synchronization
import Testing

@testable import TileData

/// A source that counts reads and serves a fixed set of tiles.
final class CountingSource: TileSource {
  let tiles: [TileID: Data]
  let minZoom: Int
  let maxZoom: Int
  let bounds: MapRect? = nil
  let attribution = ""
  let vectorLayers: [String] = []
  let format = TileFormat.pbf
  let name = "counting"
  let reads = Mutex(0)

  init(tiles: [TileID: Data], minZoom: Int = 0, maxZoom: Int) {
    self.tiles = tiles
    self.minZoom = minZoom
    self.maxZoom = maxZoom
  }

  func tile(_ id: TileID) throws -> Data? {
    reads.withLock { $0 += 1 }
    return tiles[id]
  }
}

@Suite struct ProviderTests {
  @Test func decodesAndCaches() throws {
    let source = CountingSource(
      tiles: [TileID(z: 0, x: 0, y: 0): try Repo.storedTile("world-0-0-0")], maxZoom: 6)
    let provider = try VectorTileProvider(source: source)
    let tile = try #require(try provider.decodedTile(TileID(z: 0, x: 0, y: 0)))
    #expect(tile.layer(named: "water")?.count == 15)
    #expect(try provider.decodedTile(TileID(z: 0, x: 0, y: 0)) != nil)
    #expect(try provider.decodedTile(TileID(z: 1, x: 0, y: 0)) == nil)
    #expect(try provider.decodedTile(TileID(z: 1, x: 0, y: 0)) == nil)
    #expect(source.reads.withLock { $0 } == 2, "hits and misses are both cached")
    #expect(tile.approximateByteCount > 42_367 / 2)
    #expect(provider.cache.totalCost >= tile.approximateByteCount)
  }

  @Test func brokenTilesThrowAndAreCached() throws {
    let stored = try Repo.storedTile("world-0-0-0")
    let source = CountingSource(
      tiles: [
        TileID(z: 0, x: 0, y: 0): stored, TileID(z: 1, x: 0, y: 0): stored.prefix(100),
        TileID(z: 1, x: 1, y: 0): Data([0x1a, 0x7f]),
      ], maxZoom: 2)
    let provider = try VectorTileProvider(source: source)
    #expect(throws: InflateError.truncated(inputBytes: 100)) {
      try provider.decodedTile(TileID(z: 1, x: 0, y: 0))
    }
    #expect(throws: VectorTileError.self) { try provider.decodedTile(TileID(z: 1, x: 1, y: 0)) }
    #expect(throws: InflateError.self) { try provider.decodedTile(TileID(z: 1, x: 0, y: 0)) }
    #expect(source.reads.withLock { $0 } == 2)
    // A broken tile counts as missing for overzoom: its parent stands in.
    let best = try #require(provider.bestAvailable(for: TileID(z: 2, x: 1, y: 1)))
    #expect(best.sourceID == TileID(z: 0, x: 0, y: 0))
    #expect(best.scale == 4)
  }

  @Test func overzoomAboveMaxZoom() throws {
    let provider = try VectorTileProvider(source: try MBTilesSource(path: Repo.worldMBTiles))
    // z10 tile inside 8/133/93 (Monaco and Nice).
    let id = TileID(z: 10, x: 133 * 4 + 1, y: 93 * 4 + 2)
    let best = try #require(provider.bestAvailable(for: id))
    #expect(best.sourceID == TileID(z: 8, x: 133, y: 93))
    #expect(best.requestedID == id)
    #expect(best.scale == 4)
    #expect(best.isOverzoomed)
    #expect(best.tile.layer(named: "place") != nil)
    #expect(best.sourceBox(extent: 4096) == TileBox(minX: 1024, minY: 2048, maxX: 2048, maxY: 3072))
    // The tile itself when present.
    let exact = try #require(provider.bestAvailable(for: TileID(z: 8, x: 133, y: 93)))
    #expect(
      exact.sourceID == TileID(z: 8, x: 133, y: 93) && exact.scale == 1 && !exact.isOverzoomed)
    #expect(exact.sourceBox(extent: 4096) == TileBox(minX: 0, minY: 0, maxX: 4096, maxY: 4096))
    // Very deep zooms still find it.
    let deep = TileID(z: 20, x: (133 << 12) + 5, y: (93 << 12) + 9)
    #expect(provider.bestAvailable(for: deep)?.sourceID == TileID(z: 8, x: 133, y: 93))
    #expect(provider.bestAvailable(for: deep)?.scale == 1 << 12)
  }

  @Test func missingTileFallsBackToItsAncestor() throws {
    let world = try VectorTileProvider(source: try MBTilesSource(path: Repo.worldMBTiles))
    // The file has no 6/4/62 (empty ocean) but has 5/2/31.
    #expect(try world.decodedTile(TileID(z: 6, x: 4, y: 62)) == nil)
    let best = try #require(world.bestAvailable(for: TileID(z: 6, x: 4, y: 62)))
    #expect(best.sourceID == TileID(z: 5, x: 2, y: 31))
    #expect(best.scale == 2)
    #expect(
      best.sourceBox(extent: 4096) == TileBox(minX: 0, minY: 0, maxX: 2048, maxY: 2048),
      "y 62 is the upper half of row 31")

    // Monaco's tiles reach past its bounds (the extract's box); look there too.
    let monaco = try VectorTileProvider(
      source: Unbounded(inner: try MBTilesSource(path: Repo.monacoMBTiles)))
    // 14/8528/5973 is missing; 13/4264/2986 exists.
    #expect(
      monaco.bestAvailable(for: TileID(z: 14, x: 8528, y: 5973))?.sourceID
        == TileID(z: 13, x: 4264, y: 2986))
    // Below minzoom: nothing, without lookups.
    #expect(monaco.bestAvailable(for: TileID(z: 9, x: 266, y: 186)) == nil)
    #expect(monaco.cache.count == 2, "14/8528/5973 (missing) and its parent")
    // Outside the bounds: nothing, without lookups.
    let bounded = try VectorTileProvider(source: try MBTilesSource(path: Repo.monacoMBTiles))
    #expect(bounded.bestAvailable(for: TileID(z: 14, x: 0, y: 0)) == nil)
    #expect(bounded.cache.count == 0)
    #expect(monaco.bestAvailable(for: TileID(z: 3, x: 9, y: 9)) == nil, "outside the grid")
  }

  @Test func cachedOnlyLookup() throws {
    let provider = try VectorTileProvider(source: try MBTilesSource(path: Repo.worldMBTiles))
    let id = TileID(z: 7, x: 66, y: 46)
    #expect(provider.bestCached(for: id) == nil)
    _ = try provider.decodedTile(TileID(z: 5, x: 16, y: 11))
    #expect(provider.bestCached(for: id)?.sourceID == TileID(z: 5, x: 16, y: 11))
    _ = try provider.decodedTile(TileID(z: 6, x: 33, y: 23))
    #expect(provider.bestCached(for: id)?.sourceID == TileID(z: 6, x: 33, y: 23))
  }

  @Test func layerFilter() throws {
    let provider = try VectorTileProvider(
      source: try MBTilesSource(path: Repo.worldMBTiles), layers: ["place"])
    let tile = try #require(try provider.decodedTile(TileID(z: 0, x: 0, y: 0)))
    #expect(tile.layerNames == ["place"])
  }

  @Test func asyncAndConcurrentLoads() async throws {
    let source = CountingSource(
      tiles: [TileID(z: 0, x: 0, y: 0): try Repo.storedTile("world-0-0-0")], maxZoom: 0)
    let provider = try VectorTileProvider(source: source)
    try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<16 {
        group.addTask { try provider.decodedTile(TileID(z: 0, x: 0, y: 0))?.featureCount ?? 0 }
      }
      for try await n in group { #expect(n == 331 + 134 + 197 + 15) }
    }
    #expect(source.reads.withLock { $0 } == 1, "one read for concurrent requests")
    let viaAsync = try await provider.loadTile(TileID(z: 0, x: 0, y: 0))
    #expect(viaAsync?.featureCount == 677)

    let fresh = try VectorTileProvider(source: source)
    let loaded = try await fresh.loadTile(TileID(z: 0, x: 0, y: 0))
    #expect(loaded?.layer(named: "place")?.count == 197)
    #expect(fresh.cachedEntry(TileID(z: 0, x: 0, y: 0)) != nil)
  }

  @Test func cacheBoundsApplyToDecodedTiles() throws {
    let provider = try VectorTileProvider(
      source: try MBTilesSource(path: Repo.worldMBTiles), cacheCount: 4, cacheBytes: 10 << 20)
    for x in 30..<40 { _ = try provider.decodedTile(TileID(z: 6, x: x, y: 23)) }
    #expect(provider.cache.count == 4)
    #expect(provider.cache.keysByRecency.first == TileID(z: 6, x: 39, y: 23))
    let small = try VectorTileProvider(
      source: try MBTilesSource(path: Repo.worldMBTiles), cacheCount: 100, cacheBytes: 200_000)
    for x in 30..<40 { _ = try small.decodedTile(TileID(z: 6, x: x, y: 23)) }
    #expect(small.cache.totalCost <= 200_000)
    #expect(small.cache.count < 10)
  }
}

/// A source seen without its bounds.
struct Unbounded: TileSource {
  let inner: MBTilesSource
  var minZoom: Int { inner.minZoom }
  var maxZoom: Int { inner.maxZoom }
  var bounds: MapRect? { nil }
  var attribution: String { inner.attribution }
  var vectorLayers: [String] { inner.vectorLayers }
  var format: TileFormat { inner.format }
  var name: String { inner.name }
  func tile(_ id: TileID) throws -> Data? { try inner.tile(id) }
}
