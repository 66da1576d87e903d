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
    // Listening once it said so.
    for _ in 0..<200 {
      if let log = try? String(contentsOfFile: tmux.file("serve.log"), encoding: .utf8),
        log.contains("listening on")
      {
        break
      }
      usleep(50_000)
    }
    return (pid, port)
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
    var after = ""
    for _ in 0..<200 {
      after = (try? String(contentsOfFile: tmux.file("serve.log"), encoding: .utf8)) ?? ""
      if after.contains("disconnect") { break }
      usleep(50_000)
    }
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

  @Test("SIGTERM: every session gets a last line, the server exits 0 in under 2 s")
  func stop() throws {
    let tmux = try LiveTmux(width: 100)
    let (pid, port) = try Self.serve(tmux, ["--anonymous"])
    try tmux.start(Self.ssh(port, "anyone@127.0.0.1") + "; echo ssh-status-$?")
    let up = try tmux.waitFor(timeout: 30) { $0.last?.hasSuffix("? help") == true }
    #expect(up.ok, "\(up.screen)")
    let start = Date()
    kill(pid, SIGTERM)
    let status = ChildProcess.wait(pid)
    #expect(status == 0)
    #expect(Date().timeIntervalSince(start) < 2)
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
}
