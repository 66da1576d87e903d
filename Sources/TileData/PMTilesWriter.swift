import CZlib
import Foundation
import MapGeometry

/// gzip compression of whole buffers (PMTiles directories and metadata).
public enum Deflate {
  /// `data` as one gzip member (zlib's default level).
  public static func gzip(_ data: Data) -> Data {
    var stream = z_stream()
    guard czlib_deflateInit2(&stream, Z_DEFAULT_COMPRESSION, 31) == Z_OK else { return Data() }
    defer { deflateEnd(&stream) }
    let bound = Int(deflateBound(&stream, uLong(data.count))) + 32
    var out = Data(count: bound)
    let written = data.withUnsafeBytes { (input: UnsafeRawBufferPointer) -> Int in
      out.withUnsafeMutableBytes { (output: UnsafeMutableRawBufferPointer) -> Int in
        stream.next_in = UnsafeMutablePointer(
          mutating: input.bindMemory(to: Bytef.self).baseAddress ?? UnsafePointer(bitPattern: 1)!)
        stream.avail_in = uInt(input.count)
        stream.next_out = output.bindMemory(to: Bytef.self).baseAddress
        stream.avail_out = uInt(output.count)
        let r = deflate(&stream, Z_FINISH)
        return r == Z_STREAM_END ? Int(stream.total_out) : -1
      }
    }
    guard written >= 0 else { return Data() }
    out.count = written
    return out
  }
}

extension PMTiles {
  /// One entry of a directory: a tile (its data's offset and length in the tile data section,
  /// and how many consecutive tile ids share it) or, with `runLength` 0, a leaf directory
  /// (offset and length in the leaf directory section).
  public struct Entry: Sendable, Equatable {
    /// The first tile id the entry covers.
    public var tileID: UInt64
    /// Where the data starts, in its section.
    public var offset: UInt64
    /// The data's length in bytes.
    public var length: UInt32
    /// Consecutive ids sharing the data; 0 for a leaf directory.
    public var runLength: UInt32

    /// An entry.
    public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
      self.tileID = tileID
      self.offset = offset
      self.length = length
      self.runLength = runLength
    }
  }

  static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
    var v = value
    while v >= 0x80 {
      out.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    out.append(UInt8(v))
  }

  /// A directory's bytes, uncompressed (the spec's layout: count, id deltas, run lengths,
  /// lengths, offsets with 0 for "right after the previous entry").
  public static func encodeDirectory(_ entries: [Entry]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(entries.count * 6 + 4)
    appendVarint(UInt64(entries.count), to: &out)
    var last: UInt64 = 0
    for e in entries {
      appendVarint(e.tileID - last, to: &out)
      last = e.tileID
    }
    for e in entries { appendVarint(UInt64(e.runLength), to: &out) }
    for e in entries { appendVarint(UInt64(e.length), to: &out) }
    for (i, e) in entries.enumerated() {
      if i > 0, e.offset == entries[i - 1].offset + UInt64(entries[i - 1].length) {
        appendVarint(0, to: &out)
      } else {
        appendVarint(e.offset + 1, to: &out)
      }
    }
    return out
  }

  /// The root directory and leaf directories for `entries` (ascending tile ids), compressed
  /// with `compression`, so that the header and root fit in the first 16 KiB: all entries in
  /// the root when they fit, else leaves of at least 4,096 entries (grown by a fifth until the
  /// root fits), as the reference writer lays them out.
  public static func buildDirectories(_ entries: [Entry], compression: Compression) -> (
    root: Data, leaves: Data, leafCount: Int
  ) {
    func pack(_ e: [Entry]) -> Data {
      let raw = Data(encodeDirectory(e))
      return compression == .gzip ? Deflate.gzip(raw) : raw
    }
    let rootLimit = initialReadLength - headerSize
    if entries.count < 16_384 {
      let root = pack(entries)
      if root.count <= rootLimit { return (root, Data(), 0) }
    }
    var leafSize = max(Double(entries.count) / 3_500, 4_096)
    while true {
      var rootEntries: [Entry] = []
      var leaves = Data()
      let size = Int(leafSize)
      var start = 0
      while start < entries.count {
        let chunk = Array(entries[start..<min(start + size, entries.count)])
        let bytes = pack(chunk)
        rootEntries.append(
          Entry(
            tileID: chunk[0].tileID, offset: UInt64(leaves.count), length: UInt32(bytes.count),
            runLength: 0))
        leaves.append(bytes)
        start += size
      }
      let root = pack(rootEntries)
      if root.count <= rootLimit { return (root, leaves, rootEntries.count) }
      leafSize *= 1.2
    }
  }
}

extension PMTiles.Header {
  /// A header for a new archive (for `PMTilesWriter`, which sets the offsets and counts):
  /// clustered, gzip-compressed directories and metadata, the centre in the bounds' middle.
  public init(
    tileType: PMTiles.TileType, tileCompression: PMTiles.Compression, minZoom: Int,
    maxZoom: Int, west: Double, south: Double, east: Double, north: Double
  ) {
    func e7(_ v: Double) -> Int32 { Int32((v * 1e7).rounded()) }
    self.init(
      rootOffset: 0, rootLength: 0, metadataOffset: 0, metadataLength: 0, leafDirectoryOffset: 0,
      leafDirectoryLength: 0, tileDataOffset: 0, tileDataLength: 0, addressedTilesCount: 0,
      tileEntriesCount: 0, tileContentsCount: 0, clustered: true,
      internalCompressionCode: PMTiles.Compression.gzip.rawValue,
      tileCompressionCode: tileCompression.rawValue, tileTypeCode: tileType.rawValue,
      minZoom: UInt8(clamping: minZoom), maxZoom: UInt8(clamping: maxZoom), minLonE7: e7(west),
      minLatE7: e7(south), maxLonE7: e7(east), maxLatE7: e7(north),
      centerZoom: UInt8(clamping: minZoom), centerLonE7: e7((west + east) / 2),
      centerLatE7: e7((south + north) / 2))
  }

  /// The header's 127 bytes.
  public func encoded() -> [UInt8] {
    var b = [UInt8](repeating: 0, count: PMTiles.headerSize)
    b.replaceSubrange(0..<7, with: Array("PMTiles".utf8))
    b[7] = 3
    func u64(_ v: UInt64, _ at: Int) {
      for i in 0..<8 { b[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(i))) }
    }
    func i32(_ v: Int32, _ at: Int) {
      let u = UInt32(bitPattern: v)
      for i in 0..<4 { b[at + i] = UInt8(truncatingIfNeeded: u >> (8 * UInt32(i))) }
    }
    u64(rootOffset, 8)
    u64(rootLength, 16)
    u64(metadataOffset, 24)
    u64(metadataLength, 32)
    u64(leafDirectoryOffset, 40)
    u64(leafDirectoryLength, 48)
    u64(tileDataOffset, 56)
    u64(tileDataLength, 64)
    u64(addressedTilesCount, 72)
    u64(tileEntriesCount, 80)
    u64(tileContentsCount, 88)
    b[96] = clustered ? 1 : 0
    b[97] = internalCompressionCode
    b[98] = tileCompressionCode
    b[99] = tileTypeCode
    b[100] = minZoom
    b[101] = maxZoom
    i32(minLonE7, 102)
    i32(minLatE7, 106)
    i32(maxLonE7, 110)
    i32(maxLatE7, 114)
    b[118] = centerZoom
    i32(centerLonE7, 119)
    i32(centerLatE7, 123)
    return b
  }
}

/// Writes a clustered PMTiles v3 archive. Tiles are added in ascending tile id order; their
/// bytes go to a temporary file beside the output as they come (consecutive ids with the same
/// bytes become one run, and bytes seen before are stored once), so memory holds only the
/// entries (about 24 bytes a tile) and a hash per distinct tile. `finish()` writes the header,
/// the root directory, the metadata and the leaf directories to a second temporary file, copies
/// the tile data after them and renames it to `path`: a half-written archive never has the
/// final name.
public final class PMTilesWriter {
  /// Where the archive goes.
  public let path: String
  private let template: PMTiles.Header
  private let metadata: Data
  private let dataPath: String
  private var dataFile: FileHandle?
  /// The spool opened for reading, once.
  private var dataReader: Int32 = -1
  private var dataLength: UInt64 = 0
  private var entries: [PMTiles.Entry] = []
  private var seen: [UInt64: [(offset: UInt64, length: UInt32)]] = [:]
  private var contents: UInt64 = 0
  private var addressed: UInt64 = 0

  /// Starts an archive at `path` whose tile type, compressions, zooms, bounds and centre are
  /// `header`'s (offsets and counts are the writer's); `metadata` is the JSON metadata,
  /// compressed here with the header's internal compression.
  public init(path: String, header: PMTiles.Header, metadata: Data) throws {
    self.path = path
    self.template = header
    self.metadata = metadata
    dataPath = path + ".tiles.tmp"
    _ = FileManager.default.createFile(atPath: dataPath, contents: nil)
    guard let file = FileHandle(forWritingAtPath: dataPath) else {
      throw TileSourceError.readFailed(path: dataPath, message: "cannot be created")
    }
    try file.truncate(atOffset: 0)
    dataFile = file
    dataReader = open(dataPath, O_RDONLY | O_CLOEXEC)
    guard dataReader >= 0 else {
      throw TileSourceError.readFailed(path: dataPath, message: "cannot be read back")
    }
  }

  deinit {
    abandon()
    if dataReader >= 0 { close(dataReader) }
  }

  /// Tiles added so far (addressed ids, counting runs).
  public var tileCount: UInt64 { addressed }

  /// Adds a tile; ids must ascend.
  public func add(tileID: UInt64, data: Data) throws {
    guard let dataFile else { throw TileSourceError.readFailed(path: path, message: "closed") }
    guard !data.isEmpty, data.count <= Int(UInt32.max) else {
      throw TileSourceError.readFailed(path: path, message: "tile \(tileID): empty or too large")
    }
    if let last = entries.last {
      guard tileID >= last.tileID + UInt64(last.runLength) else {
        throw TileSourceError.readFailed(
          path: path, message: "tile ids must ascend (\(tileID) after \(last.tileID))")
      }
    }
    addressed += 1
    let hash = FNV1a.hash(data)
    let length = UInt32(data.count)
    var found: UInt64?
    for candidate in seen[hash] ?? [] where candidate.length == length {
      if try read(offset: candidate.offset, length: Int(length)) == data {
        found = candidate.offset
        break
      }
    }
    if let offset = found, var last = entries.last, last.offset == offset,
      last.length == length, last.tileID + UInt64(last.runLength) == tileID,
      last.runLength < UInt32.max
    {
      last.runLength += 1
      entries[entries.count - 1] = last
      return
    }
    let offset: UInt64
    if let found {
      offset = found
    } else {
      offset = dataLength
      try dataFile.write(contentsOf: data)
      dataLength += UInt64(data.count)
      seen[hash, default: []].append((offset, length))
      contents += 1
    }
    entries.append(PMTiles.Entry(tileID: tileID, offset: offset, length: length, runLength: 1))
  }

  /// Bytes already in the spool (to compare a tile with an earlier one of the same hash).
  private func read(offset: UInt64, length: Int) throws -> Data {
    var bytes = Data(count: length)
    let got = bytes.withUnsafeMutableBytes { raw in
      pread(dataReader, raw.baseAddress, length, off_t(offset))
    }
    guard got == length else {
      throw TileSourceError.readFailed(path: dataPath, message: "cannot be read back")
    }
    return bytes
  }

  /// Writes the archive and moves it to `path`; returns its header.
  @discardableResult
  public func finish() throws -> PMTiles.Header {
    guard let dataFile else { throw TileSourceError.readFailed(path: path, message: "closed") }
    try dataFile.synchronize()
    try dataFile.close()
    self.dataFile = nil
    let compression = template.internalCompression ?? .none
    let dirs = PMTiles.buildDirectories(entries, compression: compression)
    let meta = compression == .gzip ? Deflate.gzip(metadata) : metadata
    var h = template
    h.rootOffset = UInt64(PMTiles.headerSize)
    h.rootLength = UInt64(dirs.root.count)
    h.metadataOffset = h.rootOffset + h.rootLength
    h.metadataLength = UInt64(meta.count)
    h.leafDirectoryOffset = h.metadataOffset + h.metadataLength
    h.leafDirectoryLength = UInt64(dirs.leaves.count)
    h.tileDataOffset = h.leafDirectoryOffset + h.leafDirectoryLength
    h.tileDataLength = dataLength
    h.addressedTilesCount = addressed
    h.tileEntriesCount = UInt64(entries.count)
    h.tileContentsCount = contents
    h.clustered = true
    let partial = path + ".tmp"
    _ = FileManager.default.createFile(atPath: partial, contents: nil)
    guard let out = FileHandle(forWritingAtPath: partial) else {
      throw TileSourceError.readFailed(path: partial, message: "cannot be created")
    }
    do {
      try out.truncate(atOffset: 0)
      try out.write(contentsOf: Data(h.encoded()))
      try out.write(contentsOf: dirs.root)
      try out.write(contentsOf: meta)
      try out.write(contentsOf: dirs.leaves)
      guard let tiles = FileHandle(forReadingAtPath: dataPath) else {
        throw TileSourceError.readFailed(path: dataPath, message: "cannot be read")
      }
      defer { try? tiles.close() }
      while let chunk = try tiles.read(upToCount: 1 << 20), !chunk.isEmpty {
        try out.write(contentsOf: chunk)
      }
      try out.synchronize()
      try out.close()
    } catch {
      try? out.close()
      unlink(partial)
      throw TileSourceError.readFailed(path: path, message: "cannot be written: \(error)")
    }
    unlink(dataPath)
    guard rename(partial, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(partial)
      throw TileSourceError.readFailed(path: path, message: "cannot be written: \(reason)")
    }
    return h
  }

  /// Drops what was written (the temporary files).
  public func abandon() {
    if let dataFile {
      try? dataFile.close()
      self.dataFile = nil
      unlink(dataPath)
    }
  }
}
