/// The common ways vector tiles of OpenStreetMap data name their layers and attributes. Each
/// has one style description (`BasemapStyle.forSchema(_:variant:)`); the renderer itself
/// knows none of them.
public enum VectorSchema: String, Sendable, CaseIterable {
  /// [OpenMapTiles](https://openmaptiles.org/schema/): `water`, `landcover`, `landuse`,
  /// `transportation`, `transportation_name`, `building`, `place`, `poi`, `boundary`, … with
  /// `class`/`subclass`. Also what tilemaker's and Planetiler's default profiles write, and
  /// termmap's own world.pmtiles.
  case openMapTiles
  /// [Shortbread 1.0](https://shortbread-tiles.org/schema/1.0/), the schema of
  /// OpenStreetMap's own vector tiles: `ocean`, `water_polygons`, `water_lines`, `land`,
  /// `sites`, `buildings`, `streets`, `street_labels`, `boundaries`, `place_labels`, `pois`,
  /// … with `kind`.
  case shortbread
  /// The [Protomaps basemap](https://docs.protomaps.com/basemaps/layers) (version 4):
  /// `earth`, `water`, `landuse`, `landcover`, `roads`, `buildings`, `boundaries`, `places`,
  /// `pois`, … with `kind`, `kind_detail` and `min_zoom`.
  case protomaps

  /// Layer names only this schema uses (names two schemas share, such as `water`,
  /// `buildings` or `boundaries`, tell nothing).
  public var distinctiveLayers: Set<String> {
    switch self {
    case .openMapTiles:
      return [
        "transportation", "transportation_name", "building", "place", "poi", "boundary",
        "waterway", "water_name", "housenumber", "aeroway", "aerodrome_label", "park",
        "mountain_peak", "coastline",
      ]
    case .shortbread:
      return [
        "ocean", "water_polygons", "water_polygons_labels", "water_lines", "water_lines_labels",
        "land", "sites", "streets", "street_polygons", "street_labels", "street_labels_points",
        "place_labels", "boundary_labels", "addresses", "aerialways", "ferries",
        "public_transport", "bridges", "dam_lines", "dam_polygons", "pier_lines", "pier_polygons",
      ]
    case .protomaps:
      return ["earth", "roads", "places", "transit", "physical_line", "physical_point", "natural"]
    }
  }

  /// The schema whose distinctive layer names are most among `layerNames` (a source's
  /// `vectorLayers` from its TileJSON or MBTiles metadata, or a decoded tile's layer names);
  /// nil when none has any, or two have as many.
  public static func detect(layerNames: some Sequence<String>) -> VectorSchema? {
    let names = Set(layerNames)
    let scored = allCases.map { ($0, $0.distinctiveLayers.intersection(names).count) }
      .sorted { $0.1 > $1.1 }
    guard let best = scored.first, best.1 > 0, scored[1].1 < best.1 else { return nil }
    return best.0
  }
}
