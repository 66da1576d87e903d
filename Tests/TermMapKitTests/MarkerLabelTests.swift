import DotRaster
import Testing

@testable import TermMapKit

/// Marker labels are measured and cut by bytes when they are ASCII; the result must be what
/// the general, per-scalar functions give.
@Suite("Marker label fitting")
struct MarkerLabelTests {
  static let labels = [
    "", "A", "Place 61098", "Place 61098 +12", "Saint-Louis", "Basel/Bâle", "Zürich HB",
    "Rue de la Paix, Paris", "a-b-c-d-e-f", "  spaced  out  ", "end,", "東京駅", "x\ty",
    "trailing - ", "one/two/three/four", "Ωmega", "emoji 🚲 stand",
  ]

  @Test("widths and cuts are those of CellBuffer.displayWidth and CellBuffer.truncated")
  func sameAsCellBuffer() {
    var cut = 0
    for text in Self.labels {
      #expect(FrameComposer.labelWidth(text) == CellBuffer.displayWidth(of: text), "\(text)")
      for width in 0...24 {
        let fitted = FrameComposer.truncatedLabel(text, width: width)
        #expect(fitted == CellBuffer.truncated(text, width: width), "\(text) in \(width)")
        if fitted != text { cut += 1 }
      }
    }
    // Most of them were cut somewhere (so the comparison covers the cutting).
    #expect(cut > 100)
  }
}
