import Foundation
import LoopbackHTTPServer
import MapGeometry
import Testing

@testable import TileData

/// A loopback server with TileJSON documents and the world tiles behind them:
/// `/tiles.json` (relative `/xyz/{z}/{x}/{y}.pbf`), `/sub/tms.json` (relative
/// `tms/{z}/{x}/{y}.pbf`, scheme tms), `/big.json` (2 MiB), `/text.json` (not JSON); tiles at
/// `/xyz/z/x/y.pbf` and `/sub/tms/z/x/row.pbf`.
func tileJSONServer() throws -> LoopbackHTTPServer {
  let world = try MBTilesSource(path: Repo.worldMBTiles)
  let xyz = """
    {"tilejson": "3.0.0", "name": "loopback world", "tiles": ["/xyz/{z}/{x}/{y}.pbf"],
     "minzoom": 0, "maxzoom": 5, "bounds": [-180, -85.05, 180, 85.05],
     "attribution": "Made with Natural Earth", "format": "pbf",
     "vector_layers": [{"id": "water", "fields": {}}, {"id": "place", "fields": {}}]}
    """
  let tms = """
    {"tilejson": "3.0.0", "tiles": ["tms/{z}/{x}/{y}.pbf"], "scheme": "tms", "maxzoom": 6}
    """
  return try LoopbackHTTPServer { request in
    switch request.path {
    case "/tiles.json": return .respond(status: 200, body: Data(xyz.utf8))
    case "/sub/tms.json": return .respond(status: 200, body: Data(tms.utf8))
    case "/big.json":
      return .respond(status: 200, body: Data(repeating: 0x20, count: 2 << 20) + Data("{}".utf8))
    case "/text.json": return .respond(status: 200, body: Data("hello".utf8))
    default: break
    }
    var parts = request.path.split(separator: "/").map(String.init)
    let tmsRoute = parts.first == "sub"
    if tmsRoute { parts.removeFirst() }
    guard parts.count == 4, let z = Int(parts[1]), let x = Int(parts[2]),
      let row = Int(parts[3].replacingOccurrences(of: ".pbf", with: ""))
    else { return .respond(status: 404) }
    let y = parts[0] == "tms" && tmsRoute ? (1 << z) - 1 - row : row
    guard parts[0] == (tmsRoute ? "tms" : "xyz"),
      let body = try? world.tile(TileID(z: z, x: x, y: y))
    else { return .respond(status: 404) }
    return .respond(status: 200, body: body)
  }
}

@Suite("TileJSON") struct TileJSONTests {
  @Test("every field is read")
  func parse() throws {
    let text = """
      {"tilejson": "3.0.0", "name": "demo", "tiles": ["https://a.example/{z}/{x}/{y}.mvt",
       "https://b.example/{z}/{x}/{y}.mvt"], "minzoom": 2, "maxzoom": 11,
       "bounds": [5.5, 45.8, 10.5, 47.8], "scheme": "tms", "attribution": "© demo",
       "format": "pbf", "vector_layers": [{"id": "roads"}, {"id": "water"}, {"nope": 1}],
       "center": [8, 47, 5]}
      """
    let t = try TileJSON(data: Data(text.utf8), location: "demo.json")
    #expect(t.version == "3.0.0")
    #expect(t.name == "demo")
    #expect(t.tiles.count == 2)
    #expect(t.minZoom == 2 && t.maxZoom == 11)
    #expect(t.bounds == [5.5, 45.8, 10.5, 47.8])
    #expect(t.scheme == .tms)
    #expect(t.attribution == "© demo")
    #expect(t.format == .pbf)
    #expect(t.vectorLayers == ["roads", "water"])
    #expect(t.template == "https://a.example/{z}/{x}/{-y}.mvt")
    let b = try #require(t.mapBounds)
    let sw = MapPoint(Coordinate(latitude: 45.8, longitude: 5.5))
    #expect(abs(b.minX - sw.x) < 1e-6 && abs(b.maxY - sw.y) < 1e-6)
    let s = try t.makeSource(cacheHome: FileManager.default.temporaryDirectory)
    #expect(s.template == "https://a.example/{z}/{x}/{-y}.mvt")
    #expect(s.minZoom == 2 && s.maxZoom == 11 && s.attribution == "© demo")
    #expect(s.bounds == t.mapBounds)
    #expect(s.url(for: TileID(z: 2, x: 1, y: 0))?.absoluteString == "https://a.example/2/1/3.mvt")

    let minimal = try TileJSON(
      data: Data(#"{"tiles": ["http://h/{z}/{x}/{y}.png"]}"#.utf8), location: "m")
    #expect(minimal.scheme == .xyz && minimal.minZoom == nil && minimal.vectorLayers.isEmpty)
    let ms = try minimal.makeSource(diskCache: false)
    #expect(ms.minZoom == 0 && ms.maxZoom == 14 && ms.format == .png && ms.attribution == "")
  }

  @Test("errors name the document and the field")
  func errors() {
    func message(_ text: String) -> String? {
      errorText { _ = try TileJSON(data: Data(text.utf8), location: "t.json") }
    }
    #expect(message("[1]") == "t.json: not a TileJSON document (not a JSON object)")
    #expect(message("{") == "t.json: not a TileJSON document (invalid JSON)")
    #expect(message(#"{"name": "x"}"#) == "t.json: TileJSON has no \"tiles\" URLs")
    #expect(message(#"{"tiles": []}"#) == "t.json: TileJSON has no \"tiles\" URLs")
    #expect(
      message(#"{"tiles": ["http://h/{z}/{x}/{y}"], "maxzoom": 31}"#)
        == "t.json: TileJSON maxzoom must be an integer from 0 to 30")
    #expect(
      message(#"{"tiles": ["http://h/{z}/{x}/{y}"], "minzoom": 1.5}"#)
        == "t.json: TileJSON minzoom must be an integer from 0 to 30")
    #expect(
      message(#"{"tiles": ["http://h/{z}/{x}/{y}"], "minzoom": 9, "maxzoom": 3}"#)
        == "t.json: TileJSON minzoom 9 is above maxzoom 3")
    #expect(
      message(#"{"tiles": ["http://h/{z}/{x}/{y}"], "minzoom": true}"#)
        == "t.json: TileJSON minzoom must be an integer from 0 to 30")
    #expect(
      message(#"{"tiles": ["http://h/{z}/{x}/{y}"], "bounds": [1, 2, 3]}"#)
        == "t.json: TileJSON bounds must be 4 numbers")
    #expect(
      message(#"{"tiles": ["http://h/{z}/{x}/{y}"], "scheme": "wmts"}"#)
        == "t.json: unsupported TileJSON scheme \"wmts\" (expected xyz or tms)")
    #expect(
      message(#"{"tiles": ["http://h/{z}/{x}/{y}"], "format": "geojson"}"#)
        == "t.json: unsupported tile format \"geojson\"")
    #expect(
      errorText {
        _ = try TileJSON(
          data: Data(#"{"tiles": ["tiles/{z}/{x}/{y}.pbf"]}"#.utf8), location: "t.json"
        )
        .makeSource(diskCache: false)
      } == "t.json: TileJSON tile URL tiles/{z}/{x}/{y}.pbf is not http(s)")
    #expect(
      errorText { _ = try TileJSON.load("/nonexistent/tiles.json") }
        == "/nonexistent/tiles.json: no such file or directory")
  }

  @Test("relative tile URLs resolve against the document's URL")
  func resolve() {
    let base = "https://example.com:8443/maps/v1/tiles.json?key=abc"
    #expect(
      TileJSON.resolve("{z}/{x}/{y}.pbf", against: base)
        == "https://example.com:8443/maps/v1/{z}/{x}/{y}.pbf")
    #expect(
      TileJSON.resolve("/t/{z}/{x}/{y}.pbf", against: base)
        == "https://example.com:8443/t/{z}/{x}/{y}.pbf")
    #expect(
      TileJSON.resolve("//cdn.example/{z}/{x}/{y}.pbf", against: base)
        == "https://cdn.example/{z}/{x}/{y}.pbf")
    #expect(TileJSON.resolve("http://o/{z}/{x}/{y}", against: base) == "http://o/{z}/{x}/{y}")
    #expect(TileJSON.resolve("a/{z}/{x}/{y}", against: "http://h") == "http://h/a/{z}/{x}/{y}")
    #expect(TileJSON.resolve("a/{z}/{x}/{y}", against: "tiles.json") == "a/{z}/{x}/{y}")
  }

  @Test("over HTTP: the document, then its tiles (xyz and tms, relative URLs)")
  func overHTTP() throws {
    let server = try tileJSONServer()
    defer { server.stop() }
    let cache = try TemporaryDirectory()
    defer { cache.cleanUp() }
    let world = try MBTilesSource(path: Repo.worldMBTiles)

    let doc = try TileJSON.load(server.baseURL + "/tiles.json", timeout: 60)
    #expect(doc.name == "loopback world")
    #expect(doc.vectorLayers == ["water", "place"])
    let s = try TileJSON.openSource(
      server.baseURL + "/tiles.json", cacheHome: cache.url, timeout: 60)
    #expect(s.template == server.baseURL + "/xyz/{z}/{x}/{y}.pbf")
    #expect(s.maxZoom == 5 && s.attribution == "Made with Natural Earth" && s.format == .pbf)
    // The layer names and the name reach the source (a style is picked from the layers).
    #expect(s.vectorLayers == ["water", "place"] && s.name == "loopback world")
    let id = TileID(z: 5, x: 16, y: 11)
    #expect(try s.tile(id) == (try world.tile(id)))

    let tms = try TileJSON.openSource(
      server.baseURL + "/sub/tms.json", cacheHome: cache.url, timeout: 60)
    #expect(tms.template == server.baseURL + "/sub/tms/{z}/{x}/{-y}.pbf")
    let monaco = TileID(z: 6, x: 33, y: 23)
    #expect(try tms.tile(monaco) == (try world.tile(monaco)))
    #expect(server.requests.contains { $0.path == "/sub/tms/6/33/40.pbf" })
  }

  @Test("over HTTP: 404, too large, not JSON, time-out")
  func httpErrors() throws {
    let server = try tileJSONServer()
    defer { server.stop() }
    let base = server.baseURL
    #expect(
      errorText { _ = try TileJSON.load(base + "/none.json", timeout: 60) }
        == "\(base)/none.json: HTTP 404 Not Found")
    #expect(
      errorText { _ = try TileJSON.load(base + "/big.json", timeout: 60) }
        == "\(base)/big.json: TileJSON larger than 1048576 bytes")
    #expect(
      errorText { _ = try TileJSON.load(base + "/text.json", timeout: 60) }
        == "\(base)/text.json: not a TileJSON document (invalid JSON)")
    let hang = try LoopbackHTTPServer { _ in .hang }
    defer { hang.stop() }
    #expect(
      errorText { _ = try TileJSON.load(hang.baseURL + "/tiles.json", timeout: 0.5) }
        == "\(hang.baseURL)/tiles.json: timed out after 0.5 s")
  }
}
