import Foundation
import LiveLayers
import MapGeometry
import Testing

func point(
  _ id: String, _ lat: Double, _ lon: Double, kind: TargetKind = .feature,
  _ props: [LiveProperty] = []
)
  -> LiveUpdate
{
  LiveUpdate(
    id: id, kind: kind, geometry: .point(Coordinate(latitude: lat, longitude: lon)),
    properties: props)
}

@Suite("Live layers: targets by id, time-to-live and limits")
struct StoreTests {
  @Test(
    "Time-to-live: stale once silent for it, removed after twice; per kind, --ttl, the ttl property"
  )
  func timeToLive() {
    var s = TargetStore()
    s.apply(
      [
        point("plane", 1, 1, kind: .aircraft), point("ship", 2, 2, kind: .vessel),
        point("pin", 3, 3), point("short", 4, 4, [LiveProperty("ttl", .number(5))]),
      ], now: 0)
    _ = s.takeChanges()
    s.expire(now: 6)
    #expect(s.takeChanges().changed.map(\.id) == ["short"])
    #expect(s["short"]?.isStale == true)
    s.expire(now: 60)
    #expect(s["plane"]?.isStale == true)
    #expect(s["short"] == nil)
    s.apply(point("plane", 1.1, 1), now: 100)
    #expect(s["plane"]?.isStale == false)
    s.expire(now: 1200)
    #expect(s["plane"] == nil)
    #expect(s["ship"] == nil)
    #expect(s["pin"] != nil)
    // --ttl gives every kind the same.
    var fixed = TargetStore(timeToLive: TimeToLive(fixed: 2))
    fixed.apply([point("pin", 3, 3), point("ship", 2, 2, kind: .vessel)], now: 0)
    fixed.expire(now: 3)
    #expect(fixed.targets.map(\.isStale) == [true, true])
    fixed.expire(now: 4)
    #expect(fixed.count == 0)
  }

  @Test("At most --max-targets: the least recently updated is dropped, and counted")
  func limit() {
    var s = TargetStore(maximumTargets: 3)
    s.apply([point("a", 0, 0), point("b", 0, 1), point("c", 0, 2)], now: 0)
    s.apply(point("a", 1, 0), now: 1)
    s.apply(point("d", 0, 3), now: 2)
    #expect(s.targets.map(\.id) == ["c", "a", "d"])
    #expect(s.droppedTargets == 1)
    let changes = s.takeChanges()
    #expect(changes.removed == ["b"])
    #expect(Set(changes.changed.map(\.id)) == ["a", "c", "d"])
  }

  @Test("Trails keep the last N positions; many updates between two takes are one change")
  func trails() {
    var s = TargetStore(trailLength: 3)
    for k in 0..<10 { s.apply(point("a", Double(k), 0), now: Double(k)) }
    #expect(s["a"]?.trail.map(\.latitude) == [7, 8, 9])
    let changes = s.takeChanges()
    #expect(changes.changed.count == 1)
    #expect(s.takeChanges().changed.isEmpty)
  }

  @Test("A vessel's name before its position: kept, placed when the position comes")
  func propertiesFirst() {
    var s = TargetStore()
    s.apply(
      LiveUpdate(
        id: "1", kind: .vessel, geometry: .unchanged,
        properties: [LiveProperty("shipname", .string("MEDUM"))]), now: 0)
    #expect(s["1"]?.coordinate == nil)
    s.apply(point("1", 52, 5, kind: .vessel), now: 1)
    #expect(s["1"]?.coordinate == Coordinate(latitude: 52, longitude: 5))
    #expect(s["1"]?.properties == [LiveProperty("shipname", .string("MEDUM"))])
  }
}
