import Foundation
import Testing

/// The real binary in a real terminal (tmux), driven by keys and read back from the screen.
@Suite("viewer in tmux", .serialized)
struct ViewerE2ETests {
  static let route = "Data/samples/lisbon-walk.csv"

  /// Starts the viewer on the Lisbon walk inside a shell that records `stty -a` before and
  /// after, and the exit status.
  func startViewer(_ tmux: Tmux, extra: String = "") throws -> String {
    let log = tmux.file("events.log")
    try tmux.start(
      "stty -a > \(tmux.file("stty.before")); TERMMAP_EVENT_LOG=\(log) \(Tmux.termmap) \(extra) \(Self.route);"
        + " echo \"EXITED $?\"; stty -a > \(tmux.file("stty.after")); sleep 60")
    let (ok, screen) = try tmux.waitFor { s in
      s.joined().contains("Rossio") && s.joined().contains("pts")
    }
    #expect(ok, "the viewer did not show the route's markers:\n\(screen.joined(separator: "\n"))")
    return log
  }

  func events(_ path: String) -> [String] {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(
      String.init)
  }

  func brailleCount(_ screen: [String]) -> Int {
    screen.joined().unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }.count
  }

  @Test("starts with the route fitted and its markers shown")
  func startsFitted() throws {
    let tmux = try Tmux()
    _ = try startViewer(tmux)
    let screen = try tmux.capture()
    let text = screen.joined(separator: "\n")
    #expect(text.contains("Rossio"))
    #expect(text.contains("A Brasileira"))
    #expect(text.contains("Cais do Sodré"))
    #expect(brailleCount(screen) > 40)
    // The status line (last row) gives the centre, near Lisbon, and the loaded points.
    let status = screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    #expect(status.contains("38.7"))
    #expect(status.contains("20 pts"))
  }

  @Test("a burst of five arrow presses is one change: one will, one did, routes hidden between")
  func arrowBurst() throws {
    let tmux = try Tmux()
    let log = try startViewer(tmux)
    let before = try tmux.capture()
    let start = events(log).count
    try tmux.sendKeys("Right", "Right", "Right", "Right", "Right")
    let (settled, after) = try tmux.waitFor {
      _ in events(log).dropFirst(start).contains { $0.hasPrefix("did") }
    }
    #expect(settled)
    #expect(after != before)
    // Wait for the frame after the change settled, then read the delegate sequence.
    _ = try tmux.waitFor { _ in events(log).dropFirst(start).last == "frame routes=shown" }
    // From the change's start (a frame may come before it, e.g. when place names finish loading).
    let all = Array(events(log).dropFirst(start))
    let burst = Array(all.drop { !$0.hasPrefix("will") })
    #expect(burst.filter { $0.hasPrefix("will") }.count == 1, "\(burst)")
    #expect(burst.filter { $0.hasPrefix("did") }.count == 1, "\(burst)")
    #expect(burst.first == "will animated=false")
    let did = burst.firstIndex { $0.hasPrefix("did") }!
    let framesDuring = burst[..<did].filter { $0.hasPrefix("frame") }
    #expect(framesDuring.allSatisfy { $0 == "frame routes=hidden" }, "\(burst)")
    #expect(burst[did...].contains("frame routes=shown"))
    #expect(burst.filter { $0 == "visible" }.count == 5)
  }

  @Test("panning moves the map and the route is drawn again once the change settles")
  func panRedraws() throws {
    let tmux = try Tmux()
    _ = try startViewer(tmux)
    let before = try tmux.capture()
    try tmux.sendKeys("Left")
    let (moved, after) = try tmux.waitFor { s in s != before && brailleCount(s) > 40 }
    #expect(moved)
    // The marker moved right by an eighth of the screen.
    let col = { (s: [String]) -> Int? in
      for line in s {
        if let r = line.range(of: "Rossio") {
          return line.distance(from: line.startIndex, to: r.lowerBound)
        }
      }
      return nil
    }
    if let a = col(before), let b = col(after) { #expect(b > a) }
  }

  @Test("Tab then Enter opens the nearest marker's callout with its details")
  func tabEnterCallout() throws {
    let tmux = try Tmux()
    _ = try startViewer(tmux)
    try tmux.sendKeys("Tab")
    _ = try tmux.waitFor { s in s.joined().contains("▸") }
    try tmux.sendKeys("Enter")
    let (ok, screen) = try tmux.waitFor { s in s.joined().contains("┌") && s.joined().contains("┘")
    }
    #expect(ok)
    let text = screen.joined(separator: "\n")
    // A Brasileira sits nearest the centre of the fitted walk.
    #expect(text.contains("Café on Rua Garrett, open since 1905"))
    #expect(text.contains("38.71070, -9.14210"))
    #expect(text.contains("▸ A Brasileira"))
    try tmux.sendKeys("Escape")
    let (closed, _) = try tmux.waitFor { s in !s.joined().contains("┌") }
    #expect(closed)
  }

  @Test("/ with a city name and Enter goes to that city")
  func searchCity() throws {
    let tmux = try Tmux()
    _ = try startViewer(tmux)
    try tmux.sendKeys("/")
    try tmux.type("Tokyo")
    let (listed, _) = try tmux.waitFor(timeout: 20) { s in s.joined().contains("Tokyo, Japan") }
    #expect(listed)
    try tmux.sendKeys("Enter")
    let (arrived, screen) = try tmux.waitFor(timeout: 10) { s in
      (s.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "").contains("35.6")
    }
    #expect(arrived, "\(screen.suffix(2))")
    let status = screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
    #expect(status.contains("139.") || status.contains("Tokyo"))
  }

  @Test("a typed coordinate goes there")
  func searchCoordinate() throws {
    let tmux = try Tmux()
    _ = try startViewer(tmux)
    try tmux.sendKeys("/")
    try tmux.type("48°51′N 2°21′E")
    _ = try tmux.waitFor { s in s.joined().contains("go to 48.85") }
    try tmux.sendKeys("Enter")
    let (ok, screen) = try tmux.waitFor { s in
      (s.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "").contains("48.85")
    }
    #expect(ok, "\(screen.suffix(1))")
  }

  @Test("? shows the keys")
  func help() throws {
    let tmux = try Tmux()
    _ = try startViewer(tmux)
    try tmux.sendKeys("?")
    let keys = ["zoom in / out", "search a place", "quit", "next / previous marker"]
    let (ok, screen) = try tmux.waitFor { s in
      s.joined().contains("termmap keys") && keys.allSatisfy { s.joined().contains($0) }
    }
    #expect(ok)
    let text = screen.joined(separator: "\n")
    for key in keys {
      #expect(text.contains(key))
    }
  }

  @Test("q gives the shell back with the terminal settings as before")
  func quitRestores() throws {
    let tmux = try Tmux()
    _ = try startViewer(tmux)
    try tmux.sendKeys("q")
    let (ok, screen) = try tmux.waitFor { s in s.joined().contains("EXITED 0") }
    #expect(ok)
    // No residue of the map: the screen holds only the shell's line.
    #expect(brailleCount(screen) == 0)
    _ = try tmux.waitFor { _ in FileManager.default.fileExists(atPath: tmux.file("stty.after")) }
    usleep(200_000)
    let before = try String(contentsOfFile: tmux.file("stty.before"), encoding: .utf8)
    let after = try String(contentsOfFile: tmux.file("stty.after"), encoding: .utf8)
    #expect(before == after)
  }

  @Test("kill -TERM (and -HUP) leave the terminal sane", arguments: [SIGTERM, SIGHUP])
  func signalRestores(signal: Int32) throws {
    let tmux = try Tmux()
    let log = try startViewer(tmux)
    let pidLine = events(log).first { $0.hasPrefix("pid ") } ?? ""
    let pid = pid_t(pidLine.dropFirst(4)) ?? 0
    #expect(pid > 0)
    kill(pid, signal)
    let (ok, screen) = try tmux.waitFor { s in s.joined().contains("EXITED \(128 + signal)") }
    #expect(ok, "\(screen.joined(separator: "\n"))")
    #expect(brailleCount(screen) == 0)
    _ = try tmux.waitFor { _ in FileManager.default.fileExists(atPath: tmux.file("stty.after")) }
    usleep(200_000)
    let before = try String(contentsOfFile: tmux.file("stty.before"), encoding: .utf8)
    let after = try String(contentsOfFile: tmux.file("stty.after"), encoding: .utf8)
    #expect(before == after)
  }
}
