import Foundation
import Testing

/// The viewer's frame output in a real terminal (tmux): frames written by difference, with rows
/// shifted sideways (DCH, ICH) and scrolled (DECSTBM, SU, SD), must leave on screen exactly the
/// frame `termmap render` prints for the same view, and a sideways pan must cost far less than
/// a full repaint.
@Suite("viewer output in tmux", .serialized)
struct OutputE2ETests {
  static let view = ["--center", "43.7384,7.4246", "--zoom", "15"]
  static let columns = 160
  static let mapRows = 48

  /// One cell of a screen read from SGR text: the glyph and its style.
  struct Styled: Equatable, CustomStringConvertible {
    var glyph: Unicode.Scalar
    var foreground: Int?
    var background: Int?
    var bold = false
    var reverse = false
    var description: String {
      "\"\(glyph)\" fg \(foreground.map(String.init) ?? "-") bg \(background.map(String.init) ?? "-")"
        + (bold ? " bold" : "") + (reverse ? " reverse" : "")
    }
  }

  /// Lines of text with SGR sequences as styled cells (colours as palette indices, whether
  /// sent as 30–37/90–97 or 38;5;n), trailing default blanks dropped. The style carries over
  /// from line to line (`capture-pane -e` sends only changes).
  static func styledLines(_ text: String) -> [[Styled]] {
    var style = Styled(glyph: " ")
    return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      var out: [Styled] = []
      var scalars = Substring(line).unicodeScalars[...]
      while let c = scalars.first {
        scalars = scalars.dropFirst()
        guard c == "\u{1B}" else {
          var cell = style
          cell.glyph = c
          out.append(cell)
          continue
        }
        guard scalars.first == "[" else { continue }
        let body = scalars.dropFirst().prefix { !(0x40...0x7E).contains($0.value) }
        let final = scalars.dropFirst(body.count + 1).first
        scalars = scalars.dropFirst(body.count + 2)
        guard final == "m" else { continue }
        let codes = String(String.UnicodeScalarView(body)).split(
          separator: ";", omittingEmptySubsequences: false
        ).map { Int($0) ?? 0 }
        var i = 0
        while i < codes.count {
          let code = codes[i]
          switch code {
          case 0: style = Styled(glyph: " ")
          case 1: style.bold = true
          case 22: style.bold = false
          case 7: style.reverse = true
          case 27: style.reverse = false
          case 30...37: style.foreground = code - 30
          case 90...97: style.foreground = code - 90 + 8
          case 39: style.foreground = nil
          case 40...47: style.background = code - 40
          case 100...107: style.background = code - 100 + 8
          case 49: style.background = nil
          case 38, 48:
            if i + 2 < codes.count && codes[i + 1] == 5 {
              if code == 38 {
                style.foreground = codes[i + 2]
              } else {
                style.background = codes[i + 2]
              }
              i += 2
            }
          default: break
          }
          i += 1
        }
      }
      while let last = out.last, last == Styled(glyph: " ") { out.removeLast() }
      return out
    }
  }

  /// What `termmap render` prints for the view at the viewer's map size, in colour.
  func rendered(_ tmux: Tmux) throws -> [[Styled]] {
    let out = tmux.file("render.txt")
    let status = try Tmux.spawn(
      [
        "env", "-u", "NO_COLOR", "-u", "COLORTERM", "LANG=C.UTF-8", Tmux.termmap, "render",
        "--color", "always", "--size", "\(Self.columns)x\(Self.mapRows)",
      ] + Self.view, stdout: out)
    try #require(status == 0)
    return Self.styledLines(try String(contentsOfFile: out, encoding: .utf8))
  }

  /// The map rows on screen, with their colours.
  func mapOnScreen(_ tmux: Tmux) throws -> [[Styled]] {
    Array(Self.styledLines(try tmux.captureWithColours()).prefix(Self.mapRows))
  }

  func latencies(_ log: String) -> [Int] {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
      .filter { $0.hasPrefix("latency ") }
      .compactMap { line in line.split(separator: "bytes=").last.flatMap { Int($0) } }
  }

  /// Whether the map the viewer last drew was complete: the last `rendered` line of the
  /// event log (written when a frame drew tiles or had tiles waiting) says so, or there is
  /// none yet.
  func mapComplete(_ log: String) -> Bool {
    let lines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n")
    guard let last = lines.last(where: { $0.hasPrefix("rendered ") }) else { return true }
    return last == "rendered fully=true"
  }

  /// Sends a key and waits until the viewer has answered it, its map is complete (every tile
  /// the view needs drawn: on a loaded machine they may come seconds after the key's frame)
  /// and the screen has stopped changing (the last frame's bytes through tmux); returns the
  /// bytes of the answering frame.
  ///
  /// The tests of this suite are synchronous, as the other end-to-end tests are: an async
  /// test sleeping between looks waited for a thread of the concurrency pool, which the other
  /// suites' blocking tests hold on a 2-core machine, and could be failed for minutes it did
  /// not run (a press "ran past" 120 s with the screen right all along).
  @discardableResult
  func press(_ key: String, _ tmux: Tmux, log: String) throws -> Int {
    let before = latencies(log).count
    try tmux.sendKeys(key)
    var last: [String] = []
    var stableSince = Date()
    // A failure bound, not a measurement: on a machine with both cores busy the viewer can
    // wait long for a core.
    let (ok, screen) = try tmux.waitFor(timeout: 120) { screen in
      guard latencies(log).count > before, mapComplete(log) else { return false }
      if screen != last {
        last = screen
        stableSince = Date()
        return false
      }
      return Date().timeIntervalSince(stableSince) > 1.0
    }
    try #require(
      ok,
      "no settled answer to \(key): \(latencies(log).count - before) frames answered it, map complete \(mapComplete(log))\n\(screen.joined(separator: "\n"))"
    )
    return latencies(log)[before]
  }

  /// Redraws the view whole (charset to ASCII and back: the screen is cleared and written
  /// again) and returns the bytes of that full repaint.
  func fullRepaint(_ tmux: Tmux, log: String) throws -> Int {
    try press("c", tmux, log: log)
    return try press("c", tmux, log: log)
  }

  func differences(_ a: [[Styled]], _ b: [[Styled]]) -> String {
    for r in 0..<max(a.count, b.count) {
      let x = r < a.count ? a[r] : []
      let y = r < b.count ? b[r] : []
      if x != y {
        let c = (0..<min(x.count, y.count)).first { x[$0] != y[$0] } ?? min(x.count, y.count)
        return
          "row \(r), cell \(c): \(c < x.count ? "\(x[c])" : "end") vs \(c < y.count ? "\(y[c])" : "end")"
      }
    }
    return "same"
  }

  /// Checks that the map rows on screen are `expected`.
  func expectScreen(
    _ tmux: Tmux, _ expected: [[Styled]], sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let now = try mapOnScreen(tmux)
    let same = now == expected
    #expect(same, "\(differences(now, expected))", sourceLocation: sourceLocation)
  }

  @Test("pans written by difference leave the frame render prints; a sideways pan is cheap")
  func pansMatchRender() throws {
    let tmux = try Tmux(width: Self.columns, height: Self.mapRows + 1)
    let log = tmux.file("events.log")
    try tmux.start(
      "unset NO_COLOR COLORTERM; TERMMAP_EVENT_LOG=\(log) \(Tmux.termmap) "
        + Self.view.joined(separator: " ") + "; echo \"EXITED $?\"; sleep 60")
    let expected = try rendered(tmux)
    try #require(expected.count >= Self.mapRows)
    let start = Array(expected.prefix(Self.mapRows))
    let (shown, _) = try tmux.waitFor(timeout: 60) { _ in
      (try? mapOnScreen(tmux)) == start
    }
    let first = try mapOnScreen(tmux)
    try #require(shown, "the first view is not render's: \(differences(first, start))")

    // Tiles around the view drawn once, so each pan's first frame is complete; back at the
    // start (after DCH, then ICH), the screen is render's frame again.
    for key in ["l", "h", "j", "k"] { try press(key, tmux, log: log) }
    try expectScreen(tmux, start)

    let full = try fullRepaint(tmux, log: log)
    try expectScreen(tmux, start)
    for key in ["l", "h", "j", "k"] { try press(key, tmux, log: log) }

    // Each pan, written by difference, shows what a full repaint of the same view shows.
    var bytes: [String: Int] = [:]
    for key in ["l", "j", "h", "k"] {
      bytes[key] = try press(key, tmux, log: log)
      let incremental = try tmux.captureWithColours()
      _ = try fullRepaint(tmux, log: log)
      let whole = try tmux.captureWithColours()
      let same = Self.styledLines(incremental) == Self.styledLines(whole)
      #expect(
        same, "after \(key): \(differences(Self.styledLines(incremental), Self.styledLines(whole)))"
      )
    }
    try expectScreen(tmux, start)

    // The issue's bound: a one-step sideways pan writes at most 40 % of a full repaint.
    #expect(full > 10_000, "full repaint \(full) B")
    for key in ["l", "h"] {
      #expect(Double(bytes[key]!) <= 0.4 * Double(full), "\(key): \(bytes[key]!) of \(full) B")
    }
    for key in ["j", "k"] {
      #expect(Double(bytes[key]!) <= 0.4 * Double(full), "\(key): \(bytes[key]!) of \(full) B")
    }
    try tmux.sendKeys("q")
    let (quit, screen) = try tmux.waitFor(timeout: 30) { s in s.joined().contains("EXITED 0")
    }
    #expect(quit, "\(screen.joined(separator: "\n"))")
  }

  /// What `termmap render` prints for the view at a size, in colour.
  func rendered(_ tmux: Tmux, columns: Int, rows: Int) throws -> [[Styled]] {
    let out = tmux.file("render-\(columns)x\(rows).txt")
    _ = try Tmux.spawn(
      [
        "env", "-u", "NO_COLOR", "-u", "COLORTERM", "LANG=C.UTF-8", Tmux.termmap, "render",
        "--color", "always", "--size", "\(columns)x\(rows)",
      ] + Self.view, stdout: out)
    return Array(
      Self.styledLines(try String(contentsOfFile: out, encoding: .utf8)).prefix(rows))
  }

  @Test("after a resize the whole frame is written again at the new size, and stays")
  func resize() throws {
    let tmux = try Tmux(width: 100, height: 31)
    let log = tmux.file("events.log")
    try tmux.start(
      "unset NO_COLOR COLORTERM; TERMMAP_EVENT_LOG=\(log) \(Tmux.termmap) "
        + Self.view.joined(separator: " ") + "; echo \"EXITED $?\"; sleep 60")
    for (w, h) in [(100, 31), (80, 25), (120, 35)] {
      if w != 100 { try tmux.resize(width: w, height: h) }
      let expected = try rendered(tmux, columns: w, rows: h - 1)
      let (shown, _) = try tmux.waitFor(timeout: 60) { _ in
        (try? Array(Self.styledLines(tmux.captureWithColours()).prefix(h - 1))) == expected
      }
      let now = Array(Self.styledLines(try tmux.captureWithColours()).prefix(h - 1))
      try #require(shown, "\(w)x\(h): \(differences(now, expected))")
      // Keys read after the resize (ncurses refreshes its window on each) leave it alone.
      try press("l", tmux, log: log)
      try press("h", tmux, log: log)
      let after = Array(Self.styledLines(try tmux.captureWithColours()).prefix(h - 1))
      let same = after == expected
      #expect(same, "\(w)x\(h) after keys: \(differences(after, expected))")
    }
  }

  @Test("TERMMAP_OUTPUT=ncurses: ncurses writes the frames, and they are render's too")
  func ncursesOutput() throws {
    let tmux = try Tmux(width: 100, height: 31)
    let log = tmux.file("events.log")
    try tmux.start(
      "unset NO_COLOR COLORTERM; TERMMAP_OUTPUT=ncurses TERMMAP_EVENT_LOG=\(log) \(Tmux.termmap) "
        + Self.view.joined(separator: " ") + "; echo \"EXITED $?\"; sleep 60")
    let out = tmux.file("render.txt")
    _ = try Tmux.spawn(
      [
        "env", "-u", "NO_COLOR", "-u", "COLORTERM", "LANG=C.UTF-8", Tmux.termmap, "render",
        "--color", "always", "--size", "100x30",
      ] + Self.view, stdout: out)
    let start = Array(Self.styledLines(try String(contentsOfFile: out, encoding: .utf8)).prefix(30))
    let (shown, _) = try tmux.waitFor(timeout: 60) { _ in
      (try? Array(Self.styledLines(tmux.captureWithColours()).prefix(30))) == start
    }
    let first = Array(Self.styledLines(try tmux.captureWithColours()).prefix(30))
    try #require(shown, "\(differences(first, start))")
    try press("l", tmux, log: log)
    try press("h", tmux, log: log)
    let back = Array(Self.styledLines(try tmux.captureWithColours()).prefix(30))
    #expect(back == start, "\(differences(back, start))")
    // ncurses it is: it cannot shift rows, so a sideways pan costs about a full repaint.
    let full = try fullRepaint(tmux, log: log)
    let pan = try press("l", tmux, log: log)
    #expect(Double(pan) > 0.6 * Double(full), "pan \(pan) B, full repaint \(full) B")
  }
}
