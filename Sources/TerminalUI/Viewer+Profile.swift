import DotRaster
import Foundation
import MapData
import MapGeometry
import TermMapKit

// The track tool's text and numbers, for its panels (ProfilePanel, LayerListPanel,
// MeasurePanel) and the colouring's legend.

extension Viewer {
  /// The colouring's legend (Viewer+Colouring) on the map's last row, unless a message or a
  /// panel (measuring, the search box) has the status line.
  func drawTrackStatus(into frame: inout CellBuffer) {
    guard message == nil, !panelTakesStatusLine else { return }
    if track.colouring != .file && map.rows >= 2 { drawLegend(into: &frame, row: map.rows - 1) }
  }

  /// The track tool's text as the charset can show it: in ASCII, its arrows, symbols and
  /// dashes become ASCII.
  func trackText(_ s: String) -> String {
    guard map.charset == .ascii else { return s }
    var out = s
    for (a, b) in [
      ("▸", ">"), ("◂", "<"), ("■", "#"), ("⌀", "avg"), ("↑", "up"), ("↓", "down"), ("←", "<-"),
      ("→", "->"), ("–", "-"), ("·", "|"), ("…", "..."), ("°", " deg"),
    ] {
      out = out.replacingOccurrences(of: a, with: b)
    }
    return out
  }

  nonisolated static func valueText(_ v: Double, _ channel: ProfileChannel) -> String {
    switch channel {
    case .speed: String(format: "%.1f %@", v, channel.unit)
    default: String(format: "%.0f %@", v, channel.unit)
    }
  }

  /// A value on the graph's axis, in the axis's width: "41.4 km/h" becomes "41 km/h", then
  /// "330" (the header names the channel).
  nonisolated static func axisLabel(_ v: Double, _ channel: ProfileChannel) -> String {
    let room = ProfileGraph.axisWidth - 1
    let full = valueText(v, channel)
    if full.count <= room { return full }
    let whole = String(format: "%.0f %@", v, channel.unit)
    if whole.count <= room { return whole }
    return String(format: "%.0f", v)
  }

  nonisolated static func durationText(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    if s >= 3600 { return "\(s / 3600) h \(s / 60 % 60) min" }
    if s >= 60 { return "\(s / 60) min \(s % 60) s" }
    return "\(s) s"
  }
}
