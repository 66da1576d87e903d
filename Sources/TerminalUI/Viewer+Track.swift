import DotRaster
import Foundation
import MapData
import MapGeometry
import TermMapKit

// The viewer as a track tool (issue 13): the profile panel (`p`), the layer list (`L`),
// measuring (`m`) and track colouring (`t`). Its state lives in `Viewer.track`. The keys that
// open them are in the key table (KeyBindings.swift); the keys inside them (the layer list's,
// the profile cursor's, measuring's) are handled here before the table (`handleTrackEvent`).

/// One loaded file in the layer list.
final class LoadedFile {
  let path: String
  let name: String
  let format: DataFormat
  let color: TermColor
  var items: [LayerItem]

  init(path: String, name: String, format: DataFormat, color: TermColor, items: [LayerItem]) {
    self.path = path
    self.name = name
    self.format = format
    self.color = color
    self.items = items
  }
}

/// A track, a route, another line or a file's markers, as the layer list shows them.
struct LayerItem {
  enum Kind: String { case track, route, line, shapes, waypoints }
  var kind: Kind
  var title: String
  var overlays: [any Overlay] = []
  var annotations: [PointAnnotation] = []
  var lines: [MeasuredLine] = []
  var points: Int
  /// Metres along its lines; measured when the layer list first shows it (a million-point
  /// track takes a moment: not at every load).
  var length: Double?
  var visible = true

  var canProfile: Bool { !lines.isEmpty && lines.contains { $0.coordinates.count > 1 } }
}

/// How routes and tracks are coloured (`t` cycles).
enum TrackColouring: String, CaseIterable {
  case file, elevation, speed, time
}

/// Everything the track tool keeps between frames.
struct TrackToolState {
  var files: [LoadedFile] = []
  // Profile panel
  var profileOpen = false
  var selection: (file: Int, item: Int)?
  var profile: TrackProfile?
  var profileStats: FileStatistics?
  var channel: ProfileChannel = .elevation
  var cursor = 0
  /// Where the panel's graph was drawn (for the mouse): first row, rows, first column, columns.
  var graphArea: (row: Int, rows: Int, column: Int, columns: Int)?
  var profileDrag = false
  // Layer list
  var layersOpen = false
  var layerRow = 0
  // Measuring
  var measuring: [Coordinate]?
  var measureOverlay: GeodesicPolyline?
  // Colouring
  var colouring: TrackColouring = .file
  var colouredRenderers: [ObjectIdentifier: ValueColouredRenderer] = [:]
  var colouringRange: ClosedRange<Double>?
}

extension Viewer {
  // MARK: Loading

  /// Takes note of a loaded file for the layer list (called as it goes on the map; the file's
  /// colour is the one the styler gives it).
  func trackLoaded(_ content: MapContent) {
    let color = ContentStyler.fileColors[track.files.count % ContentStyler.fileColors.count]
    var items: [LayerItem] = []
    var lineIndex = 0
    var polygons: [any Overlay] = []
    for o in content.overlays {
      let count: Int
      switch o {
      case let m as MultiPolyline: count = m.polylines.count
      case is Polyline, is GeodesicPolyline: count = 1
      default:
        polygons.append(o)
        continue
      }
      let lines = Array(content.lines[lineIndex..<min(lineIndex + count, content.lines.count)])
      lineIndex += count
      let kind: LayerItem.Kind =
        lines.first?.kind == .trackSegment ? .track : lines.first?.kind == .route ? .route : .line
      let title = o.title ?? lines.first?.title ?? "\(kind.rawValue) \(items.count + 1)"
      items.append(
        LayerItem(
          kind: kind, title: SafeText.clean(title), overlays: [o], lines: lines,
          points: lines.reduce(0) { $0 + $1.coordinates.count },
          length: nil))
    }
    if !polygons.isEmpty {
      items.append(
        LayerItem(
          kind: .shapes, title: "\(polygons.count) shape\(polygons.count == 1 ? "" : "s")",
          overlays: polygons, points: 0, length: 0))
    }
    if !content.annotations.isEmpty {
      items.append(
        LayerItem(
          kind: .waypoints,
          title: "\(content.annotations.count) marker\(content.annotations.count == 1 ? "" : "s")",
          annotations: content.annotations, points: content.annotations.count, length: 0))
    }
    let name = SafeText.clean((content.path as NSString).lastPathComponent)
    track.files.append(
      LoadedFile(
        path: content.path, name: name, format: content.format, color: color, items: items))
    if track.selection == nil { selectFirstTrack() }
    if track.colouring != .file { applyColouring() }
  }

  /// Chooses the first track (else line) that can be profiled; its profile is made when the
  /// panel opens (a long track's distances take a while: not at every load).
  func selectFirstTrack() {
    for kinds in [[LayerItem.Kind.track], [.route, .line]] {
      for (f, file) in track.files.enumerated() {
        if let i = file.items.firstIndex(where: { kinds.contains($0.kind) && $0.canProfile }) {
          track.selection = (f, i)
          return
        }
      }
    }
  }

  func selectForProfile(file: Int, item: Int) {
    if let s = track.selection, s.file == file, s.item == item, track.profile != nil { return }
    let it = track.files[file].items[item]
    guard it.canProfile, let p = TrackProfile(title: it.title, lines: it.lines) else { return }
    track.selection = (file, item)
    track.profile = p
    track.profileStats = p.statistics(path: track.files[file].path)
    track.cursor = 0
    if !p.channels.contains(track.channel) { track.channel = p.channels.first ?? .elevation }
  }

  // MARK: Input

  /// Handles an event for the track tool; true when it was used up.
  func handleTrackEvent(_ event: InputEvent) -> Bool {
    switch event {
    case .character(let ch):
      if track.layersOpen { return layerListCharacter(ch) }
      if track.measuring != nil, measureCharacter(ch) { return true }
      switch ch {
      case "v" where track.profileOpen:
        nextChannel()
        return true
      default: return false
      }
    case .key(let key):
      if track.layersOpen { return layerListKey(key) }
      if track.measuring != nil, measureKey(key) { return true }
      guard track.profileOpen, let p = track.profile else { return false }
      let step = max(p.coordinates.count / 100, 1)
      switch key {
      case .left: moveCursor(to: track.cursor - 1)
      case .right: moveCursor(to: track.cursor + 1)
      case .shiftLeft: moveCursor(to: track.cursor - step * 10)
      case .shiftRight: moveCursor(to: track.cursor + step * 10)
      default: return false
      }
      return true
    case .mouse(let m):
      return trackMouse(m)
    case .resize:
      return false
    }
  }

  func openLayerList() {
    track.layersOpen = true
    track.layerRow = min(track.layerRow, max(layerRows().count - 1, 0))
  }

  func toggleProfile() {
    if track.profileOpen {
      track.profileOpen = false
      return
    }
    if track.selection == nil { selectFirstTrack() }
    if track.profile == nil, let s = track.selection {
      selectForProfile(file: s.file, item: s.item)
    }
    guard track.profile != nil else {
      show(
        pendingLoads > 0
          ? "no track yet: the files are still loading" : "no track or route to profile")
      return
    }
    track.profileOpen = true
    fitProfiledTrack()
  }

  /// Shows the whole profiled track in the map above the panel.
  func fitProfiledTrack() {
    guard let sel = track.selection else { return }
    let rows = screen.rows - 1 - trackPanelRows(totalRows: screen.rows)
    if rows >= 1 && screen.columns >= 1 && (map.rows != rows || map.columns != screen.columns) {
      map.resize(columns: screen.columns, rows: rows)
    }
    var rect = MapRect.null
    for o in track.files[sel.file].items[sel.item].overlays { rect = rect.union(o.boundingMapRect) }
    guard !rect.isNull else { return }
    map.setVisibleMapRect(
      rect, edgePadding: EdgeInsets(top: 4, left: 4, bottom: 4, right: 4), animated: false)
  }

  func nextChannel() {
    guard let p = track.profile else { return }
    let channels = p.channels
    guard !channels.isEmpty else { return }
    let i = channels.firstIndex(of: track.channel) ?? -1
    track.channel = channels[(i + 1) % channels.count]
  }

  func moveCursor(to index: Int) {
    guard let p = track.profile, !p.coordinates.isEmpty else { return }
    track.cursor = min(max(index, 0), p.coordinates.count - 1)
    // The marker stays on the map: it brings the map along when it would leave it.
    if map.viewport.cell(for: MapPoint(p.coordinates[track.cursor])) == nil {
      map.setCenter(p.coordinates[track.cursor], animated: false)
    }
  }

  /// Mouse in the panel moves the cursor; a click on the selected track on the map too.
  func trackMouse(_ m: MouseEvent) -> Bool {
    if track.layersOpen { return true }
    if track.profileOpen, let g = track.graphArea, let p = track.profile {
      let inGraph =
        m.row >= g.row && m.row < g.row + g.rows && m.column >= g.column
        && m.column < g.column + g.columns
      if (inGraph && (m.action == .press || m.action == .click))
        || (track.profileDrag && m.action == .motion)
      {
        track.profileDrag = m.action == .press
        let fraction = (Double(m.column - g.column) + 0.5) / Double(g.columns)
        moveCursor(to: p.index(atDistance: min(max(fraction, 0), 1) * p.length))
        pointer = nil
        return true
      }
      if track.profileDrag && (m.action == .release || m.action == .click) {
        track.profileDrag = false
        return true
      }
      // Anywhere in the panel (outside the graph) does nothing to the map.
      if m.row >= map.rows && m.row < screen.rows - 1 { return true }
    }
    if track.measuring != nil, m.action == .release || m.action == .click,
      drag.map({ !$0.moved }) ?? true, m.row < map.rows
    {
      drag = nil
      addMeasurePoint(map.coordinate(atColumn: m.column, row: m.row))
      return true
    }
    if track.profileOpen, m.action == .release || m.action == .click,
      drag.map({ !$0.moved }) ?? true,
      m.row < map.rows, let p = track.profile
    {
      // The nearest vertex of the profiled track within two cells of the click.
      let vp = map.viewport
      var best: (index: Int, distance: Int)?
      for (k, c) in p.coordinates.enumerated() {
        guard let cell = vp.cell(for: MapPoint(c)) else { continue }
        let d = abs(cell.column - m.column) + abs(cell.row - m.row) * 2
        if d <= 4 && (best == nil || d < best!.distance) { best = (k, d) }
      }
      if let b = best {
        track.cursor = b.index
        return false  // the viewer still handles the click (it ends a drag, closes callouts)
      }
    }
    return false
  }

  // MARK: Layer list

  /// The rows of the layer list: a file, or one of its items.
  func layerRows() -> [(file: Int, item: Int?)] {
    var rows: [(file: Int, item: Int?)] = []
    for (f, file) in track.files.enumerated() {
      rows.append((f, nil))
      for i in file.items.indices { rows.append((f, i)) }
    }
    return rows
  }

  func layerListCharacter(_ ch: Character) -> Bool {
    let rows = layerRows()
    switch ch {
    case "\u{1B}", "L": track.layersOpen = false
    case "j": track.layerRow = min(track.layerRow + 1, max(rows.count - 1, 0))
    case "k": track.layerRow = max(track.layerRow - 1, 0)
    case " ": toggleLayer()
    case "\n", "\r": profileLayer()
    case "f": fitLayer()
    case "q", "Q": return false
    default: break
    }
    return true
  }

  func layerListKey(_ key: Key) -> Bool {
    let rows = layerRows()
    switch key {
    case .down: track.layerRow = min(track.layerRow + 1, max(rows.count - 1, 0))
    case .up: track.layerRow = max(track.layerRow - 1, 0)
    case .enter: profileLayer()
    default: break
    }
    return true
  }

  func toggleLayer() {
    let rows = layerRows()
    guard rows.indices.contains(track.layerRow) else { return }
    let r = rows[track.layerRow]
    let file = track.files[r.file]
    let indices = r.item.map { [$0] } ?? Array(file.items.indices)
    // A file row: all on unless all are on already.
    let show = r.item.map { !file.items[$0].visible } ?? !file.items.allSatisfy(\.visible)
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

  func profileLayer() {
    let rows = layerRows()
    guard rows.indices.contains(track.layerRow) else { return }
    let r = rows[track.layerRow]
    let items = track.files[r.file].items
    guard let i = r.item ?? items.firstIndex(where: \.canProfile), items[i].canProfile else {
      show("no track or line to profile there")
      return
    }
    selectForProfile(file: r.file, item: i)
    track.layersOpen = false
    track.profileOpen = true
    fitProfiledTrack()
  }

  func fitLayer() {
    let rows = layerRows()
    guard rows.indices.contains(track.layerRow) else { return }
    let r = rows[track.layerRow]
    let file = track.files[r.file]
    let items = r.item.map { [file.items[$0]] } ?? file.items
    var rect = MapRect.null
    for item in items {
      for o in item.overlays { rect = rect.union(o.boundingMapRect) }
      for a in item.annotations {
        rect = rect.union(
          MapRect(origin: MapPoint(a.coordinate), size: MapSize(width: 0, height: 0)))
      }
    }
    guard !rect.isNull else { return }
    track.layersOpen = false
    map.setVisibleMapRect(
      rect, edgePadding: EdgeInsets(top: 8, left: 8, bottom: 8, right: 8), animated: true)
  }

  func drawLayerList(into frame: inout CellBuffer) {
    for file in track.files {
      for i in file.items.indices where file.items[i].length == nil {
        file.items[i].length = TrackMeasures.measure(file.items[i].lines).length
      }
    }
    let rows = layerRows()
    var lines: [(text: String, color: TermColor?, marked: Bool)] = []
    for r in rows {
      let file = track.files[r.file]
      if let i = r.item {
        let it = file.items[i]
        let profiled = track.selection.map { $0.file == r.file && $0.item == i } ?? false
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
    let ascii = map.charset == .ascii
    let width = min(
      max(
        lines.map { CellBuffer.displayWidth(of: $0.text) }.max() ?? 0,
        CellBuffer.displayWidth(of: footer)) + 4,
      frame.columns)
    let height = min(lines.count + 4, frame.rows - 1)
    let left = max((frame.columns - width) / 2, 0)
    let top = max((frame.rows - 1 - height) / 2, 0)
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
    let first = max(0, min(track.layerRow - visibleLines + 1, lines.count - visibleLines))
    for (k, line) in lines.enumerated().dropFirst(first).prefix(visibleLines) {
      let row = top + 1 + k - first
      let selected = k == track.layerRow
      let background: TermColor = selected ? .blue : .black
      for c in (left + 1)..<(left + width - 1) {
        frame[c, row] = Cell(glyph: " ", background: background)
      }
      let text = trackText(line.text)
      _ = frame.put(
        text, column: left + 2, row: row, foreground: .white, background: background,
        bold: selected,
        maxWidth: width - 4)
      if let color = line.color {
        frame[left + 2, row] = Cell(
          glyph: ascii ? "#" : "■", foreground: color, background: background)
      }
    }
    _ = frame.put(
      trackText(footer), column: left + 2, row: top + height - 2, foreground: .brightBlack,
      background: .black,
      maxWidth: width - 4)
  }

  nonisolated static func distanceText(_ m: Double) -> String {
    m >= 1000 ? String(format: "%.2f km", m / 1000) : String(format: "%.0f m", m)
  }
}

// MARK: Search within what is loaded

/// A name from a loaded file that the `/` prompt matched: a marker (waypoint, placemark) or a
/// track, route or line.
struct LoadedMatch {
  var name: String
  var kind: String
  var file: String
  var coordinate: Coordinate
  /// The line's extent; nil for a marker.
  var rect: MapRect?

  var label: String { "\(name) (\(kind), \(file))" }
}

extension Viewer {
  /// Names in the loaded files containing `text` (case and accents ignored), those starting
  /// with it first; at most `limit`.
  func loadedMatches(_ text: String, limit: Int = 5) -> [LoadedMatch] {
    let needle = Viewer.fold(text.trimmingCharacters(in: .whitespaces))
    guard needle.count >= 2 else { return [] }
    var starts: [LoadedMatch] = []
    var contains: [LoadedMatch] = []
    func consider(_ name: String?, _ make: () -> LoadedMatch) {
      guard let name, !name.isEmpty else { return }
      let folded = Viewer.fold(name)
      if folded.hasPrefix(needle) {
        starts.append(make())
      } else if folded.contains(needle) {
        contains.append(make())
      }
    }
    for file in track.files {
      for item in file.items {
        switch item.kind {
        case .waypoints:
          for a in item.annotations {
            consider(a.title) {
              LoadedMatch(
                name: SafeText.clean(a.title ?? ""), kind: "marker", file: file.name,
                coordinate: a.coordinate)
            }
          }
        case .track, .route, .line:
          guard let first = item.lines.first?.coordinates.first else { continue }
          consider(item.title) {
            var rect = MapRect.null
            for o in item.overlays { rect = rect.union(o.boundingMapRect) }
            return LoadedMatch(
              name: item.title, kind: item.kind.rawValue, file: file.name, coordinate: first,
              rect: rect)
          }
        case .shapes:
          for o in item.overlays {
            consider(o.title) {
              LoadedMatch(
                name: SafeText.clean(o.title ?? ""), kind: "shape", file: file.name,
                coordinate: o.boundingMapRect.mid.coordinate, rect: o.boundingMapRect)
            }
          }
        }
      }
    }
    return Array((starts + contains).prefix(limit))
  }

  /// Goes to a loaded name: a marker is centred and selected, a line fitted.
  func goToLoaded(_ m: LoadedMatch) {
    if let rect = m.rect, !rect.isNull {
      map.setVisibleMapRect(
        rect, edgePadding: EdgeInsets(top: 4, left: 4, bottom: 4, right: 4), animated: true)
    } else {
      // At once, so the marker is on screen to be selected.
      map.setCenter(m.coordinate, animated: false)
      map.setZoomLevel(max(map.zoomLevel, 14), animated: false)
      if let a = track.files.flatMap(\.items).flatMap(\.annotations).first(where: {
        $0.coordinate == m.coordinate && SafeText.clean($0.title ?? "") == m.name
      }) {
        map.selectAnnotation(a, animated: false)
      }
    }
    show(m.label) { [unowned self] in map.isInteracting || isSearching }
  }

  nonisolated static func fold(_ s: String) -> String {
    s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
  }
}
