import DotRaster
import Foundation
import MapData
import MapGeometry
import TermMapKit

// The viewer as a track tool (issue 13): the profile panel (`p`, ProfilePanel), the layer list
// (`L`, LayerListPanel), measuring (`m`, MeasurePanel) and track colouring (`t`). What the
// panels share (the loaded files, the profiled item, the colouring) lives in `Viewer.track`.
// The keys that open them are in the key table (KeyBindings.swift); the keys inside them are
// the panels' own.

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

/// What the track tool keeps between frames that is not one panel's: the loaded files (the
/// layer list shows them, the profile and the search box read them), the profiled item and the
/// colouring.
struct TrackToolState {
  var files: [LoadedFile] = []
  /// The item the profile shows (the layer list marks it).
  var selection: (file: Int, item: Int)?
  // Colouring
  var colouring: TrackColouring = .file
  var colouredRenderers: [ObjectIdentifier: GradientPolylineRenderer] = [:]
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
    if let s = track.selection, s.file == file, s.item == item, profilePanel.profile != nil {
      return
    }
    let it = track.files[file].items[item]
    guard it.canProfile, let p = TrackProfile(title: it.title, lines: it.lines) else { return }
    track.selection = (file, item)
    profilePanel.show(p, stats: p.statistics(path: track.files[file].path))
  }

  // MARK: Opening the panels

  /// `L`: opens the layer list (on the row chosen last).
  func openLayerList() {
    layerList.row = min(layerList.row, max(layerList.listRows(self).count - 1, 0))
    open(layerList)
  }

  /// `p`: opens the profile of the selected track, or closes it.
  func toggleProfile() {
    if isOpen(profilePanel) {
      close(profilePanel)
      return
    }
    if track.selection == nil { selectFirstTrack() }
    if profilePanel.profile == nil, let s = track.selection {
      selectForProfile(file: s.file, item: s.item)
    }
    guard profilePanel.profile != nil else {
      show(
        pendingLoads > 0
          ? "no track yet: the files are still loading" : "no track or route to profile")
      return
    }
    open(profilePanel)
    fitProfiledTrack()
  }

  /// Shows the whole profiled track in the map above the panel.
  func fitProfiledTrack() {
    guard let sel = track.selection else { return }
    let mapRows = rows - 1 - dockedRows(totalRows: rows)
    if mapRows >= 1 && columns >= 1 && (map.rows != mapRows || map.columns != columns) {
      map.resize(columns: columns, rows: mapRows)
    }
    var rect = MapRect.null
    for o in track.files[sel.file].items[sel.item].overlays { rect = rect.union(o.boundingMapRect) }
    guard !rect.isNull else { return }
    map.setVisibleMapRect(
      rect, edgePadding: EdgeInsets(top: 4, left: 4, bottom: 4, right: 4), animated: false)
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
