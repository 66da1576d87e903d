import Testing

@testable import DotRaster

/// `Stroker.plainSteps`, which the stroker takes for a thin solid segment whose ends' dots lie
/// in the clip, draws the dots of the general path (`Stroker.clippedSegment`), and those of
/// `Stroker.stepDots` inking every step (the loop it had before).
@Suite("Thin solid segments stepped in integers")
struct PlainStepsTests {
  /// Strokes segments on a `width` × `height` canvas three ways (the general path from the
  /// doubles, `plainSteps` and `stepDots` from the dots) and returns the segments whose dots
  /// differ, and how many dots were compared.
  func mismatches(
    width: Int, height: Int, _ segments: [(Double, Double, Double, Double)]
  ) -> (bad: [String], dots: Int) {
    let c = makeContext(width: width, height: height)
    let ink = Ink(layer: 1, color: .white)
    var bad: [String] = []
    var compared = 0
    c.withStroker(ink: ink) { stroker, dots in
      // The inked dots of the box around both ends (grown by a dot), cleared after.
      func take(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int) -> [Int] {
        var out: [Int] = []
        for y in max(0, min(y0, y1) - 1)...min(height - 1, max(y0, y1) + 1) {
          for x in max(0, min(x0, x1) - 1)...min(width - 1, max(x0, x1) + 1)
          where !dots[y * width + x].isEmpty {
            out.append(y * width + x)
            dots[y * width + x] = .none
          }
        }
        return out
      }
      for (x0, y0, x1, y1) in segments {
        let (ix0, iy0) = (Int(x0.rounded(.down)), Int(y0.rounded(.down)))
        let (ix1, iy1) = (Int(x1.rounded(.down)), Int(y1.rounded(.down)))
        stroker.clippedSegment(x0, y0, x1, y1, dots)
        let general = take(ix0, iy0, ix1, iy1)
        let steps = max(abs(ix1 - ix0), abs(iy1 - iy0))
        Stroker.plainSteps(ix0, iy0, ix1, iy1, steps: steps, width: width, ink: ink, dots)
        let plain = take(ix0, iy0, ix1, iy1)
        Stroker.stepDots(ix0, iy0, ix1, iy1, steps: steps, width: width, ink: ink, dots) { _ in
          true
        }
        let stepped = take(ix0, iy0, ix1, iy1)
        if stepped != general || plain != general { bad.append("\((x0, y0, x1, y1))") }
        compared += general.count
      }
    }
    return (bad, compared)
  }

  @Test("Every segment between two dots of a 12 × 12 square, ends on the dots' centres")
  func everySegmentOfASquare() {
    var segments: [(Double, Double, Double, Double)] = []
    for a in 0..<144 {
      for b in 0..<144 {
        segments.append(
          (
            Double(3 + a % 12) + 0.5, Double(2 + a / 12) + 0.5, Double(3 + b % 12) + 0.5,
            Double(2 + b / 12) + 0.5
          ))
      }
    }
    let (bad, dots) = mismatches(width: 18, height: 16, segments)
    #expect(bad.isEmpty, "\(bad.prefix(10))")
    #expect(dots > 100_000)
  }

  @Test(
    "Long and short segments with ends anywhere in their dots, on whole dots, halves and next to them"
  )
  func randomSegments() {
    var seed: UInt64 = 0x5851_F42D_4C95_7F2D
    func next(_ n: Int) -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let v = Double(seed >> 11) / Double(1 << 53) * 299.9
      switch n % 6 {
      case 0: return v.rounded(.down)
      case 1: return v.rounded(.down) + 0.5
      case 2: return v.rounded(.down).nextUp
      case 3: return min(v.rounded(.up).nextDown, 299.5)
      default: return v
      }
    }
    var segments: [(Double, Double, Double, Double)] = []
    for n in 0..<6000 {
      let (x0, y0) = (next(n), next(n / 2) * 0.6)
      // Long ones, and short ones near the first end (most of a map's segments).
      let (x1, y1) =
        n % 3 == 0
        ? (next(n / 3), next(n / 5) * 0.6)
        : (min(max(x0 + next(n) / 30 - 5, 0), 299.5), min(max(y0 + next(n / 7) / 30 - 5, 0), 179.5))
      // (The dots stepped to are ⌊x0 + (x1 − x0)⌋: only ends where that is ⌊x1⌋.)
      guard x0 + (x1 - x0) == x1 && y0 + (y1 - y0) == y1 else { continue }
      segments.append((x0, y0, x1, y1))
    }
    #expect(segments.count > 5000)
    let (bad, dots) = mismatches(width: 300, height: 180, segments)
    #expect(bad.isEmpty, "\(bad.prefix(10))")
    #expect(dots > 100_000)
  }
}
