import Foundation
import Testing

/// The committed zsh completion script (docs/completions/_termmap) in a real zsh, in tmux: Tab
/// completes an option, then lists its values.
@Suite(
  "zsh completes termmap in tmux", .serialized,
  .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")))
struct ShellCompletionTests {
  @Test("termmap render --col<Tab> gives --color; Tab again lists auto, always and never")
  func zshCompletes() throws {
    let tmux = try Tmux()
    try tmux.start("exec /usr/bin/zsh -f")
    try tmux.type(
      "PS1='> '; fpath=(docs/completions $fpath); autoload -U compinit; compinit -u -D; echo READY")
    try tmux.sendKeys("Enter")
    let (ready, start) = try tmux.waitFor(timeout: 30) { $0.contains("READY") }
    try #require(ready, "zsh did not start:\n\(start.joined(separator: "\n"))")
    try tmux.type("termmap render --col")
    try tmux.sendKeys("Tab")
    let (option, line) = try tmux.waitFor(timeout: 30) { s in
      s.contains { $0.hasPrefix("> termmap render --color") }
    }
    #expect(option, "\(line.joined(separator: "\n"))")
    try tmux.sendKeys("Tab")
    let (values, list) = try tmux.waitFor(timeout: 30) { s in
      let text = s.joined(separator: "\n")
      return ["auto", "always", "never"].allSatisfy { text.contains($0) }
    }
    #expect(values, "\(list.joined(separator: "\n"))")
  }
}
