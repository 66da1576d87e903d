import DotRaster

extension BasemapStyle {
  /// [Shortbread 1.0](https://shortbread-tiles.org/schema/1.0/) tiles (OpenStreetMap's own
  /// vector tiles) on dark terminals: the same look as `dark` (OpenMapTiles), rule for rule,
  /// with Shortbread's layers and `kind` values.
  public static let shortbread = shortbread(.dark, name: "shortbread")

  /// `shortbread` for light terminals.
  public static let shortbreadLight = shortbread(.light, name: "shortbread-light")

  /// `shortbread` without colour (see `mono`).
  public static let shortbreadMono = shortbread(.mono, name: "shortbread-mono")

  /// The Shortbread style drawn in a palette.
  public static func shortbread(_ p: Palette, name: String) -> BasemapStyle {
    BasemapStyle(
      name: name,
      rules: [
        Rule(
          layer: "land", key: "kind",
          values: [
            "forest", "grass", "meadow", "park", "garden", "village_green", "recreation_ground",
            "cemetery", "grave_yard", "golf_course", "heath", "scrub", "allotments",
          ], minZoom: 12, fill: p.park, fillPattern: p.parkPattern),
        Rule(layer: "ocean", minZoom: 0, fill: p.water, fillPattern: p.waterPattern),
        Rule(layer: "water_polygons", minZoom: 4, fill: p.water, fillPattern: p.waterPattern),
        Rule(layer: "ocean", minZoom: 9, stroke: p.waterLine),
        Rule(layer: "water_polygons", minZoom: 9, stroke: p.waterLine),
        Rule(layer: "water_lines", minZoom: 10, stroke: p.river),
        Rule(layer: "buildings", minZoom: 14, stroke: p.building),
        Rule(
          layer: "boundaries", minZoom: 3, stroke: p.boundary, dash: [1, 2],
          maxLevel: ("admin_level", 4)),
        Rule(
          layer: "boundaries", minZoom: 0, stroke: p.countryBoundary,
          maxLevel: ("admin_level", 2)),
        Rule(
          layer: "streets", key: "kind",
          values: ["path", "footway", "steps", "cycleway", "bridleway", "track"], minZoom: 15,
          stroke: p.path, dash: p.pathDash),
        Rule(
          layer: "streets", key: "kind", values: ["service"], minZoom: 15, stroke: p.service,
          dash: p.serviceDash),
        Rule(
          layer: "streets", key: "kind",
          values: ["unclassified", "residential", "living_street", "pedestrian", "busway"],
          minZoom: 13, stroke: p.minor),
        Rule(
          layer: "streets", key: "kind",
          values: [
            "rail", "narrow_gauge", "light_rail", "tram", "subway", "funicular", "monorail",
          ],
          minZoom: 12, stroke: p.rail, dash: p.railDash),
        Rule(layer: "streets", key: "kind", values: ["tertiary"], minZoom: 11, stroke: p.tertiary),
        Rule(
          layer: "streets", key: "kind", values: ["secondary"], minZoom: 11, stroke: p.major,
          lineWidth: p.majorWidth),
        Rule(
          layer: "streets", key: "kind", values: ["primary"], minZoom: 8, stroke: p.major,
          lineWidth: p.majorWidth),
        Rule(
          layer: "streets", key: "kind", values: ["trunk"], minZoom: 8, stroke: p.trunk,
          lineWidth: p.motorwayWidth),
        Rule(
          layer: "streets", key: "kind", values: ["motorway"], minZoom: 5, stroke: p.motorway,
          lineWidth: p.motorwayWidth),
      ],
      labels: [
        // Shortbread has no rank: places are ranked by population alone.
        LabelRule(
          layer: "place_labels", key: "kind", values: ["capital", "state_capital", "city"],
          minZoom: 2, color: p.cityLabel, bold: p.boldCities, priority: 700, populationScale: 1,
          rankKey: nil),
        LabelRule(
          layer: "place_labels", key: "kind", values: ["town"], minZoom: 7, color: p.townLabel,
          priority: 400, populationScale: 1, rankKey: nil),
        LabelRule(
          layer: "place_labels", key: "kind",
          values: ["village", "suburb", "quarter", "neighbourhood", "hamlet"], minZoom: 12,
          color: p.villageLabel, priority: 300, rankKey: nil),
        LabelRule(
          layer: "street_labels", key: nil, minZoom: 14, color: p.streetLabel, priority: 200,
          rankKey: nil),
        LabelRule(
          layer: "pois", key: nil, minZoom: 16, color: p.poiLabel, priority: 100, rankKey: nil,
          categoryKeys: ["amenity", "shop", "tourism", "leisure", "historic"]),
      ],
      placeDot: "•", placeDotColor: p.placeDot,
      nameKeys: ["name", "name_en", "name_de"])
  }
}
