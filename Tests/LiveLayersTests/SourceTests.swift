import Foundation
import LiveLayers
import MapGeometry
import TestProcesses
import Testing

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Fixtures")

/// Waits (polling every 50 ms) until `condition` holds or `timeout` seconds pass.
func wait(timeout: Double, _ condition: () -> Bool) -> Bool {
  let end = Date().addingTimeInterval(timeout)
  while Date() < end {
    if condition() { return true }
    usleep(50_000)
  }
  return condition()
}

/// A real gpsd replaying a log, started by gpsfake on a loopback port (signal mask reset, so
/// it hears SIGTERM).
final class GPSFake {
  let pid: pid_t
  private var exited = false
  /// Replays the log over and over (gpsd may miss the first sentences while it identifies
  /// the device) until stopped.
  init(log: URL, port: UInt16, cycle: Double) throws {
    pid = try ChildProcess.spawn([
      "/usr/bin/gpsfake", "-P", "\(port)", "-q", "-c", "\(cycle)", log.path,
    ])
  }
  func stop() {
    guard !exited else { return }
    ChildProcess.stop(pid)
    exited = true
  }
  deinit { stop() }
  static var available: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake") }

  /// A gpsfake whose gpsd answers on its port with its `VERSION` banner, and the port. A free
  /// port found is only free until someone binds it: a test running beside this one may take
  /// it first (gpsd then cannot listen, and a reader would talk to the other test's server),
  /// so another port is tried, up to three.
  static func answering(log: URL, cycle: Double) throws -> (GPSFake, UInt16) {
    for _ in 0..<3 {
      let port = ChildProcess.freeLoopbackPort()
      let fake = try GPSFake(log: log, port: port, cycle: cycle)
      let deadline = Date().addingTimeInterval(30)
      while Date() < deadline {
        if let banner = firstLine(port: port) {
          if banner.contains("\"class\":\"VERSION\"") { return (fake, port) }
          break  // someone else's server
        }
        Thread.sleep(forTimeInterval: 0.1)
      }
      fake.stop()
    }
    throw NoGPSD()
  }

  struct NoGPSD: Error, CustomStringConvertible {
    var description: String { "gpsfake: no gpsd answered on three ports" }
  }

  /// The first line a server on the loopback port sends (nil: nothing listens, or no line in
  /// 10 s).
  private static func firstLine(port: UInt16) -> String? {
    let fd = ChildProcess.connectLoopback(port: port)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var limit = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while bytes.count < 4096, read(fd, &byte, 1) == 1, byte != 0x0A { bytes.append(byte) }
    return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
  }
}

@Suite("Live layers: real sources (gpsd, nginx, files, TCP)", .serialized)
struct SourceTests {
  @Test(
    "gpsd: a real gpsd replays an AIVDM log (the project's own, Fixtures/ais-harbour.log): vessels appear named, move, and age out",
    .enabled(if: GPSFake.available, "needs gpsd-clients (gpsfake)"))
  func gpsdAIS() throws {
    let (fake, port) = try GPSFake.answering(
      log: fixtures.appendingPathComponent("ais-harbour.log"), cycle: 0.05)
    defer { fake.stop() }
    let feed = LiveFeed(store: TargetStore(timeToLive: TimeToLive(fixed: 2)))
    let reader = LiveSourceReader(
      spec: try LiveSourceSpec.parse("gpsd://127.0.0.1:\(port)"), feed: feed, index: 0,
      follows: true)
    reader.start()
    defer { reader.stop() }
    // A position (type 1) then, 40 s later in the log, the name (type 5): one target.
    let named = wait(timeout: 90) {
      feed.withStore { s in
        s["211000001"]?.properties.contains(LiveProperty("shipname", .string("GULL"))) == true
          && s["211000001"]?.coordinate != nil
      }
    }
    #expect(named, "\(feed.problems) \(feed.statistics)")
    let gull = try #require(feed.withStore { $0["211000001"] })
    #expect(gull.kind == .vessel)
    let c = try #require(gull.coordinate)
    #expect(abs(c.latitude - 54.321) < 0.001 && abs(c.longitude - 10.15) < 0.001, "\(c)")
    #expect(gull.properties.contains(LiveProperty("callsign", .string("DA1234"))))
    // Part A of a type 24 names a class B vessel whose positions come in type 18.
    #expect(
      wait(timeout: 60) {
        feed.withStore { s in
          s["211000002"]?.coordinate != nil
            && s["211000002"]?.properties.contains(LiveProperty("shipname", .string("TERN")))
              == true
        }
      })
    // 211000003 reports its position 50 times, a few metres apart: it moves.
    var seen = Set<Coordinate>()
    #expect(
      wait(timeout: 60) {
        if let c = feed.withStore({ $0["211000003"]?.coordinate }) { seen.insert(c) }
        return seen.count >= 3
      })
    #expect(feed.statistics.malformed == 0, "\(feed.statistics)")
    // The receiver goes quiet: with a time-to-live of 2 s, every vessel goes stale, then away.
    fake.stop()
    // Stale: the store as it is once the newest vessel has been silent for its time-to-live
    // (2 s), looked at in that moment (an explicit `now`, in one lock with the newest
    // `lastSeen`). Waited for by the clock, a loaded machine's thread looked next after 4 s
    // of silence, when every vessel had gone.
    #expect(
      wait(timeout: 60) {
        feed.clock() >= feed.withStore { $0.targets.map(\.lastSeen).max() ?? 0 } + 2
      })
    #expect(
      feed.withStore { s in
        let newest = s.targets.map(\.lastSeen).max() ?? 0
        s.expire(now: newest + 2)
        return s.count > 0 && s.targets.allSatisfy(\.isStale)
      })
    #expect(
      wait(timeout: 120) {
        feed.withStore { s in
          s.expire(now: feed.clock())
          return s.count == 0
        }
      }, "\(feed.withStore { $0.count }) left")
  }

  @Test(
    "aircraft.json served by nginx, changed between polls: aircraft move, a vanished one ages out")
  func aircraftOverHTTP() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-aircraft-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    func write(_ aircraft: [(String, Double, Double)]) throws {
      let list = aircraft.map {
        "{\"hex\":\"\($0.0)\",\"flight\":\"F\($0.0)  \",\"lat\":\($0.1),\"lon\":\($0.2),\"track\":45,\"seen_pos\":0.1,\"seen\":0.1}"
      }
      let doc =
        "{ \"now\" : 1700000000.0,\n  \"aircraft\" : [\n    " + list.joined(separator: ",\n    ")
        + "\n  ]\n}\n"
      // Atomically, as dump1090 does (a temporary file renamed).
      try doc.write(
        to: dir.appendingPathComponent("aircraft.json"), atomically: true, encoding: .utf8)
    }
    try write([("a1", 43.70, 7.40), ("b2", 43.60, 7.30)])
    let nginx = try Nginx(serving: dir)
    defer { nginx.stop() }
    // Polled every 0.2 s, a listed aircraft is seen again long before its time-to-live ends:
    // 3 s, so that a poller kept from a core for a second or two (a loaded machine) does not
    // let a1, still listed, age out too (with 1 s it could).
    let feed = LiveFeed(store: TargetStore(timeToLive: TimeToLive(fixed: 3)))
    let reader = LiveSourceReader(
      spec: try LiveSourceSpec.parse(nginx.baseURL + "/aircraft.json"), feed: feed, index: 0,
      follows: true, interval: 0.2)
    reader.start()
    defer { reader.stop() }
    #expect(wait(timeout: 30) { feed.withStore { $0.count } == 2 }, "\(feed.problems)")
    #expect(feed.withStore { $0["a1"]?.kind } == .aircraft)
    #expect(
      feed.withStore { $0["a1"]?.properties.contains(LiveProperty("flight", .string("Fa1"))) }
        == true)
    try write([("a1", 43.71, 7.41)])
    #expect(
      wait(timeout: 30) {
        feed.withStore { $0["a1"]?.coordinate } == Coordinate(latitude: 43.71, longitude: 7.41)
      })
    // b2 is no longer listed: silent, it goes after twice its time-to-live; a1 stays.
    #expect(
      wait(timeout: 60) {
        feed.withStore { s in
          s.expire(now: feed.clock())
          return s["b2"] == nil
        }
      })
    #expect(feed.withStore { $0["a1"] } != nil)
    #expect(nginx.waitForAccessLog { $0.count >= 3 }.count >= 3)
    #expect(feed.statistics.malformed == 0)
  }

  @Test("A file is followed as it grows; a TCP line stream is read")
  func fileAndTCP() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-follow-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("boats.csv").path
    try "id,name,lat,lon\nb1,Blue,43.7,7.4\n".write(
      toFile: path, atomically: false, encoding: .utf8)
    let feed = LiveFeed()
    let reader = LiveSourceReader(
      spec: try LiveSourceSpec.parse(path), feed: feed, index: 0, follows: true)
    reader.start()
    defer { reader.stop() }
    #expect(wait(timeout: 60) { feed.withStore { $0["b1"] } != nil })
    let h = try #require(FileHandle(forWritingAtPath: path))
    try h.seekToEnd()
    try h.write(contentsOf: Data("b1,Blue,43.8,7.5\nb2,Red,43.6,7.3\n".utf8))
    try h.close()
    #expect(
      wait(timeout: 60) {
        feed.withStore {
          $0["b1"]?.coordinate == Coordinate(latitude: 43.8, longitude: 7.5) && $0.count == 2
        }
      })

    // TCP: a listening socket the test writes lines to.
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, len) }
    }
    listen(listener, 1)
    _ = withUnsafeMutablePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &len) }
    }
    defer { close(listener) }
    let port = UInt16(bigEndian: addr.sin_port)
    let tcpFeed = LiveFeed()
    let tcp = LiveSourceReader(
      spec: try LiveSourceSpec.parse("tcp://127.0.0.1:\(port)"), feed: tcpFeed, index: 0,
      follows: true)
    tcp.start()
    defer { tcp.stop() }
    let conn = accept(listener, nil, nil)
    try #require(conn >= 0)
    defer { close(conn) }
    let line =
      "{\"type\":\"Feature\",\"id\":\"t\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[7.4,43.7]},\"properties\":{}}\n"
    _ = Array(line.utf8).withUnsafeBytes { send(conn, $0.baseAddress, $0.count, 0) }
    #expect(wait(timeout: 60) { tcpFeed.withStore { $0["t"] } != nil })
  }
}
