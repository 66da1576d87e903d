import Foundation
import Testing

private let root = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let fixtures = root.appendingPathComponent("Tests/MapDataTests/Fixtures")

/// Runs termmap with `arguments` in `directory`, without colour.
private func run(_ arguments: [String], in directory: URL = root) throws -> (
  status: Int32, stdout: String, stderr: String
) {
  try termmap(arguments, environment: ["NO_COLOR": "1"], in: directory)
}

/// Reference numbers computed at development time, independently of termmap, by
/// `Tests/MapDataTests/Fixtures/reference/expected.py`: gpxpy 1.6.2 parses the GPX files,
/// Python's json module the GeoJSON and xml.etree the KML, and GeographicLib 2.1
/// (`Geodesic.WGS84.Inverse`) measures each track segment, route or line on its own.
private let expected:
  [(
    file: String, format: String, points: Int, polylines: Int, polygons: Int, annotations: Int,
    length: Double
  )] = [
    ("korita-zbevnica.gpx", "gpx", 871, 3, 0, 2, 14914.283303722172),
    ("cerknicko-jezero.gpx", "gpx", 296, 7, 0, 7, 4576.90748419316),
    ("Mojstrovka.gpx", "gpx", 184, 1, 0, 0, 2700.9175307580945),
    ("route.gpx", "gpx", 55, 1, 0, 0, 6690.968593725476),
    ("bled.geojson", "geojson", 56, 4, 3, 5, 3686.6715637103944),
    ("bohinj.kml", "kml", 79, 7, 3, 2, 10668.795976222453),
  ]

@Suite("termmap info and the file readers")
struct ReaderCLITests {
  @Test("info --json on the samples gives lengths within 0.1% of GeographicLib")
  func infoJSONLengths() throws {
    let files = expected.map { "Data/samples/" + $0.file }
    let r = try run(["info", "--json"] + files)
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    let list = try #require(object?["files"] as? [[String: Any]])
    #expect(list.count == expected.count)
    for (entry, want) in zip(list, expected) {
      #expect(entry["path"] as? String == "Data/samples/" + want.file)
      #expect(entry["format"] as? String == want.format)
      #expect(entry["points"] as? Int == want.points)
      #expect(entry["polylines"] as? Int == want.polylines)
      #expect(entry["polygons"] as? Int == want.polygons)
      #expect(entry["annotations"] as? Int == want.annotations)
      let length = try #require(entry["length_m"] as? Double)
      #expect(abs(length - want.length) <= want.length * 0.001, "\(want.file)")
      let bbox = try #require(entry["bbox"] as? [Double])
      #expect(bbox.count == 4 && bbox[0] <= bbox[2] && bbox[1] <= bbox[3])
      for key in ["tracks", "routes", "waypoints", "elevation_m", "ascent_m", "descent_m", "time"] {
        #expect(entry.keys.contains(key), "\(key)")
      }
    }
    let korita = list[0]
    #expect(korita["tracks"] as? Int == 4 && korita["waypoints"] as? Int == 2)
    #expect(korita["elevation_m"] as? [Double] == [722.087402, 1050.858154])
    #expect(korita["time"] as? [String] == ["2010-10-03T09:36:30Z", "2010-10-03T13:19:31Z"])
    #expect(list[3]["elevation_m"] is NSNull && list[3]["time"] is NSNull)
    #expect(list[3]["routes"] as? Int == 1)
  }

  @Test("info prints a readable block per file")
  func infoHuman() throws {
    let r = try run(["info", "Data/samples/cerknicko-jezero.gpx", "Data/samples/bohinj.kml"])
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    #expect(r.stdout.contains("Data/samples/cerknicko-jezero.gpx\n  format      GPX\n"))
    #expect(r.stdout.contains("  tracks      8 (8 segments)\n"))
    #expect(r.stdout.contains("  length      4.577 km (4576.9 m)\n"))
    #expect(r.stdout.contains("Data/samples/bohinj.kml\n  format      KML\n"))
    #expect(
      r.stdout.contains(
        "  time        2023-07-15T07:00:00Z to 2023-07-15T07:38:55Z (38 min 55 s)\n"))
  }

  @Test(
    "render draws each format",
    arguments: ["korita-zbevnica.gpx", "route.gpx", "bled.geojson", "bohinj.kml"])
  func renderEachFormat(file: String) throws {
    let r = try run([
      "render", "--no-basemap", "--color", "never", "--size", "60x20", "Data/samples/" + file,
    ])
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 20)
    let inked = inkedCells(r.stdout)
    #expect(inked > 20, "\(file) drew \(inked) braille cells")
  }

  @Test("each malformed file gives one line on stderr and exit status 2")
  func malformedFiles() throws {
    let table = try String(
      contentsOf: fixtures.appendingPathComponent("malformed-expected.tsv"), encoding: .utf8)
    let cases = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
      $0.split(separator: "\t", maxSplits: 1).map(String.init)
    }
    #expect(cases.count >= 30)
    let dir = fixtures.appendingPathComponent("malformed")
    for c in cases {
      let r = try run(["info", c[0]], in: dir)
      #expect(r.status == 2, "\(c[0])")
      #expect(r.stderr == c[1] + "\n")
      #expect(r.stdout.isEmpty)
    }
  }

  @Test("a directory and a missing file")
  func unreadable() throws {
    let r = try run(["info", "Data/samples", "Data/samples/none.gpx"])
    #expect(r.status == 2)
    #expect(
      r.stderr
        == "Data/samples: is a directory, not a file\nData/samples/none.gpx: file not found\n")
  }

  @Test("files with some bad features load the rest, warn on stderr and exit 0")
  func warnings() throws {
    let dir = fixtures.appendingPathComponent("readers")
    let r = try run(["info", "--json", "some-bad-points.gpx"], in: dir)
    #expect(r.status == 0)
    let lines = r.stderr.split(separator: "\n")
    #expect(lines.count == 6)
    #expect(
      lines.first
        == "some-bad-points.gpx:4:11: skipped a waypoint: latitude 146.5 is outside -90...90")
    #expect(
      lines.last
        == "some-bad-points.gpx: skipped 1 waypoint and 2 track points that could not be read")
    #expect(r.stdout.contains("\"points\": 3"))
    let render = try run(
      [
        "render", "--no-basemap", "--color", "never", "--size", "40x10",
        "some-bad-features.geojson",
      ], in: dir)
    #expect(render.status == 0)
    #expect(render.stdout.split(separator: "\n").count == 10)
  }

  @Test("a good file and a bad one: the good one is shown, the status is 2")
  func mixed() throws {
    let r = try run([
      "info", "--json", "Data/samples/route.gpx",
      "Tests/MapDataTests/Fixtures/malformed/gpx-empty.gpx",
    ])
    #expect(r.status == 2)
    #expect(r.stderr == "Tests/MapDataTests/Fixtures/malformed/gpx-empty.gpx: file is empty\n")
    #expect(r.stdout.contains("\"path\": \"Data/samples/route.gpx\""))
  }

  @Test("info needs a file and knows its options")
  func usage() throws {
    let none = try run(["info"])
    #expect(none.status == 2 && none.stderr == "termmap: info needs at least one FILE\n")
    let bad = try run(["info", "--fast", "x.gpx"])
    #expect(bad.status == 2 && bad.stderr == "termmap: info: unknown option --fast\n")
  }
}
