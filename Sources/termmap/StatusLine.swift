import DotRaster
import Foundation
import MapGeometry
import MapTiles
import TermMapKit

/// The line under the map: centre, zoom, scale bar, selection, loaded points, attribution.
@MainActor
enum StatusLine {
  /// The line, `columns` wide: position, zoom, scale bar, the selected marker and the loaded
  /// points, fitted by priority (`StatusLineLayout`: the selection stays longest, the point
  /// count goes first), and the credits, which always stay.
  static func text(
    for map: MapView, loadedPoints: Int, attribution: [String], columns: Int, ascii: Bool
  ) -> String {
    typealias Part = StatusLineLayout.Part
    let c = map.centerCoordinate
    let bar = ScaleBar(latitude: c.latitude, zoomScale: map.zoomScale)
    var parts = [
      Part(String(format: "%.5f, %.5f", c.latitude, c.longitude), priority: 1),
      Part(String(format: "z%.1f", map.zoomLevel), priority: 3),
      Part(bar.text(ascii: ascii), priority: 5),
    ]
    if let s = map.selectedAnnotations.first, let t = s.title {
      parts.append(Part(SafeText.clean(t), priority: 0))
    }
    if loadedPoints > 0 { parts.append(Part("\(loadedPoints) pts", priority: 6)) }
    if let note = Regions.noDataNote(
      at: MapPoint(c), zoom: map.zoomLevel, in: map.overlays, ascii: ascii)
    {
      parts.append(Part(note, priority: 4))
    }
    let separator = ascii ? " | " : " · "
    let fitted = StatusLineLayout.fit(
      parts, attribution: attribution.map(SafeText.clean), columns: columns, separator: separator,
      gap: separator.count)
    var line = fitted.left
    if !fitted.credits.isEmpty { line += separator + fitted.credits }
    let width = CellBuffer.displayWidth(of: line)
    if width > columns { line = CellBuffer.prefix(of: line, width: columns) }
    return line + String(repeating: " ", count: max(columns - CellBuffer.displayWidth(of: line), 0))
  }
}
