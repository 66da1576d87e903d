import Foundation
import Testing

@testable import DotRaster

/// `floorSmall` (the unchecked floor the small-polygon stroker uses for dots in the clip) must
/// be the floor of every value in its range: integers, the doubles either side of them, halves
/// (where rounding to nearest ties), and values spread over the range.
@Suite("floorSmall")
struct FloorSmallTests {
  @Test("floorSmall is the floor on 0 ..< 2^30, integers, their neighbours and halves included")
  func floorSmallIsTheFloor() {
    var values: [Double] = [0, 0.5, 1, 1.5, 2.5, 3.5, 0.49999999999999994, 1e-300]
    for k in [1, 2, 3, 7, 63, 64, 255, 1000, 4095, 65_536, 1 << 20, (1 << 30) - 1] {
      let v = Double(k)
      values += [v, v.nextUp, v.nextDown, v + 0.5, (v + 0.5).nextUp, (v + 0.5).nextDown]
    }
    var state: UInt64 = 12_345
    for _ in 0..<20_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let unit = Double(state >> 11) / Double(1 << 53)
      // Spread over the magnitudes: most dot positions are below a few thousand.
      values.append(unit * Double(1 << Int(state % 31)))
    }
    var wrong: [Double] = []
    for v in values where v < Double(1 << 30) && floorSmall(v) != Int(v.rounded(.down)) {
      wrong.append(v)
    }
    #expect(wrong.isEmpty, "floorSmall differs from the floor at \(wrong.prefix(5))")
  }
}
