import Testing

@testable import DotRaster

/// `DashWalk` answers a segment's dash tests, asked in increasing order, mostly without the
/// division of `Stroker.dashIsOn`: every answer must be `dashIsOn`'s.
@Suite("Dash tests walked along a segment")
struct DashWalkTests {
  /// A stroker with a dash pattern given in dots (a context of scale `scale`, as a style's
  /// dashes in map units come).
  func stroker(_ lengths: [Double], phase: Double, scale: Double) -> Stroker {
    let c = DrawingContext(canvas: DotCanvas(width: 8, height: 8))
    c.transform = Transform2D(scaleX: scale, scaleY: scale)
    c.lineWidth = 1 / scale
    c.setLineDash(phase: phase / scale, lengths: lengths.map { $0 / scale })
    return Stroker(
      context: c, canvas: DotCanvas(width: 8, height: 8), ink: Ink(layer: 2, color: .white))
  }

  @Test(
    "every answer is dashIsOn's: patterns of two and more lengths, steps that land on a dash's edge, far and negative distances",
    arguments: [[1.0, 1], [2, 2], [1, 2], [0.5, 1.5], [3, 2, 1, 2], [1e-9, 1]])
  func sameAnswers(_ lengths: [Double]) {
    var seed: UInt64 = 0x853C_49E6_748F_EA9B
    func next() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(seed >> 11) / Double(1 << 53)
    }
    var asked = 0
    var differ = 0
    // Scales as zooms give them (a dash in map units times the scale is not always whole).
    for scale in [1.0, 1 / 3.0, 0.1, 262_144 / 5.0, 3e-7] {
      for phase in [0.0, 0.25] {
        let s = stroker(lengths, phase: phase, scale: scale)
        for n in 0..<400 {
          // Starts: whole periods and their neighbours, random, negative, far (2²⁰ and more).
          let starts: [Double] = [
            0, s.dashTotal * Double(n % 7), (s.dashTotal * Double(n % 5)).nextUp,
            (s.dashTotal * Double(n % 5)).nextDown, next() * 300, -next() * 5,
            0x1p20 + next() * 10, Double(n) * 0.5,
          ]
          let start = starts[n % starts.count]
          // Step lengths: whole and half dots (edges hit exactly), diagonals, random.
          let steps = [1.0, 0.5, 2.0.squareRoot(), next() * 2, 1 / 3.0, 0]
          let stepLength = steps[(n / starts.count) % steps.count]
          var walk = DashWalk(s)
          for k in 0..<(1 + n % 40) {
            let distance = start + Double(k) * stepLength
            let expected = Stroker.dashIsOn(
              at: distance, dashes: s.dashes, dashTotal: s.dashTotal, dashPhase: s.dashPhase)
            if walk.isOn(distance, s.dashes) != expected { differ += 1 }
            asked += 1
          }
        }
      }
    }
    #expect(differ == 0)
    #expect(asked > 50_000)
  }
}
