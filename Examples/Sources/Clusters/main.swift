import TermMap

// Cafés in Helsinki: markers that collide become clusters, a cluster is selected and zoomed
// into, and one café is dragged to a new place. Everything through the public API.
//
// (No base map: the frames show the markers alone.)

/// Every café marker clusters with the others and can be dragged; clusters get the standard
/// cluster view (◉ and the count). The delegate writes down what it hears.
@MainActor
final class Cafes: MapViewDelegate {
  var heard: [String] = []

  func mapView(_ mapView: MapView, viewFor annotation: any Annotation) -> AnnotationView? {
    if annotation is ClusterAnnotation { return nil }
    let view = try? mapView.dequeueReusableAnnotationView(withIdentifier: "cafe", for: annotation)
    view?.clusteringIdentifier = "cafes"
    view?.isDraggable = true
    return view
  }

  func mapView(
    _ mapView: MapView, clusterAnnotationForMemberAnnotations memberAnnotations: [any Annotation]
  ) -> ClusterAnnotation {
    heard.append("a cluster of \(memberAnnotations.count)")
    return ClusterAnnotation(memberAnnotations: memberAnnotations)
  }

  func mapView(
    _ mapView: MapView, annotationView view: AnnotationView,
    didChange newState: AnnotationView.DragState, fromOldState oldState: AnnotationView.DragState
  ) {
    heard.append("drag: \(oldState) → \(newState)")
  }
}

@MainActor
func show(_ map: MapView, _ caption: String) {
  print("== \(caption)")
  for line in map.renderFrame().lines { print("|\(line)|") }
}

let cafes: [(String, Double, Double)] = [
  ("Ekberg", 60.1621, 24.9388), ("Fazer", 60.1687, 24.9445), ("Engel", 60.1697, 24.9527),
  ("Kappeli", 60.1674, 24.9480), ("Esplanad", 60.1676, 24.9462), ("Aalto", 60.1683, 24.9437),
  ("Regatta", 60.1806, 24.9123), ("Andante", 60.1627, 24.9402), ("Kaffa", 60.1596, 24.9383),
  ("Sävy", 60.1603, 24.9398), ("Kuuma", 60.1852, 24.9542), ("Tin Tin", 60.1649, 24.9309),
]
let map = MapView(columns: 64, rows: 16)
let delegate = Cafes()
map.delegate = delegate
map.register(MarkerAnnotationView.self, forAnnotationViewWithReuseIdentifier: "cafe")
let annotations = cafes.map { name, latitude, longitude in
  PointAnnotation(coordinate: Coordinate(latitude: latitude, longitude: longitude), title: name)
}
map.addAnnotations(annotations)
map.showAnnotations(annotations, animated: false)
show(map, "twelve cafés: markers that collide are clusters")

// The largest cluster on screen: select it (its callout counts and lists the members).
let clusterViews = map.annotationViewsOnScreen.filter { $0.annotation is ClusterAnnotation }
let clusters = clusterViews.compactMap { $0.annotation as? ClusterAnnotation }
guard let largest = clusters.max(by: { $0.memberAnnotations.count < $1.memberAnnotations.count })
else { fatalError("no cluster at this zoom") }
map.selectAnnotation(largest, animated: false)
let names = largest.memberAnnotations.compactMap(\.title).joined(separator: ", ")
print("selected a cluster of \(largest.memberAnnotations.count): \(names)")
show(map, "the cluster selected")

// Zoom to its members: the map fits them, and they no longer collide.
map.showAnnotations(largest.memberAnnotations, animated: false)
show(map, "zoomed to the cluster's members")

// Drag the first member to the middle of the screen, as a mouse would (press on the marker,
// move, release), then two cells further right with the keys, and drop it there.
guard let moved = largest.memberAnnotations.first as? PointAnnotation else { fatalError() }
func place(_ a: PointAnnotation) -> String {
  let c = a.coordinate
  return
    "\(a.title ?? "?") at \(c.latitude.formatted(digits: 4)), \(c.longitude.formatted(digits: 4))"
}
print("before: " + place(moved))
if map.beginDrag(of: moved) {
  map.drag(toColumn: map.columns / 2, row: 8)
  map.drag(byColumns: 2, rows: 0)
  map.endDrag()
}
print("after: " + place(moved))
show(map, "\(moved.title ?? "?") dragged")
print(delegate.heard.joined(separator: "\n"))

extension Double {
  /// The number with a fixed count of decimals.
  func formatted(digits: Int) -> String {
    let scale = (0..<digits).reduce(1.0) { r, _ in r * 10 }
    let whole = (self * scale).rounded() / scale
    return "\(whole)"
  }
}
