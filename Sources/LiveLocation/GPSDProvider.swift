import Foundation
import MapGeometry
import Synchronization

/// Positions from gpsd over TCP: `?WATCH={"enable":true,"json":true}`, then TPV and SKY
/// reports, one JSON object per line. When the daemon is not there or goes away, the provider
/// reports it and tries again, waiting longer each time (a quarter second, doubling to
/// `maximumBackoff`); once connected the wait starts short again.
public final class GPSDProvider: LocationProvider {
  public let host: String
  public let port: UInt16
  public var name: String { "gpsd \(host):\(port)" }
  /// The longest wait between connection attempts, in seconds.
  public let maximumBackoff: Double
  let core = ProviderCore()

  /// The daemon's default port.
  public static let defaultPort: UInt16 = 2947

  public init(host: String = "127.0.0.1", port: UInt16 = defaultPort, maximumBackoff: Double = 4) {
    self.host = host
    self.port = port
    self.maximumBackoff = maximumBackoff
  }

  /// Parses `gpsd`, `gpsd://HOST`, `gpsd://HOST:PORT` or `gpsd://[V6]:PORT`; nil when the text
  /// is not a gpsd address, and an error when it is one but malformed.
  public static func address(_ text: String) throws(LocationSourceError) -> (String, UInt16)? {
    if text == "gpsd" { return ("127.0.0.1", defaultPort) }
    guard text.hasPrefix("gpsd://") else { return nil }
    var rest = Substring(text.dropFirst("gpsd://".count))
    if rest.hasSuffix("/") { rest = rest.dropLast() }
    var host = rest
    var port = defaultPort
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]") else { throw .badAddress(text) }
      host = rest[rest.index(after: rest.startIndex)..<close]
      let after = rest[rest.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":"), let p = UInt16(after.dropFirst()), p > 0 else {
          throw .badAddress(text)
        }
        port = p
      }
    } else if let colon = rest.lastIndex(of: ":") {
      host = rest[..<colon]
      guard let p = UInt16(rest[rest.index(after: colon)...]), p > 0 else {
        throw .badAddress(text)
      }
      port = p
    }
    if host.isEmpty { host = "127.0.0.1" }
    guard host.count < 256, host.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" })
    else { throw .badAddress(text) }
    return (String(host), port)
  }

  public var statistics: SourceStatistics { core.statistics }

  public func start(_ handler: @escaping @Sendable (LocationEvent) -> Void) {
    core.start(name: name) { [self] in run(handler) }
  }

  public func stop() { core.stop() }

  private func run(_ handler: @escaping @Sendable (LocationEvent) -> Void) {
    var backoff = 0.25
    var lastFailure: String?
    while !core.isStopped {
      let fd: Int32
      do {
        fd = try TCPConnection.connect(host: host, port: port, timeout: 5)
      } catch {
        let text = "\(name): \(error)"
        if text != lastFailure { handler(.failed(text)) }
        lastFailure = text
        if !core.sleep(backoff) { return }
        backoff = min(backoff * 2, maximumBackoff)
        continue
      }
      let delivered = session(fd, handler)
      close(fd)
      if core.isStopped { return }
      let text = "\(name): connection closed"
      handler(.failed(text))
      lastFailure = text
      if delivered { backoff = 0.25 }
      if !core.sleep(backoff) { return }
      backoff = min(backoff * 2, maximumBackoff)
    }
  }

  /// One connection: watch, then read reports until the daemon closes or we stop. True when
  /// any report arrived.
  private func session(_ fd: Int32, _ handler: @Sendable (LocationEvent) -> Void) -> Bool {
    let watch = Array("?WATCH={\"enable\":true,\"json\":true}\n".utf8)
    guard TCPConnection.writeAll(fd, watch) else { return false }
    var decoder = GPSDDecoder()
    var delivered = false
    while !core.isStopped {
      let (readable, stopped) = core.waitReadable(fd, milliseconds: 200)
      if stopped { return delivered }
      guard readable else { continue }
      guard let chunk = readChunk(fd) else { return delivered }
      let events = decoder.feed(chunk)
      core.set(decoder.statistics)
      if decoder.statistics.accepted > 0 { delivered = true }
      for e in events { handler(e) }
    }
    return delivered
  }
}

/// Turns gpsd's JSON lines into location events (TPV with a fix → a fix carrying the latest
/// SKY counts; TPV without → no fix). Malformed lines are counted and skipped.
public struct GPSDDecoder: Sendable {
  public private(set) var statistics = SourceStatistics()
  private var line: [UInt8] = []
  private var overlong = false
  private var used: Int?
  private var inView: Int?
  private var hdop: Double?
  private var lineNumber = 0

  public init() {}

  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [LocationEvent] {
    var events: [LocationEvent] = []
    for b in bytes {
      if b == 10 {
        lineNumber += 1
        if overlong {
          malformed("line too long")
        } else if !line.isEmpty {
          take(&events)
        }
        line.removeAll(keepingCapacity: true)
        overlong = false
      } else if !overlong {
        line.append(b)
        if line.count > GPSDReport.maximumLineLength {
          overlong = true
          line.removeAll()
        }
      }
    }
    return events
  }

  private mutating func malformed(_ why: String) {
    statistics.malformed += 1
    statistics.lastProblem = SafeText.clean("gpsd report \(lineNumber): \(why)")
  }

  private mutating func take(_ events: inout [LocationEvent]) {
    var l = line[...]
    if l.last == 13 { l = l.dropLast() }
    do {
      let r = try GPSDReport.parse(l)
      statistics.accepted += 1
      switch r {
      case .tpv(let fix?, _):
        var f = fix
        f.satellitesUsed = used
        f.satellitesInView = inView
        f.hdop = hdop
        if f.horizontalAccuracy == nil {
          f.horizontalAccuracy = hdop.map { $0 * LocationFix.rangeError }
        }
        statistics.fixes += 1
        events.append(.fix(f))
      case .tpv(nil, _):
        events.append(.noFix(satellitesInView: inView))
      case .sky(let u, let n, let h):
        used = u ?? used
        inView = n ?? inView
        hdop = h ?? hdop
      case .error(let m):
        events.append(.failed("gpsd: \(m)"))
      case .version, .other:
        break
      }
    } catch {
      malformed(error.description)
    }
  }
}

/// Why a location source could not be used.
public enum LocationSourceError: Error, Equatable, CustomStringConvertible {
  case badAddress(String)
  case cannotOpen(String, String)
  case unknownFormat(String)
  case connect(String)

  public var description: String {
    switch self {
    case .badAddress(let t): return "\(SafeText.clean(t)): expected gpsd://HOST:PORT"
    case .cannotOpen(let p, let why): return "\(SafeText.clean(p)): \(why)"
    case .unknownFormat(let p):
      return "\(SafeText.clean(p)): not NMEA 0183, GPX or CSV with latitude and longitude"
    case .connect(let why): return why
    }
  }
}

/// Blocking TCP helpers over POSIX sockets.
package enum TCPConnection {
  /// Connects to the first address of `host` that answers within `timeout` seconds.
  package static func connect(host: String, port: UInt16, timeout: Double)
    throws(LocationSourceError)
    -> Int32
  {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var list: UnsafeMutablePointer<addrinfo>?
    let r = getaddrinfo(host, String(port), &hints, &list)
    guard r == 0, let first = list else {
      throw .connect("cannot resolve \(host): \(String(cString: gai_strerror(r)))")
    }
    defer { freeaddrinfo(list) }
    var lastError = "no address"
    var ai: UnsafeMutablePointer<addrinfo>? = first
    while let a = ai {
      ai = a.pointee.ai_next
      let fd = socket(a.pointee.ai_family, a.pointee.ai_socktype, a.pointee.ai_protocol)
      if fd < 0 { continue }
      let flags = fcntl(fd, F_GETFL)
      _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      var ok = Glibc.connect(fd, a.pointee.ai_addr, a.pointee.ai_addrlen) == 0
      if !ok && errno == EINPROGRESS {
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        if poll(&p, 1, Int32(timeout * 1000)) == 1 {
          var err: Int32 = 0
          var len = socklen_t(MemoryLayout<Int32>.size)
          getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
          ok = err == 0
          if !ok { lastError = String(cString: strerror(err)).lowercased() }
        } else {
          lastError = "timed out"
        }
      } else if !ok {
        lastError = errnoText().lowercased()
      }
      if ok { return fd }
      close(fd)
    }
    throw .connect(lastError)
  }

  package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      guard poll(&p, 1, 5000) == 1 else { return false }
      let n = bytes.withUnsafeBytes {
        send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL))
      }
      if n < 0 && errno == EINTR { continue }
      if n < 0 && errno == EAGAIN { continue }
      guard n > 0 else { return false }
      offset += n
    }
    return true
  }
}
