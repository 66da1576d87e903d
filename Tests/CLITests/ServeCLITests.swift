import Foundation
import TestProcesses
import Testing

/// `termmap serve` with OpenSSH's client in tmux, as a user would connect.
@Suite("termmap serve over ssh", .serialized)
struct ServeCLITests {
  /// A server on a free loopback port in the background; its process id and port.
  static func serve(_ tmux: LiveTmux, _ extra: [String] = []) throws -> (pid: pid_t, port: UInt16) {
    let port = ChildProcess.freeLoopbackPort()
    let pid = try ChildProcess.spawn(
      [
        termmapBinary.path, "serve", "--listen", "127.0.0.1:\(port)", "--host-key",
        tmux.file("host_key"),
      ] + extra, stderr: tmux.file("serve.log"))
    // Listening once it said so (with --metrics, its metrics too: the line comes after both).
    let log = waitForLog(tmux.file("serve.log"), containing: "listening on")
    if !log.contains("listening on") { ChildProcess.stop(pid) }
    try #require(log.contains("listening on"), "termmap serve did not say it was listening: \(log)")
    return (pid, port)
  }

  /// The server's log once it contains `text`, or as it is after `timeout` seconds (a failure
  /// bound: on a loaded machine the server may wait long for a core).
  static func waitForLog(_ path: String, containing text: String, timeout: Double = 60) -> String {
    let end = Date().addingTimeInterval(timeout)
    var log = ""
    repeat {
      log = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
      if log.contains(text) { return log }
      usleep(50_000)
    } while Date() < end
    return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
  }

  static func ssh(_ port: UInt16, _ target: String, key: String? = nil) -> String {
    "ssh -F /dev/null -p \(port) -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null"
      + " -o LogLevel=ERROR" + (key.map { " -o IdentitiesOnly=yes -i \($0)" } ?? "") + " \(target)"
  }

  @Test("the user name opens at a place; keys zoom and pan; resize follows; q ends cleanly")
  func session() throws {
    let tmux = try LiveTmux(width: 100)
    let (pid, port) = try Self.serve(tmux, ["--anonymous"])
    defer { ChildProcess.stop(pid) }
    let log = try String(contentsOfFile: tmux.file("serve.log"), encoding: .utf8)
    #expect(log.contains("listening on 127.0.0.1:\(port), host key SHA256:"), "\(log)")
    try tmux.start(Self.ssh(port, "lyon@127.0.0.1") + "; echo ssh-status-$?")
    // The status line comes first; the map's names once its tiles are drawn.
    let lyon = try tmux.waitFor(timeout: 60) {
      $0.last?.contains("z11.0") == true && $0.joined().contains("Lyon")
    }
    #expect(lyon.ok, "\(lyon.screen)")
    #expect(lyon.screen.last?.hasPrefix("45.7") == true, "\(lyon.screen.last ?? "")")
    try tmux.type("+")
    let zoomed = try tmux.waitFor(timeout: 30) { $0.last?.contains("z12.0") == true }
    #expect(zoomed.ok, "\(zoomed.screen.last ?? "")")
    // A session never makes the server fetch anything: no download hint, D is off.
    let status = zoomed.screen.last ?? ""
    #expect(status.contains("no map data here") && !status.contains("termmap get"), "\(status)")
    try tmux.type("D")
    let refused = try tmux.waitFor(timeout: 30) {
      $0.last?.contains("downloads are off here") == true
    }
    #expect(refused.ok, "\(refused.screen.last ?? "")")
    _ = try ChildProcess.run(["tmux", "-S", tmux.socket, "resize-window", "-t", "main", "-x", "80"])
    let narrow = try tmux.waitFor(timeout: 30) {
      $0.last?.hasPrefix("45.7") == true && ($0.last?.count ?? 0) <= 80
    }
    #expect(narrow.ok, "\(narrow.screen.last ?? "")")
    try tmux.type("q")
    let done = try tmux.waitFor(timeout: 30) { $0.contains { $0.contains("ssh-status-0") } }
    #expect(done.ok, "\(done.screen)")
    // The client's terminal is back: no map left on the primary screen.
    #expect(!done.screen.contains { inkedCells($0) > 0 }, "\(done.screen)")
    // The server logs the disconnect when it sees the connection close, just after the client.
    let after = Self.waitForLog(tmux.file("serve.log"), containing: "disconnect")
    #expect(after.contains("user=lyon") && after.contains("disconnect"), "\(after)")
  }

  @Test("each session's labels in its own LANG (sent with SendEnv), where the map has them")
  func language() throws {
    let tiles = repositoryRoot.appendingPathComponent(
      "Tests/MapTilesTests/Fixtures/monaco-shortbread.mbtiles"
    ).path
    for (lang, name) in [("en_GB.UTF-8", "Monaco City"), ("C.UTF-8", "Monaco-Ville")] {
      let tmux = try LiveTmux(width: 160)
      let (pid, port) = try Self.serve(
        tmux,
        [
          "--anonymous", "--no-basemap", "--tiles", tiles, "--center", "43.7315,7.4206", "--zoom",
          "15",
        ])
      defer { ChildProcess.stop(pid) }
      // (A user name that names no place: the session opens at --center.)
      try tmux.start("LANG=\(lang) " + Self.ssh(port, "-o SendEnv=LANG qqqzzzq@127.0.0.1"))
      let shown = try tmux.waitFor(timeout: 60) { $0.joined().contains(name) }
      #expect(shown.ok, "\(lang): \(shown.screen)")
      #expect(
        !shown.screen.joined().contains(name == "Monaco City" ? "Monaco-Ville" : "Monaco City"))
      try tmux.type("q")
    }
  }

  @Test("--layer: every session sees the same live targets, read once; they change in all")
  func liveLayers() throws {
    let first = try LiveTmux(width: 100)
    let second = try LiveTmux(width: 100)
    let feed = first.file("boats.ndjson")
    func feature(_ id: String, _ title: String, _ lat: Double, _ lon: Double) -> String {
      "{\"type\":\"Feature\",\"id\":\"\(id)\",\"properties\":{\"title\":\"\(title)\"},"
        + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]}}\n"
    }
    try feature("boat", "Seagull", 45.0, 5.0).write(toFile: feed, atomically: true, encoding: .utf8)
    let (pid, port) = try Self.serve(
      first,
      [
        "--anonymous", "--no-basemap", "--center", "45,5", "--zoom", "12", "--layer", feed,
      ])
    defer { ChildProcess.stop(pid) }
    for tmux in [first, second] {
      try tmux.start(Self.ssh(port, "qqqzzzq@127.0.0.1"))
      let shown = try tmux.waitFor(timeout: 60) {
        $0.joined().contains("Seagull") && $0.last?.contains("1 target") == true
      }
      #expect(shown.ok, "\(shown.screen)")
    }
    // The file grows: a second boat, and the first one gone; both sessions follow.
    let more =
      feature("tern", "Albatross", 45.01, 5.01)
      + "{\"type\":\"Feature\",\"id\":\"boat\",\"geometry\":null,\"properties\":{}}\n"
    let handle = try #require(FileHandle(forWritingAtPath: feed))
    handle.seekToEndOfFile()
    handle.write(Data(more.utf8))
    try handle.close()
    for tmux in [first, second] {
      let changed = try tmux.waitFor(timeout: 60) {
        $0.joined().contains("Albatross") && !$0.joined().contains("Seagull")
      }
      #expect(changed.ok, "\(changed.screen)")
      try tmux.type("q")
    }
  }

  @Test("SIGHUP reads the configuration again: a session started after it shows the new map")
  func reloadsConfiguration() throws {
    let tiles = repositoryRoot.appendingPathComponent(
      "Tests/MapTilesTests/Fixtures/monaco-shortbread.mbtiles"
    ).path
    let tmux = try LiveTmux(width: 160)
    let config = tmux.file("config")
    try FileManager.default.createDirectory(
      atPath: config + "/termmap", withIntermediateDirectories: true)
    let port = ChildProcess.freeLoopbackPort()
    let pid = try ChildProcess.spawn(
      [
        termmapBinary.path, "serve", "--listen", "127.0.0.1:\(port)", "--host-key",
        tmux.file("host_key"), "--anonymous", "--no-basemap", "--tiles", tiles, "--center",
        "43.7315,7.4206", "--zoom", "15",
      ], stderr: tmux.file("serve.log"), environment: ["XDG_CONFIG_HOME": config])
    defer { ChildProcess.stop(pid) }
    func log() -> String {
      (try? String(contentsOfFile: tmux.file("serve.log"), encoding: .utf8)) ?? ""
    }
    _ = Self.waitForLog(tmux.file("serve.log"), containing: "listening on")
    // No language configured: a session in the C locale reads the names as the tiles have them.
    try tmux.start("LANG=C.UTF-8 " + Self.ssh(port, "-o SendEnv=LANG qqqzzzq@127.0.0.1"))
    let before = try tmux.waitFor(timeout: 60) { $0.joined().contains("Monaco-Ville") }
    #expect(before.ok, "\(before.screen)")
    try tmux.type("q")
    // The configuration now asks for English labels; SIGHUP, and the next session has them.
    try "[style]\nlang = \"en\"\n".write(
      toFile: config + "/termmap/config.toml", atomically: true, encoding: .utf8)
    kill(pid, SIGHUP)
    _ = Self.waitForLog(tmux.file("serve.log"), containing: "[termmap] reloaded")
    #expect(log().contains("map-layers=1 [termmap] reloaded"), "\(log())")
    let next = try LiveTmux(width: 160)
    try next.start("LANG=C.UTF-8 " + Self.ssh(port, "-o SendEnv=LANG qqqzzzq@127.0.0.1"))
    let after = try next.waitFor(timeout: 60) { $0.joined().contains("Monaco City") }
    #expect(after.ok, "\(after.screen)")
    try next.type("q")
  }

  @Test("SIGTERM: every session gets a last line, the server exits 0 in under 2 s")
  func stop() throws {
    let tmux = try LiveTmux(width: 100)
    let (pid, port) = try Self.serve(tmux, ["--anonymous"])
    try tmux.start(Self.ssh(port, "anyone@127.0.0.1") + "; echo ssh-status-$?")
    let up = try tmux.waitFor(timeout: 30) { $0.last?.hasSuffix("? help") == true }
    #expect(up.ok, "\(up.screen)")
    // Timed less the time its threads waited for a core (schedstat, sampled until it has
    // exited): on a loaded machine the wall time of its 0.2 s wait and exit stretched,
    // while a server that waits for its clients or a time-out sleeps, and is still timed.
    var waited = KernelState.waitingByThread(pid)
    let waitedBefore = waited.values.reduce(0, +)
    let start = Date()
    kill(pid, SIGTERM)
    var status: Int32 = 0
    while waitpid(pid, &status, WNOHANG) != pid {
      waited.merge(KernelState.waitingByThread(pid)) { max($0, $1) }
      usleep(10_000)
    }
    let wall = Date().timeIntervalSince(start)
    let seconds = wall - (waited.values.reduce(0, +) - waitedBefore)
    #expect((status >> 8) & 0xFF == 0 && status & 0x7F == 0, "wait status \(status)")
    #expect(seconds < 2, "exited after \(wall) s, \(seconds) s less its wait for a core")
    let done = try tmux.waitFor(timeout: 30) { $0.contains { $0.contains("ssh-status-") } }
    #expect(done.screen.contains("termmap serve is stopping; goodbye"), "\(done.screen)")
  }

  @Test("refused: a command, sftp, no auth choice; a wrong key with --authorized-keys")
  func refusals() throws {
    let tmux = try LiveTmux(width: 100)
    let key = tmux.file("id")
    _ = try ChildProcess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key])
    let keys = tmux.file("authorized_keys")
    try FileManager.default.copyItem(atPath: key + ".pub", toPath: keys)
    let (pid, port) = try Self.serve(tmux, ["--authorized-keys", keys])
    defer { ChildProcess.stop(pid) }
    let other = tmux.file("other")
    _ = try ChildProcess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", other])
    try tmux.start(
      "\(Self.ssh(port, "map@127.0.0.1", key: key)) -o BatchMode=yes cat /etc/passwd; echo status-$?;"
        + " \(Self.ssh(port, "map@127.0.0.1", key: other)) -o BatchMode=yes true; echo status-$?")
    let done = try tmux.waitFor(timeout: 30) { $0.filter { $0.hasPrefix("status-") }.count == 2 }
    #expect(
      done.screen.contains(
        "termmap serve runs no commands: connect without one (ssh -p PORT HOST)"),
      "\(done.screen)")
    #expect(done.screen.contains("status-1"))
    #expect(done.screen.contains { $0.contains("Permission denied (publickey)") }, "\(done.screen)")
    #expect(done.screen.contains("status-255"))
    let none = try termmap(["serve", "--listen", "127.0.0.1:0"])
    #expect(none.status == 2)
    #expect(
      none.stderr == "termmap: serve: give --authorized-keys FILE or --anonymous (one of the two)\n"
    )
  }

  @Test("over a 1 Mbit/s link a zoom key costs at most 300 ms of bytes, and lands")
  func slowLink() throws {
    let tmux = try LiveTmux(width: 100)
    let metricsPort = ChildProcess.freeLoopbackPort()
    let (pid, port) = try Self.serve(
      tmux, ["--anonymous", "--metrics", "127.0.0.1:\(metricsPort)"])
    defer { ChildProcess.stop(pid) }
    let frames = { () throws -> Int in
      let body = tmux.file("metrics.txt")
      _ = try ChildProcess.run(
        ["curl", "-s", "-o", body, "http://127.0.0.1:\(metricsPort)/metrics"])
      let text = (try? String(contentsOfFile: body, encoding: .utf8)) ?? ""
      let line = text.split(separator: "\n").first { $0.hasPrefix("termmap_frames_sent_total ") }
      return line.flatMap { Int($0.split(separator: " ")[1]) } ?? -1
    }
    // 125,000 bytes a second each way: 1 Mbit/s.
    let proxy = try ThrottledProxy(to: port, bytesPerSecond: 125_000)
    defer { proxy.stop() }
    // Monaco: the offline map's detailed streets, so a frame is full of ink.
    try tmux.start(Self.ssh(proxy.port, "monaco@127.0.0.1"))
    let monaco = try tmux.waitFor(timeout: 60) {
      $0.last?.contains("z11.0") == true && $0.joined().contains("Monaco")
    }
    #expect(monaco.ok, "\(monaco.screen)")
    // Into the streets (at zoom 13 to 14 an animated zoom wrote 64 KB over loopback).
    try tmux.type("++")
    let streets = try tmux.waitFor(timeout: 30) { $0.last?.contains("z13.0") == true }
    #expect(streets.ok, "\(streets.screen.last ?? "")")
    // Everything the view needed has gone through: the server seen idle for 1.5 s (asleep,
    // nothing on its way; time it spent waiting for a core does not count).
    let before = proxy.waitForQuiet(1.5, timeout: 60, server: pid)
    let framesBefore = try frames()
    let pressed = Date()
    try tmux.type("+")
    let zoomed = try tmux.waitFor(timeout: 30) { $0.last?.contains("z14.0") == true }
    #expect(zoomed.ok, "\(zoomed.screen.last ?? "")")
    let after = proxy.waitForQuiet(1.5, timeout: 60, server: pid)
    let took = proxy.forwarded.last.timeIntervalSince(pressed)
    let sent = try frames() - framesBefore
    // 300 ms at 1 Mbit/s carries 37,500 bytes; the key's frames fit in it (before, its
    // animation wrote every step).
    #expect(
      after - before <= 37_500,
      "the zoom key's \(sent) frames: \(after - before) bytes, the last \(Int(took * 1000)) ms after the key"
    )
    print(
      "slow link: a zoom key wrote \(sent) frames, \(after - before) bytes, the last \(Int(took * 1000)) ms after the key"
    )
  }

  @Test("--metrics answers GET /metrics in Prometheus' format: sessions, frames, refusals")
  func metrics() throws {
    let tmux = try LiveTmux(width: 100)
    let metricsPort = ChildProcess.freeLoopbackPort()
    let (pid, port) = try Self.serve(
      tmux, ["--anonymous", "--metrics", "127.0.0.1:\(metricsPort)"])
    defer { ChildProcess.stop(pid) }
    let log = try String(contentsOfFile: tmux.file("serve.log"), encoding: .utf8)
    #expect(log.contains("metrics on http://127.0.0.1:\(metricsPort)/metrics"), "\(log)")
    try tmux.start(
      Self.ssh(port, "anyone@127.0.0.1") + " -o BatchMode=yes true; echo status-$?; "
        + Self.ssh(port, "anyone@127.0.0.1"))
    let up = try tmux.waitFor(timeout: 30) { $0.last?.hasSuffix("? help") == true }
    #expect(up.ok, "\(up.screen)")
    let body = tmux.file("metrics.txt")
    var status: Int32 = -1
    var text = ""
    var values: [String: Int] = [:]
    // The session's first frames may still be on their way when its status line shows (on a
    // loaded machine the map's follow): read the counters until its bytes are counted.
    let end = Date().addingTimeInterval(60)  // a failure bound
    while Date() < end {
      status = try ChildProcess.run(
        ["curl", "-s", "-f", "-o", body, "http://127.0.0.1:\(metricsPort)/metrics"])
      text = (try? String(contentsOfFile: body, encoding: .utf8)) ?? ""
      values = Dictionary(
        text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
          line -> (String, Int)? in
          let parts = line.split(separator: " ")
          guard parts.count == 2, let v = Int(parts[1]) else { return nil }
          return (String(parts[0]), v)
        }, uniquingKeysWith: { a, _ in a })
      if status == 0 && (values["termmap_bytes_out_total"] ?? 0) > 1000 { break }
      usleep(100_000)
    }
    #expect(status == 0)
    #expect(values["termmap_sessions"] == 1, "\(text)")
    #expect(values["termmap_sessions_total"] == 1, "\(text)")
    #expect(values["termmap_connections"] == 1, "\(text)")
    #expect(values["termmap_connections_total"] == 2, "\(text)")
    #expect(values["termmap_refusals_total{reason=\"command\"}"] == 1, "\(text)")
    #expect((values["termmap_frames_sent_total"] ?? 0) >= 1, "\(text)")
    #expect((values["termmap_bytes_out_total"] ?? 0) > 1000, "\(text)")
    #expect(text.contains("# TYPE termmap_bytes_out_total counter\n"), "\(text)")
    // Only GET /metrics: another path is 404; a request of more than 8 KiB is cut off.
    let other = try ChildProcess.run(
      ["curl", "-s", "-f", "-o", "/dev/null", "http://127.0.0.1:\(metricsPort)/"])
    #expect(other == 22)  // curl -f: the server answered an error (404)
    let huge = try ChildProcess.run(
      [
        "curl", "-s", "-o", "/dev/null", "-H", "X-Big: \(String(repeating: "a", count: 10_000))",
        "http://127.0.0.1:\(metricsPort)/metrics",
      ])
    #expect(huge != 0)
  }

  @Test("termmap bench serve: sessions over SSH type keys; every session is answered")
  func benchServe() throws {
    let r = try termmap([
      "bench", "serve", "--sessions", "4", "--seconds", "2", "--connections", "10",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stderr.split(separator: "\n").map(String.init)
    let names = lines.compactMap { $0.split(separator: " ").first.map(String.init) }
    #expect(
      names == [
        "serve-memory-start", "serve-idle-sessions", "serve-key-to-frame",
        "serve-sessions-answered", "serve-cpu-typing", "serve-memory-typing",
        "serve-never-reading",
        "serve-memory-closed", "serve-connections",
      ], "\(r.stderr)")
    // 4 sessions, 5 keys a second for 2 s: about 10 keys each, every one answered.
    let keys = lines.first { $0.hasPrefix("serve-key-to-frame") } ?? ""
    #expect(keys.contains(" from 4 sessions in 2 s: p50 "), "\(keys)")
    let answered = lines.first { $0.hasPrefix("serve-sessions-answered") } ?? ""
    #expect(answered.hasSuffix("0 sessions under 95 %"), "\(answered)")
    #expect(answered.contains("got frames for 100.0 % of its keys"), "\(answered)")
    let never = lines.first { $0.hasPrefix("serve-never-reading") } ?? ""
    #expect(never.contains("another session answered in"), "\(never)")
    let churn = lines.first { $0.hasPrefix("serve-connections") } ?? ""
    #expect(churn.contains("(5 TCP, 5 SSH handshakes, 0 failed)"), "\(churn)")
    #expect(churn.hasSuffix("a new session is served"), "\(churn)")
  }
}
