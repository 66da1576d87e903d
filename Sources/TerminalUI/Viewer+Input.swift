import DotRaster
import Foundation
import MapGeometry
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

extension Viewer {
  func handle(_ event: InputEvent) {
    // The track tool's keys and mouse (p, L, m, t; Viewer+Track.swift) come first.
    if handleTrackEvent(event) { return }
    switch event {
    case .resize:
      screen.refreshSize()
    case .mouse(let m):
      handleMouse(m)
    case .key(let key):
      if prompt != nil {
        handlePromptKey(key: key, character: nil)
      } else {
        dispatch(event)
      }
    case .character(let ch):
      if prompt != nil {
        handlePromptKey(key: nil, character: ch)
      } else {
        dispatch(event)
      }
    }
  }

  /// A key outside the prompt: closes the help if it is shown (and does nothing else: `q`
  /// does not quit from there), else does what the key table (KeyBindings) binds it to.
  func dispatch(_ event: InputEvent) {
    if helpVisible {
      helpVisible = false
      return
    }
    if let action = KeyBindings.action(for: event) { perform(action) }
  }

  /// Carries out one action of the key table.
  func perform(_ action: ViewerAction) {
    switch action {
    case .panLeft: pan(-1, 0, far: false)
    case .panRight: pan(1, 0, far: false)
    case .panUp: pan(0, -1, far: false)
    case .panDown: pan(0, 1, far: false)
    case .panLeftFar: pan(-1, 0, far: true)
    case .panRightFar: pan(1, 0, far: true)
    case .panUpFar: pan(0, -1, far: true)
    case .panDownFar: pan(0, 1, far: true)
    case .zoomIn: map.setZoomLevel(map.zoomLevel + 1, animated: true)
    case .zoomOut: map.setZoomLevel(map.zoomLevel - 1, animated: true)
    case .fitData:
      if map.contentMapRect.isNull {
        map.setVisibleMapRect(.world, animated: true)
      } else {
        map.showAllContent(animated: true)
      }
    case .fitWorld: map.setVisibleMapRect(.world, animated: true)
    case .nextMarker: cycleMarkers(by: 1)
    case .previousMarker: cycleMarkers(by: -1)
    case .enter: enter()
    case .escape: escape()
    case .search:
      prompt = PromptState()
      helpVisible = false
    case .help: helpVisible.toggle()
    case .toggleRoutes:
      routesEnabled.toggle()
      setRoutesShown(routesEnabled)
      show(routesEnabled ? "routes shown" : "routes hidden")
    case .toggleCharset:
      map.charset = map.charset == .ascii ? (screen.unicode ? .braille : .ascii) : .ascii
      map.discardTileCache()
      screen.invalidate()
      if !screen.unicode && map.charset == .ascii {
        let charset = map.charset
        show("this terminal's locale is not UTF-8: ASCII only") { [unowned self] in
          map.charset != charset
        }
      }
    case .profile: toggleProfile()
    case .layers: openLayerList()
    case .measure: startMeasuring()
    case .colouring: cycleColouring()
    case .cycleTracking: cycleTrackingMode()  // Viewer+Location
    case .downloadRegion: downloadVisibleRegion()  // Viewer+Download
    case .quit:
      running = false
    }
  }

  /// Pans by an eighth of the screen (half with `far`), as part of the current gesture.
  func pan(_ x: Int, _ y: Int, far: Bool) {
    let fraction = far ? 0.5 : 0.125
    let dx = Double(x) * max((map.widthInDots * fraction).rounded(), Double(CellGeometry.dotsWide))
    let dy = Double(y) * max((map.heightInDots * fraction).rounded(), Double(CellGeometry.dotsHigh))
    map.beginUserInteraction()
    map.pan(byDotsX: dx, y: dy)
    lastMove = clock()
  }

  /// Visible, shown markers nearest the centre first.
  func markersByDistance() -> [AnnotationView] {
    let vp = map.viewport
    let cx = Double(vp.columns) / 2
    let cy = Double(vp.rows) / 2
    func distance(_ v: AnnotationView) -> Double {
      guard let a = v.annotation, let c = vp.cell(for: MapPoint(a.coordinate)) else {
        return .infinity
      }
      let dx = Double(c.column) - cx
      let dy = (Double(c.row) - cy) * 2
      return dx * dx + dy * dy
    }
    var scored: [(view: AnnotationView, distance: Double, title: String)] = []
    for v in map.annotationViewsOnScreen where !v.isHidden && v.annotation != nil {
      let d = distance(v)
      if d.isFinite { scored.append((v, d, v.annotation?.title ?? "")) }
    }
    scored.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.title < $1.title }
    return scored.map(\.view)
  }

  func cycleMarkers(by step: Int) {
    let views = markersByDistance()
    guard !views.isEmpty else {
      showAboutView("no markers on screen")
      return
    }
    var index = step > 0 ? 0 : views.count - 1
    if let current = map.selectedAnnotations.first,
      let i = views.firstIndex(where: { $0.annotation === current })
    {
      index = (i + step + views.count) % views.count
    }
    calloutOpen = false
    map.showsCallouts = false
    if let a = views[index].annotation { map.selectAnnotation(a, animated: false) }
  }

  func enter() {
    guard let selected = map.selectedAnnotations.first else {
      cycleMarkers(by: 1)
      return
    }
    if calloutOpen {
      map.tapCalloutAccessory()
    } else if selected.title != nil {
      calloutOpen = true
      map.showsCallouts = true
    }
  }

  func escape() {
    if helpVisible {
      helpVisible = false
    } else if calloutOpen {
      calloutOpen = false
      map.showsCallouts = false
    } else if let s = map.selectedAnnotations.first {
      map.deselectAnnotation(s, animated: false)
    }
  }

  // MARK: Mouse

  func handleMouse(_ m: MouseEvent) {
    pointer = (m.column, m.row)
    switch m.action {
    case .wheelUp, .wheelDown:
      map.beginUserInteraction()
      map.zoom(
        byLevels: m.action == .wheelUp ? 0.5 : -0.5, aboutDot: dot(atColumn: m.column, row: m.row))
      lastMove = clock()
    case .press:
      drag = (m.column, m.row, false)
    case .motion:
      // Motion with the button held drags (1002 mode reports it without button bits).
      guard let d = drag else { return }
      let dc = m.column - d.column
      let dr = m.row - d.row
      if dc != 0 || dr != 0 {
        map.beginUserInteraction()
        map.pan(
          byDotsX: Double(-dc * CellGeometry.dotsWide), y: Double(-dr * CellGeometry.dotsHigh))
        lastMove = clock()
        drag = (m.column, m.row, true)
      }
    case .release, .click:
      let moved = drag?.moved ?? false
      drag = nil
      if moved {
        map.endUserInteraction()
      } else {
        click(column: m.column, row: m.row)
      }
    }
  }

  func dot(atColumn column: Int, row: Int) -> Point2D {
    Point2D(
      x: (Double(column) + 0.5) * Double(CellGeometry.dotsWide),
      y: (Double(row) + 0.5) * Double(CellGeometry.dotsHigh))
  }

  /// A click on a marker selects it and opens its callout; elsewhere it closes the callout.
  func click(column: Int, row: Int) {
    if let v = map.annotationView(atColumn: column, row: row), let a = v.annotation {
      map.selectAnnotation(a, animated: false)
      calloutOpen = a.title != nil
      map.showsCallouts = calloutOpen
    } else if let s = map.selectedAnnotations.first {
      map.deselectAnnotation(s, animated: false)
    }
  }

  // MARK: Prompt

  func handlePromptKey(key: Key?, character: Character?) {
    guard var p = prompt else { return }
    if let key {
      switch key {
      case .backspace: if !p.text.isEmpty { p.text.removeLast() }
      case .up: p.selected = max(p.selected - 1, 0)
      case .down: p.selected = min(p.selected + 1, max(p.results.count - 1, 0))
      case .enter:
        go(to: p)
        return
      default: break
      }
    } else if let ch = character {
      switch ch {
      case "\u{1B}":
        prompt = nil
        return
      case "\n", "\r":
        go(to: p)
        return
      case "\u{7F}", "\u{08}": if !p.text.isEmpty { p.text.removeLast() }
      case "\u{15}": p.text = ""  // Ctrl-U
      default:
        if ch.unicodeScalars.allSatisfy({ CellBuffer.isPrintable($0) }) && p.text.count < 80 {
          p.text.append(ch)
        }
      }
    }
    p.results = results(for: p.text)
    p.problem = problem(for: p.text)
    p.selected = min(p.selected, max(p.results.count - 1, 0))
    prompt = p
  }

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

  func results(for text: String) -> [PromptState.Result] {
    if let c = Coordinate(parsing: text) { return [.coordinate(c)] }
    if Viewer.coordinateProblem(text) != nil { return [] }
    let loaded = loadedMatches(text).map { PromptState.Result.loaded($0) }
    guard text.trimmingCharacters(in: .whitespaces).count >= 2, let g = gazetteer else {
      return loaded
    }
    return loaded
      + g.search(text, limit: 8 - loaded.count, near: map.centerCoordinate).map { .place($0) }
  }

  /// What the prompt line says after the text when the text cannot be searched for yet (the
  /// place names are loading or missing) or is a coordinate out of range. It is worked out
  /// again when that changes, so it never outlives the situation.
  func problem(for text: String) -> String? {
    if let p = Viewer.coordinateProblem(text) { return p }
    guard Coordinate(parsing: text) == nil, text.trimmingCharacters(in: .whitespaces).count >= 2,
      gazetteer == nil
    else { return nil }
    return gazetteerError ?? "loading place names…"
  }

  func go(to p: PromptState) {
    prompt = nil
    guard p.results.indices.contains(p.selected) else {
      if let problem = p.problem {
        show(problem) { [unowned self] in prompt != nil }
      } else if !p.text.isEmpty {
        show("nothing found for \"\(p.text)\"") { [unowned self] in prompt != nil }
      }
      return
    }
    switch p.results[p.selected] {
    case .loaded(let m):
      goToLoaded(m)
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
      show(place.label) { [unowned self] in map.isInteracting || prompt != nil }
    }
  }

  nonisolated static func formatPopulation(_ n: Int) -> String {
    n >= 1_000_000 ? String(format: "%.1f M", Double(n) / 1e6) : String(format: "%d k", n / 1000)
  }
}
