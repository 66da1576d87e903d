import DotRaster
import Foundation
import LiveLayers
import MapData
import MapGeometry
import Synchronization
import Testing

@testable import TerminalUI

/// A live target's trail (`--trail N`) in the viewer: drawn in the colour its marker has
/// (`marker-color`, grey once stale), left alone by the routes toggle, shown and hidden with
/// its live layer from the layer list.
/// The feed's clock, moved on by the test.
final class TestClock: Sendable {
  private let seconds = Mutex(100.0)
  var now: Double { seconds.withLock { $0 } }
  func advance(_ by: Double) { seconds.withLock { $0 += by } }
}

@MainActor
@Suite("Live layers in the viewer: trails in their targets' colours, hidden with their layer")
struct LiveTrailTests {
  /// A viewer on an empty map with one live layer whose target "a" (titled Alpha, red by its
  /// `marker-color`) went east along the equator in four steps (a trail of four positions),
  /// and "b" (Bravo, a feature's colour) the same further north and east. The feed's clock is
  /// the test's.
  func scene() throws -> (Harness, LiveFeed, TestClock) {
    let h = try Harness(columns: 80, rows: 24, places: false) { o in
      o.center = Coordinate(latitude: 0, longitude: 0.1)
      o.zoom = 10
    }
    let clock = TestClock()
    let feed = LiveFeed(
      store: TargetStore(trailLength: 10, timeToLive: TimeToLive(fixed: 60)),
      clock: { [clock] in clock.now })
    let layer = LiveLayer(feed: feed)
    layer.clustersTargets = false
    h.viewer.addLiveLayer(layer)
    let red = [
      LiveProperty("title", .string("Alpha")), LiveProperty("marker-color", .string("#ff0000")),
    ]
    let plain = [LiveProperty("title", .string("Bravo"))]
    for lon in [0.0, 0.05, 0.1, 0.15] {
      feed.apply([
        LiveUpdate(
          id: "a", geometry: .point(Coordinate(latitude: 0, longitude: lon)), properties: red),
        // Bravo (no marker-color: the kind's colour) goes east further north, from further
        // east: its trail's lines start where Alpha's do not.
        LiveUpdate(
          id: "b", geometry: .point(Coordinate(latitude: 0.02, longitude: lon + 0.02)),
          properties: plain),
      ])
    }
    h.settle()
    return (h, feed, clock)
  }

  /// The braille cells on the map (the status line left out): their colours, by how many,
  /// and the rows each colour is on.
  func brailleColours(_ h: Harness) throws -> [TermColor: Int] {
    try braille(h).counts
  }

  func braille(_ h: Harness) throws -> (counts: [TermColor: Int], rows: [TermColor: Set<Int>]) {
    let frame = try #require(h.frame)
    var counts: [TermColor: Int] = [:]
    var rows: [TermColor: Set<Int>] = [:]
    for r in 0..<(frame.rows - 1) {
      for c in 0..<frame.columns {
        let cell = frame[c, r]
        guard (0x2801...0x28FF).contains(cell.glyph.value), let f = cell.foreground else {
          continue
        }
        counts[f, default: 0] += 1
        rows[f, default: []].insert(r)
      }
    }
    return (counts, rows)
  }

  /// The colour the marker of a target is drawn in.
  func markerColour(_ h: Harness, _ title: String = "Alpha") throws -> TermColor? {
    let frame = try #require(h.frame)
    let at = try #require(h.find(title), "\(h.text)")
    // The label is beside the marker: the glyph just left of it (a space between).
    let marker = frame[max(at.column - 2, 0), at.row]
    #expect(marker.glyph == "●", "\(h.text)")
    return marker.foreground
  }

  @Test("the trail is drawn in the marker's colour; the routes toggle leaves it")
  func trailInMarkerColour() throws {
    let (h, feed, clock) = try scene()
    let red = try #require(FeatureStyle.trueColor(css: "#ff0000"))
    let plain = LiveTargetView.color(for: .feature)
    #expect(try markerColour(h) == red, "\(h.text)")
    #expect(try markerColour(h, "Bravo") == plain, "\(h.text)")
    let (colours, rows) = try braille(h)
    // About 0.15° of longitude at zoom 10: some 55 dots of line, 28 cells, each trail on the
    // row of its marker.
    #expect(Set(colours.keys) == [red, plain], "\(colours)\n\(h.text)")
    #expect((colours[red] ?? 0) > 15 && (colours[plain] ?? 0) > 15, "\(colours)\n\(h.text)")
    #expect(rows[red] == [try #require(h.find("Alpha")).row], "\(rows)\n\(h.text)")
    #expect(rows[plain] == [try #require(h.find("Bravo")).row], "\(rows)\n\(h.text)")
    // `r` hides routes, not the live layer's trails, nor those made while routes are off.
    h.type("r")
    #expect(h.status.contains("routes hidden"), "\(h.status)")
    #expect(try brailleColours(h) == colours, "\(h.text)")
    clock.advance(2)
    feed.apply([
      LiveUpdate(
        id: "a", geometry: .point(Coordinate(latitude: 0, longitude: 0.17)),
        properties: [LiveProperty("title", .string("Alpha"))])
    ])
    h.wait(seconds: 0.2)
    h.settle()
    let later = try brailleColours(h)
    #expect(Set(later.keys) == [red, plain], "\(later)\n\(h.text)")
    #expect((later[red] ?? 0) > (colours[red] ?? 0), "\(later)\n\(h.text)")
  }

  @Test("a stale target's trail is grey, as its marker")
  func staleTrailGrey() throws {
    let (h, _, clock) = try scene()
    // Silent past its time-to-live of 60 s (on the feed's clock): drawn stale.
    clock.advance(61)
    h.wait(seconds: 1)
    h.settle()
    let grey = TermColor.brightBlack
    #expect(try markerColour(h) == grey, "\(h.text)")
    #expect(try markerColour(h, "Bravo") == grey, "\(h.text)")
    let colours = try brailleColours(h)
    #expect(Array(colours.keys) == [grey], "\(colours)\n\(h.text)")
    #expect((colours[grey] ?? 0) > 30, "\(colours)\n\(h.text)")
  }

  @Test("the layer list's live row hides the markers and the trail, and shows them again")
  func layerListTogglesLiveLayer() throws {
    let (h, _, _) = try scene()
    let shown = try brailleColours(h)
    #expect(!shown.isEmpty)
    h.type("L")
    let row = try #require(h.find("live"), "\(h.text)")
    #expect(h.screen[row.row].contains("[x] live targets  2 targets"), "\(h.screen[row.row])")
    h.type(" ")
    #expect(h.text.contains("[ ] live targets  2 targets"), "\(h.text)")
    h.type("\u{1B}")
    #expect(try brailleColours(h).isEmpty, "\(h.text)")
    #expect(!h.text.contains("Alpha") && !h.text.contains("Bravo"), "\(h.text)")
    #expect(h.status.contains("2 targets hidden"), "\(h.status)")
    // Shown again: as before.
    h.type("L")
    h.type(" ")
    h.type("\u{1B}")
    #expect(try brailleColours(h) == shown, "\(h.text)")
    #expect(h.text.contains("Alpha"), "\(h.text)")
    #expect(!h.status.contains("hidden"), "\(h.status)")
  }
}
