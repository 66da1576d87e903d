import Foundation

/// Why a style document could not be read at all: the JSON is broken, or the root, `version`,
/// `sources` or `layers` is not what the specification requires. Problems inside one layer do
/// not throw: the layer is skipped and reported in `StyleDocument.diagnostics`.
public struct StyleDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Each problem with its JSON path (`version`, `layers`).
  public let diagnostics: [StyleDiagnostic]

  /// The problems, `; `-separated.
  public var description: String { diagnostics.map(\.description).joined(separator: "; ") }
}

/// A source of a style document (`sources.openmaptiles`): where its tiles come from.
public struct StyleSource: Sendable {
  /// A source's `type`.
  public enum Kind: String, Sendable, CaseIterable {
    /// Vector tiles.
    case vector
    /// Raster image tiles.
    case raster
    /// Raster elevation tiles.
    case rasterDEM = "raster-dem"
    /// Inline or remote GeoJSON (`data`).
    case geojson
    /// One georeferenced image.
    case image
    /// A georeferenced video.
    case video
  }

  /// A tile source's `scheme`: `xyz` (rows from the north) or `tms` (rows from the south).
  public enum Scheme: String, Sendable {
    /// Rows counted from the north, as in web maps (the default).
    case xyz
    /// Rows counted from the south, as in TMS and MBTiles.
    case tms
  }

  /// The source's id: its key in `sources`.
  public let id: String
  /// The source's type.
  public let kind: Kind
  /// A TileJSON URL (`url`), or the URL of an image, nil when absent.
  public let url: String?
  /// Tile URL templates (`tiles`), empty when absent.
  public let tiles: [String]
  /// The lowest zoom with tiles (`minzoom`, 0 by default).
  public let minzoom: Double
  /// The highest zoom with tiles (`maxzoom`, 22 by default); the renderer overzooms above.
  public let maxzoom: Double
  /// `tileSize` in pixels (512 by default, as the specification says for raster sources).
  public let tileSize: Double
  /// `bounds` as west, south, east, north in degrees; the whole Web Mercator world by default.
  public let bounds: [Double]
  /// `attribution` (HTML as the style gives it), nil when absent.
  public let attribution: String?
  /// `scheme`.
  public let scheme: Scheme
  /// The source object as written, for the properties not read above (`data`, `encoding`,
  /// `promoteId`, `coordinates`, …).
  public let json: StyleObject
}

/// One layer of a style document, compiled: its filter and each paint and layout property the
/// specification lists for its type (`StyleProperties`), compiled with the property's type.
public struct StyleLayer: Sendable {
  /// A layer's `type`.
  public enum Kind: String, Sendable, CaseIterable {
    /// The map's background colour or pattern.
    case background
    /// Filled polygons.
    case fill
    /// Stroked lines (and polygon outlines).
    case line
    /// Labels and icons.
    case symbol
    /// Circles at points.
    case circle
    /// Raster tiles.
    case raster
    /// Extruded polygons (buildings in 3-D); termmap draws them as fills.
    case fillExtrusion = "fill-extrusion"
    /// A heat map of point density.
    case heatmap
    /// Hill shading from elevation tiles.
    case hillshade
  }

  /// `layout.visibility`.
  public enum Visibility: String, Sendable {
    /// Drawn (the default).
    case visible
    /// Not drawn.
    case none
  }

  /// The layer's `id`.
  public let id: String
  /// The layer's `type`.
  public let kind: Kind
  /// The `source` id (nil for `background`).
  public let source: String?
  /// `source-layer`: the vector tile layer the features come from (vector sources only).
  public let sourceLayer: String?
  /// The lowest zoom the layer is drawn at (`minzoom`, 0 by default).
  public let minzoom: Double
  /// The zoom from which the layer is no longer drawn (`maxzoom`, 24 by default; the layer
  /// shows while the zoom is below it, as in MapLibre).
  public let maxzoom: Double
  /// `layout.visibility`.
  public let visibility: Visibility
  /// The compiled `filter`, nil when the layer has none (every feature passes).
  public let filter: StyleExpression?
  /// The compiled paint properties the layer sets, by name (transitions and properties
  /// termmap does not know are left out).
  public let paint: [String: StyleExpression]
  /// The compiled layout properties the layer sets, by name (`visibility` is `visibility`).
  public let layout: [String: StyleExpression]
  /// The layer object as written.
  public let json: StyleObject

  /// Whether the layer is drawn at `zoom`: visible, and `minzoom` ≤ zoom < `maxzoom`.
  public func isVisible(atZoom zoom: Double) -> Bool {
    visibility == .visible && zoom >= minzoom && zoom < maxzoom
  }

  /// A paint or layout property of the layer: the compiled value the layer sets, else the
  /// specification's default as a constant expression; nil for a property without a default
  /// (`fill-outline-color`, `fill-pattern`, `line-dasharray`, …) that the layer does not set,
  /// or one termmap does not know.
  public func property(_ name: String) -> StyleExpression? {
    if let e = paint[name] ?? layout[name] { return e }
    return StyleProperties.defaultExpressions[name]
  }

  /// The constant value of a property (set or default), nil when it is not constant or has
  /// no default.
  public func constantProperty(_ name: String) -> StyleValue? { property(name)?.constantValue }
}

/// A MapLibre style document (style specification version 8), read and compiled.
///
/// Sources are typed (`StyleSource`), layers are kept in the style's order with their
/// filters and properties compiled against one `PropertyKeys` table (`keys`), so a renderer
/// maps each property key to a tile layer's key index once. A layer that does not compile (an
/// unknown type, a missing source, a filter or property that does not type-check) is skipped
/// and reported in `diagnostics` with its JSON path, as MapLibre skips it; the other layers
/// are kept.
public struct StyleDocument: Sendable {
  /// `version` (always 8).
  public let version: Int
  /// `name`, nil when absent.
  public let name: String?
  /// The sources by id.
  public let sources: [String: StyleSource]
  /// The source ids in document order.
  public let sourceIDs: [String]
  /// `glyphs`: the font glyph URL template, nil when absent.
  public let glyphs: String?
  /// `sprite`: the sprite URL (the `default` or first entry of the array form), nil when absent.
  public let sprite: String?
  /// The layers that compiled, in the style's order (the first is drawn first).
  public let layers: [StyleLayer]
  /// The property keys every filter and property expression of the document reads, by slot.
  public let keys: PropertyKeys
  /// Skipped layers and sources (errors) and what termmap does not read (warnings: unknown
  /// properties, image values), each with its JSON path.
  public let diagnostics: [StyleDiagnostic]
  /// The document as written.
  public let json: StyleValue

  /// Reads a style document from JSON bytes.
  ///
  /// - Throws: `StyleDocumentError` for broken JSON (`Expected ':' at byte 5`) or a document
  ///   that is not a version 8 style with `sources` and `layers`.
  public init(data: Data) throws(StyleDocumentError) {
    let value: StyleValue
    do {
      value = try StyleValue(jsonBytes: [UInt8](data))
    } catch {
      throw StyleDocumentError(diagnostics: [
        StyleDiagnostic(path: "", message: error.description)
      ])
    }
    try self.init(json: value)
  }

  /// Reads a parsed style document.
  ///
  /// - Throws: `StyleDocumentError` when the root is not an object, `version` is not 8, or
  ///   `sources` or `layers` is missing or of the wrong kind.
  public init(json: StyleValue) throws(StyleDocumentError) {
    var fatal: [StyleDiagnostic] = []
    var diagnostics: [StyleDiagnostic] = []
    func error(_ path: String, _ m: String) {
      diagnostics.append(StyleDiagnostic(path: path, message: m))
    }
    guard case .object(let root) = json else {
      throw StyleDocumentError(diagnostics: [
        StyleDiagnostic(path: "", message: "object expected, \(json.kindName) found")
      ])
    }
    switch root["version"] {
    case nil:
      fatal.append(StyleDiagnostic(path: "", message: "missing required property \"version\""))
    case .number(8)?: break
    case let v?:
      fatal.append(
        StyleDiagnostic(path: "version", message: "expected one of [8], \(v.jsonText) found"))
    }
    var sourceObject = StyleObject()
    switch root["sources"] {
    case nil:
      fatal.append(StyleDiagnostic(path: "", message: "missing required property \"sources\""))
    case .object(let o)?: sourceObject = o
    case let v?:
      fatal.append(
        StyleDiagnostic(path: "sources", message: "object expected, \(v.kindName) found"))
    }
    var layerValues: [StyleValue] = []
    switch root["layers"] {
    case nil:
      fatal.append(StyleDiagnostic(path: "", message: "missing required property \"layers\""))
    case .array(let a)?: layerValues = a
    case let v?:
      fatal.append(StyleDiagnostic(path: "layers", message: "array expected, \(v.kindName) found"))
    }
    if !fatal.isEmpty { throw StyleDocumentError(diagnostics: fatal) }

    var sources: [String: StyleSource] = [:]
    var sourceIDs: [String] = []
    for (i, id) in sourceObject.keys.enumerated() {
      let path = "sources.\(SafeName.clean(id))"
      if let s = Self.readSource(id: id, sourceObject.values[i], path: path, &diagnostics) {
        sources[id] = s
        sourceIDs.append(id)
      }
    }

    var keys = PropertyKeys()
    var layers: [StyleLayer] = []
    var seenIDs: Set<String> = []
    for (li, value) in layerValues.enumerated() {
      var layerDiagnostics: [StyleDiagnostic] = []
      if let layer = Self.readLayer(
        value, path: "layers[\(li)]", sources: sources, seenIDs: &seenIDs, keys: &keys,
        diagnostics: &layerDiagnostics)
      {
        layers.append(layer)
      }
      diagnostics += layerDiagnostics
    }
    self.version = 8
    self.name = root["name"]?.stringValue
    self.sources = sources
    self.sourceIDs = sourceIDs
    self.glyphs = root["glyphs"]?.stringValue
    switch root["sprite"] {
    case .string(let s)?: self.sprite = s
    case .array(let entries)?:
      let urls = entries.compactMap { e -> (String?, String)? in
        guard case .object(let o) = e, let url = o["url"]?.stringValue else { return nil }
        return (o["id"]?.stringValue, url)
      }
      self.sprite = (urls.first { $0.0 == "default" } ?? urls.first)?.1
    default: self.sprite = nil
    }
    self.layers = layers
    self.keys = keys
    self.diagnostics = diagnostics
    self.json = json
  }

  /// The layer with `id`, nil when there is none (or it was skipped).
  public func layer(id: String) -> StyleLayer? { layers.first { $0.id == id } }

  /// The layers that read `source`, in the style's order.
  public func layers(source: String) -> [StyleLayer] { layers.filter { $0.source == source } }

  static func number(_ v: StyleValue?, _ fallback: Double) -> Double { v?.numberValue ?? fallback }

  static func readSource(
    id: String, _ value: StyleValue, path: String, _ diagnostics: inout [StyleDiagnostic]
  ) -> StyleSource? {
    func failure(_ d: StyleDiagnostic) -> StyleSource? {
      diagnostics.append(d)
      return nil
    }
    guard case .object(let s) = value else {
      return failure(
        StyleDiagnostic(path: path, message: "object expected, \(value.kindName) found"))
    }
    guard case .string(let t)? = s["type"] else {
      return failure(StyleDiagnostic(path: path, message: "\"type\" is required"))
    }
    guard let kind = StyleSource.Kind(rawValue: t) else {
      let all = StyleSource.Kind.allCases.map(\.rawValue).joined(separator: ", ")
      return failure(
        StyleDiagnostic(
          path: "\(path).type", message: "expected one of [\(all)], \"\(SafeName.clean(t))\" found")
      )
    }
    let tiles = s["tiles"]?.arrayValue?.compactMap(\.stringValue) ?? []
    var bounds = [-180, -85.051129, 180, 85.051129]
    if let b = s["bounds"]?.arrayValue?.compactMap(\.numberValue), b.count == 4 { bounds = b }
    return StyleSource(
      id: id, kind: kind, url: s["url"]?.stringValue, tiles: tiles,
      minzoom: number(s["minzoom"], 0), maxzoom: number(s["maxzoom"], 22),
      tileSize: number(s["tileSize"], 512), bounds: bounds,
      attribution: s["attribution"]?.stringValue,
      scheme: s["scheme"]?.stringValue == "tms" ? .tms : .xyz, json: s)
  }

  // swift-format-ignore: FunctionParameterCount
  static func readLayer(
    _ value: StyleValue, path lp: String, sources: [String: StyleSource],
    seenIDs: inout Set<String>, keys: inout PropertyKeys, diagnostics: inout [StyleDiagnostic]
  ) -> StyleLayer? {
    var failed = false
    func error(_ path: String, _ m: String) {
      diagnostics.append(StyleDiagnostic(path: path, message: m))
      failed = true
    }
    func warn(_ path: String, _ m: String) {
      diagnostics.append(StyleDiagnostic(path: path, message: m))
    }
    guard case .object(let layer) = value else {
      error(lp, "object expected, \(value.kindName) found")
      return nil
    }
    guard case .string(let id)? = layer["id"] else {
      error(lp, "missing required property \"id\"")
      return nil
    }
    guard !seenIDs.contains(id) else {
      error(lp, "duplicate layer id \"\(SafeName.clean(id))\"")
      return nil
    }
    seenIDs.insert(id)
    guard case .string(let type)? = layer["type"] else {
      error(lp, "missing required property \"type\"")
      return nil
    }
    guard let kind = StyleLayer.Kind(rawValue: type) else {
      error(
        "\(lp).type",
        "expected one of [\(StyleProperties.layerTypes.joined(separator: ", "))], \"\(SafeName.clean(type))\" found"
      )
      return nil
    }
    let source = layer["source"]?.stringValue
    let sourceLayer = layer["source-layer"]?.stringValue
    if kind != .background {
      guard let source else {
        error(lp, "missing required property \"source\"")
        return nil
      }
      guard let s = sources[source] else {
        error(lp, "source \"\(SafeName.clean(source))\" not found")
        return nil
      }
      if s.kind == .vector && sourceLayer == nil {
        error(lp, "layer \"\(SafeName.clean(id))\" must specify a \"source-layer\"")
        return nil
      }
    }
    var zooms = [0.0, 24]
    for (i, z) in ["minzoom", "maxzoom"].enumerated() {
      guard let v = layer[z] else { continue }
      guard case .number(let n) = v else {
        error("\(lp).\(z)", "number expected, \(v.kindName) found")
        return nil
      }
      zooms[i] = n
    }
    var filter: StyleExpression? = nil
    if let f = layer["filter"] {
      do {
        filter = try StyleExpression(filter: f, keys: &keys)
      } catch {
        for e in error.errors {
          failed = true;
          diagnostics.append(StyleDiagnostic(path: "\(lp).filter\(e.key)", message: e.message))
        }
      }
    }
    var visibility = StyleLayer.Visibility.visible
    var compiled: [[String: StyleExpression]] = [[:], [:]]
    for (gi, group) in ["layout", "paint"].enumerated() {
      guard let gv = layer[group] else { continue }
      guard case .object(let props) = gv else {
        error("\(lp).\(group)", "object expected, \(gv.kindName) found")
        continue
      }
      let known = (group == "layout" ? StyleProperties.layout : StyleProperties.paint)[type] ?? [:]
      for (pi, name) in props.keys.enumerated() {
        let pp = "\(lp).\(group).\(SafeName.clean(name))"
        let v = props.values[pi]
        if group == "layout" && name == "visibility" {
          switch v {
          case .string("visible"): visibility = .visible
          case .string("none"): visibility = .none
          default: error(pp, "expected one of [visible, none], \(v.jsonText) found")
          }
          continue
        }
        if group == "paint" && name.hasSuffix("-transition") { continue }
        guard let spec = known[name] else {
          warn(pp, "not a \(type) \(group) property termmap knows; ignored")
          continue
        }
        if spec.type == .resolvedImage {
          // An image name: kept as a string (a renderer may map it to a dot pattern).
          do {
            compiled[gi][name] = try StyleExpression(
              propertyValue: v, type: .string, interpolated: false, keys: &keys)
          } catch {
            warn(pp, "images are not drawn by termmap; ignored")
          }
          continue
        }
        if let message = StyleValidator.constantMismatch(v, spec.type) {
          error(pp, message)
          continue
        }
        do {
          let e = try StyleExpression(
            propertyValue: v, type: spec.type, interpolated: spec.interpolated, keys: &keys)
          if !spec.values.isEmpty, case .string(let s)? = e.constantValue, !spec.values.contains(s)
          {
            error(
              pp,
              "expected one of [\(spec.values.joined(separator: ", "))], \"\(SafeName.clean(s))\" found"
            )
            continue
          }
          compiled[gi][name] = e
        } catch {
          for e in error.errors {
            failed = true
            diagnostics.append(StyleDiagnostic(path: "\(pp)\(e.key)", message: e.message))
          }
        }
      }
    }
    if failed { return nil }
    return StyleLayer(
      id: id, kind: kind, source: kind == .background ? nil : source,
      sourceLayer: sourceLayer, minzoom: zooms[0], maxzoom: zooms[1], visibility: visibility,
      filter: filter, paint: compiled[1], layout: compiled[0], json: layer)
  }
}

extension StyleValue {
  /// `null`, `boolean`, `number`, `string`, `array` or `object`, as validators name kinds.
  var kindName: String {
    switch self {
    case .null: return "null"
    case .boolean: return "boolean"
    case .number: return "number"
    case .string: return "string"
    case .array: return "array"
    default: return "object"
    }
  }
}

extension StyleProperties {
  /// The specification's default of each paint and layout property that has one
  /// (`"line-width": 1`, `"fill-color": "#000000"`, `"text-size": 16`). Properties without a
  /// default (`fill-outline-color` follows `fill-color`; patterns, `line-dasharray`, sort keys,
  /// `text-field`'s absence, …) are not listed.
  public static let defaults: [String: StyleValue] = [
    "background-color": "#000000", "background-opacity": 1,
    "fill-antialias": true, "fill-opacity": 1, "fill-color": "#000000",
    "fill-translate": [0, 0], "fill-translate-anchor": "map",
    "fill-extrusion-opacity": 1, "fill-extrusion-color": "#000000",
    "fill-extrusion-translate": [0, 0], "fill-extrusion-height": 0, "fill-extrusion-base": 0,
    "fill-extrusion-vertical-gradient": true,
    "line-cap": "butt", "line-join": "miter", "line-miter-limit": 2, "line-round-limit": 1.05,
    "line-opacity": 1, "line-color": "#000000", "line-translate": [0, 0],
    "line-translate-anchor": "map", "line-width": 1, "line-gap-width": 0, "line-offset": 0,
    "line-blur": 0,
    "circle-radius": 5, "circle-color": "#000000", "circle-blur": 0, "circle-opacity": 1,
    "circle-translate": [0, 0], "circle-translate-anchor": "map", "circle-pitch-scale": "map",
    "circle-pitch-alignment": "viewport", "circle-stroke-width": 0,
    "circle-stroke-color": "#000000", "circle-stroke-opacity": 1,
    "symbol-placement": "point", "symbol-spacing": 250, "symbol-avoid-edges": false,
    "symbol-z-order": "auto", "icon-allow-overlap": false, "icon-ignore-placement": false,
    "icon-optional": false, "icon-rotation-alignment": "auto", "icon-size": 1,
    "icon-text-fit": "none", "icon-rotate": 0, "icon-keep-upright": false,
    "icon-offset": [0, 0], "icon-anchor": "center", "icon-pitch-alignment": "auto",
    "text-pitch-alignment": "auto", "text-rotation-alignment": "auto", "text-field": "",
    "text-font": ["Open Sans Regular", "Arial Unicode MS Regular"], "text-size": 16,
    "text-max-width": 10, "text-line-height": 1.2, "text-letter-spacing": 0,
    "text-justify": "center", "text-radial-offset": 0, "text-anchor": "center",
    "text-max-angle": 45, "text-rotate": 0, "text-padding": 2, "text-keep-upright": true,
    "text-transform": "none", "text-offset": [0, 0], "text-allow-overlap": false,
    "text-ignore-placement": false, "text-optional": false,
    "icon-opacity": 1, "icon-color": "#000000", "icon-halo-color": "rgba(0, 0, 0, 0)",
    "icon-halo-width": 0, "icon-halo-blur": 0, "icon-translate": [0, 0],
    "icon-translate-anchor": "map", "text-opacity": 1, "text-color": "#000000",
    "text-halo-color": "rgba(0, 0, 0, 0)", "text-halo-width": 0, "text-halo-blur": 0,
    "text-translate": [0, 0], "text-translate-anchor": "map",
    "raster-opacity": 1, "raster-hue-rotate": 0, "raster-brightness-min": 0,
    "raster-brightness-max": 1, "raster-saturation": 0, "raster-contrast": 0,
    "raster-resampling": "linear", "raster-fade-duration": 300,
  ]

  /// The spec of a property of any layer type, nil when termmap does not know it.
  public static func spec(of name: String) -> Spec? {
    for table in [paint, layout] {
      for (_, props) in table { if let s = props[name] { return s } }
    }
    return nil
  }

  /// `defaults` compiled with each property's type.
  static let defaultExpressions: [String: StyleExpression] = {
    var out: [String: StyleExpression] = [:]
    var keys = PropertyKeys()
    for (name, value) in defaults {
      guard let spec = spec(of: name) else { continue }
      out[name] = try? StyleExpression(
        propertyValue: value, type: spec.type, interpolated: spec.interpolated, keys: &keys)
    }
    return out
  }()
}
