import Foundation
import MapGeometry
import MapStyle

/// `termmap style validate|eval|test`: tools for style authors (see docs/styles.md).
enum StyleCommand {
  static func errorLine(_ text: String) {
    FileHandle.standardError.write(Data("termmap: \(SafeText.clean(text))\n".utf8))
  }

  /// The text of a file, or nil after printing why not (too large, unreadable, not UTF-8).
  static func readText(_ path: String) -> String? {
    let shown = SafeText.clean(path)
    guard let handle = FileHandle(forReadingAtPath: path) else {
      let exists = FileManager.default.fileExists(atPath: path)
      errorLine("\(shown): \(exists ? "cannot read the file" : "no such file")")
      return nil
    }
    defer { try? handle.close() }
    let data = (try? handle.read(upToCount: StyleValue.maximumJSONBytes + 1)) ?? Data()
    if data.count > StyleValue.maximumJSONBytes {
      errorLine("\(shown): larger than \(StyleValue.maximumJSONBytes >> 20) MiB")
      return nil
    }
    guard let text = String(data: data, encoding: .utf8) else {
      errorLine("\(shown): not UTF-8 text")
      return nil
    }
    return text
  }

  static func eval(_ c: Termmap.StyleEval) throws -> Int32 {
    var zoom: Double? = nil
    if let z = c.zoom {
      guard let v = Double(z), v.isFinite else {
        throw UsageError("--zoom: expected a number, got \(SafeText.clean(z))")
      }
      zoom = v
    }
    var type: ExpressionType? = nil
    if let t = c.type {
      let types: [String: ExpressionType] = [
        "number": .number, "string": .string, "boolean": .boolean, "color": .color,
        "formatted": .formatted, "object": .object, "array": .array(.value, length: nil),
      ]
      guard let v = types[t] else {
        throw UsageError(
          "--type: expected number, string, boolean, color, formatted, object or array, got \(SafeText.clean(t))"
        )
      }
      type = v
    }
    let json: StyleValue
    do {
      json = try StyleValue(json: c.expression)
    } catch {
      errorLine("expression: \(error)")
      return 2
    }
    var featureJSON: StyleValue? = nil
    if let f = c.feature {
      do {
        featureJSON = try StyleValue(json: f)
      } catch {
        errorLine("--feature: \(error)")
        return 2
      }
      guard featureJSON?.objectValue != nil else {
        errorLine("--feature: expected a GeoJSON Feature object")
        return 2
      }
    }
    var keys = PropertyKeys()
    let compiled: StyleExpression
    do {
      if case .object = json, let type {
        compiled = try StyleExpression(propertyValue: json, type: type, keys: &keys)
      } else {
        compiled = try StyleExpression(json, type: type, keys: &keys)
      }
    } catch {
      errorLine(error.description)
      return 2
    }
    let feature = featureJSON.map { GeoJSONStyleFeature(geoJSON: $0, keys: keys) }
    do {
      let value = try compiled.evaluate(zoom: zoom, feature: feature)
      Output.write(value.jsonText + "\n")
      return 0
    } catch {
      errorLine(error.path.isEmpty ? error.message : "\(error.path): \(error.message)")
      return 2
    }
  }

  static func test(_ c: Termmap.StyleTest) -> Int32 {
    guard let text = readText(c.file) else { return 2 }
    let cases: [ExpressionTestCase]
    do {
      cases = try ExpressionTestSuite.cases(fromJSON: text)
    } catch {
      errorLine("\(SafeText.clean(c.file)): \(error)")
      return 2
    }
    var out = ""
    var failures = 0
    for testCase in cases {
      if let reason = ExpressionTestSuite.run(testCase) {
        failures += 1
        out += "FAIL \(testCase.name): \(SafeText.clean(reason))\n"
      } else if c.verbose {
        out += "pass \(testCase.name)\n"
      }
    }
    let passed = cases.count - failures
    let rate = cases.isEmpty ? 100 : Double(passed) * 100 / Double(cases.count)
    out += "\(passed) of \(cases.count) cases passed (\(String(format: "%.1f", rate)) %)\n"
    Output.write(out)
    return failures == 0 ? 0 : 1
  }

  static func validate(_ c: Termmap.StyleValidate) -> Int32 {
    guard let text = readText(c.file) else { return 2 }
    let shown = SafeText.clean(c.file)
    let report: StyleValidationReport
    do {
      report = StyleValidator.validate(json: try StyleValue(json: text))
    } catch {
      errorLine("\(shown): \(error)")
      return 2
    }
    var err = ""
    for w in report.warnings { err += "termmap: warning: \(SafeText.clean(w.description))\n" }
    for e in report.errors { err += "termmap: \(SafeText.clean(e.description))\n" }
    if !err.isEmpty { FileHandle.standardError.write(Data(err.utf8)) }
    if !report.errors.isEmpty { return 2 }
    let w = report.warnings.count
    Output.write(
      "\(shown): valid: \(report.layerCount) layers, \(report.sourceCount) sources, "
        + "\(report.expressionCount) expressions compiled, \(w) warning\(w == 1 ? "" : "s")\n")
    return 0
  }
}
