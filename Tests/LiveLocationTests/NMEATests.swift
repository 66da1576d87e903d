import Foundation
import LiveLocation
import MapGeometry
import Testing

/// The committed log (see Data/tools/make-monaco-ride-nmea.py).
let rideLog = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("Fixtures/monaco-ride.nmea")

func sentence(_ body: String) -> String {
  "$\(body)*\(String(format: "%02X", NMEASentence.checksum(body)))"
}

func parse(_ s: String) throws(NMEAError) -> NMEASentence {
  try NMEASentence.parse(Array(s.utf8))
}

@Suite("NMEA 0183 sentences")
struct NMEASentenceTests {
  @Test("GGA: position, quality, satellites, HDOP, altitude")
  func gga() throws {
    let s = try parse(
      "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47")
    guard case .gga(let g) = s else {
      Issue.record("not GGA: \(s)")
      return
    }
    #expect(g.time == Double(12 * 3600 + 35 * 60 + 19))
    #expect(abs(g.coordinate!.latitude - 48.1173) < 1e-6)
    #expect(abs(g.coordinate!.longitude - 11.516_666_7) < 1e-6)
    #expect(g.quality == 1)
    #expect(g.satellitesUsed == 8)
    #expect(g.hdop == 0.9)
    #expect(g.altitude == 545.4)
  }

  @Test("RMC: validity, speed in knots, course, date; southern and western hemispheres")
  func rmc() throws {
    let s = try parse(sentence("GPRMC,225446,A,4916.45,S,12311.12,W,000.5,054.7,191194,020.3,E"))
    guard case .rmc(let r) = s else {
      Issue.record("not RMC")
      return
    }
    #expect(r.valid)
    #expect(abs(r.coordinate!.latitude + 49.274_166_7) < 1e-6)
    #expect(abs(r.coordinate!.longitude + 123.185_333_3) < 1e-6)
    #expect(r.speedKnots == 0.5)
    #expect(r.course == 54.7)
    #expect(r.date?.0 == 19 && r.date?.1 == 11 && r.date?.2 == 1994)
    let void = try parse(sentence("GPRMC,225446,V,,,,,,,191194,,,N"))
    guard case .rmc(let v) = void else { return }
    #expect(!v.valid)
    #expect(v.coordinate == nil)
  }

  @Test("GLL, VTG, GSA and GSV")
  func others() throws {
    guard case .gll(let g) = try parse(sentence("GNGLL,4916.45,N,12311.12,W,225444,A,A")) else {
      Issue.record("GLL")
      return
    }
    #expect(g.valid && g.time == 22 * 3600 + 54 * 60 + 44)
    guard case .vtg(let v) = try parse(sentence("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A"))
    else {
      Issue.record("VTG")
      return
    }
    #expect(v.course == 54.7 && v.speedKnots == 5.5 && v.speedKmh == 10.2)
    guard
      case .gsa(let a) = try parse(
        sentence("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1"))
    else {
      Issue.record("GSA")
      return
    }
    #expect(a.fixType == 3 && a.satellites == [4, 5, 9, 12, 24] && a.hdop == 1.3)
    guard
      case .gsv(let s) = try parse(
        sentence("GPGSV,2,1,08,01,40,083,46,02,17,308,41,12,07,344,39,14,22,228,45"))
    else {
      Issue.record("GSV")
      return
    }
    #expect(s.messageCount == 2 && s.messageNumber == 1 && s.satellitesInView == 8)
    #expect(try parse(sentence("PUBX,00,foo")) == .other("PUBX"))
    #expect(try parse(sentence("GPZDA,201530.00,04,07,2002,00,00")).type == "ZDA")
    #expect(try parse(sentence("GPTXT,01,01,02,ANTSTATUS=OK")) == .other("GPTXT"))
  }

  @Test("checksums are verified; malformed fields are named")
  func errors() {
    #expect(throws: NMEAError.badChecksum(expected: 0x47, found: "48")) {
      try parse("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*48")
    }
    #expect(throws: NMEAError.missingChecksum) {
      try parse("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")
    }
    #expect(throws: NMEAError.notASentence) { try parse("GPGGA,1*00") }
    #expect(throws: NMEAError.badField("GGA", 2)) {
      try parse(sentence("GPGGA,123519,4867.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
    }
    #expect(throws: NMEAError.tooFewFields("RMC", 5)) {
      try parse(sentence("GPRMC,225446,A,4916.45,S"))
    }
    #expect(throws: NMEAError.badField("RMC", 1)) {
      try parse(sentence("GPRMC,256446,A,4916.45,S,12311.12,W,000.5,054.7,191194,020.3,E"))
    }
    #expect(throws: NMEAError.badCharacter(offset: 3)) { try parse("$GP\u{01}GA*00") }
  }
}

@Suite("NMEA decoding: epochs, fixes and malformed input")
struct NMEADecoderTests {
  @Test("the committed ride: one fix per second, the tunnel without a fix, speed and course")
  func ride() throws {
    let bytes = try Array(Data(contentsOf: rideLog))
    var d = NMEADecoder(sourceName: "monaco-ride.nmea")
    let events = d.feed(bytes) + d.finish()
    let fixes = events.compactMap { e -> LocationFix? in
      if case .fix(let f) = e { return f }
      return nil
    }
    let noFix = events.filter { if case .noFix = $0 { return true } else { return false } }
    #expect(fixes.count == 1130)
    #expect(noFix.count == 20)
    #expect(d.statistics.malformed == 0)
    #expect(d.statistics.accepted == 1150 * 6)
    let first = try #require(fixes.first)
    #expect(abs(first.coordinate.latitude - 43.733_80) < 1e-4)
    #expect(abs(first.coordinate.longitude - 7.420_77) < 1e-4)
    #expect(first.quality == .fix3D)
    #expect(first.satellitesUsed == 8 && first.satellitesInView == 11)
    #expect(first.timestamp == Date(timeIntervalSince1970: 1_718_438_400))
    let moving = fixes[100]
    #expect((4.4...5.6).contains(moving.speed ?? 0), "\(moving)")
    #expect(moving.course != nil)
    #expect(moving.horizontalAccuracy.map { (3...8).contains($0) } == true)
    // Successive fixes are about five metres apart (a bicycle at 5 m/s, one fix a second).
    let d1 = Geodesic.distance(fixes[200].coordinate, fixes[201].coordinate)
    #expect((2...9).contains(d1), "\(d1)")
  }

  @Test("1,000 malformed sentences in the ride are skipped and counted; every fix survives")
  func malformed() throws {
    let lines = try String(contentsOf: rideLog, encoding: .utf8).split(separator: "\r\n")
    var noisy: [UInt8] = []
    var rng = SplitMix(seed: 9)
    var bad = 0
    for (n, line) in lines.enumerated() {
      noisy += Array(line.utf8) + [13, 10]
      guard n % 6 == 2, bad < 1000 else { continue }
      bad += 1
      switch bad % 4 {
      case 0:  // a wrong checksum
        var l = Array(line.utf8)
        l[l.count - 1] = l[l.count - 1] == 0x30 ? 0x31 : 0x30
        noisy += l + [13, 10]
      case 1:  // truncated fields, with a right checksum
        noisy += Array(sentence("GPGGA,080000.00,4344.02,N").utf8) + [13, 10]
      case 2:  // binary noise
        noisy +=
          (0..<(20 + Int(rng.next() % 60))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
          .map { $0 == 10 ? 0 : $0 } + [10]
      default:  // a line cut in the middle
        noisy += Array(line.utf8.prefix(30)) + [13, 10]
      }
    }
    #expect(bad == 1000)
    var d = NMEADecoder(sourceName: "noisy.nmea")
    let events = d.feed(noisy) + d.finish()
    let fixes = events.filter { if case .fix = $0 { return true } else { return false } }
    #expect(d.statistics.malformed == 1000)
    #expect(fixes.count == 1130)
    #expect(d.statistics.lastProblem?.hasPrefix("noisy.nmea:") == true)
  }

  @Test("a fix is delivered as soon as its epoch is complete, not a second later")
  func promptEpochs() throws {
    let text = try String(contentsOf: rideLog, encoding: .utf8)
    let lines = text.split(separator: "\r\n").prefix(18).map { Array(($0 + "\r\n").utf8) }
    var d = NMEADecoder(sourceName: "x")
    var fixesAfter: [Int] = []
    for (n, l) in lines.enumerated() {
      for e in d.feed(l) { if case .fix = e { fixesAfter.append(n) } }
    }
    // Epoch 1 ends when epoch 2 starts (line 6); after that, each epoch ends with its RMC.
    #expect(fixesAfter == [6, 11, 17])
  }
}

/// A small deterministic generator for test noise.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite("NMEA from other receivers: line ends, GNS and ZDA, noise")
struct NMEAReceiverTests {
  /// Three epochs as a multi-constellation receiver writes them (GGA from two talkers, GNS,
  /// RMC with the NMEA 4.1 status field, GSA with a system ID), with `ending` after each line.
  static func telitLike(ending: String) -> [UInt8] {
    var text = ""
    for second in 0..<3 {
      let t = String(format: "0435%02d.00", 39 + second)
      let lat = String(format: "4333.%06d", 190_206 + second * 100)
      for body in [
        "GPGGA,\(t),\(lat),N,00127.618380,E,1,05,1.3,250.8,M,50.0,M,,",
        "GAGGA,\(t),\(lat),N,00127.618380,E,1,01,1.3,250.8,M,50.0,M,,",
        "GNGNS,\(t),\(lat),N,00127.618380,E,AAAAN,14,1.3,250.8,50.0,,,V",
        "GPVTG,,T,1.7,M,0.0,N,0.0,K,A",
        "GPRMC,\(t),A,\(lat),N,00127.618380,E,0.0,,040925,1.7,W,A,V",
        "GNGSA,A,3,02,08,10,23,27,,,,,,,,1.6,1.3,0.9,1",
        "GLGSV,3,3,10,67,23,143,22,88,00,084,,1",
      ] {
        text += sentence(body) + ending
      }
    }
    return Array(text.utf8)
  }

  @Test("CR CR LF, spaces and tabs after the checksum are line ends, not bad sentences")
  func trailingLineEnds() throws {
    for ending in ["\r\r\n", "\r\n", "\n", " \r\n", "\t\r\r\n", "\n\r"] {
      var d = NMEADecoder(sourceName: "telit.nmea")
      let events = d.feed(Self.telitLike(ending: ending)) + d.finish()
      let fixes = events.compactMap { e -> LocationFix? in
        if case .fix(let f) = e { return f } else { return nil }
      }
      #expect(d.statistics.malformed == 0, "\(ending.debugDescription): \(d.statistics)")
      #expect(d.statistics.accepted == 21, "\(ending.debugDescription)")
      #expect(fixes.count == 3, "\(ending.debugDescription)")
      #expect(
        fixes.first?.timestamp == Date(timeIntervalSince1970: 1_756_960_539),
        "\(ending.debugDescription)")
    }
    let parsed = try NMEASentence.parse(
      Array((sentence("GPVTG,,T,1.7,M,0.0,N,0.0,K,A") + "\r\r").utf8))
    #expect(parsed.type == "VTG")
  }

  @Test("GNS and ZDA without RMC: fixes with positions, quality and times (the date from ZDA)")
  func gnsAndZDA() throws {
    var text = ""
    // 23:59:58 to 00:00:01: ZDA after the GNS of each second; the date changes at midnight.
    let seconds = [(23, 59, 58, 31), (23, 59, 59, 31), (0, 0, 0, 1), (0, 0, 1, 1)]
    for (i, (h, m, s, day)) in seconds.enumerated() {
      let t = String(format: "%02d%02d%02d.00", h, m, s)
      let month = day == 31 ? 12 : 1
      let year = day == 31 ? 2025 : 2026
      let modes = i == 3 ? "DDNN" : "AANN"
      text +=
        sentence("GNGNS,\(t),4333.1902,N,00127.6183,W,\(modes),12,0.9,250.8,50.0,,,V") + "\r\n"
      text += sentence("GNGSA,A,3,02,08,10,23,27,,,,,,,,1.6,0.9,0.9,1") + "\r\n"
      text +=
        sentence(String(format: "GPZDA,%@,%02d,%02d,%04d,00,00", t, day, month, year)) + "\r\n"
    }
    text += sentence("GNGNS,000002.00,,,,,NNNN,00,,,,,,V") + "\r\n"
    var d = NMEADecoder(sourceName: "gns.nmea")
    let events = d.feed(Array(text.utf8)) + d.finish()
    #expect(d.statistics.malformed == 0, "\(d.statistics)")
    let fixes = events.compactMap { e -> LocationFix? in
      if case .fix(let f) = e { return f } else { return nil }
    }
    #expect(fixes.count == 4)
    let midnight = 1_767_225_600.0  // 2026-01-01T00:00:00Z
    #expect(
      fixes.map { $0.timestamp?.timeIntervalSince1970 } == [
        midnight - 2, midnight - 1, midnight, midnight + 1,
      ])
    let f = try #require(fixes.first)
    #expect(abs(f.coordinate.latitude - 43.553_17) < 1e-5)
    #expect(abs(f.coordinate.longitude + 1.460_305) < 1e-5)
    #expect(f.altitude == 250.8 && f.hdop == 0.9 && f.satellitesUsed == 12)
    #expect(f.quality == .fix3D)
    #expect(fixes.last?.quality == .dgps)
    #expect(events.last == .noFix(satellitesInView: nil))
    // The sentences alone.
    guard
      case .zda(let z) = try NMEASentence.parse(
        Array(sentence("GPZDA,201530.00,04,07,2002,00,00").utf8))
    else {
      Issue.record("not ZDA")
      return
    }
    #expect(z.time == 20 * 3600 + 15 * 60 + 30 && z.date?.0 == 4 && z.date?.1 == 7)
    #expect(z.date?.2 == 2002)
    #expect(throws: NMEAError.badField("ZDA", 3)) {
      try NMEASentence.parse(Array(sentence("GPZDA,201530.00,04,13,2002,00,00").utf8))
    }
    #expect(throws: NMEAError.badField("GNS", 6)) {
      try NMEASentence.parse(Array(sentence("GNGNS,000002.00,,,,,XQ,00,,,,,,V").utf8))
    }
  }

  @Test("noise without line ends (a wrong baud rate) is counted as it comes, not at the next LF")
  func noiseIsCounted() {
    var rng = SplitMix(seed: 4800)
    var d = NMEADecoder(sourceName: "/dev/ttyUSB0")
    var counts: [Int] = []
    for _ in 0..<10 {
      let chunk = (0..<2020).map { _ in UInt8(truncatingIfNeeded: rng.next() | 0x80) }
      _ = d.feed(chunk)
      counts.append(d.statistics.malformed)
    }
    // One bad "line" per 202 bytes of noise, counted as the noise comes.
    #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 < $1 }, "\(counts)")
    #expect(counts.first == 9 && counts.last == 99, "\(counts)")
    #expect(d.statistics.lastProblem == "/dev/ttyUSB0:1: line too long")
    // A sentence after the noise's line end is read.
    let events = d.feed([10] + Array((sentence("GPZDA,201530.00,04,07,2002,00,00") + "\r\n").utf8))
    #expect(events.isEmpty && d.statistics.accepted == 1 && d.statistics.malformed == 99)
  }
}
