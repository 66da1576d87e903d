import Foundation
import Testing

/// Mouse, resizing and command-line options, in a real terminal (tmux).
@Suite("viewer mouse and resize in tmux", .serialized)
struct ViewerMouseE2ETests {
  func start(_ tmux: Tmux, _ arguments: String) throws -> String {
    let log = tmux.file("events.log")
    try tmux.start(
      "TERMMAP_EVENT_LOG=\(log) \(Tmux.termmap) \(arguments); echo \"EXITED $?\"; sleep 60")
    let (ok, screen) = try tmux.waitFor(timeout: 60) { s in s.joined().contains("pts") }
    try #require(ok, "\(screen.joined(separator: "\n"))")
    return log
  }

  func status(_ s: [String]) -> String {
    s.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
  }

  func zoom(_ s: [String]) -> Double? {
    guard let r = status(s).range(of: #"z\d+\.\d"#, options: .regularExpression) else { return nil }
    return Double(status(s)[r].dropFirst())
  }

  /// Where a string starts on screen (column, row).
  func find(_ text: String, in s: [String]) -> (column: Int, row: Int)? {
    for (row, line) in s.enumerated() {
      if let r = line.range(of: text) {
        return (line.distance(from: line.startIndex, to: r.lowerBound), row)
      }
    }
    return nil
  }

  func events(_ path: String) -> [String] {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(
      String.init)
  }

  @Test("the wheel zooms about the cursor and the status line shows the coordinate under it")
  func wheelZooms() throws {
    let tmux = try Tmux()
    _ = try start(tmux, "--no-basemap Data/samples/lisbon-walk.csv")
    let before = try tmux.capture()
    let z0 = try #require(zoom(before))
    try tmux.mouse(64, column: 50, row: 14)
    let (ok, after) = try tmux.waitFor { s in (zoom(s) ?? 0) > z0 }
    #expect(ok, "\(status(after))")
    #expect(status(after).contains("⌖ 38.7"))
    try tmux.mouse(65, column: 50, row: 14)
    let (back, _) = try tmux.waitFor { s in abs((zoom(s) ?? 0) - z0) < 0.05 }
    #expect(back)
  }

  @Test("a click on a marker opens its callout; a click elsewhere closes it")
  func clickMarker() throws {
    let tmux = try Tmux()
    _ = try start(tmux, "--no-basemap Data/samples/lisbon-walk.csv")
    let screen = try tmux.capture()
    let label = try #require(find("Cais do Sodré", in: screen))
    // The marker sits two cells left of its label.
    try tmux.mouse(0, column: label.column - 2, row: label.row)
    try tmux.mouse(0, column: label.column - 2, row: label.row, press: false)
    let (open, s1) = try tmux.waitFor { s in
      s.joined().contains("Ferry and train station by the river")
    }
    #expect(open, "\(s1.joined(separator: "\n"))")
    try tmux.mouse(0, column: 2, row: 2)
    try tmux.mouse(0, column: 2, row: 2, press: false)
    let (closed, _) = try tmux.waitFor { s in !s.joined().contains("Ferry and train station") }
    #expect(closed)
  }

  @Test("a drag pans the map as one region change")
  func dragPans() throws {
    let tmux = try Tmux()
    let log = try start(tmux, "--no-basemap Data/samples/lisbon-walk.csv")
    let before = try tmux.capture()
    let rossio = try #require(find("Rossio", in: before))
    let n = events(log).count
    // Each report waits for the screen to show the last one: ncurses folds a run of reports
    // that arrive together into one gesture (a click), as a hand never sends them.
    try tmux.mouse(0, column: 40, row: 15)
    let (pressed, _) = try tmux.waitFor { s in status(s).hasPrefix("⌖") }
    try #require(pressed, "the press did not arrive")
    for dx in 1...6 {
      try tmux.mouse(32, column: 40 - dx, row: 15)
      let (moved, after) = try tmux.waitFor { s in
        find("Rossio", in: s)?.column == rossio.column - dx
      }
      try #require(
        moved, "after \(dx): Rossio at \(find("Rossio", in: after)?.column ?? -1)")
    }
    try tmux.mouse(0, column: 34, row: 15, press: false)
    let (did, _) = try tmux.waitFor(timeout: 30) { _ in
      events(log).dropFirst(n).contains { $0.hasPrefix("did") }
    }
    try #require(did)
    let drag = events(log).dropFirst(n)
    #expect(drag.filter { $0.hasPrefix("will") }.count == 1, "\(drag)")
    #expect(drag.filter { $0.hasPrefix("did") }.count == 1, "\(drag)")
  }

  @Test("a drag from a waypoint moves it; the delegate hears MapKit's drag states")
  func dragMovesWaypoint() throws {
    let tmux = try Tmux()
    let log = try start(tmux, "--no-basemap Data/samples/lisbon-walk.csv")
    let before = try tmux.capture()
    let label = try #require(find("Cais do Sodré", in: before))
    let n = events(log).count
    // The marker sits two cells left of its label; each report waits for the screen.
    let marker = (column: label.column - 2, row: label.row)
    try tmux.mouse(0, column: marker.column, row: marker.row)
    let (pressed, _) = try tmux.waitFor { s in status(s).hasPrefix("⌖") }
    try #require(pressed, "the press did not arrive")
    for step in 1...4 {
      try tmux.mouse(32, column: marker.column + 3 * step, row: marker.row - step)
      let (moved, after) = try tmux.waitFor { s in
        find("● Cais do Sodré", in: s)?.column == marker.column + 3 * step
      }
      try #require(moved, "after \(step):\n\(after.joined(separator: "\n"))")
    }
    try tmux.mouse(0, column: marker.column + 12, row: marker.row - 4, press: false)
    let (dropped, screen) = try tmux.waitFor { s in status(s).hasPrefix("moved Cais do Sodré to") }
    #expect(dropped, "\(status(screen))")
    #expect(find("● Cais do Sodré", in: screen)?.row == marker.row - 4)
    let drag = events(log).dropFirst(n).filter { $0.hasPrefix("drag ") }
    #expect(
      drag == [
        "drag Cais do Sodré none -> starting", "drag Cais do Sodré starting -> dragging",
        "drag Cais do Sodré dragging -> ending", "drag Cais do Sodré ending -> none",
      ], "\(drag)")
    // The map did not move.
    #expect(!events(log).dropFirst(n).contains { $0.hasPrefix("will") })
  }

  @Test("a resize redraws at the new size at once; a tiny terminal gets a message")
  func resize() throws {
    let tmux = try Tmux()
    _ = try start(tmux, "--no-basemap Data/samples/lisbon-walk.csv")
    try tmux.resize(width: 70, height: 20)
    let (ok, screen) = try tmux.waitFor { s in
      s.count <= 21 && status(s).contains("pts") && s.allSatisfy { $0.count <= 70 }
        && s.joined().contains("A Brasileira")
    }
    #expect(ok, "\(screen.joined(separator: "\n"))")
    try tmux.resize(width: 15, height: 4)
    let (small, tiny) = try tmux.waitFor { s in
      s.joined(separator: " ").contains("too small: need") && s.joined().contains("20x6 (is 15x4)")
    }
    #expect(small, "\(tiny.joined(separator: "\n"))")
    try tmux.resize(width: tmux.width, height: tmux.height)
    let (back, _) = try tmux.waitFor { s in
      status(s).contains("? help") && s.joined().contains("Rossio")
    }
    #expect(back)
  }

  @Test("options before files: --center and --zoom place the first view; --center alone too")
  func options() throws {
    let tmux = try Tmux()
    _ = try start(
      tmux, "--no-basemap --center 48.8566,2.3522 --zoom 12 Data/samples/lisbon-walk.csv")
    let screen = try tmux.capture()
    #expect(status(screen).hasPrefix("48.85"), "\(status(screen))")
    #expect(status(screen).contains("z12.0"))
    let alone = try Tmux()
    _ = try start(alone, "--no-basemap --center 48.8566,2.3522 Data/samples/lisbon-walk.csv")
    let (ok, s) = try alone.waitFor { s in status(s).hasPrefix("48.85") }
    #expect(ok, "\(status(s))")
  }

  @Test("files that fail to load are all reported and the others still open")
  func badFileReported() throws {
    let tmux = try Tmux(width: 160, height: 40)
    try tmux.start(
      "\(Tmux.termmap) --no-basemap missing.gpx Data/samples/lisbon-walk.csv"
        + " Tests/MapDataTests/Fixtures/invalid/latitude-text.csv; echo \"EXITED $?\"; sleep 60")
    let (ok, screen) = try tmux.waitFor(timeout: 60) { s in
      s.joined().contains("2 files could not be read") && s.joined().contains("Rossio")
    }
    try #require(ok, "\(screen.joined(separator: "\n"))")
    try tmux.sendKeys("?")
    let (listed, help) = try tmux.waitFor { s in
      s.joined().contains("missing.gpx: file not found")
        && s.joined().contains("latitude-text.csv:3:1: expected a number for latitude")
    }
    #expect(listed, "\(help.joined(separator: "\n"))")
  }

  @Test("an unknown option is one line on stderr with status 2, before the screen is touched")
  func badOption() throws {
    let tmux = try Tmux()
    try tmux.start("\(Tmux.termmap) --frobnicate; echo \"EXITED $?\"; sleep 60")
    let (ok, screen) = try tmux.waitFor { s in s.joined().contains("EXITED") }
    #expect(ok)
    #expect(screen.joined(separator: "\n").contains("termmap: unknown option --frobnicate"))
    #expect(screen.joined().contains("EXITED 2"))
  }
}
