import DotRaster
import Foundation
import MapData
import MapGeometry
import MapTiles
import TermMapKit

extension BenchCommand {
  /// Everything at once at 300 × 100: the offline basemap, a 1,000,000-point route, one
  /// MultiPolygon of 100,000 polygons with holes and 100,000 annotations, over the part of
  /// Europe where they all are. "pan": 100 steps of an eighth of the screen round a square
  /// (the tiles the step uncovers are drawn, the rest reused); "redraw": every tile drawn again.
  func combinedScenarios(frames: Int, report: (Result) -> Void) throws {
    guard let dir = DataDirectory.locate() else { return }
    let (w, h) = (300, 100)
    Memory.resetPeak()
    let route = Polyline(points: BenchData.route(points: 1_000_000), title: "bench route")
    let multi = MultiPolygon(BenchData.parcels(count: 100_000))
    let places = BenchData.places(count: 100_000)
    let map = MapView(columns: w, rows: h)
    let style = ContentStyle()
    map.delegate = style
    BenchCommand.keepAlive.append(style)
    map.addOverlays(try OfflineMap.overlays(dataDirectory: dir), level: .aboveRoads)
    map.addOverlay(multi)
    map.addOverlay(route)
    map.addAnnotations(places)
    map.setCenter(Coordinate(latitude: 47.5, longitude: 7.5), animated: false)
    map.setZoomLevel(8, animated: false)
    _ = map.renderCompleteFrame(timeout: 30)
    var step = 0
    let dx = Double(w / 8 * CellGeometry.dotsWide)
    let dy = Double(h / 8 * CellGeometry.dotsHigh)
    let note = "basemap + 1M-point route + 100k polygons + 100k annotations"
    report(
      measure("combined-300x100-pan", map, frames: 100, freshTiles: false, note: note) {
        step += 1
        let phase = (step / 25) % 4
        map.pan(
          byDotsX: phase == 0 ? dx : phase == 2 ? -dx : 0,
          y: phase == 1 ? dy : phase == 3 ? -dy : 0)
      })
    report(measure("combined-300x100-redraw", map, frames: frames, note: note))
  }
}
