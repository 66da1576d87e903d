import Foundation
import Testing

@testable import DotRaster

@Suite("Fill rings written point by point, and the fill's roundings")
struct FillRingWriterTests {
  @Test("smallCeiling and smallFloor round as rounded(.up) and rounded(.down)")
  func roundings() {
    var values: [Double] = [
      0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
      1 - 1e-16, -1 + 1e-16, 1e-300, -1e-300, 1_000_000.5, -1_000_000.5,
      Double(Int32.max) - 0.5, Double(Int32.min) + 0.5, 2_147_483_646.75, -2_147_483_646.75,
    ]
    var seed: UInt64 = 0x5EED_F00D_1234_ABCD
    for _ in 0..<20_000 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let whole = Double(Int64(bitPattern: seed >> 20) % 4_000) - 2_000
      let part = Double(seed & 0xFFFF) / 65_536
      values.append(whole + part)
      values.append((whole + part).nextUp)
      values.append(whole.nextDown)
      values.append(whole + 0.5)
    }
    for v in values {
      #expect(FillScratch.smallCeiling(v) == Int(v.rounded(.up)), "\(v)")
      #expect(FillScratch.smallFloor(v) == Int(v.rounded(.down)), "\(v)")
    }
  }

  @Test("A span's two ends worked out as a pair are those of each end held and rounded up")
  func spanAsPair() {
    let special: [Double] = [
      .nan, .infinity, -.infinity, 1e300, -1e300, 0, -0.0, 0.5, -0.5, 1e-300, 3.5, 4.5, 9.5,
      10.5, 11.5, 2.499999999999999, 2.5000000000000004,
    ]
    var seed: UInt64 = 0xC0FF_EE00_5EED_0042
    func random() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let whole = Double(Int64(bitPattern: seed >> 20) % 64) - 24
      return whole + Double(seed & 0xFF) / 256
    }
    var compared = 0
    for clip in [
      DotRect(minX: 0, minY: 0, maxX: 20, maxY: 8), DotRect(minX: 3, minY: 1, maxX: 11, maxY: 9),
      DotRect(minX: -7, minY: 0, maxX: -2, maxY: 4),
    ] {
      let (low, high) = (Double(clip.minX - 1), Double(clip.maxX + 1))
      // (What `span` gave as two scalar ends.)
      func scalar(_ from: Double, _ to: Double) -> (Int, Int) {
        (
          max(FillScratch.smallCeiling(FillScratch.held(from, low, high) - 0.5), clip.minX),
          min(
            FillScratch.smallCeiling(FillScratch.held(to, low, high) - 0.5) &- 1, clip.maxX &- 1)
        )
      }
      var pairs: [(Double, Double)] = []
      for a in special {
        for b in special { pairs.append((a, b)) }
      }
      for _ in 0..<20_000 {
        let (a, b) = (random(), random())
        pairs.append((a, b))
        pairs.append((a.nextUp, b.nextDown))
      }
      for (a, b) in pairs {
        let pair = FillScratch.span(a, b, clip)
        let expected = scalar(a, b)
        #expect(pair.first == expected.0 && pair.last == expected.1, "\(a) \(b) \(clip)")
        if expected.0 <= expected.1 { compared += 1 }
      }
    }
    // (Spans with columns were among them.)
    #expect(compared > 10_000)
  }

  /// Fills `rings` (finite points) on a small canvas, through lines to a `DotRingSink` or
  /// through its `DotRingWriter`.
  static func fill(_ rings: [[(Double, Double)]], writer: Bool, pattern: DotPattern) -> DotCanvas {
    let c = DrawingContext(canvas: DotCanvas(columns: 10, rows: 4), patternOrigin: (1, 2))
    c.fillColor = .green
    c.fillPattern = pattern
    c.fillDotRings { sink in
      if writer {
        // (A ring left open by a line first: the writer closes it.)
        if let first = rings.first, let p = first.first {
          sink.move(x: p.0, y: p.1, dashOffset: 0)
          for q in first.dropFirst() { sink.line(x: q.0, y: q.1) }
        }
        for ring in rings.dropFirst() {
          guard let p = ring.first else { continue }
          var w = sink.startRing(count: ring.count, at: SIMD2(p.0, p.1))
          for q in ring.dropFirst() { w.point(SIMD2(q.0, q.1)) }
          sink.finishRing(w)
        }
      } else {
        for ring in rings {
          for (i, p) in ring.enumerated() {
            if i == 0 {
              sink.move(x: p.0, y: p.1, dashOffset: 0)
            } else {
              sink.line(x: p.0, y: p.1)
            }
          }
        }
      }
    }
    return c.takeCanvas()
  }

  @Test(
    "Rings written point by point fill as rings drawn with lines",
    arguments: [DotPattern.solid, .sparse, .hatch])
  func writerAsLines(_ pattern: DotPattern) {
    var seed: UInt64 = 0x0BAD_CAFE_0000_0001
    func random(_ n: Int) -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double((seed >> 33) % UInt64(n * 8)) / 8
    }
    var drawn = 0
    for _ in 0..<300 {
      let count = 1 + Int(random(3))
      let rings = (0..<count).map { _ -> [(Double, Double)] in
        let (cx, cy) = (random(30) - 5, random(24) - 5)
        // (Some edges horizontal, some points shared, some zeros of either sign.)
        return (0..<(1 + Int(random(9)))).map { _ in
          let y = random(3) < 1 ? cy : cy + random(9)
          return (cx + random(12), y == 0 ? -0.0 : y)
        }
      }
      let lines = Self.fill(rings, writer: false, pattern: pattern)
      let written = Self.fill(rings, writer: true, pattern: pattern)
      #expect(lines == written)
      drawn += lines.dots.filter { !$0.isEmpty }.count
    }
    // (Fills drew, even with the sparse pattern's one dot a cell: fills that drew nothing
    // would pass the comparison.)
    #expect(drawn > 300)
  }
}
