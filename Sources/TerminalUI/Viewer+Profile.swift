import DotRaster
import Foundation
import MapData
import MapGeometry
import TermMapKit

// The profile panel (`p`): the selected track's elevation (or speed, heart rate, cadence)
// against distance under the map, its statistics beside it, a cursor tied to a marker on
// the map.

extension Viewer {
  /// Rows the track tool's panel takes from the map (0 when closed).
  func trackPanelRows(totalRows: Int) -> Int {
    guard track.profileOpen, track.profile != nil else { return 0 }
    return ProfileGraph.panelRows(terminalRows: totalRows)
  }

  /// Draws the panel, the cursor's marker on the map and (when measuring) the measure line.
  func drawTrackTool(into frame: inout CellBuffer) {
    if track.profileOpen { drawProfilePanel(into: &frame) }
    if track.layersOpen { drawLayerList(into: &frame) }
  }

  /// The status line while measuring or colouring: drawn over the viewer's.
  func drawTrackStatus(into frame: inout CellBuffer) {
    guard message == nil, !panelTakesStatusLine else { return }
    let row = frame.rows - 1
    if let points = track.measuring {
      for c in 0..<frame.columns {
        frame[c, row] = Cell(glyph: " ", foreground: .white, background: .brightBlack)
      }
      _ = frame.put(
        trackText(measureStatus(points)), column: 0, row: row, foreground: .brightWhite,
        background: .brightBlack, bold: true, maxWidth: frame.columns)
      return
    }
    if track.colouring != .file && map.rows >= 2 { drawLegend(into: &frame, row: map.rows - 1) }
  }

  func drawProfilePanel(into frame: inout CellBuffer) {
    guard let p = track.profile else { return }
    let panelRows = trackPanelRows(totalRows: frame.rows)
    guard panelRows > 0 else {
      track.graphArea = nil
      return
    }
    let top = frame.rows - 1 - panelRows
    let ascii = map.charset == .ascii
    for r in top..<(frame.rows - 1) {
      for c in 0..<frame.columns { frame[c, r] = Cell(glyph: " ", background: .black) }
    }
    // The header: what is plotted, of which track, and the keys.
    let channels = p.channels
    let channel = channels.contains(track.channel) ? track.channel : channels.first
    var header = "\(channel?.name ?? "no values") · \(p.title)"
    if channels.count > 1 {
      header += " · v: " + channels.filter { $0 != channel }.map(\.name).joined(separator: ", ")
    }
    header += " · ←→ cursor · p closes"
    _ = frame.put(
      trackText(header), column: 1, row: top, foreground: .brightCyan, background: .black,
      bold: true,
      maxWidth: frame.columns - 2)

    let axisWidth = ProfileGraph.axisWidth
    let (graphColumns, graphRows) = ProfileGraph.graphSize(columns: frame.columns, rows: frame.rows)
    let graphTop = top + 1
    let graphLeft = axisWidth
    guard graphColumns >= 8, graphRows >= 2 else {
      track.graphArea = nil
      return
    }
    track.graphArea = (graphTop, graphRows, graphLeft, graphColumns)
    let cursorIndex = min(track.cursor, p.coordinates.count - 1)
    let cursorDistance = p.distances[cursorIndex]
    let cursorColumn =
      p.length > 0
      ? graphLeft + min(Int(cursorDistance / p.length * Double(graphColumns)), graphColumns - 1)
      : graphLeft
    if let channel, let values = p.values[channel], let range = p.ranges[channel] {
      let graph = ProfileGraph.cells(
        distances: p.distances, values: values, range: range, columns: graphColumns,
        rows: graphRows, color: .brightGreen, fillColor: .green, summary: p.summaries[channel])
      for r in 0..<graphRows {
        for c in 0..<graphColumns {
          var cell = graph[c, r]
          if ascii && cell.glyph != " " {
            cell = Cell(glyph: cell.foreground == .green ? "." : "*", foreground: cell.foreground)
          }
          frame[graphLeft + c, graphTop + r] = Cell(
            glyph: cell.glyph, foreground: cell.foreground ?? .green, background: .black)
        }
      }
      let topLabel = Viewer.axisLabel(channel.shown(range.upperBound), channel)
      let bottomLabel = Viewer.axisLabel(channel.shown(range.lowerBound), channel)
      _ = frame.put(
        topLabel, column: 0, row: graphTop, foreground: .white, background: .black,
        maxWidth: axisWidth - 1)
      _ = frame.put(
        bottomLabel, column: 0, row: graphTop + graphRows - 1, foreground: .white,
        background: .black,
        maxWidth: axisWidth - 1)
    }
    // The cursor: a column in the graph.
    for r in graphTop..<(graphTop + graphRows) {
      let cell = frame[cursorColumn, r]
      frame[cursorColumn, r] = Cell(
        glyph: cell.glyph == " " ? (ascii ? "|" : "│") : cell.glyph, foreground: .brightYellow,
        background: .blue)
    }
    // The distance axis.
    let axisRow = graphTop + graphRows
    _ = frame.put("0", column: graphLeft, row: axisRow, foreground: .white, background: .black)
    let end = Viewer.distanceText(p.length)
    _ = frame.put(
      end, column: graphLeft + graphColumns - CellBuffer.displayWidth(of: end), row: axisRow,
      foreground: .white, background: .black)
    // Statistics and the cursor's values beside the graph.
    let statsLeft = graphLeft + graphColumns + 2
    var lines = profileStatLines()
    lines.insert(cursorText(cursorIndex), at: 0)
    for (k, line) in lines.prefix(panelRows - 1).enumerated() {
      _ = frame.put(
        trackText(line), column: statsLeft, row: top + 1 + k,
        foreground: k == 0 ? .brightYellow : .white,
        background: .black, bold: k == 0, maxWidth: frame.columns - statsLeft)
    }
    // The marker on the map.
    if let cell = map.viewport.cell(for: MapPoint(p.coordinates[cursorIndex])), cell.row < top {
      frame[cell.column, cell.row] = Cell(
        glyph: ascii ? "@" : "◆", foreground: .brightYellow, background: .blue, bold: true)
    }
  }

  /// "▸ 3.42 km · 845 m · 12.1 km/h · 10:23:05"
  func cursorText(_ k: Int) -> String {
    guard let p = track.profile else { return "" }
    var parts = ["▸ " + Viewer.distanceText(p.distances[k])]
    for channel in p.channels {
      if let v = p.values[channel]?[k], v.isFinite {
        parts.append(Viewer.valueText(channel.shown(v), channel))
      }
    }
    if let t = time(at: k) { parts.append(t) }
    return parts.joined(separator: " · ")
  }

  /// The time of vertex `k` of the profile as HH:MM:SS UTC, if it has one.
  func time(at k: Int) -> String? {
    guard let p = track.profile else { return nil }
    var rest = k
    for line in p.lines where !line.coordinates.isEmpty {
      if rest < line.coordinates.count {
        guard line.times.count == line.coordinates.count, line.times[rest].isFinite else {
          return nil
        }
        let s = Int(line.times[rest].rounded(.down)) % 86_400
        return String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
      }
      rest -= line.coordinates.count
    }
    return nil
  }

  /// The statistics `termmap info` computes, for the profiled track.
  func profileStatLines() -> [String] {
    guard let s = track.profileStats else { return [] }
    var lines = ["distance  " + Viewer.distanceText(s.length)]
    if let e = s.elevationRange {
      lines.append(String(format: "elevation %.0f–%.0f m", e.lowerBound, e.upperBound))
      lines.append(
        String(format: "climb     ↑ %.0f m  ↓ %.0f m", s.ascent ?? .nan, s.descent ?? .nan))
    }
    if let t = s.timeSpan {
      lines.append("time      " + Viewer.durationText(t.upperBound - t.lowerBound))
    }
    if s.timeScreening.ignored > 0 {
      // The reasons are `termmap info`'s: the column is too narrow for them.
      lines.append("ignored   \(s.timeScreening.ignored) times")
    }
    if let m = s.movingTime { lines.append("moving    " + Viewer.durationText(m)) }
    if let v = s.movingSpeed, let top = s.maxSpeed {
      lines.append(String(format: "speed     ⌀ %.1f  max %.1f km/h", v * 3.6, top * 3.6))
    }
    if let h = s.heartRate {
      lines.append(String(format: "heart     ⌀ %.0f  max %.0f bpm", h.mean, h.maximum))
    }
    if let c = s.cadence {
      lines.append(String(format: "cadence   ⌀ %.0f  max %.0f rpm", c.mean, c.maximum))
    }
    return lines
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
