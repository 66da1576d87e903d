import Foundation
import MapGeometry
import Synchronization
import Testing

@testable import TileData

/// Cutting a region from an archive: which ids, which leaves, which byte ranges.
@Suite("PMTiles extract: planning a cut")
struct PMTilesExtractTests {
  /// Counts the reads of an archive file.
  final class CountingReader: ByteRangeReader {
    let inner: FileByteRangeReader
    let reads = Mutex<[(UInt64, Int)]>([])
    var location: String { inner.location }
    init(_ path: String) throws { inner = try FileByteRangeReader(path: path) }
    func read(offset: UInt64, length: Int, expecting: ArchiveVersion?) throws -> (
      data: Data, version: ArchiveVersion
    ) {
      reads.withLock { $0.append((offset, length)) }
      return try inner.read(offset: offset, length: length, expecting: expecting)
    }
  }

  @Test("ids: every tile of each zoom that meets the box, across the antimeridian too")
  func wantedIDs() {
    let ids = PMTilesExtract.wantedIDs(
      west: 5, south: 45, east: 16, north: 55, minZoom: 0, maxZoom: 6)
    let tiles = ids.compactMap(PMTiles.tile(forID:))
    #expect(tiles.filter { $0.z == 6 }.count == 3 * 4)
    #expect(ids == ids.sorted())
    let across = PMTilesExtract.wantedIDs(
      west: 170, south: -10, east: -170, north: 10, minZoom: 2, maxZoom: 2)
    #expect(Set(across.compactMap(PMTiles.tile(forID:)).map(\.x)) == [0, 3])
  }

  @Test("a cut of an archive with leaf directories reads only the leaves it needs")
  func onlyNeededLeaves() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = dir.file("z9.pmtiles").path
    var header = try PMTilesSource(path: Repo.data.appendingPathComponent("world.pmtiles").path)
      .header
    header.minZoom = 9
    header.maxZoom = 9
    let writer = try PMTilesWriter(path: path, header: header, metadata: Data("{}".utf8))
    let first = PMTiles.firstID(zoom: 9)
    let count = 1 << 18
    for i in 0..<count { try writer.add(tileID: first + UInt64(i), data: Data("t\(i)".utf8)) }
    let h = try writer.finish()
    try #require(h.leafDirectoryLength > 0)
    let reader = try CountingReader(path)
    let plan = try PMTilesExtract.plan(
      reader: reader, west: 13.3, south: 52.45, east: 13.5, north: 52.55, maxZoom: 15)
    let expected = PMTilesExtract.wantedIDs(
      west: 13.3, south: 52.45, east: 13.5, north: 52.55, minZoom: 9, maxZoom: 9)
    #expect(plan.tiles.map(\.tileID) == expected)
    #expect(plan.maxZoom == 9)
    // The header and root in one read, then a few leaves: far fewer than the archive has.
    let leaves = reader.reads.withLock { $0.count } - 1
    #expect(plan.directoryRequests == 1 + leaves)
    #expect(leaves >= 1 && leaves <= 4, "\(leaves)")
    #expect(plan.fetchBytes <= plan.tileBytes + plan.tileBytes / 10)
    let out = dir.file("cut.pmtiles").path
    try plan.download(to: out, parallel: 3)
    let cut = try PMTilesSource(path: out)
    for id in expected {
      let t = try #require(PMTiles.tile(forID: id))
      #expect(try cut.tile(t) == Data("t\(id - first)".utf8))
    }
  }

  @Test("ranges: touching pieces joined, small gaps merged within the budget, big ones not")
  func mergeRanges() {
    typealias T = PMTilesExtract.Tile
    let tiles = [
      T(tileID: 1, offset: 0, length: 100), T(tileID: 2, offset: 100, length: 100),
      T(tileID: 3, offset: 205, length: 100), T(tileID: 4, offset: 10_000, length: 100),
      T(tileID: 5, offset: 0, length: 100),
    ]
    let merged = PMTilesExtract.mergeRanges(tiles, base: 1000, overFetch: 0.05, maxBytes: 1 << 20)
    #expect(
      merged == [
        .init(offset: 1000, length: 305), .init(offset: 11_000, length: 100),
      ])
    let strict = PMTilesExtract.mergeRanges(tiles, base: 0, overFetch: 0, maxBytes: 1 << 20)
    #expect(strict.count == 3)
  }
}

@Suite("Dropping vector tile layers")
struct LayerFilterTests {
  @Test("the named layers go; every other layer is kept byte for byte and decodes the same")
  func dropPlaces() throws {
    for name in Repo.expectedTiles {
      let raw = try Inflate.decompressIfNeeded(try Repo.storedTile(name))
      let before = try VectorTileDecoder.decode(raw)
      let names = before.layers.map(\.name)
      let drop: Set = ["place", "boundary", "not-there"]
      let after = try VectorTileDecoder.decode(VectorTileLayerFilter.dropping(drop, from: raw))
      #expect(after.layers.map(\.name) == names.filter { !drop.contains($0) }, "\(name)")
      for layer in after.layers {
        let original = try #require(before.layers.first { $0.name == layer.name })
        #expect(layer.count == original.count, "\(name) \(layer.name)")
      }
      #expect(try VectorTileLayerFilter.dropping([], from: raw) == raw)
    }
    #expect(throws: TileSourceError.self) {
      _ = try VectorTileLayerFilter.dropping(["x"], from: Data([0x1a, 0x7f, 0x01]))
    }
  }
}
