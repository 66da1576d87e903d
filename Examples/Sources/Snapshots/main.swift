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

// The host's own annotation views in a snapshot: `annotationViewProvider` is the delegate's
// `mapView(_:viewFor:)`, called on the main actor; the snapshot draws the views it makes.
final class CapitalView: AnnotationView {
  required init(annotation: (any Annotation)?, reuseIdentifier: String?) {
    super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
    glyph = "★"
    asciiGlyph = "*"
    color = .brightRed
  }

  override func prepareForDisplay() {
    super.prepareForDisplay()
    label = (annotation?.title ?? "") + ", capital"
  }
}
let (capital, capitalCenter) = places[0]
var options = MapSnapshotter.Options(columns: 48, rows: 12)
options.addOverlays(try OfflineMap.overlays(dataDirectory: data), level: .aboveRoads)
options.annotations = [PointAnnotation(coordinate: capitalCenter, title: capital)]
options.region = CoordinateRegion(
  center: capitalCenter, span: CoordinateSpan(latitudeDelta: 4, longitudeDelta: 8))
options.annotationViewProvider = { CapitalView(annotation: $0, reuseIdentifier: nil) }
let custom = try await MapSnapshotter(options: options).start()
if let cell = custom.point(for: capitalCenter) {
  print("\(capital) as a custom view: \(custom.buffer[cell.column, cell.row].glyph)")
}
print(custom.text)
