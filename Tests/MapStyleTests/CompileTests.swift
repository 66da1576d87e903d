import Foundation
import MapStyle
import Testing

/// A feature that records how it is read: by slot (an index, as a tile layer's key table
/// answers) or by name (a dictionary walk).
final class CountingFeature: StyleFeature {
  var values: [Int: StyleValue] = [:]
  var slotReads = 0
  var keyReads = 0
  /// Properties by name, resolved to the slots of `keys` once.
  init(_ named: [String: StyleValue], keys: PropertyKeys) {
    for (k, v) in named { if let s = keys.existingSlot(for: k) { values[s] = v } }
  }
  func value(slot: Int) -> StyleValue? {
    slotReads += 1
    return values[slot]
  }
  func value(forKey key: String) -> StyleValue? {
    keyReads += 1
    return nil
  }
  var properties: StyleObject { StyleObject() }
  var geometryType: String? { "LineString" }
  var id: StyleValue { .null }
}

@Suite("compiling: constants folded, zoom parts once per zoom, keys as slots")
struct CompileTests {
  @Test("constant parts are folded to one literal")
  func folding() throws {
    var keys = PropertyKeys()
    let e = try StyleExpression(
      ["let", "w", 2, ["*", ["var", "w"], ["+", 1, ["^", 2, 3]]]], keys: &keys)
    #expect(e.constantValue == .number(18))
    #expect(e.nodeCount == 1)
    #expect(e.isFeatureConstant && e.isZoomConstant)
    let step = try StyleExpression(
      ["step", ["zoom"], ["get", "a"], 10, ["get", "b"], 15, ["get", "c"]], type: .number,
      keys: &keys)
    #expect(step.specialized(zoom: 12).nodeCount * 3 < step.nodeCount)
    #expect(
      try step.specialized(zoom: 12).evaluate(feature: CountingFeature(["b": 7], keys: keys))
        == .number(7))
    let colour = try StyleExpression("hsl(0, 100%, 50%)", type: .color, keys: &keys)
    #expect(colour.constantValue == .color(StyleColor(red: 1, green: 0, blue: 0)))
  }

  @Test("property keys become slots shared by a style's expressions; evaluation reads by slot")
  func slots() throws {
    var keys = PropertyKeys()
    let filter = try StyleExpression(filter: ["==", ["get", "class"], "motorway"], keys: &keys)
    let width = try StyleExpression(
      ["match", ["get", "class"], "motorway", 4, ["get", "width"]], type: .number, keys: &keys)
    #expect(keys.names == ["class", "width"])
    let feature = CountingFeature(["class": "motorway"], keys: keys)
    #expect(try filter.evaluate(feature: feature) == .boolean(true))
    #expect(try width.evaluate(feature: feature) == .number(4))
    #expect(feature.slotReads == 2 && feature.keyReads == 0)
  }

  @Test(
    "a filter may use zoom anywhere (Protomaps' POIs: zoom against a feature's min_zoom); a paint property may not"
  )
  func zoomInFilters() throws {
    var keys = PropertyKeys()
    let filter = try StyleExpression(
      filter: [">=", ["zoom"], ["+", ["get", "min_zoom"], 0]], keys: &keys)
    let feature = CountingFeature(["min_zoom": 14], keys: keys)
    #expect(try filter.evaluate(zoom: 15, feature: feature) == .boolean(true))
    #expect(try filter.evaluate(zoom: 13, feature: feature) == .boolean(false))
    #expect(!filter.isZoomConstant)
    #expect(throws: ExpressionCompileError.self) {
      try StyleExpression(
        ["+", ["zoom"], ["get", "min_zoom"]], type: .number, keys: &keys)
    }
  }

  @Test("legacy filters read by slot too, as the expressions MapLibre converts them to")
  func legacyFilters() throws {
    var keys = PropertyKeys()
    let cases: [(StyleValue, [String: StyleValue], Bool)] = [
      (["==", "class", "park"], ["class": "park"], true),
      (["!=", "class", "park"], ["class": "park"], false),
      (["in", "class", "park", "forest"], ["class": "forest"], true),
      (["!in", "class", "park", "forest"], ["class": "forest"], false),
      (["has", "class"], [:], false),
      (["!has", "class"], [:], true),
      (["==", "$type", "LineString"], [:], true),
      (["all", ["==", "class", "park"], ["!has", "name"]], ["class": "park"], true),
      (["none", ["==", "class", "park"]], ["class": "park"], false),
      (["<", "rank", 3], ["rank": 2], true),
      (["<", "rank", 3], ["rank": "2"], false),
    ]
    for (filter, values, want) in cases {
      let e = try StyleExpression(filter: filter, keys: &keys)
      let feature = CountingFeature(values, keys: keys)
      let got = try e.evaluate(feature: feature)
      #expect(got == .boolean(want), "\(filter.jsonText)")
      #expect(feature.keyReads == 0)
    }
    #expect(keys.names == ["class", "name", "rank"])
  }

  @Test("specialized(zoom:) evaluates the zoom parts once; what is left reads only the feature")
  func specialization() throws {
    var keys = PropertyKeys()
    let e = try StyleExpression(
      [
        "interpolate", ["linear"], ["zoom"], 10, ["*", 1, ["get", "w"]], 20,
        ["*", 3, ["get", "w"]],
      ], type: .number, keys: &keys)
    #expect(!e.isZoomConstant && !e.isFeatureConstant)
    #expect(e.zoomStops == [10, 20])
    let atZoom15 = e.specialized(zoom: 15)
    #expect(atZoom15.isZoomConstant)
    let feature = CountingFeature(["w": 2], keys: keys)
    #expect(try atZoom15.evaluate(feature: feature) == .number(4))
    #expect(try e.evaluate(zoom: 15, feature: feature) == .number(4))
    let step = try StyleExpression(
      ["step", ["zoom"], ["get", "a"], 10, ["get", "b"], 15, ["get", "c"]], type: .number,
      keys: &keys)
    #expect(step.specialized(zoom: 12).nodeCount * 3 < step.nodeCount)
    #expect(
      try step.specialized(zoom: 12).evaluate(feature: CountingFeature(["b": 7], keys: keys))
        == .number(7))
    let colour = try StyleExpression(
      ["interpolate", ["linear"], ["zoom"], 0, "#000000", 10, "#ffffff"], type: .color, keys: &keys)
    #expect(
      colour.specialized(zoom: 5).constantValue
        == .color(StyleColor(red: 0.5, green: 0.5, blue: 0.5)))
  }

  @Test("legacy functions: zoom stops, categorical and identity, as MapLibre converts them")
  func legacyFunctions() throws {
    var keys = PropertyKeys()
    let zoom = try StyleExpression(
      propertyValue: try StyleValue(json: #"{"base": 2, "stops": [[0, 0], [2, 3]]}"#),
      type: .number,
      keys: &keys)
    #expect(try zoom.evaluate(zoom: 1) == .number(1))
    let categorical = try StyleExpression(
      propertyValue: try StyleValue(
        json:
          #"{"property": "kind", "type": "categorical", "stops": [["a", "red"]], "default": "blue"}"#
      ),
      type: .color, keys: &keys)
    #expect(
      try categorical.evaluate(feature: CountingFeature([:], keys: keys))
        == .color(StyleColor(red: 0, green: 0, blue: 1)))
  }
}

@Suite("JSON: values, errors with byte offsets, bounds")
struct JSONTests {
  @Test("parses values and prints them back as JavaScript would")
  func roundTrip() throws {
    let v = try StyleValue(
      json: #" {"a": [1, 2.5, -0.000001, 1e21, true, null], "b": "x\"\u00e9\n"} "#)
    #expect(v.jsonText == #"{"a":[1,2.5,-0.000001,1e+21,true,null],"b":"x\"é\n"}"#)
    #expect(try StyleValue(json: "1e-7").jsonText == "1e-7")
    #expect(try StyleValue(json: "123456789012").jsonText == "123456789012")
  }

  @Test(
    "errors give the byte offset",
    arguments: [
      ("[1, 2", "Unexpected end of JSON text at byte 5"),
      ("{\"a\" 1}", "Expected ':' at byte 5"),
      ("[01]", "Leading zero in a number at byte 1"),
      ("[1] x", "Unexpected text after the JSON value at byte 4"),
      ("\"abc", "Unterminated string at byte 0"),
    ])
  func errors(text: String, message: String) {
    do {
      _ = try StyleValue(json: text)
      Issue.record("parsed \(text)")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test("nesting deeper than the bound is refused, not a stack overflow")
  func depth() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: JSONSyntaxError.self) { try StyleValue(json: deep) }
    let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
    #expect((try? StyleValue(json: fine)) != nil)
  }
}

@Suite("style documents checked with JSON paths")
struct StyleValidatorTests {
  @Test("errors name the JSON path; unknown properties are warnings")
  func paths() throws {
    let style = try StyleValue(
      json: """
        {"version": 8, "sources": {"osm": {"type": "vector", "url": "https://example.com/t.json"}},
         "layers": [
          {"id": "bg", "type": "background", "paint": {"background-color": "#fff"}},
          {"id": "roads", "type": "line", "source": "osm", "source-layer": "transportation",
           "filter": ["==", ["get", "class"], 3, 4, 5],
           "paint": {"line-width": ["+", 1, "wide"], "line-colour": "red", "line-opacity": "0.5",
                     "line-color": "#ggg"}},
          {"id": "roads", "type": "fill", "source": "nowhere", "source-layer": "x", "minzoom": 30},
          {"id": "water", "type": "fill", "source": "osm"}
         ]}
        """)
    let r = StyleValidator.validate(json: style)
    #expect(
      r.errors.map(\.description) == [
        "layers[1].filter: Expected two or three arguments.",
        "layers[1].paint.line-width[2]: Expected number but found string instead.",
        "layers[1].paint.line-opacity: number expected, string found",
        "layers[1].paint.line-color: color expected, \"#ggg\" found",
        "layers[2]: duplicate layer id \"roads\"",
        "layers[2]: source \"nowhere\" not found",
        "layers[2].minzoom: 30 is greater than the maximum value 24",
        "layers[3]: layer \"water\" must specify a \"source-layer\"",
      ])
    #expect(
      r.warnings.map(\.description) == [
        "layers[1].paint.line-colour: not a line paint property termmap knows; not checked"
      ])
    #expect(r.layerCount == 4 && r.sourceCount == 1)
  }
}
