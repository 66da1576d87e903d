/// What a key does in the viewer when no open panel (the search box, the help, the layer list
/// …; Panel.swift) took it. `Viewer.perform(_:)` (Viewer+Input.swift) carries each one out.
public enum ViewerAction: String, Sendable, CaseIterable {
  case panLeft, panRight, panUp, panDown
  case panLeftFar, panRightFar, panUpFar, panDownFar
  case zoomIn, zoomOut
  case fitData, fitWorld
  case nextMarker, previousMarker
  case enter, escape
  /// Moving the selected waypoint with keys (MovePanel).
  case moveMarker
  case search
  case toggleRoutes, toggleCharset
  /// The track tool (issue 13; Viewer+Track.swift and its siblings).
  case profile, layers, measure, colouring
  /// The live position's tracking mode (Viewer+Location).
  case cycleTracking
  /// The targets panel: the map's markers by distance (TargetsPanel.swift).
  case targets
  /// A download of the region on screen (Viewer+Download).
  case downloadRegion
  case help
  case quit
}

/// A key as the terminal reports it: a typed character (Esc, Tab and Return included) or a
/// special key.
public enum KeyPress: Equatable, Sendable {
  case character(Character)
  case key(Key)

  /// The event that carries this key.
  public var event: InputEvent {
    switch self {
    case .character(let c): return .character(c)
    case .key(let k): return .key(k)
    }
  }
}

/// One row of the key table: the keys, what each does, and how the help overlay (`?`) and
/// docs/usage.md describe them. A row with no presses only documents (the mouse).
public struct KeyBinding: Sendable {
  /// The keys as the help overlay shows them (at most 15 columns).
  public let keys: String
  /// What they do, in the help overlay (short: the box is drawn in small terminals).
  public let summary: String
  /// The keys as docs/usage.md and the man page show them.
  public let documentedKeys: String
  /// What they do, in docs/usage.md and the man page.
  public let details: String
  /// Each key and its action.
  public let presses: [(press: KeyPress, action: ViewerAction)]

  public init(
    _ keys: String, _ summary: String, documented documentedKeys: String? = nil,
    details: String? = nil, _ presses: [(press: KeyPress, action: ViewerAction)]
  ) {
    self.keys = keys
    self.summary = summary
    self.documentedKeys = documentedKeys ?? keys
    self.details = details ?? summary
    self.presses = presses
  }
}

/// The viewer's keys: one table drives the key dispatch (`Viewer.dispatch`), the help overlay
/// and the keys sections of docs/usage.md and of the man page (tests compare them).
///
/// To add a key: a `ViewerAction` case, a row here (rows show in this order; a key may be bound
/// once only, which a test checks), and the action's case in `Viewer.perform(_:)`, calling a
/// method that can live in a file of its own. Then write the docs again:
/// `TERMMAP_RECORD_DOCS=1 swift test --filter "KeyBindingTests|GeneratedDocsTests"`.
public enum KeyBindings {
  private static func c(_ c: Character, _ a: ViewerAction) -> (
    press: KeyPress, action: ViewerAction
  ) {
    (.character(c), a)
  }
  private static func k(_ k: Key, _ a: ViewerAction) -> (press: KeyPress, action: ViewerAction) {
    (.key(k), a)
  }

  public static let table: [KeyBinding] = [
    KeyBinding(
      "←↓↑→  h j k l", "pan (Shift or H J K: further)",
      documented: "← ↓ ↑ →, h j k l",
      details:
        "pan an eighth of the screen (Shift-arrows or H J K: half; Shift-→ only to the right, `L` is the layer list)",
      [
        k(.left, .panLeft), k(.down, .panDown), k(.up, .panUp), k(.right, .panRight),
        c("h", .panLeft), c("j", .panDown), c("k", .panUp), c("l", .panRight),
        k(.shiftLeft, .panLeftFar), k(.shiftDown, .panDownFar), k(.shiftUp, .panUpFar),
        k(.shiftRight, .panRightFar),
        c("H", .panLeftFar), c("J", .panDownFar), c("K", .panUpFar),
      ]),
    KeyBinding(
      "+ = a  /  - z", "zoom in / out", documented: "+ = a / - z",
      details: "zoom in / out (animated)",
      [c("+", .zoomIn), c("=", .zoomIn), c("a", .zoomIn), c("-", .zoomOut), c("z", .zoomOut)]),
    KeyBinding(
      "0  /  w", "fit all data / whole world", documented: "0 / w",
      details: "fit all loaded data / the whole world",
      [c("0", .fitData), c("w", .fitWorld)]),
    KeyBinding(
      "Tab  Shift-Tab", "next / previous marker", documented: "Tab / Shift-Tab",
      details: "select the next / previous marker on screen, nearest the centre first",
      [c("\t", .nextMarker), k(.backTab, .previousMarker)]),
    KeyBinding(
      "Enter", "open callout; again: zoom to it",
      details:
        "open the selected marker's callout; Enter again zooms to it (the callout's accessory), or to a cluster's members",
      [k(.enter, .enter), c("\n", .enter), c("\r", .enter)]),
    KeyBinding(
      "Esc", "close callout, prompt or help",
      details: "close the callout, the prompt or the help",
      [c("\u{1B}", .escape)]),
    KeyBinding(
      "M", "move the selected marker",
      details:
        "move the selected waypoint: arrows move it a cell (Shift: eight), Enter drops it (the status line and its callout give the new position), Esc puts it back",
      [c("M", .moveMarker)]),
    KeyBinding(
      "/", "search a place or go to lat, lon",
      details:
        "search: a place name (offline gazetteer of 34,000 places, best matches listed; ↑ ↓ choose, Enter goes) or a coordinate (`48.85, 2.35`, `48°51′N 2°21′E`); see below",
      [c("/", .search)]),
    KeyBinding(
      "r", "show / hide routes",
      details:
        "show / hide the files' routes and tracks (live layers stay: the layer list, `L`, hides them)",
      [c("r", .toggleRoutes)]),
    KeyBinding("c", "braille / ASCII", [c("c", .toggleCharset)]),
    KeyBinding(
      "p", "profile of the selected track",
      details:
        "the profile panel: elevation (v: speed, heart rate, cadence) against distance with the track's statistics; ← → move its cursor and the marker on the map (see below)",
      [c("p", .profile)]),
    KeyBinding(
      "L", "layers: files, live; on / off",
      details:
        "the layer list: files and their tracks, routes and markers with colours, points and lengths, then the live layers (`--layer`); Space shows / hides (a live layer: its markers, lines and trails), Enter profiles, f fits (see below)",
      [c("L", .layers)]),
    KeyBinding(
      "m", "measure a path",
      details:
        "measure: m or Enter adds the centre, a click adds a point; the status line shows the geodesic length and the last leg's bearing; Esc ends (see below)",
      [c("m", .measure)]),
    KeyBinding(
      "t", "colour tracks: file, elevation, …",
      details: "colour tracks by file, elevation, speed or time, with a legend (see below)",
      [c("t", .colouring)]),
    KeyBinding(
      "T", "targets: markers by distance",
      details:
        "the targets panel: the map's markers with their distance and bearing, nearest first from the centre or (Tab) from your position; type to filter, ↑ ↓ choose, Enter selects one, centres it and opens its callout",
      [c("T", .targets)]),
    KeyBinding(
      "f", "follow the marker / position",
      details:
        "with a marker selected: follow it, the map keeping it centred as it moves (`f` again, a pan or Esc stops); else follow your position (with `--follow`): off → follow → follow with heading → off; a pan by hand turns it off",
      [c("f", .cycleTracking)]),
    KeyBinding(
      "D", "download the region on screen",
      details:
        "download the region on screen for use offline (zooms 0–15, as `termmap get` does, from `[get] from` or the Protomaps planet), with progress on the status line; the map draws it once whole and keeps it (`termmap regions`)",
      [c("D", .downloadRegion)]),
    KeyBinding(
      "mouse", "drag pans, wheel zooms, click selects",
      details:
        "a drag pans; a drag from a waypoint moves it (Esc while dragging puts it back); the wheel zooms about the cursor; a click on a marker or a cluster opens its callout and a click elsewhere closes it",
      []),
    KeyBinding(
      "?", "this help",
      details:
        "the keys, the files not read and the data credits; any key closes it (`q` too, without quitting)",
      [c("?", .help)]),
    KeyBinding("q", "quit", documented: "q Q", [c("q", .quit), c("Q", .quit)]),
  ]

  /// The action bound to an event, if any.
  public static func action(for event: InputEvent) -> ViewerAction? {
    for row in table {
      for p in row.presses where p.press.event == event { return p.action }
    }
    return nil
  }

  /// The keys bound to an action, in the table's order.
  public static func presses(for action: ViewerAction) -> [KeyPress] {
    table.flatMap { $0.presses.filter { $0.action == action }.map(\.press) }
  }

  /// The help overlay's lines: the keys padded to 16 columns, then what they do.
  public static var helpLines: [String] {
    table.map { row in
      row.keys + String(repeating: " ", count: max(16 - row.keys.count, 1)) + row.summary
    }
  }

  /// The keys section of docs/usage.md: a Markdown table.
  public static var markdownTable: String {
    (["| keys | what they do |", "|---|---|"]
      + table.map { "| \($0.documentedKeys) | \($0.details) |" })
      .joined(separator: "\n") + "\n"
  }
}
