import Foundation
import Testing

@testable import MapGeometry

@Suite("Coordinates, Web Mercator and regions")
struct ProjectionAndRegionTests {
  let w = MapSize.world.width

  @Test func coordinateValidityAndDescription() {
    #expect(Coordinate(latitude: 90, longitude: -180).isValid)
    #expect(Coordinate(latitude: -90, longitude: 180).isValid)
    #expect(!Coordinate(latitude: 90.0001, longitude: 0).isValid)
    #expect(!Coordinate(latitude: 0, longitude: 180.5).isValid)
    #expect(!Coordinate(latitude: .nan, longitude: 0).isValid)
    #expect(!Coordinate(latitude: 0, longitude: .infinity).isValid)
    #expect(
      Coordinate(latitude: 45.52, longitude: -122.681944).description == "45.520000, -122.681944")
  }

  @Test func wgs84Constants() {
    #expect(WGS84.a == 6_378_137)
    #expect(abs(1 / WGS84.f - 298.257_223_563) < 1e-9)
    #expect(abs(WGS84.b - 6_356_752.314_245_179) < 1e-6)
    #expect(abs(WGS84.e2 - 0.006_694_379_990_141_317) < 1e-15)
  }

  @Test func projectionCornersAndAxes() {
    let max = Mercator.maxLatitude
    let nw = MapPoint(Coordinate(latitude: max, longitude: -180))
    #expect(nw.x == 0)
    #expect(abs(nw.y) < 1e-6)
    let se = MapPoint(Coordinate(latitude: -max, longitude: 180))
    #expect(se.x == w)
    #expect(abs(se.y - w) < 1e-6)
    let origin = MapPoint(Coordinate(latitude: 0, longitude: 0))
    #expect(origin == MapPoint(x: w / 2, y: w / 2))
    // x grows east, y grows south.
    let p = MapPoint(Coordinate(latitude: 10, longitude: 10))
    #expect(p.x > origin.x && p.y < origin.y)
    // The world square's top edge is at 85.0511287798°.
    #expect(abs(MapPoint(x: 0, y: 0).coordinate.latitude - 85.051_128_779_8) < 1e-10)
    #expect(abs(MapPoint(x: 0, y: w).coordinate.latitude + 85.051_128_779_8) < 1e-10)
  }

  @Test(arguments: [
    (0.0, 0.0), (45.52, -122.681944), (-33.8688, 151.2093), (85, 179.999), (-85, -180),
    (60.170833, 24.9375), (1e-9, -1e-9),
  ])
  func projectionRoundTrip(latitude: Double, longitude: Double) {
    let c = Coordinate(latitude: latitude, longitude: longitude)
    let back = MapPoint(c).coordinate
    #expect(abs(back.latitude - latitude) <= 1e-9)
    #expect(abs(back.longitude - longitude) <= 1e-9)
  }

  @Test func mapPointDistanceIsTheGeodesic() {
    let a = Coordinate(latitude: 45.52, longitude: -122.681944)
    let b = Coordinate(latitude: 47.6062, longitude: -122.3321)
    let viaPoints = MapPoint(a).distance(to: MapPoint(b))
    // GeographicLib: 233452.22340465456 m.
    #expect(abs(viaPoints - 233_452.223_404_654_56) < 1e-4)
    #expect(MapPoint(a).distance(to: MapPoint(a)) == 0)
    #expect(MapPoint(x: 12, y: 34).description == "(12.0, 34.0)")
  }

  @Test func regionMapRectOrdinary() {
    let region = CoordinateRegion(
      center: Coordinate(latitude: 45.52, longitude: -122.681944),
      span: CoordinateSpan(latitudeDelta: 1, longitudeDelta: 2))
    let rect = region.mapRect
    let nw = MapPoint(Coordinate(latitude: 46.02, longitude: -123.681944))
    let se = MapPoint(Coordinate(latitude: 45.02, longitude: -121.681944))
    #expect(abs(rect.minX - nw.x) < 1e-6 && abs(rect.minY - nw.y) < 1e-6)
    #expect(abs(rect.maxX - se.x) < 1e-6 && abs(rect.maxY - se.y) < 1e-6)
    #expect(abs(rect.width - 2 / 360 * w) < 1e-6)
    #expect(!rect.spans180thMeridian)

    // region → rect → region keeps the spans and the longitude, but not the centre latitude,
    // because the Mercator midpoint is not the mean latitude.
    let back = CoordinateRegion(rect)
    #expect(abs(back.span.latitudeDelta - 1) < 1e-9)
    #expect(abs(back.span.longitudeDelta - 2) < 1e-9)
    #expect(abs(back.center.longitude - region.center.longitude) < 1e-9)
    #expect(back.center.latitude > region.center.latitude + 1e-4)
  }

  @Test func regionMapRectAcrossTheAntimeridian() {
    let region = CoordinateRegion(
      center: Coordinate(latitude: 0, longitude: 179),
      span: CoordinateSpan(latitudeDelta: 2, longitudeDelta: 4))
    let rect = region.mapRect
    #expect(abs(rect.minX - (177 + 180) / 360 * w) < 1e-6)
    #expect(abs(rect.width - 4 / 360 * w) < 1e-6)
    #expect(rect.maxX > w)
    #expect(abs(rect.maxX - (181 + 180) / 360 * w) < 1e-6)
    #expect(rect.spans180thMeridian)
    #expect(abs(rect.remainder.width - 1 / 360 * w) < 1e-6)
    #expect(abs(rect.remainder.minX) < 1e-6)
    #expect(abs(rect.midY - w / 2) < 1e-6)
    // Centred west of the antimeridian, the same kind of region reaches below x = 0 instead:
    // MapKit's other form for such rects.
    let west = CoordinateRegion(
      center: Coordinate(latitude: 0, longitude: -179),
      span: CoordinateSpan(latitudeDelta: 2, longitudeDelta: 4)
    ).mapRect
    #expect(abs(west.width - 4 / 360 * w) < 1e-6)
    #expect(abs(west.minX - -1 / 360 * w) < 1e-6)
    #expect(west.spans180thMeridian)
    #expect(abs(west.remainder.minX - 359 / 360 * w) < 1e-6)
    #expect(abs(west.remainder.width - 1 / 360 * w) < 1e-6)
  }

  @Test func regionMapRectClampsAtTheWorldEdge() {
    let region = CoordinateRegion(
      center: Coordinate(latitude: 80, longitude: 0),
      span: CoordinateSpan(latitudeDelta: 20, longitudeDelta: 10))
    let rect = region.mapRect
    #expect(abs(rect.minY) < 1e-6)
    #expect(abs(rect.maxY - MapPoint(Coordinate(latitude: 70, longitude: 0)).y) < 1e-6)
  }

  @Test func regionFromMeters() {
    let center = Coordinate(latitude: 45, longitude: 7)
    let region = CoordinateRegion(center: center, latitudinalMeters: 500, longitudinalMeters: 500)
    #expect(region.center == center)
    #expect(abs(region.span.latitudeDelta - 0.0045) < 1e-4)
    // Cross-check against geodesics: 250 m north and south along the meridian...
    let north = Geodesic.direct(from: center, azimuth: 0, distance: 250)
    let south = Geodesic.direct(from: center, azimuth: 180, distance: 250)
    #expect(abs(region.span.latitudeDelta - (north.latitude - south.latitude)) < 1e-9)
    // ...and the parallel arc, which for 500 m is the geodesic to within a micrometre.
    let half = region.span.longitudeDelta / 2
    let across = Geodesic.distance(
      Coordinate(latitude: 45, longitude: 7 - half), Coordinate(latitude: 45, longitude: 7 + half))
    #expect(abs(across - 500) < 1e-5)
    // Longitude degrees widen with latitude; at the equator both spans are nearly equal.
    let equator = CoordinateRegion(
      center: Coordinate(latitude: 0, longitude: 0), latitudinalMeters: 500,
      longitudinalMeters: 500)
    #expect(abs(equator.span.latitudeDelta - 0.004_522) < 1e-6)
    #expect(abs(equator.span.longitudeDelta - 0.004_492) < 1e-6)
    #expect(region.span.longitudeDelta > equator.span.longitudeDelta)
    // At the pole the longitude span is capped at the whole world.
    let pole = CoordinateRegion(
      center: Coordinate(latitude: 90, longitude: 0), latitudinalMeters: 500,
      longitudinalMeters: 500)
    #expect(pole.span.longitudeDelta == 360)
  }
}

@Suite("Tiles and zoom")
struct TileTests {
  let w = MapSize.world.width

  @Test func tileMapRects() {
    #expect(TileID(z: 0, x: 0, y: 0).mapRect == MapRect.world)
    #expect(
      TileID(z: 1, x: 1, y: 0).mapRect == MapRect(x: w / 2, y: 0, width: w / 2, height: w / 2))
    #expect(
      TileID(z: 1, x: 0, y: 1).mapRect == MapRect(x: 0, y: w / 2, width: w / 2, height: w / 2))
    #expect(TileID(z: 20, x: 3, y: 5).mapRect == MapRect(x: 768, y: 1280, width: 256, height: 256))
    #expect(TileID(z: 28, x: 7, y: 9).mapRect == MapRect(x: 7, y: 9, width: 1, height: 1))
    // The four children of a tile tile it.
    let parent = TileID(z: 5, x: 10, y: 20)
    var union = MapRect.null
    for dx in 0..<2 {
      for dy in 0..<2 {
        let child = TileID(z: 6, x: 20 + dx, y: 40 + dy).mapRect
        #expect(parent.mapRect.contains(child))
        union = union.union(child)
      }
    }
    #expect(union == parent.mapRect)
  }

  @Test func tileContainingAPoint() {
    let p = MapPoint(Coordinate(latitude: 45.52, longitude: -122.681944))
    let z = 10
    let s = w / Double(1 << z)
    let tile = TileID(z: z, x: Int(p.x / s), y: Int(p.y / s))
    #expect(tile == TileID(z: 10, x: 163, y: 366))
    #expect(tile.mapRect.contains(p))
    #expect(tile.description == "10/163/366")
  }

  @Test func tmsRows() {
    #expect(TileID(z: 0, x: 0, y: 0).tmsY == 0)
    #expect(TileID(z: 1, x: 0, y: 0).tmsY == 1)
    #expect(TileID(z: 1, x: 0, y: 1).tmsY == 0)
    #expect(TileID(z: 3, x: 2, y: 0).tmsY == 7)
    #expect(TileID(z: 3, x: 2, y: 7).tmsY == 0)
    #expect(TileID(z: 10, x: 163, y: 366).tmsY == 657)
  }

  @Test func zoomScales() {
    #expect(ZoomMath.zoomScale(forZoomLevel: 20) == 1)
    #expect(ZoomMath.zoomScale(forZoomLevel: 0) == 1.0 / 1_048_576)
    #expect(ZoomMath.zoomScale(forZoomLevel: 19) == 0.5)
    // The world is 256·2^z dots wide at zoom z.
    for z in [0.0, 3, 10.5, 21] {
      #expect(abs(w * ZoomMath.zoomScale(forZoomLevel: z) - 256 * exp2(z)) < 1e-6)
      #expect(
        abs(ZoomMath.zoomLevel(forZoomScale: ZoomMath.zoomScale(forZoomLevel: z)) - z) < 1e-12)
    }
    #expect(ZoomMath.roadWidth(atZoomScale: 0.5) == 2 * ZoomMath.roadWidth(atZoomScale: 1))
  }
}
