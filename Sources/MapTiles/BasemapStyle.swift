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

  /// Dark terminals (the default).
  public static let dark = BasemapStyle(
    name: "dark",
    rules: [
      Rule(
        layer: "landcover", key: "class", values: ["wood", "forest", "grass", "park"], minZoom: 12,
        fill: .cube(0, 2, 0), fillPattern: .sparse),
      Rule(
        layer: "landuse", key: "class", values: ["park", "cemetery", "grass"], minZoom: 12,
        fill: .cube(0, 2, 0), fillPattern: .sparse),
      // Built-up areas outlined until streets take over (the world's Natural Earth urban
      // areas; OpenMapTiles' residential land use).
      Rule(
        layer: "landuse", key: "class", values: ["residential"], minZoom: 6, maxZoom: 12,
        stroke: TermColor(238)),
      Rule(layer: "water", minZoom: 0, fill: .cube(0, 1, 3), fillPattern: .sparse),
      Rule(layer: "coastline", minZoom: 0, stroke: .cube(1, 3, 5)),
      Rule(layer: "water", minZoom: 9, stroke: .cube(1, 3, 5)),
      Rule(layer: "waterway", key: "class", values: ["river"], minZoom: 6, stroke: .cube(1, 2, 5)),
      Rule(layer: "waterway", minZoom: 10, stroke: .cube(1, 2, 5)),
      Rule(layer: "building", minZoom: 14, stroke: TermColor(242)),
      Rule(
        layer: "boundary", minZoom: 3, stroke: TermColor(240), dash: [1, 2],
        maxLevel: ("admin_level", 4)),
      Rule(layer: "boundary", minZoom: 0, stroke: TermColor(248), maxLevel: ("admin_level", 2)),
      Rule(
        layer: "transportation", key: "class", values: ["path", "track"], minZoom: 15,
        stroke: TermColor(239), dash: [1, 1]),
      Rule(
        layer: "transportation", key: "class", values: ["service"], minZoom: 15,
        stroke: TermColor(240)),
      Rule(
        layer: "transportation", key: "class", values: ["minor"], minZoom: 13,
        stroke: TermColor(245)),
      Rule(
        layer: "transportation", key: "class",
        // OpenMapTiles' rail and transit; tilemaker's profile writes the railway value.
        values: ["rail", "transit", "narrow_gauge", "light_rail", "subway", "tram", "funicular"],
        minZoom: 12,
        stroke: TermColor(243), dash: [2, 2]),
      Rule(
        layer: "transportation", key: "class", values: ["tertiary", "secondary"], minZoom: 11,
        stroke: TermColor(252)),
      Rule(
        layer: "transportation", key: "class", values: ["primary", "trunk"], minZoom: 8,
        stroke: .cube(5, 4, 1)),
      Rule(
        layer: "transportation", key: "class", values: ["motorway"], minZoom: 5,
        stroke: .cube(5, 2, 0)),
    ],
    labels: [
      LabelRule(
        layer: "place", values: ["country"], minZoom: 0, color: .brightWhite, bold: true,
        priority: 900),
      LabelRule(
        layer: "place", values: ["state"], minZoom: 5, color: TermColor(250), priority: 500),
      LabelRule(
        layer: "place", values: ["city"], minZoom: 2, color: .brightYellow, priority: 700,
        populationScale: 1),
      LabelRule(
        layer: "place", values: ["town"], minZoom: 7, color: .yellow, priority: 400,
        populationScale: 1),
      LabelRule(
        layer: "place", values: ["village", "suburb", "quarter", "neighbourhood"], minZoom: 12,
        color: TermColor(250), priority: 300),
      LabelRule(
        layer: "transportation_name", key: nil, minZoom: 15, color: TermColor(252), priority: 200),
      LabelRule(
        layer: "poi", key: nil, minZoom: 16, color: .cyan, priority: 100,
        categoryKeys: ["class", "subclass"]),
    ],
    placeDot: "•", placeDotColor: .brightYellow)

  /// Light terminals.
  public static let light = BasemapStyle.dark.lightVariant(named: "light")

  /// The same style for light terminals: the dark style's colours mapped to darker ones
  /// (every style of this palette derives its light variant this way).
  public func lightVariant(named name: String) -> BasemapStyle {
    var s = self
    s.name = name
    let remap: [UInt8: TermColor] = [
      TermColor.cube(0, 1, 3).index: .cube(2, 3, 5), TermColor.cube(1, 3, 5).index: .cube(0, 1, 4),
      TermColor.cube(1, 2, 5).index: .cube(0, 1, 4), TermColor(248).index: TermColor(240),
      TermColor(240).index: TermColor(246), TermColor(252).index: TermColor(238),
      TermColor(245).index: TermColor(242), TermColor.cube(5, 4, 1).index: .cube(4, 2, 0),
      TermColor(238).index: TermColor(250),
      TermColor.cube(2, 2, 2).index: TermColor(250), TermColor(244).index: TermColor(245),
    ]
    s.rules = s.rules.map { r in
      var r = r
      if let f = r.fill, let m = remap[f.index] { r.fill = m }
      if let c = r.stroke, let m = remap[c.index] { r.stroke = m }
      return r
    }
    s.labels = s.labels.map { l in
      var l = l
      l.color =
        l.color == .brightWhite
        ? .black
        : l.color == .brightYellow ? .red : l.color == .yellow ? TermColor(94) : TermColor(238)
      return l
    }
    s.placeDotColor = .red
    return s
  }

  /// The style of a name (`dark`, `light`).
  public static func named(_ name: String) -> BasemapStyle? {
    switch name {
    case "dark": return .dark
    case "light": return .light
    default: return nil
    }
  }

  /// Dark or light terminals.
  public enum Variant: String, Sendable, CaseIterable {
    /// Light text and lines on a dark terminal.
    case dark
    /// Dark text and lines on a light terminal.
    case light
  }

  /// The style that draws a schema's tiles.
  public static func forSchema(_ schema: VectorSchema, variant: Variant = .dark) -> BasemapStyle {
    switch (schema, variant) {
    case (.openMapTiles, .dark): return .dark
    case (.openMapTiles, .light): return .light
    case (.shortbread, .dark): return .shortbread
    case (.shortbread, .light): return .shortbreadLight
    case (.protomaps, .dark): return .protomaps
    case (.protomaps, .light): return .protomapsLight
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
