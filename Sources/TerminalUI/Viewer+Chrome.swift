import DotRaster
import Foundation
import MapGeometry
import MapTiles
import TermMapKit

extension Viewer {
  /// The status line: a message, or the coordinate under the pointer (else the centre), zoom,
  /// scale bar, the selected marker, loaded points, loading state and attribution.
  func drawStatus(into frame: inout CellBuffer) {
    let row = frame.rows - 1
    for c in 0..<frame.columns {
      frame[c, row] = Cell(glyph: " ", foreground: .white, background: .brightBlack)
    }
    var left: String
    if let m = message {
      frame.put(
        m.text, column: 0, row: row, foreground: .brightYellow, background: .brightBlack, bold: true
      )
      return
    }
    if let p = pointer, p.row < frame.rows - 1 {
      let c = map.coordinate(atColumn: p.column, row: p.row)
      left = String(format: "⌖ %.5f, %.5f", c.latitude, c.longitude)
    } else {
      let c = map.centerCoordinate
      left = String(format: "%.5f, %.5f", c.latitude, c.longitude)
    }
    let ascii = map.charset == .ascii
    // Each part with its priority (`StatusLineLayout`: the lowest go first when the line is
    // narrow; the user's own state, 0, stays longest; the credits are never dropped).
    typealias Part = StatusLineLayout.Part
    var parts = [
      Part(left, priority: 1), Part(String(format: "z%.1f", map.zoomLevel), priority: 3),
    ]
    parts.append(
      Part(
        ScaleBar(latitude: map.centerCoordinate.latitude, zoomScale: map.zoomScale).text(
          ascii: ascii), priority: 5))
    // The live position (Viewer+Location) and the selected marker.
    parts += locationStatusParts(now: clock()).map { Part($0, priority: 0) }
    parts += liveLayerStatusParts().map { Part($0, priority: 0) }
    if let f = followStatusPart { parts.append(Part(f, priority: 0)) }
    if let s = map.selectedAnnotations.first, let t = s.title {
      parts.append(Part("▸ " + t, priority: 0))
    }
    if let d = download?.statusText(now: clock()) { parts.append(Part(d, priority: 0)) }
    if loadedPoints > 0 { parts.append(Part("\(loadedPoints) pts", priority: 6)) }
    if pendingLoads > 0 {
      let percent = loadProgressBoard?.overall.map { String(format: " %d%%", Int($0 * 100)) } ?? ""
      parts.append(
        Part("loading \(pendingLoads) file\(pendingLoads == 1 ? "" : "s")\(percent)…", priority: 2))
    }
    if !routesEnabled { parts.append(Part("routes off", priority: 2)) }
    if let note = Regions.noDataNote(
      at: MapPoint(map.centerCoordinate), zoom: map.zoomLevel, in: map.overlays, ascii: ascii,
      key: options.allowsDownloads
        ? KeyBindings.presses(for: .downloadRegion).lazy.compactMap { press -> String? in
          if case .character(let c) = press { return String(c) }
          return nil
        }.first : nil)
    {
      // Where D is off (a session of termmap serve), neither key nor command is the user's.
      parts.append(Part(options.allowsDownloads ? note : "no map data here", priority: 4))
    }
    if !loadErrors.isEmpty {
      parts.append(
        Part("\(loadErrors.count) file\(loadErrors.count == 1 ? "" : "s") not read", priority: 2))
    }
    let fitted = StatusLineLayout.fit(
      parts, attribution: map.visibleAttribution, columns: frame.columns,
      separator: ascii ? " | " : " · ")
    // Widths in terminal columns: a selected marker's name may be wide (CJK).
    let width = { (s: String) in CellBuffer.displayWidth(of: s) }
    let text = fitted.left
    var right = fitted.credits
    if fitted.complete, frame.columns - width(text) - width(right) >= 12 {
      right = (right.isEmpty ? "" : right + "  ") + "? help"
    }
    frame.put(text, column: 0, row: row, foreground: .brightWhite, background: .brightBlack)
    let start = frame.columns - width(right)
    if start >= 0 {
      frame.put(right, column: start, row: row, foreground: .white, background: .brightBlack)
    }
  }

  /// The message for a terminal below the minimum size, broken into words over the rows there
  /// are, so it is never cut in the middle ("too small:" alone says nothing).
  func drawTooSmall(into frame: inout CellBuffer) {
    let need = "\(Viewer.minimumColumns)x\(Viewer.minimumRows)"
    let candidates = [
      "too small: need \(need) (is \(frame.columns)x\(frame.rows))",
      "too small: need \(need)", "need \(need)", need,
    ]
    for text in candidates {
      if let lines = Viewer.wrap(text, width: frame.columns), lines.count <= frame.rows {
        for (i, line) in lines.enumerated() { frame.put(line, column: 0, row: i, bold: true) }
        return
      }
    }
  }

  /// Text in pieces of at most `width` columns (breaking after a space or "/" where it can).
  nonisolated static func chop(_ text: String, width: Int) -> [String] {
    var pieces: [String] = []
    var rest = Substring(text)
    while CellBuffer.displayWidth(of: String(rest)) > width {
      var cut = rest.startIndex
      var used = 0
      var lastBreak: String.Index?
      for i in rest.indices {
        let w = CellBuffer.displayWidth(of: String(rest[i]))
        if used + w > width { break }
        used += w
        cut = rest.index(after: i)
        if rest[i] == " " || rest[i] == "/" { lastBreak = cut }
      }
      if let b = lastBreak, rest.distance(from: rest.startIndex, to: b) > width / 2 { cut = b }
      if cut == rest.startIndex { break }
      pieces.append(String(rest[..<cut]))
      rest = rest[cut...]
    }
    pieces.append(String(rest))
    return pieces
  }

  /// Words over lines of at most `width` columns; nil when a word is wider than that.
  nonisolated static func wrap(_ text: String, width: Int) -> [String]? {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      guard word.count <= width else { return nil }
      if line.isEmpty {
        line = String(word)
      } else if line.count + 1 + word.count <= width {
        line += " " + word
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines
  }
}
