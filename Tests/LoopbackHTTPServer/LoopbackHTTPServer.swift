import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small HTTP/1.1 server for tests: BSD sockets on 127.0.0.1 with an ephemeral port, one
/// thread accepting and one per connection, every answer closing its connection. The handler
/// decides each answer; it may also delay it, hang (never answer) or close without a word.
public final class LoopbackHTTPServer: Sendable {
  public struct Request: Sendable {
    public let method: String
    public let path: String
    /// Header names in lower case.
    public let headers: [String: String]
    /// When the request was read.
    public let time: Date
  }

  public enum Reply: Sendable {
    /// An answer, sent after `delay` seconds.
    case respond(
      status: Int, headers: [String: String] = [:], body: Data = Data(), delay: Double = 0)
    /// No answer: the connection stays open until the server stops.
    case hang
    /// The connection is closed without an answer.
    case close
    /// These bytes exactly (status line, headers, body), then the connection closes: for
    /// answers a well-behaved server never gives, such as a Content-Length the body does not
    /// fill. `LoopbackHTTPServer.rawResponse` builds one.
    case raw(Data)
    /// An answer (`200 OK` unless `status` says) with `Transfer-Encoding: chunked` whose body
    /// is `chunk` sent again and again, `total` bytes at most, for as long as the client
    /// reads: a hostile server. `streamedBytes` counts what was sent.
    case stream(status: Int = 200, chunk: Data, total: Int, headers: [String: String] = [:])
  }

  /// A raw HTTP/1.1 response: the status line, `headers` as given (nothing added, so no
  /// Content-Length unless given) and `body`.
  public static func rawResponse(status: Int, headers: [(String, String)], body: Data) -> Data {
    var head = "HTTP/1.1 \(status) \(reason(status))\r\n"
    for (k, v) in headers { head += "\(k): \(v)\r\n" }
    var bytes = Data((head + "\r\n").utf8)
    bytes.append(body)
    return bytes
  }

  public let port: UInt16
  private let listener: Int32
  private let handler: @Sendable (Request) -> Reply
  private struct State {
    var requests: [Request] = []
    var active = 0
    var peakActive = 0
    var streamed = 0
    var stopped = false
    /// Connections accepted and not yet closed by this server.
    var open = 0
  }
  private let state = Mutex(State())

  public init(handler: @escaping @Sendable (Request) -> Reply) throws {
    self.handler = handler
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(fd, 64) == 0 else {
      let message = String(cString: strerror(errno))
      close(fd)
      throw ServerError("bind/listen: \(message)")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    port = UInt16(bigEndian: address.sin_port)
    listener = fd
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  deinit { stop() }

  /// The base URL, e.g. `http://127.0.0.1:40123`.
  public var baseURL: String { "http://127.0.0.1:\(port)" }

  /// Every request read so far, in arrival order.
  public var requests: [Request] { state.withLock { $0.requests } }

  /// Body bytes sent by `.stream` answers so far (not counting chunk framing).
  public var streamedBytes: Int { state.withLock { $0.streamed } }

  /// The most requests being answered at one time (read, and their answer not yet started).
  public var peakConcurrentRequests: Int { state.withLock { $0.peakActive } }

  /// Waits until this server has closed every connection it accepted (each answer closes its
  /// connection once sent, or once the client has gone), at most `timeout` seconds (a failure
  /// bound); whether it has. After it, `streamedBytes` and `requests` are final for the
  /// clients so far: a test that looked after a fixed moment could look while a starved
  /// server thread was still sending.
  @discardableResult
  public func waitUntilConnectionsClosed(timeout: Double = 60) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while state.withLock({ $0.open }) > 0 {
      if Date() >= end { return false }
      usleep(5_000)
    }
    return true
  }

  /// Stops accepting, and closes hanging connections.
  public func stop() {
    let first = state.withLock { s -> Bool in
      defer { s.stopped = true }
      return !s.stopped
    }
    guard first else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  private var stopped: Bool { state.withLock { $0.stopped } }

  private func acceptLoop() {
    while !stopped {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        return
      }
      state.withLock { $0.open += 1 }
      Thread.detachNewThread { [self] in
        serve(client)
        state.withLock { $0.open -= 1 }
      }
    }
  }

  private func serve(_ fd: Int32) {
    defer { close(fd) }
    // A bound on a client that neither sends nor reads; generous, as a loaded machine may keep
    // a client from its socket for seconds.
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var buffer = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 4096)
    let end: [UInt8] = Array("\r\n\r\n".utf8)
    while true {
      let n = recv(fd, &chunk, chunk.count, 0)
      if n <= 0 { return }
      buffer.append(contentsOf: chunk[0..<n])
      if buffer.count > 65536 { return }
      if buffer.count >= 4, containsSequence(buffer, end) { break }
    }
    let text = String(decoding: buffer, as: UTF8.self)
    let lines = text.components(separatedBy: "\r\n")
    let parts = lines[0].split(separator: " ")
    guard parts.count >= 2 else { return }
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
        .trimmingCharacters(in: .whitespaces)
    }
    let request = Request(
      method: String(parts[0]), path: String(parts[1]), headers: headers, time: Date())
    state.withLock {
      $0.requests.append(request)
      $0.active += 1
      $0.peakActive = max($0.peakActive, $0.active)
    }
    // A request counts as being answered from when it is read until its answer starts: the
    // client may start its next request as soon as the answer has arrived, before this thread
    // runs again, so counting until the send returns would see one too many.
    var counted = true
    func answering() {
      if counted { state.withLock { $0.active -= 1 } }
      counted = false
    }
    defer { answering() }
    switch handler(request) {
    case .close:
      return
    case .hang:
      while !stopped { usleep(5_000) }
    case .raw(let bytes):
      answering()
      sendAll(fd, bytes)
    case .stream(let status, let chunk, let total, let extra):
      answering()
      var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
      head += "Transfer-Encoding: chunked\r\nConnection: close\r\n"
      for (k, v) in extra.sorted(by: { $0.key < $1.key }) { head += "\(k): \(v)\r\n" }
      guard sendAll(fd, Data((head + "\r\n").utf8)), !chunk.isEmpty else { return }
      var piece = Data((String(chunk.count, radix: 16) + "\r\n").utf8)
      piece.append(chunk)
      piece.append(contentsOf: Array("\r\n".utf8))
      var sent = 0
      while sent < total, !stopped, sendAll(fd, piece) {
        sent += chunk.count
        state.withLock { $0.streamed += chunk.count }
      }
      sendAll(fd, Data("0\r\n\r\n".utf8))
    case .respond(let status, let extra, let body, let delay):
      if delay > 0 { usleep(useconds_t(delay * 1_000_000)) }
      answering()
      var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
      var fields = extra
      if status != 304 { fields["Content-Length"] = String(body.count) }
      fields["Connection"] = "close"
      for (k, v) in fields.sorted(by: { $0.key < $1.key }) { head += "\(k): \(v)\r\n" }
      head += "\r\n"
      var bytes = Data(head.utf8)
      if status != 304 && request.method != "HEAD" { bytes.append(body) }
      bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
          let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
          if n <= 0 { return }
          offset += n
        }
      }
    }
  }

  /// Sends every byte; false when the connection failed first.
  @discardableResult
  private func sendAll(_ fd: Int32, _ bytes: Data) -> Bool {
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let n = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        if n <= 0 { return false }
        offset += n
      }
      return true
    }
  }

  private func containsSequence(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard haystack.count >= needle.count else { return false }
    for i in 0...(haystack.count - needle.count) where haystack[i] == needle[0] {
      if Array(haystack[i..<(i + needle.count)]) == needle { return true }
    }
    return false
  }

  static func reason(_ status: Int) -> String {
    switch status {
    case 200: return "OK"
    case 206: return "Partial Content"
    case 304: return "Not Modified"
    case 404: return "Not Found"
    case 500: return "Internal Server Error"
    case 503: return "Service Unavailable"
    default: return "Status"
    }
  }
}

public struct ServerError: Error, CustomStringConvertible {
  public let description: String
  init(_ d: String) { description = d }
}
