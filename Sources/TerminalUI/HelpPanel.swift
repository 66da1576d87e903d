import DotRaster

/// The help (`?`): a box listing the keys, the files that could not be read and the data
/// credits. Any key closes it and does nothing else (`q` does not quit from here).
@MainActor
final class HelpPanel: Panel {
  var level: PanelLevel { .help }
  func placement(totalRows: Int) -> PanelPlacement { .overMap }
  var isModal: Bool { true }

  func handle(_ event: InputEvent, viewer: Viewer) -> PanelResponse {
    switch event {
    case .key, .character: return .close
    case .mouse, .resize: return .ignored
    }
  }

  func draw(into frame: inout CellBuffer, area: CellRect, viewer: Viewer) {
    let lines = KeyBindings.helpLines
    let credits = viewer.map.visibleAttribution.map { "  " + $0 }
    // Each error whole, over as many lines as it needs.
    let room = max(area.columns - 8, 10)
    let errors = viewer.loadErrors
    let errorLines =
      errors.isEmpty
      ? []
      : ["", "Files not read (\(errors.count)):"]
        + errors.flatMap { e in Viewer.chop(e, width: room).map { "  " + $0 } }
    HelpPanel.drawBox(
      title: "termmap keys",
      lines: lines + errorLines + (credits.isEmpty ? [] : ["", "Map data:"] + credits) + [
        "", "Esc or any key closes this",
      ],
      into: &frame, area: area, ascii: viewer.map.charset == .ascii)
  }

  /// A titled box of text lines, centred in `area`.
  static func drawBox(
    title: String, lines: [String], into frame: inout CellBuffer, area: CellRect, ascii: Bool
  ) {
    let inner = min(
      (lines.map { CellBuffer.displayWidth(of: $0) }.max() ?? 0) + 2, area.columns - 2)
    let width = inner + 2
    let height = min(lines.count + 2, area.rows)
    let left = area.column + max((area.columns - width) / 2, 0)
    let top = area.row + max((area.rows - height) / 2, 0)
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
