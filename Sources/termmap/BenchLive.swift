import DotRaster
import Foundation
import MapData
import MapGeometry
import MapTiles
import TermMapKit

extension BenchCommand {
  /// Live tracking: a breadcrumb of a million points (a day's wandering around Monaco) at city
  /// zoom over the offline map, with the user location shown and followed; each frame is one
  /// fix (10 a second in real life): the point appended, its segment's tiles invalidated, the
  /// location updated, and the frame drawn. Only the tiles the new segment touches are drawn
  /// again (the note gives the mean per fix).
  func liveTracking(frames: Int) throws -> [Result] {
    Memory.resetPeak()
    let map = MapView(columns: columns, rows: rows)
    let style = ContentStyle()
    map.delegate = style
    BenchCommand.keepAlive.append(style)
    if let dir = DataDirectory.locate() {
      map.addOverlays(try OfflineMap.overlays(dataDirectory: dir), level: .aboveRoads)
    }
    let crumb = Breadcrumb(title: "bench live track")
    var walk = LiveWalk(seed: 9)
    for _ in 0..<1_000_000 { crumb.add(walk.next()) }
    map.addOverlay(crumb)
    map.showsUserLocation = true
    map.setCenter(walk.position, animated: false)
    map.setZoomLevel(16, animated: false)
    map.setUserTrackingMode(.follow, animated: false)
    _ = map.renderCompleteFrame(timeout: 15)
    let renderer = map.renderer(for: crumb) as? BreadcrumbRenderer
    let clock = ContinuousClock()
    var times: [Double] = []
    var drawn: [Int] = []
    for _ in 0..<max(frames * 5, 100) {
      let start = clock.now
      let c = walk.next()
      if let rect = crumb.add(c) { renderer?.invalidate(segment: rect) }
      map.updateUserLocation(
        Location(coordinate: c, horizontalAccuracy: 6, course: walk.course, speed: 1.4))
      let (frame, stats) = map.renderFrameWithStatistics()
      times.append(Self.milliseconds(clock.now - start))
      precondition(frame.rows == map.rows)
      drawn.append(stats.tilesDrawn)
    }
    times.sort()
    let moves = drawn.filter { $0 > 8 }.count
    drawn.sort()
    return [
      Result(
        name: "live-1M-breadcrumb-fix", frames: times.count, median: times[times.count / 2],
        p95: times[min(times.count - 1, Int(Double(times.count) * 0.95))],
        peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576,
        note: String(
          format:
            "%d points; tiles drawn per fix: median %d (the segment's and the accuracy ring's), mean %.2f; %d follow moves redrew the screen",
          crumb.pointCount, drawn[drawn.count / 2],
          Double(drawn.reduce(0, +)) / Double(drawn.count), moves))
    ]
  }
}

/// A deterministic walk at about 1.4 m a step, turning a little each step and kept within a
/// few kilometres of Monaco.
struct LiveWalk {
  var state: UInt64
  var position = Coordinate(latitude: 43.7384, longitude: 7.4246)
  var course = 45.0
  let home = Coordinate(latitude: 43.7384, longitude: 7.4246)

  init(seed: UInt64) { state = seed }

  mutating func random() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(state >> 11) / Double(1 << 53)
  }

  mutating func next() -> Coordinate {
    course += (random() - 0.5) * 20
    // Far from home, turn back towards it.
    let dy = (position.latitude - home.latitude) * 111_320
    let dx = (position.longitude - home.longitude) * 80_500
    if dx * dx + dy * dy > 2_500 * 2_500 {
      course = (atan2(-dx, -dy) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
    }
    course = (course + 360).truncatingRemainder(dividingBy: 360)
    let a = course * .pi / 180
    position = Coordinate(
      latitude: position.latitude + cos(a) * 1.4 / 111_320,
      longitude: position.longitude + sin(a) * 1.4 / 80_500)
    return position
  }
}
