import Foundation
import Testing

@testable import TerminalUI

/// The key table (KeyBindings) is the one list of the viewer's keys: the dispatch, the help
/// overlay and docs/usage.md follow it, so they cannot disagree.
@MainActor
@Suite("the key table")
struct KeyBindingTests {
  static let usage = Tmux.repositoryRoot.appendingPathComponent("docs/usage.md")
  static let begin = "<!-- keys: generated from Sources/TerminalUI/KeyBindings.swift -->\n"
  static let end = "<!-- end of keys -->\n"

  @Test("docs/usage.md's key table is the one the table generates")
  func usageTable() throws {
    var text = try String(contentsOf: Self.usage, encoding: .utf8)
    let start = try #require(text.range(of: Self.begin), "docs/usage.md has no key-table marker")
    let stop = try #require(text.range(of: Self.end, range: start.upperBound..<text.endIndex))
    let documented = String(text[start.upperBound..<stop.lowerBound])
    // Blank lines around the table, so Markdown does not take the markers into it.
    let generated = "\n" + KeyBindings.markdownTable + "\n"
    if ProcessInfo.processInfo.environment["TERMMAP_RECORD_DOCS"] == "1" {
      text.replaceSubrange(start.upperBound..<stop.lowerBound, with: generated)
      try text.write(to: Self.usage, atomically: true, encoding: .utf8)
      return
    }
    #expect(
      documented == generated,
      "docs/usage.md's keys differ from KeyBindings: run TERMMAP_RECORD_DOCS=1 swift test --filter KeyBindingTests"
    )
  }

  @Test("? draws exactly the table's help lines, in its order")
  func helpOverlay() throws {
    let h = try Harness(columns: 70, rows: 24, places: false)
    let help = try #require(KeyBindings.presses(for: .help).first)
    h.send(help.event)
    // The box's rows between its borders, without the frame and padding.
    let rows = h.screen.compactMap { line -> String? in
      guard let open = line.firstIndex(of: "│"), let close = line.lastIndex(of: "│"),
        open < close
      else { return nil }
      return line[line.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
    }
    let lines = KeyBindings.helpLines.map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(Array(rows.prefix(lines.count)) == lines, "\n\(h.text)")
  }

  @Test("no key is bound twice; every action has a key; the overlay's keys fit their column")
  func wellFormed() {
    let presses = KeyBindings.table.flatMap(\.presses)
    for (i, p) in presses.enumerated() {
      let again = presses[(i + 1)...].filter { $0.press == p.press }
      #expect(again.isEmpty, "\(p.press) is bound to \(p.action) and \(again.map(\.action))")
    }
    for action in ViewerAction.allCases {
      #expect(!KeyBindings.presses(for: action).isEmpty, "\(action) has no key")
    }
    for row in KeyBindings.table {
      #expect(row.keys.count <= 15, "\(row.keys)")
      #expect(!row.documentedKeys.contains("|") && !row.details.contains("|"))
    }
  }

  @Test("every key of the table reaches its action on the viewer")
  func dispatch() throws {
    // Actions with an effect on the frame that the status line or the screen shows.
    let h = try Harness(["Data/samples/lisbon-walk.csv"], places: false)
    let zoom = { (status: String) -> String in
      status.range(of: #"z-?\d+\.\d"#, options: .regularExpression).map { String(status[$0]) }
        ?? ""
    }
    for press in KeyBindings.presses(for: .zoomOut) {
      let before = zoom(h.status)
      h.send(press.event)
      h.settle()
      #expect(zoom(h.status) != before, "\(press) did not zoom out: \(h.status)")
    }
    for press in KeyBindings.presses(for: .toggleRoutes) {
      h.send(press.event)
      #expect(h.status.contains("routes hidden"), "\(press): \(h.status)")
      h.send(press.event)
      #expect(h.status.contains("routes shown"), "\(press): \(h.status)")
    }
    for press in KeyBindings.presses(for: .search) {
      h.send(press.event)
      #expect(h.screen.last?.hasPrefix("/ ") == true, "\(press): \(h.screen.last ?? "")")
      h.send(.character("\u{1B}"))
    }
    for press in KeyBindings.presses(for: .quit) {
      let q = try Harness(places: false)
      q.send(press.event)
      #expect(!q.viewer.running, "\(press) did not quit")
    }
  }
}

/// A key from the table, typed in a real terminal (tmux) to the built termmap.
@Suite("the key table in tmux", .serialized)
struct KeyBindingE2ETests {
  @Test("the table's key for show / hide routes works in the real viewer, and ? shows the table")
  func routesKey() throws {
    let tmux = try Tmux()
    let log = tmux.file("events.log")
    try tmux.start(
      "TERMMAP_EVENT_LOG=\(log) \(Tmux.termmap) --no-basemap"
        + " \(Tmux.repositoryRoot.path)/Data/samples/lisbon-walk.csv; sleep 60")
    let (up, screen) = try tmux.waitFor(timeout: 60) { $0.joined().contains("Rossio") }
    try #require(up, "the viewer did not come up:\n\(screen.joined(separator: "\n"))")
    guard case .character(let r) = try #require(KeyBindings.presses(for: .toggleRoutes).first)
    else {
      Issue.record("the routes key is not a character")
      return
    }
    try tmux.sendBytes(String(r))
    // The frames after it are drawn without the route (the event log says so; the status
    // line's "routes hidden" lasts only seconds).
    let (hidden, after) = try tmux.waitFor(timeout: 30) { _ in
      let events = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
      return events.hasSuffix("frame routes=hidden\n")
    }
    #expect(hidden, "\(after.joined(separator: "\n"))")
    guard case .character(let help) = try #require(KeyBindings.presses(for: .help).first) else {
      Issue.record("the help key is not a character")
      return
    }
    try tmux.sendBytes(String(help))
    let (shown, box) = try tmux.waitFor(timeout: 30) { s in
      KeyBindings.helpLines.allSatisfy { line in s.contains { $0.contains(line) } }
    }
    #expect(shown, "\(box.joined(separator: "\n"))")
  }
}
