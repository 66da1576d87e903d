import MapGeometry

/// A compile error: MapLibre's message and the key path inside the expression (`[2][1]`).
public struct ExpressionParseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The path of the offending part (`""` for the whole expression).
  public let key: String
  /// The message, as MapLibre words it.
  public let message: String

  /// "`key`: `message`", or the message alone when the key is empty.
  public var description: String { key.isEmpty ? message : "\(key): \(message)" }
}

/// The property keys the expressions of a style read, each with a slot number.
///
/// Compile every expression of a style with the same table; a renderer then resolves each
/// slot to a tile layer's key index once per layer.
public struct PropertyKeys: Sendable {
  /// The keys in slot order.
  public private(set) var names: [String] = []
  private var slots: [String: Int] = [:]

  /// An empty table.
  public init() {}

  /// The slot of `key`, added if new.
  public mutating func slot(for key: String) -> Int {
    if let s = slots[key] { return s }
    slots[key] = names.count
    names.append(key)
    return names.count - 1
  }

  /// The slot of `key`, or nil when no expression reads it.
  public func existingSlot(for key: String) -> Int? { slots[key] }
}

enum TypeAnnotation { case assert, coerce, omit }

enum Signature {
  case fixed([ExpressionType])
  case varargs(ExpressionType)

  var text: String {
    switch self {
    case .fixed(let ts): return "(" + ts.map(\.description).joined(separator: ", ") + ")"
    case .varargs(let t): return "(\(t)...)"
    }
  }
}

struct Definition {
  let type: ExpressionType
  let overloads: [(Signature, Op)]
}

private let num = ExpressionType.number
private let str = ExpressionType.string
private let bool = ExpressionType.boolean

let compoundDefinitions: [String: Definition] = {
  var d: [String: Definition] = [:]
  func one(_ name: String, _ type: ExpressionType, _ sig: Signature, _ op: Op) {
    d[name] = Definition(type: type, overloads: [(sig, op)])
  }
  one("error", .error, .fixed([str]), .error)
  one("typeof", str, .fixed([.value]), .typeOf)
  one("to-rgba", .array(num, length: 4), .fixed([.color]), .toRGBA)
  one("rgb", .color, .fixed([num, num, num]), .rgb)
  one("rgba", .color, .fixed([num, num, num, num]), .rgba)
  d["has"] = Definition(
    type: bool, overloads: [(.fixed([str]), .has), (.fixed([str, .object]), .hasIn)])
  d["get"] = Definition(
    type: .value, overloads: [(.fixed([str]), .get), (.fixed([str, .object]), .getFrom)])
  one("feature-state", .value, .fixed([str]), .featureState)
  one("properties", .object, .fixed([]), .properties)
  one("geometry-type", str, .fixed([]), .geometryType)
  one("id", .value, .fixed([]), .id)
  one("zoom", num, .fixed([]), .zoom)
  one("heatmap-density", num, .fixed([]), .heatmapDensity)
  one("elevation", num, .fixed([]), .elevation)
  one("line-progress", num, .fixed([]), .lineProgress)
  one("accumulated", .value, .fixed([]), .accumulated)
  one("+", num, .varargs(num), .plus)
  one("*", num, .varargs(num), .times)
  d["-"] = Definition(
    type: num, overloads: [(.fixed([num, num]), .minus), (.fixed([num]), .negate)])
  one("/", num, .fixed([num, num]), .divide)
  one("%", num, .fixed([num, num]), .mod)
  one("ln2", num, .fixed([]), .ln2)
  one("pi", num, .fixed([]), .pi)
  one("e", num, .fixed([]), .e)
  one("^", num, .fixed([num, num]), .pow)
  for (name, op) in [
    ("sqrt", Op.sqrt), ("log10", .log10), ("ln", .ln), ("log2", .log2), ("sin", .sin),
    ("cos", .cos), ("tan", .tan), ("asin", .asin), ("acos", .acos), ("atan", .atan),
    ("abs", .abs), ("round", .round), ("floor", .floor), ("ceil", .ceil),
  ] {
    one(name, num, .fixed([num]), op)
  }
  one("min", num, .varargs(num), .min)
  one("max", num, .varargs(num), .max)
  one("filter-==", bool, .fixed([str, .value]), .filterEq)
  one("filter-id-==", bool, .fixed([.value]), .filterIdEq)
  one("filter-type-==", bool, .fixed([str]), .filterTypeEq)
  one("filter-<", bool, .fixed([str, .value]), .filterLt)
  one("filter-id-<", bool, .fixed([.value]), .filterIdLt)
  one("filter->", bool, .fixed([str, .value]), .filterGt)
  one("filter-id->", bool, .fixed([.value]), .filterIdGt)
  one("filter-<=", bool, .fixed([str, .value]), .filterLe)
  one("filter-id-<=", bool, .fixed([.value]), .filterIdLe)
  one("filter->=", bool, .fixed([str, .value]), .filterGe)
  one("filter-id->=", bool, .fixed([.value]), .filterIdGe)
  one("filter-has", bool, .fixed([.value]), .filterHas)
  one("filter-has-id", bool, .fixed([]), .filterHasId)
  one("filter-type-in", bool, .fixed([.array(str, length: nil)]), .filterTypeIn)
  one("filter-id-in", bool, .fixed([.array(.value, length: nil)]), .filterIdIn)
  one("filter-in-small", bool, .fixed([str, .array(.value, length: nil)]), .filterInSmall)
  one("filter-in-large", bool, .fixed([str, .array(.value, length: nil)]), .filterInLarge)
  d["all"] = Definition(
    type: bool, overloads: [(.fixed([bool, bool]), .all2), (.varargs(bool), .allN)])
  d["any"] = Definition(
    type: bool, overloads: [(.fixed([bool, bool]), .any2), (.varargs(bool), .anyN)])
  one("!", bool, .fixed([bool]), .not)
  one("is-supported-script", bool, .fixed([str]), .isSupportedScript)
  one("upcase", str, .fixed([str]), .upcase)
  one("downcase", str, .fixed([str]), .downcase)
  one("concat", str, .varargs(.value), .concat)
  one("split", .array(str, length: nil), .fixed([str, str]), .split)
  one("join", str, .fixed([.array(str, length: nil), str]), .join)
  return d
}()

/// Operators MapLibre has that termmap reports as unsupported (they need a GPU, images or a
/// locale collator).
let unsupportedOperators: Set<String> = [
  "collator", "resolved-locale", "image", "global-state", "config",
]

let specialForms: Set<String> = [
  "let", "var", "literal", "array", "string", "number", "boolean", "object", "to-boolean",
  "to-number", "to-string", "to-color", "at", "in", "index-of", "slice", "length", "case",
  "match", "coalesce", "step", "interpolate", "interpolate-hcl", "interpolate-lab", "==", "!=",
  "<", ">", "<=", ">=", "format", "number-format", "within", "distance", "semiliteral",
]

/// Whether `name` is an expression operator (MapLibre's registry, unsupported ones included).
func isOperatorName(_ name: String) -> Bool {
  compoundDefinitions[name] != nil || specialForms.contains(name)
    || unsupportedOperators.contains(name)
}

final class ParsingContext {
  var path: [Int]
  var key: String { path.map { "[\($0)]" }.joined() }
  var scope: [(String, Node)]
  var errors: ErrorSink
  var expectedType: ExpressionType?
  var keys: KeySink

  final class ErrorSink {
    var list: [ExpressionParseError] = []
  }
  final class KeySink {
    var table: PropertyKeys
    init(_ t: PropertyKeys) { table = t }
  }

  init(
    path: [Int], expected: ExpressionType?, scope: [(String, Node)], errors: ErrorSink,
    keys: KeySink
  ) {
    self.path = path
    self.expectedType = expected
    self.scope = scope
    self.errors = errors
    self.keys = keys
  }

  func concat(_ index: Int?, _ expected: ExpressionType? = nil, _ bindings: [(String, Node)]? = nil)
    -> ParsingContext
  {
    ParsingContext(
      path: index.map { path + [$0] } ?? path, expected: expected,
      scope: bindings.map { scope + $0 } ?? scope, errors: errors, keys: keys)
  }

  @discardableResult
  func error(_ message: String, _ keys: Int...) -> Node? {
    errors.list.append(
      ExpressionParseError(key: key + keys.map { "[\($0)]" }.joined(), message: message))
    return nil
  }

  @discardableResult
  func checkSubtype(_ expected: ExpressionType, _ t: ExpressionType) -> String? {
    let e = expected.subtypeError(t)
    if let e { error(e) }
    return e
  }

  func lookup(_ name: String) -> Node? { scope.last { $0.0 == name }?.1 }

  /// MapLibre's `ParsingContext.parse`: index 0 or nil keeps the path.
  func parse(
    _ expr: StyleValue, _ index: Int? = nil, _ expected: ExpressionType? = nil,
    _ bindings: [(String, Node)]? = nil, annotation: TypeAnnotation? = nil
  ) -> Node? {
    if let index, index != 0 {
      return concat(index, expected, bindings).parseHere(expr, annotation)
    }
    if expected != nil || bindings != nil {
      return concat(nil, expected, bindings).parseHere(expr, annotation)
    }
    return parseHere(expr, annotation)
  }

  func parseHere(_ input: StyleValue, _ annotation: TypeAnnotation?) -> Node? {
    var expr = input
    switch input {
    case .null, .string, .boolean, .number: expr = .array([.string("literal"), input])
    default: break
    }
    switch expr {
    case .array(let items):
      guard let first = items.first else {
        return error(
          "Expected an array with at least one element. If you wanted a literal array, use [\"literal\", []]."
        )
      }
      guard case .string(let op) = first else {
        let t: String
        switch first {
        case .number: t = "number"
        case .boolean: t = "boolean"
        default: t = "object"
        }
        return error(
          "Expression name must be a string, but found \(t) instead. If you wanted a literal array, use [\"literal\", [...]].",
          0)
      }
      guard isOperatorName(op) else {
        return error(
          "Unknown expression \"\(SafeName.clean(op))\". If you wanted a literal array, use [\"literal\", [...]].",
          0)
      }
      guard var parsed = parseOperator(op, items) else { return nil }
      if let expected = expectedType {
        let actual = parsed.type
        let k = expected.kind
        if ["string", "number", "boolean", "object", "array"].contains(k) && actual == .value {
          parsed = annotate(parsed, expected, annotation ?? .assert)
        } else if ["color", "formatted", "resolvedImage"].contains(k)
          && (actual == .value || actual == .string)
        {
          parsed = annotate(parsed, expected, annotation ?? .coerce)
        } else if k == "padding" && ["value", "number", "array"].contains(actual.kind) {
          parsed = annotate(parsed, expected, annotation ?? .coerce)
        } else if checkSubtype(expected, actual) != nil {
          return nil
        }
      }
      if !parsed.isLiteral && parsed.type != .resolvedImage && parsed.isFoldable {
        do {
          let v = try parsed.evaluate(EvalContext(zoom: nil, feature: nil))
          parsed = Node(.literal(v), parsed.type)
        } catch {
          return self.error(error.message)
        }
      }
      return parsed
    case .object: return error("Bare objects invalid. Use [\"literal\", {...}] instead.")
    default: return error("Expected an array, but found \(input.expressionType.kind) instead.")
    }
  }

  func annotate(_ node: Node, _ type: ExpressionType, _ a: TypeAnnotation) -> Node {
    switch a {
    case .assert: return Node(.assertion([node]), type, path: key)
    case .coerce: return Node(.coercion([node]), type, path: key)
    case .omit: return node
    }
  }

  // MARK: operators

  func parseOperator(_ op: String, _ args: [StyleValue]) -> Node? {
    if unsupportedOperators.contains(op) {
      return error(
        "\"\(op)\" is not supported by termmap (it needs images, a GPU or a locale collator).", 0)
    }
    switch op {
    case "literal": return parseLiteral(args)
    case "semiliteral": return parseSemiliteral(args)
    case "array", "string", "number", "boolean", "object": return parseAssertion(op, args)
    case "to-boolean", "to-number", "to-string", "to-color": return parseCoercion(op, args)
    case "let": return parseLet(args)
    case "var": return parseVar(args)
    case "at": return parseAt(args)
    case "in": return parseIn(args)
    case "index-of": return parseIndexOf(args)
    case "slice": return parseSlice(args)
    case "length": return parseLength(args)
    case "case": return parseCase(args)
    case "match": return parseMatch(args)
    case "coalesce": return parseCoalesce(args)
    case "step": return parseStep(args)
    case "interpolate", "interpolate-hcl", "interpolate-lab": return parseInterpolate(op, args)
    case "==", "!=", "<", ">", "<=", ">=": return parseComparison(CompareOp(rawValue: op)!, args)
    case "format": return parseFormat(args)
    case "number-format": return parseNumberFormat(args)
    case "within", "distance": return parseGeo(op, args)
    default: return parseCompound(op, args)
    }
  }

  func parseLiteral(_ args: [StyleValue]) -> Node? {
    guard args.count == 2 else {
      return error(
        "'literal' expression requires exactly one argument, but found \(args.count - 1) instead.")
    }
    var type = args[1].expressionType
    if case .array(_, let n) = type, n == 0, let expected = expectedType,
      case .array(_, let en) = expected,
      en == nil || en == 0
    {
      type = expected
    }
    return Node(.literal(args[1]), type)
  }

  func parseSemiliteral(_ args: [StyleValue]) -> Node? {
    guard args.count == 2 else {
      return error(
        "'semiliteral' expression requires exactly one argument, but found \(args.count - 1) instead."
      )
    }
    guard case .array(let items) = args[1] else {
      return Node(.literal(args[1]), args[1].expressionType)
    }
    var parsed = [Node]()
    for item in items {
      guard let p = parse(item, nil, .value) else { return nil }
      parsed.append(p)
    }
    var element: ExpressionType? = nil
    for p in parsed {
      if let e = element {
        if e == p.type && !e.isArray { continue }
        element = .value
        break
      }
      element = p.type
    }
    return Node(.semiliteral(parsed), .array(element ?? .value, length: parsed.count))
  }

  func parseAssertion(_ name: String, _ args: [StyleValue]) -> Node? {
    guard args.count >= 2 else { return error("Expected at least one argument.") }
    var i = 1
    let type: ExpressionType
    if name == "array" {
      var item = ExpressionType.value
      if args.count > 2 {
        guard case .string(let t) = args[1], ["string", "number", "boolean"].contains(t) else {
          return error(
            "The item type argument of \"array\" must be one of string, number, boolean", 1)
        }
        item = t == "string" ? .string : t == "number" ? .number : .boolean
        i += 1
      }
      var n: Int? = nil
      if args.count > 3 {
        switch args[2] {
        case .null: break
        case .number(let v) where v >= 0 && v == v.rounded(.down) && v < 1e9: n = Int(v)
        default:
          return error("The length argument to \"array\" must be a positive integer literal", 2)
        }
        i += 1
      }
      type = .array(item, length: n)
    } else {
      type =
        name == "string"
        ? .string : name == "number" ? .number : name == "boolean" ? .boolean : .object
    }
    var parsed = [Node]()
    while i < args.count {
      guard let p = parse(args[i], i, .value) else { return nil }
      parsed.append(p)
      i += 1
    }
    return Node(.assertion(parsed), type, path: key)
  }

  func parseCoercion(_ name: String, _ args: [StyleValue]) -> Node? {
    guard args.count >= 2 else { return error("Expected at least one argument.") }
    if (name == "to-boolean" || name == "to-string") && args.count != 2 {
      return error("Expected one argument.")
    }
    let type: ExpressionType =
      name == "to-boolean"
      ? .boolean : name == "to-color" ? .color : name == "to-number" ? .number : .string
    var parsed = [Node]()
    for i in 1..<args.count {
      guard let p = parse(args[i], i, .value) else { return nil }
      parsed.append(p)
    }
    return Node(.coercion(parsed), type, path: key)
  }

  func parseLet(_ args: [StyleValue]) -> Node? {
    guard args.count >= 4 else {
      return error("Expected at least 3 arguments, but found \(args.count - 1) instead.")
    }
    var bindings: [(String, Node)] = []
    var i = 1
    while i < args.count - 1 {
      guard case .string(let name) = args[i] else {
        return error("Expected string, but found \(args[i].expressionType.kind) instead.", i)
      }
      if name.unicodeScalars.contains(where: { !isNameCharacter($0) }) {
        return error("Variable names must contain only alphanumeric characters or '_'.", i)
      }
      guard let value = parse(args[i + 1], i + 1) else { return nil }
      bindings.append((name, value))
      i += 2
    }
    guard let result = parse(args[args.count - 1], args.count - 1, expectedType, bindings) else {
      return nil
    }
    return Node(.letIn(bindings: bindings.map(\.1), result: result), result.type)
  }

  func parseVar(_ args: [StyleValue]) -> Node? {
    guard args.count == 2, case .string(let name) = args[1] else {
      return error("'var' expression requires exactly one string literal argument.")
    }
    guard let bound = lookup(name) else {
      let n = SafeName.clean(name)
      return error(
        "Unknown variable \"\(n)\". Make sure \"\(n)\" has been bound in an enclosing \"let\" expression before using it.",
        1)
    }
    return Node(.variable(name, bound), bound.type)
  }

  func parseAt(_ args: [StyleValue]) -> Node? {
    guard args.count == 3 else {
      return error("Expected 2 arguments, but found \(args.count - 1) instead.")
    }
    let index = parse(args[1], 1, .number)
    let input = parse(args[2], 2, .array(expectedType ?? .value, length: nil))
    guard let index, let input else { return nil }
    guard case .array(let item, _) = input.type else { return nil }
    return Node(.at(index, input), item, path: key)
  }

  func needleTypeOK(_ t: ExpressionType) -> Bool {
    ["boolean", "string", "number", "null", "value"].contains(t.kind)
  }

  func parseIn(_ args: [StyleValue]) -> Node? {
    guard args.count == 3 else {
      return error("Expected 2 arguments, but found \(args.count - 1) instead.")
    }
    let needle = parse(args[1], 1, .value)
    let haystack = parse(args[2], 2, .value)
    guard let needle, let haystack else { return nil }
    guard needleTypeOK(needle.type) else {
      return error(
        "Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead"
      )
    }
    return Node(.inOp(needle, haystack), .boolean, path: key)
  }

  func parseIndexOf(_ args: [StyleValue]) -> Node? {
    guard args.count > 2 && args.count < 5 else {
      return error("Expected 2 or 3 arguments, but found \(args.count - 1) instead.")
    }
    let needle = parse(args[1], 1, .value)
    let haystack = parse(args[2], 2, .value)
    guard let needle, let haystack else { return nil }
    guard needleTypeOK(needle.type) else {
      return error(
        "Expected first argument to be of type boolean, string, number or null, but found \(needle.type) instead"
      )
    }
    var from: Node? = nil
    if args.count == 4 {
      guard let f = parse(args[3], 3, .number) else { return nil }
      from = f
    }
    return Node(.indexOf(needle, haystack, from), .number, path: key)
  }

  func parseSlice(_ args: [StyleValue]) -> Node? {
    guard args.count > 2 && args.count < 5 else {
      return error("Expected 2 or 3 arguments, but found \(args.count - 1) instead.")
    }
    let input = parse(args[1], 1, .value)
    let begin = parse(args[2], 2, .number)
    guard let input, let begin else { return nil }
    guard ["array", "string", "value"].contains(input.type.kind) else {
      return error(
        "Expected first argument to be of type array or string, but found \(input.type) instead")
    }
    var end: Node? = nil
    if args.count == 4 {
      guard let e = parse(args[3], 3, .number) else { return nil }
      end = e
    }
    return Node(.slice(input, begin, end), input.type, path: key)
  }

  func parseLength(_ args: [StyleValue]) -> Node? {
    guard args.count == 2 else {
      return error("Expected 1 argument, but found \(args.count - 1) instead.")
    }
    guard let input = parse(args[1], 1) else { return nil }
    guard ["array", "string", "value"].contains(input.type.kind) else {
      return error("Expected argument of type string or array, but found \(input.type) instead.")
    }
    return Node(.length(input), .number, path: key)
  }

  func parseCase(_ args: [StyleValue]) -> Node? {
    guard args.count >= 4 else {
      return error("Expected at least 3 arguments, but found only \(args.count - 1).")
    }
    guard args.count % 2 == 0 else { return error("Expected an odd number of arguments.") }
    var outputType: ExpressionType? = expectedType.flatMap { $0 == .value ? nil : $0 }
    var branches: [(Node, Node)] = []
    var i = 1
    while i < args.count - 1 {
      guard let test = parse(args[i], i, .boolean) else { return nil }
      guard let result = parse(args[i + 1], i + 1, outputType) else { return nil }
      branches.append((test, result))
      outputType = outputType ?? result.type
      i += 2
    }
    guard let otherwise = parse(args[args.count - 1], args.count - 1, outputType) else {
      return nil
    }
    return Node(.caseOf(branches, otherwise), outputType ?? otherwise.type)
  }

  func parseMatch(_ args: [StyleValue]) -> Node? {
    guard args.count >= 5 else {
      return error("Expected at least 4 arguments, but found only \(args.count - 1).")
    }
    guard args.count % 2 == 1 else { return error("Expected an even number of arguments.") }
    var inputType: ExpressionType? = nil
    var outputType: ExpressionType? = expectedType.flatMap { $0 == .value ? nil : $0 }
    var strings: [String: Int] = [:]
    var numbers: [Double: Int] = [:]
    var outputs: [Node] = []
    var i = 2
    while i < args.count - 1 {
      var labels: [StyleValue]
      if case .array(let a) = args[i] { labels = a } else { labels = [args[i]] }
      let labelContext = concat(i)
      if labels.isEmpty { return labelContext.error("Expected at least one branch label.") }
      for label in labels {
        switch label {
        case .number(let n):
          if abs(n) > 9_007_199_254_740_991 {
            return labelContext.error(
              "Branch labels must be integers no larger than 9007199254740991.")
          }
          if n != n.rounded(.down) {
            return labelContext.error("Numeric branch labels must be integer values.")
          }
        case .string: break
        default: return labelContext.error("Branch labels must be numbers or strings.")
        }
        if let t = inputType {
          if labelContext.checkSubtype(t, label.expressionType) != nil { return nil }
        } else {
          inputType = label.expressionType
        }
        switch label {
        case .number(let n):
          if numbers[n] != nil { return labelContext.error("Branch labels must be unique.") }
          numbers[n] = outputs.count
        case .string(let s):
          if strings[s] != nil { return labelContext.error("Branch labels must be unique.") }
          strings[s] = outputs.count
        default: break
        }
      }
      guard let result = parse(args[i + 1], i, outputType) else { return nil }
      outputType = outputType ?? result.type
      outputs.append(result)
      i += 2
    }
    guard let input = parse(args[1], 1, .value) else { return nil }
    guard let otherwise = parse(args[args.count - 1], args.count - 1, outputType) else {
      return nil
    }
    if input.type != .value, let t = inputType, concat(1).checkSubtype(t, input.type) != nil {
      return nil
    }
    return Node(
      .match(
        input: input, strings: strings, numbers: numbers, outputs: outputs, otherwise: otherwise),
      outputType ?? otherwise.type)
  }

  func parseCoalesce(_ args: [StyleValue]) -> Node? {
    guard args.count >= 2 else { return error("Expected at least one argument.") }
    var outputType: ExpressionType? = expectedType.flatMap { $0 == .value ? nil : $0 }
    var parsed = [Node]()
    for arg in args.dropFirst() {
      guard let p = parse(arg, 1 + parsed.count, outputType, nil, annotation: .omit) else {
        return nil
      }
      outputType = outputType ?? p.type
      parsed.append(p)
    }
    let needsAnnotation =
      expectedType.map { e in parsed.contains { e.subtypeError($0.type) != nil } } ?? false
    return Node(.coalesce(parsed), needsAnnotation ? .value : (outputType ?? .value))
  }

  func parseStep(_ args: [StyleValue]) -> Node? {
    guard args.count - 1 >= 4 else {
      return error("Expected at least 4 arguments, but found only \(args.count - 1).")
    }
    guard (args.count - 1) % 2 == 0 else { return error("Expected an even number of arguments.") }
    guard let input = parse(args[1], 1, .number) else { return nil }
    var outputType: ExpressionType? = expectedType.flatMap { $0 == .value ? nil : $0 }
    var labels: [Double] = []
    var outputs: [Node] = []
    var i = 1
    while i < args.count {
      let label: Double
      if i == 1 {
        label = -.infinity
      } else {
        guard case .number(let l) = args[i] else {
          return error(
            "Input/output pairs for \"step\" expressions must be defined using literal numeric values (not computed expressions) for the input values.",
            i)
        }
        label = l
      }
      if let last = labels.last, last >= label {
        return error(
          "Input/output pairs for \"step\" expressions must be arranged with input values in strictly ascending order.",
          i)
      }
      guard let p = parse(args[i + 1], i + 1, outputType) else { return nil }
      outputType = outputType ?? p.type
      labels.append(label)
      outputs.append(p)
      i += 2
    }
    return Node(
      .step(input: input, labels: labels, outputs: outputs), outputType ?? .value, path: key)
  }

  func parseInterpolate(_ op: String, _ args: [StyleValue]) -> Node? {
    guard args.count > 1, case .array(let interp) = args[1], let first = interp.first else {
      return error("Expected an interpolation type expression.", 1)
    }
    let curve: Curve
    switch first {
    case .string("linear"): curve = .linear
    case .string("exponential"):
      guard interp.count > 1, case .number(let base) = interp[1] else {
        return error("Exponential interpolation requires a numeric base.", 1, 1)
      }
      curve = .exponential(base)
    case .string("cubic-bezier"):
      let cps = interp.dropFirst().compactMap { v -> Double? in
        if case .number(let n) = v, n >= 0, n <= 1 { return n }
        return nil
      }
      guard interp.count == 5, cps.count == 4 else {
        return error(
          "Cubic bezier interpolation requires four numeric arguments with values between 0 and 1.",
          1)
      }
      curve = .cubicBezier(cps[0], cps[1], cps[2], cps[3])
    default:
      return error("Unknown interpolation type \(SafeName.clean(valueToString(first)))", 1, 0)
    }
    guard args.count - 1 >= 4 else {
      return error("Expected at least 4 arguments, but found only \(args.count - 1).")
    }
    guard (args.count - 1) % 2 == 0 else { return error("Expected an even number of arguments.") }
    guard let input = parse(args[2], 2, .number) else { return nil }
    var outputType: ExpressionType? = nil
    if op == "interpolate-hcl" || op == "interpolate-lab" {
      outputType = .color
    } else if let e = expectedType, e != .value {
      outputType = e
    }
    var labels: [Double] = []
    var outputs: [Node] = []
    var i = 3
    while i < args.count {
      guard case .number(let label) = args[i] else {
        return error(
          "Input/output pairs for \"interpolate\" expressions must be defined using literal numeric values (not computed expressions) for the input values.",
          i)
      }
      if let last = labels.last, last >= label {
        return error(
          "Input/output pairs for \"interpolate\" expressions must be arranged with input values in strictly ascending order.",
          i)
      }
      guard let p = parse(args[i + 1], i + 1, outputType) else { return nil }
      outputType = outputType ?? p.type
      labels.append(label)
      outputs.append(p)
      i += 2
    }
    let t = outputType ?? .value
    var ok = t == .number || t == .color || t == .padding
    if case .array(.number, let n) = t, n != nil { ok = true }
    guard ok else { return error("Type \(t) is not interpolatable.") }
    let space: ColorSpace = op == "interpolate-hcl" ? .hcl : op == "interpolate-lab" ? .lab : .rgb
    return Node(
      .interpolate(space, curve, input: input, labels: labels, outputs: outputs), t, path: key)
  }

  func parseComparison(_ op: CompareOp, _ args: [StyleValue]) -> Node? {
    guard args.count == 3 || args.count == 4 else {
      return error("Expected two or three arguments.")
    }
    func comparable(_ t: ExpressionType) -> Bool {
      op.isOrder
        ? ["string", "number", "value"].contains(t.kind)
        : ["boolean", "string", "number", "null", "value"].contains(t.kind)
    }
    guard var lhs = parse(args[1], 1, .value) else { return nil }
    guard comparable(lhs.type) else {
      return concat(1).error(
        "\"\(op.rawValue)\" comparisons are not supported for type '\(lhs.type)'.")
    }
    guard var rhs = parse(args[2], 2, .value) else { return nil }
    guard comparable(rhs.type) else {
      return concat(2).error(
        "\"\(op.rawValue)\" comparisons are not supported for type '\(rhs.type)'.")
    }
    if lhs.type.kind != rhs.type.kind && lhs.type != .value && rhs.type != .value {
      return error("Cannot compare types '\(lhs.type)' and '\(rhs.type)'.")
    }
    if op.isOrder {
      if lhs.type == .value && rhs.type != .value {
        lhs = Node(.assertion([lhs]), rhs.type, path: key)
      } else if lhs.type != .value && rhs.type == .value {
        rhs = Node(.assertion([rhs]), lhs.type, path: key)
      }
    }
    if args.count == 4 {
      return error("\"collator\" is not supported by termmap (it needs a locale collator).", 3)
    }
    return Node(.compare(op, lhs, rhs), .boolean, path: key)
  }

  func parseFormat(_ args: [StyleValue]) -> Node? {
    guard args.count >= 2 else { return error("Expected at least one argument.") }
    if case .object = args[1] { return error("First argument must be an image or text section.") }
    var sections: [FormatSectionNode] = []
    var nextMayBeObject = false
    for i in 1..<args.count {
      if nextMayBeObject, case .object(let o) = args[i] {
        nextMayBeObject = false
        var s = sections[sections.count - 1]
        if let v = o["font-scale"], v.truthy {
          guard let p = parse(v, 1, .number) else { return nil }
          s.scale = p
        }
        if let v = o["text-font"], v.truthy {
          guard let p = parse(v, 1, .array(.string, length: nil)) else { return nil }
          s.font = p
        }
        if let v = o["text-color"], v.truthy {
          guard let p = parse(v, 1, .color) else { return nil }
          s.textColor = p
        }
        if let v = o["vertical-align"], v.truthy {
          if case .string(let a) = v, !["bottom", "center", "top"].contains(a) {
            return error(
              "'vertical-align' must be one of: 'bottom', 'center', 'top' but found '\(SafeName.clean(a))' instead."
            )
          }
          guard let p = parse(v, 1, .string) else { return nil }
          s.verticalAlign = p
        }
        sections[sections.count - 1] = s
      } else {
        guard let content = parse(args[i], 1, .value) else { return nil }
        guard ["string", "value", "null", "resolvedImage"].contains(content.type.kind) else {
          return error("Formatted text type must be 'string', 'value', 'image' or 'null'.")
        }
        nextMayBeObject = true
        sections.append(FormatSectionNode(content: content))
      }
    }
    return Node(.format(sections), .formatted)
  }

  func parseNumberFormat(_ args: [StyleValue]) -> Node? {
    guard args.count == 3 else { return error("Expected two arguments.") }
    guard let number = parse(args[1], 1, .number) else { return nil }
    guard case .object(let o) = args[2] else {
      return error("NumberFormat options argument must be an object.")
    }
    func option(_ name: String, _ t: ExpressionType) -> (Node?, Bool) {
      guard let v = o[name], v.truthy else { return (nil, true) }
      guard let p = parse(v, 1, t) else { return (nil, false) }
      return (p, true)
    }
    let (locale, ok1) = option("locale", .string)
    guard ok1 else { return nil }
    let (currency, ok2) = option("currency", .string)
    guard ok2 else { return nil }
    let (unit, ok3) = option("unit", .string)
    guard ok3 else { return nil }
    if currency != nil && unit != nil {
      return error("NumberFormat options `currency` and `unit` are mutually exclusive")
    }
    let (minDigits, ok4) = option("min-fraction-digits", .number)
    guard ok4 else { return nil }
    let (maxDigits, ok5) = option("max-fraction-digits", .number)
    guard ok5 else { return nil }
    return Node(
      .numberFormat(
        number, locale: locale, currency: currency, unit: unit, minDigits: minDigits,
        maxDigits: maxDigits),
      .string)
  }

  func parseGeo(_ op: String, _ args: [StyleValue]) -> Node? {
    guard args.count == 2 else {
      return error(
        "'\(op)' expression requires exactly one argument, but found \(args.count - 1) instead.")
    }
    if op == "within" {
      guard let shape = GeoShape(geoJSON: args[1], polygonsOnly: true) else {
        return error(
          "'within' expression requires valid geojson object that contains polygon geometry type.")
      }
      return Node(.within(shape), .boolean)
    }
    guard let shape = GeoShape(geoJSON: args[1], polygonsOnly: false) else {
      return error(
        "'distance' expression requires valid geojson object that contains polygon geometry type.")
    }
    return Node(.distance(shape), .number)
  }

  func parseCompound(_ op: String, _ args: [StyleValue]) -> Node? {
    guard let def = compoundDefinitions[op] else {
      return error(
        "Unknown expression \"\(SafeName.clean(op))\". If you wanted a literal array, use [\"literal\", [...]].",
        0)
    }
    let overloads = def.overloads.filter { sig, _ in
      if case .fixed(let ps) = sig { return ps.count == args.count - 1 }
      return true
    }
    var lastErrors: [ExpressionParseError] = []
    for (sig, evalOp) in overloads {
      let sink = ErrorSink()
      let sc = ParsingContext(path: path, expected: nil, scope: scope, errors: sink, keys: keys)
      var parsedArgs: [Node] = []
      var failed = false
      for i in 1..<max(1, args.count) where i < args.count {
        let expected: ExpressionType
        switch sig {
        case .fixed(let ps): expected = ps[i - 1]
        case .varargs(let t): expected = t
        }
        guard let p = sc.parse(args[i], 1 + parsedArgs.count, expected) else {
          failed = true
          break
        }
        parsedArgs.append(p)
      }
      if failed {
        lastErrors = sink.list
        continue
      }
      for (i, a) in parsedArgs.enumerated() {
        let expected: ExpressionType
        switch sig {
        case .fixed(let ps): expected = ps[i]
        case .varargs(let t): expected = t
        }
        sc.concat(i + 1).checkSubtype(expected, a.type)
      }
      if sink.list.isEmpty {
        return compoundNode(evalOp, parsedArgs, def.type)
      }
      lastErrors = sink.list
    }
    if overloads.count == 1 {
      errors.list.append(contentsOf: lastErrors)
    } else {
      let shown = overloads.isEmpty ? def.overloads : overloads
      let signatures = shown.map { $0.0.text }.joined(separator: " | ")
      var actual: [String] = []
      for i in 1..<max(1, args.count) where i < args.count {
        guard let p = parse(args[i], 1 + actual.count) else { return nil }
        actual.append(p.type.description)
      }
      error(
        "Expected arguments of type \(signatures), but found (\(actual.joined(separator: ", "))) instead."
      )
    }
    return nil
  }

  /// A compound node, with constant property keys resolved to slots.
  func compoundNode(_ op: Op, _ args: [Node], _ type: ExpressionType) -> Node {
    if op == .get, case .string(let k)? = args[0].literalValue {
      return Node(.property(slot: keys.table.slot(for: k), key: k), type, path: key)
    }
    if op == .has, case .string(let k)? = args[0].literalValue {
      return Node(.hasProperty(slot: keys.table.slot(for: k), key: k), type, path: key)
    }
    switch op {
    case .filterEq, .filterLt, .filterGt, .filterLe, .filterGe, .filterInSmall, .filterInLarge,
      .filterHas:
      // Legacy filters read their property by slot too.
      guard case .string(let k)? = args[0].literalValue else { break }
      let slot = keys.table.slot(for: k)
      let read =
        op == .filterHas
        ? Node(.hasProperty(slot: slot, key: k), .boolean, path: key)
        : Node(.property(slot: slot, key: k), .value, path: key)
      return Node(.call(op, [read] + args.dropFirst()), type, path: key)
    default: break
    }
    return Node(.call(op, args), type, path: key)
  }
}

func isNameCharacter(_ c: Unicode.Scalar) -> Bool {
  (c.value >= 0x41 && c.value <= 0x5A) || (c.value >= 0x61 && c.value <= 0x7A)
    || (c.value >= 0x30 && c.value <= 0x39) || c == "_"
}

/// Text from a style printed in a message: control characters removed (see `SafeText`).
enum SafeName {
  static func clean(_ s: String) -> String {
    let cleaned = SafeText.clean(s)
    return cleaned.count > 200 ? String(cleaned.prefix(200)) + "…" : cleaned
  }
}
