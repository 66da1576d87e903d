import Foundation
import MapStyle
import Testing

/// The project's own expression cases (Fixtures/operators.json: every operator, written for
/// termmap in the format of MapLibre's flattened suite), run by the runner `termmap style test`
/// uses.
@Suite("expressions: every operator, MapLibre's messages")
struct ExpressionTests {
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

  @Test("every case in Fixtures/operators.json passes")
  func operatorCases() throws {
    let text = try String(
      contentsOf: Self.fixtures.appendingPathComponent("operators.json"), encoding: .utf8)
    let cases = try ExpressionTestSuite.cases(fromJSON: text)
    #expect(cases.count >= 140)
    let report = ExpressionTestSuite.run(cases)
    for f in report.failures { Issue.record("\(f.name): \(f.reason)") }
    #expect(report.passed == report.total)
  }

  @Test("a failing case says what was expected and what came out")
  func failureReason() throws {
    let text = """
      {"cases": [{"test": "wrong", "expression": ["+", 1, 2], "expect": {"value": 4, "type": "number"}},
                 {"test": "right", "expression": ["upcase", "a"], "expect": {"value": "A", "type": "string"}}]}
      """
    let report = ExpressionTestSuite.run(try ExpressionTestSuite.cases(fromJSON: text))
    #expect(report.total == 2 && report.passed == 1)
    #expect(report.failures.map(\.name) == ["wrong"])
    #expect(report.failures.first?.reason == "expected 4 (number), got 3")
    #expect(report.passRate == 50)
  }

  @Test("compile errors carry MapLibre's key paths")
  func keyPaths() throws {
    var keys = PropertyKeys()
    #expect(throws: ExpressionCompileError.self) {
      try StyleExpression(["+", 1, ["-", "x"]], keys: &keys)
    }
    do {
      _ = try StyleExpression(["case", ["get", "a"], 1, "two"], type: .number, keys: &keys)
      Issue.record("compiled")
    } catch {
      #expect(error.errors.map(\.description) == ["[3]: Expected number but found string instead."])
    }
    do {
      _ = try StyleExpression(
        ["all", true, ["==", ["get", "a"], ["literal", [1]]]], keys: &keys)
      Issue.record("compiled")
    } catch {
      #expect(
        error.description
          == "[2][2]: \"==\" comparisons are not supported for type 'array<number, 1>'.")
    }
  }

  @Test("runtime errors carry the path of the failing part")
  func runtimePath() throws {
    var keys = PropertyKeys()
    let e = try StyleExpression(["+", 1, ["number", ["get", "x"]]], keys: &keys)
    let feature = GeoJSONStyleFeature(
      geoJSON: try StyleValue(json: #"{"type":"Feature","properties":{"x":"a"}}"#), keys: keys)
    do {
      _ = try e.evaluate(feature: feature)
      Issue.record("evaluated")
    } catch {
      #expect(error.message == "Expected value to be of type number, but found string instead.")
      #expect(error.path == "[2]")
    }
  }
}
