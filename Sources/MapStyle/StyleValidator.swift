/// A problem in a style document, at a JSON path (`layers[3].paint.line-width`).
public struct StyleDiagnostic: Sendable, Equatable, CustomStringConvertible {
  /// The JSON path of the offending value.
  public let path: String
  /// What is wrong, in `gl-style-validate`'s or MapLibre's words.
  public let message: String

  /// "`path`: `message`".
  public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}

/// What `StyleValidator.validate(json:)` found.
public struct StyleValidationReport: Sendable {
  /// Errors: the style would not load, or a value does not type-check.
  public var errors: [StyleDiagnostic] = []
  /// Warnings: properties termmap does not know (not checked), layer types it skips.
  public var warnings: [StyleDiagnostic] = []
  /// Layers in the document.
  public var layerCount = 0
  /// Sources in the document.
  public var sourceCount = 0
  /// Filters and property values compiled as expressions.
  public var expressionCount = 0
}

/// The properties termmap knows, with their types: a property value is compiled with its
/// type, so `"line-width": "wide"` is an error, as in MapLibre.
public enum StyleProperties {
  /// A property's value type, whether it interpolates, and the allowed values of an enum.
  public struct Spec: Sendable {
    /// The expression type values must have.
    public let type: ExpressionType
    /// Whether legacy functions interpolate (exponential) or step (interval).
    public let interpolated: Bool
    /// The allowed values of an enum property (empty otherwise).
    public let values: [String]
  }

  static func n(_ interpolated: Bool = true) -> Spec {
    Spec(type: .number, interpolated: interpolated, values: [])
  }
  static let color = Spec(type: .color, interpolated: true, values: [])
  static let boolean = Spec(type: .boolean, interpolated: false, values: [])
  static let string = Spec(type: .string, interpolated: false, values: [])
  static let image = Spec(type: .resolvedImage, interpolated: false, values: [])
  static func e(_ v: [String]) -> Spec { Spec(type: .string, interpolated: false, values: v) }
  static let offset = Spec(type: .array(.number, length: 2), interpolated: true, values: [])
  static let anchors = [
    "center", "left", "right", "top", "bottom", "top-left", "top-right", "bottom-left",
    "bottom-right",
  ]

  /// Paint properties by layer type.
  public static let paint: [String: [String: Spec]] = [
    "background": [
      "background-color": color, "background-opacity": n(), "background-pattern": image,
    ],
    "fill": [
      "fill-color": color, "fill-opacity": n(), "fill-outline-color": color, "fill-pattern": image,
      "fill-antialias": boolean, "fill-translate": offset,
      "fill-translate-anchor": e(["map", "viewport"]),
    ],
    "fill-extrusion": [
      "fill-extrusion-color": color, "fill-extrusion-opacity": n(), "fill-extrusion-height": n(),
      "fill-extrusion-base": n(), "fill-extrusion-pattern": image,
      "fill-extrusion-vertical-gradient": boolean,
      "fill-extrusion-translate": offset,
    ],
    "line": [
      "line-color": color, "line-opacity": n(), "line-width": n(), "line-gap-width": n(),
      "line-offset": n(),
      "line-blur": n(),
      "line-dasharray": Spec(type: .array(.number, length: nil), interpolated: false, values: []),
      "line-pattern": image, "line-translate": offset,
      "line-translate-anchor": e(["map", "viewport"]),
      "line-gradient": color,
    ],
    "symbol": [
      "text-color": color, "text-opacity": n(), "text-halo-color": color, "text-halo-width": n(),
      "text-halo-blur": n(), "text-translate": offset, "icon-color": color, "icon-opacity": n(),
      "icon-halo-color": color, "icon-halo-width": n(), "icon-halo-blur": n(),
      "icon-translate": offset,
      "text-translate-anchor": e(["map", "viewport"]),
      "icon-translate-anchor": e(["map", "viewport"]),
    ],
    "circle": [
      "circle-color": color, "circle-radius": n(), "circle-opacity": n(), "circle-blur": n(),
      "circle-stroke-color": color, "circle-stroke-width": n(), "circle-stroke-opacity": n(),
      "circle-translate": offset, "circle-pitch-scale": e(["map", "viewport"]),
      "circle-pitch-alignment": e(["map", "viewport"]),
      "circle-translate-anchor": e(["map", "viewport"]),
    ],
    "raster": [
      "raster-opacity": n(), "raster-hue-rotate": n(), "raster-brightness-min": n(),
      "raster-brightness-max": n(), "raster-saturation": n(), "raster-contrast": n(),
      "raster-fade-duration": n(false), "raster-resampling": e(["linear", "nearest"]),
    ],
    "hillshade": [:], "heatmap": [:],
  ]

  /// Layout properties by layer type (`visibility` is common to all).
  public static let layout: [String: [String: Spec]] = [
    "background": [:], "raster": [:], "hillshade": [:], "heatmap": [:], "fill-extrusion": [:],
    "fill": ["fill-sort-key": n(false)],
    "circle": ["circle-sort-key": n(false)],
    "line": [
      "line-cap": e(["butt", "round", "square"]), "line-join": e(["bevel", "round", "miter"]),
      "line-miter-limit": n(), "line-round-limit": n(), "line-sort-key": n(false),
    ],
    "symbol": [
      "symbol-placement": e(["point", "line", "line-center"]), "symbol-spacing": n(),
      "symbol-avoid-edges": boolean, "symbol-sort-key": n(false),
      "symbol-z-order": e(["auto", "viewport-y", "source"]),
      "text-field": Spec(type: .formatted, interpolated: false, values: []),
      "text-font": Spec(type: .array(.string, length: nil), interpolated: false, values: []),
      "text-size": n(), "text-max-width": n(), "text-line-height": n(), "text-letter-spacing": n(),
      "text-justify": e(["auto", "left", "center", "right"]), "text-anchor": e(anchors),
      "text-max-angle": n(), "text-rotate": n(), "text-padding": n(), "text-keep-upright": boolean,
      "text-transform": e(["none", "uppercase", "lowercase"]), "text-offset": offset,
      "text-allow-overlap": boolean, "text-ignore-placement": boolean, "text-optional": boolean,
      "text-radial-offset": n(),
      "text-variable-anchor": Spec(
        type: .array(.string, length: nil), interpolated: false, values: []),
      "text-rotation-alignment": e(["map", "viewport", "viewport-glyph", "auto"]),
      "text-pitch-alignment": e(["map", "viewport", "auto"]),
      "text-writing-mode": Spec(
        type: .array(.string, length: nil), interpolated: false, values: []),
      "icon-image": image, "icon-size": n(), "icon-allow-overlap": boolean,
      "icon-ignore-placement": boolean,
      "icon-optional": boolean, "icon-rotate": n(),
      "icon-padding": Spec(type: .padding, interpolated: true, values: []),
      "icon-offset": offset, "icon-anchor": e(anchors), "icon-keep-upright": boolean,
      "icon-rotation-alignment": e(["map", "viewport", "auto"]),
      "icon-pitch-alignment": e(["map", "viewport", "auto"]),
      "icon-text-fit": e(["none", "width", "height", "both"]),
    ],
  ]

  /// The layer types of the style specification.
  public static let layerTypes = [
    "fill", "line", "symbol", "circle", "heatmap", "fill-extrusion", "raster", "hillshade",
    "background",
  ]
}

/// Checks style documents (version 8) as `gl-style-validate` does, for what termmap reads.
public enum StyleValidator {
  /// `number expected, string found` for a constant that cannot have the property's type.
  static func constantMismatch(_ v: StyleValue, _ type: ExpressionType) -> String? {
    let kind: String
    switch v {
    case .null: kind = "null"
    case .boolean: kind = "boolean"
    case .number: kind = "number"
    case .string: kind = "string"
    default: return nil
    }
    switch type {
    case .number, .boolean:
      return kind == type.kind ? nil : "\(type.kind) expected, \(kind) found"
    case .color:
      if case .string(let s) = v {
        return StyleColor(css: s) == nil ? "color expected, \(v.jsonText) found" : nil
      }
      return "color expected, \(kind) found"
    default: return nil
    }
  }

  static let rootKeys: Set<String> = [
    "version", "name", "metadata", "center", "centerAltitude", "zoom", "bearing", "pitch", "roll",
    "light", "sky", "projection", "terrain", "sources", "sprite", "glyphs", "font-faces",
    "transition",
    "layers", "state",
  ]
  static let layerKeys: Set<String> = [
    "id", "type", "metadata", "source", "source-layer", "minzoom", "maxzoom", "filter", "layout",
    "paint",
  ]
  static let sourceTypes = ["vector", "raster", "raster-dem", "geojson", "video", "image"]

  /// Checks a parsed style document.
  public static func validate(json: StyleValue) -> StyleValidationReport {
    var r = StyleValidationReport()
    func error(_ path: String, _ m: String) {
      r.errors.append(StyleDiagnostic(path: path, message: m))
    }
    func warn(_ path: String, _ m: String) {
      r.warnings.append(StyleDiagnostic(path: path, message: m))
    }
    func kind(_ v: StyleValue) -> String {
      switch v {
      case .null: return "null"
      case .boolean: return "boolean"
      case .number: return "number"
      case .string: return "string"
      case .array: return "array"
      default: return "object"
      }
    }
    guard case .object(let root) = json else {
      error("", "object expected, \(kind(json)) found")
      return r
    }
    for k in root.keys where !rootKeys.contains(k) {
      error("", "unknown property \"\(SafeName.clean(k))\"")
    }
    switch root["version"] {
    case nil: error("", "missing required property \"version\"")
    case .number(8)?: break
    case let v?: error("version", "expected one of [8], \(v.jsonText) found")
    }
    // sources
    var sourceTypesByName: [String: String] = [:]
    switch root["sources"] {
    case nil: error("", "missing required property \"sources\"")
    case .object(let sources)?:
      r.sourceCount = sources.count
      for (i, name) in sources.keys.enumerated() {
        let path = "sources.\(SafeName.clean(name))"
        guard case .object(let s) = sources.values[i] else {
          error(path, "object expected, \(kind(sources.values[i])) found")
          continue
        }
        guard case .string(let t)? = s["type"] else {
          error(path, "\"type\" is required")
          continue
        }
        guard sourceTypes.contains(t) else {
          error(
            "\(path).type",
            "expected one of [\(sourceTypes.joined(separator: ", "))], \"\(SafeName.clean(t))\" found"
          )
          continue
        }
        sourceTypesByName[name] = t
        if (t == "vector" || t == "raster" || t == "raster-dem") && s["url"] == nil
          && s["tiles"] == nil
        {
          warn(path, "neither \"url\" nor \"tiles\": nothing to load")
        }
        if t == "geojson" && s["data"] == nil { error(path, "missing required property \"data\"") }
      }
    case let v?: error("sources", "object expected, \(kind(v)) found")
    }
    // layers
    guard case .array(let layers)? = root["layers"] else {
      if let v = root["layers"] {
        error("layers", "array expected, \(kind(v)) found")
      } else {
        error("", "missing required property \"layers\"")
      }
      return r
    }
    r.layerCount = layers.count
    var keys = PropertyKeys()
    var seenIDs: Set<String> = []
    for (li, layerValue) in layers.enumerated() {
      let lp = "layers[\(li)]"
      guard case .object(let layer) = layerValue else {
        error(lp, "object expected, \(kind(layerValue)) found")
        continue
      }
      for k in layer.keys where !layerKeys.contains(k) {
        error(lp, "unknown property \"\(SafeName.clean(k))\"")
      }
      if case .string(let id)? = layer["id"] {
        if seenIDs.contains(id) { error(lp, "duplicate layer id \"\(SafeName.clean(id))\"") }
        seenIDs.insert(id)
      } else if let v = layer["id"] {
        error("\(lp).id", "string expected, \(kind(v)) found")
      } else {
        error(lp, "missing required property \"id\"")
      }
      guard case .string(let type)? = layer["type"] else {
        if let v = layer["type"] {
          error("\(lp).type", "string expected, \(kind(v)) found")
        } else {
          error(lp, "missing required property \"type\"")
        }
        continue
      }
      guard StyleProperties.layerTypes.contains(type) else {
        error(
          "\(lp).type",
          "expected one of [\(StyleProperties.layerTypes.joined(separator: ", "))], \"\(SafeName.clean(type))\" found"
        )
        continue
      }
      if type == "heatmap" || type == "hillshade" {
        warn(lp, "\(type) layers are not drawn by termmap")
      }
      if type != "background" {
        if case .string(let source)? = layer["source"] {
          if let st = sourceTypesByName[source] {
            if st == "vector" && layer["source-layer"] == nil {
              error(
                lp,
                "layer \"\(SafeName.clean(layer["id"]?.stringValue ?? ""))\" must specify a \"source-layer\""
              )
            }
          } else if root["sources"]?.objectValue != nil {
            error(lp, "source \"\(SafeName.clean(source))\" not found")
          }
        } else if let v = layer["source"] {
          error("\(lp).source", "string expected, \(kind(v)) found")
        } else {
          error(lp, "missing required property \"source\"")
        }
      }
      if let v = layer["source-layer"], v.stringValue == nil {
        error("\(lp).source-layer", "string expected, \(kind(v)) found")
      }
      for z in ["minzoom", "maxzoom"] {
        guard let v = layer[z] else { continue }
        guard case .number(let n) = v else {
          error("\(lp).\(z)", "number expected, \(kind(v)) found")
          continue
        }
        if n < 0 { error("\(lp).\(z)", "\(jsNumberString(n)) is less than the minimum value 0") }
        if n > 24 {
          error("\(lp).\(z)", "\(jsNumberString(n)) is greater than the maximum value 24")
        }
      }
      if case .number(let lo)? = layer["minzoom"], case .number(let hi)? = layer["maxzoom"], lo > hi
      {
        error(lp, "minzoom \(jsNumberString(lo)) is greater than maxzoom \(jsNumberString(hi))")
      }
      if let filter = layer["filter"] {
        r.expressionCount += 1
        do {
          _ = try StyleExpression(filter: filter, keys: &keys)
        } catch {
          for e in error.errors {
            r.errors.append(StyleDiagnostic(path: "\(lp).filter\(e.key)", message: e.message))
          }
        }
      }
      for (group, table) in [("layout", StyleProperties.layout), ("paint", StyleProperties.paint)] {
        guard let gv = layer[group] else { continue }
        guard case .object(let props) = gv else {
          error("\(lp).\(group)", "object expected, \(kind(gv)) found")
          continue
        }
        let known = table[type] ?? [:]
        for (pi, name) in props.keys.enumerated() {
          let pp = "\(lp).\(group).\(SafeName.clean(name))"
          let value = props.values[pi]
          if group == "layout" && name == "visibility" {
            if value != .string("visible") && value != .string("none") {
              error(pp, "expected one of [visible, none], \(value.jsonText) found")
            }
            continue
          }
          if group == "paint" && name.hasSuffix("-transition") { continue }
          guard let spec = known[name] else {
            warn(pp, "not a \(type) \(group) property termmap knows; not checked")
            continue
          }
          if spec.type == .resolvedImage {
            warn(pp, "images are not drawn by termmap; not checked")
            continue
          }
          // A constant of the wrong kind is reported as gl-style-validate reports it.
          if let message = constantMismatch(value, spec.type) {
            error(pp, message)
            continue
          }
          r.expressionCount += 1
          do {
            let e = try StyleExpression(
              propertyValue: value, type: spec.type, interpolated: spec.interpolated, keys: &keys)
            if !spec.values.isEmpty, case .string(let s)? = e.constantValue,
              !spec.values.contains(s)
            {
              error(
                pp,
                "expected one of [\(spec.values.joined(separator: ", "))], \"\(SafeName.clean(s))\" found"
              )
            }
          } catch {
            for e in error.errors {
              r.errors.append(StyleDiagnostic(path: "\(pp)\(e.key)", message: e.message))
            }
          }
        }
      }
    }
    return r
  }
}
