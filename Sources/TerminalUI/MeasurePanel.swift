import DotRaster
import Foundation
import MapData
import MapGeometry
import TermMapKit

/// Measuring (`m`): a path of points from the centre (`m` or Enter) or from clicks on the map;
/// the status line shows its geodesic length (as `termmap info` measures a line) and the last
/// leg's length and bearing; Backspace takes the last point back, Esc ends (and the length
/// stays on the status line a while). The path is a dashed line on the map.
@MainActor
final class MeasurePanel: Panel {
  private(set) var points: [Coordinate] = []
  /// The drawn path, replaced as the points change.
  private(set) var overlay: GeodesicPolyline?

  var level: PanelLevel { .measure }
  func placement(totalRows: Int) -> PanelPlacement { .statusLine }

  func handle(_ event: InputEvent, viewer: Viewer) -> PanelResponse {
    let map = viewer.map
    switch event {
    case .character(let ch):
      switch ch {
      case "m", "\n", "\r": add(map.centerCoordinate, viewer: viewer)
      case "\u{1B}": return .close
      case "\u{7F}", "\u{08}": removeLast(viewer: viewer)
      default: return .ignored
      }
    case .key(let key):
      switch key {
      case .enter: add(map.centerCoordinate, viewer: viewer)
      case .backspace: removeLast(viewer: viewer)
      default: return .ignored
      }
    case .mouse(let m):
      // A click on the map (not the end of a drag) adds the point under it.
      guard m.action == .release || m.action == .click, viewer.drag.map({ !$0.moved }) ?? true,
        m.row < map.rows
      else { return .ignored }
      viewer.drag = nil
      add(map.coordinate(atColumn: m.column, row: m.row), viewer: viewer)
    case .resize:
      return .ignored
    }
    return .handled
  }

  func add(_ c: Coordinate, viewer: Viewer) {
    viewer.log(String(format: "measure point %.12f %.12f", c.latitude, c.longitude))
    points.append(c)
    updateOverlay(viewer: viewer)
  }

  func removeLast(viewer: Viewer) {
    guard !points.isEmpty else { return }
    points.removeLast()
    updateOverlay(viewer: viewer)
  }

  /// Ends measuring: the length stays on the status line for a while.
  func didClose(viewer: Viewer) {
    if points.count > 1 {
      viewer.show(
        viewer.measureStatus(points, keys: false, lead: "measured "), seconds: 8)
    }
    points = []
    updateOverlay(viewer: viewer)
  }

  func updateOverlay(viewer: Viewer) {
    if let old = overlay { viewer.map.removeOverlay(old) }
    overlay = nil
    guard points.count > 1 else { return }
    let line = GeodesicPolyline(coordinates: points, title: "measure")
    overlay = line
    viewer.map.addOverlay(line)
  }

  /// The length and the keys, on the status line (a message has it first).
  func draw(into frame: inout CellBuffer, area: CellRect, viewer: Viewer) {
    guard viewer.message == nil else { return }
    let row = area.row
    for c in 0..<area.columns {
      frame[c, row] = Cell(glyph: " ", foreground: .white, background: .brightBlack)
    }
    _ = frame.put(
      viewer.trackText(viewer.measureStatus(points)), column: 0, row: row,
      foreground: .brightWhite, background: .brightBlack, bold: true, maxWidth: area.columns)
  }

  /// The measure line's renderer: dashed, white over everything.
  func renderer(for overlay: any Overlay) -> OverlayRenderer? {
    guard let line = self.overlay, overlay === line else { return nil }
    let r = PolylineRenderer(polyline: line)
    r.strokeColor = .brightWhite
    r.lineWidth = 1
    return r
  }
}

extension Viewer {
  /// `m`: starts measuring at the centre (or, measuring, adds the centre).
  func startMeasuring() {
    let panel = panels.first(MeasurePanel.self) ?? MeasurePanel()
    open(panel)
    panel.add(map.centerCoordinate, viewer: self)
  }

  /// The measure line's renderer, when `overlay` is it.
  func measureRenderer(for overlay: any Overlay) -> OverlayRenderer? {
    panels.first(MeasurePanel.self)?.renderer(for: overlay)
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
}
