import Foundation
import MapGeometry
import Testing

@testable import TileData

extension Repo {
  static var worldPMTiles: String { data.appendingPathComponent("world.pmtiles").path }
}

@Suite("PMTiles: tile ids and directories") struct PMTilesFormatTests {
  @Test("Hilbert tile ids: the spec's first ids, and a round trip over zooms 0-8")
  func tileIDs() {
    #expect(PMTiles.tileID(TileID(z: 0, x: 0, y: 0)) == 0)
    // Zoom 1 follows the curve: (0,0) (0,1) (1,1) (1,0).
    #expect(PMTiles.tileID(TileID(z: 1, x: 0, y: 0)) == 1)
    #expect(PMTiles.tileID(TileID(z: 1, x: 0, y: 1)) == 2)
    #expect(PMTiles.tileID(TileID(z: 1, x: 1, y: 1)) == 3)
    #expect(PMTiles.tileID(TileID(z: 1, x: 1, y: 0)) == 4)
    #expect(PMTiles.tileID(TileID(z: 2, x: 0, y: 0)) == 5)
    #expect(PMTiles.tileID(TileID(z: 3, x: 0, y: 0)) == 21)
    #expect(PMTiles.tileID(TileID(z: 12, x: 3423, y: 1763)) == 19_078_479)
    #expect(PMTiles.tileID(TileID(z: 1, x: 2, y: 0)) == nil)
    #expect(PMTiles.tileID(TileID(z: 32, x: 0, y: 0)) == nil)
    var seen = Set<UInt64>()
    for z in 0...8 {
      for x in 0..<(1 << z) {
        for y in 0..<(1 << z) {
          let id = TileID(z: z, x: x, y: y)
          let t = PMTiles.tileID(id)!
          #expect(t >= PMTiles.firstID(zoom: z) && t < PMTiles.firstID(zoom: z + 1))
          seen.insert(t)
          if PMTiles.tile(forID: t) != id {
            Issue.record("\(id) → \(t) → \(PMTiles.tile(forID: t)!)")
          }
        }
      }
    }
    #expect(seen.count == Int(PMTiles.firstID(zoom: 9)))  // a bijection onto 0..<87381
    let deep = TileID(z: 30, x: 1 << 29 | 12345, y: 987_654_321)
    #expect(PMTiles.tileID(deep) == 1_055_057_634_186_502_205)  // as the Python package computes
    #expect(PMTiles.tile(forID: PMTiles.tileID(deep)!) == deep)
    let deepest = TileID(z: 31, x: (1 << 31) - 1, y: 0)
    #expect(PMTiles.tile(forID: PMTiles.tileID(deepest)!) == deepest)
  }

  @Test("a directory decodes: delta ids, run lengths, lengths, offsets with 0 = contiguous")
  func directory() throws {
    let entries = [
      TestEntry(tileID: 0, offset: 0, length: 10, runLength: 1),
      TestEntry(tileID: 1, offset: 10, length: 5, runLength: 3),
      TestEntry(tileID: 9, offset: 0, length: 10, runLength: 1),
      TestEntry(tileID: 300, offset: 100, length: 7, runLength: 0),
    ]
    let bytes = PMTilesTestWriter.directory(entries)
    let d = try PMTiles.Directory.decode(bytes, location: "x", at: 127)
    #expect(d.tileIDs == [0, 1, 9, 300])
    #expect(d.runLengths == [1, 3, 0 + 1, 0])
    #expect(d.lengths == [10, 5, 10, 7])
    #expect(d.offsets == [0, 10, 0, 100])
    #expect(d.entryIndex(for: 0) == 0)
    #expect(d.entryIndex(for: 3) == 1)  // inside the run 1..<4
    #expect(d.entryIndex(for: 4) == nil)
    #expect(d.entryIndex(for: 10) == nil)
    #expect(d.entryIndex(for: 299) == nil)
    #expect(d.entryIndex(for: 5000) == 3)  // a leaf covers everything after its first id
  }

  @Test("directory errors name the byte offset")
  func directoryErrors() {
    func message(_ bytes: [UInt8]) -> String? {
      errorText { _ = try PMTiles.Directory.decode(bytes, location: "a.pmtiles", at: 500) }
    }
    #expect(
      message([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02])
        == "a.pmtiles: invalid PMTiles archive: directory at byte 500: varint overflows 64 bits "
        + "(the entry count, byte 10)")
    #expect(
      message([0]) == "a.pmtiles: invalid PMTiles archive: directory at byte 500: no entries")
    #expect(
      message([100, 1, 1, 1, 1])
        == "a.pmtiles: invalid PMTiles archive: directory at byte 500: 100 entries cannot fit "
        + "in 5 bytes")
    #expect(
      message([2, 0x80, 0x01, 1, 1, 1, 5, 5, 1])
        == "a.pmtiles: invalid PMTiles archive: directory at byte 500: ends early (reading "
        + "offset 1, 9 bytes)")
    #expect(
      message([2, 1, 0, 1, 1, 5, 5, 1, 0])
        == "a.pmtiles: invalid PMTiles archive: directory at byte 500: tile ids not ascending "
        + "(entry 1)")
    #expect(
      message([1, 0, 1, 0, 1])
        == "a.pmtiles: invalid PMTiles archive: directory at byte 500: invalid length 0 (entry 0)")
    #expect(
      message([1, 0, 1, 4, 0])
        == "a.pmtiles: invalid PMTiles archive: directory at byte 500: first offset refers to a "
        + "previous entry")
  }
}

@Suite("PMTiles: local archives") struct PMTilesLocalTests {
  @Test(
    "every tile of world.pmtiles (written by the Python pmtiles package) is the tile tippecanoe wrote"
  )
  func worldMatchesManifest() throws {
    // Data/tools/expected/world-tiles.json: per zoom, the count, bytes and FNV-1a of the tiles
    // in tippecanoe's MBTiles, read by SQLite when the archive was built.
    let data = try Data(contentsOf: Repo.expected.appendingPathComponent("world-tiles.json"))
    let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let zooms = try #require(manifest["zooms"] as? [String: [String: Any]])
    let pm = try PMTilesSource(path: Repo.worldPMTiles)
    #expect(pm.minZoom == 0 && pm.maxZoom == zooms.count - 1)
    var found = 0
    for z in pm.minZoom...pm.maxZoom {
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      var count = 0
      var bytes = 0
      for x in 0..<(1 << z) {
        for y in 0..<(1 << z) {
          guard let tile = try pm.tile(TileID(z: z, x: x, y: y)) else { continue }
          for b in tile {
            hash ^= UInt64(b)
            hash = hash &* 0x100_0000_01b3
          }
          count += 1
          bytes += tile.count
        }
      }
      let expected = try #require(zooms[String(z)])
      #expect(count == expected["tiles"] as? Int, "zoom \(z)")
      #expect(bytes == expected["bytes"] as? Int, "zoom \(z)")
      #expect(String(format: "%016llx", hash) == expected["fnv1a64"] as? String, "zoom \(z)")
      found += count
    }
    #expect(found == manifest["tiles"] as? Int)
    #expect(pm.statistics.tileReads == found)
    #expect(try pm.tile(TileID(z: 0, x: 0, y: 0)) == (try Repo.storedTile("world-0-0-0")))
    #expect(try pm.tile(TileID(z: 6, x: 33, y: 23)) == (try Repo.storedTile("world-6-33-23")))
  }

  @Test("header and metadata of world.pmtiles match its tiles in an MBTiles file")
  func worldMetadata() throws {
    let pm = try PMTilesSource(path: Repo.worldPMTiles)
    let mb = try MBTilesSource(path: Repo.worldMBTiles)
    #expect(pm.name == "termmap world")
    #expect(pm.name == mb.name)
    #expect(pm.minZoom == 0 && pm.maxZoom == 8)
    #expect(pm.minZoom == mb.minZoom && pm.maxZoom == mb.maxZoom)
    #expect(pm.format == .pbf)
    #expect(pm.attribution == mb.attribution)
    #expect(pm.attribution.hasPrefix("Made with Natural Earth"))
    #expect(pm.vectorLayers == mb.vectorLayers)
    #expect(pm.vectorLayers.contains("water") && pm.vectorLayers.contains("place"))
    let a = try #require(pm.bounds)
    let b = try #require(mb.bounds)
    // E7 integers against 6-decimal text: equal to far below a map point's size at zoom 8.
    #expect(abs(a.minX - b.minX) < 1 && abs(a.maxX - b.maxX) < 1)
    #expect(abs(a.minY - b.minY) < 1 && abs(a.maxY - b.maxY) < 1)
    let h = pm.header
    #expect(h.tileType == .mvt)
    #expect(h.tileCompression == .gzip)
    #expect(h.internalCompression == .gzip)
    #expect(h.clustered)
    #expect(h.addressedTilesCount == 24789)
    #expect(h.rootOffset == 127)
    #expect(h.leafDirectoryLength > 0)  // 24,789 tiles need leaf directories
    #expect(h.centerZoom == 8)
    #expect(h.minLonE7 == -1_800_000_000 && h.maxLatE7 == 850_511_000)
    let meta = try #require(
      try JSONSerialization.jsonObject(with: pm.metadataJSON) as? [String: Any])
    #expect(meta["description"] as? String == mb.metadata["description"])
    #expect(pm.covers(TileID(z: 8, x: 133, y: 93)))
    #expect(!pm.covers(TileID(z: 9, x: 266, y: 186)))
  }

  @Test("a generated archive with leaf directories, runs and shared offsets; the leaf cache")
  func leaves() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let tiles = PMTilesTestWriter.sampleTiles()
    for leafSize in [nil, 1, 4, 1000] as [Int?] {
      let path = try PMTilesTestWriter.archive(tiles: tiles, leafSize: leafSize)
        .writeTemporary(dir, "leaves-\(leafSize ?? 0).pmtiles")
      let s = try PMTilesSource(path: path)
      #expect(s.name == "test")
      #expect(s.attribution == "© test")
      #expect(s.vectorLayers == ["a", "b"])
      #expect(s.maxZoom == 3)
      for (id, bytes) in tiles {
        #expect(try s.tile(id) == bytes, "\(id) leaf size \(leafSize ?? 0)")
      }
      #expect(try s.tile(TileID(z: 3, x: 7, y: 7)) == nil)
      #expect(try s.tile(TileID(z: 4, x: 0, y: 0)) == nil)
      #expect(try s.tile(TileID(z: 2, x: 9, y: 0)) == nil)
      let stats = s.statistics
      if let leafSize, leafSize >= 4 {
        let leafCount = (s.header.tileEntriesCount + UInt64(leafSize) - 1) / UInt64(leafSize)
        #expect(stats.directoryReads == Int(leafCount))  // each leaf read once, then cached
        #expect(stats.directoryCacheHits > 0)
      } else if leafSize == nil {
        #expect(stats.directoryReads == 0)
      }
    }
  }

  @Test("the leaf cache is bounded by its count")
  func boundedCache() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let tiles = PMTilesTestWriter.sampleTiles()
    let path = try PMTilesTestWriter.archive(tiles: tiles, leafSize: 1)
      .writeTemporary(dir, "one.pmtiles")
    let s = try PMTilesSource(path: path, directoryCacheCount: 3)
    for (id, bytes) in tiles { #expect(try s.tile(id) == bytes) }
    #expect(s.cachedDirectoryCount == 3)
  }

  @Test("loadTile delivers the tile off the caller's thread")
  func asyncLoad() async throws {
    let s = try PMTilesSource(path: Repo.worldPMTiles)
    let data = try await s.loadTile(TileID(z: 6, x: 33, y: 23))
    #expect(data == (try Repo.storedTile("world-6-33-23")))
  }
}

@Suite("PMTiles: malformed archives") struct PMTilesMalformedTests {
  let tiles = PMTilesTestWriter.sampleTiles()

  func open(_ data: Data, _ dir: TemporaryDirectory, _ name: String = "bad.pmtiles") throws
    -> (String, String?)
  {
    let path = try data.writeTemporary(dir, name)
    return (path, errorText { _ = try PMTilesSource(path: path) })
  }

  /// Opens an archive in memory and reads every tile; returns the first error's text.
  func openAndRead(_ data: Data) -> String? {
    errorText {
      let s = try PMTilesSource(data: data, location: "fuzz.pmtiles")
      for id in tiles.keys { _ = try s.tile(id) }
    }
  }

  @Test("errors at open: magic, version, truncation, sections past the end, compressions, types")
  func openErrors() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let good = PMTilesTestWriter.archive(tiles: tiles)

    var (path, m) = try open(Data("hello, world\nthis is text\n".utf8), dir)
    #expect(m == "\(path): not a PMTiles archive (no \"PMTiles\" magic at byte 0)")

    (path, m) = try open(Data([0x50, 0x4d, 2, 0]) + Data(count: 600), dir)
    #expect(m == "\(path): unsupported PMTiles version 2 (only version 3 is read)")

    var v4 = good
    v4[7] = 4
    (path, m) = try open(v4, dir)
    #expect(m == "\(path): unsupported PMTiles version 4 (only version 3 is read)")

    (path, m) = try open(good.prefix(60), dir)
    #expect(m == "\(path): invalid PMTiles archive: header truncated (60 of 127 bytes)")

    (path, m) = try open(Data(), dir)
    #expect(m == "\(path): invalid PMTiles archive: header truncated (0 of 127 bytes)")

    (path, m) = try open(good.prefix(300), dir)
    #expect(
      m?.hasPrefix("\(path): invalid PMTiles archive: metadata (bytes ") == true
        || m?.hasPrefix("\(path): invalid PMTiles archive: root directory (bytes ") == true)
    #expect(m?.hasSuffix("ends past the end of the archive (300 bytes)") == true)

    var pastEnd = good
    PMTilesTestWriter.patch(&pastEnd, u64: UInt64(good.count), at: 56)  // tile data offset
    (path, m) = try open(pastEnd, dir)
    let dataLength = good.count - Int(try PMTiles.Header.parse(good, location: "").tileDataOffset)
    #expect(
      m == "\(path): invalid PMTiles archive: tile data (bytes \(good.count)..<"
        + "\(good.count + dataLength), header byte 56) ends past the end of the archive "
        + "(\(good.count) bytes)")

    var huge = good
    PMTilesTestWriter.patch(&huge, u64: UInt64.max - 5, at: 16)  // root length
    (path, m) = try open(huge, dir)
    #expect(
      m == "\(path): invalid PMTiles archive: root directory (bytes 127..<overflow, header "
        + "byte 8) ends past the end of the archive (\(good.count) bytes)")

    var brotli = good
    brotli[97] = 3
    (path, m) = try open(brotli, dir)
    #expect(
      m == "\(path): unsupported PMTiles internal compression brotli (only none and gzip are read)")

    var zstd = good
    zstd[98] = 4
    (path, m) = try open(zstd, dir)
    #expect(m == "\(path): unsupported PMTiles tile compression zstd (only none and gzip are read)")

    var avif = good
    avif[99] = 5
    (path, m) = try open(avif, dir)
    #expect(m == "\(path): unsupported tile format \"avif\"")

    var emptyRoot = good
    PMTilesTestWriter.patch(&emptyRoot, u64: 0, at: 16)
    (path, m) = try open(emptyRoot, dir)
    #expect(m == "\(path): invalid PMTiles archive: empty root directory (byte 16)")

    // The root claims gzip but is not.
    var notGzip = good
    notGzip[97] = 2
    (path, m) = try open(notGzip, dir)
    #expect(
      m == "\(path): invalid PMTiles archive: directory at byte 127: corrupt compressed data: "
        + "incorrect header check")

    #expect(
      errorText { _ = try PMTilesSource(path: dir.path + "/nope.pmtiles") }
        == "\(dir.path)/nope.pmtiles: no such file or directory")
  }

  @Test("world.pmtiles cut short or with a corrupt root directory")
  func worldDamaged() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let handle = try #require(FileHandle(forReadingAtPath: Repo.worldPMTiles))
    let head = try #require(try handle.read(upToCount: 50_000))
    try handle.close()
    // Root directory 127..<178, metadata 178..<2556, leaf directories 2556..<46969, tile data
    // from 46969.
    var (path, m) = try open(head.prefix(150), dir)
    #expect(
      m == "\(path): invalid PMTiles archive: root directory (bytes 127..<178, header byte 8) "
        + "ends past the end of the archive (150 bytes)")
    (path, m) = try open(head.prefix(20_000), dir)
    #expect(
      m == "\(path): invalid PMTiles archive: leaf directories (bytes 2556..<46969, header byte "
        + "40) ends past the end of the archive (20000 bytes)")
    (path, m) = try open(head.prefix(50_000), dir)
    #expect(
      m == "\(path): invalid PMTiles archive: tile data (bytes 46969..<19358660, header byte 56) "
        + "ends past the end of the archive (50000 bytes)")
    var corrupt = head
    for i in 140..<160 { corrupt[i] ^= 0x5a }
    // Cut short, so the section check would fail first: patch the size to the cut file.
    PMTilesTestWriter.patch(&corrupt, u64: 50_000 - 46969, at: 64)
    (path, m) = try open(corrupt, dir)
    #expect(
      m == "\(path): invalid PMTiles archive: directory at byte 127: corrupt compressed data: "
        + "invalid distance too far back")
  }

  @Test("tile and leaf pointers out of range, cycles and deep nesting")
  func lookupErrors() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let dir4 = PMTilesTestWriter.directory
    let t00 = TileID(z: 0, x: 0, y: 0)

    // A tile reaching past the tile data section.
    var data = PMTilesTestWriter.assemble(
      root: dir4([TestEntry(tileID: 0, offset: 2, length: 9, runLength: 1)]), metadata: [],
      leaves: [], tileData: Array("0123456789".utf8))
    var path = try data.writeTemporary(dir, "tile.pmtiles")
    #expect(
      errorText { _ = try PMTilesSource(path: path).tile(t00) }
        == "\(path): invalid PMTiles archive: tile 0/0/0 (bytes 2 + 9 of the tile data at byte "
        + "\(data.count - 10)) lies outside the tile data section (10 bytes)")

    // A leaf pointing to itself.
    let selfLeaf = dir4([TestEntry(tileID: 0, offset: 0, length: 5, runLength: 0)])
    #expect(selfLeaf.count == 5)
    data = PMTilesTestWriter.assemble(
      root: dir4([TestEntry(tileID: 0, offset: 0, length: 5, runLength: 0)]), metadata: [],
      leaves: selfLeaf, tileData: [1])
    path = try data.writeTemporary(dir, "cycle.pmtiles")
    let leafAt = 127 + 5
    #expect(
      errorText { _ = try PMTilesSource(path: path).tile(t00) }
        == "\(path): invalid PMTiles archive: leaf directory at byte \(leafAt) refers back to a "
        + "directory above it (a cycle)")

    // Leaves nested four deep: each points to the next.
    var leaves: [UInt8] = []
    for level in 0..<5 {
      let next = dir4([
        TestEntry(tileID: 0, offset: UInt64((level + 1) * 5), length: 5, runLength: 0)
      ])
      leaves += next
    }
    data = PMTilesTestWriter.assemble(
      root: dir4([TestEntry(tileID: 0, offset: 0, length: 5, runLength: 0)]), metadata: [],
      leaves: leaves, tileData: [1])
    path = try data.writeTemporary(dir, "deep.pmtiles")
    #expect(
      errorText { _ = try PMTilesSource(path: path).tile(t00) }
        == "\(path): invalid PMTiles archive: leaf directories nested deeper than 3 levels "
        + "(tile 0/0/0)")

    // A leaf outside its section.
    data = PMTilesTestWriter.assemble(
      root: dir4([TestEntry(tileID: 0, offset: 3, length: 5, runLength: 0)]), metadata: [],
      leaves: selfLeaf, tileData: [1])
    path = try data.writeTemporary(dir, "leafout.pmtiles")
    #expect(
      errorText { _ = try PMTilesSource(path: path).tile(t00) }
        == "\(path): invalid PMTiles archive: leaf directory (bytes 3 + 5 of the leaf section "
        + "at byte 132) lies outside the leaf directory section (5 bytes)")

    // Metadata that is not JSON.
    data = PMTilesTestWriter.assemble(
      root: dir4([TestEntry(tileID: 0, offset: 0, length: 1, runLength: 1)]),
      metadata: Array("{nope".utf8), leaves: [], tileData: [1])
    path = try data.writeTemporary(dir, "meta.pmtiles")
    #expect(
      errorText { _ = try PMTilesSource(path: path) }
        == "\(path): invalid PMTiles archive: metadata at byte 132 is not JSON")
  }

  @Test("truncations at every offset and 3,000 seeded corruptions never crash")
  func fuzz() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    var outcomes = [String: Int]()
    for leafSize in [nil, 3] as [Int?] {
      let good = PMTilesTestWriter.archive(tiles: tiles, leafSize: leafSize)
      // Through a file for a few cuts, in memory for all (the parsing is the same).
      for cut in [0, 100, 127, 128, good.count / 2, good.count - 1] {
        let path = try good.prefix(cut).writeTemporary(dir, "cut.pmtiles")
        #expect(errorText { _ = try PMTilesSource(path: path) }?.hasPrefix(path + ": ") == true)
      }
      for cut in 0..<good.count {
        let m = openAndRead(good.prefix(cut))
        // Every cut loses something: an error at open or when reading.
        if m == nil { Issue.record("cut at \(cut) of \(good.count) read without an error") }
        outcomes["truncated", default: 0] += 1
      }
      var random = SplitMix64(seed: 0x504d_5469_6c65_73 &+ UInt64(leafSize ?? 0))
      for _ in 0..<1500 {
        var bad = good
        for _ in 0..<Int.random(in: 1...4, using: &random) {
          bad[Int.random(in: 0..<bad.count, using: &random)] = UInt8.random(
            in: 0...255, using: &random)
        }
        outcomes[openAndRead(bad) == nil ? "read" : "error", default: 0] += 1
      }
    }
    #expect(outcomes["truncated"] ?? 0 > 1000)
    #expect(outcomes["error"] ?? 0 > 100)
    #expect(outcomes["read"] ?? 0 > 0)  // corruptions of tile bytes read as other bytes
  }

  @Test("world.pmtiles cut at 25 offsets: an error at open or for the tiles lost")
  func worldTruncations() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let whole = try Data(contentsOf: URL(fileURLWithPath: Repo.worldPMTiles))
    var random = SplitMix64(seed: 7)
    let cuts =
      [0, 1, 7, 8, 126, 127, 128, 177, 178, 2555, 2556, 9000, 46968, 46969]
      + (0..<11).map { _ in Int.random(in: 46970..<whole.count, using: &random) }
    for cut in cuts {
      let path = try whole.prefix(cut).writeTemporary(dir, "world-cut.pmtiles")
      let m = errorText {
        let s = try PMTilesSource(path: path)
        _ = try s.tile(TileID(z: 0, x: 0, y: 0))
      }
      #expect(m != nil, "cut at \(cut)")
      #expect(m?.hasPrefix(path + ": ") == true)
    }
  }
}
