import DotRaster

extension BasemapStyle {
  /// [Protomaps basemap](https://docs.protomaps.com/basemaps/layers) tiles (layers version 4)
  /// on dark terminals: the same look as `dark` (OpenMapTiles), with Protomaps' layers,
  /// `kind`/`kind_detail` values, and each feature's `min_zoom` respected. Land is the
  /// terminal's background, so `earth` is not drawn; `landcover` only exists below zoom 8
  /// and is not drawn either.
  public static let protomaps = protomaps(.dark, name: "protomaps")

  /// `protomaps` for light terminals.
  public static let protomapsLight = protomaps(.light, name: "protomaps-light")

  /// `protomaps` without colour (see `mono`).
  public static let protomapsMono = protomaps(.mono, name: "protomaps-mono")

  /// The Protomaps style drawn in a palette.
  public static func protomaps(_ p: Palette, name: String) -> BasemapStyle {
    BasemapStyle(
      name: name,
      rules: [
        Rule(
          layer: "landuse", key: "kind",
          values: [
            "park", "garden", "cemetery", "grass", "forest", "wood", "recreation_ground",
            "golf_course", "nature_reserve", "national_park", "grassland", "scrub",
          ], minZoom: 12, fill: p.park, fillPattern: p.parkPattern),
        Rule(layer: "water", minZoom: 0, fill: p.water, fillPattern: p.waterPattern),
        Rule(layer: "water", minZoom: 9, stroke: p.waterLine, minZoomKey: "min_zoom"),
        Rule(layer: "buildings", minZoom: 14, stroke: p.building),
        Rule(
          layer: "boundaries", key: "kind", values: ["region"], minZoom: 3, stroke: p.boundary,
          dash: [1, 2], minZoomKey: "min_zoom"),
        Rule(
          layer: "boundaries", key: "kind", values: ["country"], minZoom: 0,
          stroke: p.countryBoundary),
        Rule(
          layer: "roads", key: "kind", values: ["path"], minZoom: 15, stroke: p.path,
          dash: p.pathDash, minZoomKey: "min_zoom"),
        Rule(
          layer: "roads", key: "kind", values: ["other"], minZoom: 15, stroke: p.service,
          dash: p.serviceDash,
          minZoomKey: "min_zoom"),
        Rule(
          layer: "roads", key: "kind", values: ["minor_road"], minZoom: 13, stroke: p.minor,
          minZoomKey: "min_zoom"),
        Rule(
          layer: "roads", key: "kind", values: ["rail"], minZoom: 12, stroke: p.rail,
          dash: p.railDash, minZoomKey: "min_zoom"),
        // major_road covers trunk to tertiary: kind_detail (the OSM highway value) parts them.
        Rule(
          layer: "roads", key: "kind_detail", values: ["tertiary"], minZoom: 11,
          stroke: p.tertiary, minZoomKey: "min_zoom"),
        Rule(
          layer: "roads", key: "kind_detail", values: ["secondary"], minZoom: 11,
          stroke: p.major, lineWidth: p.majorWidth, minZoomKey: "min_zoom"),
        Rule(
          layer: "roads", key: "kind_detail", values: ["primary"], minZoom: 8,
          stroke: p.major, lineWidth: p.majorWidth, minZoomKey: "min_zoom"),
        Rule(
          layer: "roads", key: "kind_detail", values: ["trunk"], minZoom: 8,
          stroke: p.trunk, lineWidth: p.motorwayWidth, minZoomKey: "min_zoom"),
        Rule(
          layer: "roads", key: "kind", values: ["highway"], minZoom: 5, stroke: p.motorway,
          lineWidth: p.motorwayWidth, minZoomKey: "min_zoom"),
      ],
      labels: [
        LabelRule(
          layer: "places", key: "kind", values: ["country"], minZoom: 0, color: p.countryLabel,
          bold: true, priority: 900, rankKey: nil, minZoomKey: "min_zoom"),
        LabelRule(
          layer: "places", key: "kind", values: ["region"], minZoom: 5, color: p.stateLabel,
          priority: 500, rankKey: nil, minZoomKey: "min_zoom"),
        // Localities: cities and towns by kind_detail, ranked by population and
        // population_rank (more is bigger).
        LabelRule(
          layer: "places", key: "kind_detail", values: ["city"], minZoom: 2, color: p.cityLabel,
          bold: p.boldCities, priority: 700, populationScale: 1, rankKey: "population_rank",
          rankWeight: 1,
          minZoomKey: "min_zoom"),
        LabelRule(
          layer: "places", key: "kind_detail", values: ["town"], minZoom: 7, color: p.townLabel,
          priority: 400, populationScale: 1, rankKey: "population_rank", rankWeight: 1,
          minZoomKey: "min_zoom"),
        LabelRule(
          layer: "places", key: "kind",
          values: ["locality", "neighbourhood", "macrohood", "microhood"], minZoom: 12,
          color: p.villageLabel, priority: 300, rankKey: "population_rank", rankWeight: 1,
          minZoomKey: "min_zoom"),
        LabelRule(
          layer: "roads", key: nil, minZoom: 14, color: p.streetLabel, priority: 200, rankKey: nil
        ),
        LabelRule(
          layer: "pois", key: nil, minZoom: 16, color: p.poiLabel, priority: 100, rankKey: nil,
          minZoomKey: "min_zoom", categoryKeys: ["kind"]),
      ],
      placeDot: "•", placeDotColor: p.placeDot,
      nameKeys: ["name", "name:en", "pgf:name"])
  }
}
