import DotRaster
import Foundation
import MapGeometry
import MapStyle
import Testing

@testable import MapTiles
@testable import TermMapKit
@testable import TileData

/// The world's Natural Earth 50m rivers (`waterway`) and urban areas (`landuse=residential`),
/// as the dark and light styles draw them (docs/data.md).
@Suite("the world's rivers and built-up areas") @MainActor
struct WorldContextTests {
  let river = TermColor.cube(1, 2, 5)
  let urban = TermColor(238)

  func colours(lat: Double, lon: Double, zoom: Double) throws -> Set<TermColor> {
    let map = MapView(columns: 100, rows: 30)
    map.addOverlay(
      SourceTileOverlay(source: try PMTilesSource(path: worldPath), style: .dark),
      level: .aboveRoads)
    map.setCenter(Coordinate(latitude: lat, longitude: lon), animated: false)
    map.setZoomLevel(zoom, animated: false)
    let r = map.renderCompleteFrame(timeout: 60)
    #expect(r.complete)
    return Set(r.frame.cells.compactMap(\.foreground))
  }

  @Test("drawn from zoom 6, and scaled up past the tiles' zoom 8")
  func drawn() throws {
    // The Danube from Regensburg to Linz, and Munich; Vienna and the Danube; Ljubljana.
    let views: [(lat: Double, lon: Double, zoom: Double, river: Bool)] = [
      (48.5, 13.0, 6.5, true), (48.2, 16.37, 9, true), (46.05, 14.5, 11, false),
    ]
    for v in views {
      let c = try colours(lat: v.lat, lon: v.lon, zoom: v.zoom)
      #expect(c.contains(urban), "\(v): a built-up area's outline")
      if v.river { #expect(c.contains(river), "\(v): a river") }
    }
    // Below zoom 6 neither is drawn (the tiles have neither either).
    let low = try colours(lat: 48.5, lon: 13.0, zoom: 5)
    #expect(!low.contains(urban) && !low.contains(river))
  }

  @Test("the light style outlines built-up areas and draws paths in its own colours")
  func light() {
    let light = BasemapStyle.light
    #expect(BuiltinColours.colour(light, "landuse-residential") == TermColor(250))
    #expect(light.document.layers.first { $0.id == "landuse-residential" }?.maxzoom == 12)
    #expect(BuiltinColours.colour(light, "road-path") == .cube(0, 2, 2))
    #expect(
      BuiltinColours.paint(light, "road-path", "line-dasharray")
        == .array([.number(1), .number(1)]))
  }
}
