import Foundation
import MapStyle
import Testing

/// A symbol layer's `text-field` rewritten before it is compiled: legacy tokens as MapLibre
/// converts them, a label language put in front of the names.
@Suite("text-field: legacy tokens and the label language")
struct TextFieldTests {
  static func json(_ text: String) throws -> StyleValue {
    try StyleValue(jsonBytes: Array(text.utf8))
  }

  /// `value` compiled as a text-field and evaluated for a feature with `properties`.
  static func text(_ value: StyleValue, _ properties: StyleObject, zoom: Double = 10) throws
    -> String?
  {
    var keys = PropertyKeys()
    let e = try StyleExpression(
      propertyValue: value, type: .formatted, interpolated: false, keys: &keys)
    let feature = PropertiesFeature(properties, keys: keys)
    switch try e.evaluate(zoom: zoom, feature: feature) {
    case .formatted(let f): return f.plainText
    case .string(let s): return s
    default: return nil
    }
  }

  @Test("tokens: one token, text around tokens, no token, braces that are not tokens")
  func tokens() throws {
    #expect(
      StyleTextField.convertingTokens("{name}")
        == (try Self.json(#"["to-string", ["get", "name"]]"#)))
    #expect(
      StyleTextField.convertingTokens("{ref} {name:latin}!")
        == (try Self.json(#"["concat", ["get", "ref"], " ", ["get", "name:latin"], "!"]"#)))
    #expect(StyleTextField.convertingTokens("Monaco") == "Monaco")
    #expect(
      StyleTextField.convertingTokens("{}{{x}")
        == (try Self.json(#"["concat", "{}{", ["get", "x"]]"#)))
    // A zoom function's stops: a step on the zoom.
    let f = try Self.json(#"{"stops": [[0, "{ref}"], [14, "{name}"]]}"#)
    #expect(
      StyleTextField.convertingTokens(f)
        == (try Self.json(
          #"["step", ["zoom"], ["to-string", ["get", "ref"]], 14, ["to-string", ["get", "name"]]]"#))
    )
    let props = StyleObject([("ref", "A8"), ("name", "Boulevard")])
    #expect(try Self.text(StyleTextField.convertingTokens(f), props, zoom: 13) == "A8")
    #expect(try Self.text(StyleTextField.convertingTokens(f), props, zoom: 15) == "Boulevard")
    // A feature without the property: the token is empty, as in MapLibre.
    #expect(try Self.text(StyleTextField.convertingTokens("{ref}/{name}"), StyleObject()) == "/")
  }

  @Test("language keys: the code, then its language alone")
  func languageKeys() {
    #expect(StyleTextField.languageKeys("fi") == ["name:fi", "name_fi"])
    #expect(
      StyleTextField.languageKeys("zh-Hant") == [
        "name:zh-Hant", "name_zh-Hant", "name:zh", "name_zh",
      ])
    #expect(StyleTextField.isNameKey("name") && StyleTextField.isNameKey("name:latin"))
    #expect(StyleTextField.isNameKey("name_int") && !StyleTextField.isNameKey("names"))
    #expect(!StyleTextField.isNameKey("ref") && !StyleTextField.isNameKey("name_"))
  }

  @Test("localized: a name read becomes a coalesce with the language's keys in front")
  func localizedGet() throws {
    let field = try Self.json(#"["get", "name"]"#)
    let out = StyleTextField.localized(field, to: "zh-Hant")
    #expect(
      out
        == (try Self.json(
          #"["coalesce", ["get", "name:zh-Hant"], ["get", "name_zh-Hant"], ["get", "name:zh"], ["get", "name_zh"], ["get", "name"]]"#
        )))
    let monaco = StyleObject([("name", "Monaco-Ville"), ("name:en", "Monaco City")])
    #expect(try Self.text(StyleTextField.localized(field, to: "en"), monaco) == "Monaco City")
    #expect(try Self.text(StyleTextField.localized(field, to: "en-GB"), monaco) == "Monaco City")
    #expect(try Self.text(StyleTextField.localized(field, to: "fi"), monaco) == "Monaco-Ville")
    let underscore = StyleObject([("name", "Monaco-Ville"), ("name_de", "Monaco-Stadt")])
    #expect(try Self.text(StyleTextField.localized(field, to: "de"), underscore) == "Monaco-Stadt")
    // Other reads are left alone; a field with no name is returned as it is.
    let ref = try Self.json(#"["concat", ["get", "ref"], " ", ["get", "name"]]"#)
    #expect(
      try Self.text(
        StyleTextField.localized(ref, to: "en"),
        StyleObject([("ref", "D6007"), ("name", "Rue"), ("name:en", "Street")]))
        == "D6007 Street")
    let onlyRef = try Self.json(#"["to-string", ["get", "ref"]]"#)
    #expect(StyleTextField.localized(onlyRef, to: "en") == onlyRef)
    #expect(StyleTextField.localized(field, to: "") == field)
  }

  @Test("localized: two names joined are wrapped whole, so a name in the language shows once")
  func localizedLatinNonLatin() throws {
    // OpenFreeMap's place names: Latin and non-Latin on two lines, else name_int.
    let field = try Self.json(
      #"["case", ["has", "name:nonlatin"], ["concat", ["get", "name:latin"], "\n", ["get", "name:nonlatin"]], ["coalesce", ["get", "name_int"], ["get", "name:latin"]]]"#
    )
    let out = StyleTextField.localized(field, to: "ja")
    guard case .array(let a) = out else {
      Issue.record("not an expression: \(out)")
      return
    }
    #expect(a.first == "coalesce" && a.last == field)
    let tokyo = StyleObject([
      ("name:latin", "Tokyo"), ("name:nonlatin", "東京"), ("name:ja", "東京"),
    ])
    #expect(try Self.text(field, tokyo) == "Tokyo\n東京")
    #expect(try Self.text(out, tokyo) == "東京")
    #expect(try Self.text(out, StyleObject([("name:latin", "Helsinki")])) == "Helsinki")
  }

  @Test("localized: a zoom curve stays on top, its outputs rewritten each")
  func localizedZoomCurve() throws {
    let field = try Self.json(
      #"["step", ["zoom"], ["get", "ref"], 12, ["get", "name"], 15, ["concat", ["get", "name"], " ", ["get", "name_en"]]]"#
    )
    let out = StyleTextField.localized(field, to: "fr")
    guard case .array(let a) = out else {
      Issue.record("not an expression: \(out)")
      return
    }
    let ref = try Self.json(#"["get", "ref"]"#)
    #expect(a[0] == "step" && a[2] == ref)
    let props = StyleObject([
      ("ref", "A8"), ("name", "Monaco"), ("name_en", "Monaco"), ("name:fr", "Monaco (fr)"),
    ])
    #expect(try Self.text(out, props, zoom: 10) == "A8")
    #expect(try Self.text(out, props, zoom: 13) == "Monaco (fr)")
    #expect(try Self.text(out, props, zoom: 16) == "Monaco (fr)")
  }
}

/// A feature with properties, read by slot through the compiling keys.
final class PropertiesFeature: StyleFeature {
  let properties: StyleObject
  let slots: [StyleValue?]
  init(_ properties: StyleObject, keys: PropertyKeys) {
    self.properties = properties
    slots = keys.names.map { properties[$0] }
  }
  func value(slot: Int) -> StyleValue? { slots[slot] }
  func value(forKey key: String) -> StyleValue? { properties[key] }
  var geometryType: String? { "Point" }
  var id: StyleValue { .null }
}
