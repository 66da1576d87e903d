import Foundation

extension Node {
  func fail(_ message: String) -> ExpressionRuntimeError {
    ExpressionRuntimeError(message: message, path: path)
  }

  @inline(__always) func number(_ ctx: EvalContext) throws(ExpressionRuntimeError) -> Double {
    if case .number(let n) = try evaluate(ctx) { return n }
    return .nan
  }

  @inline(__always) func bool(_ ctx: EvalContext) throws(ExpressionRuntimeError) -> Bool {
    if case .boolean(let b) = try evaluate(ctx) { return b }
    return false
  }

  func string(_ ctx: EvalContext) throws(ExpressionRuntimeError) -> String {
    if case .string(let s) = try evaluate(ctx) { return s }
    return ""
  }

  func evaluate(_ ctx: EvalContext) throws(ExpressionRuntimeError) -> StyleValue {
    switch kind {
    case .literal(let v): return v
    case .property(let slot, _): return ctx.feature?.value(slot: slot) ?? .null
    case .hasProperty(let slot, _): return .boolean(ctx.feature?.value(slot: slot) != nil)
    case .variable(_, let bound): return try bound.evaluate(ctx)
    case .letIn(_, let result): return try result.evaluate(ctx)
    case .call(let op, let args): return try call(op, args, ctx)
    case .assertion(let args):
      for (i, a) in args.enumerated() {
        let v = try a.evaluate(ctx)
        if type.subtypeError(v.expressionType) == nil { return v }
        if i == args.count - 1 {
          throw fail("Expected value to be of type \(type), but found \(v.expressionType) instead.")
        }
      }
      throw fail("Expected at least one argument.")
    case .coercion(let args): return try coerce(args, ctx)
    case .compare(let op, let l, let r):
      let a = try l.evaluate(ctx)
      let b = try r.evaluate(ctx)
      if op.isOrder && (l.type == .value || r.type == .value) {
        let lt = a.expressionType.kind
        let rt = b.expressionType.kind
        if lt != rt || !(lt == "string" || lt == "number") {
          throw fail(
            "Expected arguments for \"\(op.rawValue)\" to be (string, string) or (number, number), but found (\(lt), \(rt)) instead."
          )
        }
      }
      return .boolean(compareValues(op, a, b))
    case .caseOf(let branches, let otherwise):
      for (test, out) in branches where try test.bool(ctx) { return try out.evaluate(ctx) }
      return try otherwise.evaluate(ctx)
    case .match(let input, let strings, let numbers, let outputs, let otherwise):
      let v = try input.evaluate(ctx)
      switch v {
      case .string(let s):
        // A few labels are compared in turn: no hashing of the feature's string.
        if strings.count <= 8 {
          for (label, i) in strings where label == s { return try outputs[i].evaluate(ctx) }
        } else if let i = strings[s] {
          return try outputs[i].evaluate(ctx)
        }
      case .number(let n): if let i = numbers[n] { return try outputs[i].evaluate(ctx) }
      default: break
      }
      return try otherwise.evaluate(ctx)
    case .coalesce(let args):
      var result = StyleValue.null
      for a in args {
        result = try a.evaluate(ctx)
        if !result.isNull { break }
      }
      return result
    case .step(let input, let labels, let outputs):
      if labels.count == 1 { return try outputs[0].evaluate(ctx) }
      let v = try input.number(ctx)
      return try outputs[stopIndex(labels, v)].evaluate(ctx)
    case .interpolate(let space, let curve, let input, let labels, let outputs):
      if labels.count == 1 { return try outputs[0].evaluate(ctx) }
      let v = try input.number(ctx)
      if v <= labels[0] { return try outputs[0].evaluate(ctx) }
      let n = labels.count
      if v >= labels[n - 1] { return try outputs[n - 1].evaluate(ctx) }
      let i = try stopIndex(labels, v)
      let t = interpolationFactor(curve, v, labels[i], labels[i + 1])
      let lo = try outputs[i].evaluate(ctx)
      let hi = try outputs[i + 1].evaluate(ctx)
      return interpolateValues(space, lo, hi, t)
    case .at(let indexNode, let arrayNode):
      let index = try indexNode.number(ctx)
      guard case .array(let arr) = try arrayNode.evaluate(ctx) else { return .null }
      if index < 0 { throw fail("Array index out of bounds: \(jsNumberString(index)) < 0.") }
      if index >= Double(arr.count) {
        throw fail("Array index out of bounds: \(jsNumberString(index)) > \(arr.count - 1).")
      }
      if index != index.rounded(.down) {
        throw fail("Array index must be an integer, but found \(jsNumberString(index)) instead.")
      }
      return arr[Int(index)]
    case .inOp(let needleNode, let haystackNode):
      let needle = try needleNode.evaluate(ctx)
      let haystack = try haystackNode.evaluate(ctx)
      if !haystack.truthy { return .boolean(false) }
      try checkNeedle(needle)
      switch haystack {
      case .string(let h):
        guard case .string(let n) = needle else {
          // JavaScript's String.indexOf converts the needle to a string.
          return .boolean(h.contains(jsString(needle)))
        }
        return .boolean(n.isEmpty || h.contains(n))
      case .array(let items): return .boolean(items.contains { strictEquals($0, needle) })
      default:
        throw fail(
          "Expected second argument to be of type array or string, but found \(haystack.expressionType) instead."
        )
      }
    case .indexOf(let needleNode, let haystackNode, let fromNode):
      let needle = try needleNode.evaluate(ctx)
      let haystack = try haystackNode.evaluate(ctx)
      try checkNeedle(needle)
      let from = try fromNode.map { n throws(ExpressionRuntimeError) in try n.number(ctx) }
      switch haystack {
      case .string(let h):
        let hs = Array(h.utf16)
        let ns = Array(jsString(needle).utf16)
        var start = Int(
          max(0, min(Double(hs.count), (from ?? 0).isNaN ? 0 : (from ?? 0).rounded(.towardZero))))
        var found = -1
        while start + ns.count <= hs.count {
          if Array(hs[start..<start + ns.count]) == ns {
            found = start
            break
          }
          start += 1
        }
        if found < 0 { return .number(-1) }
        let prefix = String(decoding: hs[0..<found], as: UTF16.self)
        return .number(Double(prefix.unicodeScalars.count))
      case .array(let items):
        var start = Int((from ?? 0).isNaN ? 0 : (from ?? 0).rounded(.towardZero))
        if start < 0 { start = max(0, items.count + start) }
        if start < items.count {
          for i in start..<items.count where strictEquals(items[i], needle) {
            return .number(Double(i))
          }
        }
        return .number(-1)
      default:
        throw fail(
          "Expected second argument to be of type array or string, but found \(haystack.expressionType) instead."
        )
      }
    case .slice(let inputNode, let beginNode, let endNode):
      let input = try inputNode.evaluate(ctx)
      let begin = try beginNode.number(ctx)
      let end = try endNode.map { n throws(ExpressionRuntimeError) in try n.number(ctx) }
      switch input {
      case .string(let s):
        let scalars = Array(s.unicodeScalars)
        let r = jsSliceRange(scalars.count, begin, end)
        var out = String.UnicodeScalarView()
        out.append(contentsOf: scalars[r])
        return .string(String(out))
      case .array(let items):
        return .array(Array(items[jsSliceRange(items.count, begin, end)]))
      default:
        throw fail(
          "Expected first argument to be of type array or string, but found \(input.expressionType) instead."
        )
      }
    case .length(let inputNode):
      let input = try inputNode.evaluate(ctx)
      switch input {
      case .string(let s): return .number(Double(s.unicodeScalars.count))
      case .array(let a): return .number(Double(a.count))
      default:
        throw fail(
          "Expected value to be of type string or array, but found \(input.expressionType) instead."
        )
      }
    case .format(let sections):
      var out = [FormattedText.Section]()
      for s in sections {
        let content = try s.content.evaluate(ctx)
        var section = FormattedText.Section(text: valueToString(content))
        if let n = s.scale { section.scale = try n.number(ctx) }
        if let n = s.font, case .array(let fonts) = try n.evaluate(ctx) {
          section.fontStack = fonts.map(valueToString).joined(separator: ",")
        }
        if let n = s.textColor, case .color(let c) = try n.evaluate(ctx) { section.textColor = c }
        if let n = s.verticalAlign, case .string(let a) = try n.evaluate(ctx) {
          section.verticalAlign = a
        }
        out.append(section)
      }
      return .formatted(FormattedText(sections: out))
    case .numberFormat(let n, let locale, let currency, let unit, let minDigits, let maxDigits):
      let value = try n.number(ctx)
      return .string(
        formatNumber(
          value, locale: try locale?.string(ctx), currency: try currency?.string(ctx),
          unit: try unit?.string(ctx), minFractionDigits: try minDigits?.number(ctx),
          maxFractionDigits: try maxDigits?.number(ctx)))
    case .semiliteral(let items):
      var out = [StyleValue]()
      out.reserveCapacity(items.count)
      for i in items { out.append(try i.evaluate(ctx)) }
      return .array(out)
    case .within(let shape):
      guard let g = ctx.feature?.geometry else { return .boolean(false) }
      return .boolean(shape.contains(geometry: g))
    case .distance(let shape):
      guard let g = ctx.feature?.geometry else { return .number(.nan) }
      return .number(shape.distance(to: g))
    }
  }

  func checkNeedle(_ needle: StyleValue) throws(ExpressionRuntimeError) {
    switch needle {
    case .boolean, .string, .number, .null: return
    default:
      throw fail(
        "Expected first argument to be of type boolean, string, number or null, but found \(needle.expressionType) instead."
      )
    }
  }

  func stopIndex(_ labels: [Double], _ input: Double) throws(ExpressionRuntimeError) -> Int {
    if input <= labels[0] { return 0 }
    let last = labels.count - 1
    if input >= labels[last] { return last }
    var lo = 0
    var hi = last
    while lo <= hi {
      let mid = (lo + hi) / 2
      let cur = labels[mid]
      if cur <= input {
        if mid == last || input < labels[mid + 1] { return mid }
        lo = mid + 1
      } else if cur > input {
        hi = mid - 1
      } else {
        throw fail("Input is not a number.")
      }
    }
    return 0
  }

  func coerce(_ args: [Node], _ ctx: EvalContext) throws(ExpressionRuntimeError) -> StyleValue {
    switch type {
    case .boolean: return .boolean(try args[0].evaluate(ctx).truthy)
    case .color:
      var input = StyleValue.null
      var error: String? = nil
      for a in args {
        input = try a.evaluate(ctx)
        error = nil
        switch input {
        case .color: return input
        case .string(let s): if let c = StyleColor(css: s) { return .color(c) }
        case .array(let items):
          if items.count < 3 || items.count > 4 {
            error =
              "Invalid rgba value \(input.jsonText): expected an array containing either three or four numeric values."
          } else {
            error = validateRGBA(items[0], items[1], items[2], items.count > 3 ? items[3] : nil)
          }
          if error == nil, case .number(let r) = items[0], case .number(let g) = items[1],
            case .number(let b) = items[2]
          {
            let alpha = items.count > 3 ? (items[3].numberValue ?? 1) : 1
            return .color(StyleColor(red: r / 255, green: g / 255, blue: b / 255, alpha: alpha))
          }
        default: break
        }
      }
      if let error { throw fail(error) }
      let shown: String
      if case .string(let s) = input { shown = s } else { shown = input.jsonText }
      throw fail("Could not parse color from value '\(shown)'")
    case .number:
      var value = StyleValue.null
      for a in args {
        value = try a.evaluate(ctx)
        if case .null = value { return .number(0) }
        let n = jsToNumber(value)
        if n.isNaN { continue }
        return .number(n)
      }
      throw fail("Could not convert \(value.jsonText) to number.")
    case .formatted:
      return .formatted(
        FormattedText(sections: [.init(text: valueToString(try args[0].evaluate(ctx)))]))
    default:
      return .string(valueToString(try args[0].evaluate(ctx)))
    }
  }

  func call(_ op: Op, _ a: [Node], _ ctx: EvalContext) throws(ExpressionRuntimeError) -> StyleValue
  {
    func num(_ i: Int) throws(ExpressionRuntimeError) -> Double { try a[i].number(ctx) }
    func n(_ x: Double) -> StyleValue { .number(x) }
    switch op {
    case .error: throw fail(try a[0].string(ctx))
    case .typeOf: return .string(try a[0].evaluate(ctx).expressionType.description)
    case .toRGBA:
      guard case .color(let c) = try a[0].evaluate(ctx) else { return .null }
      let s = c.straight
      return .array([n(s.r * 255), n(s.g * 255), n(s.b * 255), n(s.a)])
    case .rgb, .rgba:
      let r = try a[0].evaluate(ctx)
      let g = try a[1].evaluate(ctx)
      let b = try a[2].evaluate(ctx)
      let alpha = a.count > 3 ? try a[3].evaluate(ctx) : .number(1)
      if let e = validateRGBA(r, g, b, alpha) { throw fail(e) }
      return .color(
        StyleColor(
          red: (r.numberValue ?? 0) / 255, green: (g.numberValue ?? 0) / 255,
          blue: (b.numberValue ?? 0) / 255, alpha: alpha.numberValue ?? 1))
    case .get:
      return ctx.feature?.value(forKey: try a[0].string(ctx)) ?? .null
    case .getFrom:
      let key = try a[0].string(ctx)
      guard case .object(let o) = try a[1].evaluate(ctx) else { return .null }
      return o[key] ?? .null
    case .has:
      return .boolean(ctx.feature?.value(forKey: try a[0].string(ctx)) != nil)
    case .hasIn:
      let key = try a[0].string(ctx)
      guard case .object(let o) = try a[1].evaluate(ctx) else { return .boolean(false) }
      return .boolean(o[key] != nil)
    case .featureState: return .null
    case .properties: return .object(ctx.feature?.properties ?? StyleObject())
    case .geometryType: return ctx.feature?.geometryType.map(StyleValue.string) ?? .null
    case .id: return ctx.feature?.id ?? .null
    case .zoom: return n(ctx.zoom ?? .nan)
    case .heatmapDensity, .lineProgress, .elevation: return n(0)
    case .accumulated: return .null
    case .plus:
      var r = 0.0
      for x in a { r += try x.number(ctx) }
      return n(r)
    case .times:
      var r = 1.0
      for x in a { r *= try x.number(ctx) }
      return n(r)
    case .minus: return n(try num(0) - num(1))
    case .negate: return n(-(try num(0)))
    case .divide: return n(try num(0) / num(1))
    case .mod: return n(try num(0).truncatingRemainder(dividingBy: num(1)))
    case .ln2: return n(M_LN2)
    case .pi: return n(Double.pi)
    case .e: return n(M_E)
    case .pow: return n(Foundation.pow(try num(0), try num(1)))
    case .sqrt: return n(try num(0).squareRoot())
    case .log10: return n(Foundation.log(try num(0)) / M_LN10)
    case .ln: return n(Foundation.log(try num(0)))
    case .log2: return n(Foundation.log(try num(0)) / M_LN2)
    case .sin: return n(Foundation.sin(try num(0)))
    case .cos: return n(Foundation.cos(try num(0)))
    case .tan: return n(Foundation.tan(try num(0)))
    case .asin: return n(Foundation.asin(try num(0)))
    case .acos: return n(Foundation.acos(try num(0)))
    case .atan: return n(Foundation.atan(try num(0)))
    case .min:
      var r = Double.infinity
      for x in a {
        let v = try x.number(ctx)
        if v.isNaN { return n(.nan) }
        r = Swift.min(r, v)
      }
      return n(r)
    case .max:
      var r = -Double.infinity
      for x in a {
        let v = try x.number(ctx)
        if v.isNaN { return n(.nan) }
        r = Swift.max(r, v)
      }
      return n(r)
    case .abs: return n(Swift.abs(try num(0)))
    case .round:
      let v = try num(0)
      return n(v < 0 ? -jsRound(-v) : jsRound(v))
    case .floor: return n(Foundation.floor(try num(0)))
    case .ceil: return n(Foundation.ceil(try num(0)))
    case .all2:
      if !(try a[0].bool(ctx)) { return .boolean(false) }
      return .boolean(try a[1].bool(ctx))
    case .allN:
      for x in a where !(try x.bool(ctx)) { return .boolean(false) }
      return .boolean(true)
    case .any2:
      if try a[0].bool(ctx) { return .boolean(true) }
      return .boolean(try a[1].bool(ctx))
    case .anyN:
      for x in a where try x.bool(ctx) { return .boolean(true) }
      return .boolean(false)
    case .not: return .boolean(!(try a[0].bool(ctx)))
    case .isSupportedScript: return .boolean(true)
    case .upcase: return .string(try a[0].string(ctx).uppercased())
    case .downcase: return .string(try a[0].string(ctx).lowercased())
    case .concat:
      var s = ""
      for x in a { s += valueToString(try x.evaluate(ctx)) }
      return .string(s)
    case .split:
      let s = try a[0].string(ctx)
      let d = try a[1].string(ctx)
      if d.isEmpty { return .array(s.map { .string(String($0)) }) }
      return .array(s.components(separatedBy: d).map(StyleValue.string))
    case .join:
      guard case .array(let items) = try a[0].evaluate(ctx) else { return .string("") }
      let d = try a[1].string(ctx)
      return .string(items.map(valueToString).joined(separator: d))
    case .filterEq, .filterLt, .filterGt, .filterLe, .filterGe:
      return .boolean(legacyCompare(op, try a[0].evaluate(ctx), a[1].literalValue ?? .null))
    case .filterIdEq, .filterIdLt, .filterIdGt, .filterIdLe, .filterIdGe:
      return .boolean(legacyCompare(op, ctx.feature?.id ?? .null, a[0].literalValue ?? .null))
    case .filterTypeEq:
      return .boolean(ctx.feature?.geometryType == a[0].literalValue?.stringValue)
    case .filterHas:
      return try a[0].evaluate(ctx)
    case .filterHasId:
      if case .null = ctx.feature?.id ?? .null { return .boolean(false) }
      return .boolean(true)
    case .filterTypeIn:
      let t = ctx.feature?.geometryType.map(StyleValue.string) ?? .null
      return .boolean(a[0].literalValue?.arrayValue?.contains { strictEquals($0, t) } ?? false)
    case .filterIdIn:
      let id = ctx.feature?.id ?? .null
      return .boolean(a[0].literalValue?.arrayValue?.contains { strictEquals($0, id) } ?? false)
    case .filterInSmall, .filterInLarge:
      let v = try a[0].evaluate(ctx)
      return .boolean(a[1].literalValue?.arrayValue?.contains { strictEquals($0, v) } ?? false)
    }
  }
}

/// JavaScript's `Math.round` (halves go up).
func jsRound(_ x: Double) -> Double { Foundation.floor(x + 0.5) }

/// `===` for values: numbers, strings, booleans and null by value; others never equal.
func strictEquals(_ a: StyleValue, _ b: StyleValue) -> Bool {
  switch (a, b) {
  case (.null, .null): return true
  case (.boolean(let x), .boolean(let y)): return x == y
  case (.number(let x), .number(let y)): return x == y
  case (.string(let x), .string(let y)): return x == y
  default: return false
  }
}

func compareValues(_ op: CompareOp, _ a: StyleValue, _ b: StyleValue) -> Bool {
  switch op {
  case .eq: return strictEquals(a, b)
  case .ne: return !strictEquals(a, b)
  default:
    switch (a, b) {
    case (.number(let x), .number(let y)):
      switch op {
      case .lt: return x < y
      case .gt: return x > y
      case .le: return x <= y
      default: return x >= y
      }
    case (.string(let x), .string(let y)):
      // JavaScript compares strings by UTF-16 code units.
      let c = utf16Compare(x, y)
      switch op {
      case .lt: return c < 0
      case .gt: return c > 0
      case .le: return c <= 0
      default: return c >= 0
      }
    default: return false
    }
  }
}

func utf16Compare(_ x: String, _ y: String) -> Int {
  var i = x.utf16.makeIterator()
  var j = y.utf16.makeIterator()
  while true {
    switch (i.next(), j.next()) {
    case (nil, nil): return 0
    case (nil, _): return -1
    case (_, nil): return 1
    case (let p?, let q?): if p != q { return p < q ? -1 : 1 }
    }
  }
}

/// The legacy filters' comparison: values of the same JavaScript type compared with `<` etc.
func legacyCompare(_ op: Op, _ a: StyleValue, _ b: StyleValue) -> Bool {
  switch op {
  case .filterEq, .filterIdEq: return strictEquals(a, b)
  default: break
  }
  let c: CompareOp
  switch op {
  case .filterLt, .filterIdLt: c = .lt
  case .filterGt, .filterIdGt: c = .gt
  case .filterLe, .filterIdLe: c = .le
  default: c = .ge
  }
  switch (a, b) {
  case (.boolean(let x), .boolean(let y)):
    return compareValues(c, .number(x ? 1 : 0), .number(y ? 1 : 0))
  default: return compareValues(c, a, b)
  }
}

func validateRGBA(_ r: StyleValue, _ g: StyleValue, _ b: StyleValue, _ a: StyleValue?) -> String? {
  func ok(_ v: StyleValue) -> Bool {
    if case .number(let n) = v { return n >= 0 && n <= 255 }
    return false
  }
  func show(_ v: StyleValue) -> String { valueToArrayJoin(v) }
  if !(ok(r) && ok(g) && ok(b)) {
    var parts = [r, g, b]
    if case .number = a ?? .null { parts.append(a!) }
    return
      "Invalid rgba value [\(parts.map(show).joined(separator: ", "))]: 'r', 'g', and 'b' must be between 0 and 255."
  }
  if let a {
    var valid = false
    if case .number(let n) = a { valid = n >= 0 && n <= 1 }
    if !valid {
      return
        "Invalid rgba value [\([r, g, b, a].map(show).joined(separator: ", "))]: 'a' must be between 0 and 1."
    }
  }
  return nil
}

/// How JavaScript's `Array.join` shows an element (null as empty).
func valueToArrayJoin(_ v: StyleValue) -> String {
  if case .null = v { return "" }
  return valueToString(v)
}

/// MapLibre's `valueToString`: null as "", numbers as JavaScript writes them, colours as
/// `rgba(…)`, formatted text as its text, arrays and objects as JSON.
func valueToString(_ v: StyleValue) -> String {
  switch v {
  case .null: return ""
  case .string(let s): return s
  case .number(let n): return jsNumberString(n)
  case .boolean(let b): return b ? "true" : "false"
  case .color(let c): return c.cssString
  case .formatted(let f): return f.plainText
  case .array, .object: return v.jsonText
  }
}

/// JavaScript's `String(value)` for a needle: null is "null".
func jsString(_ v: StyleValue) -> String {
  if case .null = v { return "null" }
  return valueToString(v)
}

/// JavaScript's `Number(value)`.
func jsToNumber(_ v: StyleValue) -> Double {
  switch v {
  case .null: return 0
  case .boolean(let b): return b ? 1 : 0
  case .number(let n): return n
  case .string(let s):
    let t = s.trimmingCharacters(in: .whitespacesAndNewlines)
    if t.isEmpty { return 0 }
    if t.hasPrefix("0x") || t.hasPrefix("0X") {
      return UInt64(t.dropFirst(2), radix: 16).map(Double.init) ?? .nan
    }
    if t == "Infinity" || t == "+Infinity" { return .infinity }
    if t == "-Infinity" { return -.infinity }
    if t.lowercased().contains("inf") || t.lowercased().contains("nan") { return .nan }
    return Double(t) ?? .nan
  case .array(let a):
    if a.isEmpty { return 0 }
    if a.count == 1 { return jsToNumber(.string(valueToString(a[0]))) }
    return .nan
  default: return .nan
  }
}

/// The range `Array.prototype.slice(begin, end)` takes.
func jsSliceRange(_ count: Int, _ begin: Double, _ end: Double?) -> Range<Int> {
  func clamp(_ x: Double) -> Int {
    if x.isNaN { return 0 }
    let t = x.rounded(.towardZero)
    if t < 0 { return max(0, count + Int(max(t, -Double(count) - 1))) }
    return Int(min(t, Double(count)))
  }
  let b = clamp(begin)
  let e = end.map(clamp) ?? count
  return b..<max(b, e)
}

func interpolationFactor(_ curve: Curve, _ input: Double, _ lower: Double, _ upper: Double)
  -> Double
{
  func exponential(_ base: Double) -> Double {
    let difference = upper - lower
    let progress = input - lower
    if difference == 0 { return 0 }
    if base == 1 { return progress / difference }
    return (pow(base, progress) - 1) / (pow(base, difference) - 1)
  }
  switch curve {
  case .linear: return exponential(1)
  case .exponential(let base): return exponential(base)
  case .cubicBezier(let x1, let y1, let x2, let y2):
    return UnitBezier(x1, y1, x2, y2).solve(exponential(1))
  }
}

func interpolateValues(_ space: ColorSpace, _ a: StyleValue, _ b: StyleValue, _ t: Double)
  -> StyleValue
{
  switch (a, b) {
  case (.number(let x), .number(let y)): return .number(x + t * (y - x))
  case (.color(let x), .color(let y)):
    switch space {
    case .rgb: return .color(StyleColor.interpolateRGB(x, y, t))
    case .hcl: return .color(StyleColor.interpolateHCL(x, y, t))
    case .lab: return .color(StyleColor.interpolateLab(x, y, t))
    }
  case (.array(let x), .array(let y)):
    var out = [StyleValue]()
    for i in 0..<min(x.count, y.count) { out.append(interpolateValues(space, x[i], y[i], t)) }
    return .array(out)
  default: return a
  }
}

/// The cubic Bézier easing of `interpolate ["cubic-bezier", x1, y1, x2, y2]` (as in WebKit's
/// and MapLibre's `UnitBezier`).
struct UnitBezier {
  let cx, bx, ax, cy, by, ay: Double
  init(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) {
    cx = 3 * p1x
    bx = 3 * (p2x - p1x) - cx
    ax = 1 - cx - bx
    cy = 3 * p1y
    by = 3 * (p2y - p1y) - cy
    ay = 1 - cy - by
  }
  func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
  func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
  func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }
  func solveCurveX(_ x: Double, _ epsilon: Double = 1e-6) -> Double {
    if x < 0 { return 0 }
    if x > 1 { return 1 }
    var t = x
    for _ in 0..<8 {
      let x2 = sampleX(t) - x
      if Swift.abs(x2) < epsilon { return t }
      let d2 = sampleDerivativeX(t)
      if Swift.abs(d2) < 1e-6 { break }
      t -= x2 / d2
    }
    var t0 = 0.0
    var t1 = 1.0
    t = x
    for _ in 0..<20 {
      let x2 = sampleX(t)
      if Swift.abs(x2 - x) < epsilon { break }
      if x > x2 { t0 = t } else { t1 = t }
      t = (t1 - t0) * 0.5 + t0
    }
    return t
  }
  func solve(_ x: Double) -> Double { sampleY(solveCurveX(x)) }
}

/// `number-format` without a locale library: grouping with commas and a point, as `en-US`
/// does; `currency` as a symbol for the common codes (else the code); `unit` with its short
/// symbol for the common units.
func formatNumber(
  _ value: Double, locale: String?, currency: String?, unit: String?,
  minFractionDigits: Double?, maxFractionDigits: Double?
) -> String {
  let minDigits = Int(minFractionDigits ?? (currency != nil ? 2 : 0))
  let maxDigits = max(
    minDigits, Int(maxFractionDigits ?? (currency != nil ? 2 : Double(max(minDigits, 3)))))
  let negative = value < 0
  let scale = pow(10.0, Double(maxDigits))
  let rounded = (abs(value) * scale).rounded() / scale
  var text = String(format: "%.\(maxDigits)f", rounded)
  if maxDigits > minDigits, text.contains(".") {
    var trim = maxDigits - minDigits
    while trim > 0, text.hasSuffix("0") {
      text.removeLast()
      trim -= 1
    }
    if text.hasSuffix(".") { text.removeLast() }
  }
  let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
  var integer = parts[0]
  var grouped = ""
  while integer.count > 3 {
    grouped = "," + integer.suffix(3) + grouped
    integer.removeLast(3)
  }
  grouped = integer + grouped
  var out = grouped + (parts.count > 1 ? "." + parts[1] : "")
  if let currency {
    let symbols = [
      "USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "CNY": "CN¥", "KRW": "₩",
    ]
    out = (symbols[currency.uppercased()] ?? currency.uppercased() + "\u{A0}") + out
  } else if let unit {
    let units = [
      "meter": "m", "kilometer": "km", "mile": "mi", "foot": "ft", "percent": "%",
      "kilogram": "kg", "second": "sec", "minute": "min", "hour": "hr", "celsius": "°C",
      "fahrenheit": "°F", "liter": "L", "byte": "byte", "kilometer-per-hour": "km/h",
    ]
    let u = units[unit] ?? unit
    out += (u == "%" || u.hasPrefix("°")) ? u : " " + u
  }
  _ = locale
  return negative ? "-" + out : out
}
