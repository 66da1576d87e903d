import DotRaster
import Foundation
import LiveLayers
import MapGeometry
import Synchronization
import TermMapKit
import Testing

/// A clock a test sets.
final class TestClock: Sendable {
  private let value = Mutex(0.0)
  var now: Double {
    get { value.withLock { $0 } }
    set { value.withLock { $0 = newValue } }
  }
}

@MainActor
@Suite("Live layers on a map: markers that move in place")
struct LayerTests {
  func frame(_ map: MapView) -> String {
    map.renderFrame().lines.joined(separator: "\n")
  }

  @Test(
    "A target moves in place: the same annotation, the marker at its new cell, its glyph by heading"
  )
  func movesInPlace() throws {
    let clock = TestClock()
    let feed = LiveFeed(clock: { clock.now })
    let map = MapView(columns: 40, rows: 10)
    map.setCenter(Coordinate(latitude: 0, longitude: 0), animated: false)
    map.setZoomLevel(6, animated: false)
    let layer = LiveLayer(feed: feed)
    layer.attach(to: map)
    feed.apply([
      point(
        "1", 0, 0, kind: .aircraft,
        [LiveProperty("flight", .string("AF123")), LiveProperty("track", .number(90))])
    ])
    #expect(layer.synchronize())
    let first = try #require(layer.targets["1"])
    let before = frame(map)
    #expect(before.contains("→ AF123"), "\(before)")
    feed.apply([point("1", 0.2, 0.2, kind: .aircraft, [LiveProperty("track", .number(0))])])
    layer.synchronize()
    #expect(layer.targets["1"] === first)
    #expect(map.annotationCount == 1)
    let after = frame(map)
    #expect(after.contains("↑ AF123"))
    #expect(!after.contains("→"))
    // Higher up and further right than before.
    let row = { (f: String) in f.split(separator: "\n").firstIndex { $0.contains("AF123") }! }
    #expect(row(after) < row(before))
    // Silent past its time-to-live (60 s for aircraft): grey, then gone.
    clock.now = 61
    layer.synchronize()
    #expect(map.view(for: first)?.color == .brightBlack)
    clock.now = 121
    layer.synchronize()
    #expect(map.annotationCount == 0)
    #expect(!frame(map).contains("AF123"))
  }

  @Test(
    "The eight directions, vessels as triangles, marker-color and a one-character marker-symbol")
  func glyphs() throws {
    let arrows = stride(from: 0.0, to: 360, by: 45).map {
      LiveTargetView.glyphs(kind: .aircraft, heading: $0).0
    }
    #expect(String(arrows) == "↑↗→↘↓↙←↖")
    #expect(LiveTargetView.glyphs(kind: .vessel, heading: 350).0 == "▲")
    #expect(LiveTargetView.glyphs(kind: .vessel, heading: 100).0 == "▶")
    #expect(LiveTargetView.glyphs(kind: .feature, heading: nil).0 == "●")
    let feed = LiveFeed()
    let map = MapView(columns: 30, rows: 6)
    map.setCenter(Coordinate(latitude: 0, longitude: 0), animated: false)
    let layer = LiveLayer(feed: feed)
    layer.attach(to: map)
    feed.apply([
      point(
        "x", 0, 0,
        [
          LiveProperty("marker-color", .string("#ff0000")),
          LiveProperty("marker-symbol", .string("H")),
          LiveProperty("name", .string("Heliport")),
        ])
    ])
    layer.synchronize()
    #expect(frame(map).contains("H Heliport"))
    let t = try #require(layer.targets["x"])
    // 24-bit, for a terminal that announces truecolor; its palette colour for the others.
    let color = try #require(map.view(for: t)?.color)
    #expect(color == TermColor(red: 255, green: 0, blue: 0))
    #expect(color.index == TermColor(nearestTo: 255, g: 0, b: 0).index)
  }

  @Test("geoJSONFeature is one line of GeoJSON that reads back as the same target")
  func geoJSONRoundTrip() throws {
    let line =
      "{\"type\":\"Feature\",\"id\":\"a \\\"b\\\"\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[7.4246,43.7384]},\"properties\":{\"title\":\"Café\\n\",\"n\":12,\"ok\":true,\"none\":null,\"tags\":{\"k\":[1,2]}}}"
    let (updates, _) = decode(line + "\n")
    var s = TargetStore()
    s.apply(updates, now: 0)
    let state = try #require(s["a \"b\""])
    let out = LiveTarget(state).geoJSONFeature
    #expect(!out.contains("\n"))
    #expect(
      out
        == "{\"type\":\"Feature\",\"id\":\"a \\\"b\\\"\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[7.4246,43.7384]},\"properties\":{\"title\":\"Café\\n\",\"n\":12,\"ok\":true,\"none\":null,\"tags\":{\"k\":[1,2]}}}"
    )
    let (again, _) = decode(out + "\n")
    #expect(again == updates)
  }

  @Test("Lines and polygons are overlays, replaced when their id comes again and removed with null")
  func shapes() throws {
    let feed = LiveFeed()
    let map = MapView(columns: 30, rows: 8)
    let layer = LiveLayer(feed: feed)
    layer.attach(to: map)
    let line = LiveGeometry.lines([
      [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 1)]
    ])
    feed.apply([LiveUpdate(id: "road", geometry: line)])
    layer.synchronize()
    let first = try #require(layer.shapes["road"])
    #expect(map.overlays.contains { $0 === first })
    feed.apply([
      LiveUpdate(id: "road", geometry: line, properties: [LiveProperty("name", .string("A1"))])
    ])
    layer.synchronize()
    let second = try #require(layer.shapes["road"])
    #expect(second !== first)
    #expect(!map.overlays.contains { $0 === first })
    #expect(second.title == "A1")
    feed.apply([LiveUpdate(id: "road", geometry: .removed)])
    layer.synchronize()
    #expect(layer.shapes.isEmpty)
    #expect(!map.overlays.contains { $0 === second })
  }
}
