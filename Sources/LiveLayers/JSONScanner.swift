import Foundation

/// A reader of JSON text that builds nothing it is not asked for: the GeoJSON scanner takes
/// the fields it needs (id, geometry, properties) straight from the bytes and skips the rest,
/// and the few general values (gpsd reports, aircraft.json) are read as `JSONNode`s. No
/// general JSON tree is made per line on the hot path (docs/live-layers.md has the figures).
struct JSONScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var i = 0
  /// Nesting deeper than this is refused (a line of a million `[` cannot exhaust the stack).
  static let maximumDepth = 64

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  var atEnd: Bool { i >= bytes.count }

  @inline(__always) mutating func skipSpace() {
    while i < bytes.count {
      let c = bytes[i]
      guard c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 else { return }
      i += 1
    }
  }

  /// The next byte after white space (nil at the end), not consumed.
  @inline(__always) mutating func peek() -> UInt8? {
    skipSpace()
    return i < bytes.count ? bytes[i] : nil
  }

  /// Consumes `c` after white space; false when something else comes.
  @inline(__always) mutating func take(_ c: UInt8) -> Bool {
    skipSpace()
    guard i < bytes.count, bytes[i] == c else { return false }
    i += 1
    return true
  }

  /// A string's raw bytes (between the quotes) and whether they hold escapes; the scanner
  /// must be at the opening quote.
  mutating func rawString() -> (start: Int, end: Int, escaped: Bool)? {
    guard take(0x22) else { return nil }
    let start = i
    var escaped = false
    while i < bytes.count {
      let c = bytes[i]
      if c == 0x22 {
        i += 1
        return (start, i - 1, escaped)
      }
      if c == 0x5C {
        escaped = true
        i += 2
        continue
      }
      if c < 0x20 { return nil }
      i += 1
    }
    return nil
  }

  /// Whether raw string bytes are exactly `literal`.
  @inline(__always) func equals(_ r: (start: Int, end: Int, escaped: Bool), _ literal: StaticString)
    -> Bool
  {
    let n = r.end - r.start
    guard !r.escaped, n == literal.utf8CodeUnitCount else { return false }
    return memcmp(bytes.baseAddress! + r.start, literal.utf8Start, n) == 0
  }

  /// The text of raw string bytes, escapes decoded; nil for a bad escape.
  func text(_ r: (start: Int, end: Int, escaped: Bool)) -> String? {
    let slice = UnsafeBufferPointer(rebasing: bytes[r.start..<r.end])
    guard r.escaped else { return String(decoding: slice, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(slice.count)
    var k = 0
    func hex4(_ at: Int) -> UInt32? {
      guard at + 4 <= slice.count else { return nil }
      var v: UInt32 = 0
      for j in at..<at + 4 {
        let c = slice[j]
        let d: UInt8
        switch c {
        case 0x30...0x39: d = c - 0x30
        case 0x41...0x46: d = c - 0x41 + 10
        case 0x61...0x66: d = c - 0x61 + 10
        default: return nil
        }
        v = v << 4 | UInt32(d)
      }
      return v
    }
    while k < slice.count {
      let c = slice[k]
      guard c == 0x5C else {
        out.append(c)
        k += 1
        continue
      }
      guard k + 1 < slice.count else { return nil }
      let e = slice[k + 1]
      k += 2
      switch e {
      case 0x22, 0x5C, 0x2F: out.append(e)
      case 0x62: out.append(0x08)
      case 0x66: out.append(0x0C)
      case 0x6E: out.append(0x0A)
      case 0x72: out.append(0x0D)
      case 0x74: out.append(0x09)
      case 0x75:
        guard var v = hex4(k) else { return nil }
        k += 4
        if (0xD800..<0xDC00).contains(v), k + 6 <= slice.count, slice[k] == 0x5C,
          slice[k + 1] == 0x75, let low = hex4(k + 2), (0xDC00..<0xE000).contains(low)
        {
          v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
          k += 6
        }
        let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
        out.append(contentsOf: Array(String(scalar).utf8))
      default: return nil
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// A string value.
  mutating func string() -> String? {
    guard let r = rawString() else { return nil }
    return text(r)
  }

  /// Powers of ten a double holds exactly.
  private static let exactPowers: [Double] = (0...22).map { pow(10, Double($0)) }

  /// A number. Up to 19 significant digits with an exponent within 22 of them are converted
  /// exactly by one multiplication or division (Clinger's fast path); anything else is handed
  /// to `strtod`.
  mutating func number() -> Double? {
    skipSpace()
    let start = i
    var negative = false
    if i < bytes.count && bytes[i] == 0x2D {
      negative = true
      i += 1
    }
    var mantissa: UInt64 = 0
    var significant = 0
    var exponent = 0
    var digits = 0
    while i < bytes.count, bytes[i] &- 0x30 < 10 {
      let d = UInt64(bytes[i] &- 0x30)
      if significant < 19 {
        mantissa = mantissa &* 10 &+ d
        if mantissa != 0 { significant += 1 }
      } else {
        exponent += 1
      }
      digits += 1
      i += 1
    }
    guard digits > 0 else { return nil }
    var slow = significant >= 19
    if i < bytes.count && bytes[i] == 0x2E {
      i += 1
      var fraction = 0
      while i < bytes.count, bytes[i] &- 0x30 < 10 {
        if significant < 19 {
          mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
          if mantissa != 0 { significant += 1 }
          exponent -= 1
        } else {
          slow = true
        }
        fraction += 1
        i += 1
      }
      guard fraction > 0 else { return nil }
    }
    if i < bytes.count && (bytes[i] == 0x65 || bytes[i] == 0x45) {
      i += 1
      var expNegative = false
      if i < bytes.count && (bytes[i] == 0x2B || bytes[i] == 0x2D) {
        expNegative = bytes[i] == 0x2D
        i += 1
      }
      var e = 0
      var expDigits = 0
      while i < bytes.count, bytes[i] &- 0x30 < 10 {
        if e < 100_000 { e = e * 10 + Int(bytes[i] &- 0x30) }
        expDigits += 1
        i += 1
      }
      guard expDigits > 0 else { return nil }
      exponent += expNegative ? -e : e
    }
    if !slow && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
      var v = Double(mantissa)
      if exponent < 0 {
        v /= Self.exactPowers[-exponent]
      } else {
        v *= Self.exactPowers[exponent]
      }
      return negative ? -v : v
    }
    // The slow path: the digits as C text.
    let n = i - start
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: n + 1) { buffer in
      for j in 0..<n { buffer[j] = CChar(bitPattern: bytes[start + j]) }
      buffer[n] = 0
      let v = strtod(buffer.baseAddress!, nil)
      return v.isFinite ? v : nil
    }
  }

  /// Consumes a literal (`true`, `false`, `null`).
  mutating func literal(_ word: StaticString) -> Bool {
    skipSpace()
    let n = word.utf8CodeUnitCount
    guard i + n <= bytes.count, memcmp(bytes.baseAddress! + i, word.utf8Start, n) == 0 else {
      return false
    }
    i += n
    return true
  }

  /// Skips one value of any kind; false when it is malformed or nested too deep.
  mutating func skipValue() -> Bool {
    guard let c = peek() else { return false }
    switch c {
    case 0x22: return rawString() != nil
    case 0x7B, 0x5B:
      var depth = 0
      while i < bytes.count {
        let b = bytes[i]
        switch b {
        case 0x7B, 0x5B:
          depth += 1
          if depth > Self.maximumDepth { return false }
          i += 1
        case 0x7D, 0x5D:
          depth -= 1
          i += 1
          if depth == 0 { return true }
        case 0x22:
          if rawString() == nil { return false }
        default:
          i += 1
        }
      }
      return false
    case 0x74: return literal("true")
    case 0x66: return literal("false")
    case 0x6E: return literal("null")
    default: return number() != nil
    }
  }

  /// A property value: a scalar, or a nested value kept as its JSON text.
  mutating func value() -> LiveValue? {
    guard let c = peek() else { return nil }
    switch c {
    case 0x22: return string().map(LiveValue.string)
    case 0x7B, 0x5B:
      let start = i
      guard skipValue() else { return nil }
      return .json(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
    case 0x74: return literal("true") ? .bool(true) : nil
    case 0x66: return literal("false") ? .bool(false) : nil
    case 0x6E: return literal("null") ? .null : nil
    default: return number().map(LiveValue.number)
    }
  }

  /// A general value as a tree (for gpsd reports and aircraft.json, not the hot path).
  mutating func node(depth: Int = 0) -> JSONNode? {
    guard depth < Self.maximumDepth, let c = peek() else { return nil }
    switch c {
    case 0x7B:
      i += 1
      var fields: [(String, JSONNode)] = []
      if take(0x7D) { return .object(fields) }
      repeat {
        guard let k = string(), take(0x3A), let v = node(depth: depth + 1) else { return nil }
        fields.append((k, v))
      } while take(0x2C)
      return take(0x7D) ? .object(fields) : nil
    case 0x5B:
      i += 1
      var items: [JSONNode] = []
      if take(0x5D) { return .array(items) }
      repeat {
        guard let v = node(depth: depth + 1) else { return nil }
        items.append(v)
      } while take(0x2C)
      return take(0x5D) ? .array(items) : nil
    default:
      guard let v = value() else { return nil }
      return .scalar(v)
    }
  }
}

/// A JSON value as a small tree: what the gpsd and aircraft.json readers take apart.
indirect enum JSONNode {
  case object([(String, JSONNode)])
  case array([JSONNode])
  case scalar(LiveValue)

  /// A field of an object (the first with that key).
  subscript(_ key: String) -> JSONNode? {
    guard case .object(let fields) = self else { return nil }
    return fields.first { $0.0 == key }?.1
  }

  var number: Double? {
    if case .scalar(.number(let v)) = self { return v }
    return nil
  }

  var string: String? {
    if case .scalar(.string(let s)) = self { return s }
    return nil
  }

  var bool: Bool? {
    if case .scalar(.bool(let b)) = self { return b }
    return nil
  }

  var scalar: LiveValue? {
    if case .scalar(let v) = self { return v }
    return nil
  }
}
