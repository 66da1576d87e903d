import DotRaster
import Foundation
import MapGeometry
import TermMapKit

/// Where the targets panel measures distances from.
enum TargetOrigin: Equatable {
  /// The centre of the map.
  case centre
  /// The live position (`--follow`), while one is known.
  case you
}

/// One row of the targets panel: an annotation with its distance and bearing from the origin.
struct TargetRow {
  let annotation: any Annotation
  let title: String
  /// The subtitle (a waypoint's description, a live target's kind).
  let kind: String
  /// Metres from the origin.
  let distance: Double
  /// Degrees clockwise from north, 0 to 360, from the origin to the annotation.
  let bearing: Double

  /// "NE", the bearing as one of eight compass points.
  var compassPoint: String {
    let points = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]
    return points[Int(((bearing + 22.5) / 45).rounded(.down)) % 8]
  }

  /// The title and the kind (at most 30 columns of it), as the row starts.
  var label: String {
    var k = kind
    if CellBuffer.displayWidth(of: k) > 30 {
      while CellBuffer.displayWidth(of: k) > 29 { k.removeLast() }
      k += "…"
    }
    return k.isEmpty ? title : title + "  " + k
  }

  /// The distance and the bearing, as the row ends: "1.2 km  NE 045°".
  var measure: String {
    let distanceText =
      !distance.isFinite
      ? "?"
      : distance >= 10_000
        ? String(format: "%.0f km", distance / 1000)
        : distance >= 1000
          ? String(format: "%.1f km", distance / 1000) : String(format: "%.0f m", distance)
    return distanceText + "  " + compassPoint + String(format: " %03.0f°", bearing)
  }

  /// The row as one line: title, kind, distance, bearing.
  var text: String { label + "  " + measure }
}

/// The targets panel (`T`): the map's annotations (the files' waypoints, and whatever else the
/// map shows) in a box over the map, nearest first from the centre or from your live position
/// (Tab toggles), filtered by what is typed. ↑ ↓ choose, Shift-↑ ↓ a page, Enter selects the
/// chosen one, centres it and opens its callout; Esc closes. The rows are worked out again
/// each frame, so a moving target's distance follows it.
@MainActor
final class TargetsPanel: Panel {
  /// The typed filter.
  private(set) var filter = ""
  /// The chosen row, in the filtered and sorted list.
  private(set) var row = 0
  /// Where distances are measured from.
  private(set) var origin = TargetOrigin.centre
  /// The rows last drawn (what Enter takes).
  private(set) var shown: [TargetRow] = []
  /// Rows a page holds (set when drawn).
  private var pageRows = 10

  var level: PanelLevel { .targets }
  func placement(totalRows: Int) -> PanelPlacement { .overMap }

  func handle(_ event: InputEvent, viewer: Viewer) -> PanelResponse {
    switch event {
    case .character(let ch):
      switch ch {
      case "\u{1B}": return .close
      case "\n", "\r":
        choose(viewer)
        return .close
      case "\t": toggleOrigin(viewer)
      case "\u{7F}", "\u{08}": if !filter.isEmpty { filter.removeLast() }
      case "\u{15}": filter = ""  // Ctrl-U
      default:
        if ch.unicodeScalars.allSatisfy({ CellBuffer.isPrintable($0) }) && filter.count < 40 {
          filter.append(ch)
          row = 0
        }
      }
    case .key(let key):
      switch key {
      case .down: row += 1
      case .up: row -= 1
      case .shiftDown: row += pageRows
      case .shiftUp: row -= pageRows
      case .backspace: if !filter.isEmpty { filter.removeLast() }
      case .backTab: toggleOrigin(viewer)
      case .enter:
        choose(viewer)
        return .close
      default: break
      }
    case .mouse:
      break
    case .resize:
      return .ignored
    }
    refresh(viewer)
    return .handled
  }

  /// Tab: from the centre ↔ from your position (only while a live position is known).
  func toggleOrigin(_ viewer: Viewer) {
    if origin == .you {
      origin = .centre
    } else if viewer.livePosition != nil {
      origin = .you
    } else {
      viewer.show("no live position: distances are from the centre (--follow gives one)")
    }
  }

  /// Works the rows out again and keeps the chosen row inside them.
  func refresh(_ viewer: Viewer, annotations: [any Annotation]? = nil) {
    var from = viewer.map.centerCoordinate
    if origin == .you {
      if let p = viewer.livePosition { from = p } else { origin = .centre }
    }
    shown = TargetsPanel.rows(
      annotations ?? viewer.targetAnnotations, from: from, filter: filter)
    row = min(max(row, 0), max(shown.count - 1, 0))
  }

  /// Enter: selects the chosen annotation, centres it and opens its callout.
  func choose(_ viewer: Viewer) {
    refresh(viewer)
    guard shown.indices.contains(row) else { return }
    viewer.showTarget(shown[row].annotation)
  }

  /// The annotations whose title or subtitle contains `filter` (ignoring case and accents),
  /// nearest `from` first (ties by title).
  nonisolated static func rows(_ annotations: [any Annotation], from: Coordinate, filter: String)
    -> [TargetRow]
  {
    let words = filter.split(separator: " ").map { fold(String($0)) }
    var rows: [TargetRow] = []
    rows.reserveCapacity(annotations.count)
    for a in annotations {
      let title = a.title ?? ""
      let kind = a.subtitle ?? ""
      if !words.isEmpty {
        let haystack = fold(title + " " + kind)
        guard words.allSatisfy({ haystack.contains($0) }) else { continue }
      }
      let (distance, bearing) = sphericalDistanceAndBearing(from, a.coordinate)
      rows.append(
        TargetRow(
          annotation: a, title: title.isEmpty ? "(untitled)" : title, kind: kind,
          distance: distance, bearing: bearing))
    }
    rows.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.title < $1.title }
    return rows
  }

  /// The distance (metres) and initial bearing (degrees, 0 to 360) on a sphere of the mean
  /// earth radius: within half a percent of the geodesic, and many times faster than it,
  /// which a list of thousands of moving targets, worked out every frame, needs.
  nonisolated static func sphericalDistanceAndBearing(_ a: Coordinate, _ b: Coordinate) -> (
    Double, Double
  ) {
    let r = 6_371_008.8
    let φ1 = a.latitude * .pi / 180
    let φ2 = b.latitude * .pi / 180
    let dφ = φ2 - φ1
    let dλ = (b.longitude - a.longitude) * .pi / 180
    let h = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
    let distance = 2 * r * asin(min(1, sqrt(h)))
    let y = sin(dλ) * cos(φ2)
    let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)
    var bearing = atan2(y, x) * 180 / .pi
    if bearing < 0 { bearing += 360 }
    guard distance.isFinite, bearing.isFinite else { return (.infinity, 0) }
    return (distance, distance == 0 ? 0 : bearing)
  }

  /// Text for matching: lower case, without accents.
  nonisolated static func fold(_ s: String) -> String {
    s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
  }

  func didOpen(viewer: Viewer) { refresh(viewer) }

  /// A box centred over the map: the title with the count and the origin, the filter line,
  /// the rows (the chosen one highlighted, scrolled to keep it in view) and the keys.
  func draw(into frame: inout CellBuffer, area: CellRect, viewer: Viewer) {
    let all = viewer.targetAnnotations
    refresh(viewer, annotations: all)
    let ascii = viewer.map.charset == .ascii
    let total = all.count
    let title =
      " targets: \(shown.count)\(shown.count == total ? "" : " of \(total)") · from \(origin == .centre ? "the centre" : "you") "
    let footer = "type to filter · ↑↓ choose · Tab centre/you · Enter go · Esc closes"
    let filterLine = "filter: " + filter
    let labels = shown.map(\.label)
    let measures = shown.map(\.measure)
    let labelWidth = labels.map { CellBuffer.displayWidth(of: $0) }.max() ?? 0
    let measureWidth = measures.map { CellBuffer.displayWidth(of: $0) }.max() ?? 0
    // "› " + label + 2 + measure, inside the borders with a space each side.
    let width = min(
      max(
        labelWidth + measureWidth + 8, CellBuffer.displayWidth(of: footer) + 4,
        CellBuffer.displayWidth(of: title) + 4),
      area.columns)
    let texts = labels
    let listRows = max(min(max(texts.count, 1), area.rows - 5), 1)
    pageRows = listRows
    let height = min(listRows + 5, area.rows)
    guard height >= 5, width >= 10 else { return }
    let left = area.column + max((area.columns - width) / 2, 0)
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
      title, column: left + 2, row: top, foreground: .brightCyan, background: .black, bold: true,
      maxWidth: width - 4)
    frame.put(
      filterLine, column: left + 2, row: top + 1, foreground: .brightWhite, background: .black,
      maxWidth: width - 4)
    let cursor = left + 2 + CellBuffer.displayWidth(of: filterLine)
    if cursor < left + width - 1 {
      frame.put("▏", column: cursor, row: top + 1, foreground: .brightCyan, background: .black)
    }
    if texts.isEmpty {
      frame.put(
        total == 0 ? "no markers on the map" : "nothing matches", column: left + 2, row: top + 2,
        foreground: .brightBlack, background: .black, maxWidth: width - 4)
    }
    let first = max(0, min(row - listRows + 1, texts.count - listRows))
    for (k, text) in texts.enumerated().dropFirst(first).prefix(listRows) {
      let y = top + 2 + k - first
      let selected = k == row
      let background: TermColor = selected ? .blue : .black
      for c in (left + 1)..<(left + width - 1) {
        frame[c, y] = Cell(glyph: " ", background: background)
      }
      // The distance and bearing right-aligned; the label takes what is left.
      let measure = measures[k]
      let measureColumn = left + width - 2 - CellBuffer.displayWidth(of: measure)
      frame.put(
        (selected ? "› " : "  ") + text, column: left + 1, row: y, foreground: .white,
        background: background, bold: selected, maxWidth: max(measureColumn - left - 3, 1))
      if measureColumn > left + 4 {
        frame.put(
          measure, column: measureColumn, row: y, foreground: .brightWhite,
          background: background, bold: selected)
      }
    }
    frame.put(
      footer, column: left + 2, row: top + height - 2, foreground: .brightBlack,
      background: .black, maxWidth: width - 4)
  }
}

extension Viewer {
  /// `T`: opens the targets panel (again: closes it).
  func toggleTargets() {
    if let p = panels.first(TargetsPanel.self) {
      close(p)
    } else {
      open(TargetsPanel())
    }
  }

  /// The annotations the targets panel lists: every one on the map but your own position.
  var targetAnnotations: [any Annotation] {
    map.annotations.filter { !($0 is UserLocation) && !($0 is ClusterAnnotation) }
  }

  /// Your live position, while one is known.
  var livePosition: Coordinate? {
    guard live != nil, let l = map.userLocation.location else { return nil }
    return l.coordinate
  }

  /// Selects an annotation, centres the map on it and opens its callout.
  func showTarget(_ a: any Annotation) {
    stopFollowingTarget()
    if map.userTrackingMode != .none { map.setUserTrackingMode(.none, animated: false) }
    closeCallout()
    map.setCenter(a.coordinate, animated: false)
    map.selectAnnotation(a, animated: false)
    if a.title != nil { openCallout() }
  }

  // MARK: Following a target

  /// `f`: with a marker selected, follows it (again: stops); else cycles the tracking mode of
  /// your own position.
  func followOrCycleTracking() {
    if let a = map.selectedAnnotations.first, !(a is UserLocation), !(a is ClusterAnnotation) {
      if let f = followedTarget, f === a {
        stopFollowingTarget(saying: "stopped following \(a.title ?? "the marker")")
      } else {
        followTarget(a)
      }
      return
    }
    stopFollowingTarget()
    cycleTrackingMode()
  }

  /// Keeps `a` in the middle of the map as it moves (your own position's follow mode, for a
  /// marker): until a pan, Esc, `f` again, or a follow of your position.
  func followTarget(_ a: any Annotation) {
    if map.userTrackingMode != .none { map.setUserTrackingMode(.none, animated: false) }
    followedTarget = a
    followedPoint = nil
    show("following \(a.title ?? "the marker") (a pan or Esc stops)", seconds: 3)
    _ = keepTargetCentred()
  }

  /// Stops following a marker (a pan, Esc); says so when `text` is given.
  func stopFollowingTarget(saying text: String? = nil) {
    guard followedTarget != nil else { return }
    followedTarget = nil
    followedPoint = nil
    if let text { show(text, seconds: 3) }
    dirty = true
  }

  /// Centres the followed marker when it has moved (each turn); true when the map moved.
  func keepTargetCentred() -> Bool {
    guard let a = followedTarget else { return false }
    if map.userTrackingMode != .none {
      // Following your own position took over.
      stopFollowingTarget()
      return true
    }
    let p = MapPoint(a.coordinate)
    guard p != followedPoint, !map.isInteracting, !map.isAnimating else { return false }
    followedPoint = p
    map.setCenter(a.coordinate, animated: false)
    return true
  }

  /// The status line's part while a marker is followed.
  var followStatusPart: String? {
    followedTarget.map { "following \($0.title ?? "marker")" }
  }
}
