import Foundation
import TermMap

guard let data = DataDirectory.locate() else {
  print("no offline data: set TERMMAP_DATA to termmap's Data folder")
  exit(2)
}
// The gazetteer's towns, and the names of the regions `termmap get` stored (none is fine).
let gazetteer = try Gazetteer(directory: data, regions: RegionNames.stored().indexes)
let monaco = CoordinateRegion(
  center: Coordinate(latitude: 43.7384, longitude: 7.4246), latitudinalMeters: 50_000,
  longitudinalMeters: 50_000)
for query in ["monaco", "nice", "menton", "san remo"] {
  let request = LocalSearch.Request(naturalLanguageQuery: query, region: monaco)
  let items = LocalSearch(request: request, gazetteer: gazetteer).results().mapItems.prefix(3)
  print(
    "\(query): "
      + items.map { item in
        let km = item.distance.map { String(format: " %.0f km", $0 / 1000) } ?? ""
        return item.label + km
      }.joined(separator: "; "))
}

// Monte-Carlo on the offline map, naming cafés and no other point of interest.
let map = MapView(columns: 100, rows: 30)
map.addOverlays(try OfflineMap.overlays(dataDirectory: data), level: .aboveRoads)
map.pointOfInterestFilter = PointOfInterestFilter(including: [.cafe])
map.setCenter(Coordinate(latitude: 43.7396, longitude: 7.4276), animated: false)
map.setZoomLevel(17, animated: false)
print(map.renderCompleteFrame().frame.lines.joined(separator: "\n"))
