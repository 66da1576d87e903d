import DotRaster

extension BasemapStyle {
  /// [Protomaps basemap](https://docs.protomaps.com/basemaps/layers) tiles (layers version 4)
  /// on dark terminals: the same look as `dark` (OpenMapTiles), with Protomaps' layers,
  /// `kind`/`kind_detail` values, and each feature's `min_zoom` respected. Land is the
  /// terminal's background, so `earth` is not drawn; `landcover` only exists below zoom 8
  /// and is not drawn either.
  public static let protomaps = BasemapStyle(
    name: "protomaps",
    rules: [
      Rule(
        layer: "landuse", key: "kind",
        values: [
          "park", "garden", "cemetery", "grass", "forest", "wood", "recreation_ground",
          "golf_course", "nature_reserve", "national_park", "grassland", "scrub",
        ], minZoom: 12, fill: .cube(0, 2, 0), fillPattern: .sparse),
      Rule(layer: "water", minZoom: 0, fill: .cube(0, 1, 3), fillPattern: .sparse),
      Rule(layer: "water", minZoom: 9, stroke: .cube(1, 3, 5), minZoomKey: "min_zoom"),
      Rule(layer: "buildings", minZoom: 14, stroke: TermColor(242)),
      Rule(
        layer: "boundaries", key: "kind", values: ["region"], minZoom: 3, stroke: TermColor(240),
        dash: [1, 2], minZoomKey: "min_zoom"),
      Rule(
        layer: "boundaries", key: "kind", values: ["country"], minZoom: 0, stroke: TermColor(248)),
      Rule(
        layer: "roads", key: "kind", values: ["path"], minZoom: 15, stroke: TermColor(239),
        dash: [1, 1], minZoomKey: "min_zoom"),
      Rule(
        layer: "roads", key: "kind", values: ["other"], minZoom: 15, stroke: TermColor(240),
        minZoomKey: "min_zoom"),
      Rule(
        layer: "roads", key: "kind", values: ["minor_road"], minZoom: 13, stroke: TermColor(245),
        minZoomKey: "min_zoom"),
      Rule(
        layer: "roads", key: "kind", values: ["rail"], minZoom: 12, stroke: TermColor(243),
        dash: [2, 2], minZoomKey: "min_zoom"),
      // major_road covers trunk to tertiary: kind_detail (the OSM highway value) parts them.
      Rule(
        layer: "roads", key: "kind_detail", values: ["tertiary", "secondary"], minZoom: 11,
        stroke: TermColor(252), minZoomKey: "min_zoom"),
      Rule(
        layer: "roads", key: "kind_detail", values: ["primary", "trunk"], minZoom: 8,
        stroke: .cube(5, 4, 1), minZoomKey: "min_zoom"),
      Rule(
        layer: "roads", key: "kind", values: ["highway"], minZoom: 5, stroke: .cube(5, 2, 0),
        minZoomKey: "min_zoom"),
    ],
    labels: [
      LabelRule(
        layer: "places", key: "kind", values: ["country"], minZoom: 0, color: .brightWhite,
        bold: true, priority: 900, rankKey: nil, minZoomKey: "min_zoom"),
      LabelRule(
        layer: "places", key: "kind", values: ["region"], minZoom: 5, color: TermColor(250),
        priority: 500, rankKey: nil, minZoomKey: "min_zoom"),
      // Localities: cities and towns by kind_detail, ranked by population and
      // population_rank (more is bigger).
      LabelRule(
        layer: "places", key: "kind_detail", values: ["city"], minZoom: 2, color: .brightYellow,
        priority: 700, populationScale: 1, rankKey: "population_rank", rankWeight: 1,
        minZoomKey: "min_zoom"),
      LabelRule(
        layer: "places", key: "kind_detail", values: ["town"], minZoom: 7, color: .yellow,
        priority: 400, populationScale: 1, rankKey: "population_rank", rankWeight: 1,
        minZoomKey: "min_zoom"),
      LabelRule(
        layer: "places", key: "kind",
        values: ["locality", "neighbourhood", "macrohood", "microhood"], minZoom: 12,
        color: TermColor(250), priority: 300, rankKey: "population_rank", rankWeight: 1,
        minZoomKey: "min_zoom"),
      LabelRule(
        layer: "roads", key: nil, minZoom: 15, color: TermColor(252), priority: 200, rankKey: nil
      ),
      LabelRule(
        layer: "pois", key: nil, minZoom: 16, color: .cyan, priority: 100, rankKey: nil,
        minZoomKey: "min_zoom", categoryKeys: ["kind"]),
    ],
    placeDot: "•", placeDotColor: .brightYellow,
    nameKeys: ["name", "name:en", "pgf:name"])

  /// `protomaps` for light terminals.
  public static let protomapsLight = BasemapStyle.protomaps.lightVariant(named: "protomaps-light")
}
