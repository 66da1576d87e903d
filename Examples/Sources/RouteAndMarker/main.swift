import TermMap

let map = MapView(columns: 72, rows: 18)
if let data = DataDirectory.locate() {  // the offline map in termmap's Data/ folder
  map.addOverlays(try OfflineMap.overlays(dataDirectory: data), level: .aboveRoads)
}
let route = Polyline(coordinates: [
  Coordinate(latitude: 46.05, longitude: 14.51), Coordinate(latitude: 45.78, longitude: 14.21),
  Coordinate(latitude: 45.65, longitude: 13.78), Coordinate(latitude: 45.44, longitude: 12.32),
])
map.addOverlay(route)
map.addAnnotation(PointAnnotation(coordinate: route.coordinates[3], title: "Venice"))
map.showAllContent(animated: false)
print(map.renderCompleteFrame().frame.lines.joined(separator: "\n"))
