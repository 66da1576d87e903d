import Foundation

typealias LonLat = (lon: Double, lat: Double)

/// The GeoJSON argument of `within` or `distance`, split into simple geometries (as MapLibre's
/// `toSimpleGeometry`): points, line strings and polygons in longitude and latitude.
struct GeoShape: Sendable {
  enum Simple: Sendable {
    case point(Double, Double)
    case line([Double])  // lon, lat pairs flattened
    case polygon([[Double]])  // rings of flattened pairs
  }
  let parts: [Simple]

  init?(geoJSON: StyleValue, polygonsOnly: Bool) {
    guard case .object(let o) = geoJSON, case .string(let type)? = o["type"] else { return nil }
    var out: [Simple] = []
    func add(_ geometry: StyleValue?) -> Bool {
      guard case .object(let g)? = geometry, case .string(let t)? = g["type"],
        let coords = g["coordinates"]
      else { return false }
      if polygonsOnly && t != "Polygon" && t != "MultiPolygon" { return true }
      guard let parts = GeoShape.simple(type: t, coordinates: coords) else { return false }
      out += parts
      return true
    }
    switch type {
    case "FeatureCollection":
      guard case .array(let features)? = o["features"] else { return nil }
      for f in features {
        guard case .object(let fo) = f, add(fo["geometry"]) else { return nil }
      }
    case "Feature":
      guard add(o["geometry"]) else { return nil }
    default:
      guard add(geoJSON) else { return nil }
    }
    if polygonsOnly && out.isEmpty { return nil }
    parts = out
  }

  static func pair(_ v: StyleValue) -> (Double, Double)? {
    guard case .array(let a) = v, a.count >= 2, case .number(let x) = a[0],
      case .number(let y) = a[1]
    else { return nil }
    return (x, y)
  }

  static func flat(_ v: StyleValue) -> [Double]? {
    guard case .array(let a) = v else { return nil }
    var out: [Double] = []
    for p in a {
      guard let (x, y) = pair(p) else { return nil }
      out += [x, y]
    }
    return out
  }

  static func rings(_ v: StyleValue) -> [[Double]]? {
    guard case .array(let a) = v else { return nil }
    var out: [[Double]] = []
    for r in a {
      guard let f = flat(r) else { return nil }
      out.append(f)
    }
    return out
  }

  static func simple(type: String, coordinates c: StyleValue) -> [Simple]? {
    switch type {
    case "Point":
      guard let (x, y) = pair(c) else { return nil }
      return [.point(x, y)]
    case "MultiPoint":
      guard let f = flat(c) else { return nil }
      return stride(from: 0, to: f.count, by: 2).map { .point(f[$0], f[$0 + 1]) }
    case "LineString":
      guard let f = flat(c) else { return nil }
      return [.line(f)]
    case "MultiLineString":
      guard let r = rings(c) else { return nil }
      return r.map { .line($0) }
    case "Polygon":
      guard let r = rings(c) else { return nil }
      return [.polygon(r)]
    case "MultiPolygon":
      guard case .array(let polys) = c else { return nil }
      var out: [Simple] = []
      for p in polys {
        guard let r = rings(p) else { return nil }
        out.append(.polygon(r))
      }
      return out
    default: return nil
    }
  }

  // MARK: within

  /// Whether a feature's geometry (GeoJSON) lies inside the polygons: every point strictly
  /// inside (a point on an edge is not), no line crossing an edge. Polygons are not supported
  /// (false), as in MapLibre. Computed in Web Mercator, with points shifted by a world when
  /// that brings them nearer the polygons (across the antimeridian).
  func contains(geometry: StyleValue) -> Bool {
    guard case .object(let g) = geometry, case .string(let t)? = g["type"],
      let c = g["coordinates"],
      let feature = GeoShape.simple(type: t, coordinates: c), !feature.isEmpty
    else { return false }
    let polygons: [[[Double]]] = parts.compactMap {
      if case .polygon(let rings) = $0 { return rings.map(GeoShape.mercator) }
      return nil
    }
    var minX = Double.infinity
    var maxX = -Double.infinity
    for p in polygons {
      for r in p {
        for k in stride(from: 0, to: r.count, by: 2) {
          minX = min(minX, r[k]); maxX = max(maxX, r[k])
        }
      }
    }
    func shift(_ x: Double) -> Double {
      if x < minX && minX - x > 0.5 { return x + 1 }
      if x > maxX && x - maxX > 0.5 { return x - 1 }
      return x
    }
    func pointInside(_ x: Double, _ y: Double) -> Bool {
      polygons.contains { pointWithinPolygon(x, y, $0, trueOnBoundary: false) }
    }
    for part in feature {
      switch part {
      case .point(let lon, let lat):
        let m = GeoShape.mercator([lon, lat])
        if !pointInside(shift(m[0]), m[1]) { return false }
      case .line(let f):
        var m = GeoShape.mercator(f)
        for k in stride(from: 0, to: m.count, by: 2) { m[k] = shift(m[k]) }
        let inside = polygons.contains { poly in
          for k in stride(from: 0, to: m.count, by: 2)
          where !pointWithinPolygon(m[k], m[k + 1], poly, trueOnBoundary: false) {
            return false
          }
          return !lineIntersectsPolygon(m, poly)
        }
        if !inside { return false }
      case .polygon: return false
      }
    }
    return true
  }

  static func mercator(_ flat: [Double]) -> [Double] {
    var out = flat
    for k in stride(from: 0, to: flat.count, by: 2) {
      out[k] = (180 + flat[k]) / 360
      let lat = flat[k + 1]
      out[k + 1] = (180 - (180 / Double.pi * log(tan(Double.pi / 4 + lat * Double.pi / 360)))) / 360
    }
    return out
  }

  // MARK: distance

  /// The shortest distance in metres between a feature's geometry (GeoJSON) and the shape,
  /// measured with a cheap ruler at the feature's first latitude (as MapLibre); NaN when the
  /// geometry is missing.
  func distance(to geometry: StyleValue) -> Double {
    guard case .object(let g) = geometry, case .string(let t)? = g["type"],
      let c = g["coordinates"],
      let feature = GeoShape.simple(type: t, coordinates: c), let first = feature.first
    else { return .nan }
    let lat: Double
    switch first {
    case .point(_, let y): lat = y
    case .line(let f): lat = f.count > 1 ? f[1] : 0
    case .polygon(let r): lat = r.first.flatMap { $0.count > 1 ? $0[1] : nil } ?? 0
    }
    let ruler = CheapRuler(latitude: lat)
    var best = Double.infinity
    for a in feature {
      for b in parts {
        best = min(best, ruler.distance(a, b))
        if best == 0 { return 0 }
      }
    }
    return best
  }
}

func pointWithinPolygon(_ x: Double, _ y: Double, _ rings: [[Double]], trueOnBoundary: Bool) -> Bool
{
  var inside = false
  for ring in rings {
    var j = 0
    while j + 3 < ring.count {
      let x1 = ring[j]
      let y1 = ring[j + 1]
      let x2 = ring[j + 2]
      let y2 = ring[j + 3]
      let ax = x - x1
      let ay = y - y1
      let bx = x - x2
      let by = y - y2
      if ax * by - bx * ay == 0 && ax * bx <= 0 && ay * by <= 0 { return trueOnBoundary }
      if (y1 > y) != (y2 > y) && x < (x2 - x1) * (y - y1) / (y2 - y1) + x1 { inside.toggle() }
      j += 2
    }
  }
  return inside
}

private func cross(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
  ax * by - ay * bx
}

/// Whether segments p1p2 and q1q2 cross (MapLibre's `segmentIntersectSegment`).
func segmentsIntersect(
  _ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double, _ q1x: Double, _ q1y: Double,
  _ q2x: Double, _ q2y: Double
) -> Bool {
  func twoSided(
    _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ cx: Double, _ cy: Double,
    _ dx: Double, _ dy: Double
  ) -> Bool {
    let x1 = ax - cx
    let y1 = ay - cy
    let x2 = bx - cx
    let y2 = by - cy
    let x3 = dx - cx
    let y3 = dy - cy
    let det1 = x1 * y3 - x3 * y1
    let det2 = x2 * y3 - x3 * y2
    return (det1 > 0 && det2 < 0) || (det1 < 0 && det2 > 0)
  }
  let vx = q2x - q1x
  let vy = q2y - q1y
  let ux = p2x - p1x
  let uy = p2y - p1y
  if cross(vx, vy, ux, uy) == 0 { return false }
  return twoSided(p1x, p1y, p2x, p2y, q1x, q1y, q2x, q2y)
    && twoSided(q1x, q1y, q2x, q2y, p1x, p1y, p2x, p2y)
}

func lineIntersectsPolygon(_ line: [Double], _ rings: [[Double]]) -> Bool {
  var i = 0
  while i + 3 < line.count {
    for ring in rings {
      var j = 0
      while j + 3 < ring.count {
        if segmentsIntersect(
          line[i], line[i + 1], line[i + 2], line[i + 3], ring[j], ring[j + 1], ring[j + 2],
          ring[j + 3])
        {
          return true
        }
        j += 2
      }
    }
    i += 2
  }
  return false
}

/// Mapbox's cheap-ruler (WGS84 ellipsoid) in metres, as MapLibre's `distance` uses it.
struct CheapRuler {
  let kx: Double
  let ky: Double

  init(latitude: Double) {
    let re = 6378.137
    let fe = 1 / 298.257223563
    let e2 = fe * (2 - fe)
    let rad = Double.pi / 180
    let m = rad * re * 1000
    let coslat = cos(latitude * rad)
    let w2 = 1 / (1 - e2 * (1 - coslat * coslat))
    let w = w2.squareRoot()
    kx = m * w * coslat
    ky = m * w * w2 * (1 - e2)
  }

  func wrap(_ d: Double) -> Double {
    var x = d
    while x < -180 { x += 360 }
    while x > 180 { x -= 360 }
    return x
  }

  func distance(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
    let dx = wrap(ax - bx) * kx
    let dy = (ay - by) * ky
    return (dx * dx + dy * dy).squareRoot()
  }

  /// Distance from a point to the nearest point of a line (flattened pairs).
  func pointToLine(_ px: Double, _ py: Double, _ line: [Double]) -> Double {
    if line.count == 2 { return distance(px, py, line[0], line[1]) }
    var minDist = Double.infinity
    var minX = 0.0
    var minY = 0.0
    var i = 0
    while i + 3 < line.count {
      var x = line[i]
      var y = line[i + 1]
      var dx = wrap(line[i + 2] - x) * kx
      var dy = (line[i + 3] - y) * ky
      var t = 0.0
      if dx != 0 || dy != 0 {
        t = (wrap(px - x) * kx * dx + (py - y) * ky * dy) / (dx * dx + dy * dy)
        if t > 1 {
          x = line[i + 2]
          y = line[i + 3]
        } else if t > 0 {
          x += dx / kx * t
          y += dy / ky * t
        }
      }
      dx = wrap(px - x) * kx
      dy = (py - y) * ky
      let sq = dx * dx + dy * dy
      if sq < minDist {
        minDist = sq
        minX = x
        minY = y
      }
      i += 2
    }
    return distance(px, py, minX, minY)
  }

  func segmentToSegment(_ p: [Double], _ i: Int, _ q: [Double], _ j: Int) -> Double {
    if segmentsIntersect(p[i], p[i + 1], p[i + 2], p[i + 3], q[j], q[j + 1], q[j + 2], q[j + 3]) {
      return 0
    }
    let qs = Array(q[j..<j + 4])
    let ps = Array(p[i..<i + 4])
    return min(
      pointToLine(p[i], p[i + 1], qs), pointToLine(p[i + 2], p[i + 3], qs),
      pointToLine(q[j], q[j + 1], ps), pointToLine(q[j + 2], q[j + 3], ps))
  }

  func lineToLine(_ a: [Double], _ b: [Double]) -> Double {
    if a.count == 2 { return pointToLine(a[0], a[1], b) }
    if b.count == 2 { return pointToLine(b[0], b[1], a) }
    var best = Double.infinity
    var i = 0
    while i + 3 < a.count {
      var j = 0
      while j + 3 < b.count {
        best = min(best, segmentToSegment(a, i, b, j))
        if best == 0 { return 0 }
        j += 2
      }
      i += 2
    }
    return best
  }

  func closedRing(_ ring: [Double]) -> [Double] {
    guard ring.count >= 4 else { return ring }
    if ring[0] == ring[ring.count - 2] && ring[1] == ring[ring.count - 1] { return ring }
    return ring + [ring[0], ring[1]]
  }

  func pointToPolygon(_ x: Double, _ y: Double, _ rings: [[Double]]) -> Double {
    if pointWithinPolygon(x, y, rings, trueOnBoundary: true) { return 0 }
    var best = Double.infinity
    for r in rings { best = min(best, pointToLine(x, y, closedRing(r))) }
    return best
  }

  func lineToPolygon(_ line: [Double], _ rings: [[Double]]) -> Double {
    for k in stride(from: 0, to: line.count, by: 2)
    where pointWithinPolygon(line[k], line[k + 1], rings, trueOnBoundary: true) {
      return 0
    }
    var best = Double.infinity
    for r in rings { best = min(best, lineToLine(line, closedRing(r))) }
    return best
  }

  func polygonToPolygon(_ a: [[Double]], _ b: [[Double]]) -> Double {
    for r in a {
      for k in stride(from: 0, to: r.count, by: 2)
      where pointWithinPolygon(r[k], r[k + 1], b, trueOnBoundary: true) {
        return 0
      }
    }
    for r in b {
      for k in stride(from: 0, to: r.count, by: 2)
      where pointWithinPolygon(r[k], r[k + 1], a, trueOnBoundary: true) {
        return 0
      }
    }
    var best = Double.infinity
    for ra in a { for rb in b { best = min(best, lineToLine(closedRing(ra), closedRing(rb))) } }
    return best
  }

  func distance(_ a: GeoShape.Simple, _ b: GeoShape.Simple) -> Double {
    switch (a, b) {
    case (.point(let x, let y), .point(let u, let v)): return distance(x, y, u, v)
    case (.point(let x, let y), .line(let l)), (.line(let l), .point(let x, let y)):
      return pointToLine(x, y, l)
    case (.point(let x, let y), .polygon(let p)), (.polygon(let p), .point(let x, let y)):
      return pointToPolygon(x, y, p)
    case (.line(let l), .line(let m)): return lineToLine(l, m)
    case (.line(let l), .polygon(let p)), (.polygon(let p), .line(let l)):
      return lineToPolygon(l, p)
    case (.polygon(let p), .polygon(let q)): return polygonToPolygon(p, q)
    }
  }
}
