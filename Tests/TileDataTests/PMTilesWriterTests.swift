import Foundation
import MapGeometry
import Testing

@testable import TileData

/// The PMTiles writer: archives it writes read back tile for tile, with leaf directories when
/// the root would pass 16 KiB, runs and shared contents.
@Suite("PMTiles writer")
struct PMTilesWriterTests {
  @Test("world.pmtiles rewritten: the same header fields, metadata and every tile")
  func rewriteWorld() throws {
    let source = try PMTilesSource(path: Repo.data.appendingPathComponent("world.pmtiles").path)
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let out = dir.file("copy.pmtiles").path
    let writer = try PMTilesWriter(path: out, header: source.header, metadata: source.metadataJSON)
    var ids: [(UInt64, TileID)] = []
    for z in Int(source.header.minZoom)...Int(source.header.maxZoom) {
      for x in 0..<(1 << z) {
        for y in 0..<(1 << z) {
          let id = TileID(z: z, x: x, y: y)
          ids.append((PMTiles.tileID(id)!, id))
        }
      }
    }
    ids.sort { $0.0 < $1.0 }
    var count = 0
    for (n, id) in ids {
      guard let data = try source.tile(id) else { continue }
      try writer.add(tileID: n, data: data)
      count += 1
    }
    let header = try writer.finish()
    #expect(!FileManager.default.fileExists(atPath: out + ".tmp"))
    #expect(!FileManager.default.fileExists(atPath: out + ".tiles.tmp"))
    let copy = try PMTilesSource(path: out)
    #expect(copy.header == header)
    #expect(copy.header.clustered)
    #expect(copy.header.addressedTilesCount == UInt64(count))
    #expect(copy.header.tileContentsCount <= copy.header.addressedTilesCount)
    #expect(copy.metadataJSON == source.metadataJSON)
    #expect(copy.header.tileType == source.header.tileType)
    #expect(copy.header.boundsDegrees == source.header.boundsDegrees)
    for (_, id) in ids { #expect(try copy.tile(id) == source.tile(id), "\(id)") }
  }

  @Test("30,000 tiles: leaf directories, the root within 16 KiB, runs and shared contents")
  func leavesRunsAndDuplicates() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let out = dir.file("many.pmtiles").path
    let template = try PMTilesSource(path: Repo.data.appendingPathComponent("world.pmtiles").path)
      .header
    let writer = try PMTilesWriter(path: out, header: template, metadata: Data("{}".utf8))
    // Zoom 8 from its first id: a run of 100 equal tiles, then distinct ones, with every
    // seventh equal to an earlier one (stored once, not as a run).
    let first = PMTiles.firstID(zoom: 8)
    func body(_ i: Int) -> Data {
      if i < 100 { return Data("sea".utf8) }
      if i % 7 == 0 { return Data("land".utf8) }
      return Data("tile \(i)".utf8)
    }
    for i in 0..<30_000 { try writer.add(tileID: first + UInt64(i), data: body(i)) }
    let h = try writer.finish()
    #expect(h.leafDirectoryLength > 0)
    #expect(h.rootOffset + h.rootLength <= UInt64(PMTiles.initialReadLength))
    #expect(h.addressedTilesCount == 30_000)
    // The run is one entry; "land" is one content.
    let distinct = Set((0..<30_000).map(body)).count
    #expect(h.tileContentsCount == UInt64(distinct))
    #expect(h.tileEntriesCount < h.addressedTilesCount)
    let archive = try PMTilesSource(path: out)
    for i in [0, 50, 99, 100, 105, 700, 12_345, 29_999] {
      let id = try #require(PMTiles.tile(forID: first + UInt64(i)))
      #expect(try archive.tile(id) == body(i), "\(i)")
    }
    #expect(throws: TileSourceError.self) {
      let w = try PMTilesWriter(
        path: dir.file("bad.pmtiles").path, header: template, metadata: Data())
      try w.add(tileID: 10, data: Data([1]))
      try w.add(tileID: 5, data: Data([2]))
    }
  }
}
