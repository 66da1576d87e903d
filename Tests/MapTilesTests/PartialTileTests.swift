import DotRaster
import Foundation
import MapGeometry
import MapTiles
import TermMapKit
import Testing
import TileData

/// A new view draws its edge tiles only where they show; a pan draws whole tiles and reuses
/// them. Both must give the same frame: what a line or a fill looks like cannot depend on how
/// much of its tile was drawn.
@MainActor @Suite("Tiles drawn in part and whole give the same frame")
struct PartialTileTests {
  nonisolated static let views:
    [(name: String, path: String, lat: Double, lon: Double, zoom: Double)] = [
      ("monaco z15", monacoPath, 43.7384, 7.4246, 15),
      ("monaco z17", monacoPath, 43.7312, 7.4197, 17),
      ("shortbread z15", shortbreadPath, 43.7384, 7.4246, 15),
      ("protomaps z13", protomapsPath, 43.7384, 7.4246, 13),
      ("world z3", worldPath, 48.0, 10.0, 3.3),
    ]

  func map(_ path: String) throws -> MapView {
    let map = MapView(columns: 101, rows: 33)
    map.addOverlay(
      SourceTileOverlay(source: try TileSourceSpec.open(path), variant: .dark), level: .aboveRoads)
    return map
  }

  @Test(
    "a view drawn afresh equals the same view reached by panning, from four sides",
    arguments: views.indices)
  func freshEqualsPanned(_ n: Int) throws {
    let v = Self.views[n]
    let center = Coordinate(latitude: v.lat, longitude: v.lon)
    let fresh = try map(v.path)
    fresh.setCenter(center, animated: false)
    fresh.setZoomLevel(v.zoom, animated: false)
    let a = fresh.renderCompleteFrame(timeout: 60)
    #expect(a.complete)
    #expect(a.frame.cells.filter { $0.glyph != " " }.count > 500, "\(v.name): a map is drawn")
    for (sx, sy) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
      let panned = try map(v.path)
      panned.setCenter(center, animated: false)
      panned.setZoomLevel(v.zoom, animated: false)
      // Start 45 cells across or 17 rows down from the view, and come back in steps.
      let (dx, dy) = (sx * 45 * 2, sy * 17 * 4)
      panned.pan(byDotsX: dx, y: dy)
      _ = panned.renderCompleteFrame(timeout: 60)
      // (On this small screen every 128-dot tile may be cut by an edge: the first step may
      // find only tiles drawn in part, and draws them whole for the steps after it.)
      var reused = 0
      for _ in 0..<3 {
        panned.pan(byDotsX: -dx / 3, y: -dy / 3)
        let step = panned.renderCompleteFrame(timeout: 60)
        reused += step.statistics.tilesReused
      }
      #expect(reused > 0, "\(v.name): a pan reuses tiles")
      let b = panned.renderCompleteFrame(timeout: 60)
      #expect(panned.viewport.originX == fresh.viewport.originX)
      #expect(panned.viewport.originY == fresh.viewport.originY)
      let diff = zip(a.frame.lines, b.frame.lines).enumerated().filter {
        $0.element.0 != $0.element.1
      }
      #expect(
        diff.isEmpty,
        "\(v.name), from (\(sx), \(sy)): rows \(diff.map(\.offset)) differ:\n\(diff.map { "\($0.element.0)\n\($0.element.1)" }.joined(separator: "\n"))"
      )
    }
  }
}
