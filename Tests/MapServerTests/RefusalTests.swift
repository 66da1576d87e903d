import Foundation
import Logging
import MapServer
import Synchronization
import TestProcesses
import Testing

/// A terminal program for the transport's tests: says what it was given, and ends on `q`.
final class GreetingSession: TerminalSession {
  let output: any SessionOutput
  init(_ request: SessionRequest, output: any SessionOutput) {
    self.output = output
    output.send(
      Array("hello \(request.user) \(request.columns)x\(request.rows) \(request.term)\r\n".utf8))
  }
  func received(_ bytes: [UInt8]) {
    if bytes.contains(UInt8(ascii: "q")) {
      output.finish(sending: Array("bye\r\n".utf8), exitStatus: 0)
    } else {
      output.send(Array("got \(bytes.count)\r\n".utf8))
    }
  }
  func resized(columns: Int, rows: Int) { output.send(Array("size \(columns)x\(rows)\r\n".utf8)) }
  func ended() {}
}

/// A server on a loopback port, and OpenSSH's client pointed at it.
final class ServerFixture {
  let dir: URL
  let server: SSHServer
  let port: Int
  let clientKey: String

  init(keys: Bool) throws {
    dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "serve-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    clientKey = dir.appendingPathComponent("id_ed25519").path
    _ = try ChildProcess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", clientKey])
    let access: SSHServer.Access
    if keys {
      let line = try String(contentsOfFile: clientKey + ".pub", encoding: .utf8)
      access = .keys(try AuthorizedKeys(text: line, path: "authorized_keys"))
    } else {
      access = .anonymous
    }
    let hostKey = try HostKey.loadOrGenerate(path: dir.appendingPathComponent("host").path)
    var logger = Logger(label: "test")
    logger.logLevel = .critical
    server = SSHServer(hostKey: hostKey, access: access, logger: logger, threads: 1) {
      request, output in .success(GreetingSession(request, output: output))
    }
    port = try server.start(host: "127.0.0.1", port: 0)
  }

  deinit {
    server.stop()
    try? FileManager.default.removeItem(at: dir)
  }

  /// Runs `ssh` (or `sftp`) with these arguments; exit status and standard error.
  func run(_ arguments: [String], program: String = "ssh", key: String? = nil) throws -> (
    status: Int32, stderr: String
  ) {
    let err = dir.appendingPathComponent("stderr-\(UUID().uuidString)").path
    let portFlag = program == "sftp" ? "-P" : "-p"
    let pid = try ChildProcess.spawn(
      [
        program, "-F", "/dev/null", portFlag, "\(port)", "-o", "StrictHostKeyChecking=no",
        "-o", "UserKnownHostsFile=/dev/null", "-o", "BatchMode=yes", "-o", "LogLevel=ERROR",
        "-o", "IdentitiesOnly=yes", "-i", key ?? clientKey,
      ] + arguments, stderr: err)
    let status = ChildProcess.wait(pid)
    return (status, (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
  }
}

@Suite("termmap serve refuses what a map does not need", .serialized)
struct RefusalTests {
  @Test("a command is refused with one line and exit status 1")
  func command() throws {
    let f = try ServerFixture(keys: false)
    let (status, stderr) = try f.run(["anyone@127.0.0.1", "cat", "/etc/passwd"])
    #expect(status == 1)
    #expect(stderr.contains("termmap serve runs no commands"), "\(stderr)")
    #expect(f.server.counters.refusals == 1)
  }

  @Test("ssh -W (a direct-tcpip channel, as ssh -L opens) is refused")
  func localForwarding() throws {
    let f = try ServerFixture(keys: false)
    let (status, stderr) = try f.run(["-W", "127.0.0.1:\(f.port)", "anyone@127.0.0.1"])
    #expect(status == 255)
    #expect(stderr.contains("forwarding failed") || stderr.contains("open failed"), "\(stderr)")
  }

  @Test("ssh -R is refused")
  func remoteForwarding() throws {
    let f = try ServerFixture(keys: false)
    let (status, stderr) = try f.run([
      "-N", "-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:9", "anyone@127.0.0.1",
    ])
    #expect(status == 255)
    #expect(stderr.contains("forwarding failed"), "\(stderr)")
  }

  @Test("sftp is refused")
  func sftp() throws {
    let f = try ServerFixture(keys: false)
    let (status, stderr) = try f.run(["-b", "/dev/null", "anyone@127.0.0.1"], program: "sftp")
    #expect(status != 0)
    #expect(
      stderr.contains("subsystem request failed") || stderr.contains("Connection closed"),
      "\(stderr)")
  }

  @Test("with authorized keys, a key not in them is refused and one in them is let in")
  func keys() throws {
    let f = try ServerFixture(keys: true)
    let other = f.dir.appendingPathComponent("other").path
    _ = try ChildProcess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", other])
    let wrong = try f.run(["map@127.0.0.1", "true"], key: other)
    #expect(wrong.status == 255)
    #expect(wrong.stderr.contains("Permission denied (publickey)"), "\(wrong.stderr)")
    #expect(f.server.counters.authFailures >= 1)
    // The right key gets in (and its command is refused, the server's own words).
    let right = try f.run(["map@127.0.0.1", "true"])
    #expect(right.status == 1)
    #expect(right.stderr.contains("termmap serve runs no commands"), "\(right.stderr)")
  }
}

@Suite("termmap serve gives a terminal session", .serialized)
struct ShellTests {
  /// What tmux shows in a pane.
  static func capture(_ session: String, in dir: URL) throws -> String {
    let out = dir.appendingPathComponent("pane").path
    _ = try ChildProcess.run(
      ["tmux", "-L", session, "capture-pane", "-p", "-t", session], stdout: out)
    return (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
  }

  /// The pane once it shows `text`, or as it is after 60 s (a failure bound: on a loaded
  /// machine ssh's key exchange alone may wait seconds for a core).
  static func waitFor(_ text: String, _ session: String, in dir: URL) throws -> String {
    let end = Date().addingTimeInterval(60)
    var pane = ""
    repeat {
      pane = try capture(session, in: dir)
      if pane.contains(text) { return pane }
      usleep(50_000)
    } while Date() < end
    return try capture(session, in: dir)
  }

  @Test("ssh in tmux: the session sees the pty's size and TERM, a resize, keys; q ends it")
  func shell() throws {
    let f = try ServerFixture(keys: false)
    let name = "serve-\(getpid())-\(f.port)"
    let ssh = [
      "ssh", "-F", "/dev/null", "-p", "\(f.port)", "-o", "StrictHostKeyChecking=no",
      "-o", "UserKnownHostsFile=/dev/null", "-o", "LogLevel=ERROR", "-i", f.clientKey,
      "lyon@127.0.0.1",
    ].joined(separator: " ")
    #expect(
      try ChildProcess.run([
        "tmux", "-L", name, "-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "100", "-y",
        "30",
        "TERM=xterm-256color \(ssh); echo ssh-exit-$?; sleep 30",
      ]) == 0)
    defer { _ = try? ChildProcess.run(["tmux", "-L", name, "kill-server"]) }
    var pane = try Self.waitFor("hello", name, in: f.dir)
    #expect(pane.contains("hello lyon 100x30 "), "\(pane)")
    _ = try ChildProcess.run([
      "tmux", "-L", name, "resize-window", "-t", name, "-x", "90", "-y", "20",
    ])
    pane = try Self.waitFor("size 90x20", name, in: f.dir)
    #expect(pane.contains("size 90x20"), "\(pane)")
    _ = try ChildProcess.run(["tmux", "-L", name, "send-keys", "-t", name, "x"])
    pane = try Self.waitFor("got 1", name, in: f.dir)
    #expect(pane.contains("got 1"), "\(pane)")
    #expect(f.server.sessionCount == 1)
    _ = try ChildProcess.run(["tmux", "-L", name, "send-keys", "-t", name, "q"])
    pane = try Self.waitFor("ssh-exit-", name, in: f.dir)
    #expect(pane.contains("bye") && pane.contains("ssh-exit-0"), "\(pane)")
    // The session ends on the server's threads after ssh has its last bytes: wait for it
    // (60 s, a failure bound), not a fixed 2 s.
    let end = Date().addingTimeInterval(60)
    while f.server.sessionCount != 0 && Date() < end { usleep(20_000) }
    #expect(f.server.sessionCount == 0)
  }
}
