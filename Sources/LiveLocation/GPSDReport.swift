import Foundation
import MapGeometry

/// One report of gpsd's JSON protocol (one line), as far as a map needs it.
public enum GPSDReport: Sendable, Equatable {
  /// Time-position-velocity: a fix (mode 2 or 3), or no fix (mode 0 or 1).
  case tpv(LocationFix?, mode: Int)
  /// The sky view: satellites used and in view, and the horizontal DOP.
  case sky(used: Int?, inView: Int?, hdop: Double?)
  /// The daemon's greeting: its release.
  case version(String)
  /// An error the daemon reports.
  case error(String)
  /// Any other class (DEVICES, WATCH, DEVICE, GST, ATT, TOFF, PPS…).
  case other(String)

  /// Why a line is not a report.
  public struct Malformed: Error, Equatable, CustomStringConvertible {
    public let description: String
  }

  /// gpsd's own limit for a report line is far below this.
  public static let maximumLineLength = 65_536

  /// Parses one line of gpsd JSON (without the newline).
  public static func parse(_ line: some Collection<UInt8>) throws(Malformed) -> GPSDReport {
    guard line.count <= maximumLineLength else { throw Malformed(description: "line too long") }
    let data = Data(line)
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data, options: [])
    } catch {
      throw Malformed(description: "not JSON")
    }
    guard let o = object as? [String: Any] else {
      throw Malformed(description: "not a JSON object")
    }
    guard let cls = o["class"] as? String else { throw Malformed(description: "no \"class\"") }
    switch cls {
    case "TPV": return try tpv(o)
    case "SKY":
      var used = int(o["uSat"])
      var inView = int(o["nSat"])
      if let sats = o["satellites"] as? [Any] {
        let list = sats.compactMap { $0 as? [String: Any] }
        guard list.count == sats.count else {
          throw Malformed(description: "SKY: a satellite is not an object")
        }
        inView = inView ?? list.count
        used = used ?? list.filter { ($0["used"] as? Bool) == true }.count
      }
      if let u = used, u < 0 || u > 1000 { throw Malformed(description: "SKY: bad uSat") }
      if let n = inView, n < 0 || n > 1000 { throw Malformed(description: "SKY: bad nSat") }
      return .sky(used: used, inView: inView, hdop: try number(o, "hdop", 0...100_000))
    case "VERSION":
      return .version(
        SafeText.clean((o["release"] as? String).map { String($0.prefix(40)) } ?? "?"))
    case "ERROR":
      return .error(SafeText.clean((o["message"] as? String).map { String($0.prefix(200)) } ?? "?"))
    default:
      return .other(SafeText.clean(String(cls.prefix(16))))
    }
  }

  static func tpv(_ o: [String: Any]) throws(Malformed) -> GPSDReport {
    guard let mode = int(o["mode"]), (0...3).contains(mode) else {
      throw Malformed(description: "TPV: no mode")
    }
    guard mode >= 2 else { return .tpv(nil, mode: mode) }
    // gpsd sends a mode without a position while it starts (only error estimates): no news.
    guard let lat = try number(o, "lat", -90...90), let lon = try number(o, "lon", -180...180)
    else { return .other("TPV") }
    let status = int(o["status"]) ?? 1
    var quality: FixQuality = mode == 3 ? .fix3D : .fix2D
    switch status {
    case 2: quality = .dgps
    case 3, 4: quality = .rtk
    case 5: quality = .estimated
    case 6, 7: quality = .simulated
    default: break
    }
    var accuracy = try number(o, "eph", 0...1e7)
    if accuracy == nil, let x = try number(o, "epx", 0...1e7), let y = try number(o, "epy", 0...1e7)
    {
      accuracy = max(x, y)
    }
    let time = (o["time"] as? String).flatMap(parseTime)
    var track = try number(o, "track", 0...360)
    if track == 360 { track = 0 }
    var altitude: Double?
    if mode == 3 {
      altitude = try number(o, "altMSL", -20_000...1e6)
      if altitude == nil { altitude = try number(o, "alt", -20_000...1e6) }
    }
    return .tpv(
      LocationFix(
        coordinate: Coordinate(latitude: lat, longitude: lon), altitude: altitude,
        horizontalAccuracy: accuracy, course: track, speed: try number(o, "speed", 0...1e5),
        timestamp: time, quality: quality),
      mode: mode)
  }

  static func int(_ v: Any?) -> Int? {
    guard let n = v as? NSNumber else { return nil }
    let d = n.doubleValue
    guard d.isFinite, d == d.rounded(), abs(d) < 1e9 else { return nil }
    return Int(d)
  }

  static func number(_ o: [String: Any], _ key: String, _ range: ClosedRange<Double>)
    throws(Malformed) -> Double?
  {
    guard let v = o[key] else { return nil }
    guard let n = v as? NSNumber else {
      throw Malformed(description: "\(key) is not a number")
    }
    let d = n.doubleValue
    guard d.isFinite, range.contains(d) else {
      throw Malformed(description: "\(key) is out of range")
    }
    return d
  }

  /// ISO 8601 in UTC as gpsd writes it: 2026-11-22T10:00:00.000Z.
  static func parseTime(_ s: String) -> Date? {
    let u = Array(s.utf8)
    guard u.count >= 20, u.count <= 40, u[4] == 45, u[7] == 45, u[10] == 84, u[13] == 58,
      u[16] == 58, u.last == 90
    else { return nil }
    func num(_ a: Int, _ n: Int) -> Int? {
      var v = 0
      for i in a..<(a + n) {
        guard u[i] >= 48 && u[i] <= 57 else { return nil }
        v = v * 10 + Int(u[i] - 48)
      }
      return v
    }
    guard let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2), let h = num(11, 2),
      let mi = num(14, 2), let se = num(17, 2), (1...12).contains(mo), (1...31).contains(d),
      h < 24, mi < 60, se < 61
    else { return nil }
    var fraction = 0.0
    if u[19] == 46 {
      var scale = 0.1
      for b in u[20..<(u.count - 1)] {
        guard b >= 48 && b <= 57 else { return nil }
        fraction += Double(b - 48) * scale
        scale /= 10
      }
    } else if u.count != 20 {
      return nil
    }
    // Days from the civil date (Howard Hinnant's algorithm).
    let yy = mo <= 2 ? y - 1 : y
    let era = (yy >= 0 ? yy : yy - 399) / 400
    let yoe = yy - era * 400
    let doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    let days = era * 146_097 + doe - 719_468
    let seconds = Double(days * 86400 + h * 3600 + mi * 60 + se) + fraction
    return Date(timeIntervalSince1970: seconds)
  }
}
