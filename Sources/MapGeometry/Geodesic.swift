import Foundation

/// Geodesics on the WGS84 ellipsoid.
///
/// The method is Charles F. F. Karney's, "Algorithms for geodesics", J. Geodesy 87, 43–55
/// (2013), the one GeographicLib implements: series in the third flattening to sixth order on an
/// auxiliary sphere, Newton's method on the azimuth for the inverse problem started from an
/// astroid estimate near the antipode, so it converges for every pair of points. Results agree
/// with GeographicLib to round-off (see docs/geodesy.md). Nothing here allocates.
public enum Geodesic {
  /// Surface distance in metres between two coordinates, along the shortest geodesic.
  /// A latitude outside ±90° gives NaN; longitudes may be any finite value.
  public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
    GeodesicSolver.wgs84.inverse(a.latitude, a.longitude, b.latitude, b.longitude).s12
  }

  /// The inverse problem: the distance in metres and the azimuths (degrees clockwise from north,
  /// in [−180, 180]) of the shortest geodesic at its start and at its end.
  public static func inverse(_ a: Coordinate, _ b: Coordinate) -> (
    distance: Double, initialAzimuth: Double, finalAzimuth: Double
  ) {
    let r = GeodesicSolver.wgs84.inverse(a.latitude, a.longitude, b.latitude, b.longitude)
    return (r.s12, GeoMath.atan2d(r.salp1, r.calp1), GeoMath.atan2d(r.salp2, r.calp2))
  }

  /// The direct problem: the point reached by going `distance` metres (may be negative or exceed
  /// half the globe) from `from` with initial `azimuth` (degrees clockwise from north).
  /// The longitude of the result is in [−180, 180].
  public static func direct(from: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
    let r = GeodesicSolver.wgs84.direct(from.latitude, from.longitude, azimuth, distance)
    return Coordinate(latitude: r.lat2, longitude: r.lon2)
  }

  /// The sum of the geodesic distances between consecutive coordinates, in metres (0 for fewer
  /// than two). The sum is compensated, so long tracks do not lose precision.
  public static func length(of coordinates: some Collection<Coordinate>) -> Double {
    var iterator = coordinates.makeIterator()
    guard var previous = iterator.next() else { return 0 }
    var sum = 0.0
    var compensation = 0.0
    while let next = iterator.next() {
      let d = distance(previous, next)
      // Neumaier's compensated summation.
      let t = sum + d
      compensation += abs(sum) >= abs(d) ? (sum - t) + d : (d - t) + sum
      sum = t
      previous = next
    }
    return sum + compensation
  }
}

// MARK: - Angle helpers (degrees, with care for exact quadrants and round-off)

enum GeoMath {
  static let degree = Double.pi / 180
  static let radToDeg = 180 / Double.pi

  @inline(__always) static func sq(_ x: Double) -> Double { x * x }

  /// √(x² + y²). The arguments here are sines and cosines, so the plain formula is accurate;
  /// the library `hypot` (much slower in glibc) is kept for sums that underflow or overflow.
  @inline(__always) static func hypot(_ x: Double, _ y: Double) -> Double {
    let s = x * x + y * y
    if s >= Double.leastNormalMagnitude && s < Double.infinity { return s.squareRoot() }
    return Foundation.hypot(x, y)
  }

  /// (x, y) scaled to unit length.
  @inline(__always) static func norm(_ x: Double, _ y: Double) -> (Double, Double) {
    let r = hypot(x, y)
    return (x / r, y / r)
  }

  /// Error-free sum: u + v = s + t exactly.
  @inline(__always) static func sum(_ u: Double, _ v: Double) -> (s: Double, t: Double) {
    let s = u + v
    var up = s - v
    var vpp = s - up
    up -= u
    vpp -= v
    let t = s == 0 ? s : 0.0 - (up + vpp)
    return (s, t)
  }

  /// Rounds tiny angles so that values below 1/2^57 of a degree snap to a coarser grid, keeping
  /// near-equatorial and near-meridional inputs away from numerically singular cases.
  @inline(__always) static func angRound(_ x: Double) -> Double {
    let z = 1.0 / 16
    var y = abs(x)
    if y < z { y = z - (z - y) }
    return Double(signOf: x, magnitudeOf: y)
  }

  /// IEEE remainder of x by 360, skipping the library call for |x| ≤ 180 (where it is x).
  @inline(__always) static func remainder360(_ x: Double) -> Double {
    abs(x) <= 180 ? x : x.remainder(dividingBy: 360)
  }

  /// An angle reduced to [−180, 180].
  static func angNormalize(_ x: Double) -> Double {
    guard x.isFinite else { return .nan }
    let y = remainder360(x)
    return abs(y) == 180 ? Double(signOf: x, magnitudeOf: 180) : y
  }

  /// NaN for latitudes outside [−90, 90].
  @inline(__always) static func latFix(_ x: Double) -> Double { abs(x) > 90 ? .nan : x }

  /// y − x reduced to [−180, 180], as a value and its round-off error.
  static func angDiff(_ x: Double, _ y: Double) -> (d: Double, e: Double) {
    guard x.isFinite, y.isFinite else { return (.nan, 0) }
    var (d, t) = sum(remainder360(-x), remainder360(y))
    (d, t) = sum(remainder360(d), t)
    if d == 0 || abs(d) == 180 {
      d = Double(signOf: t == 0 ? y - x : -t, magnitudeOf: d)
    }
    return (d, t)
  }

  /// Rotates (s, c) = (sin r, cos r) by q quarter turns.
  @inline(__always) private static func quadrant(_ s: Double, _ c: Double, _ q: Int, _ x: Double)
    -> (Double, Double)
  {
    var (s, c) = (s, c)
    switch q & 3 {
    case 1: (s, c) = (c, -s)
    case 2: (s, c) = (-s, -c)
    case 3: (s, c) = (-c, s)
    default: break
    }
    c += 0
    if s == 0 { s = Double(signOf: x, magnitudeOf: s) }
    return (s, c)
  }

  /// Sine and cosine of an angle in degrees, exact at multiples of 90°.
  static func sincosd(_ x: Double) -> (Double, Double) {
    guard x.isFinite else { return (.nan, .nan) }
    var r = abs(x) < 360 ? x : fmod(x, 360)
    let q = Int((r / 90).rounded(.toNearestOrEven))
    r = (r - 90 * Double(q)) * degree
    return quadrant(sin(r), cos(r), q, x)
  }

  /// Sine and cosine of (x + t) in degrees, for x in [−180, 180] and a small correction t.
  static func sincosde(_ x: Double, _ t: Double) -> (Double, Double) {
    let q = x.isFinite ? Int((x / 90).rounded(.toNearestOrEven)) : 0
    let r = angRound(x - 90 * Double(q) + t) * degree
    return quadrant(sin(r), cos(r), q, x)
  }

  /// atan2 in degrees, exact in the four quadrant directions.
  static func atan2d(_ y: Double, _ x: Double) -> Double {
    var (x, y) = (x, y)
    var q = 0
    if abs(y) > abs(x) {
      q = 2
      swap(&x, &y)
    }
    if x < 0 {
      q += 1
      x = -x
    }
    let ang = atan2(y, x) * radToDeg
    switch q {
    case 1: return Double(signOf: y, magnitudeOf: 180) - ang
    case 2: return 90 - ang
    case 3: return -90 + ang
    default: return ang
    }
  }
}

// MARK: - Fourier series in the auxiliary sphere

/// Six coefficients c1…c6 of a series Σ c_l sin(2lσ) (c6 = 0 for the five-term C3 series).
struct SineSeries {
  var c1 = 0.0
  var c2 = 0.0
  var c3 = 0.0
  var c4 = 0.0
  var c5 = 0.0
  var c6 = 0.0

  /// Σ c_l sin(2lσ) from sin σ and cos σ, by Clenshaw summation.
  @inline(__always) func sum(_ sinx: Double, _ cosx: Double) -> Double {
    let ar = 2 * (cosx - sinx) * (cosx + sinx)  // 2 cos 2σ
    var b1 = c6
    var b0 = ar * b1 + c5
    b1 = ar * b0 - b1 + c4
    b0 = ar * b1 - b0 + c3
    b1 = ar * b0 - b1 + c2
    b0 = ar * b1 - b0 + c1
    return 2 * sinx * cosx * b0
  }
}

/// The series expansions of Karney (2013), to order six in ε.
enum GeodesicSeries {
  /// A1 − 1 (the distance scale).
  @inline(__always) static func a1m1(_ eps: Double) -> Double {
    let e2 = eps * eps
    let t = e2 * (e2 * (e2 + 4) + 64) / 256
    return (t + eps) / (1 - eps)
  }

  /// C1_l (distance from arc length).
  @inline(__always) static func c1(_ eps: Double) -> SineSeries {
    let e2 = eps * eps
    var d = eps
    var c = SineSeries()
    c.c1 = d * (e2 * (6 - e2) - 16) / 32
    d *= eps
    c.c2 = d * (e2 * (64 - 9 * e2) - 128) / 2048
    d *= eps
    c.c3 = d * (9 * e2 - 16) / 768
    d *= eps
    c.c4 = d * (3 * e2 - 5) / 512
    d *= eps
    c.c5 = -7 * d / 1280
    d *= eps
    c.c6 = -7 * d / 2048
    return c
  }

  /// C1′_l: the reversion of the C1 series (arc length from distance), for the direct problem.
  @inline(__always) static func c1p(_ eps: Double) -> SineSeries {
    let e2 = eps * eps
    var d = eps
    var c = SineSeries()
    c.c1 = d * (e2 * (205 * e2 - 432) + 768) / 1536
    d *= eps
    c.c2 = d * (e2 * (4005 * e2 - 4736) + 3840) / 12288
    d *= eps
    c.c3 = d * (116 - 225 * e2) / 384
    d *= eps
    c.c4 = d * (2695 - 7173 * e2) / 7680
    d *= eps
    c.c5 = 3467 * d / 7680
    d *= eps
    c.c6 = 38081 * d / 61440
    return c
  }

  /// A2 − 1 (for the reduced length).
  @inline(__always) static func a2m1(_ eps: Double) -> Double {
    let e2 = eps * eps
    let t = e2 * (e2 * (-11 * e2 - 28) - 192) / 256
    return (t - eps) / (1 + eps)
  }

  /// C2_l (for the reduced length).
  @inline(__always) static func c2(_ eps: Double) -> SineSeries {
    let e2 = eps * eps
    var d = eps
    var c = SineSeries()
    c.c1 = d * (e2 * (e2 + 2) + 16) / 32
    d *= eps
    c.c2 = d * (e2 * (35 * e2 + 64) + 384) / 2048
    d *= eps
    c.c3 = d * (15 * e2 + 80) / 768
    d *= eps
    c.c4 = d * (7 * e2 + 35) / 512
    d *= eps
    c.c5 = 63 * d / 1280
    d *= eps
    c.c6 = 77 * d / 2048
    return c
  }
}

// MARK: - The solver

/// Karney's solution of the direct and inverse problems for one ellipsoid of positive
/// flattening (an oblate ellipsoid such as WGS84).
struct GeodesicSolver: Sendable {
  static let wgs84 = GeodesicSolver(a: WGS84.a, f: WGS84.f)

  // Literal constants, so that no lazy initialisation runs in the hot path.
  /// √(smallest normal double) = 2^−511.
  static let tiny: Double = 0x1p-511
  /// Machine epsilon, 2^−52.
  static let tol0: Double = 0x1p-52
  static let tol1: Double = 200 * 0x1p-52
  /// √ε = 2^−26.
  static let tol2: Double = 0x1p-26
  static let tolb: Double = 0x1p-52
  static let xthresh: Double = 1000 * 0x1p-26
  static let maxit1 = 20
  /// maxit1 + digits + 10, as in GeographicLib.
  static let maxit2 = 83

  let a: Double
  let f: Double
  let f1: Double
  let ep2: Double
  let n: Double
  let b: Double
  /// Below this arc (radians) a short line is solved on a sphere of the mean curvature.
  let etol2: Double
  /// Coefficients of A3 (longitude scale) as a polynomial in ε, highest power first; they
  /// depend on the third flattening n.
  let a3x: (Double, Double, Double, Double, Double, Double)
  /// Coefficients of C3_l (longitude series) as polynomials in ε, l = 1…5 in turn.
  let c3x:
    (
      Double, Double, Double, Double, Double, Double, Double, Double, Double, Double, Double,
      Double, Double, Double, Double
    )

  init(a: Double, f: Double) {
    precondition(a > 0 && f > 0 && f < 1, "only oblate ellipsoids are supported")
    self.a = a
    self.f = f
    f1 = 1 - f
    let e2 = f * (2 - f)
    ep2 = e2 / (f1 * f1)
    let n = f / (2 - f)
    self.n = n
    b = a * f1
    etol2 = 0.1 * Self.tol2 / (max(0.001, f) * min(1, 1 - f / 2) / 2).squareRoot()
    a3x = (
      -3.0 / 128, (-2 * n - 3) / 64, ((-n - 3) * n - 1) / 16, ((3 * n - 1) * n - 2) / 8,
      (n - 1) / 2, 1
    )
    c3x = (
      3.0 / 128, (2 * n + 5) / 128, ((3 - n) * n + 3) / 64, (1 - n * n) / 8, (1 - n) / 4,
      5.0 / 256, (n + 3) / 128, ((-3 * n - 2) * n + 3) / 64, ((n - 3) * n + 2) / 32,
      7.0 / 512, (9 - 10 * n) / 384, ((5 * n - 9) * n + 5) / 192,
      7.0 / 512, (7 - 14 * n) / 512,
      21.0 / 2560
    )
  }

  @inline(__always) func a3(_ eps: Double) -> Double {
    let c = a3x
    return ((((c.0 * eps + c.1) * eps + c.2) * eps + c.3) * eps + c.4) * eps + c.5
  }

  @inline(__always) func c3(_ eps: Double) -> SineSeries {
    let x = c3x
    var m = eps
    var c = SineSeries()
    c.c1 = m * ((((x.0 * eps + x.1) * eps + x.2) * eps + x.3) * eps + x.4)
    m *= eps
    c.c2 = m * (((x.5 * eps + x.6) * eps + x.7) * eps + x.8)
    m *= eps
    c.c3 = m * ((x.9 * eps + x.10) * eps + x.11)
    m *= eps
    c.c4 = m * (x.12 * eps + x.13)
    m *= eps
    c.c5 = m * x.14
    return c
  }

  /// ε from k² = e′² cos² α0.
  @inline(__always) static func epsilon(_ k2: Double) -> Double {
    k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
  }

  // MARK: Lengths

  /// Distance and reduced length divided by b, and the secular coefficient m0.
  /// `distance` or `reduced` select what is computed; unselected outputs are NaN.
  @inline(__always) func lengths(
    eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
    ssig2: Double, csig2: Double, dn2: Double, distance: Bool, reduced: Bool
  ) -> (s12b: Double, m12b: Double, m0: Double) {
    var s12b = Double.nan
    var m12b = Double.nan
    var m0 = Double.nan
    let a1m1 = GeodesicSeries.a1m1(eps)
    let c1a = GeodesicSeries.c1(eps)
    let a1 = 1 + a1m1
    let b1 = c1a.sum(ssig2, csig2) - c1a.sum(ssig1, csig1)
    if distance { s12b = a1 * (sig12 + b1) }
    if reduced {
      let a2m1 = GeodesicSeries.a2m1(eps)
      let c2a = GeodesicSeries.c2(eps)
      let m0x = a1m1 - a2m1
      let a2 = 1 + a2m1
      let b2 = c2a.sum(ssig2, csig2) - c2a.sum(ssig1, csig1)
      let j12 = m0x * sig12 + (a1 * b1 - a2 * b2)
      m0 = m0x
      // The parentheses keep the cancellation exact for coincident points.
      m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
    }
    return (s12b, m12b, m0)
  }

  // MARK: Inverse problem

  struct InverseResult {
    var s12: Double
    var salp1: Double
    var calp1: Double
    var salp2: Double
    var calp2: Double
    /// Newton iterations used (0 when a closed form applied); for tests.
    var iterations: Int
  }

  /// Solves the inverse problem; azimuths are returned as unnormalised (sin, cos) pairs.
  func inverse(_ lat1In: Double, _ lon1: Double, _ lat2In: Double, _ lon2: Double)
    -> InverseResult
  {
    typealias M = GeoMath
    let tiny = Self.tiny

    // Longitude difference in [−180, 180] (exactly), made non-negative.
    var (lon12, lon12s) = M.angDiff(lon1, lon2)
    var lonsign: Double = lon12.sign == .minus ? -1 : 1
    lon12 *= lonsign
    lon12s *= lonsign
    let lam12 = lon12 * M.degree
    let (slam12, clam12) = M.sincosde(lon12, lon12s)
    lon12s = (180 - lon12) - lon12s  // the supplementary difference

    // Canonical form: |lat1| ≥ |lat2|, lat1 ≤ 0, 0 ≤ lon12 ≤ 180.
    var lat1 = M.angRound(M.latFix(lat1In))
    var lat2 = M.angRound(M.latFix(lat2In))
    let swapp: Double = (abs(lat1) < abs(lat2) || lat2.isNaN) ? -1 : 1
    if swapp < 0 {
      lonsign = -lonsign
      swap(&lat1, &lat2)
    }
    let latsign: Double = (-lat1).sign == .minus ? -1 : 1
    lat1 *= latsign
    lat2 *= latsign

    // Reduced latitudes β.
    var (sbet1, cbet1) = M.sincosd(lat1)
    sbet1 *= f1
    (sbet1, cbet1) = M.norm(sbet1, cbet1)
    cbet1 = max(tiny, cbet1)
    var (sbet2, cbet2) = M.sincosd(lat2)
    sbet2 *= f1
    (sbet2, cbet2) = M.norm(sbet2, cbet2)
    cbet2 = max(tiny, cbet2)
    // Force β2 = ±β1 exactly when they are equal to round-off (Lambda12 relies on it).
    if cbet1 < -sbet1 {
      if cbet2 == cbet1 { sbet2 = Double(signOf: sbet2, magnitudeOf: sbet1) }
    } else if abs(sbet2) == -sbet1 {
      cbet2 = cbet1
    }
    let dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot()
    let dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()

    var s12x = Double.nan
    var salp1 = Double.nan
    var calp1 = Double.nan
    var salp2 = Double.nan
    var calp2 = Double.nan
    var iterations = 0

    var meridian = lat1 == -90 || slam12 == 0
    if meridian {
      // Both ends on one meridian: the geodesic may run along it.
      calp1 = clam12
      salp1 = slam12
      calp2 = 1
      salp2 = 0
      let ssig1 = sbet1
      let csig1 = calp1 * cbet1
      let ssig2 = sbet2
      let csig2 = calp2 * cbet2
      var sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
      let l = lengths(
        eps: n, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1, ssig2: ssig2, csig2: csig2,
        dn2: dn2, distance: true, reduced: true)
      var s12b = l.s12b
      if sig12 < Self.tol2 || l.m12b >= 0 {
        if sig12 < 3 * tiny || (sig12 < Self.tol0 && (s12b < 0 || l.m12b < 0)) {
          sig12 = 0
          s12b = 0
        }
        s12x = s12b * b
      } else {
        // m12 < 0: past the conjugate point, so the meridian is not the shortest path.
        meridian = false
      }
    }

    if !meridian && sbet1 == 0 && lon12s >= f * 180 {
      // Along the equator (only when the longitude difference is short of the cut near 180°).
      calp1 = 0
      calp2 = 0
      salp1 = 1
      salp2 = 1
      s12x = a * lam12
    } else if !meridian {
      let start = inverseStart(
        sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2, lam12: lam12,
        slam12: slam12, clam12: clam12)
      salp1 = start.salp1
      calp1 = start.calp1
      if start.sig12 >= 0 {
        // Really short line: solved on a sphere of the mean curvature.
        s12x = start.sig12 * b * start.dnm
        salp2 = start.salp2
        calp2 = start.calp2
      } else {
        // Newton's method on α1 for λ12(α1) = λ12, keeping a bracket (α1a, α1b) of the root
        // and falling back to its midpoint when a Newton step misbehaves.
        var tripn = false
        var tripb = false
        var salp1a = tiny
        var calp1a = 1.0
        var salp1b = tiny
        var calp1b = -1.0
        var l: Lambda12
        while true {
          l = lambda12(
            sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2,
            salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12,
            derivative: iterations < Self.maxit1)
          let v = l.lam12
          // Written so that NaN also ends the loop.
          if tripb || !(abs(v) >= (tripn ? 8 : 1) * Self.tol0) || iterations == Self.maxit2 {
            break
          }
          if v > 0 && (iterations > Self.maxit1 || calp1 / salp1 > calp1b / salp1b) {
            salp1b = salp1
            calp1b = calp1
          } else if v < 0 && (iterations > Self.maxit1 || calp1 / salp1 < calp1a / salp1a) {
            salp1a = salp1
            calp1a = calp1
          }
          iterations += 1
          if iterations < Self.maxit1 && l.dlam12 > 0 {
            let dalp1 = -v / l.dlam12
            if abs(dalp1) < .pi {
              let sdalp1 = sin(dalp1)
              let cdalp1 = cos(dalp1)
              let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
              if nsalp1 > 0 {
                calp1 = calp1 * cdalp1 - salp1 * sdalp1
                salp1 = nsalp1
                (salp1, calp1) = M.norm(salp1, calp1)
                // Convergence may be only linear where the slope vanishes, so near the root
                // test against ε rather than √ε.
                tripn = abs(v) <= 16 * Self.tol0
                continue
              }
            }
          }
          // Bisect the bracket.
          salp1 = (salp1a + salp1b) / 2
          calp1 = (calp1a + calp1b) / 2
          (salp1, calp1) = M.norm(salp1, calp1)
          tripn = false
          tripb =
            abs(salp1a - salp1) + (calp1a - calp1) < Self.tolb
            || abs(salp1 - salp1b) + (calp1 - calp1b) < Self.tolb
        }
        salp2 = l.salp2
        calp2 = l.calp2
        let s = lengths(
          eps: l.eps, sig12: l.sig12, ssig1: l.ssig1, csig1: l.csig1, dn1: dn1,
          ssig2: l.ssig2, csig2: l.csig2, dn2: dn2, distance: true, reduced: false)
        s12x = s.s12b * b
      }
    }

    // Undo the canonical transformation.
    if swapp < 0 {
      swap(&salp1, &salp2)
      swap(&calp1, &calp2)
    }
    salp1 *= swapp * lonsign
    calp1 *= swapp * latsign
    salp2 *= swapp * lonsign
    calp2 *= swapp * latsign
    return InverseResult(
      s12: 0 + s12x, salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2,
      iterations: iterations)
  }

  /// The starting azimuth for Newton's method (sig12 < 0), or the full solution of a really
  /// short line on a sphere (sig12 ≥ 0, with salp2, calp2 and dnm set).
  @inline(__always) func inverseStart(
    sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double, lam12: Double,
    slam12: Double, clam12: Double
  ) -> (sig12: Double, salp1: Double, calp1: Double, salp2: Double, calp2: Double, dnm: Double) {
    typealias M = GeoMath
    var sig12 = -1.0
    var salp2 = Double.nan
    var calp2 = Double.nan
    var dnm = Double.nan
    // β12 = β2 − β1 in [0, π); β12a = β2 + β1 in (−π, 0].
    let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
    let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
    var sbet12a = sbet2 * cbet1
    sbet12a += cbet2 * sbet1

    let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
    var somg12: Double
    var comg12: Double
    if shortline {
      // sin²((β1 + β2)/2)
      var sbetm2 = M.sq(sbet1 + sbet2)
      sbetm2 /= sbetm2 + M.sq(cbet1 + cbet2)
      dnm = (1 + ep2 * sbetm2).squareRoot()
      let omg12 = lam12 / (f1 * dnm)
      somg12 = sin(omg12)
      comg12 = cos(omg12)
    } else {
      somg12 = slam12
      comg12 = clam12
    }

    var salp1 = cbet2 * somg12
    var calp1 =
      comg12 >= 0
      ? sbet12 + cbet2 * sbet1 * M.sq(somg12) / (1 + comg12)
      : sbet12a - cbet2 * sbet1 * M.sq(somg12) / (1 - comg12)

    let ssig12 = M.hypot(salp1, calp1)
    let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

    if shortline && ssig12 < etol2 {
      salp2 = cbet1 * somg12
      calp2 =
        sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? M.sq(somg12) / (1 + comg12) : 1 - comg12)
      (salp2, calp2) = M.norm(salp2, calp2)
      sig12 = atan2(ssig12, csig12)
    } else if abs(n) >= 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * M.sq(cbet1) {
      // The spherical estimate is good enough.
    } else {
      // Nearly antipodal: scale to coordinates (x, y) in which the antipode is the origin and
      // the singular point is (−1, 0), and estimate α1 from the astroid.
      let lam12x = atan2(-slam12, -clam12)
      let k2 = M.sq(sbet1) * ep2
      let eps = Self.epsilon(k2)
      let lamscale = f * cbet1 * a3(eps) * .pi
      let betscale = lamscale * cbet1
      let x = lam12x / lamscale
      let y = sbet12a / betscale
      if y > -Self.tol1 && x > -1 - Self.xthresh {
        // Strip near the cut.
        salp1 = min(1, -x)
        calp1 = -(1 - M.sq(salp1)).squareRoot()
      } else {
        let k = Self.astroid(x, y)
        let omg12a = lamscale * (-x * k / (1 + k))
        somg12 = sin(omg12a)
        comg12 = -cos(omg12a)
        salp1 = cbet2 * somg12
        calp1 = sbet12a - cbet2 * sbet1 * M.sq(somg12) / (1 - comg12)
      }
    }
    // Sanity check on the starting guess; written so that NaN falls through to norm.
    if !(salp1 <= 0) {
      (salp1, calp1) = M.norm(salp1, calp1)
    } else {
      salp1 = 1
      calp1 = 0
    }
    return (sig12, salp1, calp1, salp2, calp2, dnm)
  }

  /// The positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0 (the astroid).
  static func astroid(_ x: Double, _ y: Double) -> Double {
    let p = x * x
    let q = y * y
    let r = (p + q - 1) / 6
    guard !(q == 0 && r <= 0) else { return 0 }
    let s = p * q / 4
    let r2 = r * r
    let r3 = r * r2
    let disc = s * (s + 2 * r3)
    var u = r
    if disc >= 0 {
      var t3 = s + r3
      t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()
      let t = cbrt(t3)
      u += t + (t != 0 ? r2 / t : 0)
    } else {
      let ang = atan2((-disc).squareRoot(), -(s + r3))
      u += 2 * r * cos(ang / 3)
    }
    let v = (u * u + q).squareRoot()
    let uv = u < 0 ? q / (v - u) : u + v
    let w = (uv - q) / (2 * v)
    return uv / ((uv + w * w).squareRoot() + w)
  }

  struct Lambda12 {
    var lam12: Double
    var salp2: Double
    var calp2: Double
    var sig12: Double
    var ssig1: Double
    var csig1: Double
    var ssig2: Double
    var csig2: Double
    var eps: Double
    var dlam12: Double
  }

  /// The longitude difference λ12 − λ120 reached by the geodesic leaving point 1 at α1 toward
  /// the latitude of point 2, and its derivative with respect to α1 (from the reduced length).
  @inline(__always) func lambda12(
    sbet1: Double, cbet1: Double, dn1: Double, sbet2: Double, cbet2: Double, dn2: Double,
    salp1: Double, calp1 calp1In: Double, slam120: Double, clam120: Double, derivative: Bool
  ) -> Lambda12 {
    typealias M = GeoMath
    // Break the degeneracy of an equatorial line (already handled by the caller).
    let calp1 = (sbet1 == 0 && calp1In == 0) ? -Self.tiny : calp1In

    let salp0 = salp1 * cbet1
    let calp0 = M.hypot(calp1, salp1 * sbet1)

    // tan β1 = tan σ1 cos α1; tan ω1 = sin α0 tan σ1.
    let somg1 = salp0 * sbet1
    let comg1 = calp1 * cbet1
    let (ssig1, csig1) = M.norm(sbet1, comg1)

    // Enforce the symmetry |β2| = −β1 exactly.
    let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
    let calp2 =
      (cbet2 != cbet1 || abs(sbet2) != -sbet1)
      ? (M.sq(calp1 * cbet1)
        + (cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)))
        .squareRoot() / cbet2
      : abs(calp1)
    let somg2 = salp0 * sbet2
    let comg2 = calp2 * cbet2
    let (ssig2, csig2) = M.norm(sbet2, comg2)

    // σ12 = σ2 − σ1 and ω12 = ω2 − ω1, both in [0, π].
    let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
    let somg12 = max(0, comg1 * somg2 - somg1 * comg2) + 0
    let comg12 = comg1 * comg2 + somg1 * somg2
    // η = ω12 − λ120
    let eta = atan2(
      somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)

    let k2 = M.sq(calp0) * ep2
    let eps = Self.epsilon(k2)
    let c3a = c3(eps)
    let b312 = c3a.sum(ssig2, csig2) - c3a.sum(ssig1, csig1)
    let domg12 = -f * a3(eps) * salp0 * (sig12 + b312)
    let lam12 = eta + domg12

    var dlam12 = Double.nan
    if derivative {
      if calp2 == 0 {
        dlam12 = -2 * f1 * dn1 / sbet1
      } else {
        let l = lengths(
          eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1, ssig2: ssig2,
          csig2: csig2, dn2: dn2, distance: false, reduced: true)
        dlam12 = l.m12b * f1 / (calp2 * cbet2)
      }
    }
    return Lambda12(
      lam12: lam12, salp2: salp2, calp2: calp2, sig12: sig12, ssig1: ssig1, csig1: csig1,
      ssig2: ssig2, csig2: csig2, eps: eps, dlam12: dlam12)
  }

  // MARK: Direct problem

  /// Solves the direct problem: latitude, longitude (in [−180, 180]) and azimuth at the end.
  func direct(_ lat1In: Double, _ lon1: Double, _ azi1: Double, _ s12: Double) -> (
    lat2: Double, lon2: Double, azi2: Double
  ) {
    typealias M = GeoMath
    let lat1 = M.latFix(lat1In)
    let (salp1, calp1) = M.sincosd(M.angRound(azi1))
    var (sbet1, cbet1) = M.sincosd(M.angRound(lat1))
    sbet1 *= f1
    (sbet1, cbet1) = M.norm(sbet1, cbet1)
    cbet1 = max(Self.tiny, cbet1)

    // The great circle on the auxiliary sphere: α0 at its node, σ1 and ω1 of the start.
    let salp0 = salp1 * cbet1
    let calp0 = M.hypot(calp1, salp1 * sbet1)
    let somg1 = salp0 * sbet1
    let comg1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
    let (ssig1, csig1) = M.norm(sbet1, comg1)

    let k2 = M.sq(calp0) * ep2
    let eps = Self.epsilon(k2)
    let a1m1 = GeodesicSeries.a1m1(eps)
    let c1a = GeodesicSeries.c1(eps)
    let b11 = c1a.sum(ssig1, csig1)
    let (sb11, cb11) = (sin(b11), cos(b11))
    // τ1 = σ1 + B11
    let stau1 = ssig1 * cb11 + csig1 * sb11
    let ctau1 = csig1 * cb11 - ssig1 * sb11
    let c1pa = GeodesicSeries.c1p(eps)
    let c3a = c3(eps)
    let a3c = -f * salp0 * a3(eps)
    let b31 = c3a.sum(ssig1, csig1)

    // Distance → arc length σ12 by reverting the series (eq. 20).
    var tau12 = s12 / (b * (1 + a1m1))
    if !tau12.isFinite { tau12 = .nan }
    let (st, ct) = (sin(tau12), cos(tau12))
    let b12 = -c1pa.sum(stau1 * ct + ctau1 * st, ctau1 * ct - stau1 * st)
    let sig12 = tau12 - (b12 - b11)
    let ssig12 = sin(sig12)
    let csig12 = cos(sig12)
    // (For |f| > 0.01 GeographicLib adds one Newton step here; WGS84 does not need it.)

    let ssig2 = ssig1 * csig12 + csig1 * ssig12
    var csig2 = csig1 * csig12 - ssig1 * ssig12
    let sbet2 = calp0 * ssig2
    var cbet2 = M.hypot(salp0, calp0 * csig2)
    if cbet2 == 0 {
      cbet2 = Self.tiny
      csig2 = Self.tiny
    }
    let salp2 = salp0
    let calp2 = calp0 * csig2

    let somg2 = salp0 * ssig2
    let comg2 = csig2
    let omg12 = atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
    let lam12 = omg12 + a3c * (sig12 + (c3a.sum(ssig2, csig2) - b31))
    let lon12 = lam12 * M.radToDeg
    let lon2 = M.angNormalize(M.angNormalize(lon1) + M.angNormalize(lon12))
    let lat2 = M.atan2d(sbet2, f1 * cbet2)
    let azi2 = M.atan2d(salp2, calp2)
    return (lat2, lon2, azi2)
  }
}
