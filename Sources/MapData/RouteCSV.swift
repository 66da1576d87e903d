import Foundation
import MapGeometry

/// One position of a route, in file order.
public struct RoutePoint: Sendable, Hashable {
  /// Where the point is.
  public var coordinate: Coordinate
  /// Metres above the WGS84 ellipsoid or sea level, as the file gives it.
  public var elevation: Double?
  /// When the point was passed, if the file says.
  public var time: Date?

  /// A route point.
  public init(coordinate: Coordinate, elevation: Double? = nil, time: Date? = nil) {
    self.coordinate = coordinate
    self.elevation = elevation
    self.time = time
  }
}

/// A named position: a row of a route file whose name field is not empty.
public struct Waypoint: Sendable, Hashable {
  /// Where the waypoint is.
  public var coordinate: Coordinate
  /// The name, sanitized with ``TextSanitizer/clean(_:)``; never empty.
  public var name: String
  /// The description, sanitized; `nil` when absent or empty.
  public var description: String?
  /// Its elevation in metres, if the file gives one.
  public var elevation: Double?
  /// Its time, if the file gives one.
  public var time: Date?
  /// The 1-based line of the file on which the waypoint's row starts.
  public var line: Int

  /// A named waypoint.
  public init(
    coordinate: Coordinate, name: String, description: String? = nil, elevation: Double? = nil,
    time: Date? = nil, line: Int
  ) {
    self.coordinate = coordinate
    self.name = name
    self.description = description
    self.elevation = elevation
    self.time = time
    self.line = line
  }
}

/// The contents of a route file: one polyline of points and the named points among them.
public struct RouteFile: Sendable, Hashable {
  /// The file read.
  public var path: String
  /// Every data row, in order, as one polyline.
  public var points: [RoutePoint]
  /// The rows that have a non-empty name, in order (each is also in `points`).
  public var waypoints: [Waypoint]

  /// A route file's content.
  public init(path: String, points: [RoutePoint], waypoints: [Waypoint] = []) {
    self.path = path
    self.points = points
    self.waypoints = waypoints
  }
}

/// Reads route CSV files (see docs/formats-csv.md).
///
/// A file is either bare `lat,lon` lines or has a header row naming its columns
/// (`lat`/`latitude`, `lon`/`lng`/`long`/`longitude`, and optionally `name`/`title`,
/// `description`/`desc`, `ele`/`elevation`/`alt`/`altitude`, `time`/`timestamp`).
/// The delimiter is a tab, semicolon or comma, detected from the first row. Fields follow
/// RFC 4180 quoting. Blank lines and lines starting with `#` are skipped; a UTF-8 BOM and
/// CRLF line endings are accepted.
public enum RouteCSV {
  /// Reads and parses the file at `path`.
  public static func read(path: String) throws(DataFileError) -> RouteFile {
    let data = try DataFileReader.contents(of: path)
    return try parse(data, path: path)
  }

  /// Parses the bytes of a route CSV file; `path` is used only in errors and the result.
  public static func parse(_ data: Data, path: String) throws(DataFileError) -> RouteFile {
    if data.isEmpty { throw DataFileError(path: path, message: "file is empty") }
    let result: Result<RouteFile, DataFileError> = data.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else {
        return .failure(DataFileError(path: path, message: "file is empty"))
      }
      var parser = RouteCSVParser(
        bytes: base.assumingMemoryBound(to: UInt8.self), count: raw.count, path: path)
      do throws(DataFileError) {
        return .success(try parser.run())
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }
}

// MARK: - Reading files

/// Reads whole files with errors that say what went wrong in words.
enum DataFileReader {
  static func contents(of path: String) throws(DataFileError) -> Data {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 { throw openError(path: path, errno: errno) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw DataFileError(path: path, message: "cannot read file: \(describe(errno))")
    }
    if (info.st_mode & S_IFMT) == S_IFDIR {
      throw DataFileError(path: path, message: "is a directory, not a file")
    }
    var data = Data(count: max(Int(info.st_size), 0) + 1)
    var used = 0
    while true {
      if used == data.count { data.count *= 2 }
      let got = data.withUnsafeMutableBytes { buffer in
        systemRead(fd, buffer.baseAddress! + used, buffer.count - used)
      }
      if got < 0 {
        let code = errno
        if code == EINTR { continue }
        if code == EISDIR {
          throw DataFileError(path: path, message: "is a directory, not a file")
        }
        throw DataFileError(path: path, message: "cannot read file: \(describe(code))")
      }
      if got == 0 { break }
      used += got
    }
    data.count = used
    return data
  }

  private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int)
    -> Int
  {
    read(fd, buffer, count)
  }

  private static func openError(path: String, errno code: Int32) -> DataFileError {
    let message: String
    switch code {
    case ENOENT: message = "file not found"
    case ENOTDIR: message = "file not found (a part of the path is not a directory)"
    case EACCES, EPERM: message = "cannot read file: permission denied"
    case EISDIR: message = "is a directory, not a file"
    default: message = "cannot open file: \(describe(code))"
    }
    return DataFileError(path: path, message: message)
  }

  private static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

// MARK: - Parsing

private enum ASCII {
  static let tab: UInt8 = 0x09
  static let lf: UInt8 = 0x0A
  static let cr: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let quote: UInt8 = 0x22
  static let hash: UInt8 = 0x23
  static let plus: UInt8 = 0x2B
  static let comma: UInt8 = 0x2C
  static let minus: UInt8 = 0x2D
  static let dot: UInt8 = 0x2E
  static let colon: UInt8 = 0x3A
  static let semicolon: UInt8 = 0x3B
}

/// The kinds of column a header can name.
enum RouteColumn: CaseIterable {
  case latitude, longitude, name, description, elevation, time

  init?(headerName: String) {
    switch headerName.trimmingCharacters(in: .whitespaces).lowercased() {
    case "lat", "latitude": self = .latitude
    case "lon", "lng", "long", "longitude": self = .longitude
    case "name", "title": self = .name
    case "description", "desc": self = .description
    case "ele", "elevation", "alt", "altitude": self = .elevation
    case "time", "timestamp": self = .time
    default: return nil
    }
  }

  var title: String {
    switch self {
    case .latitude: "latitude"
    case .longitude: "longitude"
    case .name: "name"
    case .description: "description"
    case .elevation: "elevation"
    case .time: "time"
    }
  }
}

/// Where each kind of value is in a row.
struct RouteColumns {
  var latitude = 0
  var longitude = 1
  var name: Int?
  var description: Int?
  var elevation: Int?
  var time: Int?
  /// The number of fields a row needs to hold both latitude and longitude.
  var needed = 2
  /// The names of those fields, for the message about a short row.
  var neededNames = "lat, lon"
}

/// One field of the current record, as offsets into the file.
struct CSVField {
  /// The content: inside the quotes for a quoted field, trimmed for an unquoted one.
  var start: Int
  var end: Int
  /// Where the field visibly starts (its quote or first character), for columns in errors.
  var mark: Int
  var line: Int
  var lineStart: Int
  var quoted: Bool
  /// True when the quoted content holds doubled quotes to collapse.
  var escaped: Bool
}

struct RouteCSVParser {
  let p: UnsafePointer<UInt8>
  let n: Int
  let path: String
  var pos = 0
  var line = 1
  var lineStart = 0
  var delimiter = ASCII.comma
  var fields: [CSVField] = []
  var recordLine = 1

  init(bytes: UnsafePointer<UInt8>, count: Int, path: String) {
    self.p = bytes
    self.n = count
    self.path = path
    fields.reserveCapacity(16)
  }

  mutating func run() throws(DataFileError) -> RouteFile {
    try validateUTF8()
    if n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF {
      pos = 3
      lineStart = 3
    }
    guard try nextRecord(detectDelimiter: true) else {
      throw DataFileError(path: path, message: "no coordinates found")
    }
    var columns = RouteColumns()
    if isHeader() {
      columns = try headerColumns()
      guard try nextRecord() else {
        throw DataFileError(
          path: path, message: "no coordinates found (the file has a header but no data rows)")
      }
    }
    var points: [RoutePoint] = []
    points.reserveCapacity(min(n / 24, 1 << 20))
    var waypoints: [Waypoint] = []
    repeat {
      try addRow(columns, to: &points, waypoints: &waypoints)
    } while try nextRecord()
    return RouteFile(path: path, points: points, waypoints: waypoints)
  }

  // MARK: Records

  /// Moves past the line break at `pos`.
  private mutating func consumeLineBreak() {
    if p[pos] == ASCII.cr {
      pos += 1
      if pos < n && p[pos] == ASCII.lf { pos += 1 }
    } else {
      pos += 1
    }
    line += 1
    lineStart = pos
  }

  /// Reads the next record that is not blank or a comment into `fields`; false at the end.
  mutating func nextRecord(detectDelimiter: Bool = false) throws(DataFileError) -> Bool {
    while true {
      var i = pos
      while i < n && (p[i] == ASCII.space || p[i] == ASCII.tab) { i += 1 }
      if i >= n {
        pos = n
        return false
      }
      let c = p[i]
      if c == ASCII.lf || c == ASCII.cr {
        pos = i
        consumeLineBreak()
        continue
      }
      if c == ASCII.hash {
        while i < n && p[i] != ASCII.lf && p[i] != ASCII.cr { i += 1 }
        pos = i
        if pos >= n { return false }
        consumeLineBreak()
        continue
      }
      break
    }
    if detectDelimiter { delimiter = detectedDelimiter() }
    try readFields()
    return true
  }

  /// The delimiter of the record at `pos`: the first of tab, semicolon and comma that
  /// appears outside quotes, else a comma.
  private func detectedDelimiter() -> UInt8 {
    var sawTab = false
    var sawSemicolon = false
    var i = pos
    var atFieldStart = true
    scan: while i < n {
      let c = p[i]
      switch c {
      case ASCII.lf, ASCII.cr:
        break scan
      case ASCII.quote where atFieldStart:
        // Skip the quoted content; an unterminated quote is reported by readFields.
        i += 1
        while i < n {
          if p[i] == ASCII.quote {
            if i + 1 < n && p[i + 1] == ASCII.quote {
              i += 2
              continue
            }
            break
          }
          i += 1
        }
        atFieldStart = false
      case ASCII.tab:
        sawTab = true
        atFieldStart = true
      case ASCII.semicolon:
        sawSemicolon = true
        atFieldStart = true
      case ASCII.comma:
        atFieldStart = true
      case ASCII.space:
        break
      default:
        atFieldStart = false
      }
      i += 1
    }
    if sawTab { return ASCII.tab }
    if sawSemicolon { return ASCII.semicolon }
    return ASCII.comma
  }

  private func isPadding(_ c: UInt8) -> Bool {
    c == ASCII.space || (c == ASCII.tab && delimiter != ASCII.tab)
  }

  /// Splits the record at `pos` into `fields` and moves past its line break.
  private mutating func readFields() throws(DataFileError) {
    fields.removeAll(keepingCapacity: true)
    recordLine = line
    let d = delimiter
    while true {
      var i = pos
      while i < n && isPadding(p[i]) { i += 1 }
      if i < n && p[i] == ASCII.quote {
        let openLine = line
        let openLineStart = lineStart
        var j = i + 1
        var escaped = false
        while true {
          if j >= n {
            throw DataFileError(
              path: path, line: openLine, column: column(of: i, lineStart: openLineStart),
              message: "unterminated quoted field: the quote opened here is never closed")
          }
          let c = p[j]
          if c == ASCII.quote {
            if j + 1 < n && p[j + 1] == ASCII.quote {
              escaped = true
              j += 2
              continue
            }
            break
          }
          if c == ASCII.lf || (c == ASCII.cr && (j + 1 >= n || p[j + 1] != ASCII.lf)) {
            line += 1
            lineStart = j + 1
          }
          j += 1
        }
        fields.append(
          CSVField(
            start: i + 1, end: j, mark: i, line: openLine, lineStart: openLineStart, quoted: true,
            escaped: escaped))
        j += 1
        while j < n && isPadding(p[j]) { j += 1 }
        if j < n && p[j] != d && p[j] != ASCII.lf && p[j] != ASCII.cr {
          throw DataFileError(
            path: path, line: line, column: column(of: j, lineStart: lineStart),
            message:
              "unexpected text after a closing quote (a quote inside a quoted field is written \"\")"
          )
        }
        pos = j
      } else {
        var j = i
        while j < n {
          let c = p[j]
          if c == d || c == ASCII.lf || c == ASCII.cr { break }
          j += 1
        }
        var e = j
        while e > i && isPadding(p[e - 1]) { e -= 1 }
        fields.append(
          CSVField(
            start: i, end: e, mark: i, line: line, lineStart: lineStart, quoted: false,
            escaped: false))
        pos = j
      }
      if pos < n && p[pos] == d {
        pos += 1
        continue
      }
      if pos < n { consumeLineBreak() }
      return
    }
  }

  // MARK: Header

  private func isHeader() -> Bool {
    if fields.contains(where: { RouteColumn(headerName: text($0)) != nil }) { return true }
    if number(fields[0]) != nil { return false }
    return fields.count < 2 || number(fields[1]) == nil
  }

  private func headerColumns() throws(DataFileError) -> RouteColumns {
    var found: [RouteColumn: Int] = [:]
    for (index, field) in fields.enumerated() {
      guard let kind = RouteColumn(headerName: text(field)) else { continue }
      if let previous = found[kind] {
        throw DataFileError(
          path: path, line: field.line, column: column(of: field),
          message: "the header names a \(kind.title) column twice (fields \(previous + 1) and "
            + "\(index + 1))")
      }
      found[kind] = index
    }
    let names = fields.map { field -> String in
      let name = shown(text(field))
      return name.isEmpty ? "(unnamed)" : name
    }
    guard let latitude = found[.latitude] else {
      throw DataFileError(
        path: path, line: recordLine,
        message: "the header has no latitude column (expected \"lat\" or \"latitude\"; found "
          + "\(listed(names)))")
    }
    guard let longitude = found[.longitude] else {
      throw DataFileError(
        path: path, line: recordLine,
        message: "the header has no longitude column (expected \"lon\", \"lng\", \"long\" or "
          + "\"longitude\"; found \(listed(names)))")
    }
    var columns = RouteColumns()
    columns.latitude = latitude
    columns.longitude = longitude
    columns.name = found[.name]
    columns.description = found[.description]
    columns.elevation = found[.elevation]
    columns.time = found[.time]
    columns.needed = max(latitude, longitude) + 1
    columns.neededNames = names[..<columns.needed].joined(separator: ", ")
    return columns
  }

  private func listed(_ names: [String]) -> String {
    let list = names.prefix(8).map { "\"\($0)\"" }.joined(separator: ", ")
    return names.count > 8 ? list + ", …" : list
  }

  // MARK: Rows

  private func addRow(
    _ columns: RouteColumns, to points: inout [RoutePoint], waypoints: inout [Waypoint]
  ) throws(DataFileError) {
    let count = fields.count
    if count < columns.needed {
      throw DataFileError(
        path: path, line: recordLine,
        message: "expected \(columns.needed) fields (\(columns.neededNames)), found \(count)")
    }
    let latitude = try coordinate(fields[columns.latitude], "latitude", limit: 90)
    let longitude = try coordinate(fields[columns.longitude], "longitude", limit: 180)
    var elevation: Double?
    if let index = columns.elevation, index < count, !isEmpty(fields[index]) {
      elevation = try finiteNumber(fields[index], "elevation")
    }
    var time: Date?
    if let index = columns.time, index < count, !isEmpty(fields[index]) {
      time = try timeValue(fields[index])
    }
    let position = Coordinate(latitude: latitude, longitude: longitude)
    points.append(RoutePoint(coordinate: position, elevation: elevation, time: time))
    if let index = columns.name, index < count, !isEmpty(fields[index]) {
      let name = TextSanitizer.clean(text(fields[index]))
      if !name.isEmpty {
        var description: String?
        if let d = columns.description, d < count {
          let cleaned = TextSanitizer.clean(text(fields[d]))
          if !cleaned.isEmpty { description = cleaned }
        }
        waypoints.append(
          Waypoint(
            coordinate: position, name: name, description: description, elevation: elevation,
            time: time, line: recordLine))
      }
    }
  }

  private func coordinate(_ field: CSVField, _ what: String, limit: Double)
    throws(DataFileError) -> Double
  {
    let value = try finiteNumber(field, what)
    if abs(value) > limit {
      let bound = Int(limit)
      throw error(at: field, "\(what) \(shown(text(field))) is outside -\(bound)...\(bound)")
    }
    return value
  }

  private func finiteNumber(_ field: CSVField, _ what: String) throws(DataFileError) -> Double {
    guard let value = number(field) else {
      if isEmpty(field) {
        throw error(at: field, "expected a number for \(what), found an empty field")
      }
      throw error(at: field, "expected a number for \(what), found \(quoted(text(field)))")
    }
    if !value.isFinite {
      throw error(at: field, "\(what) must be a finite number, found \(quoted(text(field)))")
    }
    return value
  }

  private func timeValue(_ field: CSVField) throws(DataFileError) -> Date {
    let (start, end) = trimmed(field)
    guard !field.escaped, let date = ISO8601Time.parse(p, start, end) else {
      throw error(
        at: field,
        "invalid time \(quoted(text(field))) (expected ISO 8601 such as 2024-05-01T10:00:00Z)")
    }
    return date
  }

  // MARK: Field helpers

  /// The content of a field without padding, as offsets.
  private func trimmed(_ field: CSVField) -> (Int, Int) {
    var start = field.start
    var end = field.end
    if field.quoted {
      while start < end && (p[start] == ASCII.space || p[start] == ASCII.tab) { start += 1 }
      while end > start && (p[end - 1] == ASCII.space || p[end - 1] == ASCII.tab) { end -= 1 }
    }
    return (start, end)
  }

  private func isEmpty(_ field: CSVField) -> Bool {
    let (start, end) = trimmed(field)
    return start == end
  }

  /// The number in a field, infinite or NaN included; nil when it is not a number.
  private func number(_ field: CSVField) -> Double? {
    if field.escaped { return nil }
    let (start, end) = trimmed(field)
    return DecimalParser.parse(p, start, end, decimalComma: delimiter != ASCII.comma)
  }

  /// The text of a field with doubled quotes collapsed, not sanitized.
  private func text(_ field: CSVField) -> String {
    let bytes = UnsafeBufferPointer(start: p + field.start, count: field.end - field.start)
    if !field.escaped { return String(decoding: bytes, as: UTF8.self) }
    var collapsed: [UInt8] = []
    collapsed.reserveCapacity(bytes.count)
    var k = 0
    while k < bytes.count {
      collapsed.append(bytes[k])
      k += bytes[k] == ASCII.quote ? 2 : 1
    }
    return String(decoding: collapsed, as: UTF8.self)
  }

  /// File text shown in a message: sanitized and cut to 40 characters.
  private func shown(_ s: String) -> String {
    let clean = TextSanitizer.clean(s)
    if clean.unicodeScalars.count <= 40 { return clean }
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: clean.unicodeScalars.prefix(40))
    return String(scalars) + "…"
  }

  /// File text shown in a message in quotes.
  private func quoted(_ s: String) -> String {
    "\"\(shown(s))\""
  }

  /// The 1-based column, in Unicode scalars, of byte `offset` on the line starting at `lineStart`.
  private func column(of offset: Int, lineStart: Int) -> Int {
    var column = 1
    var i = lineStart
    while i < offset {
      if p[i] & 0xC0 != 0x80 { column += 1 }
      i += 1
    }
    return column
  }

  private func column(of field: CSVField) -> Int {
    column(of: field.mark, lineStart: field.lineStart)
  }

  private func error(at field: CSVField, _ message: String) -> DataFileError {
    DataFileError(path: path, line: field.line, column: column(of: field), message: message)
  }

  // MARK: UTF-8

  private func validateUTF8() throws(DataFileError) {
    var i = 0
    while i < n {
      while i + 8 <= n {
        let word = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
        if word & 0x8080_8080_8080_8080 != 0 { break }
        i += 8
      }
      if i >= n { break }
      let c = p[i]
      if c < 0x80 {
        i += 1
        continue
      }
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      let length: Int
      switch c {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        high = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        high = 0x8F
      default: throw invalidUTF8(at: i)
      }
      guard i + length <= n, p[i + 1] >= low, p[i + 1] <= high else {
        throw invalidUTF8(at: i)
      }
      for k in 2..<length where p[i + k] & 0xC0 != 0x80 {
        throw invalidUTF8(at: i)
      }
      i += length
    }
  }

  private func invalidUTF8(at offset: Int) -> DataFileError {
    if offset == 0,
      let wide = FormatDetection.wideEncoding(UnsafeBufferPointer(start: p, count: min(n, 4)))
    {
      return DataFileError(
        path: path, byteOffset: 0, message: "the file is \(wide) text; save it as UTF-8")
    }
    var lineNumber = 1
    for i in 0..<offset {
      if p[i] == ASCII.lf || (p[i] == ASCII.cr && (i + 1 >= n || p[i + 1] != ASCII.lf)) {
        lineNumber += 1
      }
    }
    let byte = String(p[offset], radix: 16, uppercase: true)
    let shown = byte.count == 1 ? "0" + byte : byte
    return DataFileError(
      path: path, byteOffset: offset,
      message: "invalid UTF-8 (byte 0x\(shown) on line \(lineNumber)); the file must be UTF-8 text"
    )
  }
}

// MARK: - Numbers

/// A decimal parser for fields: exact for up to 19 significant digits with a small exponent
/// (the Clinger fast path), and falling back to the standard library for the rest, so every
/// result equals `Double(String)`.
enum DecimalParser {
  private static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
  ]

  /// Parses `[start, end)`: an optional sign, digits with an optional point (or comma when
  /// `decimalComma`), an optional exponent; or `nan`, `inf`, `infinity` in any case.
  static func parse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, decimalComma: Bool)
    -> Double?
  {
    var i = start
    guard i < end else { return nil }
    var negative = false
    if p[i] == ASCII.plus || p[i] == ASCII.minus {
      negative = p[i] == ASCII.minus
      i += 1
      guard i < end else { return nil }
    }
    let lower = p[i] | 0x20
    if lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z") {
      return special(p, i, end, negative: negative)
    }
    var mantissa: UInt64 = 0
    var significant = 0
    var exponent = 0
    var sawDigit = false
    var inexact = false
    while i < end {
      let digit = p[i] &- 0x30
      if digit >= 10 { break }
      sawDigit = true
      if mantissa != 0 || digit != 0 {
        if significant < 19 {
          mantissa = mantissa &* 10 &+ UInt64(digit)
          significant += 1
        } else {
          inexact = true
        }
      }
      i += 1
    }
    if i < end && (p[i] == ASCII.dot || (decimalComma && p[i] == ASCII.comma)) {
      i += 1
      while i < end {
        let digit = p[i] &- 0x30
        if digit >= 10 { break }
        sawDigit = true
        if mantissa != 0 || digit != 0 {
          if significant < 19 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
            significant += 1
            exponent -= 1
          } else {
            inexact = true
          }
        } else {
          exponent -= 1
        }
        i += 1
      }
    }
    guard sawDigit else { return nil }
    if i < end && p[i] | 0x20 == UInt8(ascii: "e") {
      i += 1
      var exponentNegative = false
      if i < end && (p[i] == ASCII.plus || p[i] == ASCII.minus) {
        exponentNegative = p[i] == ASCII.minus
        i += 1
      }
      var value = 0
      var sawExponentDigit = false
      while i < end {
        let digit = p[i] &- 0x30
        if digit >= 10 { break }
        sawExponentDigit = true
        if value < 100_000 { value = value * 10 + Int(digit) }
        i += 1
      }
      guard sawExponentDigit else { return nil }
      exponent += exponentNegative ? -value : value
    }
    guard i == end else { return nil }
    if mantissa == 0 { return negative ? -0.0 : 0.0 }
    if !inexact && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
      var value = Double(mantissa)
      if exponent < 0 {
        value /= powersOfTen[-exponent]
      } else {
        value *= powersOfTen[exponent]
      }
      return negative ? -value : value
    }
    return slowParse(p, start, end)
  }

  /// The standard library's correctly rounded conversion, for the rare long or extreme values.
  private static func slowParse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
    var bytes = Array(UnsafeBufferPointer(start: p + start, count: end - start))
    for k in bytes.indices where bytes[k] == ASCII.comma { bytes[k] = ASCII.dot }
    return Double(String(decoding: bytes, as: UTF8.self))
  }

  private static func special(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int, negative: Bool)
    -> Double?
  {
    guard end - start <= 8 else { return nil }
    var word = ""
    for k in start..<end { word.unicodeScalars.append(Unicode.Scalar(p[k] | 0x20)) }
    switch word {
    case "nan": return .nan
    case "inf", "infinity": return negative ? -.infinity : .infinity
    default: return nil
    }
  }
}

// MARK: - Times

/// ISO 8601 date-times: `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z`, `±HH`, `±HHMM` or `±HH:MM`;
/// a space may stand for the `T`. A time without an offset is taken as UTC.
enum ISO8601Time {
  static func parse(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Date? {
    var i = start
    func digits(_ count: Int) -> Int? {
      guard i + count <= end else { return nil }
      var value = 0
      for k in 0..<count {
        let digit = p[i + k] &- 0x30
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)
      }
      i += count
      return value
    }
    func skip(_ byte: UInt8) -> Bool {
      guard i < end && p[i] == byte else { return false }
      i += 1
      return true
    }
    guard let year = digits(4), skip(ASCII.minus), let month = digits(2), skip(ASCII.minus),
      let day = digits(2)
    else { return nil }
    guard i < end, p[i] | 0x20 == UInt8(ascii: "t") || p[i] == ASCII.space else { return nil }
    i += 1
    guard let hour = digits(2), skip(ASCII.colon), let minute = digits(2) else { return nil }
    var second = 0
    var fraction = 0.0
    if skip(ASCII.colon) {
      guard let s = digits(2) else { return nil }
      second = s
      if i < end && (p[i] == ASCII.dot || p[i] == ASCII.comma) {
        i += 1
        // Nanoseconds from the first nine digits; further digits are checked and dropped.
        var nanoseconds = 0
        var scale = 100_000_000
        let first = i
        while i < end, p[i] &- 0x30 < 10 {
          nanoseconds += Int(p[i] &- 0x30) * scale
          scale /= 10
          i += 1
        }
        guard i > first else { return nil }
        fraction = Double(nanoseconds) / 1e9
      }
    }
    var offset = 0
    if i < end {
      if p[i] | 0x20 == UInt8(ascii: "z") {
        i += 1
      } else if p[i] == ASCII.plus || p[i] == ASCII.minus {
        let sign = p[i] == ASCII.minus ? -1 : 1
        i += 1
        guard let hours = digits(2), hours <= 23 else { return nil }
        var minutes = 0
        if i < end {
          _ = skip(ASCII.colon)
          guard let m = digits(2), m <= 59 else { return nil }
          minutes = m
        }
        offset = sign * (hours * 3600 + minutes * 60)
      } else {
        return nil
      }
    }
    guard i == end else { return nil }
    guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour <= 23, minute <= 59, second <= 60
    else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
    return Date(timeIntervalSince1970: Double(seconds) + fraction)
  }

  private static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Days since 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
  private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }
}
