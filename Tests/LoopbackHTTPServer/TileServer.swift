import Foundation
import MapGeometry
import Synchronization
import TileData

/// A loopback tile server over an MBTiles file: `/{z}/{x}/{y}.pbf` (ETag and Last-Modified,
/// 304 for a matching If-None-Match, 404 where the file has no tile), `/gz/...` (the same with
/// Content-Encoding: gzip), `/404/...`, `/500/...`, `/hang/...` (never answers),
/// `/garbage/...` (200 with bytes that are no tile), `/slow/...` (answers after 0.2 s) and
/// `/held/...` (answers once `gate` is open). It answers a proxy's requests too
/// (`GET http://any.host/{z}/{x}/{y}.pbf`), as that host.
extension LoopbackHTTPServer {
  public static func tileServer(mbtiles path: String, gate: AnswerGate = AnswerGate())
    throws -> LoopbackHTTPServer
  {
    let world = try MBTilesSource(path: path)
    return try LoopbackHTTPServer { request in
      var path = Substring(request.path)
      if path.hasPrefix("http://"), let slash = path.dropFirst(7).firstIndex(of: "/") {
        path = path[slash...]
      }
      var parts = path.split(separator: "/").map(String.init)
      let kind = parts.count == 4 ? parts.removeFirst() : ""
      guard parts.count == 3, let z = Int(parts[0]), let x = Int(parts[1]),
        let y = Int(parts[2].replacingOccurrences(of: ".pbf", with: ""))
      else { return .respond(status: 404) }
      let id = TileID(z: z, x: x, y: y)
      switch kind {
      case "404": return .respond(status: 404)
      case "500": return .respond(status: 500, body: Data("oops".utf8))
      case "hang": return .hang
      case "held": gate.waitUntilOpen()
      case "garbage":
        return .respond(status: 200, body: Data((0..<300).map { UInt8($0 * 7 % 251) }))
      default: break
      }
      guard let body = try? world.tile(id) else { return .respond(status: 404) }
      let etag = "\"\(z)-\(x)-\(y)\""
      if request.headers["if-none-match"] == etag {
        return .respond(status: 304, headers: ["ETag": etag])
      }
      var headers = ["ETag": etag, "Last-Modified": "Mon, 01 Jan 2024 00:00:00 GMT"]
      var stored = body
      if kind == "gz" {
        headers["Content-Encoding"] = "gzip"
      } else {
        // Plain route: send the tile inflated, as many servers do.
        stored = (try? Inflate.decompressIfNeeded(body)) ?? body
      }
      return .respond(status: 200, headers: headers, body: stored, delay: kind == "slow" ? 0.2 : 0)
    }
  }
}

/// Holds answers until the test lets them go: an order between a client's requests that a
/// test sets by events (requests read, loads queued), not by how long an answer takes.
public final class AnswerGate: Sendable {
  private let closed: Mutex<Bool>

  /// A gate, open unless `closed`.
  public init(closed: Bool = false) { self.closed = Mutex(closed) }

  /// Answers wait from now on.
  public func close() { closed.withLock { $0 = true } }

  /// Answers waiting go, and those to come.
  public func open() { closed.withLock { $0 = false } }

  /// Returns once the gate is open.
  public func waitUntilOpen() {
    while closed.withLock({ $0 }) { usleep(2_000) }
  }
}
