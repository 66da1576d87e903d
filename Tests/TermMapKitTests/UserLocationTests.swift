import DotRaster
import Foundation
import MapGeometry
import TermMapKit
import Testing

/// Records the user-location part of the delegate with the region changes, in order.
@MainActor
final class LocationDelegate: MapViewDelegate {
  var events: [String] = []
  func mapView(_ mapView: MapView, regionWillChangeAnimated animated: Bool) {
    events.append("will")
  }
  func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool) {
    events.append("did")
  }
  func mapViewWillStartLocatingUser(_ mapView: MapView) { events.append("willStartLocating") }
  func mapViewDidStopLocatingUser(_ mapView: MapView) { events.append("didStopLocating") }
  func mapView(_ mapView: MapView, didUpdate userLocation: UserLocation) {
    events.append("didUpdate")
  }
  func mapView(_ mapView: MapView, didFailToLocateUserWithError error: any Error) {
    events.append("didFail")
  }
  func mapView(_ mapView: MapView, didChange mode: UserTrackingMode, animated: Bool) {
    events.append("mode \(mode)")
  }
}

struct NoFix: Error {}

@MainActor
@Suite("User location: the model, the delegate order, following, the breadcrumb")
struct UserLocationTests {
  let helsinki = Coordinate(latitude: 60.1699, longitude: 24.9384)

  func map() -> (MapView, LocationDelegate) {
    let m = MapView(columns: 80, rows: 24)
    let d = LocationDelegate()
    m.delegate = d
    m.setCenter(helsinki, animated: false)
    m.setZoomLevel(16, animated: false)
    d.events.removeAll()
    return (m, d)
  }

  @Test("showsUserLocation, updates, failure and stopping, in MapKit's order")
  func delegateOrder() {
    let (m, d) = map()
    #expect(!m.isUserLocationVisible)
    m.showsUserLocation = true
    #expect(m.userLocation.isUpdating)
    m.updateUserLocation(Location(coordinate: helsinki, horizontalAccuracy: 8))
    #expect(m.isUserLocationVisible)
    #expect(m.annotations.contains { $0 === m.userLocation })
    m.failToLocateUser(NoFix())
    m.showsUserLocation = false
    #expect(!m.userLocation.isUpdating)
    #expect(!m.annotations.contains { $0 === m.userLocation })
    #expect(d.events == ["willStartLocating", "didUpdate", "didFail", "didStopLocating"])
    // Updates while not showing are not delivered.
    m.updateUserLocation(Location(coordinate: helsinki))
    #expect(d.events.count == 4)
  }

  @Test("following: one will/did pair per move, none while the position stays in the middle")
  func following() {
    let (m, d) = map()
    m.userTrackingMode = .follow
    #expect(m.showsUserLocation)
    #expect(d.events == ["willStartLocating", "mode follow"])
    d.events.removeAll()
    // A few metres: the position stays in the middle half, the map does not move.
    let near = Coordinate(latitude: 60.1700, longitude: 24.9385)
    m.updateUserLocation(Location(coordinate: near))
    #expect(d.events == ["didUpdate"])
    // Far off: one move, after the update.
    let far = Coordinate(latitude: 60.1760, longitude: 24.9500)
    m.updateUserLocation(Location(coordinate: far))
    #expect(d.events == ["didUpdate", "didUpdate", "will", "did"])
    #expect(m.isUserLocationVisible)
    #expect(m.centerCoordinate.distance(to: far) < 1)
  }

  @Test("a pan by hand drops tracking to .none inside the gesture; f cycles the modes")
  func panDropsTracking() {
    let (m, d) = map()
    m.updateUserLocation(Location(coordinate: helsinki))  // not showing: ignored
    m.setUserTrackingMode(.followWithHeading, animated: false)
    m.updateUserLocation(Location(coordinate: helsinki))
    d.events.removeAll()
    m.pan(byDotsX: 40, y: 0)
    #expect(m.userTrackingMode == .none)
    #expect(d.events == ["will", "mode none", "did"])
    #expect(UserTrackingMode.none.next == .follow)
    #expect(UserTrackingMode.follow.next == .followWithHeading)
    #expect(UserTrackingMode.followWithHeading.next == .none)
    // Zooming by hand keeps tracking.
    m.userTrackingMode = .follow
    m.zoom(byLevels: 1)
    #expect(m.userTrackingMode == .follow)
  }

  @Test("the marker points along the course; a dot when still")
  func marker() throws {
    let (m, _) = map()
    m.showsUserLocation = true
    m.updateUserLocation(Location(coordinate: helsinki, course: 90, speed: 3))
    let frame = m.renderFrame().text
    #expect(frame.contains("→"), "\(frame)")
    m.updateUserLocation(Location(coordinate: helsinki, course: 90, speed: 0))
    #expect(m.renderFrame().text.contains("◉"))
    #expect(UserLocationView.glyphs(heading: 0).0 == "↑")
    #expect(UserLocationView.glyphs(heading: 225).0 == "↙")
    #expect(UserLocationView.glyphs(heading: 350).0 == "↑")
  }

  @Test("the breadcrumb: each fix redraws only the tiles its new segment touches")
  func breadcrumbRedrawsOneTile() throws {
    let (m, _) = map()
    m.resize(columns: 160, rows: 48)
    let crumb = Breadcrumb()
    m.addOverlay(crumb)
    // A long track already drawn (a spiral through the screen and far beyond).
    for k in 0..<20_000 {
      let a = Double(k) * 0.01
      let r = 0.0005 + Double(k) * 0.000_002
      crumb.add(
        Coordinate(
          latitude: helsinki.latitude + r * sin(a), longitude: helsinki.longitude + r * cos(a) * 2))
    }
    _ = m.renderFrameWithStatistics()
    let renderer = try #require(m.renderer(for: crumb) as? BreadcrumbRenderer)
    _ = m.renderFrameWithStatistics()
    // A new walk starts where we are (a piece of its own).
    crumb.startNewPiece()
    var last = Coordinate(latitude: helsinki.latitude, longitude: helsinki.longitude)
    for step in 1...20 {
      // About 1.4 m a fix: a walk.
      let next = Coordinate(latitude: last.latitude + 0.000_012, longitude: last.longitude)
      let rect = try #require(crumb.add(next))
      renderer.invalidate(segment: rect)
      let (_, stats) = m.renderFrameWithStatistics()
      #expect(stats.tilesDrawn <= 2, "fix \(step): \(stats)")
      #expect(stats.tilesDrawn >= 1, "fix \(step): \(stats)")
      last = next
    }
    #expect(crumb.pointCount == 20_020)  // the first step's start was never added
    #expect(m.contentMapRect.contains(MapPoint(last)))
    #expect(!m.contentMapRect.contains(MapRect.world))
  }

  @Test("the breadcrumb draws what it holds, with its pieces apart")
  func breadcrumbDrawing() throws {
    let m = MapView(columns: 40, rows: 10)
    let crumb = Breadcrumb()
    m.addOverlay(crumb)
    crumb.add(Coordinate(latitude: 0, longitude: -10))
    crumb.add(Coordinate(latitude: 0, longitude: -1))
    crumb.startNewPiece()
    crumb.add(Coordinate(latitude: 0, longitude: 1))
    crumb.add(Coordinate(latitude: 0, longitude: 10))
    m.setVisibleMapRect(
      MapRect(bounding: [
        MapPoint(Coordinate(latitude: 1, longitude: -12)),
        MapPoint(Coordinate(latitude: -1, longitude: 12)),
      ]),
      animated: false)
    let row = m.renderFrame().text.split(separator: "\n").first {
      $0.contains("⠒") || $0.contains("⠉") || $0.contains("⣀") || $0.contains("⠤")
    }
    let line = try #require(row)
    // A gap in the middle, where the pieces are apart.
    let middle = line.count / 2
    let chars = Array(line)
    #expect(chars[middle] == " " || chars[middle - 1] == " ", "\(line)")
    #expect(chars[middle - 6] != " " && chars[middle + 6] != " ", "\(line)")
  }
}

extension Coordinate {
  func distance(to o: Coordinate) -> Double { Geodesic.distance(self, o) }
}
