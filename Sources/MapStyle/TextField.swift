/// Rewrites of a symbol layer's `text-field` JSON, made before it is compiled: legacy `{token}`
/// strings as MapLibre converts them, and a label language put in front of the names as
/// MapLibre's language controls do.
public enum StyleTextField {
  /// A legacy token string as MapLibre's `convertTokenString` converts it: `"{name}"` becomes
  /// `["to-string", ["get", "name"]]`, `"{ref} {name}"` a `concat` of the gets and the text
  /// between them; a string without tokens is returned as it is. A legacy zoom function
  /// (`{"stops": …}` without `property`) has the strings of its stops converted, and is
  /// written as the `step` on the zoom MapLibre makes of it; other values are returned as
  /// they are.
  public static func convertingTokens(_ value: StyleValue) -> StyleValue {
    switch value {
    case .string(let s): return convertTokenString(s)
    case .object(let f):
      // A zoom function (text-field does not interpolate: interval stops).
      guard f["property"] == nil, case .array(let rawStops)? = f["stops"],
        f["type"] == nil || f["type"] == .string("interval")
      else { return value }
      let stops: [(StyleValue, StyleValue)] = rawStops.compactMap {
        guard case .array(let pair) = $0, pair.count == 2, pair[0].numberValue != nil else {
          return nil
        }
        return (pair[0], pair[1])
      }
      guard
        stops.contains(where: {
          if case .string(let s) = $0.1 { return s.contains("{") } else { return false }
        })
      else { return value }
      func output(_ v: StyleValue) -> StyleValue {
        if case .string(let s) = v { return convertTokenString(s) }
        if case .array = v { return .array([.string("literal"), v]) }
        return v
      }
      guard let first = stops.first else { return value }
      if stops.count == 1 { return output(first.1) }
      var step: [StyleValue] = [.string("step"), .array([.string("zoom")]), output(first.1)]
      for (z, o) in stops.dropFirst() { step += [z, output(o)] }
      return .array(step)
    default: return value
    }
  }

  /// MapLibre's `convertTokenString`.
  static func convertTokenString(_ s: String) -> StyleValue {
    var parts: [StyleValue] = []
    var literal = ""
    var i = s.startIndex
    while i < s.endIndex {
      if s[i] == "{",
        let close = s[s.index(after: i)...].firstIndex(where: { $0 == "}" || $0 == "{" }),
        s[close] == "}", close > s.index(after: i)
      {
        if !literal.isEmpty { parts.append(.string(literal)) }
        literal = ""
        parts.append(.array([.string("get"), .string(String(s[s.index(after: i)..<close]))]))
        i = s.index(after: close)
      } else {
        literal.append(s[i])
        i = s.index(after: i)
      }
    }
    if parts.isEmpty { return .string(s) }
    if !literal.isEmpty { parts.append(.string(literal)) }
    if parts.count == 1, case .array = parts[0] { return .array([.string("to-string"), parts[0]]) }
    return .array([.string("concat")] + parts)
  }

  /// The feature properties that hold names in a language, in the order they are tried:
  /// `name:CODE`, `name_CODE`, then the same for the language alone when the code has a
  /// script or region (`zh-Hant`: `name:zh-Hant`, `name_zh-Hant`, `name:zh`, `name_zh`).
  public static func languageKeys(_ code: String) -> [String] {
    var codes = [code]
    if let cut = code.firstIndex(where: { $0 == "-" || $0 == "_" }) {
      codes.append(String(code[..<cut]))
    }
    return codes.flatMap { ["name:\($0)", "name_\($0)"] }
  }

  /// Whether a feature property holds a name a language control replaces: `name`, or `name`
  /// followed by `:` or `_` and more (`name:latin`, `name:nonlatin`, `name_int`, `name_en`).
  public static func isNameKey(_ key: String) -> Bool {
    guard key.hasPrefix("name") else { return false }
    let rest = key.dropFirst(4)
    return rest.isEmpty || (rest.count > 1 && (rest.first == ":" || rest.first == "_"))
  }

  /// A `text-field` (an expression, after `convertingTokens`) with names in a language first,
  /// as MapLibre's language controls put `["coalesce", ["get", "name:xx"], …]` in front of a
  /// style's names: the smallest part of the expression that holds every read of a name
  /// (`["get", "name"]`, `name:latin`, `name_int`, … — see `isNameKey`) becomes
  /// `["coalesce", ["get", "name:CODE"], ["get", "name_CODE"], …, <that part>]`
  /// (`languageKeys`). A field that reads one name has that `get` wrapped; one that joins two
  /// (OpenFreeMap's `name:latin` and `name:nonlatin` on two lines) is wrapped whole, so a name
  /// in the language is not shown twice. The outputs of a zoom `step` or `interpolate` are
  /// rewritten each on its own (the zoom curve must stay on top); `literal` parts are left
  /// alone. An empty code, or a field that reads no name, is returned as it is.
  public static func localized(_ value: StyleValue, to code: String) -> StyleValue {
    guard !code.isEmpty else { return value }
    let keys = languageKeys(code)
    return rewrite(value, keys: keys)
  }

  static func rewrite(_ value: StyleValue, keys: [String]) -> StyleValue {
    guard nameReads(value, keys: keys) > 0, case .array(let a) = value,
      case .string(let op)? = a.first
    else { return value }
    if op == "get" { return wrap(value, keys) }
    if (op == "step" || op == "interpolate"), isZoom(a, op) {
      // The curve stays on top: its outputs (after the input and stops) are rewritten.
      var out = a
      let firstOutput = op == "step" ? 2 : 4
      var i = firstOutput
      while i < out.count {
        out[i] = rewrite(out[i], keys: keys)
        i += 2
      }
      return .array(out)
    }
    let reading = a.indices.dropFirst().filter { nameReads(a[$0], keys: keys) > 0 }
    if reading.count == 1 {
      var out = a
      out[reading[0]] = rewrite(a[reading[0]], keys: keys)
      return .array(out)
    }
    return wrap(value, keys)
  }

  static func wrap(_ value: StyleValue, _ keys: [String]) -> StyleValue {
    .array(
      [.string("coalesce")] + keys.map { .array([.string("get"), .string($0)]) } + [value])
  }

  static func isZoom(_ a: [StyleValue], _ op: String) -> Bool {
    let input = op == "step" ? 1 : 2
    guard a.count > input, case .array(let i) = a[input] else { return false }
    return i == [.string("zoom")]
  }

  /// How many `["get", NAME]` reads of a name `value` holds (outside `literal`), other than
  /// reads of the language's own keys.
  static func nameReads(_ value: StyleValue, keys: [String]) -> Int {
    guard case .array(let a) = value, case .string(let op)? = a.first else { return 0 }
    if op == "literal" { return 0 }
    if op == "get", a.count == 2, case .string(let key) = a[1] {
      return isNameKey(key) && !keys.contains(key) ? 1 : 0
    }
    var n = 0
    for v in a.dropFirst() {
      if case .object(let o) = v {
        // `format` options: their values can be expressions too.
        for x in o.values { n += nameReads(x, keys: keys) }
      } else {
        n += nameReads(v, keys: keys)
      }
    }
    return n
  }
}
