import Foundation
import LiveLocation
import MapGeometry
import TestProcesses
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

@Suite("Location providers: gpsd, NMEA streams, growing files")
struct ProviderTests {
  @Test(
    "gpsd: a real gpsd (gpsfake) replays the ride; gpsd going away and coming back",
    .enabled(if: GPSFake.available, "needs gpsd-clients (gpsfake)"))
  func gpsdGoesAwayAndComesBack() throws {
    let port = ChildProcess.freeLoopbackPort()
    var fake: GPSFake? = try GPSFake(log: rideLog, port: port, cycle: 0.01)
    let log = EventLog()
    let provider = GPSDProvider(host: "127.0.0.1", port: port, maximumBackoff: 1)
    provider.start(log.handler)
    defer { provider.stop() }
    // gpsfake takes a few seconds to start its daemon: wait for fixes, generously.
    #expect(log.wait(timeout: 90) { $0.fixes.count >= 5 }, "\(log.all.suffix(5))")
    let first = try #require(log.fixes.first)
    #expect(first.coordinate.latitude > 43.72 && first.coordinate.latitude < 43.76)
    #expect(first.coordinate.longitude > 7.40 && first.coordinate.longitude < 7.45)
    #expect(log.fixes.contains { $0.satellitesUsed == 8 && $0.satellitesInView == 11 })
    #expect(log.fixes.contains { ($0.speed ?? 0) > 4 && $0.course != nil })
    // The daemon goes away: the provider says so.
    fake?.stop()
    fake = nil
    #expect(log.wait(timeout: 60) { !$0.failures.isEmpty }, "\(log.all.suffix(3))")
    let before = log.fixes.count
    #expect(log.failures.first?.hasPrefix("gpsd 127.0.0.1:\(port): ") == true)
    // It comes back on the same port: fixes arrive again without anyone asking.
    let again = try GPSFake(log: rideLog, port: port, cycle: 0.01)
    defer { again.stop() }
    #expect(log.wait(timeout: 90) { $0.fixes.count >= before + 5 }, "\(log.all.suffix(3))")
    #expect(provider.statistics.malformed == 0)
  }

  @Test("gpsd: nobody listening is a failure, retried without end")
  func gpsdRefused() {
    let port = ChildProcess.freeLoopbackPort()
    let log = EventLog()
    let provider = GPSDProvider(host: "127.0.0.1", port: port, maximumBackoff: 0.5)
    provider.start(log.handler)
    #expect(log.wait(timeout: 30) { !$0.failures.isEmpty })
    provider.stop()
    #expect(log.failures.first == "gpsd 127.0.0.1:\(port): connection refused", "\(log.failures)")
  }

  @Test("NMEA from a file: every fix of the ride")
  func nmeaFile() throws {
    let log = EventLog()
    let p = FileFollowProvider(path: rideLog.path)
    p.start(log.handler)
    defer { p.stop() }
    #expect(log.wait(timeout: 60) { $0.fixes.count == 1130 }, "\(log.fixes.count)")
    #expect(p.statistics.malformed == 0)
  }

  @Test("NMEA from standard input (a pipe): every fix, then the end")
  func nmeaPipe() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    let log = EventLog()
    let p = NMEAStreamProvider(fileDescriptor: fds[0], name: "standard input")
    p.start(log.handler)
    defer { p.stop() }
    let bytes = try Array(Data(contentsOf: rideLog))
    let writeEnd = fds[1]
    let writer = Thread {
      var off = 0
      while off < bytes.count {
        let n = bytes.withUnsafeBytes {
          write(writeEnd, $0.baseAddress! + off, min(4096, $0.count - off))
        }
        if n <= 0 { break }
        off += n
      }
      close(writeEnd)
    }
    writer.start()
    #expect(log.wait(timeout: 60) { $0.all.last == .ended }, "\(log.all.suffix(2))")
    #expect(log.fixes.count == 1130)
    close(fds[0])
  }

  @Test("a growing GPX is followed as it is written (by the recorder, which rewrites its end)")
  func growingGPX() throws {
    let dir = try Scratch()
    let path = dir.path("live.gpx")
    let recorder = try GPXRecorder(path: path)
    let log = EventLog()
    let p = FileFollowProvider(path: path, pollInterval: 0.05)
    p.start(log.handler)
    defer { p.stop() }
    for k in 0..<5 {
      var f = LocationFix(
        coordinate: Coordinate(latitude: 60.17 + Double(k) * 0.001, longitude: 24.94),
        altitude: 10, timestamp: Date(timeIntervalSince1970: 1_700_000_000 + Double(k)))
      f.satellitesUsed = 7
      recorder.append(f)
      #expect(log.wait(timeout: 30) { $0.fixes.count == k + 1 }, "point \(k): \(log.all)")
      #expect(try GPXValidity.check(path) == k + 1)
    }
    let last = try #require(log.fixes.last)
    #expect(abs(last.coordinate.latitude - 60.174) < 1e-7)
    #expect(last.altitude == 10)
    #expect(last.timestamp == Date(timeIntervalSince1970: 1_700_000_004))
    #expect(p.statistics.malformed == 0)
  }

  @Test("a file truncated and rewritten is read again from its start; a rotated one too")
  func truncateAndRotate() throws {
    let dir = try Scratch()
    let path = dir.path("log.csv")
    try "time,lat,lon\n2024-06-15T08:00:00Z,43.7338,7.4207\n".write(
      toFile: path, atomically: false, encoding: .utf8)
    let log = EventLog()
    let p = FileFollowProvider(path: path, pollInterval: 0.05)
    p.start(log.handler)
    defer { p.stop() }
    #expect(log.wait(timeout: 30) { $0.fixes.count == 1 })
    try append("2024-06-15T08:00:01Z,43.7339,7.4208\n", to: path)
    #expect(log.wait(timeout: 30) { $0.fixes.count == 2 })
    // Truncate and write a new track (shorter than what was read).
    let h = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try h.truncate(atOffset: 0)
    try h.close()
    #expect(log.wait(timeout: 30) { $0.restarts.contains { $0.hasSuffix("truncated") } })
    try append("lat,lon\n60.1699,24.9384\n", to: path)
    #expect(log.wait(timeout: 30) { $0.fixes.count == 3 }, "\(log.all)")
    #expect(log.fixes.last?.coordinate.latitude == 60.1699)
    // Rotation: the file is moved away and a new one takes its name.
    try FileManager.default.moveItem(atPath: path, toPath: dir.path("log.csv.1"))
    try "lat,lon\n51.5,-0.12\n".write(toFile: path, atomically: false, encoding: .utf8)
    #expect(log.wait(timeout: 30) { $0.fixes.count == 4 }, "\(log.all)")
    #expect(log.fixes.last?.coordinate.longitude == -0.12)
    #expect(log.restarts.contains { $0.hasSuffix("a new file") })
  }

  @Test("a file that is not a track says so")
  func unknownFormat() throws {
    let dir = try Scratch()
    let path = dir.path("notes.txt")
    try "hello\nworld\n".write(toFile: path, atomically: false, encoding: .utf8)
    let log = EventLog()
    let p = FileFollowProvider(path: path)
    p.start(log.handler)
    defer { p.stop() }
    #expect(log.wait(timeout: 30) { !$0.failures.isEmpty })
    #expect(
      log.failures.first?.hasSuffix("not NMEA 0183, GPX or CSV with latitude and longitude") == true
    )
  }

  @Test("--follow sources: gpsd addresses, devices, files")
  func sources() throws {
    #expect(try GPSDProvider.address("gpsd")! == ("127.0.0.1", 2947))
    #expect(try GPSDProvider.address("gpsd://example.org:3000")! == ("example.org", 3000))
    #expect(try GPSDProvider.address("gpsd://[::1]:2948")! == ("::1", 2948))
    #expect(try GPSDProvider.address("track.gpx") == nil)
    #expect(throws: LocationSourceError.badAddress("gpsd://host:http")) {
      try GPSDProvider.address("gpsd://host:http")
    }
    #expect(try LocationSource.provider(for: "gpsd") is GPSDProvider)
    #expect(try LocationSource.provider(for: "-") is NMEAStreamProvider)
    #expect(try LocationSource.provider(for: "/dev/null") is NMEAStreamProvider)
    #expect(try LocationSource.provider(for: rideLog.path) is FileFollowProvider)
  }
}

@Suite("gpsd JSON reports")
struct GPSDReportTests {
  func parse(_ s: String) throws -> GPSDReport { try GPSDReport.parse(Array(s.utf8)) }

  @Test("TPV with a fix, TPV without, SKY")
  func reports() throws {
    let tpv = try parse(
      #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2024-06-15T08:01:02.500Z","lat":43.736053333,"lon":7.421361667,"altMSL":35.2,"eph":23.56,"track":9.1,"speed":4.671,"status":2}"#
    )
    guard case .tpv(let f?, 3) = tpv else {
      Issue.record("\(tpv)")
      return
    }
    #expect(f.coordinate == Coordinate(latitude: 43.736053333, longitude: 7.421361667))
    #expect(f.altitude == 35.2 && f.horizontalAccuracy == 23.56 && f.course == 9.1)
    #expect(f.speed == 4.671 && f.quality == .dgps)
    #expect(f.timestamp == Date(timeIntervalSince1970: 1_718_438_462.5))
    #expect(try parse(#"{"class":"TPV","mode":1}"#) == .tpv(nil, mode: 1))
    #expect(try parse(#"{"class":"TPV","mode":3,"eph":2}"#) == .other("TPV"))
    #expect(
      try parse(
        #"{"class":"SKY","hdop":1.2,"satellites":[{"PRN":2,"used":true},{"PRN":5,"used":false}]}"#)
        == .sky(used: 1, inView: 2, hdop: 1.2))
    #expect(
      try parse(#"{"class":"SKY","nSat":11,"uSat":8}"#) == .sky(used: 8, inView: 11, hdop: nil))
  }

  @Test("malformed lines are refused, not fatal; the decoder counts them")
  func malformed() {
    for bad in [
      "{", "[]", #"{"mode":3}"#, #"{"class":"TPV"}"#, #"{"class":"TPV","mode":3,"lat":91,"lon":0}"#,
      #"{"class":"TPV","mode":3,"lat":"x","lon":0}"#, "\u{0}\u{1}",
    ] {
      #expect(throws: GPSDReport.Malformed.self) { try parse(bad) }
    }
    var d = GPSDDecoder()
    let events = d.feed(
      Array(
        ("{\n" + #"{"class":"SKY","nSat":9,"uSat":6}"# + "\n"
          + #"{"class":"TPV","mode":2,"lat":1,"lon":2}"# + "\nnot json\n").utf8))
    #expect(d.statistics.malformed == 2)
    guard case .fix(let f)? = events.first else {
      Issue.record("\(events)")
      return
    }
    #expect(f.satellitesUsed == 6 && f.satellitesInView == 9 && f.quality == .fix2D)
  }
}

/// Checks that a GPX file is whole XML (Foundation's parser) and counts its track points.
enum GPXValidity {
  final class Counter: NSObject, XMLParserDelegate {
    var points = 0
    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      if name == "trkpt" { points += 1 }
    }
  }

  static func check(_ path: String) throws -> Int {
    let parser = XMLParser(data: try Data(contentsOf: URL(fileURLWithPath: path)))
    let counter = Counter()
    parser.delegate = counter
    guard parser.parse() else {
      throw CocoaError(.fileReadCorruptFile, userInfo: ["why": "\(parser.parserError as Any)"])
    }
    return counter.points
  }
}
