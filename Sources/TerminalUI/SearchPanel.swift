import DotRaster
import Foundation
import MapGeometry
import MapTiles
import TermMapKit

/// The `/` prompt: typed text and what it matches.
struct PromptState {
  enum Result {
    case coordinate(Coordinate)
    case place(Place)
    /// A name from a loaded file (Viewer+Track.swift), listed before places.
    case loaded(LoadedMatch)

    var label: String {
      switch self {
      case .coordinate(let c): return String(format: "go to %.5f, %.5f", c.latitude, c.longitude)
      case .loaded(let m): return m.label
      case .place(let p):
        return p.population > 0 ? "\(p.label) (\(Viewer.formatPopulation(p.population)))" : p.label
      }
    }
  }
  var text = ""
  var results: [Result] = []
  var selected = 0
  /// Why the text finds nothing, when it is not a matter of no such place.
  var problem: String?
}

/// The search box (`/`): a line in place of the status line with the matches above it: the
/// names in the loaded files, the gazetteer's places, or a typed coordinate. It takes every
/// key; Enter goes to the chosen match, Esc closes it.
@MainActor
final class SearchPanel: Panel {
  private(set) var state = PromptState()

  var level: PanelLevel { .search }
  func placement(totalRows: Int) -> PanelPlacement { .statusLineAndAbove }
  var isModal: Bool { true }

  func handle(_ event: InputEvent, viewer: Viewer) -> PanelResponse {
    var p = state
    switch event {
    case .mouse, .resize:
      return .ignored
    case .key(let key):
      switch key {
      case .backspace: if !p.text.isEmpty { p.text.removeLast() }
      case .up: p.selected = max(p.selected - 1, 0)
      case .down: p.selected = min(p.selected + 1, max(p.results.count - 1, 0))
      case .enter:
        go(to: p, viewer: viewer)
        return .handled
      default: break
      }
    case .character(let ch):
      switch ch {
      case "\u{1B}":
        return .close
      case "\n", "\r":
        go(to: p, viewer: viewer)
        return .handled
      case "\u{7F}", "\u{08}": if !p.text.isEmpty { p.text.removeLast() }
      case "\u{15}": p.text = ""  // Ctrl-U
      default:
        if ch.unicodeScalars.allSatisfy({ CellBuffer.isPrintable($0) }) && p.text.count < 80 {
          p.text.append(ch)
        }
      }
    }
    p.results = SearchPanel.results(for: p.text, viewer: viewer)
    p.problem = SearchPanel.problem(for: p.text, viewer: viewer)
    p.selected = min(p.selected, max(p.results.count - 1, 0))
    state = p
    return .handled
  }

  /// Works the matches out again (the place names have arrived).
  func refresh(viewer: Viewer) {
    state.results = SearchPanel.results(for: state.text, viewer: viewer)
    state.problem = SearchPanel.problem(for: state.text, viewer: viewer)
  }

  static func results(for text: String, viewer: Viewer) -> [PromptState.Result] {
    if let c = Coordinate(parsing: text) { return [.coordinate(c)] }
    if Viewer.coordinateProblem(text) != nil { return [] }
    let loaded = viewer.loadedMatches(text).map { PromptState.Result.loaded($0) }
    guard text.trimmingCharacters(in: .whitespaces).count >= 2, let g = viewer.gazetteer else {
      return loaded
    }
    var request = LocalSearch.Request(
      naturalLanguageQuery: text, region: searchRegion(viewer.map))
    request.limit = 8 - loaded.count
    request.pointOfInterestFilter = viewer.map.pointOfInterestFilter
    return loaded
      + LocalSearch(request: request, gazetteer: g).results().mapItems.map { .place($0.place) }
  }

  /// Where the search looks first: what the map shows, or 100 km around its centre when it
  /// shows less (a street typed at zoom 17 is still found in the next town first).
  static func searchRegion(_ map: MapView) -> CoordinateRegion {
    let shown = map.region
    let near = CoordinateRegion(
      center: map.centerCoordinate, latitudinalMeters: 100_000, longitudinalMeters: 100_000)
    return shown.span.latitudeDelta >= near.span.latitudeDelta ? shown : near
  }

  /// What the prompt line says after the text when the text cannot be searched for yet (the
  /// place names are loading or missing) or is a coordinate out of range. It is worked out
  /// again when that changes, so it never outlives the situation.
  static func problem(for text: String, viewer: Viewer) -> String? {
    if let p = Viewer.coordinateProblem(text) { return p }
    guard Coordinate(parsing: text) == nil, text.trimmingCharacters(in: .whitespaces).count >= 2,
      viewer.gazetteer == nil
    else { return nil }
    return viewer.gazetteerError ?? "loading place names…"
  }

  /// Closes the box and goes to the chosen match; says so when there is none. The messages
  /// about the search go when the box is opened again.
  func go(to p: PromptState, viewer: Viewer) {
    viewer.close(self)
    guard p.results.indices.contains(p.selected) else {
      if let problem = p.problem {
        viewer.show(problem) { [unowned viewer] in viewer.isSearching }
      } else if !p.text.isEmpty {
        viewer.show("nothing found for \"\(p.text)\"") { [unowned viewer] in viewer.isSearching }
      }
      return
    }
    let map = viewer.map
    switch p.results[p.selected] {
    case .loaded(let m):
      viewer.goToLoaded(m)
    case .coordinate(let c):
      map.setCenter(c, animated: true)
      map.setZoomLevel(max(map.zoomLevel, 12), animated: true)
    case .place(let place):
      var zoom: Double = place.population >= 1_000_000 ? 10 : place.population >= 100_000 ? 11 : 12
      // A region's name: a street or a shop is seen closer than a town.
      if let category = place.category { zoom = category == .place ? 14 : 16 }
      map.setCenter(place.coordinate, animated: true)
      map.setZoomLevel(zoom, animated: true)
      // The place's name stays while the view is on it: until the user moves the map.
      viewer.show(place.label) { [unowned viewer] in map.isInteracting || viewer.isSearching }
    }
  }

  /// The prompt line with its matches above it. Widths are in terminal columns (a CJK
  /// character takes two); when the text is wider than the line, its end shows.
  func draw(into frame: inout CellBuffer, area: CellRect, viewer: Viewer) {
    let p = state
    let row = area.bottom - 1
    for c in 0..<area.columns { frame[c, row] = Cell(glyph: " ", background: .black) }
    var shown = p.text
    // Room for "/ ", the text and the cursor.
    while CellBuffer.displayWidth(of: shown) > area.columns - 3, !shown.isEmpty {
      shown.removeFirst()
    }
    let textWidth = CellBuffer.displayWidth(of: shown)
    frame.put(
      "/ " + shown, column: 0, row: row, foreground: .brightWhite, background: .black, bold: true)
    frame.put("▏", column: 2 + textWidth, row: row, foreground: .brightCyan, background: .black)
    let hint = p.text.isEmpty ? "  place name, or lat, lon" : p.problem.map { "  " + $0 } ?? ""
    if !hint.isEmpty {
      frame.put(
        hint, column: 3 + textWidth, row: row,
        foreground: p.problem == nil ? .brightBlack : .brightYellow, background: .black)
    }
    guard !p.results.isEmpty else { return }
    let labelWidth = p.results.map { CellBuffer.displayWidth(of: $0.label) }.max() ?? 0
    let width = min(max(labelWidth, 20) + 4, area.columns)
    let top = max(row - p.results.count, area.row)
    for (i, r) in p.results.enumerated() where top + i < row {
      let selected = i == p.selected
      for c in 0..<width {
        frame[c, top + i] = Cell(glyph: " ", background: selected ? .blue : .black)
      }
      frame.put(
        (selected ? "› " : "  ") + r.label, column: 1, row: top + i, foreground: .brightWhite,
        background: selected ? .blue : .black, bold: selected, maxWidth: width - 2)
    }
  }
}

extension Viewer {
  /// Whether the search box is open (messages about a search end when it opens again).
  var isSearching: Bool { panels.first(SearchPanel.self) != nil }

  /// For two numbers that are not a coordinate ("95, 200"): what is wrong with them.
  nonisolated static func coordinateProblem(_ text: String) -> String? {
    guard Coordinate(parsing: text) == nil else { return nil }
    let parts = text.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " })
    guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else {
      return nil
    }
    if abs(lat) > 90 {
      return "out of range: latitude \(parts[0]) is not within ±90"
    }
    if abs(lon) > 180 {
      return "out of range: longitude \(parts[1]) is not within ±180"
    }
    return nil
  }
}
