import DotRaster
import Foundation
import MapGeometry
import TermMapKit
import Testing

@testable import TerminalUI

@MainActor
final class OneRenderer: MapViewDelegate {
  let renderer: OverlayRenderer
  init(renderer: OverlayRenderer) { self.renderer = renderer }
  func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer { renderer }
}

/// The viewer's elevation/speed colouring (`ValueColouredRenderer`) and the kit's
/// `GradientPolylineRenderer` given the same values draw the same frame: the viewer can switch
/// to the kit's renderer without a visible change.
@Suite("The kit's gradient polyline draws the viewer's colouring")
struct GradientSwitchTests {
  @Test("the same frame from both renderers, at several zooms, with a missing value")
  @MainActor func sameFrame() {
    // A wiggly track of 400 points with an elevation profile and a gap in it.
    var coordinates: [Coordinate] = []
    var values: [Double] = []
    for k in 0..<400 {
      let t = Double(k)
      coordinates.append(
        Coordinate(latitude: 46.0 + 0.0004 * t + 0.002 * sin(t / 9), longitude: 14.5 + 0.0005 * t))
      values.append(k == 150 ? .nan : 300 + 200 * sin(t / 30) + t)
    }
    let line = Polyline(coordinates: coordinates)
    let range = 0.0...800.0
    let ramp = Viewer.ramp
    let colours: [TermColor?] = values.map { v in
      guard v.isFinite else { return nil }
      let f = (v - range.lowerBound) / (range.upperBound - range.lowerBound)
      return ramp[min(Int(f * Double(ramp.count)), ramp.count - 1)]
    }
    let old = ValueColouredRenderer(overlay: line, lines: [coordinates], colours: [colours])
    let new = GradientPolylineRenderer(polyline: line)
    new.lineWidth = 1
    new.setColors(ramp, values: [values], range: range)
    for zoom in [10.0, 12, 14, 16] {
      var frames: [[String]] = []
      var colourPlanes: [[TermColor?]] = []
      for r in [old, new] as [OverlayRenderer] {
        let map = MapView(columns: 120, rows: 40)
        let delegate = OneRenderer(renderer: r)
        map.delegate = delegate
        map.setCenter(coordinates[151], animated: false)
        map.setZoomLevel(zoom, animated: false)
        map.addOverlay(line)
        let frame = map.renderFrame()
        frames.append(frame.lines)
        colourPlanes.append(frame.cells.map(\.foreground))
      }
      // The track shows in several of the ramp's colours, and grey where the value is missing.
      let shown = Set(colourPlanes[1].compactMap { $0 })
      #expect(shown.intersection(ramp).count >= 2, "zoom \(zoom)")
      if zoom >= 12 { #expect(shown.contains(.brightBlack), "zoom \(zoom)") }
      #expect(frames[0] == frames[1], "zoom \(zoom)")
      #expect(colourPlanes[0] == colourPlanes[1], "zoom \(zoom)")
    }
  }
}
