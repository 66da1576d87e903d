import Foundation
import MapGeometry

/// A property's value as a live message carried it: a JSON scalar, or a nested object or
/// array kept as its JSON text.
public enum LiveValue: Sendable, Equatable {
  /// A string (unescaped).
  case string(String)
  /// A number.
  case number(Double)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null
  /// A nested object or array, as its JSON text.
  case json(String)

  /// The value as JSON text.
  public var jsonText: String {
    switch self {
    case .string(let s): return JSONText.quoted(s)
    case .number(let v): return JSONText.number(v)
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    case .json(let t): return t
    }
  }

  /// The value as shown to a person: a string as it is, a number without a needless `.0`,
  /// control characters removed.
  public var displayText: String {
    switch self {
    case .string(let s): return SafeText.clean(s)
    case .number(let v): return JSONText.number(v)
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    case .json(let t): return SafeText.clean(t)
    }
  }

  /// The number this value holds (a number, or a string that reads as one).
  public var numberValue: Double? {
    switch self {
    case .number(let v): return v
    case .string(let s): return Double(s.trimmingCharacters(in: .whitespaces))
    default: return nil
    }
  }

  /// The text of a string or a number (nil for the rest).
  public var textValue: String? {
    switch self {
    case .string(let s): return s
    case .number(let v): return JSONText.number(v)
    default: return nil
    }
  }
}

/// One property of a target: a key and its value.
public struct LiveProperty: Sendable, Equatable {
  /// The property's name.
  public var key: String
  /// Its value.
  public var value: LiveValue
  /// A property.
  public init(_ key: String, _ value: LiveValue) {
    self.key = key
    self.value = value
  }
}

/// Writing JSON text.
enum JSONText {
  /// A string as a JSON string literal.
  static func quoted(_ s: String) -> String {
    var out = "\""
    out.reserveCapacity(s.utf8.count + 2)
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if u.value < 0x20 || u.value == 0x7F || (0x80...0x9F).contains(u.value) {
          out += String(format: "\\u%04x", u.value)
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    out += "\""
    return out
  }

  /// A number as JSON: integers without a fraction, others with the shortest exact digits;
  /// not-a-number and infinities (which JSON cannot hold) as null.
  static func number(_ v: Double) -> String {
    guard v.isFinite else { return "null" }
    if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    return "\(v)"
  }
}
