import Foundation
import MapStyle
import Synchronization

/// How the basemap looks: one of termmap's built-in styles, a MapLibre style document for a
/// schema's tiles in a theme, and the language of its labels. A value passed down to the
/// renderer, so the renderer holds no style knowledge of its own.
///
/// The nine documents (three schemas × `dark`, `light`, `mono`) are JSON files in the
/// repository (`Sources/MapTiles/Styles/<schema>-<variant>.json`), compiled into termmap as
/// text; a document is read and compiled the first time a style of it is drawn
/// (`document`), once per process. docs/builtin-styles.md describes them and the `termmap:`
/// metadata they use.
public struct BasemapStyle: Sendable, Equatable {
  /// The schema of the tiles the style draws.
  public let schema: VectorSchema
  /// The theme.
  public let variant: Variant
  /// The language `localized(to:)` set (a code such as `fi` or `zh-Hant`), nil for none:
  /// labels show names in it first where the tiles have them (`StyleTextField.localized`).
  public private(set) var language: String?

  /// The built-in style of a schema in a theme.
  public init(schema: VectorSchema, variant: Variant) {
    self.schema = schema
    self.variant = variant
  }

  /// The style's name (for messages and `info`): the theme for OpenMapTiles (`dark`), else
  /// the schema and the theme (`shortbread`, `shortbread-light`, `protomaps-mono`). The
  /// document's own `name`.
  public var name: String {
    switch schema {
    case .openMapTiles: return variant.rawValue
    case .shortbread, .protomaps:
      let base = schema == .shortbread ? "shortbread" : "protomaps"
      return variant == .dark ? base : base + "-" + variant.rawValue
    }
  }

  /// The style document, read and compiled on first use (once per process, shared by every
  /// renderer of the style).
  public var document: StyleDocument { BuiltinStyles.shared.entry(schema, variant).document }

  /// The id of the document's vector source (`openmaptiles`, `shortbread`, `protomaps`): the
  /// layers drawn read it.
  public var sourceID: String { BuiltinStyles.sourceID(schema) }

  /// The document's JSON text, as in the repository's file (a starting point for a style of
  /// one's own: `termmap --style FILE`).
  public var json: String { BuiltinStyles.json(schema, variant) }

  /// The compiled layers to draw, shared by every renderer of the style.
  var plan: StyledDrawPlan { BuiltinStyles.shared.entry(schema, variant).plan }

  /// Dark terminals (the default).
  public static let dark = BasemapStyle(schema: .openMapTiles, variant: .dark)

  /// Light terminals.
  public static let light = BasemapStyle(schema: .openMapTiles, variant: .light)

  /// No colour (`NO_COLOR`, or any terminal): one grey, with the kinds of features told apart
  /// by line width, dashes and fill texture.
  public static let mono = BasemapStyle(schema: .openMapTiles, variant: .mono)

  /// [Shortbread 1.0](https://shortbread-tiles.org/schema/1.0/) tiles (OpenStreetMap's own
  /// vector tiles) on dark terminals: the same look as `dark` (OpenMapTiles), layer for
  /// layer, with Shortbread's layers and `kind` values.
  public static let shortbread = BasemapStyle(schema: .shortbread, variant: .dark)

  /// `shortbread` for light terminals.
  public static let shortbreadLight = BasemapStyle(schema: .shortbread, variant: .light)

  /// `shortbread` without colour (see `mono`).
  public static let shortbreadMono = BasemapStyle(schema: .shortbread, variant: .mono)

  /// [Protomaps basemap](https://docs.protomaps.com/basemaps/layers) tiles (layers version 4)
  /// on dark terminals: the same look as `dark` (OpenMapTiles), with Protomaps' layers,
  /// `kind`/`kind_detail` values, and each feature's `min_zoom` respected. Land is the
  /// terminal's background, so `earth` is not drawn; `landcover` only exists below zoom 8
  /// and is not drawn either.
  public static let protomaps = BasemapStyle(schema: .protomaps, variant: .dark)

  /// `protomaps` for light terminals.
  public static let protomapsLight = BasemapStyle(schema: .protomaps, variant: .light)

  /// `protomaps` without colour (see `mono`).
  public static let protomapsMono = BasemapStyle(schema: .protomaps, variant: .mono)

  /// The style with names in a language first: every symbol layer's `text-field` reads
  /// `name:CODE` and `name_CODE` first, whatever their script, then the style's own names
  /// (`StyleTextField.localized`, as MapLibre's language controls put `["coalesce", ["get",
  /// "name:xx"], …]` in front of a style's `text-field`). A code with a region or script
  /// (`zh-Hant`, `pt-BR`) tries the full code, then its language. nil or an empty code: the
  /// style unchanged.
  public func localized(to code: String?) -> BasemapStyle {
    var s = self
    s.language = code.flatMap { $0.isEmpty ? nil : $0 }
    return s
  }

  /// The style of a name (`dark`, `light`, `mono`).
  public static func named(_ name: String) -> BasemapStyle? {
    Variant(rawValue: name).map { forSchema(.openMapTiles, variant: $0) }
  }

  /// The themes: dark or light terminals, or no colour.
  public enum Variant: String, Sendable, CaseIterable {
    /// Light text and lines on a dark terminal.
    case dark
    /// Dark text and lines on a light terminal.
    case light
    /// One grey on any terminal (`NO_COLOR`): kinds told apart by width, dashes and texture.
    case mono
  }

  /// The style that draws a schema's tiles.
  public static func forSchema(_ schema: VectorSchema, variant: Variant = .dark) -> BasemapStyle {
    BasemapStyle(schema: schema, variant: variant)
  }

  /// The style for tiles with these layers (a source's `vectorLayers`, or a decoded tile's
  /// layer names); nil when the names do not tell the schema (see `VectorSchema.detect`).
  public static func forSchema(vectorLayers: some Sequence<String>, variant: Variant = .dark)
    -> BasemapStyle?
  {
    VectorSchema.detect(layerNames: vectorLayers).map { forSchema($0, variant: variant) }
  }
}

/// The built-in style documents, each read and compiled the first time it is asked for.
final class BuiltinStyles: Sendable {
  static let shared = BuiltinStyles()

  /// A compiled built-in style: its document and what the renderer draws from it.
  struct Entry: Sendable {
    let document: StyleDocument
    let plan: StyledDrawPlan
  }

  private let entries = Mutex<[String: Entry]>([:])

  /// The names of the styles compiled so far, sorted.
  var compiled: [String] { entries.withLock { $0.keys.sorted() } }

  /// The file name of a built-in style's JSON, without `.json`.
  static func fileName(_ schema: VectorSchema, _ variant: BasemapStyle.Variant) -> String {
    sourceID(schema) + "-" + variant.rawValue
  }

  /// The id of the vector source of a schema's documents (also the first part of the files'
  /// names).
  static func sourceID(_ schema: VectorSchema) -> String {
    switch schema {
    case .openMapTiles: return "openmaptiles"
    case .shortbread: return "shortbread"
    case .protomaps: return "protomaps"
    }
  }

  /// A built-in style's JSON text.
  static func json(_ schema: VectorSchema, _ variant: BasemapStyle.Variant) -> String {
    guard let text = builtinStyleJSON[fileName(schema, variant)] else {
      preconditionFailure("no built-in style \(fileName(schema, variant))")
    }
    return text
  }

  /// The compiled style, made on first use.
  func entry(_ schema: VectorSchema, _ variant: BasemapStyle.Variant) -> Entry {
    let name = Self.fileName(schema, variant)
    if let e = entries.withLock({ $0[name] }) { return e }
    // Compiled outside the lock; two threads asking at once both compile, one result is kept.
    let document: StyleDocument
    do {
      document = try StyleDocument(data: Data(Self.json(schema, variant).utf8))
    } catch {
      // The documents are checked by the tests (BuiltinStyleTests): this cannot happen in a
      // build whose tests pass.
      preconditionFailure("built-in style \(name): \(error)")
    }
    let made = Entry(
      document: document, plan: StyledDrawPlan(document: document, sourceID: Self.sourceID(schema)))
    return entries.withLock { e in
      if let other = e[name] { return other }
      e[name] = made
      return made
    }
  }
}
