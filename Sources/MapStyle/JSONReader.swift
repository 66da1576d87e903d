/// An error in JSON text: what was wrong and the byte offset where it was found.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was wrong.
  public let message: String
  /// The byte offset (from 0) in the text.
  public let offset: Int

  /// "`message` at byte `offset`".
  public var description: String { "\(message) at byte \(offset)" }
}

extension StyleValue {
  /// The most nested arrays and objects `parse(json:)` accepts.
  public static let maximumJSONDepth = 512
  /// The largest JSON text `parse(json:)` accepts, in bytes (64 MiB).
  public static let maximumJSONBytes = 64 << 20

  /// Parses JSON text (RFC 8259; a byte order mark is skipped).
  ///
  /// Nesting is bounded by `maximumJSONDepth` and size by `maximumJSONBytes`; errors carry the
  /// byte offset.
  public init(json text: String) throws(JSONSyntaxError) {
    var copy = text
    let result: Result<StyleValue, JSONSyntaxError> = copy.withUTF8 { buffer in
      var reader = JSONReader(bytes: buffer)
      do throws(JSONSyntaxError) {
        return .success(try reader.document())
      } catch {
        return .failure(error)
      }
    }
    self = try result.get()
  }

  /// Parses JSON bytes (UTF-8); see `init(json:)`.
  public init(jsonBytes bytes: [UInt8]) throws(JSONSyntaxError) {
    let result: Result<StyleValue, JSONSyntaxError> = bytes.withUnsafeBufferPointer { buffer in
      var reader = JSONReader(bytes: buffer)
      do throws(JSONSyntaxError) {
        return .success(try reader.document())
      } catch {
        return .failure(error)
      }
    }
    self = try result.get()
  }
}

struct JSONReader {
  let bytes: UnsafeBufferPointer<UInt8>
  var i = 0
  var depth = 0

  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  func fail(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
    JSONSyntaxError(message: message, offset: offset ?? i)
  }

  mutating func document() throws(JSONSyntaxError) -> StyleValue {
    guard bytes.count <= StyleValue.maximumJSONBytes else {
      throw fail("JSON text larger than \(StyleValue.maximumJSONBytes) bytes", at: 0)
    }
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
    skipSpace()
    let v = try value()
    skipSpace()
    guard i == bytes.count else { throw fail("Unexpected text after the JSON value") }
    return v
  }

  mutating func skipSpace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09, 0x0A, 0x0D: i += 1
      default: return
      }
    }
  }

  mutating func value() throws(JSONSyntaxError) -> StyleValue {
    guard i < bytes.count else { throw fail("Unexpected end of JSON text") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"):
      try literal("true")
      return .boolean(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .boolean(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
    default: throw fail("Unexpected character")
    }
  }

  mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
    let n = word.utf8CodeUnitCount
    guard i + n <= bytes.count else { throw fail("Unexpected end of JSON text") }
    for k in 0..<n where bytes[i + k] != word.utf8Start[k] {
      throw fail("Unexpected character", at: i + k)
    }
    i += n
  }

  mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > StyleValue.maximumJSONDepth {
      throw fail("JSON nested deeper than \(StyleValue.maximumJSONDepth) levels")
    }
  }

  mutating func object() throws(JSONSyntaxError) -> StyleValue {
    try enter()
    i += 1
    var obj = StyleObject()
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
      i += 1
      depth -= 1
      return .object(obj)
    }
    while true {
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
        throw fail("Expected a string key")
      }
      let key = try string()
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("Expected ':'") }
      i += 1
      skipSpace()
      obj[key] = try value()
      skipSpace()
      guard i < bytes.count else { throw fail("Unexpected end of JSON text") }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
        continue
      }
      guard bytes[i] == UInt8(ascii: "}") else { throw fail("Expected ',' or '}'") }
      i += 1
      depth -= 1
      return .object(obj)
    }
  }

  mutating func array() throws(JSONSyntaxError) -> StyleValue {
    try enter()
    i += 1
    var out = [StyleValue]()
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
      i += 1
      depth -= 1
      return .array(out)
    }
    while true {
      skipSpace()
      out.append(try value())
      skipSpace()
      guard i < bytes.count else { throw fail("Unexpected end of JSON text") }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
        continue
      }
      guard bytes[i] == UInt8(ascii: "]") else { throw fail("Expected ',' or ']'") }
      i += 1
      depth -= 1
      return .array(out)
    }
  }

  mutating func number() throws(JSONSyntaxError) -> Double {
    let start = i
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    func digits(_ r: inout JSONReader) -> Int {
      let s = r.i
      while r.i < r.bytes.count, r.bytes[r.i] >= 0x30, r.bytes[r.i] <= 0x39 { r.i += 1 }
      return r.i - s
    }
    let intStart = i
    let n = digits(&self)
    guard n > 0 else { throw fail("Expected a digit") }
    if n > 1, bytes[intStart] == UInt8(ascii: "0") {
      throw fail("Leading zero in a number", at: intStart)
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard digits(&self) > 0 else { throw fail("Expected a digit after '.'") }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") {
        i += 1
      }
      guard digits(&self) > 0 else { throw fail("Expected a digit in the exponent") }
    }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
    guard let d = Double(text) else { throw fail("Invalid number", at: start) }
    return d
  }

  mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard i + 4 <= bytes.count else { throw fail("Unexpected end of JSON text") }
    var v: UInt32 = 0
    for _ in 0..<4 {
      let c = bytes[i]
      let d: UInt32
      switch c {
      case 0x30...0x39: d = UInt32(c - 0x30)
      case 0x41...0x46: d = UInt32(c - 0x41 + 10)
      case 0x61...0x66: d = UInt32(c - 0x61 + 10)
      default: throw fail("Invalid \\u escape")
      }
      v = v << 4 | d
      i += 1
    }
    return v
  }

  mutating func string() throws(JSONSyntaxError) -> String {
    i += 1
    let start = i
    // Fast path: no escapes.
    while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\"),
      bytes[i] >= 0x20
    {
      i += 1
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
      let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
      i += 1
      return s
    }
    var out = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<i]))
    while true {
      guard i < bytes.count else { throw fail("Unterminated string", at: start - 1) }
      let c = bytes[i]
      if c == UInt8(ascii: "\"") {
        i += 1
        return String(decoding: out, as: UTF8.self)
      }
      if c < 0x20 { throw fail("Control character in a string") }
      if c != UInt8(ascii: "\\") {
        out.append(c)
        i += 1
        continue
      }
      i += 1
      guard i < bytes.count else { throw fail("Unterminated string", at: start - 1) }
      let e = bytes[i]
      i += 1
      switch e {
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "\\"): out.append(0x5C)
      case UInt8(ascii: "/"): out.append(0x2F)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"):
        var code = try hex4()
        if code >= 0xD800, code < 0xDC00, i + 6 <= bytes.count, bytes[i] == 0x5C,
          bytes[i + 1] == UInt8(ascii: "u")
        {
          let save = i
          i += 2
          let low = try hex4()
          if low >= 0xDC00, low < 0xE000 {
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          } else {
            i = save
          }
        }
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        out.append(contentsOf: Array(String(scalar).utf8))
      default: throw fail("Invalid escape", at: i - 2)
      }
    }
  }
}
