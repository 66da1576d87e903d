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
    let inked = r.stdout.unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }.count
    #expect(inked > 20, "\(file) drew \(inked) braille cells")
  }
}
