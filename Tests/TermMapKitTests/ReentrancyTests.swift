import DotRaster
import MapGeometry
import Testing

@testable import TermMapKit

/// A delegate that changes the map from inside its own callbacks, recording the calls.
@MainActor
final class MeddlingDelegate: MapViewDelegate {
  var log: [String] = []
  var recentreOnce: Coordinate?
  var recentreInWillOnce: Coordinate?
  var overlayAfterRendering: (any Overlay)?

  func mapView(_ mapView: MapView, regionWillChangeAnimated animated: Bool) {
    log.append("will")
    if let c = recentreInWillOnce {
      recentreInWillOnce = nil
      mapView.setCenter(c, animated: false)
    }
  }
  func mapViewDidChangeVisibleRegion(_ mapView: MapView) { log.append("visible") }
  func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool) {
    log.append("did")
    if let c = recentreOnce {
      recentreOnce = nil
      mapView.setCenter(c, animated: false)
    }
  }
  func mapViewWillStartRenderingMap(_ mapView: MapView) { log.append("startRendering") }
  func mapViewDidFinishRenderingMap(_ mapView: MapView, fullyRendered: Bool) {
    log.append("finishRendering")
    if let o = overlayAfterRendering {
      overlayAfterRendering = nil
      mapView.addOverlay(o)
    }
  }
  func mapView(_ mapView: MapView, didAdd renderers: [OverlayRenderer]) {
    log.append("addedRenderers(\(renderers.count))")
  }
}

@Suite("Changing the map from its delegate (the rules in DelegateCallOrder.md)")
@MainActor
struct ReentrancyTests {
  @Test("a region change started in regionDidChange is a second will/did pair, never nested")
  func changeFromDidChange() {
    let map = MapView(columns: 40, rows: 12)
    let d = MeddlingDelegate()
    map.delegate = d
    d.recentreOnce = Coordinate(latitude: 10, longitude: 10)
    map.setCenter(Coordinate(latitude: 40, longitude: 20), animated: false)
    #expect(d.log == ["will", "visible", "did", "will", "visible", "did"])
    #expect(abs(map.centerCoordinate.latitude - 10) < 1e-9)
    #expect(!map.isChangingRegion)
  }

  @Test("a change started in regionWillChange is made inside the change, whose target wins")
  func changeFromWillChange() {
    let map = MapView(columns: 40, rows: 12)
    let d = MeddlingDelegate()
    map.delegate = d
    d.recentreInWillOnce = Coordinate(latitude: 10, longitude: 10)
    map.setCenter(Coordinate(latitude: 40, longitude: 20), animated: false)
    #expect(d.log == ["will", "will", "visible", "did", "visible", "did"])
    #expect(abs(map.centerCoordinate.latitude - 40) < 1e-9)
  }

  @Test("an overlay added in mapViewDidFinishRenderingMap shows in the next frame, not this one")
  func addFromRendering() {
    let map = MapView(columns: 40, rows: 12)
    let d = MeddlingDelegate()
    map.delegate = d
    let a = Polyline(coordinates: [
      Coordinate(latitude: -20, longitude: -40), Coordinate(latitude: 20, longitude: 40),
    ])
    let b = Polyline(coordinates: [
      Coordinate(latitude: 20, longitude: -40), Coordinate(latitude: -20, longitude: 40),
    ])
    map.addOverlay(a)
    d.overlayAfterRendering = b
    let first = map.renderFrame()
    #expect(d.log == ["addedRenderers(1)", "startRendering", "finishRendering"])
    #expect(map.overlays.count == 2)
    #expect(map.needsDisplay)
    d.log = []
    let second = map.renderFrame()
    #expect(d.log == ["addedRenderers(1)", "startRendering", "finishRendering"])
    let inked = { (f: CellBuffer) in f.cells.filter { $0.glyph != " " }.count }
    #expect(inked(second) > inked(first))
  }
}
