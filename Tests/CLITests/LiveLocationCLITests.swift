import Foundation
import TestProcesses
import Testing

/// The viewer following a live position in a real terminal (tmux): a real gpsd replaying the
/// committed NMEA log through gpsfake, and NMEA on standard input.
@Suite("termmap --follow in tmux", .serialized)
struct LiveLocationCLITests {
  static let log = repositoryRoot.appendingPathComponent(
    "Tests/LiveLocationTests/Fixtures/monaco-ride.nmea")
  static let markers: Set<Character> = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖", "◉"]

  /// Where the marker is on the screen (column, row), if it shows.
  static func marker(_ screen: [String]) -> (Int, Int)? {
    for (r, line) in screen.enumerated() {
      if let c = line.firstIndex(where: { markers.contains($0) }) {
        return (line.distance(from: line.startIndex, to: c), r)
      }
    }
    return nil
  }

  @Test(
    "gpsd via gpsfake: the marker moves, MapKit's delegate order, f cycles, a pan drops to none; --record",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake")))
  func followGPSD() throws {
    let port = ChildProcess.freeLoopbackPort()
    let fake = try ChildProcess.spawn([
      "/usr/bin/gpsfake", "-P", "\(port)", "-q", "-1", "-c", "0.03", Self.log.path,
    ])
    defer { ChildProcess.stop(fake) }
    let term = try LiveTmux()
    let events = term.file("events.log")
    let gpx = term.file("ride.gpx")
    try term.start(
      "TERMMAP_EVENT_LOG='\(events)' '\(termmapBinary.path)' --follow gpsd://127.0.0.1:\(port) --record '\(gpx)'"
    )
    // gpsfake needs a few seconds to start its daemon: wait for the fix in the status line.
    let fixed = try term.waitFor(timeout: 90) { s in
      // The first reports may come before gpsd has a sky view and a speed: wait for both.
      (s.last?.contains("8/11 sats") == true) && (s.last?.contains("km/h") == true)
        && Self.marker(s) != nil
    }
    #expect(fixed.ok, "\(fixed.screen.joined(separator: "\n"))")
    let status = fixed.screen.last ?? ""
    #expect(status.contains("follow · 3D fix · 8/11 sats"), "\(status)")
    #expect(status.contains("km/h"), "\(status)")
    // The marker moves.
    let first = try #require(Self.marker(fixed.screen))
    let moved = try term.waitFor(timeout: 60) { s in
      guard let m = Self.marker(s) else { return false }
      return m != first
    }
    #expect(moved.ok, "the marker stayed at \(first)")
    // The delegate heard MapKit's order: start locating, the mode, then updates, and each
    // move of the map a single will/did pair right after an update.
    let follows = try term.waitForLog(events, timeout: 60) { lines in
      lines.indices.contains { i in
        i + 3 < lines.count && lines[i].hasPrefix("user-location")
          && lines[i + 1] == "will animated=false"
          && lines[i + 2] == "visible" && lines[i + 3] == "did animated=false"
      }
    }
    #expect(follows.ok, "\(follows.lines.suffix(20))")
    let lines = follows.lines
    let start = try #require(lines.firstIndex(of: "locate-start"))
    let mode = try #require(lines.firstIndex(of: "mode follow"))
    let update = try #require(lines.firstIndex { $0.hasPrefix("user-location") })
    #expect(start < mode && mode < update)
    #expect(
      lines.filter { $0.hasPrefix("will") }.count == lines.filter { $0.hasPrefix("did") }.count)
    // f cycles: follow → follow with heading → none → follow.
    try term.type("f")
    #expect(try term.waitForLog(events, timeout: 30) { $0.contains("mode followWithHeading") }.ok)
    #expect(try term.waitFor(timeout: 30) { $0.last?.contains("follow+heading") == true }.ok)
    try term.type("f")
    #expect(try term.waitForLog(events, timeout: 30) { $0.contains("mode none") }.ok)
    try term.type("f")
    #expect(
      try term.waitForLog(events, timeout: 30) { $0.filter { $0 == "mode follow" }.count == 2 }.ok)
    // A pan by hand drops tracking to none, inside the gesture's will/did.
    try term.type("l")
    let dropped = try term.waitForLog(events, timeout: 30) {
      $0.filter { $0 == "mode none" }.count == 2
    }
    #expect(dropped.ok)
    if let i = dropped.lines.lastIndex(of: "mode none") {
      #expect(
        dropped.lines[..<i].last { $0.hasPrefix("will") || $0.hasPrefix("did") }
          == "will animated=false")
    }
    #expect(try term.waitFor(timeout: 30) { !($0.last?.contains("follow") ?? true) }.ok)
    try term.type("q")
    #expect(try term.waitForLog(events, timeout: 30) { _ in !term.isRunning }.ok)
    // The recording is a GPX termmap reads, with the points the viewer got.
    let info = try termmap(["info", gpx])
    #expect(info.status == 0, "\(info.stderr)")
    #expect(info.stdout.contains("GPX"), "\(info.stdout)")
  }

  @Test("NMEA on standard input: the viewer reads it and the keys still work")
  func followStdin() throws {
    let term = try LiveTmux()
    try term.start("cat '\(Self.log.path)' | '\(termmapBinary.path)' --follow -")
    let shown = try term.waitFor(timeout: 60) { s in
      s.last?.contains("input ended") == true && Self.marker(s) != nil
    }
    #expect(shown.ok, "\(shown.screen.joined(separator: "\n"))")
    // The ride ends still on the Rock: the last fix's speed is 0, so a dot.
    #expect(shown.screen.joined().contains("◉"))
    try term.type("f")
    #expect(try term.waitFor(timeout: 30) { $0.last?.contains("follow+heading") == true }.ok)
    try term.type("q")
    #expect(try term.waitFor(timeout: 30) { _ in !term.isRunning }.ok)
  }

  @Test("--record survives kill -9: the GPX holds every fix so far and reads back")
  func recordKilled() throws {
    let term = try LiveTmux()
    let events = term.file("events.log")
    let gpx = term.file("killed.gpx")
    try term.start(
      "TERMMAP_EVENT_LOG='\(events)' '\(termmapBinary.path)' --follow '\(Self.log.path)' --record '\(gpx)'"
    )
    // The file is read at once: 1,130 fixes, then the viewer waits for more.
    let read = try term.waitForLog(events, timeout: 60) { lines in
      lines.filter { $0.hasPrefix("user-location") }.count == 1130
    }
    #expect(read.ok, "\(read.lines.filter { $0.hasPrefix("user-location") }.count) fixes")
    // The recording is written on a thread of its own: wait for its last point, then kill.
    let written = try term.waitFor(timeout: 30) { _ in
      let text = (try? String(contentsOfFile: gpx, encoding: .utf8)) ?? ""
      return text.components(separatedBy: "<trkpt").count - 1 == 1130
    }
    #expect(written.ok)
    let pid = try #require(
      read.lines.first { $0.hasPrefix("pid ") }.flatMap { Int32($0.dropFirst(4)) })
    #expect(kill(pid, SIGKILL) == 0)
    #expect(try term.waitFor(timeout: 30) { _ in !term.isRunning }.ok)
    let info = try termmap(["info", gpx])
    #expect(info.status == 0, "\(info.stderr)")
    #expect(info.stdout.contains("points      1130"), "\(info.stdout)")
    #expect(info.stdout.contains("tracks      1 (2 segments)"), "\(info.stdout)")
  }

  @Test("--follow errors are one line and exit status 2")
  func errors() throws {
    let r = try termmap(["--follow", "gpsd://host:http"])
    #expect(r.status == 2)
    #expect(r.stderr == "termmap: --follow: gpsd://host:http: expected gpsd://HOST:PORT\n")
    let rec = try termmap(["--record", "x.gpx"])
    #expect(rec.status == 2)
    #expect(rec.stderr == "termmap: --record needs --follow SOURCE\n")
    let dir = try termmap(["--follow", "gpsd", "--record", "/nonexistent/dir/x.gpx"])
    #expect(dir.status == 2)
    #expect(dir.stderr.hasPrefix("termmap: --record: /nonexistent/dir/x.gpx: "), "\(dir.stderr)")
  }
}

/// A private tmux server running the viewer.
final class LiveTmux {
  let directory: URL
  let socket: String

  let width: Int

  init(width: Int = 120) throws {
    self.width = width
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-live-cli-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    socket = directory.appendingPathComponent("sock").path
  }

  deinit {
    _ = try? ChildProcess.run(["tmux", "-S", socket, "kill-server"])
    try? FileManager.default.removeItem(at: directory)
  }

  func file(_ name: String) -> String { directory.appendingPathComponent(name).path }

  func start(_ command: String) throws {
    let script =
      "cd '\(repositoryRoot.path)' && export LANG=C.UTF-8 TERM=xterm-256color && \(command); touch '\(file("exited"))'; sleep 60"
    let status = try ChildProcess.run([
      "tmux", "-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", "\(width)",
      "-y", "40", "/bin/sh", "-c", script,
    ])
    guard status == 0 else { throw CocoaError(.executableLoad) }
    _ = try ChildProcess.run(["tmux", "-S", socket, "set", "-sg", "escape-time", "10"])
  }

  var isRunning: Bool { !FileManager.default.fileExists(atPath: file("exited")) }

  func type(_ text: String) throws {
    try ChildProcess.run(["tmux", "-S", socket, "send-keys", "-t", "main", "-l", text])
  }

  func capture() throws -> [String] {
    let out = file("capture.txt")
    try ChildProcess.run(["tmux", "-S", socket, "capture-pane", "-p", "-t", "main"], stdout: out)
    let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    while lines.last == "" { lines.removeLast() }
    return lines
  }

  /// Polls the screen until `condition` holds (or the timeout passes).
  func waitFor(timeout: Double, _ condition: ([String]) -> Bool) throws -> (
    ok: Bool, screen: [String]
  ) {
    let end = Date().addingTimeInterval(timeout)
    var screen: [String] = []
    while Date() < end {
      screen = try capture()
      if condition(screen) { return (true, screen) }
      usleep(100_000)
    }
    // One last look: a loaded machine may have kept this thread past the deadline.
    screen = try capture()
    return (condition(screen), screen)
  }

  /// Polls an event log until `condition` holds for its lines.
  func waitForLog(_ path: String, timeout: Double, _ condition: ([String]) -> Bool) throws -> (
    ok: Bool, lines: [String]
  ) {
    let end = Date().addingTimeInterval(timeout)
    var lines: [String] = []
    while Date() < end {
      let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
      lines = text.split(separator: "\n").map(String.init).filter {
        !$0.hasPrefix("frame") && !$0.hasPrefix("latency")
      }
      if condition(lines) { return (true, lines) }
      usleep(100_000)
    }
    // One last look: a loaded machine may have kept this thread past the deadline.
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    lines = text.split(separator: "\n").map(String.init).filter {
      !$0.hasPrefix("frame") && !$0.hasPrefix("latency")
    }
    return (condition(lines), lines)
  }
}
