import Foundation
import MapGeometry
import TermMapKit

/// The line under the map: centre, zoom, scale bar, selection, loaded points, attribution.
@MainActor
enum StatusLine {
  /// Columns left for the credits after the position, zoom and scale bar (at least 16, what
  /// "© OpenStreetMap" needs).
  static func creditWidth(_ map: MapView, columns: Int, ascii: Bool) -> Int {
    let c = map.centerCoordinate
    let essential = [
      String(format: "%.5f, %.5f", c.latitude, c.longitude), String(format: "z%.1f", map.zoomLevel),
      ScaleBar(latitude: c.latitude, zoomScale: map.zoomScale).text(ascii: ascii),
    ].joined(separator: ascii ? " | " : " · ")
    return max(columns - essential.count - 3, 16)
  }

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
    if let s = map.selectedAnnotations.first, let t = s.title { parts.append(t) }
    if loadedPoints > 0 { parts.append("\(loadedPoints) pts") }
    let separator = ascii ? " | " : " · "
    func clean(_ s: String) -> String {
      String(
        s.unicodeScalars.filter { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }.map(
          Character.init))
    }
    // The credits always stay: the rest is cut to make room for them.
    let credits = clean(attribution.joined(separator: separator))
    var line = clean(parts.joined(separator: separator))
    let room = credits.isEmpty ? columns : columns - credits.count - separator.count
    if line.count > room { line = String(line.prefix(max(room - 1, 0))) + "…" }
    if !credits.isEmpty { line += separator + credits }
    if line.count > columns { line = String(line.prefix(columns)) }
    return line + String(repeating: " ", count: max(columns - line.count, 0))
  }
}
