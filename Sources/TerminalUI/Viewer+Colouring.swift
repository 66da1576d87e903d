import DotRaster
import Foundation
import MapData
import MapGeometry
import TermMapKit

// Track colouring (`t` cycles): by file (each file its colour), or each leg of every track and
// route by the elevation, speed or time at its start, on one ramp from blue (low, early) to red
// (high, late) over the range of all loaded lines, with a legend in the status line.

extension Viewer {
  /// The ramp, low to high: xterm-256 colours from blue through green and yellow to red.
  nonisolated static let ramp: [TermColor] = [
    21, 27, 33, 39, 45, 49, 48, 46, 82, 118, 154, 190, 226, 220, 214, 208, 202, 196,
  ]
  .map { TermColor(UInt8($0)) }

  func cycleColouring() {
    let all = TrackColouring.allCases
    let next = all[(all.firstIndex(of: track.colouring)! + 1) % all.count]
    track.colouring = next
    applyColouring()
    if next == .file {
      show("colours: by file")
    } else if track.colouringRange == nil {
      show("colours: no \(next.rawValue) in the loaded tracks")
    }
  }

  /// The values of a line for the current colouring (nil: none).
  func colouringValues(_ line: MeasuredLine, profile: TrackProfile?) -> [Double]? {
    switch track.colouring {
    case .file: return nil
    case .elevation: return line.elevations.count == line.coordinates.count ? line.elevations : nil
    case .time: return line.times.count == line.coordinates.count ? line.times : nil
    case .speed:
      if line.speeds.count == line.coordinates.count { return line.speeds }
      guard line.times.count == line.coordinates.count, line.coordinates.count > 1 else {
        return nil
      }
      var v = [Double](repeating: .nan, count: line.coordinates.count)
      for k in 0..<(line.coordinates.count - 1) {
        let dt = line.times[k + 1] - line.times[k]
        if dt > 0 { v[k] = Geodesic.distance(line.coordinates[k], line.coordinates[k + 1]) / dt }
      }
      v[v.count - 1] = v[v.count - 2]
      return v
    }
  }

  /// Replaces the renderers of every visible track and route for the current colouring.
  func applyColouring() {
    var valuesByItem: [(overlay: any Overlay, lines: [MeasuredLine], values: [[Double]?])] = []
    var low = Double.infinity
    var high = -Double.infinity
    for file in track.files {
      for item in file.items where item.kind != .shapes && item.kind != .waypoints {
        guard let overlay = item.overlays.first else { continue }
        let values = item.lines.map { colouringValues($0, profile: nil) }
        for vs in values {
          for v in vs ?? [] where v.isFinite { low = min(low, v); high = max(high, v) }
        }
        valuesByItem.append((overlay, item.lines, values))
      }
    }
    track.colouringRange = low <= high ? low...high : nil
    var renderers: [ObjectIdentifier: GradientPolylineRenderer] = [:]
    if track.colouring != .file, let range = track.colouringRange {
      for entry in valuesByItem {
        // The kit's gradient renderer, by a value at each point on the ramp (missing: grey).
        let r: GradientPolylineRenderer
        if let multi = entry.overlay as? MultiPolyline {
          r = GradientPolylineRenderer(multiPolyline: multi)
        } else if let line = entry.overlay as? any LineOverlay {
          r = GradientPolylineRenderer(polyline: line)
        } else {
          continue
        }
        r.lineWidth = 1
        r.setColors(Viewer.ramp, values: entry.values.map { $0 ?? [] }, range: range)
        renderers[ObjectIdentifier(entry.overlay)] = r
      }
    }
    track.colouredRenderers = renderers
    // The map asks its delegate again for overlays added anew.
    for entry in valuesByItem where map.overlays.contains(where: { $0 === entry.overlay }) {
      map.removeOverlay(entry.overlay)
      map.addOverlay(entry.overlay)
    }
  }

  func colouredRenderer(for overlay: any Overlay) -> OverlayRenderer? {
    guard track.colouring != .file, let r = track.colouredRenderers[ObjectIdentifier(overlay)]
    else {
      return nil
    }
    r.alpha = routesShown ? 1 : 0
    return r
  }

  /// "elevation 722 m ██████ 1051 m" in the ramp's colours, at the right of the map's last row.
  func drawLegend(into frame: inout CellBuffer, row: Int) {
    let name = track.colouring.rawValue
    guard let range = track.colouringRange else { return }
    let low: String
    let high: String
    switch track.colouring {
    case .elevation:
      low = String(format: "%.0f m", range.lowerBound)
      high = String(format: "%.0f m", range.upperBound)
    case .speed:
      low = String(format: "%.1f km/h", range.lowerBound * 3.6)
      high = String(format: "%.1f km/h", range.upperBound * 3.6)
    case .time:
      low = Viewer.clock(range.lowerBound)
      high = Viewer.clock(range.upperBound)
    case .file: return
    }
    let ascii = map.charset == .ascii
    let text = " \(name) \(low) "
    let width =
      CellBuffer.displayWidth(of: text) + Viewer.ramp.count + CellBuffer.displayWidth(of: high) + 2
    // At the right end of the map's last row, just above the status line and any panel.
    let start = max(frame.columns - width, 0)
    var c = start
    c += frame.put(
      text, column: c, row: row, foreground: .brightWhite, background: .black, bold: true)
    for colour in Viewer.ramp where c < frame.columns {
      frame[c, row] = Cell(glyph: ascii ? "#" : "█", foreground: colour, background: .black)
      c += 1
    }
    _ = frame.put(
      " \(high) ", column: c, row: row, foreground: .brightWhite, background: .black, bold: true)
  }

  nonisolated static func clock(_ t: Double) -> String {
    let s = Int(t.rounded(.down)) % 86_400
    return String(format: "%02d:%02d", s / 3600, s / 60 % 60)
  }
}
