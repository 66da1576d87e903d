import Foundation
import LiveLocation
import Synchronization

/// Collects a provider's events from its thread.
final class EventLog: Sendable {
  private let events = Mutex<[LocationEvent]>([])
  var handler: @Sendable (LocationEvent) -> Void {
    { [self] e in events.withLock { $0.append(e) } }
  }
  var all: [LocationEvent] { events.withLock { $0 } }
  var fixes: [LocationFix] {
    all.compactMap { if case .fix(let f) = $0 { return f } else { return nil } }
  }
  var failures: [String] {
    all.compactMap { if case .failed(let t) = $0 { return t } else { return nil } }
  }
  var restarts: [String] {
    all.compactMap { if case .restarted(let t) = $0 { return t } else { return nil } }
  }

  /// Waits (polling, up to `timeout` seconds) until `condition` holds.
  @discardableResult
  func wait(timeout: Double = 60, _ condition: (EventLog) -> Bool) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while Date() < end {
      if condition(self) { return true }
      usleep(20_000)
    }
    return condition(self)
  }
}

/// A scratch directory removed at the end of a test.
final class Scratch {
  let url: URL
  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-live-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
  deinit { try? FileManager.default.removeItem(at: url) }
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

/// Appends bytes to a file (as a logger does).
func append(_ text: String, to path: String) throws {
  let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
  try h.seekToEnd()
  try h.write(contentsOf: Data(text.utf8))
  try h.close()
}

/// A TCP port that is free now (bound to port 0, then released).
func freePort() -> UInt16 {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(fd) }
  var a = sockaddr_in()
  a.sin_family = sa_family_t(AF_INET)
  a.sin_addr.s_addr = inet_addr("127.0.0.1")
  a.sin_port = 0
  var len = socklen_t(MemoryLayout<sockaddr_in>.size)
  _ = withUnsafePointer(to: &a) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
  }
  _ = withUnsafeMutablePointer(to: &a) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
  }
  return UInt16(bigEndian: a.sin_port)
}

/// A real gpsd replaying an NMEA log, started by gpsfake on a loopback port. It is spawned
/// with the signal mask reset and default signal actions (the test runner blocks signals,
/// which a child would inherit: gpsfake then never feeds its daemon nor hears SIGTERM).
final class GPSFake {
  let pid: pid_t
  let port: UInt16
  private var exited = false

  /// `cycle`: seconds between sentences (gpsfake -c).
  init(log: URL, port: UInt16, cycle: Double = 0.01) throws {
    self.port = port
    let arguments = [
      "/usr/bin/gpsfake", "-P", "\(port)", "-q", "-1", "-c", "\(cycle)", log.path,
    ]
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = sigset_t()
    sigfillset(&defaults)
    sigdelset(&defaults, SIGKILL)
    sigdelset(&defaults, SIGSTOP)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
    argv.append(nil)
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    let r = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
    guard r == 0 else { throw CocoaError(.executableLoad) }
    self.pid = pid
  }

  /// Stops gpsfake with SIGTERM (it stops its gpsd) and waits for it; SIGKILL after 20 s.
  func stop() {
    guard !exited else { return }
    kill(pid, SIGTERM)
    var status: Int32 = 0
    for _ in 0..<400 {
      if waitpid(pid, &status, WNOHANG) == pid {
        exited = true
        return
      }
      usleep(50_000)
    }
    kill(pid, SIGKILL)
    waitpid(pid, &status, 0)
    exited = true
  }

  deinit { stop() }

  static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake") }
}
