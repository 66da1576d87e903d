import DotRaster
import Foundation
import MapData
import MapGeometry
import TermMapKit

// Measuring (`m`): a path of points from the centre (`m` or Enter) or from clicks; the status
// line shows its geodesic length (as `termmap info` measures a line) and the last leg's
// length and bearing; Backspace takes the last point back, Esc ends.

extension Viewer {
  func startMeasuring() {
    if track.measuring == nil { track.measuring = [] }
    addMeasurePoint(map.centerCoordinate)
  }

  func addMeasurePoint(_ c: Coordinate) {
    log(String(format: "measure point %.12f %.12f", c.latitude, c.longitude))
    track.measuring = (track.measuring ?? []) + [c]
    updateMeasureOverlay()
  }

  /// Keys while measuring; true when used.
  func measureCharacter(_ ch: Character) -> Bool {
    switch ch {
    case "m", "\n", "\r":
      addMeasurePoint(map.centerCoordinate)
    case "\u{1B}":
      endMeasuring()
    case "\u{7F}", "\u{08}":
      removeLastMeasurePoint()
    default: return false
    }
    return true
  }

  func measureKey(_ key: Key) -> Bool {
    switch key {
    case .enter: addMeasurePoint(map.centerCoordinate)
    case .backspace: removeLastMeasurePoint()
    default: return false
    }
    return true
  }

  func removeLastMeasurePoint() {
    guard var points = track.measuring, !points.isEmpty else { return }
    points.removeLast()
    track.measuring = points
    updateMeasureOverlay()
  }

  func endMeasuring() {
    if let points = track.measuring, points.count > 1 {
      show(measureStatus(points, keys: false, lead: "measured "), seconds: 8)
    }
    track.measuring = nil
    updateMeasureOverlay()
  }

  /// The drawn path: a geodesic polyline over the points, replaced as they change.
  func updateMeasureOverlay() {
    if let old = track.measureOverlay { map.removeOverlay(old) }
    track.measureOverlay = nil
    guard let points = track.measuring, points.count > 1 else { return }
    let line = GeodesicPolyline(coordinates: points, title: "measure")
    track.measureOverlay = line
    map.addOverlay(line)
  }

  /// "measure: 3 points · 1.234 km · last leg 432.1 m at 45.0° · …"
  func measureStatus(_ points: [Coordinate], keys: Bool = true, lead: String = "measure: ")
    -> String
  {
    let length = Geodesic.length(of: points)
    var parts = [
      "\(points.count) point\(points.count == 1 ? "" : "s")", Viewer.preciseDistance(length),
    ]
    if points.count > 1 {
      let leg = Geodesic.inverse(points[points.count - 2], points[points.count - 1])
      let bearing = (leg.initialAzimuth + 360).truncatingRemainder(dividingBy: 360)
      parts.append(
        "last leg \(Viewer.preciseDistance(leg.distance)) at \(String(format: "%.1f°", bearing))")
    }
    var text = lead + parts.joined(separator: " · ")
    if keys { text += " · m/Enter adds the centre, click adds, Backspace undoes, Esc ends" }
    return text
  }

  /// Metres with a decimal, or kilometres with three (the precision `termmap info` gives).
  nonisolated static func preciseDistance(_ m: Double) -> String {
    m >= 1000 ? String(format: "%.3f km", m / 1000) : String(format: "%.1f m", m)
  }

  /// The measure line's renderer: dashed, white over everything.
  func measureRenderer(for overlay: any Overlay) -> OverlayRenderer? {
    guard let line = track.measureOverlay, overlay === line else { return nil }
    let r = PolylineRenderer(polyline: line)
    r.strokeColor = .brightWhite
    r.lineWidth = 1
    return r
  }
}
