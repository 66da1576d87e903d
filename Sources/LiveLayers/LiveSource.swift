import Foundation
import LiveLocation
import MapGeometry
import Synchronization
import TileData

/// Why a `--layer` source cannot be used.
public struct LiveSourceError: Error, Equatable, CustomStringConvertible {
  /// The message, one line.
  public let description: String
  init(_ d: String) { description = d }
}

/// Where a live layer comes from (`--layer SOURCE`).
public enum LiveSourceSpec: Sendable, Equatable {
  /// `-`: standard input (or a descriptor it was moved to).
  case standardInput
  /// A regular file: read, then followed as it grows (the viewer) or read to its end
  /// (`render`).
  case file(String)
  /// A FIFO or a character device: a stream (a FIFO is opened again when its writer closes).
  case stream(String)
  /// `tcp://HOST:PORT`: a line stream.
  case tcp(host: String, port: UInt16)
  /// `http(s)://…`: fetched every `--every` seconds.
  case http(String)
  /// `gpsd://HOST[:PORT]`: gpsd's JSON (its AIS reports), after a WATCH command.
  case gpsd(host: String, port: UInt16)

  /// Reads a `--layer` argument.
  public static func parse(_ text: String) throws(LiveSourceError) -> LiveSourceSpec {
    if text == "-" { return .standardInput }
    if text.isEmpty { throw LiveSourceError("--layer: expected a source") }
    let lower = text.lowercased()
    if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
      guard text.count < 8192, !text.contains(where: { $0.isWhitespace }) else {
        throw LiveSourceError("--layer: \(SafeText.clean(text)): not a URL")
      }
      return .http(text)
    }
    if lower.hasPrefix("gpsd://") || lower == "gpsd" {
      do {
        guard let (h, p) = try GPSDProvider.address(text) else {
          throw LiveSourceError("--layer: \(SafeText.clean(text)): expected gpsd://HOST[:PORT]")
        }
        return .gpsd(host: h, port: p)
      } catch let e as LiveSourceError {
        throw e
      } catch {
        throw LiveSourceError("--layer: \(SafeText.clean(text)): expected gpsd://HOST[:PORT]")
      }
    }
    if lower.hasPrefix("tcp://") {
      let rest = String(text.dropFirst(6))
      guard let colon = rest.lastIndex(of: ":"),
        let port = UInt16(rest[rest.index(after: colon)...]),
        port > 0
      else { throw LiveSourceError("--layer: \(SafeText.clean(text)): expected tcp://HOST:PORT") }
      var host = String(rest[..<colon])
      if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
      guard !host.isEmpty, host.count < 256, !host.contains(where: { $0.isWhitespace || $0 == "/" })
      else { throw LiveSourceError("--layer: \(SafeText.clean(text)): expected tcp://HOST:PORT") }
      return .tcp(host: host, port: port)
    }
    if let r = lower.range(of: "://") {
      let scheme = lower[..<r.lowerBound]
      throw LiveSourceError(
        "--layer: \(SafeText.clean(text)): unsupported scheme \"\(SafeText.clean(String(scheme)))\" (expected -, a file, tcp://, http(s):// or gpsd://)"
      )
    }
    var st = stat()
    guard stat(text, &st) == 0 else {
      throw LiveSourceError(
        "--layer: \(SafeText.clean(text)): \(String(cString: strerror(errno)).lowercased())")
    }
    switch st.st_mode & S_IFMT {
    case S_IFREG: return .file(text)
    case S_IFIFO, S_IFCHR, S_IFSOCK: return .stream(text)
    case S_IFDIR: throw LiveSourceError("--layer: \(SafeText.clean(text)): is a directory")
    default: throw LiveSourceError("--layer: \(SafeText.clean(text)): not a file or a stream")
    }
  }

  /// The source as messages name it.
  public var name: String {
    switch self {
    case .standardInput: return "standard input"
    case .file(let p), .stream(let p): return SafeText.clean(p)
    case .tcp(let h, let p): return "tcp://\(SafeText.clean(h)):\(p)"
    case .http(let u): return SafeText.clean(u)
    case .gpsd(let h, let p): return "gpsd://\(SafeText.clean(h)):\(p)"
    }
  }

  /// Whether the source has an end that reading reaches (a file, standard input): `render`
  /// reads these to the end and waits `--wait` seconds for the others.
  public var hasEnd: Bool {
    switch self {
    case .standardInput, .file: return true
    case .stream, .tcp, .http, .gpsd: return false
    }
  }
}

/// Reads one source on a thread of its own into a `LiveFeed`. Memory stays bounded whatever
/// the peer sends (reads of 64 KiB, lines of at most 1 MiB, HTTP bodies of at most 64 MiB);
/// a source that fails or closes is said (`LiveFeed.problems`) and tried again, waiting
/// longer each time (a quarter second doubling to 4 s).
public final class LiveSourceReader: Sendable {
  /// What is read.
  public let spec: LiveSourceSpec
  /// The feed the updates go to.
  public let feed: LiveFeed
  /// The source's number in the feed.
  public let index: Int
  /// Whether a file is followed as it grows (the viewer) or read to its end (`render`).
  public let follows: Bool
  /// Seconds between HTTP fetches.
  public let interval: Double
  private let descriptor: Int32?
  private let stopped = Atomic<Bool>(false)
  private let finished = Atomic<Bool>(true)

  /// A reader; `fileDescriptor` replaces standard input (the viewer moves it aside so the
  /// terminal can take descriptor 0).
  public init(
    spec: LiveSourceSpec, feed: LiveFeed, index: Int, follows: Bool, interval: Double = 1,
    fileDescriptor: Int32? = nil
  ) {
    self.spec = spec
    self.feed = feed
    self.index = index
    self.follows = follows
    self.interval = max(0.05, interval)
    descriptor = fileDescriptor
    feed.register(source: index, name: spec.name)
  }

  /// Starts reading on a new thread.
  public func start() {
    stopped.store(false, ordering: .relaxed)
    finished.store(false, ordering: .relaxed)
    let t = Thread { [self] in
      run()
      finished.store(true, ordering: .relaxed)
    }
    t.name = "layer \(spec.name)"
    t.start()
  }

  /// Stops the thread and waits for it (at most two seconds).
  public func stop() {
    stopped.store(true, ordering: .relaxed)
    for _ in 0..<200 {
      if finished.load(ordering: .relaxed) { return }
      usleep(10_000)
    }
  }

  private var isStopped: Bool { stopped.load(ordering: .relaxed) }

  private func sleep(_ seconds: Double) -> Bool {
    var left = seconds
    while left > 0 {
      if isStopped { return false }
      usleep(UInt32(min(left, 0.05) * 1_000_000))
      left -= 0.05
    }
    return !isStopped
  }

  private func run() {
    Self.yieldToTheScreen()
    var decoder = LiveDecoder(sourceName: spec.name)
    switch spec {
    case .standardInput: readStream(descriptor ?? 0, &decoder, reopen: nil)
    case .stream(let path): readStream(nil, &decoder, reopen: path)
    case .file(let path): readFile(path, &decoder)
    case .tcp(let host, let port): readSocket(host, port, watch: nil, &decoder)
    case .gpsd(let host, let port):
      readSocket(
        host, port, watch: "?WATCH={\"enable\":true,\"json\":true,\"scaled\":true}\n", &decoder)
    case .http(let url): fetchRepeatedly(url, &decoder)
    }
  }

  /// Lowers this reader thread's priority (nice 10) below the viewer's: on a busy machine a
  /// flooding source then takes the CPU the screen leaves, not the time a key's frame needs
  /// (the store keeps only each target's latest state, so a reader that falls behind costs
  /// updates in between, not memory; a pipe's writer waits). Linux applies
  /// `setpriority(PRIO_PROCESS, 0, …)` to the calling thread alone.
  static func yieldToTheScreen() {
    #if os(Linux)
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    #endif
  }

  /// Hands what the decoder made to the feed; a source that cannot be read is said.
  private func deliver(_ updates: inout [LiveUpdate], _ d: LiveDecoder) {
    feed.ingest(updates, source: index, statistics: d.statistics)
    updates.removeAll(keepingCapacity: updates.count < 65_536)
    if let f = d.failure { feed.report(source: index, problem: f) }
  }

  private static let chunk = 65_536

  /// Reads a descriptor (or a path opened, and opened again after each writer) to its end.
  private func readStream(_ fd0: Int32?, _ d: inout LiveDecoder, reopen path: String?) {
    var buffer = [UInt8](repeating: 0, count: Self.chunk)
    var updates: [LiveUpdate] = []
    var backoff = 0.25
    while !isStopped {
      var fd = fd0 ?? -1
      if let p = path {
        fd = open(p, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        if fd < 0 {
          feed.report(source: index, problem: "\(spec.name): \(Self.errnoText())")
          if !sleep(backoff) { return }
          backoff = min(backoff * 2, 4)
          continue
        }
      }
      var ended = false
      while !isStopped {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let r = poll(&p, 1, 100)
        if r == 0 { continue }
        if r < 0 && errno == EINTR { continue }
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, Self.chunk) }
        if n < 0 && (errno == EINTR || errno == EAGAIN) {
          if errno == EAGAIN { usleep(10_000) }
          continue
        }
        if n <= 0 {
          ended = true
          break
        }
        buffer.withUnsafeBufferPointer {
          d.feed(UnsafeBufferPointer(rebasing: $0[0..<n]), into: &updates)
        }
        deliver(&updates, d)
        if d.failure != nil { break }
      }
      if path != nil { close(fd) }
      d.finish(into: &updates)
      deliver(&updates, d)
      if d.failure != nil || isStopped { return }
      // Standard input ends once; a FIFO waits for its next writer.
      if path == nil || !follows {
        if ended { feed.reportEnded(source: index) }
        return
      }
      usleep(50_000)
    }
  }

  /// Reads a regular file to its end, then (following) reads what is added; a file that
  /// shrinks or is replaced is read again from its start.
  private func readFile(_ path: String, _ d: inout LiveDecoder) {
    var buffer = [UInt8](repeating: 0, count: Self.chunk)
    var updates: [LiveUpdate] = []
    while !isStopped {
      let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
      if fd < 0 {
        feed.report(source: index, problem: "\(spec.name): \(Self.errnoText())")
        if !follows || !sleep(0.5) { return }
        continue
      }
      var st = stat()
      fstat(fd, &st)
      let inode = st.st_ino
      var offset = 0
      while !isStopped {
        let n = buffer.withUnsafeMutableBytes {
          pread(fd, $0.baseAddress, Self.chunk, off_t(offset))
        }
        if n < 0 && errno == EINTR { continue }
        if n > 0 {
          offset += n
          buffer.withUnsafeBufferPointer {
            d.feed(UnsafeBufferPointer(rebasing: $0[0..<n]), into: &updates)
          }
          deliver(&updates, d)
          if d.failure != nil { break }
          continue
        }
        if n < 0 {
          feed.report(source: index, problem: "\(spec.name): \(Self.errnoText())")
          break
        }
        // At the end: a last line without its newline counts only when not following.
        if !follows {
          d.finish(into: &updates)
          deliver(&updates, d)
          close(fd)
          feed.reportEnded(source: index)
          return
        }
        if !sleep(0.2) { break }
        var now = stat()
        if stat(path, &now) == 0 && now.st_ino != inode { break }  // replaced: open the new one
        fstat(fd, &now)
        if Int(now.st_size) < offset {
          offset = 0  // truncated: read again
          d.finish(into: &updates)
          deliver(&updates, d)
        }
      }
      close(fd)
      if d.failure != nil || isStopped { return }
      d.finish(into: &updates)
      deliver(&updates, d)
    }
  }

  /// A TCP line stream (gpsd: after the WATCH command), connected again when it closes.
  private func readSocket(_ host: String, _ port: UInt16, watch: String?, _ d0: inout LiveDecoder) {
    var buffer = [UInt8](repeating: 0, count: Self.chunk)
    var updates: [LiveUpdate] = []
    var backoff = 0.25
    while !isStopped {
      let fd: Int32
      do {
        fd = try TCPConnection.connect(host: host, port: port, timeout: 5)
      } catch {
        feed.report(source: index, problem: "\(spec.name): \(error)")
        if !sleep(backoff) { return }
        backoff = min(backoff * 2, 4)
        continue
      }
      if let w = watch, !TCPConnection.writeAll(fd, Array(w.utf8)) {
        close(fd)
        feed.report(source: index, problem: "\(spec.name): could not send the WATCH command")
        if !sleep(backoff) { return }
        continue
      }
      // Each connection is a new stream (gpsd sends its VERSION first again).
      var d = LiveDecoder(sourceName: spec.name)
      var got = false
      while !isStopped {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let r = poll(&p, 1, 100)
        if r == 0 || (r < 0 && errno == EINTR) { continue }
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, Self.chunk, 0) }
        if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
        if n <= 0 { break }
        got = true
        buffer.withUnsafeBufferPointer {
          d.feed(UnsafeBufferPointer(rebasing: $0[0..<n]), into: &updates)
        }
        deliver(&updates, d)
        if d.failure != nil { break }
      }
      close(fd)
      d.finish(into: &updates)
      deliver(&updates, d)
      d0 = d
      if isStopped || d.failure != nil { return }
      feed.report(source: index, problem: "\(spec.name): connection closed")
      if got { backoff = 0.25 }
      if !sleep(backoff) { return }
      backoff = min(backoff * 2, 4)
    }
  }

  /// Fetches a URL every `interval` seconds; each body is decoded whole.
  private func fetchRepeatedly(_ url: String, _ d: inout LiveDecoder) {
    let client = BoundedHTTPClient(timeout: max(5, interval * 4), maxConnections: 1)
    var updates: [LiveUpdate] = []
    while !isStopped {
      let started = LiveFeed.uptime()
      do {
        let reply = try client.fetch(
          BoundedHTTPClient.Request(url: url),
          limits: BoundedHTTPClient.Limits(
            ok: LiveDecoder.maximumDocumentLength, partial: LiveDecoder.maximumDocumentLength))
        if reply.response.status == 200 {
          d.decodeDocument([UInt8](reply.body), into: &updates)
          deliver(&updates, d)
          if d.failure != nil { return }
          feed.report(source: index, problem: nil)
        } else {
          feed.report(
            source: index,
            problem:
              "\(spec.name): HTTP \(reply.response.status) \(HTTPResponseHead.reason(reply.response.status))"
          )
        }
      } catch let f as BoundedHTTPClient.Failure {
        let why: String
        switch f {
        case .tooLarge(_, let limit): why = "an answer over \(limit >> 20) MiB"
        case .headersTooLarge: why = "headers over 64 KiB"
        case .timedOut: why = "timed out"
        case .cancelled: return
        case .transport(let t): why = t
        }
        feed.report(source: index, problem: "\(spec.name): \(SafeText.clean(why))")
      } catch {
        feed.report(source: index, problem: "\(spec.name): \(error)")
      }
      if !sleep(max(0, interval - (LiveFeed.uptime() - started))) { return }
    }
  }

  static func errnoText() -> String { String(cString: strerror(errno)).lowercased() }
}
