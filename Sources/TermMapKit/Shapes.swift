import Foundation
import MapGeometry

/// An open line through map points (MKPolyline).
public final class Polyline: Overlay {
  public let run: PointRun
  public let title: String?
  /// A second line for lists and callouts.
  public let subtitle: String?

  /// A line through map points.
  public init(points: [MapPoint], title: String? = nil, subtitle: String? = nil) {
    run = PointRun(points)
    self.title = title
    self.subtitle = subtitle
  }

  /// A line through coordinates. Where consecutive coordinates are more than 180° of longitude
  /// apart, the line takes the short way across the antimeridian (its map points go past the
  /// world's edge, as MapKit's header asks of antimeridian overlays).
  public convenience init(coordinates: [Coordinate], title: String? = nil, subtitle: String? = nil)
  {
    self.init(points: MapPoint.unwrapped(coordinates), title: title, subtitle: subtitle)
  }

  /// The line's map points.
  public var points: [MapPoint] { run.points }
  /// How many points the line has.
  public var pointCount: Int { run.count }
  public var boundingMapRect: MapRect { run.bounds }
  /// The line's points as coordinates.
  public var coordinates: [Coordinate] { run.points.map(\.coordinate) }
}

/// A closed ring with optional holes, filled under the even-odd rule (MKPolygon).
public final class Polygon: Overlay {
  /// The outer ring's points with their spatial index.
  public let run: PointRun
  /// The holes: polygons whose area is cut out of this one.
  public let interiorPolygons: [Polygon]
  public let title: String?
  /// A second line for lists and callouts.
  public let subtitle: String?

  /// A polygon from its outer ring's map points and its holes.
  public init(
    points: [MapPoint], interiorPolygons: [Polygon] = [], title: String? = nil,
    subtitle: String? = nil
  ) {
    run = PointRun(points)
    self.interiorPolygons = interiorPolygons
    self.title = title
    self.subtitle = subtitle
  }

  /// A polygon from its outer ring's coordinates and its holes.
  public convenience init(
    coordinates: [Coordinate], interiorPolygons: [Polygon] = [], title: String? = nil,
    subtitle: String? = nil
  ) {
    self.init(
      points: MapPoint.unwrapped(coordinates), interiorPolygons: interiorPolygons, title: title,
      subtitle: subtitle)
  }

  /// The outer ring's map points.
  public var points: [MapPoint] { run.points }
  /// How many points the outer ring has.
  public var pointCount: Int { run.count }
  public var boundingMapRect: MapRect { run.bounds }
}

/// A circle of a radius in metres around a coordinate (MKCircle); its map rect grows toward
/// the poles.
public final class Circle: Overlay {
  public let coordinate: Coordinate
  /// The radius in metres.
  public let radius: Double
  public let boundingMapRect: MapRect
  public let title: String?

  /// A circle of `radius` metres around a coordinate.
  public init(center: Coordinate, radius: Double, title: String? = nil) {
    coordinate = center
    self.radius = max(radius, 0)
    self.title = title
    let c = MapPoint(center)
    let r = self.radius * Mercator.mapPointsPerMeter(atLatitude: center.latitude)
    boundingMapRect = MapRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)
  }

  /// A circle inscribed in a map rect.
  public convenience init(mapRect: MapRect, title: String? = nil) {
    let center = mapRect.mid.coordinate
    let r = min(mapRect.width, mapRect.height) / 2
    self.init(
      center: center, radius: r * Mercator.metersPerMapPoint(atLatitude: center.latitude),
      title: title)
  }
}

/// A line that follows great circles between its coordinates, so it looks curved in Mercator
/// (MKGeodesicPolyline). Longitudes are unwrapped, so a line across the antimeridian has points
/// past the world's edge rather than a jump across the map.
public final class GeodesicPolyline: Overlay {
  public let run: PointRun
  public let title: String?
  /// The coordinates given, before densifying.
  public let vertices: [Coordinate]

  /// The shortest path on the ellipsoid through coordinates.
  public init(coordinates: [Coordinate], title: String? = nil) {
    vertices = coordinates
    self.title = title
    var points: [MapPoint] = []
    var lastLon: Double? = nil
    var unwrap = 0.0
    func add(_ c: Coordinate) {
      var lon = c.longitude + unwrap
      if let last = lastLon {
        while lon - last > 180 {
          lon -= 360
          unwrap -= 360
        }
        while last - lon > 180 {
          lon += 360
          unwrap += 360
        }
      }
      lastLon = lon
      points.append(MapPoint(Coordinate(latitude: c.latitude, longitude: lon)))
    }
    for (i, c) in coordinates.enumerated() {
      if i == 0 {
        add(c)
        continue
      }
      let a = coordinates[i - 1]
      let angle = GeodesicPolyline.centralAngle(a, c)
      let steps = max(1, Int(angle / (0.5 * .pi / 180)))  // a vertex every half degree of arc
      for s in 1...steps { add(GeodesicPolyline.interpolate(a, c, Double(s) / Double(steps))) }
    }
    run = PointRun(points)
  }

  /// The densified line's map points.
  public var points: [MapPoint] { run.points }
  public var boundingMapRect: MapRect { run.bounds }

  static func unit(_ c: Coordinate) -> (Double, Double, Double) {
    let la = c.latitude * .pi / 180
    let lo = c.longitude * .pi / 180
    return (cos(la) * cos(lo), cos(la) * sin(lo), sin(la))
  }

  static func centralAngle(_ a: Coordinate, _ b: Coordinate) -> Double {
    let (ax, ay, az) = unit(a)
    let (bx, by, bz) = unit(b)
    let dot = max(-1, min(1, ax * bx + ay * by + az * bz))
    return acos(dot)
  }

  /// The point a fraction of the way along the great circle from a to b.
  static func interpolate(_ a: Coordinate, _ b: Coordinate, _ t: Double) -> Coordinate {
    let omega = centralAngle(a, b)
    if omega < 1e-12 { return b }
    let (ax, ay, az) = unit(a)
    let (bx, by, bz) = unit(b)
    let s = sin(omega)
    let k0 = sin((1 - t) * omega) / s
    let k1 = sin(t * omega) / s
    let x = k0 * ax + k1 * bx
    let y = k0 * ay + k1 * by
    let z = k0 * az + k1 * bz
    return Coordinate(
      latitude: atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi,
      longitude: atan2(y, x) * 180 / .pi)
  }
}

/// Many polylines of one style as one overlay, drawn by one renderer (MKMultiPolyline).
public final class MultiPolyline: Overlay {
  /// The lines, in order.
  public let polylines: [Polyline]
  /// The spatial index over the lines' bounds.
  public let index: ShapeIndex
  public let title: String?

  /// Lines drawn with one style.
  public init(_ polylines: [Polyline], title: String? = nil) {
    self.polylines = polylines
    self.title = title
    index = ShapeIndex(bounds: polylines.map(\.boundingMapRect))
  }

  public var boundingMapRect: MapRect { index.bounds }
}

/// Many polygons of one style as one overlay, drawn by one renderer (MKMultiPolygon).
public final class MultiPolygon: Overlay {
  /// The polygons, in order.
  public let polygons: [Polygon]
  /// The spatial index over the polygons' bounds.
  public let index: ShapeIndex
  public let title: String?
  /// The small polygons' rings in flat arrays, in the index's leaf order (what tiles read).
  let rings: PolygonRings

  /// Polygons drawn with one style.
  public init(_ polygons: [Polygon], title: String? = nil) {
    self.polygons = polygons
    self.title = title
    index = ShapeIndex(bounds: polygons.map(\.boundingMapRect))
    rings = PolygonRings(polygons, index: index)
  }

  public var boundingMapRect: MapRect { index.bounds }
}

extension MapPoint {
  /// The map points of a line through coordinates, each step taken the short way round: a jump
  /// of more than 180° of longitude crosses the antimeridian, so later points lie a world's
  /// width to the east or west (x below 0 or above the world's width).
  public static func unwrapped(_ coordinates: [Coordinate]) -> [MapPoint] {
    var out: [MapPoint] = []
    out.reserveCapacity(coordinates.count)
    let w = MapSize.world.width
    var shift = 0.0
    var previous: Double?
    for c in coordinates {
      if let p = previous {
        let d = c.longitude - p
        if d > 180 { shift -= w } else if d < -180 { shift += w }
      }
      previous = c.longitude
      let m = MapPoint(c)
      out.append(MapPoint(x: m.x + shift, y: m.y))
    }
    return out
  }
}
