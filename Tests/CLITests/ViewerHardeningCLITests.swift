import Foundation
import Testing

/// Command-line behaviour from the hardening issue: every failing file reported, the argument
/// messages, the world at 80 × 24.
@Suite("termmap render: errors, arguments and the whole world")
struct RenderHardeningCLITests {
  @Test("every file that fails is one line on stderr; exit status 2; no frame")
  func everyFailure() throws {
    let r = try termmap([
      "render", "--no-basemap", "--size", "40x10", "missing.gpx", "Data/samples/lisbon-walk.csv",
      "Tests/MapDataTests/Fixtures/invalid/latitude-text.csv",
    ])
    #expect(r.status == 2)
    let lines = r.stderr.split(separator: "\n").map(String.init)
    #expect(lines.count == 2, "\(lines)")
    #expect(lines.first?.hasPrefix("missing.gpx: ") == true, "\(lines)")
    #expect(
      lines.last?.hasPrefix("Tests/MapDataTests/Fixtures/invalid/latitude-text.csv:3:1: ") == true,
      "\(lines)")
    #expect(r.stdout.isEmpty)
  }

  @Test("--center without --zoom keeps the fitted zoom; with no file, zoom 10")
  func centerWithoutZoom() throws {
    let fitted = try termmap([
      "render", "--no-basemap", "--size", "60x20", "--status", "Data/samples/lisbon-walk.csv",
    ])
    let zoom = try #require(
      fitted.stdout.split(separator: "\n").last.flatMap { line in
        line.range(of: #"z-?\d+\.\d"#, options: .regularExpression).map { String(line[$0]) }
      })
    let r = try termmap([
      "render", "--no-basemap", "--size", "60x20", "--status", "--center", "38.72,-9.14",
      "Data/samples/lisbon-walk.csv",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let status = String(r.stdout.split(separator: "\n").last ?? "")
    #expect(status.hasPrefix("38.72000, -9.14000"), "\(status)")
    #expect(status.contains(zoom), "\(status) vs \(zoom)")
    let alone = try termmap([
      "render", "--no-basemap", "--size", "60x20", "--status", "--center", "48.85,2.35",
    ])
    #expect(alone.status == 0, "\(alone.stderr)")
    #expect(alone.stdout.contains("48.85000, 2.35000 · z10.0"))
  }

  @Test("--size over the limit says the limit")
  func sizeLimit() throws {
    let r = try termmap(["render", "--size", "5000x5000"])
    #expect(r.status == 2)
    #expect(r.stderr == "termmap: --size: 5000x5000 is too large (at most 2000x1000)\n")
  }

  @Test("--tiles with an ftp:// URL names the unsupported scheme")
  func tilesScheme() throws {
    let r = try termmap(["render", "--tiles", "ftp://example.org/{z}/{x}/{y}.pbf"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("unsupported URL scheme \"ftp\""), "\(r.stderr)")
    #expect(!r.stderr.contains("no such file"))
  }

  @Test("the whole world fits 80 × 24 (below zoom 0), with the big countries named")
  func wholeWorld() throws {
    let r = try termmap([
      "render", "--color", "never", "--size", "80x24", "--status", "--bbox", "-180,-85,180,85",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    let status = lines.last ?? ""
    #expect(status.contains("z-1."), "\(status)")
    let map = lines.dropLast().joined(separator: "\n")
    for country in ["Canada", "United States", "China", "Australia", "Antarctica"] {
      #expect(map.contains(country), "\(country) missing:\n\(map)")
    }
  }
}

@Suite("termmap info: elevations")
struct InfoElevationTests {
  @Test("an elevation that rounds to zero prints without a minus sign")
  func noNegativeZero() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-info-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("low.gpx")
    try """
    <?xml version="1.0"?>
    <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
    <trkpt lat="52.37" lon="4.89"><ele>-0.04</ele></trkpt>
    <trkpt lat="52.38" lon="4.90"><ele>3.5</ele></trkpt>
    </trkseg></trk></gpx>
    """.write(to: file, atomically: true, encoding: .utf8)
    let r = try termmap(["info", file.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("0.0 to 3.5 m"), "\(r.stdout)")
    #expect(!r.stdout.contains("-0.0"))
  }
}
