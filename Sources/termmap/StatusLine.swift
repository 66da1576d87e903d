import Foundation
import MapGeometry
import MapTiles
import TermMapKit

/// The line under the map: centre, zoom, scale bar, selection, loaded points, attribution.
@MainActor
enum StatusLine {
  /// The line, `columns` wide. Position, zoom and scale bar come first; the credits (the
  /// `attribution` lines, shortened by `Attribution.fit`) get the rest of the line, at least
  /// `Attribution.minimumWidth`, and always stay: the other parts are cut instead.
  static func text(
    for map: MapView, loadedPoints: Int, attribution: [String], columns: Int, ascii: Bool
  ) -> String {
    let c = map.centerCoordinate
    let bar = ScaleBar(latitude: c.latitude, zoomScale: map.zoomScale)
    var parts = [
      String(format: "%.5f, %.5f", c.latitude, c.longitude),
      String(format: "z%.1f", map.zoomLevel),
      bar.text(ascii: ascii),
    ]
    let separator = ascii ? " | " : " · "
    let essential = parts.joined(separator: separator).count
    if let s = map.selectedAnnotations.first, let t = s.title { parts.append(t) }
    if loadedPoints > 0 { parts.append("\(loadedPoints) pts") }
    let credits = SafeText.clean(
      Attribution.fit(attribution, width: max(columns - essential - 3, Attribution.minimumWidth)))
    var line = SafeText.clean(parts.joined(separator: separator))
    let room = credits.isEmpty ? columns : columns - credits.count - separator.count
    if line.count > room { line = String(line.prefix(max(room - 1, 0))) + "…" }
    if !credits.isEmpty { line += separator + credits }
    if line.count > columns { line = String(line.prefix(columns)) }
    return line + String(repeating: " ", count: max(columns - line.count, 0))
  }
}
