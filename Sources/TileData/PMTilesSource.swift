import Dispatch
import Foundation
import MapGeometry
import Synchronization

/// Tiles from a PMTiles version 3 archive: a local file or an http(s) URL read with range
/// requests.
///
/// - Opening reads the first 16 KiB (header and root directory), checks every section against
///   the archive's size, and reads the JSON metadata (`name`, `attribution`, `vector_layers`
///   ids, also inside an MBTiles-style `json` string). Internal and tile compression may be
///   none or gzip (brotli and zstd: an error at open).
/// - A tile costs a lookup in the root directory, at most three leaf directories (decoded
///   ones are kept in an LRU cache bounded by count and bytes) and one read of its bytes.
///   Tiles are returned as stored (gzip MVT usually); the provider inflates them.
/// - Local files are read with `pread`, never whole. Over HTTP each read is a `Range` request;
///   a server answering `200` with the whole archive is handled too (up to
///   `maxFullBodyBytes`). Every read states the version (ETag and size) its offsets came from;
///   an answer from another version means the archive changed: the directory cache is
///   dropped, the header and root are read again and the tile is looked up once more. A read
///   that started before another thread's reload is caught the same way, so offsets of one
///   version are never applied to another.
/// - Malformed archives throw `TileSourceError.readFailed` naming the path or URL and, where it
///   applies, the byte offset; reads are bounded (directory size and entry count, leaf depth).
///
/// Network sources override `loadTile(_:completion:)`: loads run on threads of the source's
/// own (at most `maxConcurrentRequests`), so the caller never waits; like `HTTPTileSource` they
/// queue nearest `focus` first, join loads of the same tile and can be cancelled
/// (`TileRequestScheduling`).
public final class PMTilesSource: TileSource, Sendable {
  /// The path or URL given.
  public let location: String
  public let name: String
  public let minZoom: Int
  public let maxZoom: Int
  public let bounds: MapRect?
  public let attribution: String
  public let vectorLayers: [String]
  public let format: TileFormat
  /// The header read at open.
  public let header: PMTiles.Header
  /// The JSON metadata as stored (inflated); `{}` when the archive has none.
  public let metadataJSON: Data
  /// True for http(s) archives.
  public let isRemote: Bool

  /// Counters, for tests and diagnostics.
  public struct Statistics: Sendable, Equatable {
    /// Leaf directories read and decoded.
    public var directoryReads = 0
    /// Leaf directories found in the cache.
    public var directoryCacheHits = 0
    /// Tiles read.
    public var tileReads = 0
    /// Times the archive was found changed (another ETag) and its header read again.
    public var reloads = 0
  }

  struct Archive: Sendable {
    var header: PMTiles.Header
    var root: PMTiles.Directory
    /// The version (ETag, size) the header was read from; every later read must match it.
    var version: ArchiveVersion
    var generation: Int
  }

  private struct DirectoryKey: Hashable, Sendable {
    var generation: Int
    var offset: UInt64
    var length: UInt64
  }

  private let reader: any ByteRangeReader
  private let archive: Mutex<Archive>
  private let reloading = Mutex(())
  private let directories: LRUCache<DirectoryKey, PMTiles.Directory>
  private let counters = Mutex(Statistics())
  private let loadPool: BlockingWorkPool?
  private let loads = Mutex(Loads())
  /// Leaf directories being read now, so threads needing the same one wait for one read.
  private let loading = Mutex<[DirectoryKey: DirectoryLoad]>([:])

  /// Opens a local archive.
  /// - Parameters:
  ///   - path: the archive's file.
  ///   - directoryCacheCount: the most leaf directories cached.
  ///   - directoryCacheBytes: the most bytes of leaf directories cached.
  public convenience init(
    path: String, directoryCacheCount: Int = 64, directoryCacheBytes: Int = 16 << 20
  ) throws {
    try self.init(
      reader: FileByteRangeReader(path: path), remote: false,
      directoryCacheCount: directoryCacheCount, directoryCacheBytes: directoryCacheBytes,
      maxConcurrentRequests: 1)
  }

  /// Opens an archive held in memory (`location` names it in messages).
  convenience init(data: Data, location: String) throws {
    try self.init(
      reader: DataByteRangeReader(data: data, location: location), remote: false,
      directoryCacheCount: 64, directoryCacheBytes: 16 << 20, maxConcurrentRequests: 1)
  }

  /// Opens an archive over http(s). Opening reads the header, root directory and metadata
  /// (blocking, each request at most `timeout` seconds).
  /// - Parameters:
  ///   - url: the archive's http(s) URL.
  ///   - timeout: longest wait for one answer, in seconds.
  ///   - maxConcurrentRequests: most tile loads in flight at once.
  ///   - maxFullBodyBytes: the most accepted from a server that ignores `Range` and sends the
  ///     whole archive (default 16 MiB: such a server is rare, and several reads may get the
  ///     whole archive at once before one of them keeps it).
  ///   - directoryCacheCount: the most leaf directories cached.
  ///   - directoryCacheBytes: the most bytes of leaf directories cached.
  ///   - userAgent: the `User-Agent` header sent.
  public convenience init(
    url: URL, timeout: TimeInterval = 10, maxConcurrentRequests: Int = 6,
    maxFullBodyBytes: Int = 16 << 20, directoryCacheCount: Int = 64,
    directoryCacheBytes: Int = 16 << 20, userAgent: String = "termmap (terminal map viewer)"
  ) throws {
    guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
      throw TileSourceError.readFailed(
        path: url.absoluteString, message: "unsupported URL scheme (expected http or https)")
    }
    let reader = HTTPByteRangeReader(
      url: url, timeout: timeout, maxConnections: maxConcurrentRequests,
      maxFullBodyBytes: maxFullBodyBytes, userAgent: userAgent)
    try self.init(
      reader: reader, remote: true, directoryCacheCount: directoryCacheCount,
      directoryCacheBytes: directoryCacheBytes, maxConcurrentRequests: maxConcurrentRequests)
  }

  private init(
    reader: any ByteRangeReader, remote: Bool, directoryCacheCount: Int, directoryCacheBytes: Int,
    maxConcurrentRequests: Int
  ) throws {
    self.reader = reader
    location = reader.location
    isRemote = remote
    directories = LRUCache(countLimit: max(1, directoryCacheCount), costLimit: directoryCacheBytes)
    let (opened, head) = try Self.readArchive(reader, generation: 0)
    let header = opened.header
    archive = Mutex(opened)

    // Metadata: read once, at open.
    var json = Data("{}".utf8)
    if header.metadataLength > 0 {
      guard header.metadataLength <= UInt64(PMTiles.maxMetadataBytes) else {
        throw TileSourceError.readFailed(
          path: location,
          message: "invalid PMTiles archive: metadata of \(header.metadataLength) bytes "
            + "exceeds the limit of \(PMTiles.maxMetadataBytes)")
      }
      let stored = try Self.read(
        reader, offset: header.metadataOffset, length: header.metadataLength, what: "metadata",
        version: opened.version, head: head)
      json = try PMTiles.decompress(
        stored, compression: header.internalCompression, limit: PMTiles.maxMetadataBytes,
        what: "metadata", location: location, at: header.metadataOffset)
    }
    metadataJSON = json
    let meta: [String: Any]
    do {
      meta = try JSONSerialization.jsonObject(with: json) as? [String: Any] ?? [:]
    } catch {
      throw TileSourceError.readFailed(
        path: location,
        message: "invalid PMTiles archive: metadata at byte \(header.metadataOffset) is not JSON")
    }
    func string(_ key: String) -> String? {
      (meta[key] as? String).flatMap { $0.isEmpty ? nil : $0 }
    }
    if let list = meta["vector_layers"] as? [[String: Any]] {
      vectorLayers = list.compactMap { $0["id"] as? String }
    } else {
      vectorLayers = string("json").map(parseVectorLayers) ?? []
    }
    attribution = string("attribution") ?? ""
    let fileName =
      remote
      ? (URL(string: reader.location)?.lastPathComponent ?? reader.location)
      : (reader.location as NSString).lastPathComponent
    name = string("name") ?? fileName

    switch header.tileType {
    case let t? where t.tileFormat != nil:
      format = t.tileFormat!
    case .unknown?:
      guard let f = string("format") else {
        throw TileSourceError.unsupportedFormat(path: location, format: "unknown")
      }
      guard let known = TileFormat(name: f) else {
        throw TileSourceError.unsupportedFormat(path: location, format: f)
      }
      format = known
    case let t?:
      throw TileSourceError.unsupportedFormat(path: location, format: t.description)
    case nil:
      throw TileSourceError.unsupportedFormat(
        path: location, format: "tile type \(header.tileTypeCode)")
    }
    minZoom = min(30, Int(header.minZoom))
    maxZoom = min(30, max(minZoom, Int(header.maxZoom)))
    let b = header.boundsDegrees
    if header.minLonE7 == 0 && header.minLatE7 == 0 && header.maxLonE7 == 0
      && header.maxLatE7 == 0
    {
      bounds = nil
    } else {
      bounds = parseBounds("\(b.west),\(b.south),\(b.east),\(b.north)")
    }
    self.header = header
    loadPool =
      remote ? BlockingWorkPool(limit: maxConcurrentRequests, name: "termmap.pmtiles") : nil
  }

  /// Counts of tile and directory reads so far.
  public var statistics: Statistics { counters.withLock { $0 } }

  /// The header now in use (differs from `header` after the archive changed on the server).
  public var currentHeader: PMTiles.Header { archive.withLock { $0.header } }

  /// Leaf directories in the cache.
  public var cachedDirectoryCount: Int { directories.count }

  // MARK: Reading

  /// Reads `length` bytes at `offset` of `version`, which must all exist; from `head` (the
  /// archive's first bytes) when they lie within it.
  static func read(
    _ reader: any ByteRangeReader, offset: UInt64, length: UInt64, what: String,
    version: ArchiveVersion, head: Data? = nil
  ) throws -> Data {
    let (end, overflow) = offset.addingReportingOverflow(length)
    if overflow || (version.size.map { end > $0 } ?? false) || length > UInt64(Int.max) {
      throw TileSourceError.readFailed(
        path: reader.location,
        message:
          "invalid PMTiles archive: \(what) (bytes \(offset)..<\(overflow ? "overflow" : String(end))) "
          + "ends past the end of the archive (\(version.size.map(String.init) ?? "?") bytes)")
    }
    if let head, end <= UInt64(head.count) {
      return head.subdata(in: head.startIndex + Int(offset)..<head.startIndex + Int(end))
    }
    let data = try reader.read(offset: offset, length: Int(length), expecting: version).data
    guard data.count == Int(length) else {
      throw TileSourceError.readFailed(
        path: reader.location,
        message: "invalid PMTiles archive: \(what) at byte \(offset) truncated "
          + "(\(data.count) of \(length) bytes)")
    }
    return data
  }

  /// Reads and checks the header and the root directory; returns the archive and the first
  /// bytes read (which usually hold the metadata too).
  static func readArchive(_ reader: any ByteRangeReader, generation: Int) throws -> (
    Archive, Data
  ) {
    let (head, version) = try reader.read(
      offset: 0, length: PMTiles.initialReadLength, expecting: nil)
    let header = try PMTiles.Header.parse(head, location: reader.location)
    try header.validate(size: version.size, location: reader.location)
    guard header.rootLength <= UInt64(PMTiles.maxDirectoryBytes) else {
      throw TileSourceError.readFailed(
        path: reader.location,
        message: "invalid PMTiles archive: root directory of \(header.rootLength) bytes "
          + "exceeds the limit of \(PMTiles.maxDirectoryBytes)")
    }
    // The spec keeps the root within the first 16 KiB; it is read anyway when it is not.
    let stored = try read(
      reader, offset: header.rootOffset, length: header.rootLength, what: "root directory",
      version: version, head: head)
    let root = try decodeDirectory(
      stored, header: header, location: reader.location, at: header.rootOffset)
    return (Archive(header: header, root: root, version: version, generation: generation), head)
  }

  static func decodeDirectory(
    _ stored: Data, header: PMTiles.Header, location: String, at: UInt64
  ) throws -> PMTiles.Directory {
    let bytes = try PMTiles.decompress(
      stored, compression: header.internalCompression, limit: PMTiles.maxDirectoryBytes,
      what: "directory", location: location, at: at)
    return try PMTiles.Directory.decode([UInt8](bytes), location: location, at: at)
  }

  public func tile(_ id: TileID) throws -> Data? {
    guard let tileID = PMTiles.tileID(id), id.z <= 30 else { return nil }
    var current = archive.withLock { $0 }
    do {
      return try lookup(tileID, id, in: current)
    } catch ByteRangeReadError.changed {
      current = try reload(after: current.generation)
    }
    do {
      return try lookup(tileID, id, in: current)
    } catch ByteRangeReadError.changed(let old, let new) {
      throw TileSourceError.readFailed(
        path: location,
        message:
          "the archive changed again while reading (ETag \(old ?? "none") → \(new ?? "none"))"
      )
    }
  }

  /// Drops the cached directories and reads the header and root again, once for all callers
  /// that found generation `seen` outdated.
  private func reload(after seen: Int) throws -> Archive {
    try reloading.withLock { _ in
      let now = archive.withLock { $0 }
      if now.generation != seen { return now }  // another thread reloaded already
      directories.removeAll { _ in true }
      let fresh: Archive
      do {
        fresh = try Self.readArchive(reader, generation: seen + 1).0
      } catch ByteRangeReadError.changed {
        throw TileSourceError.readFailed(
          path: location, message: "the archive changed again while reading its header")
      }
      // The tiles' type and compression must not change under the renderer's feet.
      guard fresh.header.tileTypeCode == header.tileTypeCode,
        fresh.header.tileCompressionCode == header.tileCompressionCode
      else {
        throw TileSourceError.readFailed(
          path: location, message: "the archive was replaced by one with another tile type")
      }
      archive.withLock { $0 = fresh }
      counters.withLock { $0.reloads += 1 }
      return fresh
    }
  }

  private func lookup(_ tileID: UInt64, _ id: TileID, in archive: Archive) throws -> Data? {
    let header = archive.header
    var directory = archive.root
    var visited: Set<UInt64> = [header.rootOffset]
    for depth in 0..<PMTiles.maxDirectoryDepth {
      guard let i = directory.entryIndex(for: tileID) else { return nil }
      let length = UInt64(directory.lengths[i])
      if directory.runLengths[i] > 0 {
        let offset = directory.offsets[i]
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= header.tileDataLength else {
          throw TileSourceError.readFailed(
            path: location,
            message: "invalid PMTiles archive: tile \(id.z)/\(id.x)/\(id.y) (bytes \(offset) "
              + "+ \(length) of the tile data at byte \(header.tileDataOffset)) lies outside "
              + "the tile data section (\(header.tileDataLength) bytes)")
        }
        counters.withLock { $0.tileReads += 1 }
        return try Self.read(
          reader, offset: header.tileDataOffset + offset, length: length,
          what: "tile \(id.z)/\(id.x)/\(id.y)", version: archive.version)
      }
      // A leaf directory.
      let relative = directory.offsets[i]
      let (end, overflow) = relative.addingReportingOverflow(length)
      guard !overflow, end <= header.leafDirectoryLength else {
        throw TileSourceError.readFailed(
          path: location,
          message: "invalid PMTiles archive: leaf directory (bytes \(relative) + \(length) of "
            + "the leaf section at byte \(header.leafDirectoryOffset)) lies outside the leaf "
            + "directory section (\(header.leafDirectoryLength) bytes)")
      }
      let offset = header.leafDirectoryOffset + relative
      guard visited.insert(offset).inserted else {
        throw TileSourceError.readFailed(
          path: location,
          message: "invalid PMTiles archive: leaf directory at byte \(offset) refers back to "
            + "a directory above it (a cycle)")
      }
      guard depth + 1 < PMTiles.maxDirectoryDepth else { break }
      guard length <= UInt64(PMTiles.maxDirectoryBytes) else {
        throw TileSourceError.readFailed(
          path: location,
          message: "invalid PMTiles archive: leaf directory at byte \(offset) of \(length) "
            + "bytes exceeds the limit of \(PMTiles.maxDirectoryBytes)")
      }
      let key = DirectoryKey(generation: archive.generation, offset: offset, length: length)
      if let cached = directories.value(for: key) {
        counters.withLock { $0.directoryCacheHits += 1 }
        directory = cached
      } else {
        directory = try loadDirectory(key, archive: archive)
      }
    }
    throw TileSourceError.readFailed(
      path: location,
      message: "invalid PMTiles archive: leaf directories nested deeper than "
        + "\(PMTiles.maxDirectoryDepth - 1) levels (tile \(id.z)/\(id.x)/\(id.y))")
  }

  /// Reads and decodes a leaf directory, once for all threads that need it at the same time.
  private func loadDirectory(_ key: DirectoryKey, archive: Archive) throws -> PMTiles.Directory {
    let (load, owner) = loading.withLock { table -> (DirectoryLoad, Bool) in
      if let running = table[key] { return (running, false) }
      let load = DirectoryLoad()
      table[key] = load
      return (load, true)
    }
    if owner {
      let result = Result {
        let stored = try Self.read(
          reader, offset: key.offset, length: key.length, what: "leaf directory",
          version: archive.version)
        return try Self.decodeDirectory(
          stored, header: archive.header, location: location, at: key.offset)
      }
      if case .success(let directory) = result {
        counters.withLock { $0.directoryReads += 1 }
        directories.insert(directory, for: key, cost: directory.byteCount)
      }
      loading.withLock { $0[key] = nil }
      load.finish(result)
    }
    return try load.wait()
  }

  public func loadTile(
    _ id: TileID, completion: @escaping @Sendable (Result<Data?, any Error>) -> Void
  ) {
    guard loadPool != nil else {
      DispatchQueue.global(qos: .userInitiated).async {
        completion(Result { try self.tile(id) })
      }
      return
    }
    let isNew = loads.withLock { s -> Bool in
      if s.running[id] != nil {
        s.running[id]!.append(completion)
        return false
      }
      if s.queued[id] != nil {
        s.queued[id]!.waiters.append(completion)
        return false
      }
      s.counter += 1
      s.queued[id] = QueuedLoad(waiters: [completion], order: s.counter)
      return true
    }
    if isNew { startQueued() }
  }

  // MARK: Scheduling (network archives)

  private typealias Completion = @Sendable (Result<Data?, any Error>) -> Void

  private struct QueuedLoad {
    var waiters: [Completion]
    var order: Int
  }

  private struct Loads {
    var queued: [TileID: QueuedLoad] = [:]
    var running: [TileID: [Completion]] = [:]
    var focus: MapPoint?
    var counter = 0
  }

  /// Starts queued loads, nearest the focus first, while fewer than the limit run.
  private func startQueued() {
    guard let loadPool else { return }
    while true {
      let next = loads.withLock { s -> TileID? in
        guard s.running.count < loadPool.limit, !s.queued.isEmpty else { return nil }
        let focus = s.focus
        let pick = s.queued.min { a, b in
          let da = HTTPTileSource.distance(a.key, focus)
          let db = HTTPTileSource.distance(b.key, focus)
          return da != db ? da < db : a.value.order < b.value.order
        }!
        s.queued[pick.key] = nil
        s.running[pick.key] = pick.value.waiters
        return pick.key
      }
      guard let id = next else { return }
      loadPool.run { [self] in
        let result = Result { try tile(id) }
        let waiters = loads.withLock { $0.running.removeValue(forKey: id) } ?? []
        startQueued()
        for w in waiters { w(result) }
      }
    }
  }

  private func cancel(where shouldCancel: (TileID) -> Bool) {
    let waiters = loads.withLock { s -> [Completion] in
      var waiters: [Completion] = []
      for (id, q) in s.queued where shouldCancel(id) {
        waiters += q.waiters
        s.queued[id] = nil
      }
      // A running read ends by itself (bounded by the time-out); its result is dropped.
      for (id, w) in s.running where shouldCancel(id) {
        waiters += w
        s.running[id] = nil
      }
      return waiters
    }
    for w in waiters { w(.failure(CancellationError())) }
    startQueued()
  }
}

extension PMTilesSource: TileRequestScheduling {
  /// Queued loads nearest this map point start first (network archives only).
  public var focus: MapPoint? {
    get { loads.withLock { $0.focus } }
    set { loads.withLock { $0.focus = newValue } }
  }

  /// Tiles queued or being read (network archives only; local reads are not queued).
  public var pendingTiles: Set<TileID> {
    loads.withLock { Set($0.running.keys).union($0.queued.keys) }
  }

  /// Drops a queued load, or the result of a running one; its completions get
  /// `CancellationError`.
  public func cancel(_ id: TileID) {
    cancel { $0 == id }
  }

  public func cancelAll(except keep: Set<TileID>) {
    cancel { !keep.contains($0) }
  }

}

/// One leaf directory read that several threads may wait for.
private final class DirectoryLoad: Sendable {
  private let done = DispatchSemaphore(value: 0)
  private let result = Mutex<Result<PMTiles.Directory, any Error>?>(nil)

  func finish(_ r: Result<PMTiles.Directory, any Error>) {
    result.withLock { $0 = r }
    done.signal()
  }

  /// Waits for `finish` (which follows a read bounded by the reader's time-out).
  func wait() throws -> PMTiles.Directory {
    done.wait()
    done.signal()  // pass the wake-up on to the next waiter
    return try result.withLock { $0! }.get()
  }
}
