import DotRaster

extension BasemapStyle {
  /// The colours, textures and widths the built-in styles give each kind of feature: one
  /// palette per theme (`dark`, `light`, `mono`), shared by the three schemas' styles, so a
  /// road class looks the same whatever the tiles.
  ///
  /// The colours are chosen in the xterm 256-colour palette so that each kind of feature
  /// also falls on its own one of the 16 basic colours (`TermColor.basic16`), where a
  /// terminal has no more: see docs/themes.md for the table.
  public struct Palette: Sendable, Equatable {
    /// Lakes and the sea (a sparse fill).
    public var water: TermColor
    /// The fill texture of water.
    public var waterPattern: DotPattern
    /// Coastlines and the outlines of lakes.
    public var waterLine: TermColor
    /// Rivers and streams.
    public var river: TermColor
    /// Parks, woods and grass (a sparse fill).
    public var park: TermColor
    /// The fill texture of parks.
    public var parkPattern: DotPattern
    /// The outlines of built-up areas at low zoom.
    public var urban: TermColor
    /// Building outlines.
    public var building: TermColor
    /// State borders (dashed).
    public var boundary: TermColor
    /// Country borders.
    public var countryBoundary: TermColor
    /// Footways, cycleways and tracks.
    public var path: TermColor
    /// The dashes of paths, in dots.
    public var pathDash: [Double]
    /// Service roads.
    public var service: TermColor
    /// The dashes of service roads, in dots (empty: solid).
    public var serviceDash: [Double]
    /// Residential and other minor streets.
    public var minor: TermColor
    /// Railways, trams and the metro.
    public var rail: TermColor
    /// The dashes of railways, in dots.
    public var railDash: [Double]
    /// Tertiary roads.
    public var tertiary: TermColor
    /// Primary and secondary roads.
    public var major: TermColor
    /// The width of primary and secondary roads, in dots.
    public var majorWidth: Double
    /// Trunk roads.
    public var trunk: TermColor
    /// Motorways.
    public var motorway: TermColor
    /// The width of motorways and trunk roads, in dots.
    public var motorwayWidth: Double
    /// Country names.
    public var countryLabel: TermColor
    /// State and region names.
    public var stateLabel: TermColor
    /// City names.
    public var cityLabel: TermColor
    /// Whether city names are bold.
    public var boldCities: Bool
    /// Town names.
    public var townLabel: TermColor
    /// Village, suburb and neighbourhood names.
    public var villageLabel: TermColor
    /// Street names.
    public var streetLabel: TermColor
    /// Names of points of interest.
    public var poiLabel: TermColor
    /// The dot before a city's name.
    public var placeDot: TermColor

    /// Dark terminals. In 16 colours: water blue, its lines bright blue, parks green,
    /// buildings bright black (grey), minor streets white, tertiary roads yellow, primary and
    /// secondary bright yellow, trunk roads red, motorways bright red, paths cyan, railways
    /// magenta.
    public static let dark = Palette(
      water: .cube(0, 1, 3), waterPattern: .sparse, waterLine: .cube(1, 3, 5),
      river: .cube(1, 2, 5), park: .cube(0, 3, 0), parkPattern: .sparse, urban: TermColor(238),
      building: .cube(1, 1, 2), boundary: TermColor(240), countryBoundary: TermColor(248),
      path: .cube(0, 3, 3), pathDash: [1, 1], service: TermColor(250), serviceDash: [],
      minor: TermColor(253), rail: .cube(3, 0, 3), railDash: [2, 2], tertiary: .cube(4, 3, 0),
      major: .cube(5, 4, 0), majorWidth: 1, trunk: .cube(4, 1, 0), motorway: .cube(5, 1, 0),
      motorwayWidth: 1, countryLabel: .brightWhite, stateLabel: TermColor(250),
      cityLabel: .brightYellow, boldCities: false, townLabel: .yellow,
      villageLabel: TermColor(250), streetLabel: TermColor(252), poiLabel: .cyan,
      placeDot: .brightYellow)

    /// Light terminals: the dark palette's kinds in darker colours. In 16 colours: water
    /// bright blue, its lines blue, parks green, buildings bright black, minor streets black,
    /// tertiary to secondary roads yellow, trunk roads and motorways red, paths cyan,
    /// railways magenta.
    public static let light = Palette(
      water: .cube(1, 3, 5), waterPattern: .sparse, waterLine: .cube(0, 1, 3),
      river: .cube(0, 1, 4), park: .cube(0, 2, 0), parkPattern: .sparse, urban: TermColor(250),
      building: .cube(2, 2, 3), boundary: TermColor(246), countryBoundary: TermColor(240),
      path: .cube(0, 2, 2), pathDash: [1, 1], service: TermColor(237), serviceDash: [],
      minor: TermColor(236), rail: .cube(2, 0, 2), railDash: [2, 2], tertiary: .cube(3, 2, 0),
      major: .cube(4, 2, 0), majorWidth: 1, trunk: .cube(3, 0, 0), motorway: .cube(4, 0, 0),
      motorwayWidth: 1, countryLabel: .black, stateLabel: TermColor(238), cityLabel: .red,
      boldCities: false, townLabel: TermColor(94), villageLabel: TermColor(238),
      streetLabel: TermColor(238), poiLabel: .cube(0, 1, 2), placeDot: .red)

    /// One grey (mid-grey, readable on dark and light terminals; the terminal's own
    /// foreground when no colour is sent): water a denser texture than parks and outlined,
    /// motorways and trunk roads two dots wide, service roads dashed, paths dotted, railways
    /// in long dashes, city names bold.
    public static let mono: Palette = {
      let ink = TermColor(244)
      return Palette(
        water: ink, waterPattern: DotPattern(bits: 0x02 | 0x80), waterLine: ink, river: ink,
        park: ink, parkPattern: .sparse, urban: ink, building: ink, boundary: ink,
        countryBoundary: ink, path: ink, pathDash: [1, 1], service: ink, serviceDash: [2, 1],
        minor: ink, rail: ink, railDash: [3, 2], tertiary: ink, major: ink, majorWidth: 1,
        trunk: ink, motorway: ink, motorwayWidth: 2, countryLabel: ink, stateLabel: ink,
        cityLabel: ink, boldCities: true, townLabel: ink, villageLabel: ink, streetLabel: ink,
        poiLabel: ink, placeDot: ink)
    }()
  }
}
