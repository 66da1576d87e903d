import DotRaster
import Foundation
import MapData
import MapGeometry
import TermMapKit

/// The profile panel (`p`): the profiled track's elevation (or speed, heart rate, cadence)
/// against distance in rows of its own under the map, its statistics beside it, a cursor tied
/// to a marker on the map. ← → (Shift: further) move the cursor, `v` changes the channel; the
/// mouse in the graph moves the cursor, a click on the track on the map too. The viewer keeps
/// this panel while it is closed: opened again, it shows the same track.
@MainActor
final class ProfilePanel: Panel {
  /// The profiled track (`TrackToolState.selection`), made when the panel first shows it.
  var profile: TrackProfile?
  /// The statistics `termmap info` prints for it.
  var stats: FileStatistics?
  var channel: ProfileChannel = .elevation
  /// The cursor's vertex.
  var cursor = 0
  /// Where the graph was drawn (for the mouse): first row, rows, first column, columns.
  var graphArea: (row: Int, rows: Int, column: Int, columns: Int)?
  /// A press in the graph is being dragged.
  var dragging = false

  var level: PanelLevel { .profile }
  func placement(totalRows: Int) -> PanelPlacement {
    .docked(rows: profile == nil ? 0 : ProfileGraph.panelRows(terminalRows: totalRows))
  }

  /// Shows `p`, its cursor at the start.
  func show(_ p: TrackProfile, stats: FileStatistics?) {
    profile = p
    self.stats = stats
    cursor = 0
    if !p.channels.contains(channel) { channel = p.channels.first ?? .elevation }
  }

  func handle(_ event: InputEvent, viewer: Viewer) -> PanelResponse {
    guard let p = profile else { return .ignored }
    switch event {
    case .character("v"):
      nextChannel()
      return .handled
    case .key(let key):
      let step = max(p.coordinates.count / 100, 1)
      switch key {
      case .left: moveCursor(to: cursor - 1, viewer: viewer)
      case .right: moveCursor(to: cursor + 1, viewer: viewer)
      case .shiftLeft: moveCursor(to: cursor - step * 10, viewer: viewer)
      case .shiftRight: moveCursor(to: cursor + step * 10, viewer: viewer)
      default: return .ignored
      }
      return .handled
    case .mouse(let m):
      return mouse(m, p, viewer: viewer)
    case .character, .resize:
      return .ignored
    }
  }

  func nextChannel() {
    guard let p = profile else { return }
    let channels = p.channels
    guard !channels.isEmpty else { return }
    let i = channels.firstIndex(of: channel) ?? -1
    channel = channels[(i + 1) % channels.count]
  }

  func moveCursor(to index: Int, viewer: Viewer) {
    guard let p = profile, !p.coordinates.isEmpty else { return }
    cursor = min(max(index, 0), p.coordinates.count - 1)
    // The marker stays on the map: it brings the map along when it would leave it.
    let map = viewer.map
    if map.viewport.cell(for: MapPoint(p.coordinates[cursor])) == nil {
      map.setCenter(p.coordinates[cursor], animated: false)
    }
  }

  /// The mouse in the graph moves the cursor (a press, a drag); anywhere else in the panel it
  /// does nothing. A click on the profiled track on the map moves the cursor to the nearest
  /// point and goes on to the map (it still ends a drag, closes a callout).
  func mouse(_ m: MouseEvent, _ p: TrackProfile, viewer: Viewer) -> PanelResponse {
    let map = viewer.map
    if let g = graphArea {
      let inGraph =
        m.row >= g.row && m.row < g.row + g.rows && m.column >= g.column
        && m.column < g.column + g.columns
      if (inGraph && (m.action == .press || m.action == .click))
        || (dragging && m.action == .motion)
      {
        dragging = m.action == .press
        let fraction = (Double(m.column - g.column) + 0.5) / Double(g.columns)
        moveCursor(to: p.index(atDistance: min(max(fraction, 0), 1) * p.length), viewer: viewer)
        viewer.pointer = nil
        return .handled
      }
      if dragging && (m.action == .release || m.action == .click) {
        dragging = false
        return .handled
      }
      // Anywhere in the panel (outside the graph) does nothing to the map.
      if m.row >= map.rows && m.row < viewer.rows - 1 { return .handled }
    }
    if m.action == .release || m.action == .click, viewer.drag.map({ !$0.moved }) ?? true,
      m.row < map.rows
    {
      // The nearest vertex of the profiled track within two cells of the click.
      let vp = map.viewport
      var best: (index: Int, distance: Int)?
      for (k, c) in p.coordinates.enumerated() {
        guard let cell = vp.cell(for: MapPoint(c)) else { continue }
        let d = abs(cell.column - m.column) + abs(cell.row - m.row) * 2
        if d <= 4 && (best == nil || d < best!.distance) { best = (k, d) }
      }
      if let b = best { cursor = b.index }
    }
    return .ignored
  }

  /// The header, the graph with its cursor and axes, the statistics beside it, and the
  /// cursor's marker on the map above.
  func draw(into frame: inout CellBuffer, area: CellRect, viewer: Viewer) {
    guard let p = profile else { return }
    let panelRows = area.rows
    guard panelRows > 0 else {
      graphArea = nil
      return
    }
    let top = area.row
    let map = viewer.map
    let ascii = map.charset == .ascii
    for r in top..<area.bottom {
      for c in 0..<frame.columns { frame[c, r] = Cell(glyph: " ", background: .black) }
    }
    // The header: what is plotted, of which track, and the keys.
    let channels = p.channels
    let channel = channels.contains(self.channel) ? self.channel : channels.first
    var header = "\(channel?.name ?? "no values") · \(p.title)"
    if channels.count > 1 {
      header += " · v: " + channels.filter { $0 != channel }.map(\.name).joined(separator: ", ")
    }
    header += " · ←→ cursor · p closes"
    _ = frame.put(
      viewer.trackText(header), column: 1, row: top, foreground: .brightCyan, background: .black,
      bold: true,
      maxWidth: frame.columns - 2)

    let axisWidth = ProfileGraph.axisWidth
    let (graphColumns, graphRows) = ProfileGraph.graphSize(columns: frame.columns, rows: frame.rows)
    let graphTop = top + 1
    let graphLeft = axisWidth
    guard graphColumns >= 8, graphRows >= 2 else {
      graphArea = nil
      return
    }
    graphArea = (graphTop, graphRows, graphLeft, graphColumns)
    let cursorIndex = min(cursor, p.coordinates.count - 1)
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
    var lines = statLines()
    lines.insert(cursorText(cursorIndex), at: 0)
    for (k, line) in lines.prefix(panelRows - 1).enumerated() {
      _ = frame.put(
        viewer.trackText(line), column: statsLeft, row: top + 1 + k,
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
    guard let p = profile else { return "" }
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
    guard let p = profile else { return nil }
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
  func statLines() -> [String] {
    guard let s = stats else { return [] }
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
}
