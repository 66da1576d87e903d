import Foundation
import TermMap

// A MapLibre style document drawn through the public API: the document is read and compiled
// (`StyleDocument`), and a map view's delegate gives the offline map's tile overlay a
// `StyledVectorTileRenderer` for the style's source. Water in the style's colour, roads by
// class, a legacy filter and a zoom-dependent width.

let styleJSON = """
  {
    "version": 8,
    "name": "example",
    "sources": {"openmaptiles": {"type": "vector", "url": "mbtiles://monaco.mbtiles"}},
    "layers": [
      {"id": "background", "type": "background", "paint": {"background-color": "#000000"}},
      {"id": "water", "type": "fill", "source": "openmaptiles", "source-layer": "water",
       "paint": {"fill-color": "rgb(40, 110, 230)"}},
      {"id": "minor", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
       "filter": ["in", "class", "minor", "service"], "paint": {"line-color": "#b0b0b0"}},
      {"id": "major", "type": "line", "source": "openmaptiles", "source-layer": "transportation",
       "filter": ["match", ["get", "class"], ["primary", "secondary", "tertiary"], true, false],
       "paint": {
         "line-color": ["match", ["get", "class"], "primary", "#f0c020", "#ffffff"],
         "line-width": ["interpolate", ["linear"], ["zoom"], 12, 2, 16, 10]}},
      {"id": "names", "type": "symbol", "source": "openmaptiles",
       "source-layer": "transportation_name", "layout": {"text-field": "{name}"}}
    ]
  }
  """

let document = try StyleDocument(data: Data(styleJSON.utf8))
print(
  "style:", document.name ?? "", "-", document.layers.count, "layers,",
  document.keys.names.count, "property keys:", document.keys.names)
for d in document.diagnostics { print("diagnostic:", d) }

/// Gives tile overlays the styled renderer.
@MainActor final class Styled: MapViewDelegate {
  let document: StyleDocument
  init(_ document: StyleDocument) { self.document = document }
  func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
    guard let tiles = overlay as? TileOverlay else { return MapView.defaultRenderer(for: overlay) }
    return StyledVectorTileRenderer(overlay: tiles, document: document, sourceID: "openmaptiles")
  }
}

guard let data = DataDirectory.locate() else {
  print("no offline map: set TERMMAP_DATA to termmap's Data folder")
  exit(2)
}
let styled = Styled(document)
let map = MapView(columns: 64, rows: 16)
map.delegate = styled
let overlay = SourceTileOverlay(
  source: try MBTilesSource(path: data.appendingPathComponent("monaco.mbtiles").path))
map.addOverlay(overlay, level: .aboveRoads)
map.setCenter(Coordinate(latitude: 43.7340, longitude: 7.4290), animated: false)
map.setZoomLevel(14.5, animated: false)
let (frame, _, complete) = map.renderCompleteFrame()
print(frame.lines.joined(separator: "\n"))

if let renderer = map.renderer(for: overlay) as? StyledVectorTileRenderer {
  print("drawn:", renderer.drawnLayerIDs, "symbol layers:", renderer.symbolLayers.map(\.id))
  print("notes:", renderer.notes)
}
// Cells in the style's water colour (or, where the frame keeps palette colours, its nearest).
let water = TermColor(StyleColor(css: "rgb(40, 110, 230)")!)
var waterCells = 0
for row in 0..<frame.rows {
  for column in 0..<frame.columns {
    if let c = frame[column, row].foreground, c.index == water.index,
      frame[column, row].glyph != " "
    {
      waterCells += 1
    }
  }
}
print("complete:", complete, "- water cells:", waterCells)
exit(complete && waterCells > 0 ? 0 : 1)
