import Foundation

/// A point on the flat Web Mercator world, 2^28 map points wide; x grows east, y grows south.
public struct MapPoint: Hashable, Sendable, CustomStringConvertible {
  /// Map points east of the antimeridian at 180° W.
  public var x: Double
  /// Map points south of the top edge of the Mercator world (about 85° N).
  public var y: Double

  /// A map point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  /// The projection of a coordinate (spherical Web Mercator, EPSG:3857).
  public init(_ coordinate: Coordinate) {
    self = Mercator.project(coordinate)
  }

  /// The coordinate of this point.
  public var coordinate: Coordinate { Mercator.unproject(self) }

  /// Surface distance in metres to another map point, along the WGS84 geodesic.
  public func distance(to other: MapPoint) -> Double {
    Geodesic.distance(coordinate, other.coordinate)
  }

  public var description: String { "(\(x), \(y))" }
}

/// A size in map points.
public struct MapSize: Hashable, Sendable {
  /// The width in map points.
  public var width: Double
  /// The height in map points.
  public var height: Double

  /// A size in map points.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  /// The size of the whole world: 2^28 × 2^28 map points (256-dot tiles at zoom 20).
  public static let world = MapSize(width: 268_435_456, height: 268_435_456)
}

/// Spherical Web Mercator and the scale facts that go with it.
public enum Mercator {
  /// The world's width and height in map points.
  public static let worldSize: Double = 268_435_456
  /// The latitude of the world square's top edge.
  public static let maxLatitude: Double = 85.051_128_779_806_59

  /// Projects a coordinate to map points.
  @inlinable public static func project(_ c: Coordinate) -> MapPoint {
    let x = (c.longitude + 180) / 360 * worldSize
    let s = sin(c.latitude * .pi / 180)
    let y = (0.5 - log((1 + s) / (1 - s)) / (4 * .pi)) * worldSize
    return MapPoint(x: x, y: y)
  }

  /// The coordinate of a map point.
  @inlinable public static func unproject(_ p: MapPoint) -> Coordinate {
    let lon = p.x / worldSize * 360 - 180
    let lat = (2 * atan(exp(.pi * (1 - 2 * p.y / worldSize))) - .pi / 2) * 180 / .pi
    return Coordinate(latitude: lat, longitude: lon)
  }

  /// Map points per metre at a latitude, from the WGS84 meridional radius (as MapKit reports:
  /// 6.74355 at the equator).
  public static func mapPointsPerMeter(atLatitude latitude: Double) -> Double {
    let phi = latitude * .pi / 180
    let s = sin(phi)
    let w = 1 - WGS84.e2 * s * s
    return worldSize * w * w.squareRoot() / (2 * .pi * WGS84.a * (1 - WGS84.e2) * cos(phi))
  }

  /// Metres per map point at a latitude: the reciprocal of `mapPointsPerMeter(atLatitude:)`.
  public static func metersPerMapPoint(atLatitude latitude: Double) -> Double {
    1 / mapPointsPerMeter(atLatitude: latitude)
  }
}
