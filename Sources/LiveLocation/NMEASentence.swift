import Foundation
import MapGeometry

/// Why an NMEA 0183 sentence was refused.
public enum NMEAError: Error, Equatable, Sendable, CustomStringConvertible {
  case notASentence
  case tooLong(Int)
  case badCharacter(offset: Int)
  case missingChecksum
  case badChecksum(expected: UInt8, found: String)
  case badAddress
  case tooFewFields(String, Int)
  case badField(String, Int)

  public var description: String {
    switch self {
    case .notASentence: return "not an NMEA sentence (no leading $)"
    case .tooLong(let n): return "sentence of \(n) bytes (at most \(NMEASentence.maximumLength))"
    case .badCharacter(let o): return "byte \(o) is not printable ASCII"
    case .missingChecksum: return "no checksum (*hh)"
    case .badChecksum(let e, let f):
      return "bad checksum *\(SafeText.clean(f)) (computed \(String(format: "%02X", e)))"
    case .badAddress: return "bad address field"
    case .tooFewFields(let t, let n): return "\(t): \(n) fields are too few"
    case .badField(let t, let n): return "\(t): field \(n) is malformed"
    }
  }
}

/// One NMEA 0183 sentence, parsed: the position, time and satellite sentences a GNSS receiver
/// sends (GGA, RMC, GLL, GNS, VTG, GSA, GSV, ZDA); any other well-formed sentence is `.other`.
public enum NMEASentence: Sendable, Equatable {
  /// Time of day in seconds since midnight UTC.
  public typealias TimeOfDay = Double

  /// Global positioning system fix data.
  public struct GGA: Sendable, Equatable {
    public var time: TimeOfDay?
    public var coordinate: Coordinate?
    /// 0 invalid, 1 GPS, 2 DGPS, 3 PPS, 4 RTK, 5 float RTK, 6 estimated, 7 manual, 8 simulator.
    public var quality: Int
    public var satellitesUsed: Int?
    public var hdop: Double?
    /// Metres above mean sea level.
    public var altitude: Double?
  }
  /// Recommended minimum data.
  public struct RMC: Sendable, Equatable {
    public var time: TimeOfDay?
    public var valid: Bool
    public var coordinate: Coordinate?
    /// Knots.
    public var speedKnots: Double?
    public var course: Double?
    /// Day, month, year.
    public var date: (Int, Int, Int)?
    /// The FAA mode indicator (NMEA 2.3): A, D, E, F, M, N, P, R, S.
    public var mode: Character?

    public static func == (a: RMC, b: RMC) -> Bool {
      a.time == b.time && a.valid == b.valid && a.coordinate == b.coordinate
        && a.speedKnots == b.speedKnots && a.course == b.course && a.date?.0 == b.date?.0
        && a.date?.1 == b.date?.1 && a.date?.2 == b.date?.2 && a.mode == b.mode
    }
  }
  /// Geographic position, latitude and longitude.
  public struct GLL: Sendable, Equatable {
    public var time: TimeOfDay?
    public var valid: Bool
    public var coordinate: Coordinate?
  }
  /// GNSS fix data (NMEA 4): GGA's position with a mode indicator per constellation.
  public struct GNS: Sendable, Equatable {
    public var time: TimeOfDay?
    public var coordinate: Coordinate?
    /// One letter per constellation (GPS, GLONASS, Galileo, BeiDou…): N no fix, A autonomous,
    /// D differential, P precise, R RTK, F float RTK, E estimated, M manual, S simulator.
    public var modes: String
    public var satellitesUsed: Int?
    public var hdop: Double?
    /// Metres above mean sea level.
    public var altitude: Double?
    /// Some constellation has a fix.
    public var valid: Bool { modes.contains { $0 != "N" } }
  }
  /// Time and date (UTC).
  public struct ZDA: Sendable, Equatable {
    public var time: TimeOfDay?
    /// Day, month, year (four digits in the sentence).
    public var date: (Int, Int, Int)?

    public static func == (a: ZDA, b: ZDA) -> Bool {
      a.time == b.time && a.date?.0 == b.date?.0 && a.date?.1 == b.date?.1
        && a.date?.2 == b.date?.2
    }
  }
  /// Course and speed over ground.
  public struct VTG: Sendable, Equatable {
    public var course: Double?
    public var speedKnots: Double?
    public var speedKmh: Double?
    public var valid: Bool
  }
  /// DOP and active satellites.
  public struct GSA: Sendable, Equatable {
    /// 1 no fix, 2 2D, 3 3D.
    public var fixType: Int
    public var satellites: [Int]
    public var pdop: Double?
    public var hdop: Double?
    public var vdop: Double?
  }
  /// Satellites in view (one message of a group).
  public struct GSV: Sendable, Equatable {
    public var messageCount: Int
    public var messageNumber: Int
    public var satellitesInView: Int
  }

  case gga(GGA)
  case rmc(RMC)
  case gll(GLL)
  case gns(GNS)
  case zda(ZDA)
  case vtg(VTG)
  case gsa(GSA)
  case gsv(GSV)
  /// A well-formed sentence of another type (or a proprietary one); its address.
  case other(String)

  /// NMEA 0183 says 82 characters including $ and CR LF; receivers exceed it (long GSV with
  /// signal IDs, high-precision fields), so a little more is allowed.
  public static let maximumLength = 200

  /// The talker-less type of a sentence ("GGA"), for counting.
  public var type: String {
    switch self {
    case .gga: return "GGA"
    case .rmc: return "RMC"
    case .gll: return "GLL"
    case .gns: return "GNS"
    case .zda: return "ZDA"
    case .vtg: return "VTG"
    case .gsa: return "GSA"
    case .gsv: return "GSV"
    case .other(let a): return a
    }
  }

  /// Parses one sentence. Line endings and spaces after the checksum are allowed (CR LF, and
  /// the CR CR LF some receivers send), and before the `$` (the CR of an LF CR ending). The
  /// checksum is required and verified.
  public static func parse(_ line: some Collection<UInt8>) throws(NMEAError) -> NMEASentence {
    var bytes = Array(line)
    while let last = bytes.last, isTrailingSpace(last) { bytes.removeLast() }
    if let start = bytes.firstIndex(where: { !isTrailingSpace($0) }), start > 0 {
      bytes.removeFirst(start)
    }
    guard bytes.count <= maximumLength else { throw .tooLong(bytes.count) }
    guard bytes.first == UInt8(ascii: "$") else { throw .notASentence }
    guard let star = bytes.lastIndex(of: UInt8(ascii: "*")) else { throw .missingChecksum }
    var sum: UInt8 = 0
    for i in 1..<star {
      let b = bytes[i]
      guard b >= 0x20 && b < 0x7F, b != UInt8(ascii: "$") else { throw .badCharacter(offset: i) }
      sum ^= b
    }
    let given = bytes[(star + 1)...]
    guard given.count == 2, let hex = UInt8(String(decoding: given, as: UTF8.self), radix: 16)
    else {
      throw .badChecksum(expected: sum, found: String(decoding: given.prefix(8), as: UTF8.self))
    }
    guard hex == sum else {
      throw .badChecksum(expected: sum, found: String(decoding: given, as: UTF8.self))
    }
    let body = String(decoding: bytes[1..<star], as: UTF8.self)
    let f = body.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    let address = f[0]
    guard address.count >= 3, address.count <= 6,
      address.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) })
    else { throw .badAddress }
    // Proprietary sentences ($P…) are well-formed but not ours.
    if address.hasPrefix("P") { return .other(address) }
    guard address.count == 5 else { throw .badAddress }
    let type = String(address.suffix(3))
    let r = FieldReader(fields: f, type: type)
    switch type {
    case "GGA":
      try r.require(14)
      let quality = try r.int(6) ?? 0
      guard (0...8).contains(quality) else { throw .badField(type, 6) }
      return .gga(
        GGA(
          time: try r.time(1), coordinate: try r.coordinate(2), quality: quality,
          satellitesUsed: try r.int(7), hdop: try r.double(8), altitude: try r.double(9)))
    case "RMC":
      try r.require(12)
      let status = try r.letter(2, allowed: "AV")
      let mode = f.count > 12 ? try r.letter(12, allowed: "ADEFMNPRS") : nil
      let valid = status == "A" && mode != "N"
      let rmc = RMC(
        time: try r.time(1), valid: valid, coordinate: try r.coordinate(3),
        speedKnots: try r.double(7), course: try r.course(8), date: try r.date(9), mode: mode)
      if let s = rmc.speedKnots, s < 0 { throw .badField(type, 7) }
      return .rmc(rmc)
    case "GLL":
      try r.require(7)
      let status = try r.letter(6, allowed: "AV")
      let mode = f.count > 7 ? try r.letter(7, allowed: "ADEFMNPRS") : nil
      return .gll(
        GLL(
          time: try r.time(5), valid: status == "A" && mode != "N", coordinate: try r.coordinate(1))
      )
    case "GNS":
      try r.require(13)
      guard let modes = r.text(6), modes.count <= 8,
        modes.allSatisfy({ "ADEFMNPRS".contains($0) })
      else { throw .badField(type, 6) }
      return .gns(
        GNS(
          time: try r.time(1), coordinate: try r.coordinate(2), modes: modes,
          satellitesUsed: try r.int(7), hdop: try r.double(8), altitude: try r.double(9)))
    case "ZDA":
      try r.require(5)
      let day = try r.int(2)
      let month = try r.int(3)
      let year = try r.int(4)
      var date: (Int, Int, Int)?
      if let d = day, let m = month, let y = year {
        guard (1...31).contains(d) else { throw .badField(type, 2) }
        guard (1...12).contains(m) else { throw .badField(type, 3) }
        guard (1980...9999).contains(y), r.text(4)?.count == 4 else { throw .badField(type, 4) }
        date = (d, m, y)
      } else if day != nil || month != nil || year != nil {
        throw .badField(type, day == nil ? 2 : month == nil ? 3 : 4)
      }
      return .zda(ZDA(time: try r.time(1), date: date))
    case "VTG":
      try r.require(9)
      let mode = f.count > 9 ? try r.letter(9, allowed: "ADEFMNPRS") : nil
      return .vtg(
        VTG(
          course: try r.course(1), speedKnots: try r.double(5), speedKmh: try r.double(7),
          valid: mode != "N"))
    case "GSA":
      try r.require(18)
      _ = try r.letter(1, allowed: "MA")
      let fixType = try r.int(2) ?? 1
      guard (1...3).contains(fixType) else { throw .badField(type, 2) }
      var sats: [Int] = []
      for n in 3...14 { if let s = try r.int(n) { sats.append(s) } }
      return .gsa(
        GSA(
          fixType: fixType, satellites: sats, pdop: try r.double(15), hdop: try r.double(16),
          vdop: try r.double(17)))
    case "GSV":
      try r.require(4)
      guard let count = try r.int(1), let number = try r.int(2), let inView = try r.int(3),
        (1...9).contains(count), (1...count).contains(number), inView >= 0, inView < 100
      else { throw .badField(type, 1) }
      // Groups of four fields (PRN, elevation, azimuth, SNR), maybe a signal ID at the end.
      let groups = f.count - 4
      guard groups % 4 == 0 || groups % 4 == 1, groups / 4 <= 4 else {
        throw .tooFewFields(type, f.count)
      }
      for g in 0..<(groups / 4) {
        let base = 4 + g * 4
        if let e = try r.int(base + 1), !(-90...90).contains(e) { throw .badField(type, base + 1) }
        if let a = try r.int(base + 2), !(0...359).contains(a) { throw .badField(type, base + 2) }
        if let s = try r.int(base + 3), !(0...99).contains(s) { throw .badField(type, base + 3) }
      }
      return .gsv(GSV(messageCount: count, messageNumber: number, satellitesInView: inView))
    default:
      return .other(address)
    }
  }

  /// CR, LF, space and tab: allowed after the checksum.
  static func isTrailingSpace(_ b: UInt8) -> Bool { b == 13 || b == 10 || b == 32 || b == 9 }

  /// The checksum of a sentence body (the text between `$` and `*`), for writing sentences.
  public static func checksum(_ body: String) -> UInt8 {
    body.utf8.reduce(0) { $0 ^ $1 }
  }
}

/// Reads typed fields of one sentence; an empty field is nil (no data), a field that does not
/// parse throws.
struct FieldReader {
  let fields: [String]
  let type: String

  func require(_ n: Int) throws(NMEAError) {
    guard fields.count >= n else { throw .tooFewFields(type, fields.count) }
  }

  func text(_ n: Int) -> String? {
    n < fields.count && !fields[n].isEmpty ? fields[n] : nil
  }

  func double(_ n: Int) throws(NMEAError) -> Double? {
    guard let t = text(n) else { return nil }
    guard t.count <= 20, t.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }),
      let v = Double(t), v.isFinite
    else { throw .badField(type, n) }
    return v
  }

  func int(_ n: Int) throws(NMEAError) -> Int? {
    guard let t = text(n) else { return nil }
    guard t.count <= 9, t.allSatisfy({ $0.isASCII && $0.isNumber }), let v = Int(t) else {
      throw .badField(type, n)
    }
    return v
  }

  func letter(_ n: Int, allowed: String) throws(NMEAError) -> Character? {
    guard let t = text(n) else { return nil }
    guard t.count == 1, let c = t.first, allowed.contains(c) else { throw .badField(type, n) }
    return c
  }

  func course(_ n: Int) throws(NMEAError) -> Double? {
    guard let c = try double(n) else { return nil }
    guard c >= 0 && c <= 360 else { throw .badField(type, n) }
    return c == 360 ? 0 : c
  }

  /// hhmmss(.sss) as seconds since midnight.
  func time(_ n: Int) throws(NMEAError) -> NMEASentence.TimeOfDay? {
    guard let t = text(n) else { return nil }
    let u = Array(t.utf8)
    guard u.count >= 6, u.prefix(6).allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
      throw .badField(type, n)
    }
    let h = Int(u[0] - 48) * 10 + Int(u[1] - 48)
    let m = Int(u[2] - 48) * 10 + Int(u[3] - 48)
    guard h < 24, m < 60, let s = try double(n).map({ $0 - Double(h * 10000 + m * 100) }),
      s >= 0, s < 61
    else { throw .badField(type, n) }
    return Double(h * 3600 + m * 60) + s
  }

  /// ddmmyy.
  func date(_ n: Int) throws(NMEAError) -> (Int, Int, Int)? {
    guard let t = text(n) else { return nil }
    guard t.count == 6, let v = Int(t), t.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw .badField(type, n)
    }
    let d = v / 10000
    let mo = v / 100 % 100
    let y = v % 100
    guard (1...31).contains(d), (1...12).contains(mo) else { throw .badField(type, n) }
    return (d, mo, y < 80 ? 2000 + y : 1900 + y)
  }

  /// ddmm.mmmm,N,dddmm.mmmm,E starting at field n; nil when both are empty.
  func coordinate(_ n: Int) throws(NMEAError) -> Coordinate? {
    let lat = text(n)
    let ns = text(n + 1)
    let lon = text(n + 2)
    let ew = text(n + 3)
    if lat == nil && lon == nil && ns == nil && ew == nil { return nil }
    guard let la = try degrees(n, degreeDigits: 2), let lo = try degrees(n + 2, degreeDigits: 3),
      let h1 = try letter(n + 1, allowed: "NS"), let h2 = try letter(n + 3, allowed: "EW")
    else { throw .badField(type, lat == nil || ns == nil ? n : n + 2) }
    let latitude = h1 == "S" ? -la : la
    let longitude = h2 == "W" ? -lo : lo
    guard latitude >= -90, latitude <= 90, longitude >= -180, longitude <= 180 else {
      throw .badField(type, n)
    }
    return Coordinate(latitude: latitude, longitude: longitude)
  }

  private func degrees(_ n: Int, degreeDigits: Int) throws(NMEAError) -> Double? {
    guard let t = text(n) else { return nil }
    let dot = t.firstIndex(of: ".") ?? t.endIndex
    // Degrees, then two digits of whole minutes before the decimal point.
    guard t.distance(from: t.startIndex, to: dot) == degreeDigits + 2, let v = try double(n),
      v >= 0
    else { throw .badField(type, n) }
    let deg = (v / 100).rounded(.down)
    let minutes = v - deg * 100
    guard minutes < 60 else { throw .badField(type, n) }
    return deg + minutes / 60
  }
}
