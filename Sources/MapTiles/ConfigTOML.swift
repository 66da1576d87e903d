import Foundation

/// The part of TOML 1.0 that termmap's config file uses, read strictly: comments, `[table]`
/// headers with bare or quoted keys (dotted for nesting, as `[sources.topo]`), and
/// `key = value` lines whose value is a basic string ("…", with TOML's escapes), a literal
/// string ('…'), an integer (decimal, `_` between digits) or a boolean. Anything else TOML has
/// (arrays, inline tables, floats, dates, multi-line strings, dotted keys in assignments) is
/// refused by name, and so is any control character but tab; every error is one line with its
/// line number.
///
/// Written here rather than taken from TOMLKit: fuzzing found toml++ (which TOMLKit wraps)
/// aborting on a four-byte file (`[[!s`), an internal assertion; a config file must never
/// crash the viewer (docs/fuzzing.md).
public enum ConfigTOML {
  /// A value of the subset.
  public enum Value: Equatable, Sendable {
    /// A string.
    case string(String)
    /// An integer.
    case integer(Int)
    /// `true` or `false`.
    case boolean(Bool)
  }

  /// A table: its values and its sub-tables.
  public struct Table: Equatable, Sendable {
    /// The key/value pairs of the table.
    public var values: [String: Value] = [:]
    /// The tables nested in it, by name.
    public var tables: [String: Table] = [:]
    /// The line of each key, for messages.
    public var lines: [String: Int] = [:]
  }

  /// Why a file is not the TOML this reader takes: a line and a message.
  public struct ParseError: Error, Equatable {
    /// The line, from 1.
    public let line: Int
    /// What is wrong there.
    public let message: String
  }

  /// Parses a document into its root table.
  public static func parse(_ text: String) throws(ParseError) -> Table {
    var root = Table()
    var current: [String] = []
    var defined = Set<[String]>()
    var lineNumber = 0
    // Split on scalars: in Swift "\r\n" is one Character, which a split on "\n" never finds.
    for rawLine in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      var line = rawLine
      if line.last == "\r" { line = line.dropLast() }
      // No control character but tab, anywhere (line breaks are LF or CRLF).
      if let c = line.first(where: {
        ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F
      }) {
        throw ParseError(
          line: lineNumber,
          message: String(format: "control character U+%04X is not allowed", c.value))
      }
      var p = Cursor(line, line: lineNumber)
      p.skipSpace()
      if p.atEnd || p.peek == "#" { continue }
      if p.peek == "[" {
        p.advance()
        if p.peek == "[" {
          throw ParseError(line: lineNumber, message: "arrays of tables are not supported")
        }
        p.skipSpace()
        let path = try p.keyPath()
        p.skipSpace()
        guard p.peek == "]" else { throw p.error("expected ] after the table name") }
        p.advance()
        try p.endOfLine()
        guard defined.insert(path).inserted else {
          throw ParseError(
            line: lineNumber, message: "table [\(path.joined(separator: "."))] defined twice")
        }
        try root.makeTable(path, line: lineNumber)
        current = path
        continue
      }
      let keys = try p.keyPath()
      guard keys.count == 1 else {
        throw ParseError(line: lineNumber, message: "dotted keys are not supported")
      }
      p.skipSpace()
      guard p.peek == "=" else { throw p.error("expected = after \"\(keys[0])\"") }
      p.advance()
      p.skipSpace()
      let value = try p.value()
      try p.endOfLine()
      try root.set(keys[0], value, in: current, line: lineNumber)
    }
    return root
  }

  /// Reads one line.
  struct Cursor {
    let scalars: [Unicode.Scalar]
    var i = 0
    let line: Int

    init(_ s: Substring.UnicodeScalarView, line: Int) {
      scalars = Array(s)
      self.line = line
    }

    var atEnd: Bool { i >= scalars.count }
    var peek: Unicode.Scalar? { atEnd ? nil : scalars[i] }
    mutating func advance() { i += 1 }

    func error(_ message: String) -> ParseError { ParseError(line: line, message: message) }

    mutating func skipSpace() {
      while let c = peek, c == " " || c == "\t" { advance() }
    }

    mutating func endOfLine() throws(ParseError) {
      skipSpace()
      if let c = peek, c != "#" { throw error("unexpected \"\(Character(c))\" after the value") }
    }

    static func isBare(_ c: Unicode.Scalar) -> Bool {
      ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "_"
        || c == "-"
    }

    /// `a.b."c d"`: bare or quoted keys joined by dots.
    mutating func keyPath() throws(ParseError) -> [String] {
      var path: [String] = []
      while true {
        skipSpace()
        guard let c = peek else { throw error("expected a key") }
        if c == "\"" {
          path.append(try basicString())
        } else if c == "'" {
          path.append(try literalString())
        } else if Self.isBare(c) {
          var k = ""
          while let b = peek, Self.isBare(b) {
            k.unicodeScalars.append(b)
            advance()
          }
          path.append(k)
        } else {
          throw error("expected a key, found \"\(Character(c))\"")
        }
        skipSpace()
        guard peek == "." else { return path }
        advance()
      }
    }

    mutating func value() throws(ParseError) -> Value {
      guard let c = peek else { throw error("expected a value") }
      switch c {
      case "\"":
        if i + 2 < scalars.count, scalars[i + 1] == "\"", scalars[i + 2] == "\"" {
          throw error("multi-line strings are not supported")
        }
        return .string(try basicString())
      case "'":
        if i + 2 < scalars.count, scalars[i + 1] == "'", scalars[i + 2] == "'" {
          throw error("multi-line strings are not supported")
        }
        return .string(try literalString())
      case "[": throw error("arrays are not supported")
      case "{": throw error("inline tables are not supported")
      case "t", "f":
        var word = ""
        while let b = peek, ("a"..."z").contains(b) {
          word.unicodeScalars.append(b)
          advance()
        }
        guard word == "true" || word == "false" else { throw error("unknown value \"\(word)\"") }
        return .boolean(word == "true")
      default:
        return .integer(try integer())
      }
    }

    mutating func integer() throws(ParseError) -> Int {
      var text = ""
      while let b = peek, !(b == " " || b == "\t" || b == "#") {
        text.unicodeScalars.append(b)
        advance()
      }
      var digits = Substring(text)
      var negative = false
      if let s = digits.first, s == "+" || s == "-" {
        negative = s == "-"
        digits = digits.dropFirst()
      }
      // Digits with single underscores between them; no leading zero (TOML).
      let valid =
        !digits.isEmpty && digits.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "_") }
        && digits.first != "_" && digits.last != "_" && !digits.contains("__")
        && !(digits.count > 1 && digits.first == "0")
      guard valid, let n = Int(digits.replacingOccurrences(of: "_", with: "")) else {
        if text.contains(".") || text.contains("e") || text.contains("E") || text.contains(":") {
          throw error("\"\(text)\": only whole numbers, strings and booleans are supported")
        }
        throw error("\"\(text)\" is not a value")
      }
      return negative ? -n : n
    }

    mutating func literalString() throws(ParseError) -> String {
      advance()
      var out = ""
      while let c = peek {
        advance()
        if c == "'" { return out }
        out.unicodeScalars.append(c)
      }
      throw error("unterminated string")
    }

    mutating func basicString() throws(ParseError) -> String {
      advance()
      var out = ""
      while let c = peek {
        advance()
        switch c {
        case "\"": return out
        case "\\":
          guard let e = peek else { throw error("unterminated string") }
          advance()
          switch e {
          case "\"": out += "\""
          case "\\": out += "\\"
          case "b": out += "\u{8}"
          case "t": out += "\t"
          case "n": out += "\n"
          case "f": out += "\u{C}"
          case "r": out += "\r"
          case "u", "U":
            let n = e == "u" ? 4 : 8
            var hex = ""
            for _ in 0..<n {
              guard let h = peek, h.properties.isASCIIHexDigit else {
                throw error("bad \\\(Character(e)) escape")
              }
              hex.unicodeScalars.append(h)
              advance()
            }
            guard let v = UInt32(hex, radix: 16), let s = Unicode.Scalar(v) else {
              throw error("\\\(Character(e))\(hex) is not a character")
            }
            out.unicodeScalars.append(s)
          default: throw error("unknown escape \\\(Character(e))")
          }
        default: out.unicodeScalars.append(c)
        }
      }
      throw error("unterminated string")
    }
  }
}

extension ConfigTOML.Table {
  mutating func makeTable(_ path: [String], line: Int) throws(ConfigTOML.ParseError) {
    guard let first = path.first else { return }
    if values[first] != nil {
      throw ConfigTOML.ParseError(line: line, message: "\"\(first)\" is already a value")
    }
    var sub = tables[first] ?? ConfigTOML.Table()
    try sub.makeTable(Array(path.dropFirst()), line: line)
    tables[first] = sub
    if lines[first] == nil { lines[first] = line }
  }

  mutating func set(
    _ key: String, _ value: ConfigTOML.Value, in path: [String], line: Int
  ) throws(ConfigTOML.ParseError) {
    if let first = path.first {
      var sub = tables[first] ?? ConfigTOML.Table()
      try sub.set(key, value, in: Array(path.dropFirst()), line: line)
      tables[first] = sub
      return
    }
    guard values[key] == nil, tables[key] == nil else {
      throw ConfigTOML.ParseError(line: line, message: "\"\(key)\" defined twice")
    }
    values[key] = value
    lines[key] = line
  }
}
