import DotRaster
import Foundation
import MapData
import MapGeometry
import TermMapKit

/// Moving the selected waypoint with keys (`M`): the map drags its marker
/// (`MapView.beginDrag(of:)`); the arrows move it a cell (Shift: eight), Enter drops it and
/// Esc puts it back. The status line says so while it moves. Every other key goes on (zoom,
/// quit), and the mouse too: a mouse drag starts no second drag, so it pans.
@MainActor
final class MovePanel: Panel {
  /// The marker's name, for the status line.
  let name: String

  init(name: String) { self.name = name }

  var level: PanelLevel { .move }
  func placement(totalRows: Int) -> PanelPlacement { .statusLine }

  func handle(_ event: InputEvent, viewer: Viewer) -> PanelResponse {
    // The drag ended some other way (the annotation went): nothing left to move.
    guard viewer.map.draggedAnnotation != nil else { return .close }
    switch event {
    case .key(let key):
      switch key {
      case .left: viewer.map.drag(byColumns: -1, rows: 0)
      case .right: viewer.map.drag(byColumns: 1, rows: 0)
      case .up: viewer.map.drag(byColumns: 0, rows: -1)
      case .down: viewer.map.drag(byColumns: 0, rows: 1)
      case .shiftLeft: viewer.map.drag(byColumns: -MovePanel.far, rows: 0)
      case .shiftRight: viewer.map.drag(byColumns: MovePanel.far, rows: 0)
      case .shiftUp: viewer.map.drag(byColumns: 0, rows: -MovePanel.far)
      case .shiftDown: viewer.map.drag(byColumns: 0, rows: MovePanel.far)
      case .enter:
        viewer.dropMarker()
        return .close
      case .backTab, .backspace: return .ignored
      }
      return .handled
    case .character(let c):
      switch c {
      case "\n", "\r":
        viewer.dropMarker()
        return .close
      case "\u{1B}":
        viewer.cancelMarkerDrag()
        return .close
      default:
        return .ignored
      }
    case .mouse, .resize:
      return .ignored
    }
  }

  /// Cells a Shift-arrow moves the marker.
  static let far = 8

  /// Closed by the viewer while the marker still moves: it goes back.
  func didClose(viewer: Viewer) {
    if viewer.map.draggedAnnotation != nil { viewer.map.cancelDrag() }
  }

  /// "moving Rossio: arrows, Enter to drop, Esc to cancel" (a message has the line first; once
  /// the map has ended the drag itself, its marker gone, the panel closes on the next key).
  func draw(into frame: inout CellBuffer, area: CellRect, viewer: Viewer) {
    guard viewer.message == nil, viewer.map.draggedAnnotation != nil else { return }
    let row = area.row
    for c in 0..<area.columns {
      frame[c, row] = Cell(glyph: " ", foreground: .white, background: .brightBlack)
    }
    _ = frame.put(
      "moving \(name): arrows, Enter to drop, Esc to cancel", column: 0, row: row,
      foreground: .brightWhite, background: .brightBlack, bold: true, maxWidth: area.columns)
  }
}

extension Viewer {
  /// `M`: starts moving the selected waypoint with the keys (MovePanel).
  func startMovingMarker() {
    guard let selected = map.selectedAnnotations.first else {
      showAboutView("no marker selected: Tab selects one, M moves it")
      return
    }
    if selected is ClusterAnnotation {
      showAboutView("a cluster cannot be moved: Enter twice zooms to its members")
      return
    }
    let name = selected.title ?? "marker"
    guard map.beginDrag(of: selected) else {
      showAboutView("\(name) cannot be moved")
      return
    }
    open(MovePanel(name: name))
  }

  /// Drops the dragged marker (Enter, a mouse release): the map sets its coordinate; its
  /// callout's coordinate line follows, and the status line says where it went.
  func dropMarker() {
    guard let a = map.draggedAnnotation else { return }
    let old = a.coordinate
    map.endDrag()
    let new = a.coordinate
    let name = a.title ?? "marker"
    guard new != old else {
      show("\(name) not moved")
      return
    }
    if let p = a as? PointAnnotation {
      let oldLine = Viewer.coordinateLine(old)
      if let i = p.detailLines.firstIndex(of: oldLine) {
        p.detailLines[i] = Viewer.coordinateLine(new)
      } else {
        p.detailLines.append(Viewer.coordinateLine(new))
      }
    }
    log("moved \(name) " + Viewer.coordinateLine(new))
    show("moved \(name) to " + Viewer.coordinateLine(new), seconds: 8)
  }

  /// Puts the dragged marker back (Esc).
  func cancelMarkerDrag() {
    guard let a = map.draggedAnnotation else { return }
    map.cancelDrag()
    show("\(a.title ?? "marker") not moved")
  }

  /// A coordinate as the callouts of file waypoints give it: "38.71070, -9.14210".
  nonisolated static func coordinateLine(_ c: Coordinate) -> String {
    String(format: "%.5f, %.5f", c.latitude, c.longitude)
  }
}
