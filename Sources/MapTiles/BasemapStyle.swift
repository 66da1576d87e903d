import DotRaster

/// How the basemap looks: which layers are drawn, in what order, from which zoom, with what
/// colours, line widths and fill textures, and how labels rank. A value passed down to the
/// renderer, so the renderer holds no style knowledge of its own.
public struct BasemapStyle: Sendable {
  /// One drawing rule: features of `layer` whose `class` (or other key) matches, drawn as
  /// fill and/or line from `minZoom`.
  public struct Rule: Sendable {
    /// The vector tile layer the rule draws.
    public var layer: String
    /// Property that selects features (usually "class"); nil matches every feature.
    public var key: String?
    /// Accepted values of `key` (empty: any value).
    public var values: Set<String>
    /// The lowest map zoom the rule draws at.
    public var minZoom: Double
    /// The highest map zoom the rule draws at.
    public var maxZoom: Double
    /// The fill colour of polygons (nil: unfilled).
    public var fill: TermColor?
    /// The fill texture.
    public var fillPattern: DotPattern
    /// The line colour (nil: no line).
    public var stroke: TermColor?
    /// Line width in dots.
    public var lineWidth: Double
    /// Dash lengths in dots (empty: solid).
    public var dash: [Double]
    /// Numeric filter: feature property `admin_level` (or the like) at most this.
    public var maxLevel: (key: String, value: Double)?
    /// A feature property that holds the zoom level the feature shows from (Protomaps'
    /// `min_zoom`): features whose value is above the map's zoom are skipped. nil: none.
    public var minZoomKey: String?

    /// A drawing rule.
    public init(
      layer: String, key: String? = nil, values: Set<String> = [], minZoom: Double = 0,
      maxZoom: Double = 30, fill: TermColor? = nil, fillPattern: DotPattern = .solid,
      stroke: TermColor? = nil, lineWidth: Double = 1, dash: [Double] = [],
      maxLevel: (key: String, value: Double)? = nil, minZoomKey: String? = nil
    ) {
      self.layer = layer
      self.key = key
      self.values = values
      self.minZoom = minZoom
      self.maxZoom = maxZoom
      self.fill = fill
      self.fillPattern = fillPattern
      self.stroke = stroke
      self.lineWidth = lineWidth
      self.dash = dash
      self.maxLevel = maxLevel
      self.minZoomKey = minZoomKey
    }
  }

  /// A kind of label: which point (or line) features, from which zoom, in what colour, with
  /// what base priority (higher wins a place first).
  public struct LabelRule: Sendable {
    /// The vector tile layer whose features are named.
    public var layer: String
    /// The property that selects features (nil: every feature).
    public var key: String?
    /// Accepted values of `key` (empty: any value).
    public var values: Set<String>
    /// The lowest map zoom the names show at.
    public var minZoom: Double
    /// The names' colour.
    public var color: TermColor
    /// Whether the names are bold.
    public var bold: Bool
    /// The names' rank when labels compete for room (higher wins).
    public var priority: Double
    /// Only places of at least this population show below `populationZoom` levels past minZoom.
    public var populationScale: Double
    /// The feature property that ranks features of this rule (`rank` in OpenMapTiles); nil:
    /// none.
    public var rankKey: String?
    /// Added to the priority per unit of `rankKey` (−1: rank 1 is the most important, as in
    /// OpenMapTiles; +1 for ranks where more is more important, as Protomaps'
    /// `population_rank`).
    public var rankWeight: Double
    /// As `Rule.minZoomKey`: a feature property holding the zoom the label shows from.
    public var minZoomKey: String?
    /// Feature properties holding a point of interest's class, in order of preference (the
    /// first present is the label's `category`, which `MapView.pointOfInterestFilter`
    /// matches); empty: the rule's names are not points of interest.
    public var categoryKeys: [String]

    /// A label rule.
    public init(
      layer: String, key: String? = "class", values: Set<String> = [], minZoom: Double,
      color: TermColor, bold: Bool = false, priority: Double, populationScale: Double = 0,
      rankKey: String? = "rank", rankWeight: Double = -1, minZoomKey: String? = nil,
      categoryKeys: [String] = []
    ) {
      self.layer = layer
      self.key = key
      self.values = values
      self.minZoom = minZoom
      self.color = color
      self.bold = bold
      self.priority = priority
      self.populationScale = populationScale
      self.rankKey = rankKey
      self.rankWeight = rankWeight
      self.minZoomKey = minZoomKey
      self.categoryKeys = categoryKeys
    }
  }

  /// The style's name (for messages and `info`).
  public var name: String
  /// Drawn in order: later rules on top.
  public var rules: [Rule]
  /// Which features are named, and how.
  public var labels: [LabelRule]
  /// The marker put before a city's name.
  public var placeDot: Character
  /// The colour of the marker before a city's name.
  public var placeDotColor: TermColor
  /// Feature properties that hold a label's text, in order of preference: the first whose
  /// value a terminal cell can show (a script below U+2E80, so not CJK) wins, else the first
  /// present. OpenMapTiles has `name` and `name_en`; tilemaker's OpenMapTiles profile writes
  /// `name:latin` (and `name_int`) instead.
  public var nameKeys: [String] = ["name", "name_en", "name:latin", "name_int"]

  /// The label language: feature properties holding names in it (`name:fi`, `name_fi`, …,
  /// from `localized(to:)`) are tried before `nameKeys`, whatever their script. Empty: none.
  public var languageKeys: [String] = []
  /// The language `localized(to:)` set (a code such as `fi` or `zh-Hant`), nil for none.
  public var language: String?

  /// Dark terminals (the default).
  public static let dark = openMapTiles(.dark, name: "dark")

  /// Light terminals.
  public static let light = openMapTiles(.light, name: "light")

  /// No colour (`NO_COLOR`, or any terminal): one grey, with the kinds of features told apart
  /// by line width, dashes and fill texture.
  public static let mono = openMapTiles(.mono, name: "mono")

  /// The [OpenMapTiles](https://openmaptiles.org/schema/) style drawn in a palette.
  public static func openMapTiles(_ p: Palette, name: String) -> BasemapStyle {
    BasemapStyle(
      name: name,
      rules: [
        Rule(
          layer: "landcover", key: "class", values: ["wood", "forest", "grass", "park"],
          minZoom: 12, fill: p.park, fillPattern: p.parkPattern),
        Rule(
          layer: "landuse", key: "class", values: ["park", "cemetery", "grass"], minZoom: 12,
          fill: p.park, fillPattern: p.parkPattern),
        // Built-up areas outlined until streets take over (the world's Natural Earth urban
        // areas; OpenMapTiles' residential land use).
        Rule(
          layer: "landuse", key: "class", values: ["residential"], minZoom: 6, maxZoom: 12,
          stroke: p.urban),
        Rule(layer: "water", minZoom: 0, fill: p.water, fillPattern: p.waterPattern),
        Rule(layer: "coastline", minZoom: 0, stroke: p.waterLine),
        Rule(layer: "water", minZoom: 9, stroke: p.waterLine),
        Rule(layer: "waterway", key: "class", values: ["river"], minZoom: 6, stroke: p.river),
        Rule(layer: "waterway", minZoom: 10, stroke: p.river),
        Rule(layer: "building", minZoom: 14, stroke: p.building),
        Rule(
          layer: "boundary", minZoom: 3, stroke: p.boundary, dash: [1, 2],
          maxLevel: ("admin_level", 4)),
        Rule(
          layer: "boundary", minZoom: 0, stroke: p.countryBoundary, maxLevel: ("admin_level", 2)),
        Rule(
          layer: "transportation", key: "class", values: ["path", "track"], minZoom: 15,
          stroke: p.path, dash: p.pathDash),
        Rule(
          layer: "transportation", key: "class", values: ["service"], minZoom: 15,
          stroke: p.service, dash: p.serviceDash),
        Rule(
          layer: "transportation", key: "class", values: ["minor"], minZoom: 13,
          stroke: p.minor),
        Rule(
          layer: "transportation", key: "class",
          // OpenMapTiles' rail and transit; tilemaker's profile writes the railway value.
          values: ["rail", "transit", "narrow_gauge", "light_rail", "subway", "tram", "funicular"],
          minZoom: 12, stroke: p.rail, dash: p.railDash),
        Rule(
          layer: "transportation", key: "class", values: ["tertiary"], minZoom: 11,
          stroke: p.tertiary),
        Rule(
          layer: "transportation", key: "class", values: ["secondary"], minZoom: 11,
          stroke: p.major, lineWidth: p.majorWidth),
        Rule(
          layer: "transportation", key: "class", values: ["primary"], minZoom: 8,
          stroke: p.major, lineWidth: p.majorWidth),
        Rule(
          layer: "transportation", key: "class", values: ["trunk"], minZoom: 8,
          stroke: p.trunk, lineWidth: p.motorwayWidth),
        Rule(
          layer: "transportation", key: "class", values: ["motorway"], minZoom: 5,
          stroke: p.motorway, lineWidth: p.motorwayWidth),
      ],
      labels: [
        LabelRule(
          layer: "place", values: ["country"], minZoom: 0, color: p.countryLabel, bold: true,
          priority: 900),
        LabelRule(
          layer: "place", values: ["state"], minZoom: 5, color: p.stateLabel, priority: 500),
        LabelRule(
          layer: "place", values: ["city"], minZoom: 2, color: p.cityLabel, bold: p.boldCities,
          priority: 700, populationScale: 1),
        LabelRule(
          layer: "place", values: ["town"], minZoom: 7, color: p.townLabel, priority: 400,
          populationScale: 1),
        LabelRule(
          layer: "place", values: ["village", "suburb", "quarter", "neighbourhood"], minZoom: 12,
          color: p.villageLabel, priority: 300),
        LabelRule(
          layer: "transportation_name", key: nil, minZoom: 14, color: p.streetLabel,
          priority: 200),
        LabelRule(
          layer: "poi", key: nil, minZoom: 16, color: p.poiLabel, priority: 100,
          categoryKeys: ["class", "subclass"]),
      ],
      placeDot: "•", placeDotColor: p.placeDot)
  }

  /// The style with names in a language first: `name:CODE` (OpenMapTiles, Protomaps),
  /// `name_CODE` (OpenMapTiles' `name_en`/`name_de`, Shortbread) and Protomaps'
  /// `pgf:name:CODE`, each taken whatever its script, then the style's own `nameKeys` as
  /// before (as MapLibre's language controls put `["coalesce", ["get", "name:xx"], …]`
  /// in front of a style's `text-field`). A code with a region or script (`zh-Hant`, `pt-BR`)
  /// tries the full code, then its language. nil or an empty code: the style unchanged.
  public func localized(to code: String?) -> BasemapStyle {
    var s = self
    s.languageKeys = []
    s.language = nil
    guard let code, !code.isEmpty else { return s }
    var codes = [code]
    if let cut = code.firstIndex(where: { $0 == "-" || $0 == "_" }) {
      codes.append(String(code[..<cut]))
    }
    for c in codes {
      s.languageKeys += ["name:\(c)", "name_\(c)", "pgf:name:\(c)"]
    }
    s.language = code
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

    /// The palette of the theme.
    public var palette: Palette {
      switch self {
      case .dark: return .dark
      case .light: return .light
      case .mono: return .mono
      }
    }
  }

  /// The style that draws a schema's tiles.
  public static func forSchema(_ schema: VectorSchema, variant: Variant = .dark) -> BasemapStyle {
    switch (schema, variant) {
    case (.openMapTiles, .dark): return .dark
    case (.openMapTiles, .light): return .light
    case (.openMapTiles, .mono): return .mono
    case (.shortbread, .dark): return .shortbread
    case (.shortbread, .light): return .shortbreadLight
    case (.shortbread, .mono): return .shortbreadMono
    case (.protomaps, .dark): return .protomaps
    case (.protomaps, .light): return .protomapsLight
    case (.protomaps, .mono): return .protomapsMono
    }
  }

  /// The style for tiles with these layers (a source's `vectorLayers`, or a decoded tile's
  /// layer names); nil when the names do not tell the schema (see `VectorSchema.detect`).
  public static func forSchema(vectorLayers: some Sequence<String>, variant: Variant = .dark)
    -> BasemapStyle?
  {
    VectorSchema.detect(layerNames: vectorLayers).map { forSchema($0, variant: variant) }
  }
}
