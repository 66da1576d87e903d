import Foundation
import MapGeometry

/// The binary layout of PMTiles version 3 archives
/// (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md): the 127-byte header,
/// directories, Hilbert tile ids. Pure parsing; `PMTilesSource` does the reading.
public enum PMTiles {
  /// The header's size in bytes.
  public static let headerSize = 127
  /// Header and root directory lie within this many bytes at the start (the spec's promise);
  /// the first read fetches them together.
  public static let initialReadLength = 16_384
  /// Most directory levels followed: the root and three levels of leaves (as the reference
  /// readers do). Deeper nesting is an error, which also ends cycles.
  public static let maxDirectoryDepth = 4
  /// Largest directory accepted, inflated (a real leaf is well under 1 MiB).
  public static let maxDirectoryBytes = 8 << 20
  /// Most entries accepted in one directory (24 bytes each in memory).
  public static let maxDirectoryEntries = 1 << 20
  /// Largest JSON metadata accepted, inflated.
  public static let maxMetadataBytes = 16 << 20

  /// Compression of directories, metadata (internal) or tiles.
  public enum Compression: UInt8, Sendable, CustomStringConvertible {
    /// Not stated.
    case unknown = 0
    /// Not compressed.
    case none = 1
    /// gzip.
    case gzip = 2
    /// Brotli (not read).
    case brotli = 3
    /// Zstandard (not read).
    case zstd = 4

    public var description: String {
      switch self {
      case .unknown: return "unknown"
      case .none: return "none"
      case .gzip: return "gzip"
      case .brotli: return "brotli"
      case .zstd: return "zstd"
      }
    }
  }

  /// The tile type byte (0 unknown, 1 MVT, 2 PNG, 3 JPEG, 4 WebP, 5 AVIF).
  public enum TileType: UInt8, Sendable, CustomStringConvertible {
    /// Not stated.
    case unknown = 0
    /// Mapbox Vector Tiles.
    case mvt = 1
    /// PNG.
    case png = 2
    /// JPEG.
    case jpeg = 3
    /// WebP.
    case webp = 4
    /// AVIF.
    case avif = 5

    public var description: String {
      switch self {
      case .unknown: return "unknown"
      case .mvt: return "mvt"
      case .png: return "png"
      case .jpeg: return "jpeg"
      case .webp: return "webp"
      case .avif: return "avif"
      }
    }

    /// The `TileFormat` of this type (nil for unknown and AVIF).
    public var tileFormat: TileFormat? {
      switch self {
      case .mvt: return .pbf
      case .png: return .png
      case .jpeg: return .jpg
      case .webp: return .webp
      case .unknown, .avif: return nil
      }
    }
  }

  // MARK: Hilbert tile ids

  /// The number of tiles on all zoom levels below `z`: (4^z − 1) / 3, the first id of zoom `z`.
  static func firstID(zoom z: Int) -> UInt64 {
    // 4^z − 1 as all-ones bits (z = 32 fits: 2^64 − 1).
    z <= 0 ? 0 : (UInt64.max >> UInt64(64 - 2 * min(z, 32))) / 3
  }

  /// The tile id of a tile: the tiles of all lower zooms, plus the tile's position along the
  /// Hilbert curve over its zoom's grid. Nil outside the grid or above zoom 31.
  public static func tileID(_ id: TileID) -> UInt64? {
    let z = id.z
    guard z >= 0, z <= 31 else { return nil }
    let n = 1 << z
    guard id.x >= 0, id.x < n, id.y >= 0, id.y < n else { return nil }
    var x = id.x
    var y = id.y
    var d: UInt64 = 0
    var s = n >> 1
    while s > 0 {
      let rx = x & s != 0 ? 1 : 0
      let ry = y & s != 0 ? 1 : 0
      d += UInt64((3 * rx) ^ ry) * UInt64(s) * UInt64(s)
      // Keep the lower bits and rotate the quadrant into the curve's base orientation.
      x &= s - 1
      y &= s - 1
      if ry == 0 {
        if rx == 1 {
          x = s - 1 - x
          y = s - 1 - y
        }
        swap(&x, &y)
      }
      s >>= 1
    }
    return firstID(zoom: z) + d
  }

  /// The tile of a tile id (inverse of `tileID(_:)`); nil above zoom 31.
  public static func tile(forID tileID: UInt64) -> TileID? {
    var z = 0
    while z < 32 && firstID(zoom: z + 1) <= tileID { z += 1 }
    guard z <= 31 else { return nil }
    var t = tileID - firstID(zoom: z)
    var x = 0
    var y = 0
    var s = 1
    let n = 1 << z
    while s < n {
      let rx = Int(1 & (t / 2))
      let ry = Int(1 & (t ^ UInt64(rx)))
      if ry == 0 {
        if rx == 1 {
          x = s - 1 - x
          y = s - 1 - y
        }
        swap(&x, &y)
      }
      x += s * rx
      y += s * ry
      t /= 4
      s <<= 1
    }
    return TileID(z: z, x: x, y: y)
  }

  // MARK: Header

  /// The 127-byte header of a version 3 archive. Offsets are from the start of the archive;
  /// directory entry offsets are relative to the leaf directory or tile data section.
  public struct Header: Sendable, Equatable {
    /// Where the root directory starts.
    public var rootOffset: UInt64
    /// The root directory's length in bytes.
    public var rootLength: UInt64
    /// Where the JSON metadata starts.
    public var metadataOffset: UInt64
    /// The metadata's length in bytes.
    public var metadataLength: UInt64
    /// Where the leaf directories start.
    public var leafDirectoryOffset: UInt64
    /// The leaf directories' length in bytes.
    public var leafDirectoryLength: UInt64
    /// Where the tile data starts.
    public var tileDataOffset: UInt64
    /// The tile data's length in bytes.
    public var tileDataLength: UInt64
    /// Tiles that have an address (0: unknown).
    public var addressedTilesCount: UInt64
    /// Directory entries (0: unknown).
    public var tileEntriesCount: UInt64
    /// Distinct tile contents (0: unknown).
    public var tileContentsCount: UInt64
    /// Whether tile data is ordered by tile id.
    public var clustered: Bool
    /// The raw compression bytes (see `Compression`).
    public var internalCompressionCode: UInt8
    /// The raw compression byte of tiles.
    public var tileCompressionCode: UInt8
    /// The raw tile type byte.
    public var tileTypeCode: UInt8
    /// The lowest zoom with tiles.
    public var minZoom: UInt8
    /// The highest zoom with tiles.
    public var maxZoom: UInt8
    /// Degrees × 10,000,000.
    public var minLonE7: Int32
    /// The bounds' south edge, in 10^-7 degrees.
    public var minLatE7: Int32
    /// The bounds' east edge, in 10^-7 degrees.
    public var maxLonE7: Int32
    /// The bounds' north edge, in 10^-7 degrees.
    public var maxLatE7: Int32
    /// The zoom of the suggested first view.
    public var centerZoom: UInt8
    /// The longitude of the suggested first view, in 10^-7 degrees.
    public var centerLonE7: Int32
    /// The latitude of the suggested first view, in 10^-7 degrees.
    public var centerLatE7: Int32

    /// The compression of directories and metadata (nil: a code this reader does not know).
    public var internalCompression: Compression? { Compression(rawValue: internalCompressionCode) }
    /// The compression of tiles (nil: a code this reader does not know).
    public var tileCompression: Compression? { Compression(rawValue: tileCompressionCode) }
    /// The tiles' type (nil: a code this reader does not know).
    public var tileType: TileType? { TileType(rawValue: tileTypeCode) }

    /// `bounds` as degrees (west, south, east, north).
    public var boundsDegrees: (west: Double, south: Double, east: Double, north: Double) {
      (
        Double(minLonE7) / 1e7, Double(minLatE7) / 1e7, Double(maxLonE7) / 1e7,
        Double(maxLatE7) / 1e7
      )
    }

    /// Parses a header. `location` names the archive in errors.
    public static func parse(_ data: Data, location: String) throws -> Header {
      let b = [UInt8](data.prefix(headerSize))
      let magic = Array("PMTiles".utf8)
      if b.count >= 7, !b.starts(with: magic) {
        // Version 1 and 2 archives start with "PM" and a 16-bit version.
        if b.starts(with: [0x50, 0x4d]), b[3] == 0, (1...2).contains(b[2]) {
          throw TileSourceError.readFailed(
            path: location,
            message: "unsupported PMTiles version \(b[2]) (only version 3 is read)")
        }
        throw TileSourceError.readFailed(
          path: location, message: "not a PMTiles archive (no \"PMTiles\" magic at byte 0)")
      }
      guard b.count == headerSize else {
        throw TileSourceError.readFailed(
          path: location,
          message: "invalid PMTiles archive: header truncated (\(b.count) of \(headerSize) bytes)")
      }
      guard b[7] == 3 else {
        throw TileSourceError.readFailed(
          path: location, message: "unsupported PMTiles version \(b[7]) (only version 3 is read)")
      }
      func u64(_ at: Int) -> UInt64 {
        var v: UInt64 = 0
        for i in (0..<8).reversed() { v = v << 8 | UInt64(b[at + i]) }
        return v
      }
      func i32(_ at: Int) -> Int32 {
        var v: UInt32 = 0
        for i in (0..<4).reversed() { v = v << 8 | UInt32(b[at + i]) }
        return Int32(bitPattern: v)
      }
      return Header(
        rootOffset: u64(8), rootLength: u64(16), metadataOffset: u64(24),
        metadataLength: u64(32), leafDirectoryOffset: u64(40), leafDirectoryLength: u64(48),
        tileDataOffset: u64(56), tileDataLength: u64(64), addressedTilesCount: u64(72),
        tileEntriesCount: u64(80), tileContentsCount: u64(88), clustered: b[96] == 1,
        internalCompressionCode: b[97], tileCompressionCode: b[98], tileTypeCode: b[99],
        minZoom: b[100], maxZoom: b[101], minLonE7: i32(102), minLatE7: i32(106),
        maxLonE7: i32(110), maxLatE7: i32(114), centerZoom: b[118], centerLonE7: i32(119),
        centerLatE7: i32(123))
    }

    /// Checks that every section lies within an archive of `size` bytes (when known) and that
    /// the compressions are ones this library reads.
    func validate(size: UInt64?, location: String) throws {
      func fail(_ message: String) -> TileSourceError {
        .readFailed(path: location, message: "invalid PMTiles archive: \(message)")
      }
      for c in [("internal", internalCompressionCode), ("tile", tileCompressionCode)] {
        switch Compression(rawValue: c.1) {
        case .none?, .gzip?, .unknown?: break
        case let other?:
          throw TileSourceError.readFailed(
            path: location,
            message: "unsupported PMTiles \(c.0) compression \(other) (only none and gzip are read)"
          )
        case nil:
          throw fail("unknown \(c.0) compression code \(c.1) (byte \(c.0 == "tile" ? 98 : 97))")
        }
      }
      guard rootLength > 0 else { throw fail("empty root directory (byte 16)") }
      let sections: [(String, UInt64, UInt64, Int)] = [
        ("root directory", rootOffset, rootLength, 8),
        ("metadata", metadataOffset, metadataLength, 24),
        ("leaf directories", leafDirectoryOffset, leafDirectoryLength, 40),
        ("tile data", tileDataOffset, tileDataLength, 56),
      ]
      for (name, offset, length, field) in sections {
        let (end, overflow) = offset.addingReportingOverflow(length)
        if overflow || (size.map { end > $0 } ?? false) {
          throw fail(
            "\(name) (bytes \(offset)..<\(overflow ? "overflow" : String(end)), header byte "
              + "\(field)) ends past the end of the archive (\(size.map(String.init) ?? "?") bytes)"
          )
        }
      }
      guard minZoom <= maxZoom else {
        throw fail("min zoom \(minZoom) above max zoom \(maxZoom) (byte 100)")
      }
    }
  }

  // MARK: Directories

  /// One decoded directory: entries sorted by tile id, stored column by column.
  public struct Directory: Sendable, Equatable {
    /// The entries' first tile ids, ascending.
    public var tileIDs: [UInt64] = []
    /// 0: the entry points to a leaf directory; otherwise the number of consecutive tile ids
    /// sharing the data.
    public var runLengths: [UInt32] = []
    /// The entries' data lengths in bytes.
    public var lengths: [UInt32] = []
    /// Relative to the tile data section (tiles) or the leaf directory section (leaves).
    public var offsets: [UInt64] = []

    /// How many entries the directory has.
    public var count: Int { tileIDs.count }

    /// Approximate memory held, for the directory cache.
    var byteCount: Int { 64 + count * 24 }

    /// The entry covering `tileID`: the last entry at or before it that is a leaf directory or
    /// whose run reaches it. Nil when no entry covers it.
    public func entryIndex(for tileID: UInt64) -> Int? {
      var lo = 0
      var hi = count  // first index with tileIDs[i] > tileID
      while lo < hi {
        let mid = (lo + hi) / 2
        if tileIDs[mid] <= tileID { lo = mid + 1 } else { hi = mid }
      }
      let i = lo - 1
      guard i >= 0 else { return nil }
      if runLengths[i] == 0 { return i }
      return tileID - tileIDs[i] < UInt64(runLengths[i]) ? i : nil
    }

    /// Decodes an uncompressed directory: the entry count, then tile id deltas, run lengths,
    /// lengths and offsets (0 = right after the previous entry, else offset + 1), all varints.
    /// `at` (the directory's byte offset in the archive) and `location` go into errors.
    public static func decode(_ bytes: [UInt8], location: String, at: UInt64) throws
      -> Directory
    {
      var reader = VarintReader(bytes: bytes)
      func fail(_ message: String) -> TileSourceError {
        .readFailed(
          path: location, message: "invalid PMTiles archive: directory at byte \(at): \(message)")
      }
      func next(_ what: String) throws -> UInt64 {
        switch reader.next() {
        case .value(let v): return v
        case .end: throw fail("ends early (reading \(what), \(bytes.count) bytes)")
        case .overflow: throw fail("varint overflows 64 bits (\(what), byte \(reader.position))")
        }
      }
      let n = try next("the entry count")
      guard n > 0 else { throw fail("no entries") }
      // Each entry takes at least four bytes, so a larger count cannot be genuine.
      guard n <= UInt64(maxDirectoryEntries), n <= UInt64(max(0, bytes.count - reader.position) / 4)
      else {
        throw fail("\(n) entries cannot fit in \(bytes.count) bytes")
      }
      let count = Int(n)
      var d = Directory()
      d.tileIDs.reserveCapacity(count)
      d.runLengths.reserveCapacity(count)
      d.lengths.reserveCapacity(count)
      d.offsets.reserveCapacity(count)
      var last: UInt64 = 0
      for i in 0..<count {
        let delta = try next("tile id \(i)")
        if i > 0 && delta == 0 { throw fail("tile ids not ascending (entry \(i))") }
        let (id, overflow) = last.addingReportingOverflow(delta)
        guard !overflow else { throw fail("tile id overflows 64 bits (entry \(i))") }
        d.tileIDs.append(id)
        last = id
      }
      for i in 0..<count {
        let run = try next("run length \(i)")
        guard run <= UInt64(UInt32.max) else {
          throw fail("run length \(run) too large (entry \(i))")
        }
        d.runLengths.append(UInt32(run))
      }
      for i in 0..<count {
        let length = try next("length \(i)")
        guard length > 0, length <= UInt64(UInt32.max) else {
          throw fail("invalid length \(length) (entry \(i))")
        }
        d.lengths.append(UInt32(length))
      }
      for i in 0..<count {
        let raw = try next("offset \(i)")
        if raw == 0 {
          guard i > 0 else { throw fail("first offset refers to a previous entry") }
          let (o, overflow) = d.offsets[i - 1].addingReportingOverflow(UInt64(d.lengths[i - 1]))
          guard !overflow else { throw fail("offset overflows 64 bits (entry \(i))") }
          d.offsets.append(o)
        } else {
          d.offsets.append(raw - 1)
        }
      }
      return d
    }
  }

  /// Reads LEB128 varints (at most 10 bytes, 64 bits).
  struct VarintReader {
    let bytes: [UInt8]
    var position = 0

    enum Next { case value(UInt64), end, overflow }

    mutating func next() -> Next {
      var result: UInt64 = 0
      var shift: UInt64 = 0
      while true {
        guard position < bytes.count else { return .end }
        let b = bytes[position]
        position += 1
        if shift == 63 && b > 1 { return .overflow }
        result |= UInt64(b & 0x7f) << shift
        if b & 0x80 == 0 { return .value(result) }
        shift += 7
        if shift > 63 { return .overflow }
      }
    }
  }

  /// Inflates a directory or the metadata according to the internal compression.
  static func decompress(
    _ data: Data, compression: Compression?, limit: Int, what: String, location: String,
    at: UInt64
  ) throws -> Data {
    do {
      switch compression {
      case .gzip?: return try Inflate.decompress(data, limit: limit)
      case .unknown?: return try Inflate.decompressIfNeeded(data, limit: limit)
      default:
        guard data.count <= limit else { throw InflateError.tooLarge(limit: limit) }
        return data
      }
    } catch {
      throw TileSourceError.readFailed(
        path: location, message: "invalid PMTiles archive: \(what) at byte \(at): \(error)")
    }
  }
}
