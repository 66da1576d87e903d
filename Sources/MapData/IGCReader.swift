import Foundation
import MapGeometry
import TermMapKit

/// Reads an IGC flight recorder file (FAI, "Technical Specification for IGC-approved GNSS
/// Flight Recorders", appendix A) line by line.
///
/// - The A record comes first; H records give the date (`HFDTE`, in its old `HFDTEDDMMYY` and
///   its newer `HFDTEDATE:DDMMYY,NN` forms), the pilot and the glider; an I record says where
///   extensions sit in B records (`LAD`/`LOD`, further decimals of the minutes, are used).
/// - Each B record is a fix: UTC time, latitude and longitude in degrees and decimal minutes,
///   validity (`A` a 3D fix, `V` 2D or no GNSS altitude), pressure altitude and GNSS altitude in
///   metres. The fixes become one track of one segment. A time earlier than the fix before it is
///   on the next day (a flight over midnight UTC).
/// - Elevation is the GNSS altitude of an `A` fix when it is not zero, else the pressure
///   altitude when that is not zero (loggers write zeros for a missing sensor), else none.
/// - A B record that cannot be read is skipped with a located warning; other records (C task,
///   E events, F satellites, G security, L comments, …) are not used.
struct IGCReader {
  let source: ByteSource
  var builder: ContentBuilder
  private var lines: LineReader

  init(source: ByteSource) {
    self.source = source
    builder = ContentBuilder(path: source.path)
    lines = LineReader(source: source)
  }

  /// Extensions of B records: 1-based first and last byte.
  private var latitudeDecimals: (Int, Int)?
  private var longitudeDecimals: (Int, Int)?
  /// Days since 1970 of the flight's date, from HFDTE.
  private var day: Int?
  private var dateLine = 0
  private var pilot: String?
  private var glider: String?
  private var previousSecond = -1
  private var dayOffset = 0
  private var warnedNoDate = false

  mutating func read() throws(DataFileError) -> MapContent {
    var series = TrackSeries()
    var first = true
    while let (read, number) = try lines.next() {
      var line = read
      // A UTF-8 byte order mark before the A record (detection allows one), and blank lines.
      if first && line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
      if line.allSatisfy(ValueParser.isSpace) { continue }
      let letter = line[0]
      if first {
        first = false
        if letter != UInt8(ascii: "A") {
          throw DataFileError(
            path: source.path, line: number, column: 1,
            message: "an IGC file starts with an A record (the recorder's maker and serial)")
        }
        continue
      }
      switch letter {
      case UInt8(ascii: "H"): header(line, number)
      case UInt8(ascii: "I"): extensions(line, number)
      case UInt8(ascii: "B"): fix(line, number, into: &series)
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): continue
      default:
        if builder.problems.wantsDetail {
          let shown = Formatting.shown(String(decoding: line.prefix(20), as: UTF8.self), limit: 20)
          builder.problems.ignore(
            DataFileError(
              path: source.path, line: number, column: 1,
              message: "ignored a line that is no IGC record (\"\(shown)\"; a record starts "
                + "with a letter A-Z)"))
        } else {
          builder.problems.ignore(DataFileError(path: source.path, message: ""))
        }
      }
    }
    if first { throw DataFileError(path: source.path, message: "file is empty") }
    var title: [String] = []
    if let day {
      let (y, m, d) = Formatting.civil(day)
      title.append(String(format: "%04d-%02d-%02d", y, m, d))
    }
    if let pilot { title.append(pilot) }
    if let glider { title.append(glider) }
    let name = title.isEmpty ? nil : title.joined(separator: " · ")
    if !series.isEmpty {
      builder.tracks = 1
      builder.segments = 1
      builder.addTrack(title: name, segments: [series.measured(kind: .trackSegment, title: name)])
    } else if builder.problems.first == nil {
      builder.notes.append(
        DataFileError(path: source.path, message: "the file has no B records (fixes)").description)
    }
    return try builder.build(format: .igc)
  }

  // MARK: Records

  private mutating func header(_ line: [UInt8], _ number: Int) {
    guard line.count >= 5 else { return }
    let code = String(decoding: line[2..<5], as: UTF8.self)
    switch code {
    case "DTE":
      // HFDTEDDMMYY or HFDTEDATE:DDMMYY,NN
      var k = 5
      while k < line.count && !isDigit(line[k]) { k += 1 }
      guard k + 6 <= line.count, let dd = digits(line, k, 2), let mm = digits(line, k + 2, 2),
        let yy = digits(line, k + 4, 2), (1...12).contains(mm), (1...31).contains(dd)
      else {
        warn(number, 6, "ignored the date record (expected HFDTEDDMMYY or HFDTEDATE:DDMMYY)")
        return
      }
      // Two-digit years: 80–99 are 1980–1999 (GNSS recorders came in the 1990s).
      let year = yy >= 80 ? 1900 + yy : 2000 + yy
      day = Self.days(year: year, month: mm, day: dd)
      dateLine = number
    case "PLT": pilot = value(line)
    case "GTY": glider = value(line)
    default: break
    }
  }

  /// The text of a header after its colon (or after the 5-letter code), sanitized.
  private func value(_ line: [UInt8]) -> String? {
    var start = 5
    if let colon = line.firstIndex(of: UInt8(ascii: ":")) { start = colon + 1 }
    guard start < line.count else { return nil }
    let s = TextSanitizer.clean(String(decoding: line[start...], as: UTF8.self))
    return s.isEmpty ? nil : Formatting.shown(s, limit: 60)
  }

  private mutating func extensions(_ line: [UInt8], _ number: Int) {
    guard line.count >= 3, let n = digits(line, 1, 2) else {
      warn(number, 2, "ignored the I record (expected the number of extensions, two digits)")
      return
    }
    for k in 0..<n {
      let at = 3 + k * 7
      guard at + 7 <= line.count, let from = digits(line, at, 2), let to = digits(line, at + 2, 2),
        from >= 36, to >= from
      else {
        warn(number, at + 1, "ignored the rest of the I record (expected SSFFCCC per extension)")
        return
      }
      let code = String(decoding: line[(at + 4)..<(at + 7)], as: UTF8.self)
      if code == "LAD" { latitudeDecimals = (from, to) }
      if code == "LOD" { longitudeDecimals = (from, to) }
    }
  }

  private mutating func fix(_ line: [UInt8], _ number: Int, into series: inout TrackSeries) {
    func skip(_ column: Int, _ message: String) {
      builder.problems.skip(
        "fix", "fixes",
        DataFileError(path: source.path, line: number, column: column, message: message))
    }
    guard line.count >= 35 else {
      skip(1, "a B record has at least 35 characters, this one \(line.count)")
      return
    }
    guard let h = digits(line, 1, 2), let mi = digits(line, 3, 2), let s = digits(line, 5, 2),
      h < 24, mi < 60, s < 60
    else {
      skip(2, "expected the time as HHMMSS, found \"\(text(line, 1, 6))\"")
      return
    }
    guard let latD = digits(line, 7, 2), let latM = digits(line, 9, 5), latD <= 90,
      latM < 60_000
    else {
      skip(8, "expected the latitude as DDMMmmm, found \"\(text(line, 7, 7))\"")
      return
    }
    let ns = line[14]
    guard ns == UInt8(ascii: "N") || ns == UInt8(ascii: "S") else {
      skip(15, "expected N or S after the latitude, found \"\(text(line, 14, 1))\"")
      return
    }
    guard let lonD = digits(line, 15, 3), let lonM = digits(line, 18, 5), lonD <= 180,
      lonM < 60_000
    else {
      skip(16, "expected the longitude as DDDMMmmm, found \"\(text(line, 15, 8))\"")
      return
    }
    let ew = line[23]
    guard ew == UInt8(ascii: "E") || ew == UInt8(ascii: "W") else {
      skip(24, "expected E or W after the longitude, found \"\(text(line, 23, 1))\"")
      return
    }
    let validity = line[24]
    guard validity == UInt8(ascii: "A") || validity == UInt8(ascii: "V") else {
      skip(25, "expected the fix validity A or V, found \"\(text(line, 24, 1))\"")
      return
    }
    guard let pressure = altitude(line, 25) else {
      skip(26, "expected the pressure altitude as 5 digits, found \"\(text(line, 25, 5))\"")
      return
    }
    guard let gnss = altitude(line, 30) else {
      skip(31, "expected the GNSS altitude as 5 digits, found \"\(text(line, 30, 5))\"")
      return
    }
    var latMinutes = Double(latM) / 1000
    var lonMinutes = Double(lonM) / 1000
    if let (a, b) = latitudeDecimals, let extra = fraction(line, a, b) {
      latMinutes += extra / 1000
    }
    if let (a, b) = longitudeDecimals, let extra = fraction(line, a, b) {
      lonMinutes += extra / 1000
    }
    var latitude = Double(latD) + latMinutes / 60
    var longitude = Double(lonD) + lonMinutes / 60
    if ns == UInt8(ascii: "S") { latitude = -latitude }
    if ew == UInt8(ascii: "W") { longitude = -longitude }
    guard abs(latitude) <= 90, abs(longitude) <= 180 else {
      skip(8, "the position \(text(line, 7, 17)) is outside the globe")
      return
    }
    let second = h * 3600 + mi * 60 + s
    if previousSecond >= 0 && second < previousSecond { dayOffset += 1 }
    previousSecond = second
    var time = Double.nan
    if let day {
      time = Double((day + dayOffset) * 86_400 + second)
    } else if !warnedNoDate {
      warnedNoDate = true
      warn(number, 1, "the fixes have no date (no HFDTE record before them); times are left out")
    }
    var elevation = Double.nan
    if validity == UInt8(ascii: "A") && gnss != 0 {
      elevation = Double(gnss)
    } else if pressure != 0 {
      elevation = Double(pressure)
    }
    series.append(
      Coordinate(latitude: latitude, longitude: longitude), elevation: elevation, time: time)
  }

  // MARK: Pieces

  private mutating func warn(_ line: Int, _ column: Int, _ message: String) {
    builder.problems.ignore(
      DataFileError(path: source.path, line: line, column: column, message: message))
  }

  private func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

  /// The number in `count` digits at 0-based `at`; nil unless all are digits.
  private func digits(_ line: [UInt8], _ at: Int, _ count: Int) -> Int? {
    guard at >= 0, at + count <= line.count else { return nil }
    var v = 0
    for k in at..<(at + count) {
      guard isDigit(line[k]) else { return nil }
      v = v * 10 + Int(line[k] - 0x30)
    }
    return v
  }

  /// A 5-character altitude: digits, or a minus sign and 4 digits.
  private func altitude(_ line: [UInt8], _ at: Int) -> Int? {
    if line[at] == UInt8(ascii: "-") { return digits(line, at + 1, 4).map { -$0 } }
    return digits(line, at, 5)
  }

  /// Digits in the 1-based inclusive byte range of an extension as a fraction: "5" is 0.5.
  private func fraction(_ line: [UInt8], _ first: Int, _ last: Int) -> Double? {
    let count = last - first + 1
    guard let v = digits(line, first - 1, count) else { return nil }
    return Double(v) / pow(10, Double(count))
  }

  private func text(_ line: [UInt8], _ at: Int, _ count: Int) -> String {
    let end = min(at + count, line.count)
    guard at < end else { return "" }
    return Formatting.shown(String(decoding: line[at..<end], as: UTF8.self), limit: 20)
  }

  static func days(year: Int, month: Int, day: Int) -> Int {
    // H. Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }
}

/// The lines of a text file, read in chunks, without their CR or LF.
struct LineReader {
  let source: ByteSource
  private var buffer: [UInt8] = []
  private var start = 0
  private var done = false
  private var number = 0
  static let longest = 1 << 20

  init(source: ByteSource) { self.source = source }

  /// The next line and its 1-based number; nil at the end of the file.
  mutating func next() throws(DataFileError) -> ([UInt8], Int)? {
    while true {
      if let lf = buffer[start...].firstIndex(of: Chars.lf) {
        var end = lf
        if end > start && buffer[end - 1] == Chars.cr { end -= 1 }
        let line = Array(buffer[start..<end])
        start = lf + 1
        number += 1
        return (line, number)
      }
      if done {
        guard start < buffer.count else { return nil }
        var end = buffer.count
        if buffer[end - 1] == Chars.cr { end -= 1 }
        let line = Array(buffer[start..<end])
        start = buffer.count
        number += 1
        return (line, number)
      }
      if buffer.count - start > Self.longest {
        throw DataFileError(
          path: source.path, line: number + 1,
          message: "the line is longer than 1 MiB (this is not a line-based text file)")
      }
      buffer.removeFirst(start)
      start = 0
      let chunk = try source.read(upTo: 1 << 16)
      if chunk.isEmpty { done = true } else { buffer.append(contentsOf: chunk) }
    }
  }
}
