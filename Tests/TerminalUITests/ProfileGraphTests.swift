import DotRaster
import Foundation
import MapData
import MapGeometry
import Testing

@testable import TerminalUI

/// The profile graph as braille text (issue 13).
@Suite struct ProfileGraphTests {
  @Test("a climb and a descent draw as a braille roof")
  func roof() {
    let distances = (0...8).map { Double($0) * 100 }
    let values: [Double] = [0, 25, 50, 75, 100, 75, 50, 25, 0]
    let cells = ProfileGraph.cells(
      distances: distances, values: values, range: 0...100, columns: 4, rows: 2, color: .green,
      fillColor: .green)
    // 8 dot columns, 8 dot rows: the line climbs to the peak at 400 m (dot column 4) and
    // comes down (700 m and 800 m share the last column); the area under it is dotted.
    #expect(cells.lines == [" ⢠⡿⡄", "⣰⡋⡀⣹"])
  }

  @Test("a long track's binned summary draws the graph the full pass draws")
  func summaryMatchesFullPass() throws {
    // A fixed sequence (a linear congruential generator), so the test is the same each run.
    var state: UInt64 = 42
    func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    let n = 200_000
    var distances = [Double](repeating: 0, count: n)
    var values = [Double](repeating: 0, count: n)
    var e = 500.0
    for k in 1..<n {
      distances[k] = distances[k - 1] + 1 + 4 * next()
      e += 2 * next() - 1
      values[k] = e
    }
    let range = try #require(ProfileGraph.range(values))
    let summary = ProfileSummary(distances: distances, values: values, total: distances[n - 1])
    let full = ProfileGraph.cells(
      distances: distances, values: values, range: range, columns: 116, rows: 14, color: .green,
      fillColor: .green)
    let binned = ProfileGraph.cells(
      distances: distances, values: values, range: range, columns: 116, rows: 14, color: .green,
      fillColor: .green, summary: summary)
    var same = 0
    var total = 0
    for r in 0..<14 {
      for c in 0..<116 {
        total += 1
        if full[c, r].glyph == binned[c, r].glyph { same += 1 }
      }
    }
    #expect(Double(same) / Double(total) > 0.97, "\(same) of \(total) cells agree")
  }

  @Test("a track's profile: distances along its segments, channels it has, nearest vertex")
  func profile() throws {
    let content = try MapContentLoader.load(
      path: Harness.path("Tests/MapDataTests/Fixtures/tracks/ride-2020-06-01.fit"))
    let p = try #require(TrackProfile(title: "ride", lines: content.lines))
    #expect(p.channels == [.elevation, .speed, .heartRate, .cadence])
    #expect(abs(p.length - 901.6577494477314) < 1e-6)
    #expect(p.index(atDistance: 0) == 0)
    #expect(p.index(atDistance: 1e9) == p.coordinates.count - 1)
    // The nearest vertex, checked against every vertex (the ride has a 247 m GPS gap after
    // 352 m, so 450 m finds the vertex before it).
    for target in stride(from: 0.0, through: 900, by: 37.5) {
      let k = p.index(atDistance: target)
      let best = p.distances.map { abs($0 - target) }.min()!
      #expect(abs(p.distances[k] - target) == best, "at \(target) m")
    }
    #expect(abs(p.distances[p.index(atDistance: 450)] - 352) < 1)
    // The panel's statistics, from the profile's distances, are info's.
    let panel = p.statistics(path: "ride.fit")
    let info = FileStatistics(content)
    #expect(abs(panel.length - info.length) < 1e-6)
    #expect(panel.movingTime == info.movingTime)
    #expect(abs((panel.movingSpeed ?? 0) - (info.movingSpeed ?? 1)) < 1e-9)
    #expect(panel.maxSpeed == info.maxSpeed)
    #expect(panel.elevationRange == info.elevationRange)
    #expect(panel.heartRate == info.heartRate)
  }

  @Test("cerknicko-jezero.gpx: the speed graph's axis tops out at 41 km/h, not the 330 km/h spike")
  func spikeIsNotDrawn() throws {
    let content = try MapContentLoader.load(path: Harness.path("Data/samples/cerknicko-jezero.gpx"))
    // The track with the spike (184 m in 2 s).
    let profiles = content.lines.compactMap { TrackProfile(title: "t", lines: [$0]) }
    let tops = profiles.compactMap { $0.ranges[.speed]?.upperBound }
    #expect(tops.count == profiles.count)
    let top = try #require(tops.max())
    #expect(String(format: "%.1f", top * 3.6) == "41.4")
    // The axis label fits the axis's 7 columns.
    #expect(Viewer.axisLabel(ProfileChannel.speed.shown(top), .speed) == "41 km/h")
    #expect(Viewer.axisLabel(330.8, .speed) == "331")
    #expect(Viewer.axisLabel(1615, .elevation) == "1615 m")
    // The panel's maximum is info's.
    let info = FileStatistics(content)
    let panelTop = profiles.compactMap { $0.statistics(path: "c.gpx").maxSpeed }.max()
    #expect(panelTop == info.maxSpeed)
  }
}
