import DotRaster
import LiveLayers
import MapGeometry
import TermMapKit
import Testing

/// The layer finds a moving target by its slot in the store, not by its id: these are the cases
/// where a slot or an id changes hands between two frames.
@MainActor
@Suite("Live layers: targets found again between frames (slots reused, kinds changed)")
struct LayerUpdateTests {
  func scene() -> (LiveFeed, LiveLayer, MapView) {
    let feed = LiveFeed()
    let map = MapView(columns: 40, rows: 10)
    map.setCenter(Coordinate(latitude: 0, longitude: 0), animated: false)
    map.setZoomLevel(6, animated: false)
    let layer = LiveLayer(feed: feed)
    layer.clustersTargets = false
    layer.attach(to: map)
    return (feed, layer, map)
  }

  func text(_ map: MapView) -> String { map.renderFrame().lines.joined(separator: "\n") }

  @Test("A target removed and another added in its place between two frames: the new one shows")
  func slotTakenByAnother() throws {
    let (feed, layer, map) = scene()
    feed.apply([point("a", 0, 0, [LiveProperty("name", .string("Alpha"))])])
    layer.synchronize()
    let alpha = try #require(layer.targets["a"])
    #expect(text(map).contains("Alpha"))
    // "b" takes the store's slot that "a" freed, in the same batch.
    feed.apply([
      LiveUpdate(id: "a", geometry: .removed),
      point("b", 0.15, 0.15, [LiveProperty("name", .string("Bravo"))]),
    ])
    layer.synchronize()
    #expect(Array(layer.targets.keys) == ["b"])
    #expect(map.annotationCount == 1)
    #expect(!map.annotations.contains { $0 === alpha })
    let frame = text(map)
    #expect(frame.contains("Bravo") && !frame.contains("Alpha"), "\(frame)")
    // Bravo then moves in place: the same annotation, drawn at its new cell.
    let bravo = try #require(layer.targets["b"])
    let row = { (f: String) in f.split(separator: "\n").firstIndex { $0.contains("Bravo") } }
    let before = row(frame)
    feed.apply([point("b", -0.15, 0.15)])
    layer.synchronize()
    #expect(layer.targets["b"] === bravo)
    let after = text(map)
    #expect(after.contains("Bravo"), "\(after)")
    let (b, a) = (try #require(before), try #require(row(after)))
    #expect(a > b)
  }

  @Test("An id removed and sent again between two frames is a new target, shown once")
  func idRemovedAndBack() throws {
    let (feed, layer, map) = scene()
    feed.apply([point("a", 0, 0, [LiveProperty("name", .string("Alpha"))])])
    layer.synchronize()
    let first = try #require(layer.targets["a"])
    feed.apply([
      point("z", 1, 1, [LiveProperty("name", .string("Zulu"))]),
      LiveUpdate(id: "a", geometry: .removed),
      point("a", 0.1, 0.1, [LiveProperty("name", .string("Alpha"))]),
    ])
    layer.synchronize()
    let second = try #require(layer.targets["a"])
    #expect(second !== first)
    #expect(map.annotationCount == 2)
    #expect(!map.annotations.contains { $0 === first })
    let frame = text(map)
    #expect(frame.components(separatedBy: "Alpha").count == 2, "\(frame)")
    // The new one moves in place.
    feed.apply([point("a", -0.1, -0.1)])
    layer.synchronize()
    #expect(layer.targets["a"] === second)
    #expect(second.coordinate == Coordinate(latitude: -0.1, longitude: -0.1))
  }

  @Test("A point that becomes a line and a point again: one marker, no overlay left")
  func pointLinePoint() throws {
    let (feed, layer, map) = scene()
    feed.apply([point("c", 0, 0, [LiveProperty("name", .string("Charlie"))])])
    layer.synchronize()
    let line = LiveGeometry.lines([
      [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 1)]
    ])
    feed.apply([LiveUpdate(id: "c", geometry: line)])
    layer.synchronize()
    #expect(layer.targets.isEmpty)
    #expect(map.annotationCount == 0)
    #expect(layer.shapes["c"] != nil)
    feed.apply([point("c", 0.1, 0.1)])
    layer.synchronize()
    #expect(layer.shapes.isEmpty)
    #expect(map.overlays.isEmpty)
    #expect(map.annotationCount == 1)
    let t = try #require(layer.targets["c"])
    #expect(t.title == "Charlie")
    // It moves in place from here.
    feed.apply([point("c", 0.2, 0.2)])
    layer.synchronize()
    #expect(layer.targets["c"] === t)
    #expect(map.annotationCount == 1)
    #expect(text(map).contains("Charlie"))
  }

  @Test("A target that only moves keeps its label; one whose properties change shows them")
  func labelFollowsProperties() throws {
    let (feed, layer, map) = scene()
    feed.apply([point("d", 0, 0, [LiveProperty("name", .string("Delta"))])])
    layer.synchronize()
    feed.apply([point("d", 0.1, 0.1)])
    layer.synchronize()
    #expect(text(map).contains("● Delta"))
    feed.apply([point("d", 0.1, 0.1, [LiveProperty("name", .string("Echo"))])])
    layer.synchronize()
    let frame = text(map)
    #expect(frame.contains("● Echo") && !frame.contains("Delta"), "\(frame)")
    feed.apply([point("d", 0.1, 0.1, [LiveProperty("heading", .number(90))])])
    layer.synchronize()
    #expect(text(map).contains("→ Echo"))
  }

  @Test("A map attached after the targets came sees them move as the first map does")
  func secondMapAttachedLater() throws {
    let (feed, layer, first) = scene()
    feed.apply([
      point("e", 0, 0, [LiveProperty("name", .string("Echo"))]),
      point("f", 0.3, -0.3, [LiveProperty("name", .string("Foxtrot"))]),
    ])
    layer.synchronize()
    let second = MapView(columns: 40, rows: 10)
    second.setCenter(Coordinate(latitude: 0, longitude: 0), animated: false)
    second.setZoomLevel(6, animated: false)
    layer.attach(to: second)
    #expect(text(second) == text(first))
    // Both move (their views show the same) and one is renamed while it moves: each map
    // draws them where they are now, under their names now.
    feed.apply([
      point("e", -0.3, 0.6), point("f", 0.3, 0.6, [LiveProperty("name", .string("Golf"))]),
    ])
    layer.synchronize()
    let frame = text(first)
    #expect(text(second) == frame)
    let lines = frame.split(separator: "\n", omittingEmptySubsequences: false)
    let echo = try #require(lines.firstIndex { $0.contains("Echo") })
    let golf = try #require(lines.firstIndex { $0.contains("Golf") })
    #expect(echo > golf, "\(frame)")
    #expect(!frame.contains("Foxtrot"), "\(frame)")
    // A fresh map with the same targets added anew draws the same frame.
    let fresh = MapView(columns: 40, rows: 10)
    fresh.setCenter(Coordinate(latitude: 0, longitude: 0), animated: false)
    fresh.setZoomLevel(6, animated: false)
    let copies = layer.allTargets.map { LiveTarget($0.state, clusteringIdentifier: nil) }
    fresh.addAnnotations(copies)
    #expect(text(fresh) == frame, "\(text(fresh))\n\(frame)")
  }
}
