import Foundation
import MapGeometry
import Synchronization

/// Writes fixes to a GPX 1.1 track as they come, so the file is valid GPX at every moment: the
/// closing tags are written after each point, and the next point is written over them. If the
/// program is killed, the file ends after the last whole point with its closing tags.
///
/// Only a regular file is written (a FIFO or a device is refused before anything blocks), and
/// nothing is truncated: a file that exists must be a recording termmap wrote, and a new track
/// is added to it; any other file is refused. When a write fails or is short (a full disk, a
/// file size limit), the closing tags are written back after the last whole point, the file is
/// cut there, and recording stops (`failure` says why).
///
/// Thread-safe: the viewer writes from a thread of its own (`RecordingWriter`).
public final class GPXRecorder: Sendable {
  public let path: String
  /// A new track was added to a recording that was there.
  public let appended: Bool
  private let state: Mutex<State>
  private static let closing = Array("  </trkseg>\n  </trk>\n</gpx>\n".utf8)

  struct State {
    var fd: Int32
    /// Where the closing tags start (the next point goes here).
    var tail: Int
    /// Text written before the next point: the start of a new track in a file that was there.
    var pending: [UInt8]
    var pointCount = 0
    var pointsInSegment = 0
    var failure: String?
    var cause: String?
  }

  /// Points written.
  public var pointCount: Int { state.withLock { $0.pointCount } }
  /// Why recording stopped (a write failed), or nil while it records: one line with the path,
  /// the error and the points kept.
  public var failure: String? { state.withLock { $0.failure } }
  /// The error alone ("no space left on device"), once recording has stopped.
  public var failureCause: String? { state.withLock { $0.cause } }

  /// Opens the file: a new one (the header is written at once), or a recording termmap wrote
  /// (a track is added with the first point). Refuses anything else with a one-line reason.
  public init(path: String, name: String = "termmap track", now: Date = Date())
    throws(LocationSourceError)
  {
    self.path = path
    var created = false
    // O_NONBLOCK: opening a FIFO never waits for a reader.
    var fd = open(path, O_RDWR | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    if fd < 0 && errno == ENOENT {
      fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o644)
      if fd < 0 && errno == EEXIST {
        throw .cannotOpen(path, "a symbolic link to a file that does not exist")
      }
      created = fd >= 0
    }
    guard fd >= 0 else { throw .cannotOpen(path, errnoText().lowercased()) }
    var st = stat()
    guard fstat(fd, &st) == 0 else {
      let why = errnoText().lowercased()
      Glibc.close(fd)
      throw .cannotOpen(path, why)
    }
    guard st.st_mode & S_IFMT == S_IFREG else {
      Glibc.close(fd)
      throw .cannotOpen(
        path, "not a regular file (\(BoundedFile.kindName(st.st_mode & S_IFMT))); not recorded")
    }
    let size = Int(st.st_size)
    let trackStart = """
        <trk>
          <name>\(Self.escape(name))</name>
          <trkseg>

      """
    if size == 0 {
      let header =
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="termmap" xmlns="http://www.topografix.com/GPX/1/1">
          <metadata><time>\(Self.time(now))</time></metadata>

        """ + trackStart
      let bytes = Array(header.utf8)
      if let code = Self.write(fd, bytes + Self.closing, at: 0) {
        let why = String(cString: strerror(code)).lowercased()
        if created { unlink(path) } else { _ = ftruncate(fd, 0) }
        Glibc.close(fd)
        throw .cannotOpen(path, why)
      }
      state = Mutex(State(fd: fd, tail: bytes.count, pending: []))
      appended = false
    } else {
      guard Self.isRecording(fd, size: size) else {
        Glibc.close(fd)
        throw .cannotOpen(
          path,
          "the file exists and is not a GPX track termmap recorded; it is kept (give a new name)")
      }
      // The new track replaces the closing tags of the last one with the first point.
      let start = Array("  </trkseg>\n  </trk>\n".utf8) + Array(trackStart.utf8)
      state = Mutex(State(fd: fd, tail: size - Self.closing.count, pending: start))
      appended = true
    }
  }

  deinit { _ = state.withLock { Glibc.close($0.fd) } }

  /// A file termmap recorded: its header names termmap as creator, and it ends with the
  /// closing tags the recorder writes (also after a kill or a full disk).
  static func isRecording(_ fd: Int32, size: Int) -> Bool {
    guard size > closing.count else { return false }
    var head = [UInt8](repeating: 0, count: min(size, 512))
    var end = [UInt8](repeating: 0, count: closing.count)
    let h = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
    let e = end.withUnsafeMutableBytes {
      pread(fd, $0.baseAddress, $0.count, off_t(size - closing.count))
    }
    guard h == head.count, e == end.count, end == closing else { return false }
    let text = String(decoding: head, as: UTF8.self)
    return text.hasPrefix("<?xml") && text.contains("<gpx version=\"1.1\" creator=\"termmap\"")
  }

  /// Appends a point (and the closing tags after it). False when recording has stopped.
  @discardableResult
  public func append(_ fix: LocationFix) -> Bool {
    var s = String(
      format: "      <trkpt lat=\"%.7f\" lon=\"%.7f\">", fix.coordinate.latitude,
      fix.coordinate.longitude)
    if let a = fix.altitude { s += String(format: "<ele>%.1f</ele>", a) }
    if let t = fix.timestamp { s += "<time>\(Self.time(t))</time>" }
    switch fix.quality {
    case .fix2D: s += "<fix>2d</fix>"
    case .fix3D: s += "<fix>3d</fix>"
    case .dgps: s += "<fix>dgps</fix>"
    default: break
    }
    if let n = fix.satellitesUsed { s += "<sat>\(n)</sat>" }
    if let h = fix.hdop { s += String(format: "<hdop>%.1f</hdop>", h) }
    s += "</trkpt>\n"
    let bytes = Array(s.utf8)
    return state.withLock { st in
      guard Self.put(&st, bytes, path: path) else { return false }
      st.pointCount += 1
      st.pointsInSegment += 1
      return true
    }
  }

  /// Ends the current segment and starts another (after a gap or a lost fix); nothing when the
  /// segment has no point yet.
  @discardableResult
  public func newSegment() -> Bool {
    state.withLock { st in
      guard st.failure == nil else { return false }
      guard st.pointsInSegment > 0 else { return true }
      guard Self.put(&st, Array("    </trkseg>\n    <trkseg>\n".utf8), path: path) else {
        return false
      }
      st.pointsInSegment = 0
      return true
    }
  }

  private static func put(_ st: inout State, _ bytes: [UInt8], path: String) -> Bool {
    guard st.failure == nil else { return false }
    // The new text and the closing tags in one write: at every moment the file is whole.
    let text = st.pending + bytes
    guard let code = write(st.fd, text + closing, at: st.tail) else {
      st.tail += text.count
      st.pending = []
      return true
    }
    // A short or failed write: the closing tags go back where they were (bytes the file
    // already had, so a full disk takes them), and whatever was written after them is cut.
    let why = String(cString: strerror(code)).lowercased()
    st.cause = why
    let restored =
      write(st.fd, closing, at: st.tail) == nil
      && ftruncate(st.fd, off_t(st.tail + closing.count)) == 0
    let points = "\(st.pointCount) point\(st.pointCount == 1 ? "" : "s")"
    st.failure =
      restored
      ? "\(SafeText.clean(path)): \(why); recording stopped after \(points) (the file is whole)"
      : "\(SafeText.clean(path)): \(why); recording stopped after \(points), and the file could not be closed"
    return false
  }

  /// Writes all of `bytes` at `offset`; nil, or the errno of the write that failed (a write
  /// that makes no progress counts as ENOSPC).
  private static func write(_ fd: Int32, _ bytes: [UInt8], at offset: Int) -> Int32? {
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes {
        pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done))
      }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { return errno }
      if n == 0 { return ENOSPC }
      done += n
    }
    return nil
  }

  static func time(_ d: Date) -> String {
    let t = d.timeIntervalSince1970
    let secs = Int(t.rounded(.down))
    let days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400
    let rem = secs - days * 86400
    // Civil from days (Howard Hinnant).
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    let ms = Int(((t - Double(secs)) * 1000).rounded(.down))
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02d%@Z", year, month, day, rem / 3600, rem / 60 % 60,
      rem % 60, ms > 0 ? String(format: ".%03d", ms) : "")
  }

  static func escape(_ s: String) -> String {
    SafeText.clean(s).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
      of: "<", with: "&lt;"
    ).replacingOccurrences(of: ">", with: "&gt;")
  }
}

/// Writes a recording on a thread of its own from a bounded queue, so the viewer's loop never
/// waits for the disk. `put` is called on the location provider's thread and waits while the
/// queue is full (a source faster than the disk is slowed down, not recorded in part), until
/// `close` is called.
public final class RecordingWriter: Sendable {
  public enum Item: Sendable {
    case fix(LocationFix)
    /// A lost fix, a failure or a restart: the next point starts a new segment.
    case gap
  }

  public let recorder: GPXRecorder
  /// Items held at most.
  public let capacity: Int
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)
  private let room = DispatchSemaphore(value: 0)
  private let done = DispatchSemaphore(value: 0)

  struct State {
    var queue: [Item] = []
    var closed = false
    var producerWaiting = false
    /// Fixes still queued when `close` gave up waiting.
    var notWritten = 0
  }

  public init(recorder: GPXRecorder, capacity: Int = 4096) {
    self.recorder = recorder
    self.capacity = capacity
    let t = Thread { [self] in run() }
    t.name = "record \(SafeText.clean(recorder.path))"
    t.start()
  }

  /// Fixes left in the queue when `close` gave up waiting for the disk.
  public var notWritten: Int { state.withLock { $0.notWritten } }

  /// Queues an item; waits while the queue is full. False once closed or stopped.
  @discardableResult
  public func put(_ item: Item) -> Bool {
    while true {
      let taken: Bool? = state.withLock { s in
        if s.closed { return nil }
        if recorder.failure != nil { return nil }
        if s.queue.count < capacity {
          s.queue.append(item)
          return true
        }
        s.producerWaiting = true
        return false
      }
      guard let ok = taken else { return false }
      if ok {
        wake.signal()
        return true
      }
      _ = room.wait(timeout: .now() + .milliseconds(50))
    }
  }

  /// Takes no more items, writes what is queued, and waits up to `timeout` seconds for it.
  /// True when everything queued was written.
  @discardableResult
  public func close(timeout: Double = 2) -> Bool {
    state.withLock { $0.closed = true }
    wake.signal()
    room.signal()
    if done.wait(timeout: .now() + timeout) == .timedOut {
      state.withLock { s in
        s.notWritten += s.queue.reduce(0) { n, i in if case .fix = i { n + 1 } else { n } }
      }
      return false
    }
    done.signal()
    return true
  }

  private func run() {
    while true {
      var batch: [Item] = []
      let (closed, waiting) = state.withLock { s in
        swap(&batch, &s.queue)
        defer { s.producerWaiting = false }
        return (s.closed, s.producerWaiting)
      }
      if waiting { room.signal() }
      if batch.isEmpty {
        if closed { break }
        _ = wake.wait(timeout: .now() + .milliseconds(500))
        continue
      }
      for item in batch {
        let ok: Bool
        switch item {
        case .fix(let f): ok = recorder.append(f)
        case .gap: ok = recorder.newSegment()
        }
        // Recording stopped (the recorder says why); the rest is not written.
        if !ok { break }
      }
    }
    done.signal()
  }
}
