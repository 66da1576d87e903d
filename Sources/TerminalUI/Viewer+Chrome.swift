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
      key: KeyBindings.presses(for: .downloadRegion).lazy.compactMap { press -> String? in
        if case .character(let c) = press { return String(c) }
        return nil
      }.first)
    {
      parts.append(Part(note, priority: 4))
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

  /// A box listing the keys.
  func drawHelp(into frame: inout CellBuffer) {
    let lines = KeyBindings.helpLines
    let title = "termmap keys"
    let credits = map.visibleAttribution.map { "  " + $0 }
    // Each error whole, over as many lines as it needs.
    let room = max(frame.columns - 8, 10)
    let errors =
      loadErrors.isEmpty
      ? []
      : ["", "Files not read (\(loadErrors.count)):"]
        + loadErrors.flatMap { e in Viewer.chop(e, width: room).map { "  " + $0 } }
    drawBox(
      title: title,
      lines: lines + errors + (credits.isEmpty ? [] : ["", "Map data:"] + credits) + [
        "", "Esc or any key closes this",
      ],
      into: &frame,
      anchorBottom: false)
  }

  /// The prompt line with its matches above it. Widths are in terminal columns (a CJK
  /// character takes two); when the text is wider than the line, its end shows.
  func drawPrompt(into frame: inout CellBuffer) {
    guard let p = prompt else { return }
    let row = frame.rows - 1
    for c in 0..<frame.columns { frame[c, row] = Cell(glyph: " ", background: .black) }
    var shown = p.text
    // Room for "/ ", the text and the cursor.
    while CellBuffer.displayWidth(of: shown) > frame.columns - 3, !shown.isEmpty {
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
    let width = min(max(labelWidth, 20) + 4, frame.columns)
    let top = max(row - p.results.count, 0)
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

  func drawBox(title: String, lines: [String], into frame: inout CellBuffer, anchorBottom: Bool) {
    let ascii = map.charset == .ascii
    let inner = min(
      (lines.map { CellBuffer.displayWidth(of: $0) }.max() ?? 0) + 2, frame.columns - 2)
    let width = inner + 2
    let height = min(lines.count + 2, frame.rows - 1)
    let left = max((frame.columns - width) / 2, 0)
    let top = anchorBottom ? max(frame.rows - 1 - height, 0) : max((frame.rows - 1 - height) / 2, 0)
    let h: Unicode.Scalar = ascii ? "-" : "─"
    let v: Unicode.Scalar = ascii ? "|" : "│"
    for r in top..<(top + height) {
      for c in left..<(left + width) {
        var g: Unicode.Scalar = " "
        if r == top || r == top + height - 1 { g = h }
        if c == left || c == left + width - 1 { g = v }
        if (r == top || r == top + height - 1) && (c == left || c == left + width - 1) {
          g = ascii ? "+" : (r == top ? (c == left ? "┌" : "┐") : (c == left ? "└" : "┘"))
        }
        frame[c, r] = Cell(glyph: g, foreground: .brightWhite, background: .black)
      }
    }
    frame.put(
      " \(title) ", column: left + 2, row: top, foreground: .brightCyan, background: .black,
      bold: true)
    for (i, line) in lines.prefix(height - 2).enumerated() {
      frame.put(
        line, column: left + 2, row: top + 1 + i, foreground: .white, background: .black,
        maxWidth: inner - 1)
    }
  }
}
