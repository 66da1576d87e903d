import Foundation
import MapGeometry

/// A decoder of a growing file's format: fed the bytes after what it consumed before, it says
/// how many it consumed (the rest is offered again, with more, next time).
protocol TrackDecoder: Sendable {
  mutating func decode(_ bytes: ArraySlice<UInt8>) -> (events: [LocationEvent], consumed: Int)
  /// The input has been quiet for a while: events held back waiting for more.
  mutating func idle() -> [LocationEvent]
  var statistics: SourceStatistics { get }
}

/// The formats a followed file may have.
public enum TrackFileFormat: String, Sendable {
  case nmea = "NMEA 0183"
  case gpx = "GPX"
  case csv = "CSV"

  /// Recognises a format from the first bytes of a file (nil: not enough to tell, or unknown).
  static func detect(_ bytes: ArraySlice<UInt8>) -> TrackFileFormat?? {
    var i = bytes.startIndex
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i += 3 }
    while i < bytes.endIndex, [9, 10, 13, 32].contains(bytes[i]) { i += 1 }
    guard i < bytes.endIndex else { return nil }
    switch bytes[i] {
    case UInt8(ascii: "$"): return .some(.nmea)
    case UInt8(ascii: "<"): return .some(.gpx)
    default:
      // A CSV header: wait for its whole first line.
      guard let nl = bytes[i...].firstIndex(of: 10) else {
        return bytes.count > 4096 ? .some(nil) : nil
      }
      return CSVTrackDecoder.columns(of: bytes[i..<nl]) != nil ? .some(.csv) : .some(nil)
    }
  }
}

extension NMEADecoder: TrackDecoder {
  mutating func decode(_ bytes: ArraySlice<UInt8>) -> (events: [LocationEvent], consumed: Int) {
    (feed(bytes), bytes.count)
  }
  mutating func idle() -> [LocationEvent] { flushEpoch() }
}

/// Track points of a GPX file as it is written: every complete `<trkpt>` (or `<rtept>`)
/// becomes a fix. Only complete points are consumed, so a writer that rewrites its closing
/// tags after each point (as `GPXRecorder` does) is followed too.
struct GPXTrackDecoder: TrackDecoder {
  let sourceName: String
  var statistics = SourceStatistics()
  /// The longest point element taken; a longer one is skipped as malformed.
  static let maximumPointLength = 65_536

  mutating func decode(_ bytes: ArraySlice<UInt8>) -> (events: [LocationEvent], consumed: Int) {
    var events: [LocationEvent] = []
    var consumed = 0
    var i = bytes.startIndex
    while let start = Self.find(Array("<trkpt".utf8), in: bytes, from: i)
      ?? Self.find(Array("<rtept".utf8), in: bytes, from: i)
    {
      let name = Array(bytes[(start + 1)..<(start + 6)])
      // The end of the start tag, then either "/>" or the closing tag.
      guard let gt = bytes[start...].firstIndex(of: UInt8(ascii: ">")) else { break }
      var end: Int
      if bytes[gt - 1] == UInt8(ascii: "/") {
        end = gt + 1
      } else if let close = Self.find(
        Array("</".utf8) + name + [UInt8(ascii: ">")], in: bytes, from: gt)
      {
        end = close + 8
      } else {
        if bytes.endIndex - start > Self.maximumPointLength {
          statistics.malformed += 1
          statistics.lastProblem = "\(sourceName): a track point longer than 64 KiB"
          consumed = bytes.endIndex - bytes.startIndex
        }
        break
      }
      let element = String(decoding: bytes[start..<end], as: UTF8.self)
      if let fix = Self.fix(element) {
        statistics.accepted += 1
        statistics.fixes += 1
        events.append(.fix(fix))
      } else {
        statistics.malformed += 1
        statistics.lastProblem = SafeText.clean(
          "\(sourceName): byte \(start - bytes.startIndex): a track point without valid lat and lon"
        )
      }
      i = end
      consumed = end - bytes.startIndex
    }
    // With no point start in sight, text before the last few bytes is not needed again.
    if consumed == 0, bytes.count > 16,
      Self.find(Array("<".utf8), in: bytes, from: bytes.startIndex) == nil
    {
      consumed = bytes.count - 16
    }
    return (events, consumed)
  }

  mutating func idle() -> [LocationEvent] { [] }

  static func find(_ needle: [UInt8], in hay: ArraySlice<UInt8>, from: Int) -> Int? {
    guard !needle.isEmpty, hay.endIndex - from >= needle.count else { return nil }
    var i = from
    let last = hay.endIndex - needle.count
    while i <= last {
      if hay[i] == needle[0] {
        var k = 1
        while k < needle.count && hay[i + k] == needle[k] { k += 1 }
        if k == needle.count { return i }
      }
      i += 1
    }
    return nil
  }

  /// The fix of one point element.
  static func fix(_ e: String) -> LocationFix? {
    guard let lat = attribute("lat", e).flatMap(Double.init),
      let lon = attribute("lon", e).flatMap(Double.init),
      lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180
    else { return nil }
    var f = LocationFix(coordinate: Coordinate(latitude: lat, longitude: lon), quality: .fix3D)
    f.altitude = child("ele", e).flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil }
    f.timestamp = child("time", e).flatMap(GPSDReport.parseTime)
    let speed = child("speed", e) ?? child("gpxtpx:speed", e)
    f.speed = speed.flatMap(Double.init).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    let course = child("course", e) ?? child("gpxtpx:course", e)
    f.course = course.flatMap(Double.init).flatMap {
      $0.isFinite && $0 >= 0 && $0 <= 360 ? $0.truncatingRemainder(dividingBy: 360) : nil
    }
    f.hdop = child("hdop", e).flatMap(Double.init).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    f.horizontalAccuracy = f.hdop.map { $0 * LocationFix.rangeError }
    f.satellitesUsed = child("sat", e).flatMap { Int($0) }.flatMap {
      (0...1000).contains($0) ? $0 : nil
    }
    switch child("fix", e) {
    case "2d"?: f.quality = .fix2D
    case "dgps"?: f.quality = .dgps
    case "none"?: return nil
    default: break
    }
    if f.altitude == nil && f.quality == .fix3D { f.quality = .fix2D }
    return f
  }

  static func attribute(_ name: String, _ e: String) -> String? {
    guard let tagEnd = e.firstIndex(of: ">") else { return nil }
    let tag = e[..<tagEnd]
    var search = tag.startIndex
    while let r = tag.range(of: name, range: search..<tag.endIndex) {
      search = r.upperBound
      guard r.lowerBound > tag.startIndex, tag[tag.index(before: r.lowerBound)].isWhitespace else {
        continue
      }
      var rest = tag[r.upperBound...].drop { $0.isWhitespace }
      guard rest.first == "=" else { continue }
      rest = rest.dropFirst().drop { $0.isWhitespace }
      guard let q = rest.first, q == "\"" || q == "'" else { return nil }
      let value = rest.dropFirst().prefix { $0 != q }
      return String(value).trimmingCharacters(in: .whitespaces)
    }
    return nil
  }

  static func child(_ name: String, _ e: String) -> String? {
    guard let open = e.range(of: "<\(name)>"),
      let close = e.range(of: "</\(name)>", range: open.upperBound..<e.endIndex)
    else { return nil }
    return e[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// Lines of a CSV file as it is written: a header naming latitude and longitude columns
/// (`lat`/`latitude`, `lon`/`lng`/`longitude`; optional `time`, `ele`/`altitude`, `speed`
/// in m/s, `course`), then one fix per complete line.
struct CSVTrackDecoder: TrackDecoder {
  let sourceName: String
  var statistics = SourceStatistics()
  var columns: Columns?
  var separator: UInt8 = UInt8(ascii: ",")
  var lineNumber = 0

  struct Columns: Sendable {
    var lat: Int
    var lon: Int
    var time: Int?
    var ele: Int?
    var speed: Int?
    var course: Int?
  }

  static func split(_ line: ArraySlice<UInt8>) -> (fields: [String], separator: UInt8) {
    let text = String(decoding: line, as: UTF8.self)
    for sep: Character in [",", ";", "\t"] where text.contains(sep) {
      return (
        text.split(separator: sep, omittingEmptySubsequences: false).map {
          $0.trimmingCharacters(in: CharacterSet(charactersIn: " \r\"")).lowercased()
        }, UInt8(ascii: sep.asciiValue.map { Unicode.Scalar($0) } ?? ",")
      )
    }
    return ([text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()], UInt8(ascii: ","))
  }

  static func columns(of header: ArraySlice<UInt8>) -> Columns? {
    let f = split(header).fields
    func index(_ names: [String]) -> Int? { f.firstIndex { names.contains($0) } }
    guard let lat = index(["lat", "latitude"]),
      let lon = index(["lon", "lng", "long", "longitude"])
    else {
      return nil
    }
    return Columns(
      lat: lat, lon: lon, time: index(["time", "timestamp", "date_time", "datetime"]),
      ele: index(["ele", "elevation", "alt", "altitude"]), speed: index(["speed"]),
      course: index(["course", "heading", "bearing", "track"]))
  }

  mutating func decode(_ bytes: ArraySlice<UInt8>) -> (events: [LocationEvent], consumed: Int) {
    var events: [LocationEvent] = []
    var start = bytes.startIndex
    while let nl = bytes[start...].firstIndex(of: 10) {
      let line = bytes[start..<nl]
      start = nl + 1
      lineNumber += 1
      if line.allSatisfy({ $0 == 13 || $0 == 32 }) { continue }
      guard let c = columns else {
        columns = Self.columns(of: line)
        separator = Self.split(line).separator
        if columns == nil { bad("no lat/lon header") }
        continue
      }
      let f = Self.split(line).fields
      guard f.count > max(c.lat, c.lon), let lat = Double(f[c.lat]), let lon = Double(f[c.lon]),
        lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180
      else {
        bad("expected a latitude and a longitude")
        continue
      }
      func num(_ i: Int?) -> Double? {
        guard let i, i < f.count, let v = Double(f[i]), v.isFinite else { return nil }
        return v
      }
      var fix = LocationFix(coordinate: Coordinate(latitude: lat, longitude: lon), quality: .fix3D)
      fix.altitude = num(c.ele)
      fix.speed = num(c.speed).flatMap { $0 >= 0 ? $0 : nil }
      fix.course = num(c.course).flatMap {
        $0 >= 0 && $0 <= 360 ? $0.truncatingRemainder(dividingBy: 360) : nil
      }
      if let t = c.time, t < f.count { fix.timestamp = GPSDReport.parseTime(f[t].uppercased()) }
      if fix.altitude == nil { fix.quality = .fix2D }
      statistics.accepted += 1
      statistics.fixes += 1
      events.append(.fix(fix))
    }
    // A partial last line waits; a line without end longer than 64 KiB is dropped.
    var consumed = start - bytes.startIndex
    if bytes.endIndex - start > 65_536 {
      bad("line too long")
      consumed = bytes.count
    }
    return (events, consumed)
  }

  mutating func bad(_ why: String) {
    statistics.malformed += 1
    statistics.lastProblem = SafeText.clean("\(sourceName):\(lineNumber): \(why)")
  }

  mutating func idle() -> [LocationEvent] { [] }
}
