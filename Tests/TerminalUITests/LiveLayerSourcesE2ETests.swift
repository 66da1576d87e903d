import Foundation
import TestProcesses
import Testing

/// The row and column of `text` on a screen.
private func find(_ text: String, _ screen: [String]) -> (row: Int, column: Int)? {
  for (r, line) in screen.enumerated() {
    if let range = line.range(of: text) {
      return (r, line.distance(from: line.startIndex, to: range.lowerBound))
    }
  }
  return nil
}

/// A capture with its escape sequences shown (`\e[…`).
private func visible(_ s: String) -> String { s.replacingOccurrences(of: "\u{1B}", with: "\\e") }

/// The status line: the last line the viewer drew on.
private func statusLine(_ screen: [String]) -> String {
  screen.last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? ""
}

private func point(_ id: String, _ lon: Double, _ lat: Double, _ properties: String) -> String {
  "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]},\"properties\":{\(properties)}}"
}

/// A TCP listener on 127.0.0.1 at a port the system picks: the viewer connects to it and the
/// test writes lines to the connection.
private final class LineServer {
  let listener: Int32
  let port: UInt16
  private(set) var connection: Int32 = -1

  init() throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TmuxError("socket: \(errno)") }
    var addr = sockaddr_in()
    addr.sin_family = sa_family_t(AF_INET)
    addr.sin_addr.s_addr = inet_addr("127.0.0.1")
    addr.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
    }
    guard bound == 0, listen(fd, 4) == 0 else {
      close(fd)
      throw TmuxError("bind/listen: \(errno)")
    }
    _ = withUnsafeMutablePointer(to: &addr) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
    }
    listener = fd
    port = UInt16(bigEndian: addr.sin_port)
  }

  deinit {
    if connection >= 0 { close(connection) }
    close(listener)
  }

  /// Waits up to `timeout` seconds for the viewer to connect.
  func accept(timeout: Double) -> Bool {
    let end = Date().addingTimeInterval(timeout)
    while connection < 0 && Date() < end {
      var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
      if poll(&p, 1, 200) > 0 { connection = Glibc.accept(listener, nil, nil) }
    }
    return connection >= 0
  }

  /// Writes a line to the connection.
  func send(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes {
      Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
    }
  }
}

@Suite("live layers in the viewer: network sources (tmux)", .serialized)
struct LiveLayerSourcesE2ETests {
  @Test(
    "http://: dump1090's aircraft.json served by nginx, rewritten between polls: the aircraft moves on screen"
  )
  func aircraftOverHTTP() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-e2e-aircraft-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    func write(lat: Double, lon: Double, track: Double) throws {
      let doc = """
        { "now" : 1700000000.0,
          "messages" : 1234,
          "aircraft" : [
            {"hex":"3c6444","flight":"DLH9LF  ","alt_baro":37000,"gs":451.2,"track":\(track),\
        "lat":\(lat),"lon":\(lon),"seen_pos":0.2,"seen":0.1,"rssi":-20.1},
            {"hex":"4ca2d1","alt_baro":12000,"seen":3.5,"rssi":-30.2}
          ]
        }

        """
      // Atomically, as dump1090 writes it (a temporary file renamed).
      try doc.write(
        to: dir.appendingPathComponent("aircraft.json"), atomically: true, encoding: .utf8)
    }
    try write(lat: 43.65, lon: 7.3, track: 90)
    let nginx = try Nginx(serving: dir)
    defer { nginx.stop() }
    let tmux = try Tmux(width: 100, height: 30)
    try tmux.start(
      "\(Tmux.termmap) --no-basemap --center 43.7,7.4 --zoom 10 --layer \(nginx.baseURL)/aircraft.json --every 1; sleep 60"
    )
    let (up, first) = try tmux.waitFor(timeout: 60) { find("→ DLH9LF", $0) != nil }
    try #require(up, "the aircraft did not come:\n\(first.joined(separator: "\n"))")
    let a = try #require(find("DLH9LF", first))
    // The aircraft without a position (4ca2d1) is not drawn.
    #expect(!first.joined().contains("4ca2d1"))
    // dump1090 writes the file again: further north-east, heading north.
    try write(lat: 43.75, lon: 7.5, track: 0)
    let (moved, second) = try tmux.waitFor(timeout: 60) { s in
      guard let b = find("↑ DLH9LF", s) else { return false }
      return b.row < a.row && b.column > a.column && !s.joined().contains("→")
    }
    #expect(moved, "\(second.joined(separator: "\n"))")
    #expect(statusLine(second).contains("1 target"), "\(statusLine(second))")
    // Polled, not read once: nginx answered more than one request for it.
    let polls = nginx.waitForAccessLog { $0.filter { $0.contains("/aircraft.json") }.count >= 2 }
    #expect(polls.filter { $0.contains("/aircraft.json") }.count >= 2, "\(polls)")
  }

  @Test("tcp://: a line stream from a loopback listener puts a marker up and moves it")
  func markerOverTCP() throws {
    let server = try LineServer()
    // In colour (the test runner may have NO_COLOR set), with 256 colours (tmux's pane).
    let tmux = try Tmux(width: 100, height: 30)
    try tmux.start(
      "unset NO_COLOR COLORTERM; \(Tmux.termmap) --no-basemap --center 43.7,7.4 --zoom 10 --layer tcp://127.0.0.1:\(server.port); sleep 60"
    )
    try #require(
      server.accept(timeout: 60),
      "the viewer never connected:\n\((try? tmux.capture())?.joined(separator: "\n") ?? "")")
    server.send(point("k", 7.3, 43.65, "\"title\":\"Kilo\",\"heading\":90"))
    let (up, first) = try tmux.waitFor(timeout: 60) { find("→ Kilo", $0) != nil }
    try #require(up, "the marker did not come:\n\(first.joined(separator: "\n"))")
    let a = try #require(find("Kilo", first))
    server.send(point("k", 7.5, 43.75, "\"heading\":180"))
    let (moved, second) = try tmux.waitFor(timeout: 60) { s in
      guard let b = find("↓ Kilo", s) else { return false }
      return b.row < a.row && b.column > a.column && !s.joined().contains("→")
    }
    #expect(moved, "\(second.joined(separator: "\n"))")
    #expect(statusLine(second).contains("1 target"), "\(statusLine(second))")

    // A line in its simplestyle stroke: red braille (xterm colour 196) across the screen.
    func redDots(_ screen: String) -> Int {
      screen.components(separatedBy: "38;5;196m").dropFirst().filter {
        guard let c = $0.unicodeScalars.first else { return false }
        return c.value >= 0x2801 && c.value <= 0x28FF
      }.count
    }
    server.send(
      "{\"type\":\"Feature\",\"id\":\"route\",\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[7.2,43.6],[7.6,43.8]]},\"properties\":{\"stroke\":\"#ff0000\",\"stroke-width\":4}}"
    )
    var coloured = ""
    let red = try tmux.waitFor(timeout: 60) { s in
      coloured = (try? tmux.captureWithColours()) ?? ""
      return redDots(coloured) > 0 && statusLine(s).contains("2 targets")
    }
    #expect(red.ok, "no red line, or not counted:\n\(visible(coloured))")
    // Its id with a null geometry: gone, the marker stays.
    server.send("{\"type\":\"Feature\",\"id\":\"route\",\"geometry\":null,\"properties\":{}}")
    let gone = try tmux.waitFor(timeout: 60) { s in
      coloured = (try? tmux.captureWithColours()) ?? ""
      return redDots(coloured) == 0 && statusLine(s).contains("1 target")
    }
    #expect(gone.ok, "the line stayed:\n\(visible(coloured))")
    #expect(gone.screen.joined().contains("↓ Kilo"))
  }

  @Test(
    "gpsd://: a real gpsd replays the project's AIVDM log (gpsfake): the vessels show with their names",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake"),
      "needs gpsd-clients (gpsfake)"))
  func vesselsFromGPSD() throws {
    let log = Tmux.repositoryRoot.appendingPathComponent(
      "Tests/LiveLayersTests/Fixtures/ais-harbour.log")
    let port = ChildProcess.freeLoopbackPort()
    // Replayed over and over (gpsd may miss the first sentences while it looks at the device).
    let gpsfake = try ChildProcess.spawn([
      "/usr/bin/gpsfake", "-P", "\(port)", "-q", "-c", "0.05", log.path,
    ])
    defer { ChildProcess.stop(gpsfake) }
    let tmux = try Tmux(width: 100, height: 30)
    try tmux.start(
      "\(Tmux.termmap) --no-basemap --center 54.33,10.16 --zoom 12 --layer gpsd://127.0.0.1:\(port); sleep 60"
    )
    // GULL's name comes in a type 5 message, its position in a type 1: merged by MMSI, one
    // marker labelled with the name. TERN (class B): type 18 positions, a type 24 name.
    let (named, screen) = try tmux.waitFor(timeout: 120) { s in
      let text = s.joined(separator: "\n")
      return text.contains("GULL") && text.contains("TERN")
    }
    #expect(named, "\(screen.joined(separator: "\n"))")
    // The third (211000003, no name in the log) labelled with its MMSI: three targets.
    let (all, counted) = try tmux.waitFor(timeout: 60) { s in
      statusLine(s).contains("3 targets") && s.joined().contains("211000003")
    }
    #expect(all, "\(counted.joined(separator: "\n"))")
    // Vessels are triangles by course (or a diamond without one), green.
    let gull = try #require(find("GULL", screen), "\(screen.joined(separator: "\n"))")
    let line = Array(screen[gull.row])
    let glyph = gull.column >= 2 ? line[gull.column - 2] : " "
    #expect("▲◥▶◢▼◣◀◤◆".contains(glyph), "\(screen[gull.row])")
    // GULL lies south-west of TERN (54.321, 10.15 against 54.33, 10.16).
    let tern = try #require(find("TERN", screen))
    #expect(gull.row > tern.row && gull.column < tern.column)
  }
}
