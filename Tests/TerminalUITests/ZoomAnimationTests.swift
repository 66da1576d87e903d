import Foundation
import MapGeometry
import Testing

@testable import TerminalUI

/// The local viewer animates a zoom key (`termmap serve` jumps to the end over a slow link;
/// a local terminal always takes every step).
@MainActor
@Suite("the local viewer animates a zoom")
struct ZoomAnimationTests {
  @Test("+ draws frames at zoom levels between the old and the new one, ending on the new")
  func zoomAnimates() throws {
    let h = try Harness(places: false) {
      $0.center = Coordinate(latitude: 45.76, longitude: 4.84)
      $0.zoom = 11
    }
    #expect(h.backend.lines.last?.contains("z11.0") == true, "\(h.backend.lines.last ?? "")")
    let drawn = h.backend.framesDrawn
    h.backend.type("+")
    var zooms: [String] = []
    for _ in 0..<100 {
      h.step()
      let status = h.backend.lines.last ?? ""
      if let r = status.range(of: #"z1[12]\.\d"#, options: .regularExpression) {
        let z = String(status[r])
        if zooms.last != z { zooms.append(z) }
      }
      if !h.viewer.map.isAnimating && zooms.last == "z12.0" { break }
    }
    // Each step a frame: several levels in between, in order, and the target last.
    #expect(zooms.first == "z11.0" || zooms.first?.hasPrefix("z11.") == true, "\(zooms)")
    #expect(zooms.last == "z12.0", "\(zooms)")
    #expect(zooms.filter { $0 != "z11.0" && $0 != "z12.0" }.count >= 3, "\(zooms)")
    #expect(zooms == zooms.sorted(), "\(zooms)")
    #expect(h.backend.framesDrawn - drawn >= 4)
  }
}
