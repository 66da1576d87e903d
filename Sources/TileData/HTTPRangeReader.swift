import Dispatch
import Foundation
import Synchronization

/// Byte ranges of an HTTP(S) resource: `Range: bytes=a-b` requests answered with `206`.
///
/// - A server that ignores `Range` and answers `200` with the whole body is handled too: the
///   body (at most `maxFullBodyBytes`, else an error) is kept and later reads of that version
///   are served from it.
/// - Versions: every answer's ETag and total size (from `Content-Range`) are compared with the
///   version the caller expects; a difference, or a `412`, throws `ByteRangeReadError.changed`.
///   `If-Match` is not sent: servers compare it strongly, so a weak ETag (`W/"…"`, common
///   behind compressing proxies) would fail every read.
final class HTTPByteRangeReader: ByteRangeReader {
  let url: URL
  var location: String { url.absoluteString }
  let maxFullBodyBytes: Int
  let userAgent: String
  private let client: BoundedHTTPClient

  private struct State {
    /// The whole archive, when the server answered a range request with `200`.
    var full: (data: Data, version: ArchiveVersion)?
  }
  private let state = Mutex(State())

  init(
    url: URL, timeout: TimeInterval, maxConnections: Int, maxFullBodyBytes: Int,
    userAgent: String
  ) {
    self.url = url
    self.maxFullBodyBytes = maxFullBodyBytes
    self.userAgent = userAgent
    client = BoundedHTTPClient(
      timeout: timeout, maxConnections: maxConnections, userAgent: userAgent)
  }

  private func fail(_ message: String) -> TileSourceError {
    .readFailed(path: location, message: message)
  }

  func read(offset: UInt64, length: Int, expecting: ArchiveVersion?) throws -> (
    data: Data, version: ArchiveVersion
  ) {
    if let full = state.withLock({ $0.full }) {
      if expecting == nil || expecting == full.version {
        return (Self.slice(full.data, offset: offset, length: length), full.version)
      }
      state.withLock { $0.full = nil }
    }
    guard length > 0 else { return (Data(), expecting ?? ArchiveVersion()) }
    let size = expecting?.size
    if let expecting, let size, offset >= size { return (Data(), expecting) }
    var last = offset.addingReportingOverflow(UInt64(length - 1))
    if let size, last.overflow || last.partialValue >= size { last = (size - 1, false) }
    guard !last.overflow else { throw fail("range at byte \(offset) overflows") }
    let request = BoundedHTTPClient.Request(
      url: url.absoluteString, headers: [("Range", "bytes=\(offset)-\(last.partialValue)")],
      decompress: false)
    let expected = Int(last.partialValue - offset + 1)
    let reply: BoundedHTTPClient.Reply
    do {
      reply = try client.fetch(request, limits: .init(ok: maxFullBodyBytes, partial: expected))
    } catch BoundedHTTPClient.Failure.tooLarge(let status, let limit) {
      switch status {
      case 200:
        throw fail(
          "the server ignores Range requests and the archive is larger than \(limit) bytes")
      case 206:
        throw fail("HTTP 206: answer larger than the \(limit) bytes asked for")
      default:
        throw fail("HTTP \(status) \(HTTPResponseHead.reason(status))")
      }
    } catch let failure as BoundedHTTPClient.Failure {
      throw fail(failure.message(timeout: client.timeout))
    }
    let http = reply.response
    let etag = http.value(forHTTPHeaderField: "ETag")
    func checked(_ total: UInt64?) throws -> ArchiveVersion {
      let version = ArchiveVersion(etag: etag, size: total)
      if let expecting, version.differs(from: expecting) {
        throw ByteRangeReadError.changed(old: expecting.etag, new: etag)
      }
      return ArchiveVersion(etag: etag, size: total ?? expecting?.size)
    }
    switch http.statusCode {
    case 206:
      guard let range = Self.contentRange(http.value(forHTTPHeaderField: "Content-Range")) else {
        throw fail("HTTP 206 without a valid Content-Range")
      }
      let version = try checked(range.total)
      guard range.first == offset, reply.body.count == Int(range.last - range.first + 1),
        reply.body.count <= expected
      else {
        throw fail(
          "HTTP 206 answered bytes \(range.first)-\(range.last) (\(reply.body.count) bytes) "
            + "for bytes=\(offset)-\(last.partialValue)")
      }
      return (reply.body, version)
    case 200:
      let version = try checked(UInt64(reply.body.count))
      state.withLock { $0.full = (reply.body, version) }
      return (Self.slice(reply.body, offset: offset, length: length), version)
    case 416:
      // The range starts past the end: nothing to read there.
      let total = Self.unsatisfiedLength(http.value(forHTTPHeaderField: "Content-Range"))
      return (Data(), try checked(total))
    case 412:
      throw ByteRangeReadError.changed(old: expecting?.etag, new: etag)
    default:
      throw fail("HTTP \(http.statusCode) \(HTTPResponseHead.reason(http.statusCode))")
    }
  }

  static func slice(_ data: Data, offset: UInt64, length: Int) -> Data {
    guard offset < UInt64(data.count), length > 0 else { return Data() }
    let start = data.startIndex + Int(offset)
    let end = start + min(length, data.count - Int(offset))
    return data.subdata(in: start..<end)
  }

  /// Parses `bytes first-last/total` (total may be `*`).
  static func contentRange(_ text: String?) -> (first: UInt64, last: UInt64, total: UInt64?)? {
    guard let text = text?.trimmingCharacters(in: .whitespaces),
      text.lowercased().hasPrefix("bytes ")
    else { return nil }
    let spec = text.dropFirst(6).trimmingCharacters(in: .whitespaces)
    let halves = spec.split(separator: "/", maxSplits: 1).map(String.init)
    guard halves.count == 2 else { return nil }
    let total = UInt64(halves[1])
    let ends = halves[0].split(separator: "-").compactMap { UInt64($0) }
    guard ends.count == 2, ends[0] <= ends[1] else { return nil }
    if let total, ends[1] >= total { return nil }
    return (ends[0], ends[1], total)
  }

  /// The total length in a `416` answer's `bytes */total`.
  static func unsatisfiedLength(_ text: String?) -> UInt64? {
    guard let text = text?.trimmingCharacters(in: .whitespaces),
      text.lowercased().hasPrefix("bytes */")
    else { return nil }
    return UInt64(text.dropFirst(8))
  }
}

/// Runs blocking jobs (reads that wait for the network) on at most `limit` threads of its own.
/// Not on Dispatch's shared pool: with two cores it has few threads, and jobs blocked there
/// could starve the URLSession callbacks they wait for. Idle threads end after 10 s.
final class BlockingWorkPool: Sendable {
  let limit: Int
  let name: String
  private struct State {
    var jobs: [@Sendable () -> Void] = []
    var threads = 0
    var idle = 0
  }
  private let state = Mutex(State())
  private let wake = DispatchSemaphore(value: 0)

  init(limit: Int, name: String) {
    self.limit = max(1, limit)
    self.name = name
  }

  /// Queues a job; it starts at once when a thread is free or may be started.
  func run(_ job: @escaping @Sendable () -> Void) {
    let (signal, spawn) = state.withLock { s -> (Bool, Bool) in
      s.jobs.append(job)
      if s.idle > 0 {
        s.idle -= 1
        return (true, false)
      }
      if s.threads < limit {
        s.threads += 1
        return (false, true)
      }
      return (false, false)  // a busy thread takes it next
    }
    if signal { wake.signal() }
    if spawn {
      let thread = Thread { [self] in work() }
      thread.name = name
      thread.start()
    }
  }

  private func work() {
    while true {
      let job = state.withLock { s -> (@Sendable () -> Void)? in
        s.jobs.isEmpty ? nil : s.jobs.removeFirst()
      }
      if let job {
        job()
        continue
      }
      state.withLock { $0.idle += 1 }
      if wake.wait(timeout: .now() + 10) == .timedOut {
        // Still counted idle: nobody chose this wait, so end. Otherwise a `run` took the
        // token and its signal is on its way: take it and work.
        let exit = state.withLock { s -> Bool in
          guard s.idle > 0 else { return false }
          s.idle -= 1
          s.threads -= 1
          return true
        }
        if exit { return }
        wake.wait()
      }
    }
  }
}
