import Foundation
import FuzzSupport
import Synchronization
import TermMap

#if canImport(Glibc)
  import Glibc
#endif

/// Any bytes as a server's whole answer (status line, headers, body; the connection then
/// closes), read through every public path that fetches over HTTP: a tile, a TileJSON
/// document and a PMTiles archive's header. libcurl parses the framing; termmap's own code
/// takes the status, the header fields (ETag, Content-Range, Cache-Control, Content-Length)
/// and the body, under its limits. Each request is answered by a one-thread loopback server.
final class OneAnswerServer: Sendable {
  let port: UInt16
  private let listener: Int32
  private let answer = Mutex(Data())

  init() {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_addr.s_addr = inet_addr("127.0.0.1")
    a.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &a) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
    }
    listen(fd, 64)
    _ = withUnsafeMutablePointer(to: &a) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
    }
    port = UInt16(bigEndian: a.sin_port)
    listener = fd
    Thread.detachNewThread { [self] in serve() }
  }

  func set(_ data: Data) { answer.withLock { $0 = data } }

  private func serve() {
    var buffer = [UInt8](repeating: 0, count: 8192)
    while true {
      let c = accept(listener, nil, nil)
      if c < 0 { continue }
      var timeout = timeval(tv_sec: 2, tv_usec: 0)
      setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
      // The request: up to its blank line.
      var request = [UInt8]()
      while request.count < 65536 {
        let n = recv(c, &buffer, buffer.count, 0)
        if n <= 0 { break }
        request += buffer[0..<n]
        if request.count >= 4, request.suffix(4).elementsEqual("\r\n\r\n".utf8) { break }
      }
      let bytes = answer.withLock { $0 }
      bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
          let n = send(c, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
          if n <= 0 { break }
          offset += n
        }
      }
      shutdown(c, Int32(SHUT_WR))
      close(c)
    }
  }
}

let server = OneAnswerServer()
let base = "http://127.0.0.1:\(server.port)"
let tiles = try! HTTPTileSource(
  template: base + "/{z}/{x}/{y}.pbf", diskCache: false, timeout: 2, maxResponseBytes: 1 << 20)

exit(
  runFuzzer(CommandLine.argc, CommandLine.unsafeArgv) { data in
    server.set(data)
    _ = try? tiles.tile(TileID(z: 0, x: 0, y: 0))
    _ = try? TileJSON.load(base + "/tiles.json", timeout: 2)
    _ = try? PMTilesSource(url: URL(string: base + "/a.pmtiles")!, timeout: 2)
  })
