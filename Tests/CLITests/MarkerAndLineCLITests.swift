import Foundation
import Testing

/// GPX files written for a test, removed afterwards.
struct TemporaryGPX {
  let url: URL
  init(_ body: String) throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-\(UUID().uuidString).gpx")
    try
      (#"<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">"#
      + body + "</gpx>").write(to: url, atomically: true, encoding: .utf8)
  }
  func remove() { try? FileManager.default.removeItem(at: url) }
}

@Suite("Markers and lines as a new user sees them")
struct MarkerAndLineCLITests {
  /// The number each marker stands for: 1, plus N for a "+N" after it.
  func countedMarkers(_ lines: [String]) -> Int {
    var total = 0
    for line in lines {
      let chars = Array(line)
      for (i, ch) in chars.enumerated() where ch == "●" {
        total += 1
        // The label starts two cells right; its "+N" ends it.
        let rest = String(chars[min(i + 2, chars.count)...].prefix(30))
        if let r = rest.range(of: #"\+[0-9]+"#, options: .regularExpression),
          !rest[..<r.lowerBound].contains("●")
        {
          total += Int(rest[r].dropFirst()) ?? 0
        }
      }
    }
    return total
  }

  @Test("a track across the antimeridian is fitted near the date line and drawn short")
  func antimeridian() throws {
    let gpx = try TemporaryGPX(
      """
      <trk><name>Fiji</name><trkseg><trkpt lat="-16.5" lon="178.4"/><trkpt lat="-16.6" lon="179.5"/>
      <trkpt lat="-16.7" lon="-179.6"/><trkpt lat="-16.8" lon="-178.6"/></trkseg></trk>
      """)
    defer { gpx.remove() }
    let r = try termmap([
      "render", "--no-basemap", "--color", "never", "--size", "60x12", "--status", gpx.url.path,
    ])
    #expect(r.status == 0)
    let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let status = lines.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    let zoom = status.range(of: #"z[0-9.]+"#, options: .regularExpression).map {
      Double(status[$0].dropFirst()) ?? 0
    }
    #expect((zoom ?? 0) > 5, "\(status)")
    #expect(status.hasPrefix("-16.") && (status.contains(" 179.") || status.contains(" -179.")))
    // Drawn short: the line's dots lie in a band of rows, not around the world.
    let inked = lines.dropLast().filter {
      $0.unicodeScalars.contains { $0.value > 0x2800 && $0.value < 0x2900 }
    }
    #expect(inked.count >= 3)
  }

  @Test("every waypoint is drawn or counted in a +N")
  func everyWaypointCounted() throws {
    var body = ""
    for n in 0..<8 {
      body +=
        #"<wpt lat="\#(43.7384 + Double(n % 4) * 0.0004)" lon="\#(7.4246 + Double(n / 4) * 0.0006)"><name>WP\#(n)</name></wpt>"#
    }
    let gpx = try TemporaryGPX(body)
    defer { gpx.remove() }
    let r = try termmap([
      "render", "--no-basemap", "--color", "never", "--size", "100x30", gpx.url.path,
    ])
    #expect(r.status == 0)
    let lines = r.stdout.split(separator: "\n").map(String.init)
    #expect(countedMarkers(lines) == 8, "\(r.stdout)")
  }

  @Test(
    "300 waypoints in a small area: no label runs into a marker, and every one is counted")
  func crowdedLabels() throws {
    var body = ""
    var seed: UInt64 = 7
    func next() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(seed >> 11) / Double(1 << 53)
    }
    for n in 0..<300 {
      body +=
        #"<wpt lat="\#(43.72 + next() * 0.04)" lon="\#(7.40 + next() * 0.06)"><name>WP\#(n)</name></wpt>"#
    }
    let gpx = try TemporaryGPX(body)
    defer { gpx.remove() }
    let r = try termmap(["render", "--color", "never", "--size", "100x30", gpx.url.path])
    #expect(r.status == 0)
    let lines = r.stdout.split(separator: "\n").map(String.init)
    for line in lines {
      // A marker is never touched by text: a label starts a cell after its marker and ends a
      // cell before the next one.
      #expect(
        line.range(
          of: #"[^ \x{2800}-\x{28FF}]●|●[^ \x{2800}-\x{28FF}]"#, options: .regularExpression)
          == nil,
        "\(line)")
    }
    #expect(countedMarkers(lines) == 300)
  }
}
