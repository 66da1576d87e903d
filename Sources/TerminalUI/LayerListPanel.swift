import DotRaster
import Foundation
import MapData
import MapGeometry
import TermMapKit

/// The layer list (`L`): the loaded files and their tracks, routes, lines and markers, with
/// their colours, points and lengths, then the live layers (`--layer`) with their targets,
/// in a box over the map. ↑ ↓ (j k) choose, Space shows or hides (a live layer's row: its
/// markers, lines and trails), Enter profiles, `f` fits, Esc or `L` closes. The viewer keeps
/// this panel while it is closed: opened again, the same row is chosen.
@MainActor
final class LayerListPanel: Panel {
  /// The chosen row.
  var row = 0

  var level: PanelLevel { .layers }
  func placement(totalRows: Int) -> PanelPlacement { .overMap }

  /// A row of the list: a file (`item` nil) or one of its items, or a live layer.
  enum Row: Equatable {
    case file(Int, item: Int?)
    case live(Int)
  }

  /// The rows of the list: each file and its items, then each live layer.
  func listRows(_ viewer: Viewer) -> [Row] {
    var rows: [Row] = []
    for (f, file) in viewer.track.files.enumerated() {
      rows.append(.file(f, item: nil))
      for i in file.items.indices { rows.append(.file(f, item: i)) }
    }
    for l in viewer.liveLayers.layers.indices { rows.append(.live(l)) }
    return rows
  }

  /// Every key but `q` (which quits from here too) is the list's; the mouse does nothing
  /// while it is open.
  func handle(_ event: InputEvent, viewer: Viewer) -> PanelResponse {
    let count = listRows(viewer).count
    switch event {
    case .character(let ch):
      switch ch {
      case "\u{1B}", "L": return .close
      case "j": row = min(row + 1, max(count - 1, 0))
      case "k": row = max(row - 1, 0)
      case " ": toggle(viewer)
      case "\n", "\r": profile(viewer)
      case "f": fit(viewer)
      case "q", "Q": return .ignored
      default: break
      }
    case .key(let key):
      switch key {
      case .down: row = min(row + 1, max(count - 1, 0))
      case .up: row = max(row - 1, 0)
      case .enter: profile(viewer)
      default: break
      }
    case .mouse:
      break
    case .resize:
      return .ignored
    }
    return .handled
  }

  /// Space: shows or hides the row's item (a file's row: all its items).
  func toggle(_ viewer: Viewer) {
    let rows = listRows(viewer)
    guard rows.indices.contains(row) else { return }
    let (f, item): (Int, Int?)
    switch rows[row] {
    case .live(let l):
      viewer.setLiveLayer(l, shown: !viewer.isLiveLayerShown(l))
      return
    case .file(let a, let b): (f, item) = (a, b)
    }
    let file = viewer.track.files[f]
    let map = viewer.map
    let indices = item.map { [$0] } ?? Array(file.items.indices)
    // A file row: all on unless all are on already.
    let show = item.map { !file.items[$0].visible } ?? !file.items.allSatisfy(\.visible)
    for i in indices where file.items[i].visible != show {
      file.items[i].visible = show
      let item = file.items[i]
      if show {
        for o in item.overlays { map.addOverlay(o) }
        map.addAnnotations(item.annotations)
      } else {
        map.removeOverlays(item.overlays)
        map.removeAnnotations(item.annotations)
      }
    }
  }

  /// Enter: closes the list and shows the row's track (a file's row: its first) in the
  /// profile.
  func profile(_ viewer: Viewer) {
    let rows = listRows(viewer)
    guard rows.indices.contains(row) else { return }
    guard case .file(let f, let item) = rows[row] else {
      viewer.show("no track or line to profile there")
      return
    }
    let items = viewer.track.files[f].items
    guard let i = item ?? items.firstIndex(where: \.canProfile), items[i].canProfile else {
      viewer.show("no track or line to profile there")
      return
    }
    viewer.selectForProfile(file: f, item: i)
    viewer.close(self)
    viewer.open(viewer.profilePanel)
    viewer.fitProfiledTrack()
  }

  /// `f`: closes the list and fits the map to the row's item (a file's row: the file).
  func fit(_ viewer: Viewer) {
    let rows = listRows(viewer)
    guard rows.indices.contains(row) else { return }
    var rect = MapRect.null
    switch rows[row] {
    case .live(let l):
      rect = viewer.liveLayerMapRect(l)
    case .file(let f, let item):
      let file = viewer.track.files[f]
      let items = item.map { [file.items[$0]] } ?? file.items
      for item in items {
        for o in item.overlays { rect = rect.union(o.boundingMapRect) }
        for a in item.annotations {
          rect = rect.union(
            MapRect(origin: MapPoint(a.coordinate), size: MapSize(width: 0, height: 0)))
        }
      }
    }
    guard !rect.isNull else { return }
    viewer.close(self)
    viewer.map.setVisibleMapRect(
      rect, edgePadding: EdgeInsets(top: 8, left: 8, bottom: 8, right: 8), animated: true)
  }

  /// A box centred over the map: a row for each file and each of its items, the chosen one
  /// highlighted, the keys at the bottom.
  func draw(into frame: inout CellBuffer, area: CellRect, viewer: Viewer) {
    let track = viewer.track
    for file in track.files {
      for i in file.items.indices where file.items[i].length == nil {
        file.items[i].length = TrackMeasures.measure(file.items[i].lines).length
      }
    }
    let rows = listRows(viewer)
    var lines: [(text: String, color: TermColor?, marked: Bool)] = []
    for r in rows {
      guard case .file(let f, let item) = r else {
        if case .live(let l) = r { lines.append(viewer.liveLayerListLine(l)) }
        continue
      }
      let file = track.files[f]
      if let i = item {
        let it = file.items[i]
        let profiled = track.selection.map { $0.file == f && $0.item == i } ?? false
        var text = "  [\(it.visible ? "x" : " ")] \(it.kind.rawValue)  \(it.title)"
        if it.kind != .waypoints && it.kind != .shapes {
          text += "  \(it.points) pts  \(Viewer.distanceText(it.length ?? 0))"
        }
        if profiled { text += "  ◂ profile" }
        lines.append((text, nil, profiled))
      } else {
        let visible =
          file.items.allSatisfy(\.visible) ? "x" : file.items.contains(where: \.visible) ? "-" : " "
        let points = file.items.filter { $0.kind != .waypoints }.reduce(0) { $0 + $1.points }
        let length = file.items.reduce(0) { $0 + ($1.length ?? 0) }
        lines.append(
          (
            "■ [\(visible)] \(file.name)  \(file.format.displayName)  \(points) pts  \(Viewer.distanceText(length))",
            file.color, false
          ))
      }
    }
    if lines.isEmpty { lines.append(("no files loaded", nil, false)) }
    let footer = "↑↓ choose · Space on/off · Enter profile · f fit · Esc closes"
    let ascii = viewer.map.charset == .ascii
    let width = min(
      max(
        lines.map { CellBuffer.displayWidth(of: $0.text) }.max() ?? 0,
        CellBuffer.displayWidth(of: footer)) + 4,
      frame.columns)
    let height = min(lines.count + 4, area.rows)
    let left = max((frame.columns - width) / 2, 0)
    let top = area.row + max((area.rows - height) / 2, 0)
    for r in top..<(top + height) {
      for c in left..<min(left + width, frame.columns) {
        var g: Unicode.Scalar = " "
        if r == top || r == top + height - 1 { g = ascii ? "-" : "─" }
        if c == left || c == left + width - 1 { g = ascii ? "|" : "│" }
        if (r == top || r == top + height - 1) && (c == left || c == left + width - 1) {
          g = ascii ? "+" : (r == top ? (c == left ? "┌" : "┐") : (c == left ? "└" : "┘"))
        }
        frame[c, r] = Cell(glyph: g, foreground: .brightWhite, background: .black)
      }
    }
    frame.put(
      " layers ", column: left + 2, row: top, foreground: .brightCyan, background: .black,
      bold: true)
    let visibleLines = height - 4
    let first = max(0, min(row - visibleLines + 1, lines.count - visibleLines))
    for (k, line) in lines.enumerated().dropFirst(first).prefix(visibleLines) {
      let y = top + 1 + k - first
      let selected = k == row
      let background: TermColor = selected ? .blue : .black
      for c in (left + 1)..<(left + width - 1) {
        frame[c, y] = Cell(glyph: " ", background: background)
      }
      let text = viewer.trackText(line.text)
      _ = frame.put(
        text, column: left + 2, row: y, foreground: .white, background: background,
        bold: selected,
        maxWidth: width - 4)
      if let color = line.color {
        frame[left + 2, y] = Cell(
          glyph: ascii ? "#" : "■", foreground: color, background: background)
      }
    }
    _ = frame.put(
      viewer.trackText(footer), column: left + 2, row: top + height - 2, foreground: .brightBlack,
      background: .black,
      maxWidth: width - 4)
  }
}
