import Foundation

/// A value of the style specification: what a style document's JSON holds, and what an
/// expression produces (JSON values, plus colours and formatted text).
///
/// Not `indirect`: arrays and objects hold their elements in heap storage already, so a number,
/// boolean or colour result is built without allocating.
public enum StyleValue: Sendable, Equatable {
  /// JSON `null`.
  case null
  /// `true` or `false`.
  case boolean(Bool)
  /// A number (JSON numbers are doubles, as in JavaScript).
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([StyleValue])
  /// An object, its keys in document order.
  case object(StyleObject)
  /// A colour (an expression's result; never read from JSON).
  case color(StyleColor)
  /// Formatted text, from `format` (an expression's result; never read from JSON).
  case formatted(FormattedText)

  /// The string, when the value is one.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }
  /// The number, when the value is one.
  public var numberValue: Double? {
    if case .number(let n) = self { return n }
    return nil
  }
  /// The array, when the value is one.
  public var arrayValue: [StyleValue]? {
    if case .array(let a) = self { return a }
    return nil
  }
  /// The object, when the value is one.
  public var objectValue: StyleObject? {
    if case .object(let o) = self { return o }
    return nil
  }
  /// Whether the value is `null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// JavaScript truthiness (`to-boolean`): false, 0, NaN, "" and null are false.
  public var truthy: Bool {
    switch self {
    case .null: return false
    case .boolean(let b): return b
    case .number(let n): return n != 0 && !n.isNaN
    case .string(let s): return !s.isEmpty
    default: return true
    }
  }

  /// The value as compact JSON text (colours as `rgba(…)` strings, formatted text as its
  /// sections).
  public var jsonText: String {
    var out = ""
    writeJSON(to: &out)
    return out
  }

  func writeJSON(to out: inout String) {
    switch self {
    case .null: out += "null"
    case .boolean(let b): out += b ? "true" : "false"
    case .number(let n): out += n.isFinite ? jsNumberString(n) : "null"
    case .string(let s): writeJSONString(s, to: &out)
    case .array(let a):
      out += "["
      for (i, v) in a.enumerated() {
        if i > 0 { out += "," }
        v.writeJSON(to: &out)
      }
      out += "]"
    case .object(let o):
      out += "{"
      for i in o.keys.indices {
        if i > 0 { out += "," }
        writeJSONString(o.keys[i], to: &out)
        out += ":"
        o.values[i].writeJSON(to: &out)
      }
      out += "}"
    case .color(let c): writeJSONString(c.cssString, to: &out)
    case .formatted(let f): f.jsonValue.writeJSON(to: &out)
    }
  }
}

/// Expressions written as Swift literals: `["get", "name"]`, `["+", 1, 2.5]`.
extension StyleValue: ExpressibleByArrayLiteral, ExpressibleByStringLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral
{
  /// An array of values.
  public init(arrayLiteral elements: StyleValue...) { self = .array(elements) }
  /// A string.
  public init(stringLiteral value: String) { self = .string(value) }
  /// A number.
  public init(integerLiteral value: Int) { self = .number(Double(value)) }
  /// A number.
  public init(floatLiteral value: Double) { self = .number(value) }
  /// A boolean.
  public init(booleanLiteral value: Bool) { self = .boolean(value) }
}

/// A JSON object with its keys in document order (later duplicates replace earlier values).
public struct StyleObject: Sendable, Equatable {
  /// The keys, in order.
  public private(set) var keys: [String] = []
  /// The values, in the keys' order.
  public private(set) var values: [StyleValue] = []

  /// An empty object.
  public init() {}

  /// An object with these entries in order.
  public init(_ entries: [(String, StyleValue)]) {
    for (k, v) in entries { self[k] = v }
  }

  /// The number of entries.
  public var count: Int { keys.count }

  /// The value for `key`, or nil; setting appends a new key or replaces a value.
  public subscript(key: String) -> StyleValue? {
    get {
      guard let i = keys.firstIndex(of: key) else { return nil }
      return values[i]
    }
    set {
      if let i = keys.firstIndex(of: key) {
        if let v = newValue {
          values[i] = v
        } else {
          keys.remove(at: i)
          values.remove(at: i)
        }
      } else if let v = newValue {
        keys.append(key)
        values.append(v)
      }
    }
  }

  /// Equal when they hold the same keys with equal values, whatever the order.
  public static func == (a: StyleObject, b: StyleObject) -> Bool {
    guard a.count == b.count else { return false }
    for (i, k) in a.keys.enumerated() where b[k] != a.values[i] { return false }
    return true
  }
}

/// Formatted text: the result of `format` (sections of text with their own scale, fonts and
/// colour).
public struct FormattedText: Sendable, Equatable {
  /// One run of text and how it is drawn.
  public struct Section: Sendable, Equatable {
    /// The text.
    public var text: String
    /// The font scale, or nil for the property's.
    public var scale: Double?
    /// The font stack joined with commas, or nil.
    public var fontStack: String?
    /// The text colour, or nil for the property's.
    public var textColor: StyleColor?
    /// `bottom`, `center` or `top`, or nil.
    public var verticalAlign: String?

    /// A section with its text and options.
    public init(
      text: String, scale: Double? = nil, fontStack: String? = nil,
      textColor: StyleColor? = nil, verticalAlign: String? = nil
    ) {
      self.text = text
      self.scale = scale
      self.fontStack = fontStack
      self.textColor = textColor
      self.verticalAlign = verticalAlign
    }
  }
  /// The sections in order.
  public var sections: [Section]

  /// Formatted text of these sections.
  public init(sections: [Section]) { self.sections = sections }

  /// The sections' text run together.
  public var plainText: String { sections.map(\.text).joined() }

  /// The value MapLibre's test suite prints for formatted text.
  var jsonValue: StyleValue {
    .object(
      StyleObject([
        (
          "sections",
          .array(
            sections.map { s in
              .object(
                StyleObject([
                  ("text", .string(s.text)), ("image", .null),
                  ("scale", s.scale.map(StyleValue.number) ?? .null),
                  ("fontStack", s.fontStack.map(StyleValue.string) ?? .null),
                  (
                    "textColor",
                    s.textColor.map { c in
                      .object(
                        StyleObject([
                          ("r", .number(c.r)), ("g", .number(c.g)), ("b", .number(c.b)),
                          ("a", .number(c.a)),
                        ]))
                    } ?? .null
                  ),
                  ("verticalAlign", s.verticalAlign.map(StyleValue.string) ?? .null),
                ]))
            })
        )
      ]))
  }
}

/// A number as JavaScript's `String(n)` writes it: `1`, `0.5`, `1e-7`, `1e+21`.
func jsNumberString(_ n: Double) -> String {
  if n.isNaN { return "NaN" }
  if n.isInfinite { return n < 0 ? "-Infinity" : "Infinity" }
  if n == 0 { return "0" }
  if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
  // Shortest round-trip digits and exponent from Swift, laid out by JavaScript's rules.
  var text = "\(abs(n))"
  var exponent = 0
  if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
    exponent = Int(text[text.index(after: e)...]) ?? 0
    text = String(text[..<e])
  }
  var digits: String
  var pointPosition: Int  // digits before the decimal point
  if let dot = text.firstIndex(of: ".") {
    let intPart = String(text[..<dot])
    let frac = String(text[text.index(after: dot)...])
    digits = intPart + frac
    pointPosition = intPart.count
  } else {
    digits = text
    pointPosition = text.count
  }
  // Strip leading zeros (adjusting the point) and trailing zeros.
  while digits.count > 1, digits.first == "0" {
    digits.removeFirst()
    pointPosition -= 1
  }
  while digits.count > 1, digits.last == "0" { digits.removeLast() }
  let k = digits.count
  let point = pointPosition + exponent  // JavaScript's n
  var out = n < 0 ? "-" : ""
  if k <= point && point <= 21 {
    out += digits + String(repeating: "0", count: point - k)
  } else if 0 < point && point <= 21 {
    let i = digits.index(digits.startIndex, offsetBy: point)
    out += digits[..<i] + "." + digits[i...]
  } else if -6 < point && point <= 0 {
    out += "0." + String(repeating: "0", count: -point) + digits
  } else {
    let e = point - 1
    let mantissa = k == 1 ? digits : String(digits.prefix(1)) + "." + digits.dropFirst()
    out += mantissa + "e" + (e >= 0 ? "+" : "-") + String(abs(e))
  }
  return out
}

func writeJSONString(_ s: String, to out: inout String) {
  out += "\""
  for u in s.unicodeScalars {
    switch u {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    default:
      // Controls, line separators and bidirectional overrides are escaped: the text is safe
      // to print on a terminal and still the same JSON.
      if u.value < 0x20 || (u.value >= 0x7F && u.value < 0xA0) || u.value == 0x2028
        || u.value == 0x2029 || (0x202A...0x202E).contains(u.value)
        || (0x2066...0x2069).contains(u.value)
      {
        out += String(format: "\\u%04x", u.value)
      } else {
        out.unicodeScalars.append(u)
      }
    }
  }
  out += "\""
}
