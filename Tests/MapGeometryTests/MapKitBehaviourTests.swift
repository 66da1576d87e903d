import Testing

@testable import MapGeometry

/// Behaviours 1–6 of docs/mapkit-model.md ("15 behaviours a faithful port must get right"),
/// with the numbers exactly as written there.
@Suite("MapKit behaviours 1–6")
struct MapKitBehaviourTests {
  @Test("1. The world rect is 2^28 × 2^28 at the origin")
  func worldRect() {
    #expect(MapRect.world == MapRect(x: 0, y: 0, width: 268_435_456, height: 268_435_456))
    #expect(MapSize.world == MapSize(width: 268_435_456, height: 268_435_456))
    #expect(MapRect.world.origin == MapPoint(x: 0, y: 0))
    #expect(Mercator.worldSize == 268_435_456)
  }

  @Test("2. MapPoint of (45.52, −122.681944) and its round trip")
  func mapPointOfPortland() {
    let c = Coordinate(latitude: 45.52, longitude: -122.681944)
    let p = MapPoint(c)
    #expect(abs(p.x - 42_739_440.276093155) <= 1e-6)
    #expect(abs(p.y - 96_012_095.91233155) <= 1e-6)
    let back = p.coordinate
    #expect(abs(back.latitude - 45.52) <= 1e-9)
    #expect(abs(back.longitude - -122.681944) <= 1e-9)
  }

  @Test("3. CoordinateRegion of a map rect: centre at the Mercator midpoint")
  func regionOfMapRect() {
    let r = CoordinateRegion(
      MapRect(x: 42_739_440, y: 96_012_095, width: 162_059_230, height: 15_614_904))
    #expect(abs(r.center.latitude - 37.707426) <= 1e-6)
    #expect(abs(r.center.longitude - -14.012762) <= 1e-6)
    #expect(abs(r.span.latitudeDelta - 16.543982) <= 1e-6)
    #expect(abs(r.span.longitudeDelta - 217.338363) <= 1e-6)
  }

  @Test("4. Map points per metre and metres per map point")
  func scaleAtLatitude() {
    let equator = Mercator.mapPointsPerMeter(atLatitude: 0)
    #expect(abs(equator / 6.74355 - 1) <= 1e-4)
    #expect(abs(equator / 6.743_553_365_089_65 - 1) <= 3e-5)
    let cupertino = Mercator.mapPointsPerMeter(atLatitude: 37.3326)
    #expect(abs(cupertino / 8.449_910_702_134_479 - 1) <= 1e-4)
    #expect(
      abs(Mercator.metersPerMapPoint(atLatitude: 0) / 0.148_289_773_337_725_44 - 1) <= 1e-4)
    for lat in [-80.0, -37.3326, 0, 12.5, 37.3326, 60, 85] {
      let product =
        Mercator.mapPointsPerMeter(atLatitude: lat) * Mercator.metersPerMapPoint(atLatitude: lat)
      #expect(abs(product - 1) <= 1e-15, "latitude \(lat)")
    }
    // It rises toward the poles and is symmetric about the equator.
    #expect(cupertino > equator)
    #expect(
      Mercator.mapPointsPerMeter(atLatitude: 70) > Mercator.mapPointsPerMeter(atLatitude: 60))
    #expect(
      Mercator.mapPointsPerMeter(atLatitude: -37.3326)
        == Mercator.mapPointsPerMeter(atLatitude: 37.3326))
  }

  @Test("5. null, union, intersection, intersects and contains(point)")
  func nullAndSetOperations() {
    #expect(MapRect.null.isNull)
    #expect(MapRect.null.origin.x == .infinity && MapRect.null.origin.y == .infinity)
    #expect(MapRect.null.size == MapSize(width: 0, height: 0))
    #expect(!MapRect.world.isNull)

    let r = MapRect(x: 10, y: 20, width: 30, height: 40)
    #expect(r.union(.null) == r)
    #expect(MapRect.null.union(r) == r)
    #expect(MapRect.null.union(.null).isNull)
    #expect(
      r.union(MapRect(x: 100, y: 0, width: 10, height: 10))
        == MapRect(x: 10, y: 0, width: 100, height: 60))

    // Disjoint rects intersect in the null rect.
    #expect(r.intersection(MapRect(x: 100, y: 100, width: 5, height: 5)).isNull)
    #expect(r.intersection(MapRect(x: 0, y: 100, width: 100, height: 5)).isNull)
    #expect(r.intersection(.null).isNull)
    #expect(MapRect.null.intersection(r).isNull)
    #expect(
      r.intersection(MapRect(x: 20, y: 30, width: 100, height: 100))
        == MapRect(x: 20, y: 30, width: 20, height: 30))

    // Touching along an edge or at a corner is not intersecting.
    #expect(!r.intersects(MapRect(x: 40, y: 20, width: 10, height: 40)))  // shares x = 40
    #expect(!r.intersects(MapRect(x: 10, y: 60, width: 30, height: 5)))  // shares y = 60
    #expect(!r.intersects(MapRect(x: 40, y: 60, width: 5, height: 5)))  // shares a corner
    #expect(r.intersects(MapRect(x: 39.5, y: 59.5, width: 5, height: 5)))
    #expect(r.intersects(r))
    #expect(!r.intersects(.null))
    #expect(!MapRect.null.intersects(r))

    // contains(point) is half-open.
    #expect(r.contains(MapPoint(x: 10, y: 20)))  // min corner
    #expect(r.contains(MapPoint(x: 10, y: 45)))  // minX edge
    #expect(r.contains(MapPoint(x: 25, y: 20)))  // minY edge
    #expect(r.contains(MapPoint(x: 25, y: 45)))
    #expect(!r.contains(MapPoint(x: 40, y: 45)))  // maxX edge
    #expect(!r.contains(MapPoint(x: 25, y: 60)))  // maxY edge
    #expect(!r.contains(MapPoint(x: 40, y: 60)))  // max corner
    #expect(!r.contains(MapPoint(x: 9.999, y: 30)))
    #expect(!MapRect.null.contains(MapPoint(x: 0, y: 0)))
    #expect(!MapRect(x: 5, y: 5, width: 0, height: 0).contains(MapPoint(x: 5, y: 5)))
    #expect(MapRect.world.contains(MapPoint(x: 0, y: 0)))
    #expect(!MapRect.world.contains(MapPoint(x: 268_435_456, y: 0)))
  }

  @Test("6. isEmpty only when null or when width and height are both zero")
  func emptiness() {
    #expect(MapRect.null.isEmpty)
    #expect(MapRect(x: 0, y: 0, width: 0, height: 0).isEmpty)
    #expect(MapRect(x: 7, y: 9, width: 0, height: 0).isEmpty)
    #expect(!MapRect(x: 7, y: 9, width: 0, height: 10).isEmpty)
    #expect(!MapRect(x: 7, y: 9, width: 10, height: 0).isEmpty)
    #expect(!MapRect(x: 7, y: 9, width: 1, height: 1).isEmpty)
    #expect(!MapRect.world.isEmpty)
    // isNull looks only at the origin.
    #expect(MapRect(x: .infinity, y: 0, width: 5, height: 5).isNull)
    #expect(MapRect(x: 0, y: -.infinity, width: 5, height: 5).isEmpty)
  }
}
