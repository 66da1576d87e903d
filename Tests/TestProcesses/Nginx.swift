import Foundation
import Synchronization

/// A real nginx (Debian's) on a free loopback port, serving a folder, with its own
/// configuration, logs and pid file in a temporary folder: started by a test, stopped by it.
///
/// The access log has one line per request: `<connection serial> <requests on it> <status>
/// <body bytes sent> "<request line>"`, so a test can tell how many connections a client
/// opened and how many bytes it was sent.
public final class Nginx: Sendable {
  public let port: UInt16
  /// `http://127.0.0.1:PORT` (https with a certificate).
  public let baseURL: String
  /// The folder with the configuration and logs.
  public let directory: URL
  private let pid: pid_t
  private let stopped = Mutex(false)

  /// Starts nginx serving `root` on 127.0.0.1, over TLS when `certificate` (PEM certificate
  /// and key files) is given; waits until it accepts connections.
  ///
  /// `limitRate` (bytes a second, per connection) slows every answer down, as a far server.
  public init(
    serving root: URL, certificate: (cert: String, key: String)? = nil, limitRate: Int? = nil
  ) throws {
    guard
      let binary = ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else { throw SpawnError.message("nginx is not installed (Debian package nginx)") }
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("termmap-nginx-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var lastError: (any Error)?
    for _ in 0..<5 {
      let port = ChildProcess.freeLoopbackPort()
      let listen = certificate == nil ? "127.0.0.1:\(port)" : "127.0.0.1:\(port) ssl"
      let tls =
        certificate.map {
          "ssl_certificate \($0.cert);\n    ssl_certificate_key \($0.key);"
        } ?? ""
      let d = directory.path
      let config = """
        # The master runs as the test's user; as root, workers would otherwise become nobody
        # and could not read the test's folders.
        user \(geteuid() == 0 ? "root" : "nobody");
        worker_processes 1;
        pid \(d)/nginx.pid;
        error_log \(d)/error.log;
        events { worker_connections 256; }
        http {
          types { application/octet-stream pmtiles; application/x-protobuf pbf; }
          default_type application/octet-stream;
          client_body_temp_path \(d)/body;
          proxy_temp_path \(d)/proxy;
          fastcgi_temp_path \(d)/fastcgi;
          uwsgi_temp_path \(d)/uwsgi;
          scgi_temp_path \(d)/scgi;
          log_format conn '$connection $connection_requests $status $body_bytes_sent "$request"';
          access_log \(d)/access.log conn;
          keepalive_requests 10000;
          server {
            listen \(listen);
            \(tls)
            root \(root.path);
            \(limitRate.map { "limit_rate \($0);" } ?? "")
          }
        }
        """
      try config.write(
        to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
      let pid = try ChildProcess.spawn(
        [binary, "-e", "\(d)/error.log", "-p", d, "-c", "\(d)/nginx.conf", "-g", "daemon off;"])
      if Self.waitUntilAccepting(port: port, pid: pid) {
        self.port = port
        self.pid = pid
        baseURL = (certificate == nil ? "http" : "https") + "://127.0.0.1:\(port)"
        return
      }
      ChildProcess.stop(pid)
      let log =
        (try? String(contentsOf: directory.appendingPathComponent("error.log"), encoding: .utf8))
        ?? ""
      lastError = SpawnError.message("nginx did not start on port \(port): \(log)")
    }
    throw lastError!
  }

  deinit { stop() }

  /// The access log's lines so far (the marks of `accessLogThroughMark()` left out).
  public var accessLog: [String] {
    let text =
      (try? String(contentsOf: directory.appendingPathComponent("access.log"), encoding: .utf8))
      ?? ""
    return text.split(separator: "\n").map(String.init).filter { !$0.contains(Self.mark) }
  }

  static let mark = "/termmap-test-log-mark-"

  /// The access log with a line for every request nginx had answered when this was called,
  /// for clients that keep their connections (a map's tile loader): the test asks for a mark
  /// of its own on a new connection and waits (60 s, a failure bound) for the mark's line.
  ///
  /// nginx's one worker writes a request's line in the same turn as the answer's last bytes,
  /// before it takes the next event; the mark is sent after the client had its answers, so
  /// its line comes after theirs. No fixed moment "for a line that should not be there": a
  /// starved worker wrote such a line late, and a test that looked after 200 ms missed it.
  public func accessLogThroughMark() -> [String] {
    let path = Self.mark + UUID().uuidString
    let fd = ChildProcess.connectLoopback(port: port)
    if fd >= 0 {
      let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
      _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      var buffer = [UInt8](repeating: 0, count: 4096)
      while buffer.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }) > 0 {}
      close(fd)
    }
    let end = Date().addingTimeInterval(60)
    let file = directory.appendingPathComponent("access.log")
    while Date() < end {
      let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
      if text.contains(path) { break }
      usleep(20_000)
    }
    return accessLog
  }

  /// The access log's lines once `condition` holds for them, or as they are after `timeout`
  /// seconds (a failure bound). nginx writes a request's line after its answer has gone, so
  /// a client holding its answer may look before the line is there (on a loaded machine, for
  /// long): wait for the lines a check needs rather than read the log at once.
  public func waitForAccessLog(timeout: Double = 60, until condition: ([String]) -> Bool)
    -> [String]
  {
    let end = Date().addingTimeInterval(timeout)
    var log = accessLog
    while !condition(log) && Date() < end {
      usleep(20_000)
      log = accessLog
    }
    return log
  }

  /// The access log once nginx has finished with every connection made to it: no connection
  /// to its port is open or half-closed on nginx's side (`/proc/net/tcp`), or as it is after
  /// `timeout` seconds (a failure bound).
  ///
  /// nginx writes a request's line when the request ends, before it closes the connection or
  /// keeps it for the next request; so once every client has gone (a `termmap` that has
  /// exited, a proxy that has passed the close on), the log has every request they made, and
  /// a test needs no count to wait for. A test reading at once may miss lines (a loaded
  /// machine keeps nginx's worker waiting for a core), counting a client's requests short.
  public func settledAccessLog(timeout: Double = 60) -> [String] {
    let end = Date().addingTimeInterval(timeout)
    while KernelState.openServerConnections(port: port) > 0 && Date() < end { usleep(20_000) }
    return accessLog
  }

  /// The body bytes nginx sent for the given access-log lines.
  public static func bodyBytes<S: Sequence<String>>(_ lines: S) -> Int {
    lines.reduce(0) { $0 + (Int($1.split(separator: " ")[3]) ?? 0) }
  }

  /// Stops nginx and removes its folder.
  public func stop() {
    guard
      !stopped.withLock({ s in
        defer { s = true }; return s
      })
    else { return }
    ChildProcess.stop(pid)
    try? FileManager.default.removeItem(at: directory)
  }

  /// Whether nginx accepts connections on `port` within 60 seconds (a failure bound: on a
  /// loaded machine its start may wait long for a core); false at once when it has exited.
  private static func waitUntilAccepting(port: UInt16, pid: pid_t) -> Bool {
    let end = Date().addingTimeInterval(60)
    while Date() < end {
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid { return false }
      let fd = ChildProcess.connectLoopback(port: port)
      if fd >= 0 {
        close(fd)
        return true
      }
      usleep(25_000)
    }
    return false
  }
}
