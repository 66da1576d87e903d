import TermMap

// A map of 72 × 18 terminal cells on the offline map that ships with termmap (Data/).
let map = MapView(columns: 72, rows: 18)
if let data = DataDirectory.locate() {
  map.addOverlays(try OfflineMap.overlays(dataDirectory: data), level: .aboveRoads)
}
// A route, drawn by the standard PolylineRenderer, and a marker with a title.
let route = Polyline(coordinates: [
  Coordinate(latitude: 46.0511, longitude: 14.5051),
  Coordinate(latitude: 45.7763, longitude: 14.2147),
  Coordinate(latitude: 45.6495, longitude: 13.7768),
  Coordinate(latitude: 45.4408, longitude: 12.3155),
])
map.addOverlay(route)
let venice = PointAnnotation(coordinate: route.coordinates[3], title: "Venice")
map.addAnnotation(venice)
map.showAllContent(animated: false)
// Wait for the map's tiles, then print the frame as text (`ansiLines` gives it in colour).
print(map.renderCompleteFrame().frame.lines.joined(separator: "\n"))
