import Dispatch
import Foundation
import MapGeometry
import Synchronization

/// A region cut from a PMTiles archive, local or over HTTP, as PMTiles intends it: the header
/// and root directory in one read, only the leaf directories that cover the region, the tiles
/// of the region's zooms, their byte ranges merged where the gaps between them cost little,
/// fetched several at a time, and written as a new clustered archive (`PMTilesWriter`).
public struct PMTilesExtract: Sendable {
  /// The source archive's header and metadata (JSON, decompressed).
  public let header: PMTiles.Header
  /// The source's metadata (JSON).
  public let metadata: Data
  /// The region, in degrees (west may be greater than east: across the antimeridian).
  public let west: Double
  /// The region's southern edge.
  public let south: Double
  /// The region's eastern edge.
  public let east: Double
  /// The region's northern edge.
  public let north: Double
  /// The shallowest zoom cut (the source's).
  public let minZoom: Int
  /// The deepest zoom cut.
  public let maxZoom: Int
  /// The tiles the archive has in the region, ascending by tile id: the id and where the data
  /// is in the tile data section.
  public let tiles: [Tile]
  /// Tiles per zoom (index = zoom).
  public let tilesPerZoom: [Int]
  /// The byte ranges to fetch, absolute offsets in the archive, ascending.
  public let ranges: [ByteRange]
  /// Requests already made: one for the header and root, one per run of adjacent leaf
  /// directories read.
  public let directoryRequests: Int
  let location: String
  let version: ArchiveVersion

  /// A tile of the region.
  public struct Tile: Sendable, Equatable {
    /// The tile's PMTiles id.
    public var tileID: UInt64
    /// Where its data starts.
    public var offset: UInt64
    /// Its data's length.
    public var length: UInt32
  }

  /// A contiguous range to fetch.
  public struct ByteRange: Sendable, Equatable {
    /// Where its data starts.
    public var offset: UInt64
    /// The range's length.
    public var length: UInt64
  }

  /// The bytes of distinct tile contents (what is kept).
  public var tileBytes: UInt64 {
    var seen = Set<UInt64>()
    var total: UInt64 = 0
    for t in tiles where seen.insert(t.offset).inserted { total += UInt64(t.length) }
    return total
  }

  /// The bytes the ranges fetch (the kept bytes and the gaps merged over).
  public var fetchBytes: UInt64 { ranges.reduce(0) { $0 + $1.length } }

  /// Requests in all: the directories already read and one per range.
  public var requests: Int { directoryRequests + ranges.count }

  /// The most one merged range may be (it is held in memory while it arrives).
  public static let maxRangeBytes: UInt64 = 16 << 20

  /// Plans the cut: reads the header, the root and the leaf directories the region needs.
  /// `overFetch` is the share of the kept bytes that gaps merged into ranges may add.
  static func plan(
    reader: any ByteRangeReader, west: Double, south: Double, east: Double, north: Double,
    maxZoom requestedMax: Int, parallel: Int = 4, overFetch: Double = 0.05
  ) throws -> PMTilesExtract {
    let location = reader.location
    let (archive, head) = try PMTilesSource.readArchive(reader, generation: 0)
    let header = archive.header
    var metadata = Data("{}".utf8)
    if header.metadataLength > 0, header.metadataLength <= UInt64(PMTiles.maxMetadataBytes) {
      let stored = try PMTilesSource.read(
        reader, offset: header.metadataOffset, length: header.metadataLength, what: "metadata",
        version: archive.version, head: head)
      metadata = try PMTiles.decompress(
        stored, compression: header.internalCompression, limit: PMTiles.maxMetadataBytes,
        what: "metadata", location: location, at: header.metadataOffset)
    }
    var requests = 1
    if header.metadataOffset + header.metadataLength > UInt64(head.count) { requests += 1 }
    let minZoom = Int(header.minZoom)
    let maxZoom = min(requestedMax, Int(header.maxZoom))
    let wanted = wantedIDs(
      west: west, south: south, east: east, north: north, minZoom: minZoom, maxZoom: maxZoom)
    var tiles: [Tile] = []
    // Walks a directory: tile entries give the wanted ids they cover; leaves that cover any
    // wanted id are read and walked in turn, leaves that lie back to back in the file in one
    // request (a writer stores them in tile-id order, so a region's leaves are mostly a run).
    func walk(_ dir: PMTiles.Directory, depth: Int) throws {
      var leaves: [(offset: UInt64, length: UInt64)] = []
      for i in 0..<dir.count {
        let first = dir.tileIDs[i]
        if dir.runLengths[i] == 0 {
          let end = i + 1 < dir.count ? dir.tileIDs[i + 1] : UInt64.max
          guard anyWanted(wanted, from: first, below: end) else { continue }
          guard depth < PMTiles.maxDirectoryDepth - 1 else {
            throw TileSourceError.readFailed(
              path: location, message: "invalid PMTiles archive: directories nested too deep")
          }
          leaves.append((header.leafDirectoryOffset + dir.offsets[i], UInt64(dir.lengths[i])))
        } else {
          let end = first + UInt64(dir.runLengths[i])
          var j = lowerBound(wanted, first)
          while j < wanted.count, wanted[j] < end {
            tiles.append(Tile(tileID: wanted[j], offset: dir.offsets[i], length: dir.lengths[i]))
            j += 1
          }
        }
      }
      var k = 0
      while k < leaves.count {
        let start = leaves[k].offset
        var end = start + leaves[k].length
        var m = k + 1
        while m < leaves.count, leaves[m].offset == end,
          end - start + leaves[m].length <= maxRangeBytes
        {
          end += leaves[m].length
          m += 1
        }
        let stored = try PMTilesSource.read(
          reader, offset: start, length: end - start,
          what: m - k == 1 ? "leaf directory" : "leaf directories", version: archive.version)
        requests += 1
        for l in k..<m {
          let from = Int(leaves[l].offset - start)
          let leaf = try PMTilesSource.decodeDirectory(
            stored.subdata(in: from..<(from + Int(leaves[l].length))), header: header,
            location: location, at: leaves[l].offset)
          try walk(leaf, depth: depth + 1)
        }
        k = m
      }
    }
    try walk(archive.root, depth: 0)
    tiles.sort { $0.tileID < $1.tileID }
    var perZoom = [Int](repeating: 0, count: max(maxZoom + 1, 1))
    for t in tiles {
      if let z = PMTiles.tile(forID: t.tileID)?.z, z < perZoom.count { perZoom[z] += 1 }
    }
    let merged = mergeRanges(
      tiles, base: header.tileDataOffset, overFetch: overFetch, maxBytes: maxRangeBytes)
    let ranges = split(merged, parallel: parallel)
    return PMTilesExtract(
      header: header, metadata: metadata, west: west, south: south, east: east, north: north,
      minZoom: minZoom, maxZoom: maxZoom, tiles: tiles, tilesPerZoom: perZoom, ranges: ranges,
      directoryRequests: requests, location: location, version: archive.version)
  }

  /// Every tile id of zooms `minZoom...maxZoom` that meets the region, ascending.
  static func wantedIDs(
    west: Double, south: Double, east: Double, north: Double, minZoom: Int, maxZoom: Int
  ) -> [UInt64] {
    guard minZoom <= maxZoom else { return [] }
    var ids: [UInt64] = []
    for z in minZoom...maxZoom {
      let n = 1 << z
      let top = tileY(north, z)
      let bottom = tileY(south, z)
      let spans: [(Int, Int)] =
        west <= east
        ? [(tileX(west, z), tileX(east, z))] : [(tileX(west, z), n - 1), (0, tileX(east, z))]
      for (x0, x1) in spans where x0 <= x1 {
        for x in x0...x1 {
          for y in top...bottom {
            if let id = PMTiles.tileID(TileID(z: z, x: x, y: y)) { ids.append(id) }
          }
        }
      }
    }
    ids.sort()
    return ids
  }

  static func tileX(_ lon: Double, _ z: Int) -> Int {
    let n = Double(1 << z)
    return min(max(Int(((lon + 180) / 360 * n).rounded(.down)), 0), (1 << z) - 1)
  }

  static func tileY(_ lat: Double, _ z: Int) -> Int {
    let n = Double(1 << z)
    let clamped = min(max(lat, -85.0511287798), 85.0511287798) * .pi / 180
    let y = (1 - log(tan(clamped) + 1 / cos(clamped)) / .pi) / 2 * n
    return min(max(Int(y.rounded(.down)), 0), (1 << z) - 1)
  }

  static func lowerBound(_ sorted: [UInt64], _ value: UInt64) -> Int {
    var lo = 0
    var hi = sorted.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if sorted[mid] < value { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  static func anyWanted(_ sorted: [UInt64], from: UInt64, below: UInt64) -> Bool {
    let i = lowerBound(sorted, from)
    return i < sorted.count && sorted[i] < below
  }

  /// The distinct tile data ranges, merged across the smallest gaps first while the merged gap
  /// bytes stay within `overFetch` of the kept bytes and a range within `maxBytes`.
  static func mergeRanges(
    _ tiles: [Tile], base: UInt64, overFetch: Double, maxBytes: UInt64
  ) -> [ByteRange] {
    var pieces: [ByteRange] = []
    for t in tiles { pieces.append(ByteRange(offset: base + t.offset, length: UInt64(t.length))) }
    pieces.sort { $0.offset < $1.offset }
    // Distinct, and overlapping or touching pieces joined (shared contents, runs).
    var joined: [ByteRange] = []
    for p in pieces {
      if var last = joined.last, p.offset <= last.offset + last.length {
        last.length = max(last.length, p.offset + p.length - last.offset)
        joined[joined.count - 1] = last
      } else {
        joined.append(p)
      }
    }
    guard joined.count > 1 else { return joined }
    let kept = joined.reduce(0) { $0 + $1.length }
    var budget = UInt64(Double(kept) * overFetch)
    // Gaps by size; merge the smallest while the budget lasts.
    var gaps = (0..<(joined.count - 1)).map { i in
      (index: i, size: joined[i + 1].offset - (joined[i].offset + joined[i].length))
    }
    gaps.sort { $0.size < $1.size || ($0.size == $1.size && $0.index < $1.index) }
    var mergeAfter = [Bool](repeating: false, count: joined.count)
    for g in gaps {
      guard g.size <= budget else { break }
      budget -= g.size
      mergeAfter[g.index] = true
    }
    var out: [ByteRange] = []
    var current = joined[0]
    for i in 1..<joined.count {
      let next = joined[i]
      let merged = next.offset + next.length - current.offset
      if mergeAfter[i - 1] && merged <= maxBytes {
        current.length = merged
      } else {
        out.append(current)
        current = next
      }
    }
    out.append(current)
    return out
  }
}

extension PMTilesExtract {
  /// Where each range starts in the spool: the ranges back to back, in order.
  var spoolOffsets: [UInt64] {
    var offsets: [UInt64] = []
    offsets.reserveCapacity(ranges.count)
    var total: UInt64 = 0
    for r in ranges {
      offsets.append(total)
      total += r.length
    }
    return offsets
  }

  /// The ranges holding a tile's bytes: the one it starts in and the pieces it runs on into
  /// (back to back in the archive, and so in the spool); nil when they do not hold it all.
  /// `starts` is `ranges.map(\.offset)`.
  func ranges(holding t: Tile, starts: [UInt64]) -> ClosedRange<Int>? {
    let absolute = header.tileDataOffset + t.offset
    let end = absolute + UInt64(t.length)
    let first = Self.lowerBound(starts, absolute + 1) - 1
    guard first >= 0 else { return nil }
    var last = first
    while end > ranges[last].offset + ranges[last].length {
      guard last + 1 < ranges.count,
        ranges[last + 1].offset == ranges[last].offset + ranges[last].length
      else { return nil }
      last += 1
    }
    return first...last
  }

  /// Where a tile's bytes start in the spool, given the range it starts in and
  /// `spoolOffsets`.
  func spoolOffset(of t: Tile, in range: Int, spoolOffsets: [UInt64]) -> UInt64 {
    spoolOffsets[range] + header.tileDataOffset + t.offset - ranges[range].offset
  }

  /// For each range, how many tiles are whole once it is stored (the tiles whose last byte is
  /// in it): a download's progress in tiles.
  public var tilesEndingPerRange: [Int] {
    var counts = [Int](repeating: 0, count: ranges.count)
    let starts = ranges.map(\.offset)
    for t in tiles {
      if let held = ranges(holding: t, starts: starts) { counts[held.upperBound] += 1 }
    }
    return counts
  }

  /// Ranges cut into pieces of at most a 20 × `parallel`th of the whole (4 KiB at least,
  /// `maxRangeBytes` at most), at any byte: a piece is what an interrupted download loses
  /// (the journal records whole pieces), so a cut stopped at any moment, with `parallel`
  /// pieces in flight, fetches at most 5 % of its tile bytes again when it resumes.
  static func split(_ ranges: [ByteRange], parallel: Int) -> [ByteRange] {
    let total = ranges.reduce(UInt64(0)) { $0 + $1.length }
    let piece = min(max(total / UInt64(20 * max(parallel, 1)), 4096), maxRangeBytes)
    var out: [ByteRange] = []
    for r in ranges {
      let count = (r.length + piece - 1) / piece
      guard count > 1 else {
        out.append(r)
        continue
      }
      // Equal pieces (the last takes the remainder of the division).
      let size = r.length / count
      for k in 0..<count {
        let start = r.offset + k * size
        let end = k == count - 1 ? r.offset + r.length : start + size
        out.append(ByteRange(offset: start, length: end - start))
      }
    }
    return out
  }

  /// Plans a cut of the archive at `location` (a file, or an http(s) URL read with Range
  /// requests; `timeout` per request).
  public static func plan(
    location: String, west: Double, south: Double, east: Double, north: Double, maxZoom: Int,
    parallel: Int = 4, timeout: TimeInterval = 60, overFetch: Double = 0.05
  ) throws -> PMTilesExtract {
    try plan(
      reader: reader(location, timeout: timeout, connections: 1), west: west, south: south,
      east: east, north: north, maxZoom: maxZoom, parallel: parallel, overFetch: overFetch)
  }

  static func reader(_ location: String, timeout: TimeInterval, connections: Int) throws
    -> any ByteRangeReader
  {
    if HTTPTileSource.isTemplate(location) {
      guard let url = URL(string: location) else {
        throw TileSourceError.readFailed(path: location, message: "not a valid URL")
      }
      return HTTPByteRangeReader(
        url: url, timeout: timeout, maxConnections: connections,
        maxFullBodyBytes: 1 << 20, userAgent: "termmap get (terminal map viewer)")
    }
    return try FileByteRangeReader(path: location)
  }

  /// The header of the cut: the source's types and compressions, its zooms up to the cut's,
  /// the region's bounds within the source's, the centre of the region.
  var outputHeader: PMTiles.Header {
    var h = header
    h.maxZoom = UInt8(max(maxZoom, minZoom))
    let b = header.boundsDegrees
    func e7(_ v: Double) -> Int32 { Int32((v * 10_000_000).rounded()) }
    let w = west <= east ? max(west, b.west) : west
    let e = west <= east ? min(east, b.east) : east
    let s = max(south, b.south)
    let n = min(north, b.north)
    h.minLonE7 = e7(w)
    h.maxLonE7 = e7(e)
    h.minLatE7 = e7(s)
    h.maxLatE7 = e7(n)
    h.centerLonE7 = e7(west <= east ? (w + e) / 2 : w)
    h.centerLatE7 = e7((s + n) / 2)
    h.centerZoom = UInt8(min(max(maxZoom - 2, minZoom), 255))
    return h
  }

  /// Fetches the ranges, `parallel` at a time (each tried up to `attempts` times, waiting
  /// 0.5 s, 1 s, 2 s… between tries), into a spool file beside `output`, then writes the
  /// archive there (`PMTilesWriter`: whole or not at all). An archive that changes on the
  /// server (another ETag or size) stops the cut: its offsets would mix two versions.
  /// `progress` hears the bytes and ranges fetched so far, from the fetching threads;
  /// `stored` each range (an index of `ranges`) once its bytes are in the spool
  /// (`PartialCutSource` draws them while the rest arrives), those kept from an earlier run
  /// first.
  ///
  /// Resuming: the spool (`output.part`) and a journal (`output.part.journal`: the archive's
  /// version and plan, then one line per range stored) stay when a cut fails or is stopped. The
  /// same cut later fetches only the ranges the journal lacks; a journal of another version of
  /// the archive, or of another plan, is discarded and the cut starts afresh. Both files go
  /// when the archive is written.
  @discardableResult
  public func download(
    to output: String, parallel: Int = 4, attempts: Int = 4, timeout: TimeInterval = 120,
    extraMetadata: [String: String] = [:],
    transform: (@Sendable (Data) throws -> Data)? = nil,
    stored: (@Sendable (_ range: Int) -> Void)? = nil,
    progress: @escaping @Sendable (_ bytes: UInt64, _ ranges: Int) -> Void = { _, _ in }
  ) throws -> PMTiles.Header {
    let reader = try Self.reader(location, timeout: timeout, connections: max(1, parallel))
    let storedRange = stored
    let spoolPath = output + ".part"
    let journalPath = spoolPath + ".journal"
    let journalHead = journalHeader
    let kept = Self.readJournal(journalPath, header: journalHead, count: ranges.count)
    let fd = open(spoolPath, O_RDWR | O_CREAT | O_CLOEXEC | (kept.isEmpty ? O_TRUNC : 0), 0o644)
    guard fd >= 0 else {
      throw TileSourceError.readFailed(
        path: spoolPath, message: "cannot be created: \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    if kept.isEmpty {
      guard FileManager.default.createFile(atPath: journalPath, contents: Data(journalHead.utf8))
      else {
        throw TileSourceError.readFailed(path: journalPath, message: "cannot be created")
      }
    }
    let journal = open(journalPath, O_WRONLY | O_APPEND | O_CLOEXEC)
    guard journal >= 0 else {
      throw TileSourceError.readFailed(path: journalPath, message: "cannot be opened")
    }
    defer { close(journal) }
    let spoolOffsets = self.spoolOffsets
    let keptBytes = kept.reduce(UInt64(0)) { $0 + self.ranges[$1].length }
    let state = Mutex(
      (next: 0, bytes: keptBytes, done: kept.count, failure: String?.none, changed: false))
    let skip = kept
    for k in kept.sorted() { stored?(k) }
    let ranges = self.ranges
    let version = self.version
    let location = self.location
    let offsets = spoolOffsets
    let worker: @Sendable () -> Void = {
      while true {
        let index = state.withLock { s -> Int? in
          while s.next < ranges.count, skip.contains(s.next) { s.next += 1 }
          guard s.failure == nil, s.next < ranges.count else { return nil }
          defer { s.next += 1 }
          return s.next
        }
        guard let index else { return }
        let r = ranges[index]
        var lastError = ""
        var stored = false
        for attempt in 0..<max(1, attempts) {
          if attempt > 0 { usleep(useconds_t(500_000 << min(attempt - 1, 4))) }
          do {
            let data = try reader.read(offset: r.offset, length: Int(r.length), expecting: version)
              .data
            guard data.count == Int(r.length) else {
              lastError = "bytes \(r.offset)-\(r.offset + r.length - 1): \(data.count) arrived"
              continue
            }
            // A short write is followed by one that says why (a full disk, a size limit).
            var wrote = 0
            var failed = false
            while wrote < data.count, !failed {
              let n = data.withUnsafeBytes { raw in
                pwrite(
                  fd, raw.baseAddress! + wrote, raw.count - wrote,
                  off_t(offsets[index]) + off_t(wrote))
              }
              if n > 0 {
                wrote += n
              } else if n < 0, errno == EINTR {
                continue
              } else {
                failed = true
              }
            }
            guard !failed else {
              let reason = errno == 0 ? "no space" : String(cString: strerror(errno))
              state.withLock { $0.failure = "\(spoolPath): cannot be written: \(reason)" }
              return
            }
            // Stored: the spool's bytes reach the disk before the journal says so.
            _ = fdatasync(fd)
            let line = "\(index)\n"
            _ = line.withCString { write(journal, $0, strlen($0)) }
            storedRange?(index)
            stored = true
            break
          } catch ByteRangeReadError.changed {
            state.withLock {
              $0.failure =
                "the archive changed on the server during the download (nothing kept: "
                + "the same command cuts the new version)"
              $0.changed = true
            }
            return
          } catch {
            lastError = "\(error)"
          }
        }
        guard stored else {
          state.withLock { $0.failure = lastError }
          return
        }
        let (bytes, done) = state.withLock { s -> (UInt64, Int) in
          s.bytes += r.length
          s.done += 1
          return (s.bytes, s.done)
        }
        progress(bytes, done)
      }
    }
    let threads = (0..<max(1, min(parallel, ranges.count))).map { _ in
      let done = DispatchSemaphore(value: 0)
      let thread = Thread {
        worker()
        done.signal()
      }
      thread.start()
      return done
    }
    for t in threads { t.wait() }
    if state.withLock({ $0.changed }) {
      // The spool holds another version's bytes: never mixed with the new one's.
      unlink(spoolPath)
      unlink(journalPath)
    }
    if let failure = state.withLock({ $0.failure }) {
      throw TileSourceError.readFailed(path: location, message: failure)
    }
    var meta = metadata
    if !extraMetadata.isEmpty,
      var object = (try? JSONSerialization.jsonObject(with: metadata)) as? [String: Any]
    {
      for (k, v) in extraMetadata { object[k] = v }
      meta = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? meta
    }
    let writer = try PMTilesWriter(path: output, header: outputHeader, metadata: meta)
    let starts = ranges.map(\.offset)
    for t in tiles {
      guard let held = self.ranges(holding: t, starts: starts) else {
        throw TileSourceError.readFailed(
          path: location, message: "tile \(t.tileID) lies outside the ranges fetched")
      }
      var bytes = Data(count: Int(t.length))
      let got = bytes.withUnsafeMutableBytes { raw in
        pread(
          fd, raw.baseAddress, raw.count,
          off_t(spoolOffset(of: t, in: held.lowerBound, spoolOffsets: spoolOffsets)))
      }
      guard got == Int(t.length) else {
        throw TileSourceError.readFailed(path: spoolPath, message: "cannot be read back")
      }
      try writer.add(tileID: t.tileID, data: try transform?(bytes) ?? bytes)
    }
    let written = try writer.finish()
    unlink(spoolPath)
    unlink(journalPath)
    return written
  }

  /// Ranges already stored by an earlier run of this cut (from the spool's journal).
  public func resumableRanges(output: String) -> Int {
    Self.readJournal(output + ".part.journal", header: journalHeader, count: ranges.count).count
  }

  /// The journal's first line: what the spool belongs to (the archive's version, the ranges).
  var journalHeader: String {
    let h = FNV1a.hash(ranges.map { "\($0.offset)+\($0.length)" }.joined(separator: ",").utf8)
    let etag = SafeText.clean(version.etag ?? "-").replacingOccurrences(of: " ", with: "_")
    return "termmap-get 1 \(etag) \(version.size.map(String.init) ?? "-") "
      + "\(ranges.count) \(String(h, radix: 16))\n"
  }

  /// The indices a journal lists when its first line is `header`, else none.
  static func readJournal(_ path: String, header: String, count: Int) -> Set<Int> {
    guard let data = FileManager.default.contents(atPath: path), data.count <= 64 << 20,
      let text = String(data: data, encoding: .utf8), text.hasPrefix(header)
    else { return [] }
    // Whole lines only: a line cut by a crash (after the last line end) is not trusted.
    let lines = text.dropFirst(header.count)
    let whole = lines.lastIndex(of: "\n").map { lines[...$0] } ?? ""
    var kept = Set<Int>()
    for line in whole.split(separator: "\n") {
      if let i = Int(line), i >= 0, i < count { kept.insert(i) }
    }
    return kept
  }
}

/// Vector tiles without some of their layers, cut at the protobuf level: the tile's layer
/// messages whose name is in `drop` are left out, every other byte is copied as it is (so a
/// kept layer is unchanged, feature for feature).
public enum VectorTileLayerFilter {
  /// `tile` (an uncompressed Mapbox Vector Tile) without the layers named in `drop`.
  public static func dropping(_ drop: Set<String>, from tile: Data) throws -> Data {
    let bytes = [UInt8](tile)
    let result = bytes.withUnsafeBufferPointer { buffer -> Result<[UInt8], any Error> in
      guard let base = buffer.baseAddress else { return .success([]) }
      var reader = ProtobufReader(bytes: base, start: 0, end: buffer.count)
      var out: [UInt8] = []
      out.reserveCapacity(buffer.count)
      do {
        while !reader.isAtEnd {
          let start = reader.position
          let (field, wire) = try reader.fieldKey()
          if field == 3, wire == .lengthDelimited {
            let layer = try reader.lengthDelimited()
            if let name = layerName(base, layer), drop.contains(name) { continue }
          } else {
            try reader.skip(wire)
          }
          out.append(contentsOf: buffer[start..<reader.position])
        }
      } catch {
        return .failure(error)
      }
      return .success(out)
    }
    switch result {
    case .success(let out): return Data(out)
    case .failure(let error): throw TileSourceError.readFailed(path: "tile", message: "\(error)")
    }
  }

  /// A layer message's name (field 1), if it has one.
  static func layerName(_ base: UnsafePointer<UInt8>, _ layer: Range<Int>) -> String? {
    var reader = ProtobufReader(bytes: base, range: layer)
    while !reader.isAtEnd {
      guard let (field, wire) = try? reader.fieldKey() else { return nil }
      if field == 1, wire == .lengthDelimited {
        return (try? reader.lengthDelimited()).map(reader.string)
      }
      guard (try? reader.skip(wire)) != nil else { return nil }
    }
    return nil
  }
}
