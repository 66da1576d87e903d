import Foundation
import MapGeometry

@testable import TileData

/// One directory entry of a hand-made archive.
struct TestEntry {
  var tileID: UInt64
  var offset: UInt64
  var length: UInt32
  var runLength: UInt32
}

/// Writes small PMTiles v3 archives for tests (directories and metadata uncompressed unless
/// given pre-compressed bytes). Written from the spec; the independent check is
/// Data/world.pmtiles, written by the Python `pmtiles` package.
enum PMTilesTestWriter {
  static func varint(_ v: UInt64, into out: inout [UInt8]) {
    var v = v
    while v >= 0x80 {
      out.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    out.append(UInt8(v))
  }

  /// A serialized (uncompressed) directory.
  static func directory(_ entries: [TestEntry]) -> [UInt8] {
    var out: [UInt8] = []
    varint(UInt64(entries.count), into: &out)
    var last: UInt64 = 0
    for e in entries {
      varint(e.tileID - last, into: &out)
      last = e.tileID
    }
    for e in entries { varint(UInt64(e.runLength), into: &out) }
    for e in entries { varint(UInt64(e.length), into: &out) }
    for (i, e) in entries.enumerated() {
      if i > 0 && e.offset == entries[i - 1].offset + UInt64(entries[i - 1].length) {
        varint(0, into: &out)
      } else {
        varint(e.offset + 1, into: &out)
      }
    }
    return out
  }

  struct HeaderFields {
    var internalCompression: UInt8 = 1
    var tileCompression: UInt8 = 1
    var tileType: UInt8 = 1
    var minZoom: UInt8 = 0
    var maxZoom: UInt8 = 3
    var bounds: (Int32, Int32, Int32, Int32) = (
      -1_800_000_000, -850_511_287, 1_800_000_000, 850_511_287
    )
  }

  /// Lays out header, root, metadata, leaves and tile data.
  static func assemble(
    root: [UInt8], metadata: [UInt8], leaves: [UInt8], tileData: [UInt8],
    fields: HeaderFields = HeaderFields(), counts: (UInt64, UInt64, UInt64) = (0, 0, 0)
  ) -> Data {
    let rootOffset = UInt64(PMTiles.headerSize)
    let metadataOffset = rootOffset + UInt64(root.count)
    let leafOffset = metadataOffset + UInt64(metadata.count)
    let tileOffset = leafOffset + UInt64(leaves.count)
    var h: [UInt8] = Array("PMTiles".utf8) + [3]
    func u64(_ v: UInt64) { for i in 0..<8 { h.append(UInt8((v >> (8 * UInt64(i))) & 0xff)) } }
    func i32(_ v: Int32) {
      let u = UInt32(bitPattern: v)
      for i in 0..<4 { h.append(UInt8((u >> (8 * UInt32(i))) & 0xff)) }
    }
    u64(rootOffset)
    u64(UInt64(root.count))
    u64(metadataOffset)
    u64(UInt64(metadata.count))
    u64(leafOffset)
    u64(UInt64(leaves.count))
    u64(tileOffset)
    u64(UInt64(tileData.count))
    u64(counts.0)
    u64(counts.1)
    u64(counts.2)
    h += [1, fields.internalCompression, fields.tileCompression, fields.tileType]
    h += [fields.minZoom, fields.maxZoom]
    i32(fields.bounds.0)
    i32(fields.bounds.1)
    i32(fields.bounds.2)
    i32(fields.bounds.3)
    h.append(fields.minZoom)
    i32(0)
    i32(0)
    precondition(h.count == PMTiles.headerSize)
    return Data(h + root + metadata + leaves + tileData)
  }

  /// An archive of `tiles` (bytes as given, identical bytes at consecutive ids share one run,
  /// identical bytes elsewhere one offset). With `leafSize`, the root points to leaves of that
  /// many entries each.
  static func archive(
    tiles: [TileID: Data], leafSize: Int? = nil,
    metadata: String =
      #"{"name":"test","attribution":"© test","vector_layers":[{"id":"a"},{"id":"b"}]}"#,
    fields: HeaderFields = HeaderFields()
  ) -> Data {
    let sorted = tiles.map { (PMTiles.tileID($0.key)!, $0.value) }.sorted { $0.0 < $1.0 }
    var entries: [TestEntry] = []
    var data: [UInt8] = []
    var offsets: [Data: UInt64] = [:]
    for (id, bytes) in sorted {
      if let last = entries.last, last.tileID + UInt64(last.runLength) == id,
        offsets[bytes] == last.offset
      {
        entries[entries.count - 1].runLength += 1
        continue
      }
      let offset: UInt64
      if let known = offsets[bytes] {
        offset = known
      } else {
        offset = UInt64(data.count)
        offsets[bytes] = offset
        data += bytes
      }
      entries.append(
        TestEntry(tileID: id, offset: offset, length: UInt32(bytes.count), runLength: 1))
    }
    var root: [UInt8]
    var leaves: [UInt8] = []
    if let leafSize {
      var rootEntries: [TestEntry] = []
      var i = 0
      while i < entries.count {
        let chunk = Array(entries[i..<min(entries.count, i + leafSize)])
        let bytes = directory(chunk)
        rootEntries.append(
          TestEntry(
            tileID: chunk[0].tileID, offset: UInt64(leaves.count), length: UInt32(bytes.count),
            runLength: 0))
        leaves += bytes
        i += leafSize
      }
      root = directory(rootEntries)
    } else {
      root = directory(entries)
    }
    let addressed = entries.reduce(UInt64(0)) { $0 + UInt64($1.runLength) }
    return assemble(
      root: root, metadata: Array(metadata.utf8), leaves: leaves, tileData: data, fields: fields,
      counts: (addressed, UInt64(entries.count), UInt64(offsets.count)))
  }

  /// A small archive: every tile of zooms 0-3 (85 tiles), each a few distinct bytes, except
  /// a run of identical tiles on zoom 3 and no tile at 3/7/7.
  static func sampleTiles() -> [TileID: Data] {
    var tiles: [TileID: Data] = [:]
    for z in 0...3 {
      for x in 0..<(1 << z) {
        for y in 0..<(1 << z) {
          let id = TileID(z: z, x: x, y: y)
          if z == 3 && x == 7 && y == 7 { continue }
          // Zoom 3, x < 2: identical "ocean" tiles (run lengths and shared offsets).
          tiles[id] = z == 3 && x < 2 ? Data("ocean".utf8) : Data("tile \(z)/\(x)/\(y)".utf8)
        }
      }
    }
    return tiles
  }

  /// Patches a little-endian 64-bit header field.
  static func patch(_ data: inout Data, u64 value: UInt64, at offset: Int) {
    for i in 0..<8 { data[offset + i] = UInt8((value >> (8 * UInt64(i))) & 0xff) }
  }
}

extension Data {
  /// Writes the data to a temporary file and returns its path.
  func writeTemporary(_ dir: TemporaryDirectory, _ name: String) throws -> String {
    let url = dir.file(name)
    try write(to: url)
    return url.path
  }
}
