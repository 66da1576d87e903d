/// The type of an expression or value in the style specification's type system.
public indirect enum ExpressionType: Sendable, Equatable, CustomStringConvertible {
  /// `null`.
  case null
  /// `number`.
  case number
  /// `string`.
  case string
  /// `boolean`.
  case boolean
  /// `color`.
  case color
  /// `object`.
  case object
  /// `value`: any of the others.
  case value
  /// `error` (the type of `["error", …]`).
  case error
  /// `collator` (not supported: parsed to report it).
  case collator
  /// `formatted`: text from `format`.
  case formatted
  /// `resolvedImage` (images are not supported).
  case resolvedImage
  /// `padding` (a property type).
  case padding
  /// `array<item, N>`; `length` nil when not fixed.
  case array(ExpressionType, length: Int?)

  /// The name MapLibre prints: `number`, `array<string, 2>`, `array`.
  public var description: String {
    if case .array(let item, let n) = self {
      if let n { return "array<\(item), \(n)>" }
      return item == .value ? "array" : "array<\(item)>"
    }
    return kind
  }

  /// The kind without parameters (`array` for every array type).
  public var kind: String {
    switch self {
    case .null: return "null"
    case .number: return "number"
    case .string: return "string"
    case .boolean: return "boolean"
    case .color: return "color"
    case .object: return "object"
    case .value: return "value"
    case .error: return "error"
    case .collator: return "collator"
    case .formatted: return "formatted"
    case .resolvedImage: return "resolvedImage"
    case .padding: return "padding"
    case .array: return "array"
    }
  }

  var isArray: Bool {
    if case .array = self { return true }
    return false
  }

  private static let valueMembers: [ExpressionType] = [
    .null, .number, .string, .boolean, .color, .formatted, .object, .array(.value, length: nil),
    .padding, .resolvedImage,
  ]

  /// Nil when a value of type `t` may be used where `self` is expected, else MapLibre's
  /// message (`Expected number but found string instead.`).
  public func subtypeError(_ t: ExpressionType) -> String? {
    if t == .error { return nil }
    switch self {
    case .array(let item, let n):
      if case .array(let titem, let tn) = t,
        (tn == 0 && titem == .value) || item.subtypeError(titem) == nil,
        n == nil || n == tn
      {
        return nil
      }
    case .value:
      if t.kind == "value" { return nil }
      for m in Self.valueMembers where m.subtypeError(t) == nil { return nil }
    default:
      if kind == t.kind { return nil }
    }
    return "Expected \(self) but found \(t) instead."
  }
}

extension StyleValue {
  /// The value's type as MapLibre's `typeOf` gives it (`array<number, 3>`; mixed or nested
  /// arrays have item type `value`).
  public var expressionType: ExpressionType {
    switch self {
    case .null: return .null
    case .boolean: return .boolean
    case .number: return .number
    case .string: return .string
    case .color: return .color
    case .formatted: return .formatted
    case .object: return .object
    case .array(let items):
      var item: ExpressionType? = nil
      for v in items {
        let t = v.expressionType
        if let current = item {
          // MapLibre compares type objects by identity: array types never match.
          if current == t && !t.isArray { continue }
          item = .value
          break
        }
        item = t
      }
      return .array(item ?? .value, length: items.count)
    }
  }
}
