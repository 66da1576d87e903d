import Foundation
import MapGeometry
import TermMapKit

/// A small deterministic generator (SplitMix64), so every bench run draws the same data.
struct SplitMix64 {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  /// Uniform in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
  /// Roughly normal, mean 0, deviation 1.
  mutating func normal() -> Double {
    (0..<4).reduce(0) { a, _ in a + unit() } * 1.7320508 - 3.4641016
  }
}

/// Synthetic but realistic inputs for the benchmark.
enum BenchData {
  /// A GPS-like trip: a point every ~3 m along a road that bends around a slowly drifting
  /// course, starting in the Alps. It goes somewhere rather than circling, so a zoomed-in view
  /// shows a similar length of it whatever the total.
  static func route(points n: Int, seed: UInt64 = 42) -> [MapPoint] {
    var rng = SplitMix64(state: seed)
    var out: [MapPoint] = []
    out.reserveCapacity(n)
    var p = MapPoint(Coordinate(latitude: 46.0, longitude: 7.0))
    var course = 0.3  // the trip's slowly drifting direction
    var wiggle = 0.0  // bends of the road around it, mean-reverting
    let w = MapSize.world.width
    let yMin = MapPoint(Coordinate(latitude: 70, longitude: 0)).y
    let yMax = MapPoint(Coordinate(latitude: -60, longitude: 0)).y
    for _ in 0..<n {
      let step = 3.0 * Mercator.mapPointsPerMeter(atLatitude: p.coordinate.latitude)
      course += rng.normal() * 0.0005
      wiggle = wiggle * 0.995 + rng.normal() * 0.02
      let heading = course + wiggle
      var x = p.x + cos(heading) * step
      var y = p.y + sin(heading) * step
      if y < yMin || y > yMax {
        course = -course
        y = min(max(y, yMin), yMax)
      }
      if x >= w { x -= w }
      if x < 0 { x += w }
      p = MapPoint(x: x, y: y)
      out.append(p)
    }
    return out
  }

  /// Square-ish parcels with a square hole each, laid on a jittered grid over about 8° × 8°.
  static func parcels(count: Int, seed: UInt64 = 7) -> [Polygon] {
    var rng = SplitMix64(state: seed)
    let side = Int(Double(count).squareRoot().rounded(.up))
    let origin = MapPoint(Coordinate(latitude: 52, longitude: 4))
    let span = MapPoint(Coordinate(latitude: 44, longitude: 12))
    let cellW = (span.x - origin.x) / Double(side)
    let cellH = (span.y - origin.y) / Double(side)
    var out: [Polygon] = []
    out.reserveCapacity(count)
    for k in 0..<count {
      let cx = origin.x + (Double(k % side) + 0.5) * cellW
      let cy = origin.y + (Double(k / side) + 0.5) * cellH
      let r = cellW * (0.3 + 0.15 * rng.unit())
      var ring: [MapPoint] = []
      for a in 0..<8 {
        let t = Double(a) / 8 * 2 * .pi
        ring.append(MapPoint(x: cx + r * cos(t), y: cy + r * sin(t)))
      }
      let h = r * 0.4
      let hole = Polygon(points: [
        MapPoint(x: cx - h, y: cy - h), MapPoint(x: cx + h, y: cy - h),
        MapPoint(x: cx + h, y: cy + h), MapPoint(x: cx - h, y: cy + h),
      ])
      out.append(Polygon(points: ring, interiorPolygons: [hole]))
    }
    return out
  }

  /// Points of interest scattered over about 10° × 6°, denser toward a few centres.
  static func places(count: Int, seed: UInt64 = 11) -> [PointAnnotation] {
    var rng = SplitMix64(state: seed)
    let centres = [(48.85, 2.35), (50.85, 4.35), (52.37, 4.9), (47.37, 8.54), (45.46, 9.19)]
    return (0..<count).map { k in
      let c = centres[k % centres.count]
      let spread = 0.2 + 2.5 * rng.unit()
      let lat = c.0 + rng.normal() * spread * 0.6
      let lon = c.1 + rng.normal() * spread
      return PointAnnotation(
        coordinate: Coordinate(latitude: min(max(lat, -80), 80), longitude: lon),
        title: "Place \(k)")
    }
  }
}
