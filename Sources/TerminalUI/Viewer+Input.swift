import DotRaster
import Foundation
import MapGeometry
import TermMapKit

extension Viewer {
  /// A key or a mouse event: it goes to the open panels, top first (Viewer+Panels), and to
  /// the map when none took it. (A front turns a resize into `resize(columns:rows:)`.)
  public func handle(_ event: InputEvent) {
    dirty = true
    if event == .resize { return }
    inputEvents += 1
    // Esc during a mouse drag of a marker puts it back, before any panel sees the key.
    if dragsMarker, map.draggedAnnotation != nil, KeyBindings.action(for: event) == .escape {
      cancelMarkerDrag()
      return
    }
    // After a press the map took, the first motion is the map's (it decides between moving a
    // marker and panning), and a marker being dragged has the mouse until the release: no
    // panel under the pointer takes a motion or the drop.
    if case .mouse(let m) = event,
      dragsMarker || (m.action == .motion && drag.map { !$0.moved } == true)
    {
      handleMouse(m)
      return
    }
    // Esc stops following a marker (as a pan does), and goes on to do what it does.
    if followedTarget != nil, KeyBindings.action(for: event) == .escape {
      stopFollowingTarget(saying: "stopped following")
    }
    if routeToPanels(event) { return }
    switch event {
    case .mouse(let m): handleMouse(m)
    case .key, .character: dispatch(event)
    case .resize: break
    }
  }

  /// A key no panel took: does what the key table (KeyBindings) binds it to.
  func dispatch(_ event: InputEvent) {
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
    case .moveMarker: startMovingMarker()  // MovePanel
    case .search:
      open(SearchPanel())
    case .help: open(HelpPanel())
    case .toggleRoutes:
      routesEnabled.toggle()
      setRoutesShown(routesEnabled)
      show(routesEnabled ? "routes shown" : "routes hidden")
    case .toggleCharset:
      map.charset = map.charset == .ascii ? (unicode ? .braille : .ascii) : .ascii
      map.discardTileCache()
      repaintRequested = true
      if !unicode && map.charset == .ascii {
        let charset = map.charset
        show("this terminal's locale is not UTF-8: ASCII only") { [unowned self] in
          map.charset != charset
        }
      }
    case .profile: toggleProfile()
    case .layers: openLayerList()
    case .measure: startMeasuring()
    case .colouring: cycleColouring()
    case .cycleTracking: followOrCycleTracking()  // TargetsPanel.swift, Viewer+Location
    case .targets: toggleTargets()  // TargetsPanel.swift
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
    stopFollowingTarget(saying: "stopped following")
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
    closeCallout()
    if let a = views[index].annotation { map.selectAnnotation(a, animated: false) }
  }

  func enter() {
    guard let selected = map.selectedAnnotations.first else {
      cycleMarkers(by: 1)
      return
    }
    // An open callout takes Enter itself (CalloutPanel): here it is closed.
    if selected.title != nil { openCallout() }
  }

  func escape() {
    // An open callout takes Esc itself (CalloutPanel): here Esc deselects.
    if let s = map.selectedAnnotations.first {
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
      dragsMarker = false
    case .motion:
      // Motion with the button held drags (1002 mode reports it without button bits).
      guard let d = drag else { return }
      if dragsMarker {
        map.drag(toColumn: m.column, row: m.row)
        drag = (m.column, m.row, true)
        return
      }
      let dc = m.column - d.column
      let dr = m.row - d.row
      if dc != 0 || dr != 0 {
        // The first motion from a draggable marker moves the marker, not the map.
        if !d.moved, map.beginDrag(atColumn: d.column, row: d.row) {
          dragsMarker = true
          map.drag(toColumn: m.column, row: m.row)
          drag = (m.column, m.row, true)
          return
        }
        stopFollowingTarget(saying: "stopped following")
        map.beginUserInteraction()
        map.pan(
          byDotsX: Double(-dc * CellGeometry.dotsWide), y: Double(-dr * CellGeometry.dotsHigh))
        lastMove = clock()
        drag = (m.column, m.row, true)
      }
    case .release, .click:
      let moved = drag?.moved ?? false
      drag = nil
      if dragsMarker {
        // The drop (after an Esc the marker is back already).
        dragsMarker = false
        if map.draggedAnnotation != nil {
          map.drag(toColumn: m.column, row: m.row)
          dropMarker()
        }
      } else if moved {
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
      if a.title != nil { openCallout() } else { closeCallout() }
    } else if let s = map.selectedAnnotations.first {
      map.deselectAnnotation(s, animated: false)
    }
  }

  nonisolated static func formatPopulation(_ n: Int) -> String {
    n >= 1_000_000 ? String(format: "%.1f M", Double(n) / 1e6) : String(format: "%d k", n / 1000)
  }
}
