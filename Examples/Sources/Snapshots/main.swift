import Foundation
import TermMap

// Three pictures of the offline map, made at the same time in detached tasks: a snapshotter
// runs the map's frame pipeline inside the task that calls `start()`, off the main actor.
guard let data = DataDirectory.locate() else {
  print("no offline map: set TERMMAP_DATA to termmap's Data folder")
  exit(2)
}
let places = [
  ("Ljubljana", Coordinate(latitude: 46.0511, longitude: 14.5051)),
  ("Lisbon", Coordinate(latitude: 38.7223, longitude: -9.1393)),
  ("Monaco", Coordinate(latitude: 43.7384, longitude: 7.4246)),
]
let tasks = try places.map { name, center in
  var options = MapSnapshotter.Options(columns: 48, rows: 12)
  options.addOverlays(try OfflineMap.overlays(dataDirectory: data), level: .aboveRoads)
  options.annotations = [PointAnnotation(coordinate: center, title: name)]
  options.region = CoordinateRegion(
    center: center, span: CoordinateSpan(latitudeDelta: 4, longitudeDelta: 8))
  return Task.detached { try await MapSnapshotter(options: options).start() }
}
for (task, (name, center)) in zip(tasks, places) {
  let snapshot = try await task.value
  if let cell = snapshot.point(for: center) {
    print("\(name): the marker is in column \(cell.column), row \(cell.row)")
  }
  print(snapshot.text)
}
