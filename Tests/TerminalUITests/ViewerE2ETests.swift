import Foundation
import Testing

/// The real binary in a real terminal (tmux), for what only a terminal shows: start-up, the
/// locale, quitting and signals. Keys, prompt, help and callouts are tested on the in-memory
/// backend (ViewerBackendTests), in milliseconds.
@Suite("viewer in tmux", .serialized)
struct ViewerE2ETests {
  static let route = "Data/samples/lisbon-walk.csv"

  /// Starts the viewer on the Lisbon walk inside a shell that records `stty -a` before and
  /// after (each file appears whole, by a rename), and the exit status. Stops the test when
  /// the viewer does not come up, rather than letting every later wait time out.
  func startViewer(_ tmux: Tmux, extra: String = "", environment: String = "") throws -> String {
    let log = tmux.file("events.log")
    let before = tmux.file("stty.before")
    let after = tmux.file("stty.after")
    try tmux.start(
      "stty -a > \(before).tmp; mv \(before).tmp \(before);"
        + " \(environment) TERMMAP_EVENT_LOG=\(log) \(Tmux.termmap) \(extra) \(Self.route);"
        + " echo \"EXITED $?\"; stty -a > \(after).tmp; mv \(after).tmp \(after); sleep 60")
    // Loaded: the markers, and the point count (or, on a narrow line at this depth, the note
    // that there is no map data this close, which outranks it).
    let (ok, screen) = try tmux.waitFor(timeout: 60) { s in
      s.joined().contains("Rossio")
        && (s.joined().contains("pts") || s.joined().contains("no map data"))
    }
    try #require(
      ok, "the viewer did not show the route's markers:\n\(screen.joined(separator: "\n"))")
    return log
  }

  /// Waits for the shell to have written the settings after the viewer (a whole file).
  func settingsAfter(_ tmux: Tmux) throws -> (before: String, after: String) {
    let path = tmux.file("stty.after")
    let (written, _) = try tmux.waitFor(timeout: 30) { _ in
      FileManager.default.fileExists(atPath: path)
    }
    try #require(written, "the shell did not record the settings after the viewer")
    return (
      try String(contentsOfFile: tmux.file("stty.before"), encoding: .utf8),
      try String(contentsOfFile: path, encoding: .utf8)
    )
  }

  func events(_ path: String) -> [String] {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(
      String.init)
  }

  /// Braille cells drawn with foreground SGR `colour` (e.g. "91") in a `capture-pane -e` text.
  func brailleCells(inColour colour: String, _ captured: String) -> Int {
    var count = 0
    var foreground = ""
    var scalars = captured.unicodeScalars[...]
    while let c = scalars.first {
      scalars = scalars.dropFirst()
      if c == "\u{1B}", scalars.first == "[" {
        let body = scalars.dropFirst().prefix { $0 != "m" }
        scalars = scalars.dropFirst(body.count + 2)
        for code in String(String.UnicodeScalarView(body)).split(separator: ";") {
          if code == "0" || code == "39" { foreground = "" }
          if (30...37).contains(Int(code) ?? 0) || (90...97).contains(Int(code) ?? 0) {
            foreground = String(code)
          }
        }
        if body.starts(with: "38;5;".unicodeScalars) {
          foreground = String(String.UnicodeScalarView(body))
        }
      } else if (0x2801...0x28FF).contains(c.value) && foreground == colour {
        count += 1
      }
    }
    return count
  }

  func brailleCount(_ screen: [String]) -> Int {
    screen.joined().unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }.count
  }

  @Test("starts with the route fitted, its markers, its own line and the status line")
  func startsFitted() throws {
    let tmux = try Tmux()
    _ = try startViewer(tmux, extra: "--no-basemap")
    let screen = try tmux.capture()
    let text = screen.joined(separator: "\n")
    #expect(text.contains("Rossio"))
    #expect(text.contains("A Brasileira"))
    #expect(text.contains("Cais do Sodré"))
    // No basemap: every braille cell is the route's own line.
    #expect(brailleCount(screen) > 40, "\(text)")
    // The status line (last row) gives the centre, near Lisbon, and the loaded points.
    let status = screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    #expect(status.contains("38.7"))
    #expect(status.contains("20 pts"))
  }

  @Test("with the map: the route's own cells are drawn in its colour over the basemap")
  func routeOverBasemap() throws {
    let tmux = try Tmux()
    // In colour, whatever the test runner's environment says.
    _ = try startViewer(tmux, environment: "unset NO_COLOR;")
    // The walk's line is bright red (SGR 91); the basemap has none of it.
    let (ok, screen) = try tmux.waitFor(timeout: 30) { _ in
      brailleCells(inColour: "91", (try? tmux.captureWithColours()) ?? "") > 40
    }
    #expect(ok, "\(screen.joined(separator: "\n"))")
  }

  @Test("a panned view and a burst of keys: the event log has one change per burst")
  func arrowBurst() throws {
    let tmux = try Tmux()
    let log = try startViewer(tmux, extra: "--no-basemap")
    let start = events(log).count
    try tmux.sendKeys("Right", "Right", "Right", "Right", "Right")
    // The frame after the change settled.
    let (settled, _) = try tmux.waitFor(timeout: 30) { _ in
      let e = events(log).dropFirst(start)
      return e.contains { $0.hasPrefix("did") } && e.last == "frame routes=shown"
    }
    try #require(settled, "\(events(log).dropFirst(start))")
    let burst = Array(events(log).dropFirst(start).drop { !$0.hasPrefix("will") })
    #expect(burst.filter { $0.hasPrefix("will") }.count == 1, "\(burst)")
    #expect(burst.filter { $0.hasPrefix("did") }.count == 1, "\(burst)")
    #expect(burst.filter { $0 == "visible" }.count == 5, "\(burst)")
  }

  @Test("Ctrl-Z, then fg in an interactive bash: the whole map is drawn again")
  func suspendAndResume() throws {
    let tmux = try Tmux()
    try tmux.start("PS1='$ ' exec bash --norc --noprofile -i")
    try tmux.type("\(Tmux.termmap) --no-basemap \(Self.route)")
    try tmux.sendKeys("Enter")
    let (shown, first) = try tmux.waitFor(timeout: 60) { s in
      s.joined().contains("Rossio") && s.joined().contains("pts")
    }
    try #require(shown, "\(first.joined(separator: "\n"))")
    let cells = brailleCount(first)
    try tmux.sendKeys("C-z")
    let (stopped, shell) = try tmux.waitFor(timeout: 30) { s in
      s.joined().contains("Stopped") && brailleCount(s) == 0
    }
    try #require(stopped, "\(shell.joined(separator: "\n"))")
    try tmux.type("fg")
    try tmux.sendKeys("Enter")
    let (again, screen) = try tmux.waitFor(timeout: 30) { s in
      brailleCount(s) == cells && s.joined().contains("Rossio") && s.joined().contains("pts")
    }
    #expect(again, "\(screen.joined(separator: "\n"))")
    try tmux.sendKeys("q")
  }

  @Test("no offline map: the status line says so and where to get it")
  func missingOfflineMap() throws {
    let tmux = try Tmux()
    try tmux.start("TERMMAP_DATA=/nonexistent/termmap-data \(Tmux.termmap); sleep 60")
    let (said, screen) = try tmux.waitFor(timeout: 30) {
      $0.joined().contains("the offline map is missing: no world.pmtiles in TERMMAP_DATA=")
    }
    #expect(said, "\(screen.joined(separator: "\n"))")
    try tmux.type("q")
  }

  @Test("TERM=dumb: one line saying why, and the way to a frame; exit 2")
  func dumbTerminal() throws {
    let tmux = try Tmux()
    try tmux.start("TERM=dumb \(Tmux.termmap) \(Self.route); echo \"EXITED $?\"; sleep 60")
    let (ended, screen) = try tmux.waitFor(timeout: 30) { $0.joined().contains("EXITED") }
    try #require(ended, "\(screen.joined(separator: "\n"))")
    let text = screen.joined()
    #expect(
      text.contains(
        "termmap: the viewer needs a terminal that can move its cursor, and TERM=dumb cannot; "
          + "use `termmap render` to print a frame"), "\(screen.joined(separator: "\n"))")
    #expect(text.contains("EXITED 2"))
  }

  @Test("LANG=C: the help's arrows and the credits' dots have ASCII stand-ins, not ?")
  func asciiHelpAndCredits() throws {
    let tmux = try Tmux()
    _ = try startViewer(tmux, environment: "LANG=C LC_ALL= LC_CTYPE=")
    let (credited, first) = try tmux.waitFor(timeout: 30) {
      $0.joined().contains("Natural Earth | GeoNames")
    }
    #expect(credited, "\(first.joined(separator: "\n"))")
    try tmux.type("?")
    let (shown, screen) = try tmux.waitFor(timeout: 30) { $0.joined().contains("termmap keys") }
    try #require(shown, "\(screen.joined(separator: "\n"))")
    let text = screen.joined(separator: "\n")
    #expect(text.contains("<v^>  h j k l"), "\(text)")
    #expect(!text.contains("??"), "\(text)")
    #expect(text.unicodeScalars.allSatisfy { $0.isASCII })
    try tmux.type("q")
  }

  @Test("LANG=C: the viewer draws ASCII, accents dropped, no braille")
  func asciiLocale() throws {
    let tmux = try Tmux()
    _ = try startViewer(tmux, extra: "--no-basemap", environment: "LANG=C LC_ALL= LC_CTYPE=")
    let screen = try tmux.capture()
    let text = screen.joined(separator: "\n")
    #expect(brailleCount(screen) == 0, "\(text)")
    #expect(text.contains("Cais do Sodre"), "\(text)")
    #expect(text.unicodeScalars.allSatisfy { $0.isASCII }, "\(text)")
    #expect(text.contains(" | 20 pts"))
    // --charset braille is drawn anyway: the user knows the terminal.
    let forced = try Tmux()
    _ = try startViewer(
      forced, extra: "--no-basemap --charset braille", environment: "LANG=C LC_ALL= LC_CTYPE=")
    #expect(brailleCount(try forced.capture()) > 40)
  }

  @Test("LANG=C: render on a terminal prints ASCII; with UTF-8, braille")
  func renderLocale() throws {
    let tmux = try Tmux()
    let render = "\(Tmux.termmap) render --no-basemap --status --size 60x15 \(Self.route)"
    try tmux.start(
      "LANG=C LC_ALL= LC_CTYPE= \(render); echo ASCII-DONE; \(render); echo \"EXITED $?\"; sleep 60"
    )
    let (ok, screen) = try tmux.waitFor(timeout: 30) { s in s.joined().contains("EXITED 0") }
    try #require(ok, "\(screen.joined(separator: "\n"))")
    let split = try #require(screen.firstIndex { $0.contains("ASCII-DONE") })
    let ascii = Array(screen[..<split])
    let utf8 = Array(screen[split...])
    #expect(brailleCount(ascii) == 0, "\(ascii.joined(separator: "\n"))")
    #expect(ascii.joined().contains("Rossio"))
    #expect(ascii.joined().contains("Cais do Sodre"))
    #expect(ascii.joined().unicodeScalars.allSatisfy { $0.isASCII })
    #expect(brailleCount(utf8) > 20)
  }

  @Test("w at 80 × 24 shows the whole world with the big countries named")
  func wholeWorld() throws {
    let tmux = try Tmux(width: 80, height: 24)
    _ = try startViewer(tmux)
    try tmux.sendKeys("w")
    let (ok, screen) = try tmux.waitFor(timeout: 30) { s in
      let t = s.joined()
      return ["Canada", "Russia", "China", "Australia", "Antarctica"].allSatisfy { t.contains($0) }
        && (s.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "").contains("z-")
    }
    #expect(ok, "\(screen.joined(separator: "\n"))")
  }

  @Test("q gives the shell back with the terminal settings as before")
  func quitRestores() throws {
    let tmux = try Tmux()
    _ = try startViewer(tmux)
    try tmux.sendKeys("q")
    let (ok, screen) = try tmux.waitFor(timeout: 30) { s in s.joined().contains("EXITED 0") }
    try #require(ok, "\(screen.joined(separator: "\n"))")
    // No residue of the map: the screen holds only the shell's line.
    #expect(brailleCount(screen) == 0)
    let settings = try settingsAfter(tmux)
    #expect(settings.before == settings.after)
  }

  @Test("kill -TERM (and -HUP) leave the terminal sane", arguments: [SIGTERM, SIGHUP])
  func signalRestores(signal: Int32) throws {
    let tmux = try Tmux()
    let log = try startViewer(tmux)
    let pidLine = events(log).first { $0.hasPrefix("pid ") } ?? ""
    let pid = pid_t(pidLine.dropFirst(4)) ?? 0
    try #require(pid > 0)
    kill(pid, signal)
    let (ok, screen) = try tmux.waitFor(timeout: 30) { s in
      s.joined().contains("EXITED \(128 + signal)")
    }
    try #require(ok, "\(screen.joined(separator: "\n"))")
    #expect(brailleCount(screen) == 0)
    let settings = try settingsAfter(tmux)
    #expect(settings.before == settings.after)
  }
}
