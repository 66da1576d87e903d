import Dispatch
import Foundation
import MapGeometry
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files of `HTTPTileSource`'s disk cache: `z/x/y` (the body) and `z/x/y.meta` (what the
/// server said about it), under one directory per URL template.
///
/// - Bounded: when the files add up to more than `maxBytes`, the least recently used entries
///   are deleted until they fit in `lowWater` × `maxBytes` (so a full cache is not scanned on
///   every write). An entry's last use is its `.meta` file's modification time, set on every
///   write and every disk hit, strictly increasing within a process.
/// - Atomic: every file is written to a temporary file in the same directory (`.name.tmp-…`,
///   `O_EXCL`) and renamed over the old one; the temporary file is unlinked on any failure.
///   Temporary files and bodies without a `.meta` that a killed process left behind are
///   deleted when the cache is next scanned (those older than `staleAge`).
/// - Reads are bounded (`BoundedFile`): only regular files, at most the given size.
final class TileDiskCache: Sendable {
  let directory: URL
  let maxBytes: Int
  /// Pruning stops at this fraction of `maxBytes`.
  static let lowWater = 0.9
  /// Leftovers younger than this may belong to a write in progress (another process).
  static let staleAge: TimeInterval = 60
  /// The largest `.meta` file read.
  static let maxMetaBytes = 64 << 10
  static let temporaryMarker = ".tmp-"

  private struct State {
    /// Bytes in the cache as last scanned plus what was written since; nil before a scan.
    var total: Int?
    var scanning = false
    var lastStamp = 0.0
  }
  private let state = Mutex(State())
  private let maintenance = DispatchQueue(label: "termmap.http-tiles.prune")

  init(directory: URL, maxBytes: Int) {
    self.directory = directory
    self.maxBytes = max(0, maxBytes)
  }

  func bodyFile(for id: TileID) -> URL {
    directory.appendingPathComponent("\(id.z)/\(id.x)/\(id.y)")
  }

  func metaFile(for id: TileID) -> URL {
    bodyFile(for: id).appendingPathExtension("meta")
  }

  // MARK: Reading

  /// The `.meta` bytes and, when asked, the body (nil when the body file is missing).
  func read(_ id: TileID, body: Bool, bodyLimit: Int) -> (meta: Data, body: Data?)? {
    guard let meta = try? BoundedFile.read(metaFile(for: id).path, limit: Self.maxMetaBytes)
    else { return nil }
    guard body else { return (meta, nil) }
    guard let data = try? BoundedFile.read(bodyFile(for: id).path, limit: bodyLimit) else {
      return nil
    }
    return (meta, data)
  }

  /// Marks an entry as just used.
  func touch(_ id: TileID) {
    setStamp(metaFile(for: id).path)
  }

  // MARK: Writing

  /// Writes the body (or removes it: `body` nil and not `keepBody`) and then the meta.
  func write(_ id: TileID, body: Data?, meta: Data, keepBody: Bool) {
    let bodyURL = bodyFile(for: id)
    let metaURL = metaFile(for: id)
    do {
      try FileManager.default.createDirectory(
        at: bodyURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    } catch {
      return  // a cache that cannot be written only costs a download next time
    }
    var delta = 0
    if let body {
      let before = Self.size(bodyURL.path)
      guard Self.writeAtomically(body, to: bodyURL) else { return }
      delta += body.count - before
    } else if !keepBody {
      delta -= Self.size(bodyURL.path)
      unlink(bodyURL.path)
    }
    let before = Self.size(metaURL.path)
    guard Self.writeAtomically(meta, to: metaURL) else { return }
    delta += meta.count - before
    setStamp(metaURL.path)
    grew(by: delta)
  }

  /// Writes `data` to a new temporary file beside `url` and renames it over `url`. The
  /// temporary file never outlives this call.
  static func writeAtomically(_ data: Data, to url: URL) -> Bool {
    let dir = url.deletingLastPathComponent().path
    let temporary =
      dir + "/." + url.lastPathComponent + temporaryMarker
      + String(UInt64.random(in: 0...UInt64.max), radix: 36)
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
    guard fd >= 0 else { return false }
    var ok = data.withUnsafeBytes { raw -> Bool in
      var offset = 0
      while offset < raw.count {
        let n = Foundation.write(fd, raw.baseAddress! + offset, raw.count - offset)
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return false }
        offset += n
      }
      return true
    }
    if close(fd) != 0 { ok = false }
    if ok && rename(temporary, url.path) == 0 { return true }
    unlink(temporary)
    return false
  }

  static func size(_ path: String) -> Int {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return 0 }
    return Int(info.st_size)
  }

  /// Sets a file's modification time to now, or just after the last stamp given, so the order
  /// of uses survives coarse file-system clocks.
  private func setStamp(_ path: String) {
    let stamp = state.withLock { s -> Double in
      s.lastStamp = max(Date().timeIntervalSince1970, s.lastStamp + 0.000_001)
      return s.lastStamp
    }
    let seconds = stamp.rounded(.down)
    var times = [
      timespec(tv_sec: Int(seconds), tv_nsec: Int((stamp - seconds) * 1e9)),
      timespec(tv_sec: Int(seconds), tv_nsec: Int((stamp - seconds) * 1e9)),
    ]
    _ = utimensat(AT_FDCWD, path, &times, 0)
  }

  // MARK: The bound

  private func grew(by delta: Int) {
    let shouldScan = state.withLock { s -> Bool in
      if let t = s.total { s.total = t + delta }
      guard !s.scanning else { return false }
      if let t = s.total, t <= maxBytes { return false }
      s.scanning = true
      return true
    }
    if shouldScan { maintenance.async { self.scanAndPrune() } }
  }

  /// Waits until scheduled scans and pruning are done (for tests and an orderly exit).
  func waitForMaintenance() {
    maintenance.sync {}
  }

  /// Scans the cache: deletes stale leftovers, counts the bytes, and deletes the least
  /// recently used entries while the total is over the bound.
  func scanAndPrune() {
    defer { state.withLock { $0.scanning = false } }
    struct Entry {
      var meta: String
      var body: String
      var bytes: Int
      var used: Double
    }
    var entries: [String: Entry] = [:]
    var bodies: [String: (bytes: Int, modified: Double)] = [:]
    let now = Date().timeIntervalSince1970
    let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey]
    guard
      let walk = FileManager.default.enumerator(
        at: directory, includingPropertiesForKeys: keys, options: [])
    else { return }
    for case let url as URL in walk {
      guard let values = try? url.resourceValues(forKeys: Set(keys)),
        values.isRegularFile == true
      else { continue }
      let bytes = values.fileSize ?? 0
      let modified = values.contentModificationDate?.timeIntervalSince1970 ?? 0
      let path = url.path
      if url.lastPathComponent.contains(Self.temporaryMarker) {
        if now - modified > Self.staleAge { unlink(path) }
        continue
      }
      if path.hasSuffix(".meta") {
        let body = String(path.dropLast(5))
        entries[body] = Entry(meta: path, body: body, bytes: bytes, used: modified)
      } else {
        bodies[path] = (bytes, modified)
      }
    }
    for (path, body) in bodies {
      if entries[path] != nil {
        entries[path]!.bytes += body.bytes
      } else if now - body.modified > Self.staleAge {
        unlink(path)  // a body whose meta was never written
      }
    }
    var total = entries.values.reduce(0) { $0 + $1.bytes }
    if total > maxBytes {
      let target = Int(Double(maxBytes) * Self.lowWater)
      for e in entries.values.sorted(by: { $0.used < $1.used }) {
        if total <= target { break }
        unlink(e.meta)
        unlink(e.body)
        total -= e.bytes
      }
    }
    state.withLock { $0.total = total }
  }

  /// Bytes counted in the cache (after the last scan, plus writes since); nil before a scan.
  var countedBytes: Int? { state.withLock { $0.total } }
}
