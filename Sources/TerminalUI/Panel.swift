import DotRaster

// The viewer built from panels: the search box, the help, the callout, the layer list, the
// profile and the measure tool each keep their own state, read their own keys and draw
// themselves. The viewer keeps the open ones in a `PanelStack`; keys go to the top panel first,
// then down, then to the map (the key table); drawing goes bottom to top. docs/design.md,
// "The viewer built from panels", argues the shape.

/// What a panel did with an input event.
enum PanelResponse: Equatable {
  /// Used up: neither the panels below nor the map see it.
  case handled
  /// Not the panel's: offered to the panel below it, and past the bottom one to the map.
  case ignored
  /// Used up, and the panel leaves the stack.
  case close
  /// Used up; the viewer carries out an action of the key table (as if the key bound to it
  /// had reached the map).
  case perform(ViewerAction)
}

/// A panel's place in the stack, lowest first: keys go to the highest level first, drawing
/// goes from the lowest. This list is the only place where the order in which panels win is
/// written. Within a level, the panel opened last is on top.
enum PanelLevel: Int, Comparable {
  /// The selected marker's callout (the map draws it beside its marker).
  case callout
  /// `termmap pick`'s Enter and Esc (PickPanel): above the callout, below every box, prompt
  /// and tool, which keep their own Enter and Esc.
  case pick
  /// The measure tool (its line on the map, its length on the status line). Below the
  /// profile: a drag of the profile's cursor that ends over the map adds no point.
  case measure
  /// The profile under the map.
  case profile
  /// The layer list's box.
  case layers
  /// The targets panel's box (`T`).
  case targets
  /// Moving the selected waypoint with keys (its hint on the status line). Above the track
  /// tool's panels: while a marker moves, the arrows are its (not the profile's cursor's).
  case move
  /// The `/` search box on the status line, its matches above it.
  case search
  /// The key help's box.
  case help

  static func < (a: PanelLevel, b: PanelLevel) -> Bool { a.rawValue < b.rawValue }
}

/// Where a panel draws, which decides the area it is given.
enum PanelPlacement: Equatable {
  /// Nowhere of its own: the map draws it (the callout, beside its marker).
  case inMap
  /// Over the map, in the rows above the status line; the panel places itself in them (a
  /// box, centred).
  case overMap
  /// Rows of its own between the map and the status line; the map is made shorter by them.
  case docked(rows: Int)
  /// The status line.
  case statusLine
  /// The status line and the rows above it (the search box: its text below, its matches
  /// above).
  case statusLineAndAbove

  /// Whether the panel takes the status line (the map's legend then stays away).
  var takesStatusLine: Bool { self == .statusLine || self == .statusLineAndAbove }
}

/// A rectangle of cells in the frame.
struct CellRect: Equatable {
  var column: Int
  var row: Int
  var columns: Int
  var rows: Int

  var bottom: Int { row + rows }
  func contains(column c: Int, row r: Int) -> Bool {
    c >= column && c < column + columns && r >= row && r < row + rows
  }
}

/// A part of the viewer with its own state, keys and drawing. The viewer is passed in to each
/// call (the map, the status line's messages, the loaded files): a panel keeps no reference to
/// it, so a panel can be made, kept closed and opened again with its state (the layer list's
/// row, the profile's track).
@MainActor
protocol Panel: AnyObject {
  /// Its place in the stack.
  var level: PanelLevel { get }
  /// Where it draws, for the frame of `rows` rows (the profile's height depends on it).
  func placement(totalRows: Int) -> PanelPlacement
  /// Events the panel leaves go straight to the map, past the panels below it (the help and
  /// the search box: the mouse still moves the map under them but reaches no panel they
  /// cover).
  var isModal: Bool { get }
  /// Reads a key or a mouse event (never a resize: the viewer takes those).
  func handle(_ event: InputEvent, viewer: Viewer) -> PanelResponse
  /// Draws the panel into `frame`, in `area` (see `PanelPlacement`).
  func draw(into frame: inout CellBuffer, area: CellRect, viewer: Viewer)
  /// The panel has been put on the stack.
  func didOpen(viewer: Viewer)
  /// The panel has left the stack (its own `.close`, or the viewer closed it).
  func didClose(viewer: Viewer)
}

extension Panel {
  var isModal: Bool { false }
  func didOpen(viewer: Viewer) {}
  func didClose(viewer: Viewer) {}
}

/// The open panels, bottom to top, kept in the order of their levels.
struct PanelStack {
  private(set) var panels: [any Panel] = []

  /// Top first: the order in which they are offered input.
  var topDown: [any Panel] { panels.reversed() }

  var isEmpty: Bool { panels.isEmpty }

  /// Puts `panel` on the stack: above the panels of its level and below those of higher
  /// levels. A panel already open stays where it is.
  @MainActor mutating func push(_ panel: any Panel) {
    guard !contains(panel) else { return }
    let index = panels.lastIndex { $0.level <= panel.level }.map { $0 + 1 } ?? 0
    panels.insert(panel, at: index)
  }

  /// Takes `panel` off the stack; false when it was not on it.
  @discardableResult
  mutating func remove(_ panel: any Panel) -> Bool {
    guard let i = panels.firstIndex(where: { $0 === panel }) else { return false }
    panels.remove(at: i)
    return true
  }

  func contains(_ panel: any Panel) -> Bool { panels.contains { $0 === panel } }

  /// The open panel of a type, if any.
  func first<P: Panel>(_ type: P.Type) -> P? {
    for p in panels { if let p = p as? P { return p } }
    return nil
  }
}
