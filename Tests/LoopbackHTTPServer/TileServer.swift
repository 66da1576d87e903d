import Foundation
import MapGeometry
import TileData

/// A loopback tile server over an MBTiles file: `/{z}/{x}/{y}.pbf` (ETag and Last-Modified,
/// 304 for a matching If-None-Match, 404 where the file has no tile), `/gz/...` (the same with
/// Content-Encoding: gzip), `/404/...`, `/500/...`, `/hang/...` (never answers),
/// `/garbage/...` (200 with bytes that are no tile) and `/slow/...` (answers after 0.2 s). It
/// answers a proxy's requests too (`GET http://any.host/{z}/{x}/{y}.pbf`), as that host.
extension LoopbackHTTPServer {
  public static func tileServer(mbtiles path: String) throws -> LoopbackHTTPServer {
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
