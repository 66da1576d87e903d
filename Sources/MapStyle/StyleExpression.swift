/// The errors of an expression that did not compile.
public struct ExpressionCompileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Each error with its key path, as MapLibre reports them.
  public let errors: [ExpressionParseError]

  /// The errors, `; `-separated.
  public var description: String { errors.map(\.description).joined(separator: "; ") }
}

/// A compiled style-specification expression.
///
/// Compiling parses and type-checks the JSON (MapLibre's rules and messages), folds constant
/// parts to literals and resolves constant property keys (`["get", "class"]`) to slots of a
/// `PropertyKeys` table. `specialized(zoom:)` then evaluates the zoom-only parts once for a
/// tile zoom, leaving a tree that reads only the feature.
public struct StyleExpression: Sendable {
  let root: Node
  /// The result type.
  public let type: ExpressionType
  /// Whether the result does not depend on the feature.
  public let isFeatureConstant: Bool
  /// Whether the result does not depend on the zoom.
  public let isZoomConstant: Bool
  /// Whether the result depends on the feature's properties or id (not only on its geometry
  /// type, as `["==", "$type", "Polygon"]` does).
  public var readsProperties: Bool { root.readsProperties }
  /// The zoom stops of the top-level zoom curve (`step` or `interpolate` on `["zoom"]`), if any.
  public let zoomStops: [Double]?

  init(root: Node, zoomStops: [Double]?) {
    self.root = root
    self.type = root.type
    self.isFeatureConstant = !root.readsFeature
    self.isZoomConstant = !root.readsZoom
    self.zoomStops = zoomStops
  }

  /// Compiles an expression.
  ///
  /// - Parameters:
  ///   - json: the expression (an array such as `["get", "name"]`, or a constant).
  ///   - type: the property's type when known: results are checked against it, and values of
  ///     type `value` are asserted or coerced to it (strings to colours, say), as MapLibre does.
  ///   - keys: the table constant property keys are added to.
  /// - Throws: every error with its key path (`[2]: Expected number but found string instead.`).
  public init(
    _ json: StyleValue, type: ExpressionType? = nil, keys: inout PropertyKeys
  ) throws(ExpressionCompileError) {
    try self.init(json, type: type, zoomCurves: true, keys: &keys)
  }

  /// Compiles an expression; with `zoomCurves`, MapLibre's rules for property expressions
  /// apply (`zoom` only as the input of one top-level `step` or `interpolate`), without them
  /// `zoom` may appear anywhere, as in a filter (MapLibre compiles filters with
  /// `createExpression`, not `createPropertyExpression`).
  init(
    _ json: StyleValue, type: ExpressionType?, zoomCurves: Bool, keys: inout PropertyKeys
  ) throws(ExpressionCompileError) {
    let sink = ParsingContext.ErrorSink()
    let keySink = ParsingContext.KeySink(keys)
    let context = ParsingContext(path: [], expected: type, scope: [], errors: sink, keys: keySink)
    let parsed = context.parse(json, nil, nil, nil, annotation: type == .string ? .coerce : nil)
    keys = keySink.table
    guard let parsed else { throw ExpressionCompileError(errors: sink.list) }
    // MapLibre's zoom rules (createPropertyExpression).
    let zoomConstant = parsed.isGlobalConstant(zoomOnly: true)
    var stops: [Double]? = nil
    switch zoomCurves ? findZoomCurve(parsed) : .none {
    case .none:
      if !zoomConstant && zoomCurves {
        throw ExpressionCompileError(errors: [
          ExpressionParseError(
            key: "",
            message:
              "\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression."
          )
        ])
      }
    case .curve(let node):
      switch node.kind {
      case .step(_, let labels, _), .interpolate(_, _, _, let labels, _): stops = labels
      default: break
      }
    case .error(let message):
      throw ExpressionCompileError(errors: [ExpressionParseError(key: "", message: message)])
    }
    self.init(root: optimize(parsed), zoomStops: stops)
  }

  /// Compiles a layer `filter`: an expression, or a legacy filter (`["==", "class", "x"]`,
  /// `["in", "class", …]`, `["has", "name"]`, `$type`, `$id`) converted as MapLibre converts it.
  public init(filter json: StyleValue, keys: inout PropertyKeys) throws(ExpressionCompileError) {
    let converted = isExpressionFilter(json) ? json : convertLegacyFilter(json)
    try self.init(converted, type: .boolean, zoomCurves: false, keys: &keys)
  }

  /// Compiles a paint or layout property value: a constant, an expression, or a legacy function
  /// (`{"stops": …, "base": …, "property": …, "type": …}`) converted as MapLibre converts it.
  ///
  /// - Parameters:
  ///   - json: the property's value.
  ///   - type: the property's type.
  ///   - interpolated: whether the property interpolates (legacy functions without a `type`
  ///     are then exponential, else interval).
  ///   - keys: the table constant property keys are added to.
  public init(
    propertyValue json: StyleValue, type: ExpressionType, interpolated: Bool = true,
    keys: inout PropertyKeys
  ) throws(ExpressionCompileError) {
    var value = json
    if case .object = json {
      value = convertLegacyFunction(json, type: type, interpolated: interpolated)
    } else if case .array(let a) = json, type.isArray, !isOperatorExpression(a) {
      value = .array([.string("literal"), json])
    }
    try self.init(value, type: type, keys: &keys)
  }

  /// The value when the expression is constant (compiled to a literal).
  public var constantValue: StyleValue? { root.literalValue }

  /// Evaluates the expression for a zoom and a feature.
  ///
  /// - Throws: MapLibre's runtime error (`Expected value to be of type number, but found string
  ///   instead.`) with the path of the sub-expression that raised it.
  public func evaluate(zoom: Double? = nil, feature: (any StyleFeature)? = nil)
    throws(ExpressionRuntimeError)
    -> StyleValue
  {
    try root.evaluate(EvalContext(zoom: zoom, feature: feature))
  }

  /// The expression with every part that does not read the feature evaluated for `zoom`: a
  /// renderer specializes once per tile zoom and evaluates the result per feature.
  public func specialized(zoom: Double) -> StyleExpression {
    StyleExpression(root: specialize(root, zoom: zoom), zoomStops: zoomStops)
  }

  /// The number of nodes in the compiled tree (a measure of what evaluation walks).
  public var nodeCount: Int { count(root) }

  private func count(_ n: Node) -> Int {
    var c = 1
    if case .variable(_, let b) = n.kind { c += count(b) }
    for ch in n.children { c += count(ch) }
    return c
  }
}

/// Folds every part that depends on neither the feature nor the zoom (more than MapLibre's
/// parse-time folding: `let` bindings and annotations too). A part whose evaluation fails is
/// kept, so the error still happens at evaluation.
func optimize(_ node: Node) -> Node {
  if node.isLiteral { return node }
  if case .within = node.kind { return node }
  if case .distance = node.kind { return node }
  let rebuilt = node.mapChildren(optimize)
  if !rebuilt.readsFeature && !rebuilt.readsZoom && !rebuilt.containsErrorCall,
    let v = try? rebuilt.evaluate(EvalContext(zoom: nil, feature: nil))
  {
    return Node(.literal(v), rebuilt.type)
  }
  return rebuilt
}

func specialize(_ node: Node, zoom: Double) -> Node {
  if node.isLiteral { return node }
  if !node.readsFeature && !node.containsErrorCall,
    let v = try? node.evaluate(EvalContext(zoom: zoom, feature: nil))
  {
    return Node(.literal(v), node.type)
  }
  let ctx = EvalContext(zoom: zoom, feature: nil)
  switch node.kind {
  case .step(let input, let labels, let outputs) where !input.readsFeature:
    // A zoom step keeps only the output for this zoom.
    if case .number(let x)? = try? input.evaluate(ctx), let i = try? node.stopIndex(labels, x) {
      return specialize(outputs[labels.count == 1 ? 0 : i], zoom: zoom)
    }
  case .interpolate(let space, let curve, let input, let labels, let outputs)
  where !input.readsFeature:
    // A zoom ramp keeps the two outputs around this zoom and their mixing factor.
    guard case .number(let x)? = try? input.evaluate(ctx) else { break }
    if labels.count == 1 || x <= labels[0] { return specialize(outputs[0], zoom: zoom) }
    if x >= labels[labels.count - 1] { return specialize(outputs[labels.count - 1], zoom: zoom) }
    guard let i = try? node.stopIndex(labels, x) else { break }
    let t = interpolationFactor(curve, x, labels[i], labels[i + 1])
    if t == 0 { return specialize(outputs[i], zoom: zoom) }
    return Node(
      .interpolate(
        space, .linear, input: Node(.literal(.number(t)), .number), labels: [0, 1],
        outputs: [specialize(outputs[i], zoom: zoom), specialize(outputs[i + 1], zoom: zoom)]),
      node.type, path: node.path)
  default: break
  }
  return node.mapChildren { specialize($0, zoom: zoom) }
}

enum ZoomCurveResult {
  case none
  case curve(Node)
  case error(String)
}

/// MapLibre's `findZoomCurve`.
func findZoomCurve(_ node: Node) -> ZoomCurveResult {
  var result: ZoomCurveResult = .none
  switch node.kind {
  case .letIn(_, let r): result = findZoomCurve(r)
  case .coalesce(let args):
    for a in args {
      result = findZoomCurve(a)
      if case .none = result { continue }
      break
    }
  case .step(let input, _, _), .interpolate(_, _, let input, _, _):
    if case .call(.zoom, _) = input.kind { result = .curve(node) }
  default: break
  }
  if case .error = result { return result }
  for child in node.children {
    let childResult = findZoomCurve(child)
    switch (result, childResult) {
    case (_, .error): result = childResult
    case (.none, .curve):
      result = .error(
        "\"zoom\" expression may only be used as input to a top-level \"step\" or \"interpolate\" expression."
      )
    case (.curve(let a), .curve(let b)) where a !== b:
      result = .error(
        "Only one zoom-based \"step\" or \"interpolate\" subexpression may be used in an expression."
      )
    default: break
    }
  }
  return result
}

func isOperatorExpression(_ a: [StyleValue]) -> Bool {
  if case .string(let s)? = a.first { return isOperatorName(s) }
  return false
}

// MARK: legacy filters

enum FilterClass { case legacy, expression, neutral }

func classifyFilter(_ f: StyleValue) -> FilterClass {
  if case .boolean = f { return .neutral }
  guard case .array(let a) = f, case .string(let op)? = a.first else {
    if case .array(let a) = f, !a.isEmpty { return .expression }
    return .legacy
  }
  func isArray(_ v: StyleValue) -> Bool { v.arrayValue != nil }
  switch op {
  case "has":
    if a.count < 2 || a[1] == .string("$id") || a[1] == .string("$type") { return .legacy }
    return a.count == 2 ? .neutral : .expression
  case "in":
    return a.count >= 3 && (a[1].stringValue == nil || isArray(a[2])) ? .expression : .legacy
  case "!in", "!has", "none": return .legacy
  case "==", "!=", ">", ">=", "<", "<=":
    return a.count != 3 || isArray(a[1]) || isArray(a[2]) ? .expression : .legacy
  case "any", "all":
    var sawLegacy = false
    for c in a.dropFirst() {
      switch classifyFilter(c) {
      case .expression: return .expression
      case .legacy: sawLegacy = true
      case .neutral: break
      }
    }
    return sawLegacy ? .legacy : .neutral
  default: return .expression
  }
}

func isExpressionFilter(_ f: StyleValue) -> Bool { classifyFilter(f) != .legacy }

/// MapLibre's `convertFilter`: a legacy filter as an expression of its `filter-*` operators.
func convertLegacyFilter(_ f: StyleValue) -> StyleValue {
  guard case .array(let a) = f, case .string(let op)? = a.first else {
    if case .null = f { return .boolean(true) }
    return .boolean(true)
  }
  if a.count <= 1 { return .boolean(op != "any") }
  func s(_ x: String) -> StyleValue { .string(x) }
  func neg(_ x: StyleValue) -> StyleValue { .array([s("!"), x]) }
  func comparison(_ property: StyleValue, _ value: StyleValue, _ o: String) -> StyleValue {
    switch property.stringValue {
    case "$type": return .array([s("filter-type-\(o)"), value])
    case "$id": return .array([s("filter-id-\(o)"), value])
    default: return .array([s("filter-\(o)"), property, value])
    }
  }
  func inOp(_ property: StyleValue, _ values: [StyleValue]) -> StyleValue {
    if values.isEmpty { return .boolean(false) }
    switch property.stringValue {
    case "$type": return .array([s("filter-type-in"), .array([s("literal"), .array(values)])])
    case "$id": return .array([s("filter-id-in"), .array([s("literal"), .array(values)])])
    default:
      return .array([s("filter-in-small"), property, .array([s("literal"), .array(values)])])
    }
  }
  func has(_ property: StyleValue) -> StyleValue {
    switch property.stringValue {
    case "$type": return .boolean(true)
    case "$id": return .array([s("filter-has-id")])
    default: return .array([s("filter-has"), property])
    }
  }
  let v2 = a.count > 2 ? a[2] : .null
  switch op {
  case "==": return comparison(a[1], v2, "==")
  case "!=": return neg(comparison(a[1], v2, "=="))
  case "<", ">", "<=", ">=": return comparison(a[1], v2, op)
  case "any": return .array([s("any")] + a.dropFirst().map(convertLegacyFilter))
  case "all": return .array([s("all")] + a.dropFirst().map(convertLegacyFilter))
  case "none": return .array([s("all")] + a.dropFirst().map { neg(convertLegacyFilter($0)) })
  case "in": return inOp(a[1], Array(a.dropFirst(2)))
  case "!in": return neg(inOp(a[1], Array(a.dropFirst(2))))
  case "has": return has(a[1])
  case "!has": return neg(has(a[1]))
  default: return .boolean(true)
  }
}

// MARK: legacy functions

/// MapLibre's `convertFunction`: `stops`/`base`/`type`/`property`/`default` as an expression.
func convertLegacyFunction(_ json: StyleValue, type: ExpressionType, interpolated: Bool)
  -> StyleValue
{
  guard case .object(let f) = json else { return json }
  func s(_ x: String) -> StyleValue { .string(x) }
  func literal(_ v: StyleValue) -> StyleValue {
    if case .array = v { return .array([s("literal"), v]) }
    if case .object = v { return .array([s("literal"), v]) }
    return v
  }
  let property = f["property"]
  let functionType = f["type"]?.stringValue ?? (interpolated ? "exponential" : "interval")
  let base = f["base"]?.numberValue ?? 1
  let fallback = f["default"].map(literal) ?? .null
  guard case .array(let rawStops)? = f["stops"] else {
    // identity
    guard let property else { return fallback }
    var args: [StyleValue] = [
      s(type == .color ? "to-color" : type.kind), .array([s("get"), property]),
    ]
    if !fallback.isNull { args.append(fallback) }
    if ["number", "string", "boolean", "color"].contains(type.kind) { return .array(args) }
    return .array([s("get"), property])
  }
  let stops: [(StyleValue, StyleValue)] = rawStops.compactMap {
    guard case .array(let pair) = $0, pair.count == 2 else { return nil }
    return (pair[0], literal(pair[1]))
  }
  guard !stops.isEmpty else { return fallback }
  func curve(_ input: StyleValue, _ stops: [(StyleValue, StyleValue)], _ kind: String) -> StyleValue
  {
    if kind == "exponential" {
      let interp: StyleValue =
        base == 1 ? .array([s("linear")]) : .array([s("exponential"), .number(base)])
      var c: [StyleValue] = [s("interpolate"), interp, input]
      var last: StyleValue? = nil
      for (i, o) in stops where i != last {
        c += [i, o]
        last = i
      }
      if c.count == 5 { c += [.number((stops[0].0.numberValue ?? 0) + 1), c[4]] }
      return .array(c)
    }
    var c: [StyleValue] = [s("step"), input, stops[0].1]
    var last: StyleValue = stops[0].0
    for (i, o) in stops.dropFirst() where i != last {
      c += [i, o]
      last = i
    }
    if c.count == 3 { return stops[0].1 }
    return .array(c)
  }
  if case .object = stops[0].0 {
    // zoom-and-property: a zoom curve whose outputs are property functions per zoom.
    var byZoom: [(Double, [(StyleValue, StyleValue)])] = []
    for (k, o) in stops {
      guard let z = k.objectValue?["zoom"]?.numberValue, let v = k.objectValue?["value"] else {
        continue
      }
      if let last = byZoom.last, last.0 == z {
        byZoom[byZoom.count - 1].1.append((v, o))
      } else {
        byZoom.append((z, [(v, o)]))
      }
    }
    let zoomKind = interpolated ? "exponential" : "interval"
    let outputs: [(StyleValue, StyleValue)] = byZoom.map { z, st in
      var g = f
      g["stops"] = .array(st.map { .array([$0.0, $0.1]) })
      return (.number(z), convertLegacyFunction(.object(g), type: type, interpolated: interpolated))
    }
    return curve(
      .array([s("zoom")]), outputs,
      zoomKind == "exponential" && functionType == "exponential" ? "exponential" : "interval")
  }
  guard let property else {
    // zoom function
    return curve(
      .array([s("zoom")]), stops, functionType == "exponential" ? "exponential" : "interval")
  }
  let get: StyleValue = .array([s("get"), property])
  // Without a default, no match is an evaluation error: the renderer then uses the
  // property's default, as MapLibre does with its null fallback.
  let otherwise: StyleValue =
    fallback.isNull
    ? .array([s("error"), s("no stop matches and the function has no default")]) : fallback
  switch functionType {
  case "categorical":
    if stops.allSatisfy({ $0.0.stringValue != nil || $0.0.numberValue != nil }) {
      var m: [StyleValue] = [s("match"), get]
      var seen: [StyleValue] = []
      for (i, o) in stops where !seen.contains(i) {
        m += [i, o]
        seen.append(i)
      }
      m.append(otherwise)
      return .array(m)
    }
    var c: [StyleValue] = [s("case")]
    for (i, o) in stops { c += [.array([s("=="), get, i]), o] }
    c.append(otherwise)
    return .array(c)
  default:
    let kind = functionType == "exponential" ? "exponential" : "interval"
    let ramp = curve(.array([s("number"), get]), stops, kind)
    if fallback.isNull { return ramp }
    return .array([
      s("case"), .array([s("=="), .array([s("typeof"), get]), s("number")]), ramp, fallback,
    ])
  }
}
