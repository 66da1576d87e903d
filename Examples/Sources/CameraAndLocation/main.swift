import Foundation
import TermMap

// Everyday MapKit calls through the public API: a camera move that is awaited until it has
// settled, hit testing a cell, selection heard by the delegate, and the user's location from a
// provider attached in one line.

final class Log: MapViewDelegate {
  var lines: [String] = []
  func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool) {
    lines.append("region did change (animated: \(animated))")
  }
  func mapView(_ mapView: MapView, didSelect annotation: any Annotation) {
    lines.append("selected \(annotation.title ?? "?")")
  }
  func mapView(_ mapView: MapView, didUpdate userLocation: UserLocation) {
    let c = userLocation.coordinate
    lines.append(String(format: "user at %.4f, %.4f", c.latitude, c.longitude))
  }
}

// (In a function: top-level code does not choose the async overloads.)
@MainActor func main() async throws {
  let map = MapView(columns: 64, rows: 16)
  let log = Log()
  map.delegate = log
  if let data = DataDirectory.locate() {  // the offline map in termmap's Data/ folder
    map.addOverlays(try OfflineMap.overlays(dataDirectory: data), level: .aboveRoads)
  }
  let harbour = PointAnnotation(
    coordinate: Coordinate(latitude: 43.7347, longitude: 7.4206), title: "Port Hercule")
  let palace = PointAnnotation(
    coordinate: Coordinate(latitude: 43.7314, longitude: 7.4197), title: "Palais princier")
  map.addAnnotations([harbour, palace])

  // The async form returns when the animation has settled.
  await map.setCamera(
    MapCamera(lookingAtCenter: harbour.coordinate, fromDistance: 4_000), animated: true)
  _ = map.renderFrame()

  // Which annotation is drawn in the harbour's cell? Then select it as a click would.
  let dot = map.convert(harbour.coordinate)
  let (column, row) = (Int(dot.x) / 2, Int(dot.y) / 4)
  let hit = map.annotations(atColumn: column, row: row).first
  print("at cell \(column),\(row): \(hit?.title ?? "nothing")")
  if let hit { map.selectAnnotation(hit, animated: false) }

  // The user's location from a GPS log that a logger writes (here, one fix written at once).
  let log0183 = FileManager.default.temporaryDirectory.appendingPathComponent("fix.nmea")
  try "$GPRMC,120000,A,4344.000,N,00725.000,E,0.0,0.0,251126,,*1A\r\n".write(
    to: log0183, atomically: true, encoding: .utf8)
  map.locationProvider = FileFollowProvider(path: log0183.path)
  for _ in 0..<250 where !map.isUserLocationVisible {
    try await Task.sleep(for: .milliseconds(20))
  }
  print(map.renderCompleteFrame().frame.lines.joined(separator: "\n"))
  print(log.lines.joined(separator: "\n"))
  map.locationProvider = nil
}

try await main()
