import Foundation
import MapGeometry
import Testing

@testable import MapData

/// Absurd times and GPS spikes (issue 20): what `termmap info` and the profile panel count.
@Suite struct TimeScreeningTests {
  /// 2024-05-01T08:00:00Z.
  static let start = 1_714_550_400.0

  /// A GPX track along the meridian 14° E from 46° N: one point every `interval` seconds,
  /// `step` metres apart (so `step / interval` m/s), with points moved or retimed by
  /// `change(k, latitude, longitude, time)`.
  static func walk(
    points: Int, step: Double = 13.9, interval: Double = 10,
    change: (Int, inout Double, inout Double, inout Double) -> Void = { _, _, _, _ in }
  ) -> String {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    var body = ""
    for k in 0..<points {
      var lat = 46 + Double(k) * step / 111_150
      var lon = 14.0
      var t = start + Double(k) * interval
      change(k, &lat, &lon, &t)
      let time = f.string(from: Date(timeIntervalSince1970: t))
      body += "<trkpt lat=\"\(lat)\" lon=\"\(lon)\"><time>\(time)</time></trkpt>\n"
    }
    return """
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
      \(body)</trkseg></trk></gpx>
      """
  }

  static func stats(_ gpx: String) throws -> FileStatistics {
    FileStatistics(try loadText(gpx, name: "walk.gpx"))
  }

  @Test("Mojstrovka.gpx: every time is in 1901, so none is used for time or speed")
  func mojstrovkaTimesAreAllIgnored() throws {
    // At 8ab8a51: a time span in 1901 and 29,802 m/s (107,287 km/h) between two fixes.
    let s = FileStatistics(try loadContent(Fixture.sample("Mojstrovka.gpx")))
    #expect(s.timeScreening == TimeScreening(beforeGPS: 184))
    #expect(s.timeScreening.reasons == "184 before 1980")
    #expect(s.timeSpan == nil)
    #expect(s.movingTime == nil)
    #expect(s.maxSpeed == nil)
    #expect(s.points == 184)
    #expect(abs(s.length - 2700.9175307580945) < 1e-6)
  }

  @Test("A time before 1980, out of order, in the future or at 1,000 km/h is left out")
  func absurdTimesAreLeftOut() throws {
    let gpx = Self.walk(points: 40) { k, _, _, t in
      switch k {
      case 0: t = 0  // 1970-01-01: a clock never set
      case 10: t += 3600  // one time an hour ahead: dropped itself, not every time after it
      case 20: t -= 25  // before the time of point 18
      case 30: t -= 9.99  // 13.9 m in 0.01 s after point 29
      default: break
      }
    }
    let s = try Self.stats(gpx)
    #expect(s.timeScreening == TimeScreening(beforeGPS: 1, outOfOrder: 2, tooFast: 1))
    #expect(s.timeScreening.reasons == "1 before 1980, 2 out of order, 1 over 1000 km/h")
    #expect(s.timeSpan == (Self.start + 10)...(Self.start + 390))
    // Every interval left is a 5.0 km/h walk.
    let top = try #require(s.maxSpeed)
    #expect(abs(top * 3.6 - 5.0) < 0.05, "\(top * 3.6) km/h")
    // 40 points, 8 intervals lost on both sides of the 4 dropped times, less the one before
    // point 0 that never existed: 39 - 7 = 32 intervals of 10 s.
    #expect(s.movingTime == 320)
  }

  @Test("cerknicko-jezero.gpx: the 330.8 km/h spike (184 m in 2 s) is not the maximum")
  func cerknicaSpikeIsFiltered() throws {
    // At 8ab8a51: max 91.9 m/s (330.8 km/h). The fastest believable stretch is a 41.4 km/h
    // descent, 1 s fixes one after another at 34 to 41 km/h.
    let s = FileStatistics(try loadContent(Fixture.sample("cerknicko-jezero.gpx")))
    let top = try #require(s.maxSpeed)
    #expect(String(format: "%.1f", top * 3.6) == "41.4")
    #expect(s.timeScreening.ignored == 0)
    let average = try #require(s.movingSpeed)
    #expect(String(format: "%.1f", average * 3.6) == "7.6")
  }

  @Test("A walk with a GPS spike out and back keeps its walking maximum")
  func spikeOutAndBack() throws {
    // Point 30 lands 917 m east for one fix: 330 km/h out and back.
    let gpx = Self.walk(points: 60) { k, _, lon, _ in
      if k == 30 { lon += 917 / (111_320 * cos(46 * Double.pi / 180)) }
    }
    let s = try Self.stats(gpx)
    let top = try #require(s.maxSpeed)
    #expect(abs(top * 3.6 - 5.0) < 0.05, "\(top * 3.6) km/h")
    #expect(s.timeScreening.ignored == 0)
  }

  @Test("A jump of 184 m in 2 s, then on from there, is a spike; a real sprint is not")
  func jumpAndSprint() throws {
    let jump = Self.walk(points: 60) { k, lat, _, t in
      if k >= 30 {
        lat += 184 / 111_150
        t -= 8
      }
    }
    let jumpTop = try #require(try Self.stats(jump).maxSpeed)
    #expect(abs(jumpTop * 3.6 - 5.0) < 0.05, "\(jumpTop * 3.6) km/h")
    // A cyclist speeding up from 10 to 40 km/h over a minute and holding it: every speed is
    // believable, and the maximum is the 40 km/h.
    let ride = Self.walk(points: 90, interval: 2) { k, lat, _, _ in
      var metres = 0.0
      for j in 0..<k {
        let kmh: Double = 10 + min(Double(j), 30)
        metres += 2 * kmh / 3.6
      }
      lat = 46 + metres / 111_150
    }
    let rideTop = try #require(try Self.stats(ride).maxSpeed)
    #expect(abs(rideTop * 3.6 - 40) < 0.2, "\(rideTop * 3.6) km/h")
  }

  @Test("Recorded speeds with a spike: the spike is not the maximum")
  func recordedSpeedSpike() throws {
    var line = MeasuredLine(
      kind: .trackSegment,
      coordinates: (0..<40).map { Coordinate(latitude: 46 + Double($0) * 1e-4, longitude: 14) })
    line.times = (0..<40).map { Self.start + Double($0) }
    line.speeds = (0..<40).map { (k: Int) -> Double in k == 20 ? 92 : 11 + Double(k % 3) * 0.2 }
    var content = MapContent(path: "ride.fit", overlays: [], annotations: [], pointCount: 40)
    content.lines = [line]
    let s = FileStatistics(content)
    let top = try #require(s.maxSpeed)
    #expect(abs(top - 11.4) < 1e-9, "\(top)")
    // Without times nothing can tell a spike: the largest recorded speed.
    line.times = []
    content.lines = [line]
    #expect(FileStatistics(content).maxSpeed == 92)
  }

  @Test("Spike detection: the faster sample of an outlying acceleration; few samples, none")
  func spikeIndices() {
    let times = (0..<20).map(Double.init)
    var speeds = (0..<20).map { 5 + Double($0 % 2) * 0.1 }
    speeds[7] = 80
    #expect(TrackTimes.spikeIndices(speeds: speeds, times: times) == [7])
    #expect(TrackTimes.maximumWithoutSpikes(speeds: speeds, times: times) == 5.1)
    // Two high fixes in a row (out and back): both.
    speeds[8] = 79
    #expect(TrackTimes.spikeIndices(speeds: speeds, times: times) == [7, 8])
    // A steady speed (MAD 0): the mean deviation takes over.
    let steady = (0..<20).map { $0 == 12 ? 60.0 : 5.0 }
    #expect(TrackTimes.spikeIndices(speeds: steady, times: times) == [12])
    // Fewer than 8 accelerations: nothing to compare with.
    #expect(
      TrackTimes.spikeIndices(speeds: Array(steady[8..<16]), times: Array(times[8..<16])) == [])
  }

  @Test("docs/formats.md describes ascent as the statistics compute it: bridging gaps")
  func climbDocumentationMatchesTheCode() throws {
    // 490 m, a point without an elevation, 520 m: the code climbs 30 m, as gpxpy does.
    let gpx = """
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
      <trkpt lat="46" lon="14"><ele>490</ele></trkpt>
      <trkpt lat="46.001" lon="14"></trkpt>
      <trkpt lat="46.002" lon="14"><ele>520</ele></trkpt>
      </trkseg></trk></gpx>
      """
    let s = try Self.stats(gpx)
    #expect(s.ascent == 30 && s.descent == 0)
    // Until 8ab8a51 the page said "between consecutive vertices of a line that both have an
    // elevation", which would give 0 m here.
    let page = try String(
      contentsOf: Fixture.samples.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/formats.md"), encoding: .utf8)
    let flat = page.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(!flat.contains("consecutive vertices of a line that both have an elevation"))
    #expect(
      flat.contains(
        "from each vertex that has an elevation to the next vertex of the same line that has one: vertices without an elevation are bridged (as gpxpy does), so 490 m, none, 520 m climbs 30 m"
      ))
  }
}
