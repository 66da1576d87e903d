import DotRaster
import Foundation
import Testing

@testable import TerminalUI

private let walk = "Data/samples/lisbon-walk.csv"

/// The zoom level the status line shows.
private func zoom(_ status: String) -> Double? {
  guard let r = status.range(of: #"z-?\d+\.\d"#, options: .regularExpression) else { return nil }
  return Double(status[r].dropFirst())
}

/// A panel for the tests: fills its area with its letter, uses up the characters it is told
/// to (`x` closes it) and records what reached it.
@MainActor
private final class LetterPanel: Panel {
  let level: PanelLevel
  let letter: Character
  let where_: PanelPlacement
  let takes: Set<Character>
  /// Characters it answers with an action of the key table.
  let actions: [Character: ViewerAction]
  var seen: [InputEvent] = []

  init(
    _ letter: Character, level: PanelLevel, placement: PanelPlacement, takes: String = "",
    actions: [Character: ViewerAction] = [:]
  ) {
    self.letter = letter
    self.level = level
    where_ = placement
    self.takes = Set(takes)
    self.actions = actions
  }

  func placement(totalRows: Int) -> PanelPlacement { where_ }

  func handle(_ event: InputEvent, viewer: Viewer) -> PanelResponse {
    seen.append(event)
    if case .character(let c) = event, let a = actions[c] { return .perform(a) }
    guard case .character(let c) = event, takes.contains(c) else { return .ignored }
    return c == "x" ? .close : .handled
  }

  func draw(into frame: inout CellBuffer, area: CellRect, viewer: Viewer) {
    for r in area.row..<area.bottom {
      for c in area.column..<(area.column + area.columns) {
        frame[c, r] = Cell(glyph: letter.unicodeScalars.first!)
      }
    }
  }
}

/// The focus stack: keys to the top panel first, then down, then to the map; drawing bottom
/// to top; the order is the panels' levels, whatever order they were opened in.
@MainActor
@Suite("panels and the focus stack")
struct PanelStackTests {
  @Test("panels stand in the order of their levels, whatever order they were opened in")
  func levelsOrderTheStack() throws {
    let h = try Harness([walk], columns: 60, rows: 16)
    let help = HelpPanel()
    let low = LetterPanel("L", level: .layers, placement: .overMap)
    h.viewer.open(help)
    h.viewer.open(low)
    #expect(h.viewer.panels.panels.map { $0.level } == [.layers, .help])
    // Opened again, a panel stays where it is.
    h.viewer.open(low)
    #expect(h.viewer.panels.panels.count == 2)
  }

  @Test("the help over another panel: a key closes the help only; the next reaches the panel")
  func topPanelFirst() throws {
    let h = try Harness([walk], columns: 60, rows: 16)
    let below = LetterPanel("L", level: .layers, placement: .overMap, takes: "x")
    h.viewer.open(below)
    h.send(.character("?"))
    // `?` went to the letter panel (it is on top), which left it: the map's key table opened
    // the help above it.
    #expect(h.text.contains("termmap keys"), "\(h.text)")
    h.send(.character("\u{1B}"))
    #expect(!h.text.contains("termmap keys"))
    #expect(h.viewer.isOpen(below))
    #expect(below.seen == [.character("?")], "Esc went to the help only")
    h.send(.character("x"))
    #expect(!h.viewer.isOpen(below))
    #expect(!h.text.contains("LLL"), "\(h.text)")
  }

  @Test("the help open over the search box: Esc closes the help only, then the search box")
  func helpOverSearch() throws {
    let h = try Harness([walk], columns: 60, rows: 16)
    h.type("/Ros")
    #expect(h.status.hasPrefix("/ Ros▏"), "\(h.status)")
    h.viewer.open(HelpPanel())
    h.settle()
    #expect(h.text.contains("termmap keys"))
    #expect(h.status.hasPrefix("/ Ros▏"), "the search box stays under the help: \(h.status)")
    h.send(.character("\u{1B}"))
    #expect(!h.text.contains("termmap keys"))
    #expect(h.status.hasPrefix("/ Ros▏"), "\(h.status)")
    #expect(h.text.contains("› Rossio"), "its matches are back: \(h.text)")
    h.send(.character("\u{1B}"))
    #expect(!h.status.hasPrefix("/"), "\(h.status)")
    #expect(h.status.hasPrefix("38.7"), "\(h.status)")
    #expect(h.viewer.panels.isEmpty)
  }

  @Test("a key no panel takes falls through to the map")
  func fallsThroughToTheMap() throws {
    let h = try Harness([walk], columns: 60, rows: 16)
    let panel = LetterPanel("L", level: .profile, placement: .docked(rows: 3), takes: "y")
    h.viewer.open(panel)
    let before = try #require(zoom(h.status))
    h.send(.character("+"))
    #expect(panel.seen == [.character("+")])
    #expect(try #require(zoom(h.status)) > before)
  }

  @Test("the callout is a panel: keys it does not take pan the map under it; Esc closes it only")
  func calloutFallsThrough() throws {
    let h = try Harness([walk])
    h.send(.character("\t"), .character("\r"))
    #expect(h.text.contains("Café on Rua Garrett, open since 1905"), "\(h.text)")
    let before = try #require(h.find("Café on Rua Garrett"))
    h.send(.key(.left))
    let after = try #require(h.find("Café on Rua Garrett"), "the callout closed:\n\(h.text)")
    #expect(after.column > before.column, "the map (and the callout with it) moved right")
    h.send(.character("\u{1B}"))
    #expect(!h.text.contains("Café on Rua Garrett"))
    #expect(h.status.contains("▸ A Brasileira"), "the marker stays selected: \(h.status)")
    h.send(.character("\u{1B}"))
    #expect(!h.status.contains("▸ A Brasileira"), "a second Esc reaches the map: \(h.status)")
  }

  @Test("the layer list over the measure tool: Esc closes the list, measuring goes on; then ends")
  func layersOverMeasure() throws {
    let h = try Harness(["Data/samples/route.gpx"], columns: 100, rows: 30)
    h.send(.character("m"))
    #expect(h.status.hasPrefix("measure: 1 point"), "\(h.status)")
    h.send(.character("L"))
    #expect(h.text.contains("─ layers ─"), "\(h.text)")
    // The list takes `m` (nothing happens); measuring under it does not see it.
    h.send(.character("m"))
    #expect(h.status.hasPrefix("measure: 1 point"), "\(h.status)")
    h.send(.character("\u{1B}"))
    #expect(!h.text.contains("─ layers ─"), "\(h.text)")
    #expect(h.status.hasPrefix("measure: 1 point"), "measuring goes on: \(h.status)")
    h.send(.character("m"))
    #expect(h.status.hasPrefix("measure: 2 points"), "\(h.status)")
    h.send(.character("\u{1B}"))
    #expect(!h.status.hasPrefix("measure:"), "\(h.status)")
    #expect(h.viewer.panels.isEmpty)
  }

  @Test("the profile docked under the map: the map is shorter; `p` closes it and the map is whole")
  func profileDocked() throws {
    let h = try Harness(
      ["Tests/MapDataTests/Fixtures/tracks/ride-2020-06-01.fit"], columns: 120, rows: 40)
    #expect(h.viewer.map.rows == 39)
    h.send(.character("p"))
    let docked = ProfileGraph.panelRows(terminalRows: 40)
    #expect(h.viewer.map.rows == 39 - docked)
    #expect(h.screen[39 - docked].contains("elevation · "), "the header: \(h.screen[39 - docked])")
    h.send(.character("p"))
    #expect(h.viewer.map.rows == 39)
    #expect(!h.text.contains("←→ cursor"), "\(h.text)")
  }

  @Test("a panel answers an action of the key table: the viewer performs it, the panel stays")
  func panelPerformsAnAction() throws {
    let h = try Harness([walk], columns: 60, rows: 16)
    let panel = LetterPanel(
      "L", level: .profile, placement: .docked(rows: 3), actions: ["y": .zoomIn])
    h.viewer.open(panel)
    let before = try #require(zoom(h.status))
    h.send(.character("y"))
    #expect(try #require(zoom(h.status)) > before)
    #expect(h.viewer.isOpen(panel))
  }

  @Test("drawing goes bottom to top: the help's box over a panel below, the status line apart")
  func drawingOrder() throws {
    let h = try Harness([walk], columns: 60, rows: 16)
    h.viewer.open(LetterPanel("L", level: .layers, placement: .overMap))
    h.viewer.open(HelpPanel())
    h.settle()
    let screen = h.screen
    // Rows above the status line: the letter panel's, with the help's box over its middle.
    #expect(
      screen[0].range(of: "^L+┌─ termmap keys ─+┐L+$", options: .regularExpression) != nil,
      "\(h.text)")
    #expect(screen[14].range(of: "^L+└─+┘L+$", options: .regularExpression) != nil, "\(h.text)")
    #expect(!screen[15].contains("LLL"), "the status line is not the panel's: \(screen[15])")
  }

  @Test("a docked panel takes rows from the map, between it and the status line")
  func dockedArea() throws {
    let h = try Harness([walk], columns: 60, rows: 16)
    h.viewer.open(LetterPanel("P", level: .profile, placement: .docked(rows: 4)))
    h.settle()
    #expect(h.viewer.map.rows == 11)
    #expect(h.screen[11...14].allSatisfy { $0 == String(repeating: "P", count: 60) }, "\(h.text)")
    #expect(!h.screen[10].contains("PPP"))
  }

  @Test("the help is modal: the mouse moves the map under it but reaches no panel below")
  func modalHelp() throws {
    let h = try Harness([walk], columns: 60, rows: 16)
    let below = LetterPanel("L", level: .layers, placement: .overMap)
    h.viewer.open(below)
    h.viewer.open(HelpPanel())
    let before = try #require(zoom(h.status))
    h.send(.mouse(MouseEvent(column: 30, row: 7, action: .wheelUp)))
    #expect(below.seen.isEmpty)
    #expect(try #require(zoom(h.status)) > before)
    #expect(h.text.contains("termmap keys"), "the mouse does not close the help")
  }

  @Test("the viewer without a front: events in, frames out, at the size it is given")
  func viewerWithoutFront() throws {
    var options = ViewerOptions()
    options.files = [Harness.path(walk)]
    let viewer = Viewer(options: options, columns: 60, rows: 16, unicode: true)
    var now = Date(timeIntervalSince1970: 1_000_000_000)
    viewer.clock = { now }
    viewer.start()
    var frame: CellBuffer?
    /// Turns of a front's loop, 20 ms apart on the viewer's clock, until the viewer has nothing
    /// more to show.
    func turns(input: Bool = false) {
      for i in 0..<200 {
        now = now.addingTimeInterval(0.02)
        guard let f = viewer.turn(afterInput: input && i == 0) else {
          if !viewer.map.isAnimating && !viewer.map.isInteracting { return }
          continue
        }
        frame = f
      }
    }
    let end = Date().addingTimeInterval(60)
    while viewer.pendingLoads > 0 {
      try #require(Date() < end, "the walk did not load")
      usleep(1000)
      turns()
    }
    turns()
    var text = try #require(frame).lines.joined(separator: "\n")
    #expect(text.contains("Rossio"), "\(text)")
    viewer.handle(.character("?"))
    turns(input: true)
    text = try #require(frame).lines.joined(separator: "\n")
    #expect(text.contains("termmap keys"), "\(text)")
    viewer.resize(columns: 40, rows: 12)
    turns()
    #expect(frame?.columns == 40 && frame?.rows == 12)
    viewer.handle(.character("q"))
    #expect(viewer.isRunning, "q closed the help only")
    viewer.handle(.character("q"))
    #expect(!viewer.isRunning)
  }
}
