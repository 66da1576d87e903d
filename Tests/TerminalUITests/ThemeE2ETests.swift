import Foundation
import Testing

/// The theme picked from the terminal's background: tmux answers an OSC 11 query with the
/// pane's background when one is set (window-style), and answers only the device attributes
/// query otherwise — a terminal that ignores OSC 11.
@Suite("the theme from the terminal's background, in tmux", .serialized)
struct ThemeE2ETests {
  /// Runs `termmap render` in the pane (so it talks to the terminal) once `go` exists, after
  /// `setUp`, then reads what is left in the terminal's input into `leftover`.
  func run(_ setUp: (Tmux) throws -> Void) throws -> (screen: String, leftover: String) {
    let tmux = try Tmux(width: 80, height: 24)
    let go = tmux.file("go")
    let leftover = tmux.file("leftover")
    try tmux.start(
      "unset NO_COLOR COLORFGBG COLORTERM; while [ ! -f \(go) ]; do sleep 0.05; done; "
        + "\(Tmux.termmap) render --color always --size 60x12 --center 43.7384,7.4246 --zoom 14; "
        + "stty -icanon min 0 time 5; head -c 64 | od -An -c > \(leftover); echo DONE; sleep 60")
    try setUp(tmux)
    _ = FileManager.default.createFile(atPath: go, contents: Data())
    let done = try tmux.waitFor(timeout: 60) { $0.contains { $0.hasPrefix("DONE") } }
    try #require(done.ok, "render did not finish: \(done.screen)")
    return (
      try tmux.captureWithColours(),
      (try? String(contentsOfFile: leftover, encoding: .utf8)) ?? "missing"
    )
  }

  @Test("a light background (tmux window-style bg=#f0f0e0): the light theme")
  func light() throws {
    let r = try run { tmux in
      _ = try Tmux.spawn([
        "tmux", "-S", tmux.socket, "set-option", "-g", "window-style", "bg=#f0f0e0",
      ])
    }
    // Minor streets in the light theme's near-black, not the dark theme's near-white.
    #expect(r.screen.contains("38;5;236m") && !r.screen.contains("38;5;253m"))
    #expect(!r.screen.contains("11;rgb") && !r.screen.contains("[?"))
    #expect(r.leftover.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
  }

  @Test("no OSC 11 answer (no background set): dark, nothing echoed or left in the input")
  func ignored() throws {
    let r = try run { _ in }
    #expect(r.screen.contains("38;5;253m") && !r.screen.contains("38;5;236m"))
    #expect(!r.screen.contains("11;") && !r.screen.contains("[?"))
    #expect(r.leftover.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
  }

  @Test("a dark background set (bg=#202020): dark")
  func dark() throws {
    let r = try run { tmux in
      _ = try Tmux.spawn([
        "tmux", "-S", tmux.socket, "set-option", "-g", "window-style", "bg=#202020",
      ])
    }
    #expect(r.screen.contains("38;5;253m") && !r.screen.contains("38;5;236m"))
    #expect(r.leftover.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
  }
}
