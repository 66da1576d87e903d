import Foundation
import LoopbackHTTPServer
import Testing

private let hostile = "Tests/MapDataTests/Fixtures/hostile/"

/// Bytes that would act on a terminal: C0 controls but line feed, DEL, and C1 controls (as
/// characters; raw bytes 0x80–0x9F cannot survive the UTF-8 decoding of the captured output
/// unnoticed either: they become U+FFFD, checked apart).
private func terminalControls(_ text: String) -> [UInt32] {
  text.unicodeScalars.map(\.value).filter {
    ($0 < 0x20 && $0 != 0x0A) || (0x7F...0x9F).contains($0) || $0 == 0xFFFD
  }
}

/// One run's promise for bad input: status 0 or 2, at most one line on stderr, and nothing on
/// either stream that a terminal would act on.
private func expectContained(
  _ r: (status: Int32, stdout: String, stderr: String), status: Int32,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(r.status == status, "\(r.stderr)", sourceLocation: sourceLocation)
  let lines = r.stderr.split(separator: "\n")
  #expect(lines.count <= 1, "\(r.stderr)", sourceLocation: sourceLocation)
  #expect(terminalControls(r.stderr).isEmpty, "\(r.stderr)", sourceLocation: sourceLocation)
  #expect(terminalControls(r.stdout).isEmpty, sourceLocation: sourceLocation)
}

@Suite("hostile input on the command line")
struct HardeningCLITests {
  @Test(
    "render --tiles with hostile MBTiles: one sanitised line, status 2",
    arguments: ["format-title", "schema-title", "recursive-view"])
  func hostileMBTiles(name: String) throws {
    let r = try termmap([
      "render", "--color", "never", "--size", "40x12", "--tiles", hostile + name + ".mbtiles",
    ])
    expectContained(r, status: 2)
    #expect(r.stdout.isEmpty)
    #expect(r.stderr.hasPrefix("termmap: --tiles: " + hostile + name + ".mbtiles: "))
    switch name {
    case "format-title": #expect(r.stderr.hasSuffix("unsupported tile format \"]0;fmt\"\n"))
    case "schema-title": #expect(r.stderr.contains("malformed database schema (metadata)"))
    default: #expect(r.stderr.hasSuffix("the file may hold a recursive view\n"))
    }
  }

  @Test("info --json with elevations of ±1e308: valid JSON, ascent and descent null")
  func overflowingElevations() throws {
    let r = try termmap(["info", "--json", hostile + "elevation-overflow.gpx"])
    expectContained(r, status: 0)
    #expect(!r.stdout.contains("inf") && !r.stdout.contains("nan"))
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let file = try #require((object["files"] as? [[String: Any]])?.first)
    #expect(file["ascent_m"] is NSNull && file["descent_m"] is NSNull)
    #expect((file["elevation_m"] as? [Double]) == [-1e308, 1e308])
    let human = try termmap(["info", hostile + "elevation-overflow.gpx"])
    expectContained(human, status: 0)
    #expect(human.stdout.contains("ascent      unknown up, unknown down"))
  }

  @Test(
    "--bbox with a non-finite or out-of-range edge: one line, status 2",
    arguments: ["1e308,0,1,1", "0,0,1e308,1", "0,-1e308,1,1", "0,0,1,1e999", "0,0,1,nan"])
  func badBoundingBoxes(bbox: String) throws {
    let r = try termmap(["render", "--no-basemap", "--size", "20x5", "--bbox", bbox])
    expectContained(r, status: 2)
    #expect(r.stderr.hasPrefix("termmap: --bbox: expected"))
  }

  @Test("hostile data files: status 0 or 2, one line at most")
  func hostileDataFiles() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-hostile-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var euro = Array(
      """
      <?xml version="1.0" encoding="windows-1252"?>
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="1" lon="2"><name>
      """.utf8)
    euro += [UInt8](repeating: 0x80, count: 20_000) + Array("</name></wpt></gpx>".utf8)
    try Data(euro).write(to: dir.appendingPathComponent("euro.gpx"))
    let folders =
      "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>"
      + String(repeating: "<Folder>", count: 10_000) + String(repeating: "</Folder>", count: 10_000)
      + "</Document></kml>"
    try Data(folders.utf8).write(to: dir.appendingPathComponent("folders.kml"))
    let title = "\u{1B}]0;fmt\u{07}"
    let named =
      "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},"
      + "\"properties\":{\"name\":\"\\u001b]0;x\\u0007\",\"bad\u{9B}\":1}}"
    try Data(named.utf8).write(to: dir.appendingPathComponent("named.geojson"))
    try Data("lat,lon\n1,2\n\(title),3\n".utf8).write(to: dir.appendingPathComponent("t.csv"))

    let cases: [(String, Int32)] = [
      ("euro.gpx", 0), ("folders.kml", 2), ("named.geojson", 0), ("t.csv", 2),
    ]
    for (file, status) in cases {
      let path = dir.appendingPathComponent(file).path
      let info = try termmap(["info", "--json", path])
      expectContained(info, status: status)
      let render = try termmap([
        "render", "--no-basemap", "--color", "never", "--size", "30x8", path,
      ])
      expectContained(render, status: status)
    }
    for fixture in ["stylemap-cycle.kml", "utf32le.gpx", "utf32be-no-bom.kml"] {
      let r = try termmap(["info", hostile + fixture])
      expectContained(r, status: fixture.hasPrefix("utf32") ? 2 : 0)
      if fixture.hasPrefix("utf32") { #expect(r.stderr.contains("the file is UTF-32 text")) }
    }
  }

  @Test("render --tiles over HTTP with an HTML answer: the frame, its line, no tile: status 1")
  func htmlTiles() throws {
    let server = try LoopbackHTTPServer { _ in
      .respond(status: 200, body: Data("<html>\u{1B}]0;fmt\u{07}</html>".utf8))
    }
    defer { server.stop() }
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-cache-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: cache) }
    let r = try termmap(
      [
        "render", "--no-basemap", "--color", "never", "--size", "30x8", "--center", "0,0",
        "--zoom", "1", "--tiles", server.baseURL + "/{z}/{x}/{y}.pbf",
      ], environment: ["XDG_CACHE_HOME": cache.path])
    #expect(r.status == 1, "\(r.stderr)")
    #expect(terminalControls(r.stderr).isEmpty, "\(r.stderr)")
    #expect(terminalControls(r.stdout).isEmpty)
    let lines = r.stderr.split(separator: "\n")
    #expect(lines.count == 2, "\(r.stderr)")
    #expect(lines.first?.contains("HTTP 200 but the body is not a vector tile") == true)
    #expect(lines.last?.contains("no tile could be fetched") == true)
    let files = FileManager.default.enumerator(atPath: cache.path)?.allObjects ?? []
    #expect(!files.contains { "\($0)".hasSuffix(".meta") })
  }
}
