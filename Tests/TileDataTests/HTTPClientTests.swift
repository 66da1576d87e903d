import Foundation
import LoopbackHTTPServer
import MapGeometry
import Synchronization
import TestProcesses
import Testing

@testable import TileData

/// The HTTP client under every network read: proxies from the environment, bodies bounded
/// whatever the framing, cancellation, kept-alive connections and TLS errors, against the
/// loopback server and a real nginx.
@Suite("HTTP client (libcurl): proxies, bounds, keep-alive, TLS")
struct HTTPClientTests {
  let limits = BoundedHTTPClient.Limits(ok: 1 << 20, partial: 1 << 20)

  func fetch(
    _ url: String, environment: [String: String] = [:], limits: BoundedHTTPClient.Limits? = nil
  ) -> Result<BoundedHTTPClient.Reply, any Error> {
    let client = BoundedHTTPClient(timeout: 60, maxConnections: 1, environment: environment)
    return Result { try client.fetch(.init(url: url), limits: limits ?? self.limits) }
  }

  @Test("proxies from the environment: per scheme, lower case first, all_proxy, no_proxy")
  func proxySettings() {
    let p = ProxySettings(environment: [
      "http_proxy": "http://low:1", "HTTP_PROXY": "http://up:2", "ALL_PROXY": "http://all:3",
      "NO_PROXY": "localhost,.example.com",
    ])
    #expect(p.proxy(forURL: "http://a/b") == "http://low:1")
    #expect(p.proxy(forURL: "HTTPS://a/b") == "http://all:3")
    #expect(p.noProxy == "localhost,.example.com")
    let upper = ProxySettings(environment: ["HTTPS_PROXY": "http://up:2", "HTTP_PROXY": " "])
    #expect(upper.proxy(forURL: "https://a/") == "http://up:2")
    #expect(upper.proxy(forURL: "http://a/") == nil)
    #expect(ProxySettings(environment: [:]) == ProxySettings())
  }

  @Test("HTTP_PROXY: the request goes to the proxy with the absolute URL, the answer comes back")
  func throughAProxy() throws {
    let proxy = try LoopbackHTTPServer { _ in .respond(status: 200, body: Data("via proxy".utf8)) }
    defer { proxy.stop() }
    let reply = try fetch(
      "http://tiles.invalid/3/4/5.pbf", environment: ["HTTP_PROXY": proxy.baseURL]
    ).get()
    #expect(String(decoding: reply.body, as: UTF8.self) == "via proxy")
    #expect(proxy.requests.map(\.path) == ["http://tiles.invalid/3/4/5.pbf"])
    #expect(proxy.requests.first?.headers["host"] == "tiles.invalid")
  }

  @Test("NO_PROXY sends a host direct; without it a dead proxy is the error")
  func noProxy() throws {
    let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: Data("direct".utf8)) }
    defer { server.stop() }
    let dead = "http://127.0.0.1:\(ChildProcess.freeLoopbackPort())"
    let direct = try fetch(
      server.baseURL + "/x", environment: ["HTTP_PROXY": dead, "NO_PROXY": "localhost,127.0.0.1"]
    ).get()
    #expect(String(decoding: direct.body, as: UTF8.self) == "direct")
    let failed = fetch(server.baseURL + "/x", environment: ["HTTP_PROXY": dead])
    guard case .failure(BoundedHTTPClient.Failure.transport(let words)) = failed else {
      Issue.record("expected a transport failure, got \(failed)")
      return
    }
    #expect(words.contains("Failed to connect to 127.0.0.1"), "\(words)")
    #expect(server.requests.count == 1)
  }

  @Test("an endless chunked body stops at the limit: the server sends little more than it")
  func endlessChunkedBody() throws {
    let server = try LoopbackHTTPServer { _ in
      .stream(chunk: Data(repeating: 0x41, count: 64 << 10), total: 1 << 30)
    }
    defer { server.stop() }
    let result = fetch(server.baseURL + "/big")
    #expect(throws: BoundedHTTPClient.Failure.tooLarge(status: 200, limit: 1 << 20)) {
      try result.get()
    }
    // What the kernel's socket buffers held besides; URLSession read on to a gigabyte. Once
    // the server has seen the connection go (its send fails: the client closed it), not after
    // a fixed 0.2 s: a starved server thread may not have sent all it will by then.
    #expect(server.waitUntilConnectionsClosed(), "the client kept the connection")
    #expect(server.streamedBytes < 32 << 20, "\(server.streamedBytes)")
  }

  @Test("a 206 announcing 3 GiB is refused before its body; one streaming is stopped at the range")
  func hugePartialAnswers() throws {
    let announced = try LoopbackHTTPServer { _ in
      .raw(
        LoopbackHTTPServer.rawResponse(
          status: 206,
          headers: [
            ("Content-Range", "bytes 0-3221225471/3221225472"),
            ("Content-Length", "3221225472"),
          ],
          body: Data(repeating: 0, count: 256 << 10)))
    }
    defer { announced.stop() }
    let reader = HTTPByteRangeReader(
      url: URL(string: announced.baseURL + "/a.pmtiles")!, timeout: 60, maxConnections: 1,
      maxFullBodyBytes: 1 << 20, userAgent: "test")
    #expect(throws: TileSourceError.self) {
      try reader.read(offset: 0, length: 127, expecting: nil)
    }
    do {
      _ = try reader.read(offset: 0, length: 127, expecting: nil)
    } catch {
      #expect(
        "\(error)"
          == "\(announced.baseURL)/a.pmtiles: HTTP 206: answer larger than the 127 bytes asked for")
    }
    let streaming = try LoopbackHTTPServer { _ in
      .stream(
        status: 206, chunk: Data(repeating: 1, count: 64 << 10), total: 1 << 30,
        headers: ["Content-Range": "bytes 0-3221225471/3221225472"])
    }
    defer { streaming.stop() }
    let streamReader = HTTPByteRangeReader(
      url: URL(string: streaming.baseURL + "/a.pmtiles")!, timeout: 60, maxConnections: 1,
      maxFullBodyBytes: 1 << 20, userAgent: "test")
    #expect(throws: TileSourceError.self) {
      try streamReader.read(offset: 0, length: 16_384, expecting: nil)
    }
    #expect(streaming.waitUntilConnectionsClosed(), "the reader kept the connection")
    #expect(streaming.streamedBytes < 32 << 20, "\(streaming.streamedBytes)")
  }

  @Test("redirects: followed to http(s) on a fresh handle, at most 5, never to another scheme")
  func redirects() throws {
    let server = try LoopbackHTTPServer { request in
      switch request.path {
      case "/start": return .respond(status: 302, headers: ["Location": "/middle"])
      case "/middle": return .respond(status: 301, headers: ["Location": "/end"])
      case "/end": return .respond(status: 200, body: Data("arrived".utf8))
      case "/file": return .respond(status: 302, headers: ["Location": "file:///etc/passwd"])
      default:
        // /loop/N points to /loop/N+1 for ever.
        let n = Int(request.path.split(separator: "/").last ?? "") ?? 0
        return .respond(status: 302, headers: ["Location": "/loop/\(n + 1)"])
      }
    }
    defer { server.stop() }
    let reply = try fetch(server.baseURL + "/start").get()
    #expect(String(decoding: reply.body, as: UTF8.self) == "arrived")
    #expect(server.requests.map(\.path) == ["/start", "/middle", "/end"])
    #expect(throws: BoundedHTTPClient.Failure.transport("more than 5 redirects")) {
      try fetch(server.baseURL + "/loop/0").get()
    }
    #expect(
      throws: BoundedHTTPClient.Failure.transport(
        "a redirect to file:///etc/passwd, which is not http or https")
    ) { try fetch(server.baseURL + "/file").get() }
  }

  @Test("cancelling a request that waits for a silent server ends it as cancelled")
  func cancellation() throws {
    let server = try LoopbackHTTPServer { _ in .hang }
    defer { server.stop() }
    let client = BoundedHTTPClient(timeout: 30, maxConnections: 1, environment: [:])
    let cancellation = BoundedHTTPClient.Cancellation()
    let outcome = LockedReply()
    let thread = Thread {
      outcome.set(
        Result {
          try client.fetch(
            .init(url: server.baseURL + "/x"), limits: limits, cancellation: cancellation)
        })
    }
    thread.start()
    #expect(waitUntil(60) { !server.requests.isEmpty })
    cancellation.cancel()
    // libcurl asks at least once a second; 60 s is a failure bound (past the 30 s time-out,
    // whose "timed out" fails the test too), not a fixed 10 s a starved thread may need.
    _ = waitUntil(60) { outcome.get() != nil }
    let result = try #require(outcome.get())
    #expect(throws: BoundedHTTPClient.Failure.cancelled) { try result.get() }
  }

  @Test("nginx: 40 tiles over kept-alive connections, no more than the requests in flight")
  func keepAlive() throws {
    let root = try TemporaryDirectory()
    defer { root.cleanUp() }
    let tile = try Repo.storedTile("world-6-33-23")
    for x in 0..<8 {
      for y in 0..<5 {
        let dir = root.file("6/\(x)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try tile.write(to: dir.appendingPathComponent("\(y).pbf"))
      }
    }
    let nginx = try Nginx(serving: root.url)
    defer { nginx.stop() }
    let source = try HTTPTileSource(
      template: nginx.baseURL + "/{z}/{x}/{y}.pbf", maxZoom: 6, diskCache: false, timeout: 60,
      maxConcurrentRequests: 2)
    let ids = (0..<8).flatMap { x in (0..<5).map { TileID(z: 6, x: x, y: $0) } }
    let bodies = ids.map { id in try? source.tile(id) }
    #expect(bodies.allSatisfy { $0 == tile })
    // nginx writes its log line after the answer; give the last one a moment.
    let log = nginx.waitForAccessLog { $0.count >= ids.count }
    #expect(log.count == ids.count)
    let connections = Set(log.compactMap { $0.split(separator: " ").first })
    #expect(connections.count <= 2, "\(log)")
  }

  @Test("TLS: a self-signed certificate fails with a clear reason")
  func untrustedCertificate() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let cert = dir.file("cert.pem").path
    let key = dir.file("key.pem").path
    let status = try ChildProcess.run([
      "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
      "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
    ])
    try #require(status == 0)
    try Data("tile".utf8).write(to: dir.file("t.pbf"))
    let nginx = try Nginx(serving: dir.url, certificate: (cert, key))
    defer { nginx.stop() }
    let result = fetch(nginx.baseURL + "/t.pbf")
    guard case .failure(BoundedHTTPClient.Failure.transport(let words)) = result else {
      Issue.record("expected a TLS failure, got \(result)")
      return
    }
    #expect(words.hasPrefix("TLS: the server's certificate is not trusted ("), "\(words)")
    #expect(words.contains("self-signed certificate") || words.contains("self signed"), "\(words)")
    // Trusted (as a system CA would be), the same server answers.
    let trusting = BoundedHTTPClient(
      timeout: 60, maxConnections: 1, environment: [:], caBundle: cert)
    let reply = try trusting.fetch(.init(url: nginx.baseURL + "/t.pbf"), limits: limits)
    #expect(String(decoding: reply.body, as: UTF8.self) == "tile")
  }
}

/// A result handed from another thread.
final class LockedReply: Sendable {
  private let value = Mutex<Result<BoundedHTTPClient.Reply, any Error>?>(nil)
  func set(_ r: Result<BoundedHTTPClient.Reply, any Error>) { value.withLock { $0 = r } }
  func get() -> Result<BoundedHTTPClient.Reply, any Error>? { value.withLock { $0 } }
}
