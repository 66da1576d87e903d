import TermMap
import Testing

/// Summits drawn with a view class of their own, dequeued for reuse (the delegate of the
/// "Annotation views and reuse" article).
@MainActor
final class SummitViews: MapViewDelegate {
  func mapView(_ mapView: MapView, viewFor annotation: any Annotation) -> AnnotationView? {
    let view = try? mapView.dequeueReusableAnnotationView(
      withIdentifier: "summit", for: annotation)
    view?.glyph = "▲"
    view?.color = .brightWhite
    return view
  }
}

@Suite("Annotation views and reuse, as the article shows")
@MainActor
struct AnnotationViewArticleTests {
  @Test("views of a registered class come from the reuse queue once they have left the screen")
  func summitsAreReused() throws {
    let map = MapView(columns: 60, rows: 16)
    let views = SummitViews()
    map.delegate = views
    map.register(AnnotationView.self, forAnnotationViewWithReuseIdentifier: "summit")
    let triglav = PointAnnotation(
      coordinate: Coordinate(latitude: 46.3783, longitude: 13.8367), title: "Triglav")
    let stol = PointAnnotation(
      coordinate: Coordinate(latitude: 46.4344, longitude: 14.1744), title: "Stol")
    map.addAnnotations([triglav, stol])
    map.setRegion(
      CoordinateRegion(
        center: triglav.coordinate, span: CoordinateSpan(latitudeDelta: 0.05, longitudeDelta: 0.1)),
      animated: false)
    let frame = map.renderFrame()
    let p = map.convert(triglav.coordinate)
    let cell = frame[Int(p.x) / 2, Int(p.y) / 4]
    #expect(cell.glyph == "▲")
    #expect(cell.foreground == .brightWhite)
    let triglavView = try #require(map.view(for: triglav))
    #expect(map.view(for: stol) == nil)
    // Over to Stol: Triglav's view goes to the queue, and Stol gets that same view back.
    map.setCenter(stol.coordinate, animated: false)
    _ = map.renderFrame()
    #expect(map.view(for: triglav) == nil)
    #expect(map.view(for: stol) === triglavView)
    #expect(triglavView.reuseCount == 1)
    #expect(map.queuedViewCount(withIdentifier: "summit") == 0)
  }
}
