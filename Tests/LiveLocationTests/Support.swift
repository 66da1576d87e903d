import Foundation
import LiveLocation
import Synchronization
import TestProcesses

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
    pid = try ChildProcess.spawn(arguments)
  }

  /// Stops gpsfake with SIGTERM (it stops its gpsd) and waits for it; SIGKILL after 20 s.
  func stop() {
    guard !exited else { return }
    ChildProcess.stop(pid)
    exited = true
  }

  deinit { stop() }

  static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake") }
}
