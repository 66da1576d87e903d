import Foundation
import Testing

@testable import MapGeometry

/// The gap between two angles in degrees, ignoring whole turns (so −180 and 180 agree).
func angleGap(_ x: Double, _ y: Double) -> Double {
  abs((x - y).remainder(dividingBy: 360))
}

@Suite("Geodesic (Karney's method on WGS84) against GeographicLib")
struct GeodesicTests {
  @Test(arguments: GeographicLibReference.inverse)
  func inverseMatchesGeographicLib(_ c: InverseCase) {
    let r = Geodesic.inverse(c.a, c.b)
    #expect(abs(r.distance - c.s12) <= 1e-6, "distance \(r.distance) vs \(c.s12)")
    #expect(abs(Geodesic.distance(c.a, c.b) - c.s12) <= 1e-6)
    #expect(angleGap(r.initialAzimuth, c.azi1) <= 1e-9, "azi1 \(r.initialAzimuth) vs \(c.azi1)")
    #expect(angleGap(r.finalAzimuth, c.azi2) <= 1e-9, "azi2 \(r.finalAzimuth) vs \(c.azi2)")
    #expect(r.initialAzimuth >= -180 && r.initialAzimuth <= 180)
    #expect(r.finalAzimuth >= -180 && r.finalAzimuth <= 180)
  }

  @Test(arguments: GeographicLibReference.direct)
  func directMatchesGeographicLib(_ c: DirectCase) {
    let start = Coordinate(latitude: c.lat1, longitude: c.lon1)
    let end = Geodesic.direct(from: start, azimuth: c.azi1, distance: c.s12)
    let expected = Coordinate(latitude: c.lat2, longitude: c.lon2)
    #expect(Geodesic.distance(end, expected) <= 1e-6, "\(end) vs \(expected)")
    #expect(abs(end.latitude - c.lat2) <= 1e-11)
    #expect(end.longitude >= -180 && end.longitude <= 180)
    let full = GeodesicSolver.wgs84.direct(c.lat1, c.lon1, c.azi1, c.s12)
    #expect(angleGap(full.azi2, c.azi2) <= 1e-9, "azi2 \(full.azi2) vs \(c.azi2)")
  }

  /// The three nearly antipodal pairs named in the brief, spelled out.
  @Test func nearlyAntipodalPairs() {
    func s(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
      Geodesic.distance(
        Coordinate(latitude: lat1, longitude: lon1), Coordinate(latitude: lat2, longitude: lon2))
    }
    #expect(abs(s(0, 0, 0.5, 179.7) - 19_944_127.420_750_458) <= 1e-6)
    #expect(abs(s(0, 0, 0, 180) - 20_003_931.458_625_447) <= 1e-6)
    #expect(abs(s(-30, 0, 29.9, 179.8) - 19_989_832.827_609_53) <= 1e-6)
    // (0,0)→(0,180) runs over a pole: the meridian is the shortest path on an oblate earth.
    let r = Geodesic.inverse(
      Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 180))
    #expect(r.initialAzimuth == 0 && abs(r.finalAzimuth) == 180)
  }

  @Test func newtonConvergesQuicklyEverywhere() {
    for c in GeographicLibReference.inverse {
      let r = GeodesicSolver.wgs84.inverse(c.lat1, c.lon1, c.lat2, c.lon2)
      #expect(r.iterations <= 10, "\(c.label): \(r.iterations) iterations")
    }
  }

  @Test func directInvertsInverse() {
    for c in GeographicLibReference.inverse where c.s12 > 0 {
      let r = Geodesic.inverse(c.a, c.b)
      let end = Geodesic.direct(from: c.a, azimuth: r.initialAzimuth, distance: r.distance)
      #expect(Geodesic.distance(end, c.b) <= 1e-6, "\(c.label): \(end)")
    }
  }

  @Test func inverseInvertsDirect() {
    let start = Coordinate(latitude: -12.5, longitude: 47)
    for azimuth in stride(from: -180.0, through: 180, by: 22.5) {
      for distance in [0.25, 10, 1e4, 1e6, 1e7, 1.9e7] {
        let end = Geodesic.direct(from: start, azimuth: azimuth, distance: distance)
        let r = Geodesic.inverse(start, end)
        #expect(abs(r.distance - distance) <= 1e-6, "\(azimuth)° \(distance) m")
        // The azimuth of a short line is limited by the round-off of its end (~1e-9 m).
        let gap = angleGap(r.initialAzimuth, azimuth)
        if distance < 1000 {
          #expect(gap * .pi / 180 * distance <= 1e-8, "\(azimuth)° \(distance) m")
        } else {
          #expect(gap <= 1e-9, "\(azimuth)° \(distance) m")
        }
      }
    }
  }

  @Test func symmetryAndSwapping() {
    for c in GeographicLibReference.inverse where c.s12 > 1 {
      let ab = Geodesic.inverse(c.a, c.b)
      let ba = Geodesic.inverse(c.b, c.a)
      #expect(abs(ab.distance - ba.distance) <= 1e-8 * max(1, ab.distance), "\(c.label)")
      if c.s12 < 19_000_000 {  // away from the antipode the shortest path is unique
        #expect(angleGap(ba.initialAzimuth, ab.finalAzimuth + 180) <= 1e-9, "\(c.label)")
        #expect(angleGap(ba.finalAzimuth, ab.initialAzimuth + 180) <= 1e-9, "\(c.label)")
      }
    }
  }

  @Test func solverConstants() {
    #expect(GeodesicSolver.tiny == Double.leastNormalMagnitude.squareRoot())
    #expect(GeodesicSolver.tol0 == Double.ulpOfOne)
    #expect(GeodesicSolver.tol2 == Double.ulpOfOne.squareRoot())
    #expect(GeodesicSolver.maxit2 == GeodesicSolver.maxit1 + Double.significandBitCount + 1 + 10)
    let g = GeodesicSolver.wgs84
    #expect(g.a == WGS84.a && g.f == WGS84.f && g.b == WGS84.b)
  }

  @Test func degenerateInputs() {
    let p = Coordinate(latitude: 37.3326, longitude: -122.0306)
    #expect(Geodesic.distance(p, p) == 0)
    #expect(Geodesic.distance(p, Coordinate(latitude: 37.3326, longitude: 237.9694)) < 1e-8)
    #expect(Geodesic.distance(p, Coordinate(latitude: 90.5, longitude: 0)).isNaN)
    #expect(Geodesic.distance(Coordinate(latitude: .nan, longitude: 0), p).isNaN)
    let stay = Geodesic.direct(from: p, azimuth: 33, distance: 0)
    #expect(abs(stay.latitude - p.latitude) <= 1e-13 && abs(stay.longitude - p.longitude) <= 1e-13)
    let bad = Geodesic.direct(from: Coordinate(latitude: 91, longitude: 0), azimuth: 0, distance: 1)
    #expect(bad.latitude.isNaN)
    // Both poles: every longitude is the same point.
    let np1 = Coordinate(latitude: 90, longitude: 0)
    let np2 = Coordinate(latitude: 90, longitude: 137)
    #expect(Geodesic.distance(np1, np2) == 0)
    // Quarter meridian (GeographicLib: 10001965.729312724 m).
    #expect(
      abs(Geodesic.distance(Coordinate(latitude: 0, longitude: 5), np2) - 10_001_965.729_312_724)
        <= 1e-6)
  }

  @Test func shortSegmentsAreAccurateToTheMicrometre() {
    // Against the local ellipsoidal metric: ds² = (M dφ)² + (N cos φ dλ)².
    let lat = 52.5
    let phi = lat * .pi / 180
    let w = 1 - WGS84.e2 * sin(phi) * sin(phi)
    let m = WGS84.a * (1 - WGS84.e2) / pow(w, 1.5)
    let n = WGS84.a / w.squareRoot()
    for d in [1e-9, 1e-7, 1e-6, 3e-6] {
      let a = Coordinate(latitude: lat, longitude: 13.4)
      let b = Coordinate(latitude: lat + d, longitude: 13.4 + d)
      let local = hypot(m * d * .pi / 180, n * cos(phi) * d * .pi / 180)
      #expect(abs(Geodesic.distance(a, b) - local) <= 1e-6, "\(d)")
    }
  }

  @Test func lengthOfTracks() {
    #expect(Geodesic.length(of: [Coordinate]()) == 0)
    #expect(Geodesic.length(of: [Coordinate(latitude: 1, longitude: 2)]) == 0)
    // Sums of GeographicLib 2.1 Geodesic.WGS84.Inverse distances over the segments.
    let portlandToSeattle = [
      (45.52, -122.681944), (45.53, -122.67), (45.6, -122.5), (46.0, -122.0), (47.6062, -122.3321),
    ].map { Coordinate(latitude: $0.0, longitude: $0.1) }
    #expect(abs(Geodesic.length(of: portlandToSeattle) - 256_236.816_938_750_27) <= 1e-6)
    let acrossTheAntimeridian = [(-16.5, 178.5), (-17.0, 179.9), (-17.2, -179.8), (-17.5, -178.0)]
      .map { Coordinate(latitude: $0.0, longitude: $0.1) }
    #expect(abs(Geodesic.length(of: acrossTheAntimeridian) - 392_225.303_575_496_6) <= 1e-6)
    // Any collection works, and the length is the sum of segment distances.
    let slice = portlandToSeattle[1...3]
    let expected =
      Geodesic.distance(portlandToSeattle[1], portlandToSeattle[2])
      + Geodesic.distance(portlandToSeattle[2], portlandToSeattle[3])
    #expect(abs(Geodesic.length(of: slice) - expected) <= 1e-9)
  }

  @Test func lengthOfALongTrackKeepsPrecision() {
    // 100 000 steps of about 1.1 m along the equator: the total equals one inverse solution.
    let n = 100_000
    let step = 1e-5
    let track = (0...n).lazy.map { Coordinate(latitude: 0, longitude: Double($0) * step) }
    let total = Geodesic.length(of: track)
    let direct = Geodesic.distance(track.first!, track.last!)
    #expect(abs(total - direct) <= 1e-6, "\(total) vs \(direct)")
  }
}
