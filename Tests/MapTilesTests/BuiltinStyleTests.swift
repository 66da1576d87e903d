import DotRaster
import Foundation
import MapStyle
import Testing

@testable import MapTiles

/// The built-in styles' JSON files, what is compiled into termmap, and the `termmap:` metadata
/// they keep to.
@Suite("built-in styles: the style documents shipped with termmap")
struct BuiltinStyleTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let styles = root.appendingPathComponent("Sources/MapTiles/Styles")
  static let generated = root.appendingPathComponent(
    "Sources/MapTiles/BuiltinStyleDocuments.swift")
  static let record = ProcessInfo.processInfo.environment["TERMMAP_RECORD_STYLES"] == "1"

  /// Every built-in style.
  static let all: [BasemapStyle] = VectorSchema.allCases.flatMap { schema in
    BasemapStyle.Variant.allCases.map { BasemapStyle.forSchema(schema, variant: $0) }
  }

  /// BuiltinStyleDocuments.swift as it must be for the JSON files in Sources/MapTiles/Styles:
  /// each file's text in a raw string literal, by file name.
  static func generatedSource() throws -> String {
    let files = try FileManager.default.contentsOfDirectory(atPath: styles.path)
      .filter { $0.hasSuffix(".json") }.sorted()
    var out = """
      // swift-format-ignore-file
      // Generated from Sources/MapTiles/Styles/*.json: do not edit. After changing a style's JSON,
      // run `TERMMAP_RECORD_STYLES=1 swift test --filter BuiltinStyleTests` to write this file again.

      /// The built-in styles' JSON text by file name (without `.json`), as in Sources/MapTiles/Styles.
      let builtinStyleJSON: [String: String] = [

      """
    for file in files {
      let text = try String(contentsOf: styles.appendingPathComponent(file), encoding: .utf8)
      #expect(!text.contains("\"\"\"#"), "\(file): would end the raw string")
      out += "  \"\(file.dropLast(5))\": #\"\"\"\n"
      for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
        out += line.isEmpty ? "\n" : "    " + line + "\n"
      }
      out += "\n    \"\"\"#,\n"
    }
    return out + "]\n"
  }

  @Test("BuiltinStyleDocuments.swift holds the JSON files as they are")
  func generatedCurrent() throws {
    let expected = try Self.generatedSource()
    if Self.record {
      try expected.write(to: Self.generated, atomically: true, encoding: .utf8)
      return
    }
    let committed = try String(contentsOf: Self.generated, encoding: .utf8)
    #expect(
      committed == expected,
      "Sources/MapTiles/BuiltinStyleDocuments.swift is out of date: run TERMMAP_RECORD_STYLES=1 swift test --filter BuiltinStyleTests"
    )
    // And what is compiled in is those files (the test binary was built from the sources).
    for style in Self.all {
      let file = Self.styles.appendingPathComponent(
        BuiltinStyles.fileName(style.schema, style.variant) + ".json")
      #expect(style.json == (try String(contentsOf: file, encoding: .utf8)), "\(style.name)")
    }
  }

  @Test("each document is valid with no errors, named, and keeps the metadata contract")
  func valid() throws {
    for style in Self.all {
      let json = try StyleValue(json: style.json)
      let report = StyleValidator.validate(json: json)
      #expect(report.errors.isEmpty, "\(style.name): \(report.errors)")
      // What termmap cannot check: the place dot's `icon-image` (an image name).
      #expect(
        report.warnings.allSatisfy { $0.description.contains("icon-image") },
        "\(style.name): \(report.warnings)")
      let document = style.document
      #expect(document.name == style.name)
      #expect(document.usesXtermColors)
      guard case .object(let root) = document.json, case .object(let meta)? = root["metadata"]
      else {
        Issue.record("\(style.name): no metadata")
        continue
      }
      #expect(meta["termmap:schema"] == .string(style.sourceID), "\(style.name)")
      #expect(meta["termmap:variant"] == .string(style.variant.rawValue), "\(style.name)")
      #expect(document.sourceIDs == [style.sourceID])
      // Every layer compiled: none left out.
      guard case .array(let layers)? = root["layers"] else { continue }
      #expect(document.layers.count == layers.count, "\(style.name): \(document.diagnostics)")
      let fills = document.layers.filter { $0.kind == .fill }
      #expect(!fills.isEmpty)
      for fill in fills {
        #expect(StyledDrawPlan.fillPattern(metadata: fill) != nil, "\(style.name) \(fill.id)")
      }
    }
  }

  @Test("the three themes of a schema have the same layers; labels are above lines")
  func sameLayers() {
    for schema in VectorSchema.allCases {
      let ids = BasemapStyle.forSchema(schema, variant: .dark).document.layers.map(\.id)
      for variant in BasemapStyle.Variant.allCases {
        let layers = BasemapStyle.forSchema(schema, variant: variant).document.layers
        #expect(layers.map(\.id) == ids, "\(schema) \(variant)")
        let firstSymbol = layers.firstIndex { $0.kind == .symbol } ?? layers.count
        #expect(layers[firstSymbol...].allSatisfy { $0.kind == .symbol })
      }
    }
  }

  @Test("a style's document is compiled when first asked for, and only that one")
  func lazy() {
    let styles = BuiltinStyles()
    #expect(styles.compiled.isEmpty)
    let entry = styles.entry(.shortbread, .light)
    #expect(styles.compiled == ["shortbread-light"])
    #expect(entry.document.name == "shortbread-light")
    // Asked again: the same compiled layers (the prepared tiles are keyed by them).
    #expect(styles.entry(.shortbread, .light).plan === entry.plan)
    #expect(styles.compiled == ["shortbread-light"])
  }

  @Test("termmap:fill-pattern: a dot mask or a name")
  func fillPatterns() throws {
    func layer(_ metadata: String) throws -> StyleLayer {
      let text = """
        {"version": 8, "sources": {"s": {"type": "vector", "tiles": ["x/{z}/{x}/{y}"]}},
         "layers": [{"id": "a", "type": "fill", "source": "s", "source-layer": "w",
                     "metadata": \(metadata)}]}
        """
      return try #require(try StyleDocument(data: Data(text.utf8)).layers.first)
    }
    #expect(
      StyledDrawPlan.fillPattern(metadata: try layer(#"{"termmap:fill-pattern": 130}"#))
        == DotPattern(bits: 130))
    #expect(
      StyledDrawPlan.fillPattern(metadata: try layer(#"{"termmap:fill-pattern": "hatch"}"#))
        == .hatch)
    #expect(
      StyledDrawPlan.fillPattern(metadata: try layer(#"{"termmap:fill-pattern": "sparse"}"#))
        == .sparse)
    #expect(
      StyledDrawPlan.fillPattern(metadata: try layer(#"{"termmap:fill-pattern": 256}"#)) == nil)
    #expect(
      StyledDrawPlan.fillPattern(metadata: try layer(#"{"termmap:fill-pattern": "dots"}"#)) == nil)
    #expect(StyledDrawPlan.fillPattern(metadata: try layer(#"{}"#)) == nil)
  }
}

/// The colours of a built-in style's layers, as drawn (xterm palette colours).
enum BuiltinColours {
  /// The constant `line-color`, `fill-color` or `text-color` of the layer `id` of `style`.
  static func colour(_ style: BasemapStyle, _ id: String, _ property: String? = nil)
    -> TermColor?
  {
    guard let layer = style.document.layers.first(where: { $0.id == id }) else { return nil }
    let names = property.map { [$0] } ?? ["line-color", "fill-color", "text-color"]
    for name in names {
      if layer.paint[name] != nil, case .color(let c)? = layer.constantProperty(name) {
        return TermColor(c, xterm: true)
      }
    }
    return nil
  }

  /// The constant value of a paint property of layer `id`.
  static func paint(_ style: BasemapStyle, _ id: String, _ name: String) -> StyleValue? {
    style.document.layers.first { $0.id == id }?.paint[name]?.constantValue
  }
}
