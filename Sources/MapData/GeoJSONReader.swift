import Foundation
import MapGeometry
import TermMapKit

/// Reads GeoJSON (RFC 7946): a FeatureCollection, a Feature or a bare geometry.
///
/// Points and MultiPoints become annotations (title from the `name` or `title` property,
/// subtitle from `description`, the other properties as callout lines); LineStrings and
/// MultiLineStrings polylines; Polygons and MultiPolygons polygons with holes, gathered into
/// one multi-polygon overlay per style. simplestyle properties (`stroke`, `stroke-width`,
/// `stroke-opacity`, `fill`, `fill-opacity`, `marker-color`, `marker-symbol`, `marker-size`)
/// become the feature's `FeatureStyle`. `bbox` and foreign members are ignored. In a
/// FeatureCollection a bad feature is skipped with a warning; a bad lone feature or geometry
/// is an error.
enum GeoJSONReader {
  static func read(_ bytes: [UInt8], path: String, progress: ((Double) -> Void)? = nil)
    throws(DataFileError) -> MapContent
  {
    let result: Result<MapContent, DataFileError> = bytes.withUnsafeBufferPointer { b in
      guard let base = b.baseAddress, b.count > 0 else {
        return .failure(DataFileError(path: path, message: "file is empty"))
      }
      var parser = JSONParser(p: base, n: b.count, path: path)
      parser.progress = progress
      do throws(DataFileError) {
        try parser.checkEncoding()
        let root = try parser.parseDocument()
        var reader = GeoJSONInterpreter(parser: parser, builder: ContentBuilder(path: path))
        return .success(try reader.read(root))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }
}

// MARK: - Parsed values

/// A JSON value other than the GeoJSON members the parser keeps apart.
indirect enum JSONValue: Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// The value as callout text.
  var text: String {
    switch self {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let v): return Self.number(v)
    case .string(let s): return s
    case .array(let a): return "[" + a.map(\.json).joined(separator: ", ") + "]"
    case .object(let o):
      return "{" + o.map { "\"\($0.0)\": \($0.1.json)" }.joined(separator: ", ") + "}"
    }
  }

  private var json: String {
    if case .string(let s) = self { return "\"\(s)\"" }
    return text
  }

  /// The value as JSON text again, on one line, its strings escaped (the feature `termmap
  /// pick` prints).
  var jsonText: String {
    switch self {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let v): return GeoJSONText.number(v)
    case .string(let s): return GeoJSONText.string(s)
    case .array(let a): return "[" + a.map(\.jsonText).joined(separator: ",") + "]"
    case .object(let o): return GeoJSONText.object(o.map { ($0.0, $0.1.jsonText) })
    }
  }

  static func number(_ v: Double) -> String {
    if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) }
    return "\(v)"
  }
}

/// A position: longitude, latitude, optional elevation, and where its numbers are.
struct Position {
  var longitude: Double
  var latitude: Double
  var elevation: Double
  var longitudeOffset: Int
  var latitudeOffset: Int
}

/// The value of a `coordinates` member, by nesting.
indirect enum CoordinateTree {
  case position(Position)
  case positions([Position], offset: Int)
  case lists([CoordinateTree], offset: Int)
  case empty
  case invalid(offset: Int, message: String)
}

/// An object with the members GeoJSON gives meaning to; others are skipped.
final class GeoObject {
  let offset: Int
  var type: String?
  var typeOffset = 0
  var coordinates: CoordinateTree?
  var hasGeometry = false
  var geometry: GeoObject?
  var geometryNotObject: Int?
  var geometries: [GeoObject]?
  var geometriesNotArray: Int?
  var features: [GeoObject]?
  var featuresNotArray: Int?
  var properties: [(String, JSONValue)] = []
  /// A Feature's `id` (a string or a number).
  var id: JSONValue?

  init(offset: Int) { self.offset = offset }
}

// MARK: - The parser

struct JSONParser {
  let p: UnsafePointer<UInt8>
  let n: Int
  let path: String
  var i = 0
  var depth = 0
  var progress: ((Double) -> Void)?
  var lastProgress = 0
  static let maxDepth = 512
  /// Objects with up to this many members find repeated keys by a linear search.
  static let linearMembers = 16

  init(p: UnsafePointer<UInt8>, n: Int, path: String) {
    self.p = p
    self.n = n
    self.path = path
  }

  // MARK: Errors

  func location(_ offset: Int) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    var k = 0
    if n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { k = 3 }
    let stop = min(offset, n)
    while k < stop {
      let c = p[k]
      if c == Chars.lf || (c == Chars.cr && (k + 1 >= n || p[k + 1] != Chars.lf)) {
        line += 1
        column = 1
      } else if c != Chars.cr && c & 0xC0 != 0x80 {
        column += 1
      }
      k += 1
    }
    return (line, column)
  }

  func error(_ offset: Int, _ message: String) -> DataFileError {
    let (line, column) = location(offset)
    return DataFileError(path: path, line: line, column: column, message: message)
  }

  /// What is at `offset`, for messages.
  func found(_ offset: Int) -> String {
    if offset >= n { return "the end of the file" }
    let c = p[offset]
    if c == Chars.quote { return "a string" }
    if c == UInt8(ascii: "{") { return "an object" }
    if c == UInt8(ascii: "[") { return "an array" }
    if c == Chars.minus || (c >= Chars.zero && c <= Chars.nine) { return "a number" }
    var end = offset
    while end < n && end - offset < 12 && !ValueParser.isSpace(p[end]) && p[end] != Chars.comma
      && p[end] != UInt8(ascii: "}") && p[end] != UInt8(ascii: "]")
    {
      end += 1
    }
    if end == offset { end = offset + 1 }
    let word = String(
      decoding: UnsafeBufferPointer(start: p + offset, count: end - offset), as: UTF8.self)
    return "\"\(Formatting.shown(word, limit: 12))\""
  }

  // MARK: Encoding

  func checkEncoding() throws(DataFileError) {
    var k = 0
    while k < n {
      while k + 8 <= n
        && UnsafeRawPointer(p + k).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        k += 8
      }
      if k >= n { break }
      let c = p[k]
      if c < 0x80 {
        k += 1
        continue
      }
      guard let (length, lo, hi) = UTF8Lead.sequence(startingWith: c) else {
        throw invalidUTF8(k)
      }
      guard k + length <= n, p[k + 1] >= lo, p[k + 1] <= hi else { throw invalidUTF8(k) }
      for j in 2..<length where p[k + j] & 0xC0 != 0x80 { throw invalidUTF8(k) }
      k += length
    }
  }

  private func invalidUTF8(_ k: Int) -> DataFileError {
    let s = String(p[k], radix: 16, uppercase: true)
    return error(
      k, "invalid UTF-8 (byte 0x\(s.count == 1 ? "0" + s : s)); the file must be UTF-8 text")
  }

  // MARK: Structure

  mutating func skipSpace() {
    while i < n {
      let c = p[i]
      if c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 { i += 1 } else { return }
    }
  }

  /// The root: one object, then only white space.
  mutating func parseDocument() throws(DataFileError) -> GeoObject {
    if n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { i = 3 }
    skipSpace()
    guard i < n else { throw DataFileError(path: path, message: "file is empty") }
    guard p[i] == UInt8(ascii: "{") else {
      let start = i
      let what = found(i)
      if p[i] == UInt8(ascii: "[") {
        try skipValue()  // report syntax errors first
      }
      throw error(start, "expected a GeoJSON object (\"{\"), found \(what)")
    }
    let root = try parseObject()
    skipSpace()
    if i < n {
      throw error(i, "expected the end of the file after the GeoJSON object, found \(found(i))")
    }
    return root
  }

  private mutating func enter() throws(DataFileError) {
    depth += 1
    if depth > Self.maxDepth {
      throw error(i, "the JSON nests deeper than \(Self.maxDepth) levels")
    }
  }

  private mutating func expect(_ c: UInt8, _ what: String) throws(DataFileError) {
    skipSpace()
    guard i < n else { throw truncated(what) }
    guard p[i] == c else { throw error(i, "expected \(what), found \(found(i))") }
    i += 1
  }

  private func truncated(_ what: String) -> DataFileError {
    error(n, "the file ends where \(what) was expected (it may be truncated)")
  }

  /// Calls `member` for each key of the object at `i`, positioned at the value.
  private mutating func forEachMember(
    _ member: (inout JSONParser, String, Int) throws(DataFileError) -> Void
  ) throws(DataFileError) {
    try enter()
    i += 1  // {
    skipSpace()
    if i < n && p[i] == UInt8(ascii: "}") {
      i += 1
      depth -= 1
      return
    }
    while true {
      skipSpace()
      guard i < n else { throw truncated("a member name (a string)") }
      guard p[i] == Chars.quote else {
        throw error(
          i,
          p[i] == UInt8(ascii: "}")
            ? "expected a member name after \",\" (a trailing comma is not allowed)"
            : "expected a member name (a string in double quotes), found \(found(i))")
      }
      let key = try parseString()
      try expect(UInt8(ascii: ":"), "\":\" after the member name")
      skipSpace()
      guard i < n else { throw truncated("a value") }
      try member(&self, key, i)
      skipSpace()
      guard i < n else { throw truncated("\",\" or \"}\"") }
      if p[i] == Chars.comma {
        i += 1
        continue
      }
      if p[i] == UInt8(ascii: "}") {
        i += 1
        depth -= 1
        return
      }
      throw error(i, "expected \",\" or \"}\" after a member, found \(found(i))")
    }
  }

  /// Calls `element` for each element of the array at `i`, positioned at the element.
  private mutating func forEachElement(_ element: (inout JSONParser) throws(DataFileError) -> Void)
    throws(DataFileError)
  {
    try enter()
    i += 1  // [
    skipSpace()
    if i < n && p[i] == UInt8(ascii: "]") {
      i += 1
      depth -= 1
      return
    }
    while true {
      skipSpace()
      guard i < n else { throw truncated("a value") }
      if p[i] == UInt8(ascii: "]") {
        throw error(i, "expected a value after \",\" (a trailing comma is not allowed)")
      }
      try element(&self)
      skipSpace()
      guard i < n else { throw truncated("\",\" or \"]\"") }
      if p[i] == Chars.comma {
        i += 1
        continue
      }
      if p[i] == UInt8(ascii: "]") {
        i += 1
        depth -= 1
        return
      }
      throw error(i, "expected \",\" or \"]\" after an array element, found \(found(i))")
    }
  }

  /// An object, keeping the GeoJSON members.
  mutating func parseObject() throws(DataFileError) -> GeoObject {
    let object = GeoObject(offset: i)
    try forEachMember { parser, key, at throws(DataFileError) in
      switch key {
      case "type":
        object.typeOffset = at
        if parser.p[at] == Chars.quote {
          object.type = try parser.parseString()
        } else {
          try parser.skipValue()
          object.type = ""
        }
      case "coordinates":
        object.coordinates = try parser.parseCoordinates()
      case "geometry":
        object.hasGeometry = true
        if parser.p[at] == UInt8(ascii: "{") {
          object.geometry = try parser.parseObject()
        } else {
          if !parser.isNull() { object.geometryNotObject = at }
          try parser.skipValue()
        }
      case "geometries", "features":
        if parser.p[at] == UInt8(ascii: "[") {
          var list: [GeoObject] = []
          var bad: Int?
          try parser.forEachElement { q throws(DataFileError) in
            if q.p[q.i] == UInt8(ascii: "{") {
              list.append(try q.parseObject())
              q.reportProgress()
            } else {
              if bad == nil { bad = q.i }
              try q.skipValue()
            }
          }
          if key == "features" {
            object.features = list
            object.featuresNotArray = bad
          } else {
            object.geometries = list
            object.geometriesNotArray = bad
          }
        } else {
          if key == "features" {
            object.featuresNotArray = at
          } else {
            object.geometriesNotArray = at
          }
          try parser.skipValue()
        }
      case "id":
        let v = try parser.parseValue()
        switch v {
        case .string, .number: object.id = v
        default: break
        }
      case "properties":
        if parser.p[at] == UInt8(ascii: "{") {
          if case .object(let members) = try parser.parseValue() { object.properties = members }
        } else {
          try parser.skipValue()
        }
      default:
        try parser.skipValue()
      }
    }
    return object
  }

  private mutating func reportProgress() {
    guard let progress, i - lastProgress > n / 100 else { return }
    lastProgress = i
    progress(Double(i) / Double(n))
  }

  private func isNull() -> Bool {
    i + 4 <= n && p[i] == UInt8(ascii: "n") && p[i + 1] == UInt8(ascii: "u")
      && p[i + 2] == UInt8(ascii: "l") && p[i + 3] == UInt8(ascii: "l")
  }

  /// The value of a `coordinates` member.
  mutating func parseCoordinates() throws(DataFileError) -> CoordinateTree {
    let start = i
    guard p[i] == UInt8(ascii: "[") else {
      let what = found(i)
      try skipValue()
      return .invalid(offset: start, message: "\"coordinates\" must be an array, found \(what)")
    }
    // Look at the first element to tell a position from a list.
    var k = i + 1
    while k < n && ValueParser.isSpace(p[k]) { k += 1 }
    guard k < n else { throw truncated("a value") }
    if p[k] == UInt8(ascii: "]") {
      try skipValue()
      return .empty
    }
    if p[k] == Chars.minus || (p[k] >= Chars.zero && p[k] <= Chars.nine) {
      return try parsePosition()
    }
    if p[k] != UInt8(ascii: "[") {
      let what = found(k)
      try skipValue()
      return .invalid(
        offset: k,
        message: "expected a position (an array of numbers) in \"coordinates\", found \(what)")
    }
    var positions: [Position] = []
    var lists: [CoordinateTree] = []
    var problem: CoordinateTree?
    try forEachElement { q throws(DataFileError) in
      let at = q.i
      if q.p[at] != UInt8(ascii: "[") {
        if problem == nil {
          problem = .invalid(
            offset: at,
            message: "expected an array in \"coordinates\", found \(q.found(at))")
        }
        try q.skipValue()
        return
      }
      let child = try q.parseCoordinates()
      switch child {
      case .position(let pos):
        if !lists.isEmpty && problem == nil {
          problem = .invalid(
            offset: at, message: "\"coordinates\" mixes positions and arrays of positions")
        }
        positions.append(pos)
      case .invalid:
        if problem == nil { problem = child }
      default:
        if !positions.isEmpty && problem == nil {
          problem = .invalid(
            offset: at, message: "\"coordinates\" mixes positions and arrays of positions")
        }
        lists.append(child)
      }
    }
    if let problem { return problem }
    if !positions.isEmpty { return .positions(positions, offset: start) }
    return .lists(lists, offset: start)
  }

  /// `[lon, lat, ele?, …]`.
  private mutating func parsePosition() throws(DataFileError) -> CoordinateTree {
    let start = i
    var values: [Double] = []
    var offsets: [Int] = []
    var problem: CoordinateTree?
    try forEachElement { q throws(DataFileError) in
      let at = q.i
      let c = q.p[at]
      if c == Chars.minus || (c >= Chars.zero && c <= Chars.nine) {
        values.append(try q.parseNumber())
        offsets.append(at)
      } else {
        if problem == nil {
          let what: String
          if c == Chars.quote {
            var r = q
            let s = (try? r.parseString()) ?? ""
            what = "\"\(Formatting.shown(s))\""
          } else {
            what = q.found(at)
          }
          problem = .invalid(
            offset: at, message: "expected a number in a position, found \(what)")
        }
        try q.skipValue()
      }
    }
    if let problem { return problem }
    guard values.count >= 2 else {
      return .invalid(
        offset: start,
        message: "a position needs at least 2 numbers (longitude, latitude), found \(values.count)")
    }
    return .position(
      Position(
        longitude: values[0], latitude: values[1], elevation: values.count > 2 ? values[2] : .nan,
        longitudeOffset: offsets[0], latitudeOffset: offsets[1]))
  }

  // MARK: Values

  /// Any value, skipped after checking its syntax.
  mutating func skipValue() throws(DataFileError) {
    guard i < n else { throw truncated("a value") }
    switch p[i] {
    case UInt8(ascii: "{"):
      try forEachMember { q, _, _ throws(DataFileError) in try q.skipValue() }
    case UInt8(ascii: "["):
      try forEachElement { q throws(DataFileError) in try q.skipValue() }
    case Chars.quote:
      _ = try parseString()
    default:
      _ = try parseValue()
    }
  }

  /// Any value.
  mutating func parseValue() throws(DataFileError) -> JSONValue {
    guard i < n else { throw truncated("a value") }
    let c = p[i]
    switch c {
    case UInt8(ascii: "{"):
      // A repeated key keeps its first place and takes the last value. Small objects are
      // searched in place; past `linearMembers` keys an index keeps this linear in the size.
      var members: [(String, JSONValue)] = []
      var index: [String: Int] = [:]
      try forEachMember { q, key, _ throws(DataFileError) in
        let v = try q.parseValue()
        if members.count < Self.linearMembers {
          if let k = members.firstIndex(where: { $0.0 == key }) {
            members[k].1 = v
            return
          }
        } else {
          if index.isEmpty {
            for (k, m) in members.enumerated() { index[m.0] = k }
          }
          if let k = index[key] {
            members[k].1 = v
            return
          }
          index[key] = members.count
        }
        members.append((key, v))
      }
      return .object(members)
    case UInt8(ascii: "["):
      var elements: [JSONValue] = []
      try forEachElement { q throws(DataFileError) in elements.append(try q.parseValue()) }
      return .array(elements)
    case Chars.quote:
      return .string(try parseString())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    default:
      if c == Chars.minus || (c >= Chars.zero && c <= Chars.nine) {
        return .number(try parseNumber())
      }
      throw error(i, "expected a value, found \(found(i))")
    }
  }

  private mutating func literal(_ word: StaticString) throws(DataFileError) {
    let m = word.utf8CodeUnitCount
    guard i + m <= n, memcmp(p + i, word.utf8Start, m) == 0 else {
      throw error(i, "expected a value, found \(found(i))")
    }
    i += m
  }

  /// A number by the JSON grammar.
  mutating func parseNumber() throws(DataFileError) -> Double {
    let start = i
    if p[i] == Chars.minus { i += 1 }
    guard i < n, p[i] >= Chars.zero, p[i] <= Chars.nine else {
      throw error(start, "invalid number \(found(start))")
    }
    if p[i] == Chars.zero {
      i += 1
      if i < n && p[i] >= Chars.zero && p[i] <= Chars.nine {
        throw error(start, "invalid number: a JSON number cannot have leading zeros")
      }
    } else {
      while i < n && p[i] >= Chars.zero && p[i] <= Chars.nine { i += 1 }
    }
    if i < n && p[i] == Chars.dot {
      i += 1
      guard i < n, p[i] >= Chars.zero, p[i] <= Chars.nine else {
        throw error(start, "invalid number: expected digits after the decimal point")
      }
      while i < n && p[i] >= Chars.zero && p[i] <= Chars.nine { i += 1 }
    }
    if i < n && (p[i] | 0x20) == UInt8(ascii: "e") {
      i += 1
      if i < n && (p[i] == Chars.plus || p[i] == Chars.minus) { i += 1 }
      guard i < n, p[i] >= Chars.zero, p[i] <= Chars.nine else {
        throw error(start, "invalid number: expected digits in the exponent")
      }
      while i < n && p[i] >= Chars.zero && p[i] <= Chars.nine { i += 1 }
    }
    return DecimalParser.parse(p, start, i, decimalComma: false) ?? .nan
  }

  /// A string, with escapes decoded.
  mutating func parseString() throws(DataFileError) -> String {
    let start = i
    i += 1
    let first = i
    while i < n {
      let c = p[i]
      if c == Chars.quote {
        let s = String(
          decoding: UnsafeBufferPointer(start: p + first, count: i - first), as: UTF8.self)
        i += 1
        return s
      }
      if c == UInt8(ascii: "\\") || c < 0x20 { break }
      i += 1
    }
    var bytes = Array(UnsafeBufferPointer(start: p + first, count: i - first))
    while i < n {
      let c = p[i]
      if c == Chars.quote {
        i += 1
        return String(decoding: bytes, as: UTF8.self)
      }
      if c < 0x20 {
        throw error(
          i,
          c == Chars.lf || c == Chars.cr
            ? "unterminated string (a line break inside a string must be written \\n)"
            : "a control character must be escaped inside a string")
      }
      if c == UInt8(ascii: "\\") {
        guard i + 1 < n else { break }
        let e = p[i + 1]
        var scalar: UInt32?
        switch e {
        case Chars.quote: scalar = 0x22
        case UInt8(ascii: "\\"): scalar = 0x5C
        case UInt8(ascii: "/"): scalar = 0x2F
        case UInt8(ascii: "b"): scalar = 0x08
        case UInt8(ascii: "f"): scalar = 0x0C
        case UInt8(ascii: "n"): scalar = 0x0A
        case UInt8(ascii: "r"): scalar = 0x0D
        case UInt8(ascii: "t"): scalar = 0x09
        case UInt8(ascii: "u"):
          guard let u = hex4(i + 2) else {
            throw error(i, "invalid escape: \\u needs 4 hexadecimal digits")
          }
          var value = u
          var length = 6
          if (0xD800...0xDBFF).contains(u), i + 12 <= n, p[i + 6] == UInt8(ascii: "\\"),
            p[i + 7] == UInt8(ascii: "u"), let low = hex4(i + 8), (0xDC00...0xDFFF).contains(low)
          {
            value = 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00)
            length = 12
          }
          let s = Unicode.Scalar(value) ?? "\u{FFFD}"
          bytes.append(contentsOf: String(s).utf8)
          i += length
          continue
        default:
          throw error(i, "invalid escape \"\\\(Character(Unicode.Scalar(e)))\" in a string")
        }
        bytes.append(UInt8(scalar!))
        i += 2
        continue
      }
      bytes.append(c)
      i += 1
    }
    throw error(start, "the file ends inside a string that starts here (it may be truncated)")
  }

  private func hex4(_ at: Int) -> UInt32? {
    guard at + 4 <= n else { return nil }
    var v: UInt32 = 0
    for k in 0..<4 {
      let c = p[at + k]
      let d: UInt32
      switch c {
      case Chars.zero...Chars.nine: d = UInt32(c - Chars.zero)
      case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
      default: return nil
      }
      v = v * 16 + d
    }
    return v
  }

  /// The text of the number at `offset`, for messages.
  func numberText(_ offset: Int) -> String {
    var end = offset
    while end < n
      && (p[end] == Chars.minus || p[end] == Chars.plus || p[end] == Chars.dot
        || (p[end] | 0x20) == UInt8(ascii: "e") || (p[end] >= Chars.zero && p[end] <= Chars.nine))
    {
      end += 1
    }
    return String(
      decoding: UnsafeBufferPointer(start: p + offset, count: end - offset), as: UTF8.self)
  }
}

// MARK: - Meaning

/// Turns parsed GeoJSON objects into map content.
struct GeoJSONInterpreter {
  let parser: JSONParser
  var builder: ContentBuilder
  var path: String { builder.path }

  static let geometryTypes: Set<String> = [
    "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon",
    "GeometryCollection",
  ]
  static let styleKeys: Set<String> = [
    "stroke", "stroke-width", "stroke-opacity", "fill", "fill-opacity", "marker-color",
    "marker-symbol", "marker-size",
  ]

  /// A problem with one feature.
  struct Bad: Error {
    var error: DataFileError
  }

  /// A validated piece of geometry.
  enum Part {
    case point(Position)
    case line([Position])
    case polygon([[Position]], multi: Bool)
  }

  mutating func read(_ root: GeoObject) throws(DataFileError) -> MapContent {
    guard let type = root.type else {
      throw parser.error(
        root.offset,
        "the object has no \"type\" member (expected a FeatureCollection, a Feature or a geometry)")
    }
    switch type {
    case "FeatureCollection":
      if let at = root.featuresNotArray, root.features == nil {
        throw parser.error(at, "\"features\" must be an array of Feature objects")
      }
      guard let features = root.features else {
        throw parser.error(root.offset, "the FeatureCollection has no \"features\" array")
      }
      if let at = root.featuresNotArray {
        builder.problems.skip(
          "feature", "features", parser.error(at, "expected a Feature object in \"features\""))
      }
      for f in features {
        do throws(Bad) {
          try addFeature(f)
        } catch {
          builder.problems.skip("feature", "features", error.error)
        }
      }
      if builder.isEmpty && builder.problems.first == nil {
        builder.notes.append(
          DataFileError(path: path, message: "the file has no features with coordinates")
            .description)
      }
    case "Feature":
      do throws(Bad) {
        try addFeature(root)
      } catch {
        throw error.error
      }
    default:
      guard Self.geometryTypes.contains(type) else {
        throw parser.error(
          root.typeOffset,
          "unknown GeoJSON type \"\(Formatting.shown(type))\" (expected FeatureCollection, "
            + "Feature or a geometry type such as Point or LineString)")
      }
      do throws(Bad) {
        try add(parts: try geometry(root), properties: [])
      } catch {
        throw error.error
      }
    }
    return try builder.build(format: .geojson)
  }

  private func bad(_ offset: Int, _ message: String) -> Bad {
    Bad(error: parser.error(offset, message))
  }

  private mutating func addFeature(_ f: GeoObject) throws(Bad) {
    guard f.type == "Feature" else {
      if let t = f.type {
        throw bad(f.typeOffset, "expected a Feature, found type \"\(Formatting.shown(t))\"")
      }
      throw bad(f.offset, "the feature has no \"type\" member (expected \"Feature\")")
    }
    if let at = f.geometryNotObject {
      throw bad(at, "\"geometry\" must be a geometry object or null")
    }
    guard f.hasGeometry else {
      throw bad(f.offset, "the Feature has no \"geometry\" member (use null for none)")
    }
    guard let g = f.geometry else { return }  // null: a feature without a place
    try add(parts: try geometry(g), properties: f.properties, id: f.id)
  }

  /// The validated parts of a geometry object.
  private func geometry(_ g: GeoObject) throws(Bad) -> [Part] {
    guard let type = g.type else {
      throw bad(g.offset, "the geometry has no \"type\" member")
    }
    if type == "GeometryCollection" {
      if let at = g.geometriesNotArray {
        throw bad(at, "\"geometries\" must be an array of geometry objects")
      }
      guard let list = g.geometries else {
        throw bad(g.offset, "the GeometryCollection has no \"geometries\" array")
      }
      var parts: [Part] = []
      for h in list { parts += try geometry(h) }
      return parts
    }
    guard Self.geometryTypes.contains(type) else {
      throw bad(g.typeOffset, "unknown geometry type \"\(Formatting.shown(type))\"")
    }
    guard let tree = g.coordinates else {
      throw bad(g.offset, "the \(type) has no \"coordinates\" member")
    }
    if case .invalid(let offset, let message) = tree { throw bad(offset, message) }
    if case .empty = tree { return [] }  // an empty geometry
    switch type {
    case "Point":
      guard case .position(let p) = tree else {
        throw bad(
          offsetOf(tree, g), "a Point's \"coordinates\" must be one position [longitude, latitude]")
      }
      try check(p)
      return [.point(p)]
    case "MultiPoint":
      let ps = try positions(
        tree, g, "a MultiPoint's \"coordinates\" must be an array of positions")
      return ps.map { .point($0) }
    case "LineString":
      let ps = try line(tree, g, "LineString")
      return [.line(ps)]
    case "MultiLineString":
      return try lists(tree, g, "a MultiLineString's \"coordinates\" must be an array of lines")
        .map { (t) throws(Bad) -> Part in .line(try line(t, g, "LineString")) }
    case "Polygon":
      return [.polygon(try rings(tree, g), multi: false)]
    default:  // MultiPolygon
      let polygons = try lists(
        tree, g, "a MultiPolygon's \"coordinates\" must be an array of polygons")
      return try polygons.map { (t) throws(Bad) -> Part in .polygon(try rings(t, g), multi: true) }
    }
  }

  private func offsetOf(_ tree: CoordinateTree, _ g: GeoObject) -> Int {
    switch tree {
    case .position(let p): return p.longitudeOffset
    case .positions(_, let offset), .lists(_, let offset): return offset
    case .invalid(let offset, _): return offset
    case .empty: return g.offset
    }
  }

  private func check(_ p: Position) throws(Bad) {
    if let m = ValueParser.coordinateProblem(
      p.longitude, text: parser.numberText(p.longitudeOffset), "longitude", limit: 180)
    {
      throw bad(p.longitudeOffset, m)
    }
    if let m = ValueParser.coordinateProblem(
      p.latitude, text: parser.numberText(p.latitudeOffset), "latitude", limit: 90)
    {
      throw bad(p.latitudeOffset, m)
    }
  }

  private func positions(_ tree: CoordinateTree, _ g: GeoObject, _ message: String) throws(Bad)
    -> [Position]
  {
    switch tree {
    case .positions(let ps, _):
      for p in ps { try check(p) }
      return ps
    case .empty: return []
    default: throw bad(offsetOf(tree, g), message)
    }
  }

  private func lists(_ tree: CoordinateTree, _ g: GeoObject, _ message: String) throws(Bad)
    -> [CoordinateTree]
  {
    switch tree {
    case .lists(let l, _): return l
    case .empty: return []
    default: throw bad(offsetOf(tree, g), message)
    }
  }

  private func line(_ tree: CoordinateTree, _ g: GeoObject, _ kind: String) throws(Bad)
    -> [Position]
  {
    let ps = try positions(tree, g, "a \(kind)'s \"coordinates\" must be an array of positions")
    guard ps.count >= 2 else {
      throw bad(offsetOf(tree, g), "a \(kind) needs at least 2 positions, found \(ps.count)")
    }
    return ps
  }

  private func rings(_ tree: CoordinateTree, _ g: GeoObject) throws(Bad) -> [[Position]] {
    let list = try lists(tree, g, "a Polygon's \"coordinates\" must be an array of rings")
    guard !list.isEmpty else {
      throw bad(offsetOf(tree, g), "a Polygon needs at least one ring")
    }
    return try list.map { (t) throws(Bad) -> [Position] in
      let ring = try positions(t, g, "a polygon ring must be an array of positions")
      guard ring.count >= 4 else {
        throw bad(
          offsetOf(t, g),
          "a polygon ring needs at least 4 positions (the first repeated at the end), found \(ring.count)"
        )
      }
      return ring
    }
  }

  // MARK: Content

  private mutating func add(parts: [Part], properties: [(String, JSONValue)], id: JSONValue? = nil)
    throws(Bad)
  {
    var title: String?
    var subtitle: String?
    var details: [String] = []
    var style = FeatureStyle()
    for (key, value) in properties {
      let cleanKey = TextSanitizer.clean(key)
      switch key {
      case "name", "title":
        if title == nil, case let t = TextSanitizer.clean(value.text), !t.isEmpty,
          !isNull(value)
        {
          title = t
          continue
        }
      case "description":
        let t = TextSanitizer.clean(value.text)
        if !t.isEmpty && !isNull(value) { subtitle = t }
        continue
      case "stroke":
        if case .string(let s) = value { style.stroke = ColorText.css(s) }
        continue
      case "fill":
        if case .string(let s) = value { style.fill = ColorText.css(s) }
        continue
      case "marker-color":
        if case .string(let s) = value { style.markerColor = ColorText.css(s) }
        continue
      case "marker-symbol":
        let t = TextSanitizer.clean(value.text)
        if !t.isEmpty && !isNull(value) { style.markerSymbol = t }
        continue
      case "marker-size":
        if case .string(let s) = value { style.markerSize = TextSanitizer.clean(s) }
        continue
      case "stroke-width":
        if case .number(let v) = value, v.isFinite { style.strokeWidth = v }
        continue
      case "stroke-opacity":
        if case .number(let v) = value, v.isFinite { style.strokeOpacity = min(max(v, 0), 1) }
        continue
      case "fill-opacity":
        if case .number(let v) = value, v.isFinite { style.fillOpacity = min(max(v, 0), 1) }
        continue
      default: break
      }
      details.append(Formatting.shown("\(cleanKey): \(value.text)", limit: 120))
    }
    let featureStyle: FeatureStyle? = style.isEmpty ? nil : style
    var lines: [MeasuredLine] = []
    for part in parts {
      switch part {
      case .point(let p):
        let c = Coordinate(latitude: p.latitude, longitude: p.longitude)
        var lines = details
        if !p.elevation.isNaN {
          lines.insert("elevation \(Formatting.metres(p.elevation))", at: 0)
        }
        lines.append(Formatting.coordinate(c))
        let annotation = PointAnnotation(
          coordinate: c, title: title, subtitle: subtitle, detailLines: lines)
        // The feature `termmap pick` prints: the original properties and id.
        let object = JSONValue.object(properties)
        annotation.setGeoJSONProperties { object.jsonText }
        annotation.geoJSONID = id?.jsonText
        builder.addPoint(annotation, style: featureStyle)
      case .line(let ps):
        let hasElevation = ps.contains { !$0.elevation.isNaN }
        lines.append(
          MeasuredLine(
            kind: .line,
            coordinates: ps.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) },
            elevations: hasElevation ? ps.map(\.elevation) : [], title: title))
      case .polygon(let rings, let multi):
        let coordinates = rings.map { ring in
          KMLReader.closed(ring.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) })
        }
        builder.addPolygon(
          outer: coordinates[0], holes: Array(coordinates.dropFirst()), title: title,
          style: featureStyle, partOfMulti: multi)
      }
    }
    if lines.count == 1 {
      builder.addLine(lines[0], title: title, subtitle: subtitle, style: featureStyle)
    } else if lines.count > 1 {
      builder.addMultiLine(lines, title: title, style: featureStyle)
    }
  }

  private func isNull(_ v: JSONValue) -> Bool {
    if case .null = v { return true }
    return false
  }
}
