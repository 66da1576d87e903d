import Foundation

/// A geographic position in degrees on WGS84 (latitude north positive, longitude east positive).
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
  /// Degrees north of the equator (negative: south).
  public var latitude: Double
  /// Degrees east of Greenwich (negative: west).
  public var longitude: Double

  /// A coordinate in degrees (WGS84).
  public init(latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// True when latitude is within ±90° and longitude within ±180° (both finite).
  public var isValid: Bool {
    latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
  }

  public var description: String {
    String(format: "%.6f, %.6f", latitude, longitude)
  }
}

/// The extent of a region in degrees; a smaller span shows the map more closely.
public struct CoordinateSpan: Hashable, Sendable {
  /// The region's height in degrees of latitude.
  public var latitudeDelta: Double
  /// The region's width in degrees of longitude.
  public var longitudeDelta: Double

  /// A span in degrees.
  public init(latitudeDelta: Double, longitudeDelta: Double) {
    self.latitudeDelta = latitudeDelta
    self.longitudeDelta = longitudeDelta
  }
}

/// A centre and a span: the geographic form of a visible area.
public struct CoordinateRegion: Hashable, Sendable {
  /// The region's centre.
  public var center: Coordinate
  /// The region's size in degrees.
  public var span: CoordinateSpan

  /// A region around a centre.
  public init(center: Coordinate, span: CoordinateSpan) {
    self.center = center
    self.span = span
  }

  /// A region whose full extent is the given distances in metres (as MapKit: 500 m ≈ 0.0045° lat).
  public init(center: Coordinate, latitudinalMeters: Double, longitudinalMeters: Double) {
    // Degrees per metre from the WGS84 meridional and prime-vertical radii of curvature.
    let phi = center.latitude * .pi / 180
    let s = sin(phi)
    let w = 1 - WGS84.e2 * s * s
    let meridional = WGS84.a * (1 - WGS84.e2) / pow(w, 1.5)
    let normal = WGS84.a / w.squareRoot()
    let latDelta = latitudinalMeters / meridional * 180 / .pi
    let parallel = max(normal * cos(phi), 1e-9)
    let lonDelta = min(longitudinalMeters / parallel * 180 / .pi, 360)
    self.init(
      center: center, span: CoordinateSpan(latitudeDelta: latDelta, longitudeDelta: lonDelta))
  }

  /// The region of a map rect: centre at the rect's Mercator midpoint, spans from its edges.
  public init(_ rect: MapRect) {
    let mid = MapPoint(x: rect.midX, y: rect.midY).coordinate
    let north = MapPoint(x: rect.minX, y: rect.minY).coordinate.latitude
    let south = MapPoint(x: rect.minX, y: rect.maxY).coordinate.latitude
    self.init(
      center: mid,
      span: CoordinateSpan(
        latitudeDelta: north - south, longitudeDelta: rect.width * 360 / MapSize.world.width))
  }

  /// The map rect between the region's north-west and south-east corners; a region that
  /// crosses the antimeridian gives a rect whose maxX lies past the world's width.
  public var mapRect: MapRect {
    let north = min(center.latitude + span.latitudeDelta / 2, Mercator.maxLatitude)
    let south = max(center.latitude - span.latitudeDelta / 2, -Mercator.maxLatitude)
    let nw = MapPoint(
      Coordinate(latitude: north, longitude: center.longitude - span.longitudeDelta / 2))
    let se = MapPoint(
      Coordinate(latitude: south, longitude: center.longitude + span.longitudeDelta / 2))
    var westX = nw.x
    var eastX = se.x
    // A longitude outside ±180 is not folded by the projection, so compare spans, not signs.
    let width = span.longitudeDelta / 360 * MapSize.world.width
    if eastX < westX || abs((eastX - westX) - width) > 1 { eastX = westX + width }
    if westX < 0 && eastX < 0 {
      westX += MapSize.world.width
      eastX += MapSize.world.width
    }
    return MapRect(x: westX, y: nw.y, width: eastX - westX, height: se.y - nw.y)
  }
}

/// Constants of the WGS84 ellipsoid.
public enum WGS84 {
  /// Equatorial radius in metres.
  public static let a: Double = 6_378_137
  /// Flattening.
  public static let f: Double = 1 / 298.257_223_563
  /// Polar radius in metres.
  public static let b: Double = a * (1 - f)
  /// First eccentricity squared.
  public static let e2: Double = f * (2 - f)
}
