import DotRaster

extension BasemapStyle {
  /// [Shortbread 1.0](https://shortbread-tiles.org/schema/1.0/) tiles (OpenStreetMap's own
  /// vector tiles) on dark terminals: the same look as `dark` (OpenMapTiles), rule for rule,
  /// with Shortbread's layers and `kind` values.
  public static let shortbread = BasemapStyle(
    name: "shortbread",
    rules: [
      Rule(
        layer: "land", key: "kind",
        values: [
          "forest", "grass", "meadow", "park", "garden", "village_green", "recreation_ground",
          "cemetery", "grave_yard", "golf_course", "heath", "scrub", "allotments",
        ], minZoom: 12, fill: .cube(0, 2, 0), fillPattern: .sparse),
      Rule(layer: "ocean", minZoom: 0, fill: .cube(0, 1, 3), fillPattern: .sparse),
      Rule(layer: "water_polygons", minZoom: 4, fill: .cube(0, 1, 3), fillPattern: .sparse),
      Rule(layer: "ocean", minZoom: 9, stroke: .cube(1, 3, 5)),
      Rule(layer: "water_polygons", minZoom: 9, stroke: .cube(1, 3, 5)),
      Rule(layer: "water_lines", minZoom: 10, stroke: .cube(1, 2, 5)),
      Rule(layer: "buildings", minZoom: 14, stroke: TermColor(242)),
      Rule(
        layer: "boundaries", minZoom: 3, stroke: TermColor(240), dash: [1, 2],
        maxLevel: ("admin_level", 4)),
      Rule(layer: "boundaries", minZoom: 0, stroke: TermColor(248), maxLevel: ("admin_level", 2)),
      Rule(
        layer: "streets", key: "kind",
        values: ["path", "footway", "steps", "cycleway", "bridleway", "track"], minZoom: 15,
        stroke: TermColor(239), dash: [1, 1]),
      Rule(layer: "streets", key: "kind", values: ["service"], minZoom: 15, stroke: TermColor(240)),
      Rule(
        layer: "streets", key: "kind",
        values: ["unclassified", "residential", "living_street", "pedestrian", "busway"],
        minZoom: 13, stroke: TermColor(245)),
      Rule(
        layer: "streets", key: "kind",
        values: ["rail", "narrow_gauge", "light_rail", "tram", "subway", "funicular", "monorail"],
        minZoom: 12, stroke: TermColor(243), dash: [2, 2]),
      Rule(
        layer: "streets", key: "kind", values: ["tertiary", "secondary"], minZoom: 11,
        stroke: TermColor(252)),
      Rule(
        layer: "streets", key: "kind", values: ["primary", "trunk"], minZoom: 8,
        stroke: .cube(5, 4, 1)),
      Rule(layer: "streets", key: "kind", values: ["motorway"], minZoom: 5, stroke: .cube(5, 2, 0)),
    ],
    labels: [
      // Shortbread has no rank: places are ranked by population alone.
      LabelRule(
        layer: "place_labels", key: "kind", values: ["capital", "state_capital", "city"],
        minZoom: 2, color: .brightYellow, priority: 700, populationScale: 1, rankKey: nil),
      LabelRule(
        layer: "place_labels", key: "kind", values: ["town"], minZoom: 7, color: .yellow,
        priority: 400, populationScale: 1, rankKey: nil),
      LabelRule(
        layer: "place_labels", key: "kind",
        values: ["village", "suburb", "quarter", "neighbourhood", "hamlet"], minZoom: 12,
        color: TermColor(250), priority: 300, rankKey: nil),
      LabelRule(
        layer: "street_labels", key: nil, minZoom: 15, color: TermColor(252), priority: 200,
        rankKey: nil),
      LabelRule(
        layer: "pois", key: nil, minZoom: 16, color: .cyan, priority: 100, rankKey: nil,
        categoryKeys: ["amenity", "shop", "tourism", "leisure", "historic"]),
    ],
    placeDot: "•", placeDotColor: .brightYellow,
    nameKeys: ["name", "name_en", "name_de"])

  /// `shortbread` for light terminals.
  public static let shortbreadLight = BasemapStyle.shortbread.lightVariant(
    named: "shortbread-light")
}
