import DotRaster

// The focus stack: input top down, drawing bottom up (Panel.swift).

extension Viewer {
  /// Opens a panel (a panel already open stays where it is).
  func open(_ panel: any Panel) {
    guard !panels.contains(panel) else { return }
    panels.push(panel)
    panel.didOpen(viewer: self)
    dirty = true
  }

  /// Closes a panel; nothing happens when it is not open.
  func close(_ panel: any Panel) {
    guard panels.remove(panel) else { return }
    panel.didClose(viewer: self)
    dirty = true
  }

  /// Whether a panel is open.
  func isOpen(_ panel: any Panel) -> Bool { panels.contains(panel) }

  /// Offers a key or mouse event to the open panels, top first; true when one used it up.
  /// An event a modal panel leaves goes to the map, past the panels below it.
  func routeToPanels(_ event: InputEvent) -> Bool {
    for panel in panels.topDown where panels.contains(panel) {
      switch panel.handle(event, viewer: self) {
      case .handled:
        return true
      case .close:
        close(panel)
        return true
      case .perform(let action):
        perform(action)
        return true
      case .ignored:
        if panel.isModal { return false }
      }
    }
    return false
  }

  /// Rows the docked panels (the profile) take from the map, for a frame of `totalRows`.
  func dockedRows(totalRows: Int) -> Int {
    panels.panels.reduce(0) { sum, p in
      if case .docked(let rows) = p.placement(totalRows: totalRows) { return sum + rows }
      return sum
    }
  }

  /// Whether an open panel takes the status line.
  var panelTakesStatusLine: Bool {
    panels.panels.contains { $0.placement(totalRows: rows).takesStatusLine }
  }

  /// Draws the open panels, bottom first, each in its area: a docked panel in its rows under
  /// the map (the lowest docked panel nearest the status line), a box in the rows above the
  /// status line, a status-line panel in the last row.
  func drawPanels(into frame: inout CellBuffer) {
    let statusRow = frame.rows - 1
    var dockBottom = statusRow
    for panel in panels.panels {
      let area: CellRect
      switch panel.placement(totalRows: frame.rows) {
      case .inMap:
        continue
      case .overMap:
        area = CellRect(column: 0, row: 0, columns: frame.columns, rows: statusRow)
      case .docked(let rows):
        dockBottom -= rows
        area = CellRect(column: 0, row: dockBottom, columns: frame.columns, rows: rows)
      case .statusLine:
        area = CellRect(column: 0, row: statusRow, columns: frame.columns, rows: 1)
      case .statusLineAndAbove:
        area = CellRect(column: 0, row: 0, columns: frame.columns, rows: frame.rows)
      }
      panel.draw(into: &frame, area: area, viewer: self)
    }
  }
}
