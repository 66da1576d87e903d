import Foundation

/// A GeoJSON feature as an expression sees it (`get`, `id`, `geometry-type`, `within`…).
public final class GeoJSONStyleFeature: StyleFeature, Sendable {
  /// All properties.
  public let properties: StyleObject
  /// The GeoJSON geometry's type name, nil without geometry.
  public let geometryType: String?
  /// The feature id, `.null` when it has none.
  public let id: StyleValue
  /// The GeoJSON geometry object.
  public let geometry: StyleValue?
  private let slots: [StyleValue?]

  /// A feature from a GeoJSON `Feature` object (or a bare geometry), its properties resolved
  /// to the slots of `keys` once.
  public init(geoJSON: StyleValue, keys: PropertyKeys) {
    let o = geoJSON.objectValue ?? StyleObject()
    let isFeature = o["type"]?.stringValue == "Feature"
    properties = (isFeature ? o["properties"]?.objectValue : nil) ?? StyleObject()
    id = isFeature ? (o["id"] ?? .null) : .null
    let g = isFeature ? o["geometry"] : (o["coordinates"] != nil ? geoJSON : nil)
    geometry = g?.isNull == true ? nil : g
    geometryType = geometry?.objectValue?["type"]?.stringValue
    let props = properties
    slots = keys.names.map { props[$0] }
  }

  /// The property in `slot`.
  public func value(slot: Int) -> StyleValue? { slot < slots.count ? slots[slot] : nil }
  /// The property named `key`.
  public func value(forKey key: String) -> StyleValue? { properties[key] }
}

/// One case of an expression test file: an expression, its inputs and the expected result.
///
/// The file format is the flattened form of MapLibre's `test/integration/expression` fixtures:
/// `{"cases": [{"test": "name", "expression": …, "zoom": 5, "feature": {GeoJSON Feature},
/// "propertySpec": {"type": "color"}, "expect": {"value": …, "type": "number"} or
/// {"error": "message"}}]}` (a bare array of cases works too). A compile error is expected as
/// its message; an evaluation error as `layers[0].paint.some-property<path>: <message>`, as
/// MapLibre's test harness prints it.
public struct ExpressionTestCase: Sendable {
  /// The case's name.
  public var name: String
  /// The expression (or legacy function object).
  public var expression: StyleValue
  /// The zoom, if given.
  public var zoom: Double?
  /// The feature (GeoJSON), if given.
  public var feature: StyleValue?
  /// The property type from `propertySpec`, if given.
  public var propertyType: ExpressionType?
  /// The expected result: `{"value", "type"}` or `{"error"}`.
  public var expect: StyleObject
}

/// The outcome of running expression test cases.
public struct ExpressionTestReport: Sendable {
  /// A failed case and why.
  public struct Failure: Sendable {
    /// The case's name.
    public let name: String
    /// What was expected and what came out.
    public let reason: String
  }
  /// How many cases ran.
  public let total: Int
  /// The failures, in file order.
  public let failures: [Failure]
  /// How many passed.
  public var passed: Int { total - failures.count }
  /// The pass rate in percent (100 for an empty file).
  public var passRate: Double { total == 0 ? 100 : Double(passed) * 100 / Double(total) }
}

/// Runs expression test files (see `ExpressionTestCase` for the format).
public enum ExpressionTestSuite {
  /// The root key MapLibre's harness puts before runtime error paths.
  public static let rootKey = "layers[0].paint.some-property"

  /// Reads the cases of a test file.
  ///
  /// - Throws: `JSONSyntaxError`, or a message when the JSON is not a list of cases.
  public static func cases(fromJSON text: String) throws -> [ExpressionTestCase] {
    let doc = try StyleValue(json: text)
    let list: [StyleValue]
    if case .array(let a) = doc {
      list = a
    } else if case .array(let a)? = doc.objectValue?["cases"] {
      list = a
    } else {
      throw ExpressionTestFileError(message: "expected {\"cases\": [...]} or an array of cases")
    }
    var out: [ExpressionTestCase] = []
    for (i, item) in list.enumerated() {
      guard case .object(let o) = item, let expression = o["expression"],
        case .object(let expect)? = o["expect"]
      else {
        throw ExpressionTestFileError(
          message: "case \(i): needs \"expression\" and an \"expect\" object")
      }
      let name = o["test"]?.stringValue ?? o["name"]?.stringValue ?? "case \(i)"
      var type: ExpressionType? = nil
      if case .object(let spec)? = o["propertySpec"] { type = propertyType(spec) }
      out.append(
        ExpressionTestCase(
          name: SafeName.clean(name), expression: expression, zoom: o["zoom"]?.numberValue,
          feature: o["feature"].flatMap { $0.isNull ? nil : $0 }, propertyType: type, expect: expect
        ))
    }
    return out
  }

  /// The expression type of a property specification (`{"type": "array", "value": "number"}`).
  public static func propertyType(_ spec: StyleObject) -> ExpressionType? {
    switch spec["type"]?.stringValue {
    case "color": return .color
    case "string", "enum": return .string
    case "number": return .number
    case "boolean": return .boolean
    case "formatted": return .formatted
    case "padding": return .padding
    case "resolvedImage": return .resolvedImage
    case "array":
      let item: ExpressionType
      switch spec["value"]?.stringValue {
      case "number": item = .number
      case "string": item = .string
      case "boolean": item = .boolean
      default: item = .value
      }
      return .array(item, length: spec["length"]?.numberValue.map { Int($0) })
    default: return nil
    }
  }

  /// Runs one case; nil when it passes, else the reason.
  public static func run(_ c: ExpressionTestCase) -> String? {
    var keys = PropertyKeys()
    let compiled: StyleExpression
    do {
      if case .object = c.expression {
        compiled = try StyleExpression(
          propertyValue: c.expression, type: c.propertyType ?? .value, keys: &keys)
      } else {
        compiled = try StyleExpression(c.expression, type: c.propertyType, keys: &keys)
      }
    } catch {
      let got = error.errors.first?.message ?? "?"
      if let want = c.expect["error"]?.stringValue {
        return want == got ? nil : "expected compile error \(quote(want)), got \(quote(got))"
      }
      return "expected \(expected(c)), got compile error \(quote(got))"
    }
    let feature = c.feature.map { GeoJSONStyleFeature(geoJSON: $0, keys: keys) }
    let output: StyleValue
    do {
      output = try compiled.evaluate(zoom: c.zoom, feature: feature)
    } catch {
      let got = "\(rootKey)\(error.path): \(error.message)"
      if let want = c.expect["error"]?.stringValue {
        return want == got ? nil : "expected error \(quote(want)), got \(quote(got))"
      }
      return "expected \(expected(c)), got error \(quote(got))"
    }
    if let want = c.expect["error"]?.stringValue {
      return "expected error \(quote(want)), got \(resultJSON(output)) (\(compiled.type))"
    }
    let wantType = c.expect["type"]?.stringValue
    if let wantType, wantType != compiled.type.description {
      return "expected type \(wantType), got \(compiled.type) (value \(resultJSON(output)))"
    }
    let got = testValue(output)
    if !deepEqual(got, c.expect["value"] ?? .null) {
      return "expected \(expected(c)), got \(got.jsonText)"
    }
    return nil
  }

  /// Runs every case.
  public static func run(_ cases: [ExpressionTestCase]) -> ExpressionTestReport {
    var failures: [ExpressionTestReport.Failure] = []
    for c in cases {
      if let reason = run(c) {
        failures.append(.init(name: c.name, reason: SafeName.clean(reason)))
      }
    }
    return ExpressionTestReport(total: cases.count, failures: failures)
  }

  /// A result as MapLibre's harness records it: colours as `[r, g, b, a]` premultiplied,
  /// formatted text as its sections, non-finite numbers as null.
  static func testValue(_ v: StyleValue) -> StyleValue {
    switch v {
    case .color(let c): return .array([.number(c.r), .number(c.g), .number(c.b), .number(c.a)])
    case .formatted(let f): return f.jsonValue
    case .number(let n): return n.isFinite ? v : .null
    case .array(let a): return .array(a.map(testValue))
    default: return v
    }
  }

  static func resultJSON(_ v: StyleValue) -> String { testValue(v).jsonText }

  static func expected(_ c: ExpressionTestCase) -> String {
    "\((c.expect["value"] ?? .null).jsonText) (\(c.expect["type"]?.stringValue ?? "?"))"
  }

  static func quote(_ s: String) -> String { "\"\(s)\"" }

  /// The harness's comparison: numbers to 6 significant figures, objects by keys.
  static func deepEqual(_ a: StyleValue, _ b: StyleValue) -> Bool {
    switch (a, b) {
    case (.number(let x), .number(let y)): return stripPrecision(x) == stripPrecision(y)
    case (.array(let x), .array(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { deepEqual($0, $1) }
    case (.object(let x), .object(let y)):
      guard x.count == y.count else { return false }
      for (i, k) in x.keys.enumerated() {
        guard let v = y[k], deepEqual(x.values[i], v) else { return false }
      }
      return true
    default: return a == b
    }
  }

  static func stripPrecision(_ x: Double, _ figures: Double = 6) -> Double {
    if x == 0 { return x }
    let multiplier = pow(10, max(0, figures - ceil(log10(abs(x)))))
    let first = (x * multiplier).rounded(.down) / multiplier
    return (first * multiplier).rounded(.down) / multiplier
  }
}

/// A test file that is JSON but not a list of cases.
public struct ExpressionTestFileError: Error, Sendable, CustomStringConvertible {
  /// What is wrong.
  public let message: String
  /// The message.
  public var description: String { message }
}
