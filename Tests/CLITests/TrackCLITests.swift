import Foundation
import Testing

/// `termmap info` and `render` on TCX, FIT and IGC files (issue 13).
@Suite struct TrackCLITests {
  let tracks = "Tests/MapDataTests/Fixtures/tracks/"

  @Test("info shows a FIT ride's format, length, moving time, heart rate and cadence")
  func infoFIT() throws {
    let r = try termmap(["info", tracks + "ride-2020-06-01.fit"])
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    #expect(r.stdout.contains("  format      FIT\n"))
    #expect(r.stdout.contains("  points      96\n"))
    #expect(r.stdout.contains("  length      901.7 m\n"))
    #expect(r.stdout.contains("  moving      2 min 6 s, average 25.8 km/h, max 28.4 km/h\n"))
    #expect(r.stdout.contains("  heart rate  143 to 156 bpm, average 150\n"))
    #expect(r.stdout.contains("  cadence     0 to 96 rpm, average 80\n"))
  }

  @Test("info --json on TCX and IGC")
  func infoJSON() throws {
    let r = try termmap([
      "info", "--json", tracks + "activity-5039744860.tcx", tracks + "example.igc",
    ])
    #expect(r.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    let files = try #require(object?["files"] as? [[String: Any]])
    #expect(files[0]["format"] as? String == "tcx")
    #expect(files[0]["segments"] as? Int == 5)
    #expect(files[0]["heart_rate_bpm"] as? [Double] == [143, 156, 149.98])
    #expect(files[1]["format"] as? String == "igc")
    #expect(files[1]["length_m"] as? Double == 341112.644)
    #expect(files[1]["heart_rate_bpm"] is NSNull)
  }

  @Test(
    "render draws each track format",
    arguments: ["ride-2020-06-01.fit", "activity-5039744860.tcx", "xctrack-2023-04-28-start.igc"])
  func renderEach(file: String) throws {
    let r = try termmap([
      "render", "--no-basemap", "--color", "never", "--size", "60x20", tracks + file,
    ])
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    let inked = inkedCells(r.stdout)
    #expect(inked > 20, "\(file) drew \(inked) braille cells")
  }
}

/// Absurd times and GPS spikes in `termmap info` (issue 20).
@Suite struct TrackTimesCLITests {
  @Test("info on Mojstrovka.gpx (times in 1901): no time, no speed, and why")
  func mojstrovka() throws {
    // At 8ab8a51: "time 1901-12-13T20:45:52.207Z to 1901-12-13T20:45:52.207Z (0 s)" and
    // "moving 0 s, average 107287.2 km/h, max 107287.2 km/h".
    let r = try termmap(["info", "Data/samples/Mojstrovka.gpx"])
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    #expect(
      r.stdout.contains("  time        none\n  ignored     184 point times (184 before 1980)\n"))
    #expect(!r.stdout.contains("moving"))
    #expect(!r.stdout.contains("km/h"))
    let j = try termmap(["info", "--json", "Data/samples/Mojstrovka.gpx"])
    let object = try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any]
    let file = try #require((object?["files"] as? [[String: Any]])?.first)
    #expect(file["time"] is NSNull)
    #expect(file["max_speed_mps"] is NSNull)
    #expect(file["moving_time_s"] is NSNull)
    let ignored = try #require(file["times_ignored"] as? [String: Int])
    #expect(ignored == ["before_1980": 184, "out_of_order": 0, "over_1000_kmh": 0])
  }

  @Test("info on cerknicko-jezero.gpx: the 330.8 km/h GPS spike is not the maximum")
  func cerknica() throws {
    let r = try termmap(["info", "Data/samples/cerknicko-jezero.gpx"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("  moving      32 min 47 s, average 7.6 km/h, max 41.4 km/h\n"))
    #expect(!r.stdout.contains("ignored"))
    let j = try termmap(["info", "--json", "Data/samples/cerknicko-jezero.gpx"])
    let object = try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any]
    let file = try #require((object?["files"] as? [[String: Any]])?.first)
    #expect(file["max_speed_mps"] as? Double == 11.497)
    let ignored = try #require(file["times_ignored"] as? [String: Int])
    #expect(ignored == ["before_1980": 0, "out_of_order": 0, "over_1000_kmh": 0])
  }
}
