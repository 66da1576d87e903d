import CNcursesw
import Foundation
import TestProcesses

/// A private tmux server for one test: the viewer runs in its pane, keys go in with send-keys,
/// the screen comes out with capture-pane. Commands are spawned with posix_spawn, with the
/// signal mask reset and inherited descriptors closed, so the server never holds the test
/// runner's pipes open.
final class Tmux {
  let directory: URL
  let socket: String
  let width: Int
  let height: Int

  init(width: Int = 120, height: Int = 40) throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("termmap-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    socket = directory.appendingPathComponent("sock").path
    self.width = width
    self.height = height
  }

  deinit {
    _ = try? Tmux.spawn(["tmux", "-S", socket, "kill-server"])
    try? FileManager.default.removeItem(at: directory)
  }

  /// The built termmap next to the test bundle.
  static var termmap: String {
    let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let direct = dir.appendingPathComponent("termmap")
    if FileManager.default.fileExists(atPath: direct.path) { return direct.path }
    return dir.deletingLastPathComponent().appendingPathComponent("termmap").path
  }

  static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Starts the session running a shell command (in the repository root).
  func start(_ command: String) throws {
    let script =
      "cd '\(Tmux.repositoryRoot.path)' && export LANG=C.UTF-8 TERM=xterm-256color && \(command)"
    let status = try Tmux.spawn([
      "tmux", "-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "\(width)",
      "-y", "\(height)", "/bin/sh", "-c", script,
    ])
    guard status == 0 else { throw TmuxError("tmux new-session exited \(status)") }
  }

  func sendKeys(_ keys: String...) throws {
    _ = try Tmux.spawn(["tmux", "-S", socket, "send-keys", "-t", "main"] + keys)
  }

  /// Sends raw bytes (e.g. an SGR mouse report) to the program.
  func sendBytes(_ text: String) throws {
    let hex = text.utf8.map { String(format: "%02x", $0) }
    _ = try Tmux.spawn(["tmux", "-S", socket, "send-keys", "-t", "main", "-H"] + hex)
  }

  /// An SGR (1006) mouse report: button code, 1-based column and row, press or release.
  func mouse(_ code: Int, column: Int, row: Int, press: Bool = true) throws {
    try sendBytes("\u{1B}[<\(code);\(column + 1);\(row + 1)\(press ? "M" : "m")")
  }

  func resize(width: Int, height: Int) throws {
    _ = try Tmux.spawn([
      "tmux", "-S", socket, "resize-window", "-t", "main", "-x", "\(width)", "-y", "\(height)",
    ])
  }

  /// Sends text literally (no key names).
  func type(_ text: String) throws {
    _ = try Tmux.spawn(["tmux", "-S", socket, "send-keys", "-t", "main", "-l", text])
  }

  /// The screen as text lines.
  func capture() throws -> [String] {
    let out = directory.appendingPathComponent("capture.txt").path
    _ = try Tmux.spawn(["tmux", "-S", socket, "capture-pane", "-p", "-t", "main"], stdout: out)
    let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// The screen with its colours, as escape sequences (capture-pane -e).
  func captureWithColours() throws -> String {
    let out = directory.appendingPathComponent("capture-e.txt").path
    _ = try Tmux.spawn(
      ["tmux", "-S", socket, "capture-pane", "-p", "-e", "-t", "main"], stdout: out)
    return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
  }

  /// Polls the screen until `condition` holds; returns the last screen either way.
  @discardableResult
  func waitFor(
    timeout: Double = 30, _ condition: ([String]) -> Bool
  ) throws -> (ok: Bool, screen: [String]) {
    let end = Date().addingTimeInterval(timeout)
    var screen: [String] = []
    while Date() < end {
      screen = try capture()
      if condition(screen) { return (true, screen) }
      usleep(50_000)
    }
    // One last look: a loaded machine may have kept this thread past the deadline.
    screen = try capture()
    return (condition(screen), screen)
  }

  func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

  /// Runs a program and waits for it; stdin and stderr are /dev/null, stdout optionally a file.
  @discardableResult
  static func spawn(_ arguments: [String], stdout: String? = nil) throws -> Int32 {
    try ChildProcess.run(arguments, stdout: stdout)
  }
}

struct TmuxError: Error, CustomStringConvertible {
  let description: String
  init(_ d: String) { description = d }
}
