import DotRaster
import Foundation
import MapGeometry
import MapStyle
import Testing
import TextSnapshots

@testable import MapTiles
@testable import TermMapKit
@testable import TileData

/// Gives tile overlays a `StyledVectorTileRenderer` for a style document.
@MainActor
final class StyledRenderers: MapViewDelegate {
  let document: StyleDocument
  let sourceID: String
  init(_ document: StyleDocument, sourceID: String) {
    self.document = document
    self.sourceID = sourceID
  }
  func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
    guard let tiles = overlay as? TileOverlay else { return MapView.defaultRenderer(for: overlay) }
    return StyledVectorTileRenderer(overlay: tiles, document: document, sourceID: sourceID)
  }
}

/// Monaco's three fixtures drawn with the project's own small style documents
/// (Fixtures/styles/): water in the style's colour, roads by class with `match`, a zoom
/// `interpolate` width, legacy filters, a hidden layer, circles.
@MainActor
@Suite("Styled vector tiles: style documents drawn")
struct StyledRendererTests {
  static let styles = fixtures.appendingPathComponent("styles")

  static func document(_ name: String) throws -> StyleDocument {
    try StyleDocument(data: Data(contentsOf: styles.appendingPathComponent(name + ".json")))
  }

  func frame(
    _ path: String, style: String, source: String, zoom: Double, columns: Int = 160,
    rows: Int = 48, edit: (String) -> String = { $0 }
  ) throws -> (CellBuffer, StyledVectorTileRenderer) {
    let text = try String(
      contentsOf: Self.styles.appendingPathComponent(style + ".json"), encoding: .utf8)
    let document = try StyleDocument(data: Data(edit(text).utf8))
    let delegate = StyledRenderers(document, sourceID: source)
    let map = MapView(columns: columns, rows: rows)
    map.delegate = delegate
    let overlay = SourceTileOverlay(source: try MBTilesSource(path: path))
    map.addOverlay(overlay, level: .aboveRoads)
    map.setCenter(Coordinate(latitude: 43.7384, longitude: 7.4246), animated: false)
    map.setZoomLevel(zoom, animated: false)
    let result = map.renderCompleteFrame(timeout: 60)
    #expect(result.complete)
    let renderer = try #require(map.renderer(for: overlay) as? StyledVectorTileRenderer)
    return (result.frame, renderer)
  }

  static func color(_ css: String) -> TermColor { TermColor(StyleColor(css: css)!) }

  /// Cells inked in `color` (a 24-bit colour or, where the frame keeps palette colours, its
  /// nearest palette colour).
  func cells(_ frame: CellBuffer, in colors: [TermColor]) -> Int {
    var n = 0
    for row in 0..<frame.rows {
      for column in 0..<frame.columns {
        if let c = frame[column, row].foreground, frame[column, row].glyph != " ",
          colors.contains(where: { $0 == c || (!c.isTrueColor && $0.index == c.index) })
        {
          n += 1
        }
      }
    }
    return n
  }

  @Test("the layers drawn, in the style's order; symbol layers kept for labels; notes")
  func plan() throws {
    let doc = try Self.document("omt")
    let overlay = SourceTileOverlay(source: try MBTilesSource(path: monacoPath))
    let r = StyledVectorTileRenderer(overlay: overlay, document: doc, sourceID: "openmaptiles")
    #expect(
      r.drawnLayerIDs == ["water", "park", "building", "minor", "major", "rail"],
      "hidden-paths has visibility none")
    #expect(r.symbolLayers.map(\.id) == ["street-names"])
    #expect(r.notes == ["background: background layers are not drawn by termmap"])
    let other = StyledVectorTileRenderer(overlay: overlay, document: doc, sourceID: "elsewhere")
    #expect(other.drawnLayerIDs.isEmpty && other.symbolLayers.isEmpty)
  }

  @Test("a document marked termmap:colors xterm draws exact xterm entries as palette colours")
  func xtermColors() throws {
    func doc(_ meta: String) throws -> StyleDocument {
      try StyleDocument(
        data: Data(#"{"version":8,"metadata":\#(meta),"sources":{},"layers":[]}"#.utf8))
    }
    #expect(try doc(#"{"termmap:colors":"xterm"}"#).usesXtermColors)
    #expect(try !doc("{}").usesXtermColors)
    func color(_ css: String, _ xterm: Bool) -> TermColor {
      TermColor(StyleColor(css: css)!, xterm: xterm)
    }
    #expect(color("#005faf", true) == .cube(0, 1, 3), "a cube entry")
    #expect(color("rgb(205,0,0)", true) == .red, "a basic colour, the terminal's own red")
    #expect(color("#ffffff", true) == .brightWhite, "basic 15 before cube 231")
    #expect(color("#444444", true) == TermColor(238), "a grey of the ramp")
    #expect(color("#005fae", true).isTrueColor, "off the palette by one: 24-bit")
    #expect(color("#005faf", false).isTrueColor, "without the mark: 24-bit")
  }

  @Test("paint: opacity as dot density, pixels to dots, dashes in line widths")
  func paint() throws {
    let plan = StyledDrawPlan(document: try Self.document("omt"), sourceID: "openmaptiles")
    let background = plan.backgroundColor(zoom: 15)
    #expect(background == StyleColor(css: "#101010"))
    func layer(_ id: String) throws -> StyledDrawPlan.Layer {
      try #require(plan.layers.first { $0.id == id })
    }
    let water = try #require(
      StyledDrawPlan.paint(
        try layer("water"), zoom: 15, feature: nil, background: background))
    #expect(water.fill == TermColor(red: 30, green: 90, blue: 200) && water.stroke == nil)
    #expect(water.pattern == StyledDrawPlan.quarter)
    let park = try #require(
      StyledDrawPlan.paint(
        try layer("park"), zoom: 15, feature: nil, background: background))
    // #2a8a2a at 0.4 against #101010: 0.4 × 0.47 → one dot in eight.
    #expect(park.pattern == .sparse)
    let building = try #require(
      StyledDrawPlan.paint(
        try layer("building"), zoom: 15, feature: nil, background: background))
    #expect(building.stroke == Self.color("#8a8a8a") && building.width == 1)
    #expect(building.pattern == .sparse && building.fill == Self.color("#404040"))
    let rail = try #require(StyledDrawPlan.paint(try layer("rail"), zoom: 15, feature: nil))
    #expect(rail.width == 1 && rail.dash == [2, 2])
    // The major roads' width: 2 px at z12 to 14 px at z16, a quarter in dots.
    let major = try layer("major")
    #expect(major.featureRoles == [StyledDrawPlan.Role.color.rawValue])
    for (zoom, dots) in [(12.0, 1.0), (14, 2), (16, 4)] {
      let p = try #require(StyledDrawPlan.paint(major, zoom: zoom, feature: nil))
      #expect(p.width == dots, "z\(zoom)")
    }
  }

  @Test("fills stand out from the style's background by dot density; tints keep only outlines")
  func contrast() throws {
    let doc = try StyleDocument(
      json: StyleValue(
        json: """
          {"version": 8, "sources": {"s": {"type": "vector", "tiles": []}}, "layers": [
            {"id": "bg", "type": "background", "paint": {"background-color": "#f0f0f0"}},
            {"id": "water", "type": "fill", "source": "s", "source-layer": "water",
             "paint": {"fill-color": "#80a0ff"}},
            {"id": "wood", "type": "fill", "source": "s", "source-layer": "landcover",
             "paint": {"fill-color": "#a0e080", "fill-opacity": 0.4}},
            {"id": "residential", "type": "fill", "source": "s", "source-layer": "landuse",
             "paint": {"fill-color": "#e8e8e0"}},
            {"id": "building", "type": "fill", "source": "s", "source-layer": "building",
             "paint": {"fill-color": "#e8e8e4", "fill-outline-color": "#c0c0c0"}},
            {"id": "wetland", "type": "fill", "source": "s", "source-layer": "landcover",
             "paint": {"fill-pattern": "wetland"}}
          ]}
          """))
    let plan = StyledDrawPlan(document: doc, sourceID: "s")
    let background = try #require(plan.backgroundColor(zoom: 15))
    func paint(_ id: String) throws -> StyledDrawPlan.Paint? {
      StyledDrawPlan.paint(
        try #require(plan.layers.first { $0.id == id }), zoom: 15, feature: nil,
        background: background)
    }
    // #80a0ff against #f0f0f0: 0.44 → two dots in eight.
    #expect(try paint("water")?.pattern == StyledDrawPlan.quarter)
    // 0.4 × 0.31 = 0.13 → one dot in eight.
    #expect(try paint("wood")?.pattern == .sparse)
    // A shade off the page: not drawn.
    #expect(try paint("residential") == nil)
    let building = try #require(try paint("building"))
    #expect(building.fill == nil && building.stroke == Self.color("#c0c0c0"))
    let wetland = try #require(try paint("wetland"))
    #expect(wetland.pattern == .hatch && wetland.fill == TermColor(red: 128, green: 128, blue: 128))
  }

  @Test("OpenMapTiles at zoom 15: water, roads by class, buildings, rail, nothing hidden")
  func openMapTiles() throws {
    let (f, _) = try frame(monacoPath, style: "omt", source: "openmaptiles", zoom: 15)
    #expect(cells(f, in: [Self.color("rgb(30, 90, 200)")]) > 300, "the sea")
    #expect(cells(f, in: [Self.color("#f0d040")]) > 100, "primary roads")
    #expect(cells(f, in: [Self.color("#ffffff")]) > 100, "secondary and tertiary roads")
    #expect(cells(f, in: [Self.color("#c8c8c8")]) > 500, "minor streets")
    #expect(cells(f, in: [Self.color("#8a8a8a")]) > 500, "building outlines")
    #expect(cells(f, in: [Self.color("#b040b0")]) > 0, "the railway")
    #expect(cells(f, in: [Self.color("#00ffff")]) == 0, "paths are hidden")
    #expect(cells(f, in: [Self.color("#e8462a")]) == 0, "no motorway in view")
    #expect(!f.lines.joined().contains("Boulevard"), "no labels from this renderer")
    // Known cells: the open sea in the south-east corner, in the style's water colour.
    #expect(f[159, 47].foreground?.index == Self.color("rgb(30, 90, 200)").index)
    #expect(f[159, 47].glyph == "⢂", "two dots in eight: an opaque fill's texture")
    #expect(f[120, 20].foreground?.index == Self.color("#8a8a8a").index, "a building outline")
    checkSnapshot(f, named: "styled-omt-zoom15")
  }

  @Test(
    "a casing under a road as wide is drawn over entirely; wider, or under a dashed road, it shows")
  func casingUnderRoad() throws {
    let red = Self.color("#ff0000")
    // A casing of the minor streets, drawn before them (the features of `minor`).
    func casing(width: Int, roadDash: Bool = false) -> (String) -> String {
      {
        var text = $0.replacingOccurrences(
          of: ##"{"id": "minor","##,
          with: ##"""
            {"id": "minor-casing", "type": "line", "source": "openmaptiles",
             "source-layer": "transportation", "filter": ["in", "class", "minor", "service"],
             "paint": {"line-color": "#ff0000", "line-width": \##(width)}},
            {"id": "minor",
            """##)
        if roadDash {
          text = text.replacingOccurrences(
            of: ##""line-color": "#c8c8c8""##,
            with: ##""line-color": "#c8c8c8", "line-dasharray": [2, 2]"##)
        }
        return text
      }
    }
    let (plain, _) = try frame(monacoPath, style: "omt", source: "openmaptiles", zoom: 15)
    let (under, renderer) = try frame(
      monacoPath, style: "omt", source: "openmaptiles", zoom: 15, edit: casing(width: 4))
    #expect(renderer.drawnLayerIDs.contains("minor-casing"))
    // One dot wide, as the street: every dot of it is the street's, in the street's colour.
    #expect(under == plain)
    #expect(cells(under, in: [red]) == 0)
    // Two dots wide: it shows beside the street.
    let (wide, _) = try frame(
      monacoPath, style: "omt", source: "openmaptiles", zoom: 15, edit: casing(width: 8))
    #expect(cells(wide, in: [red]) > 100)
    // Under a dashed street: it shows in the gaps.
    let (gaps, _) = try frame(
      monacoPath, style: "omt", source: "openmaptiles", zoom: 15,
      edit: casing(width: 4, roadDash: true))
    #expect(cells(gaps, in: [red]) > 20)
  }

  @Test(
    "one map zoomed in steps draws each zoom as a map opened there: paints, covers and dashes per zoom"
  )
  func zoomedInSteps() throws {
    // Dashed streets over a casing as wide (drawn over at whole dots, `drawnPaints`), and a
    // layer shown from zoom 15.5: each step's frame is a new map's at that zoom, though the
    // map's tiles (and their drawn paints) were worked out at the zoom before.
    let edit: (String) -> String = {
      $0.replacingOccurrences(
        of: ##"{"id": "minor","##,
        with: ##"""
          {"id": "minor-casing", "type": "line", "source": "openmaptiles",
           "source-layer": "transportation", "filter": ["in", "class", "minor", "service"],
           "paint": {"line-color": "#ff0000", "line-width": 4}},
          {"id": "minor",
          """##
      ).replacingOccurrences(
        of: ##"{"id": "street-names","##,
        with: ##"""
          {"id": "late", "type": "line", "source": "openmaptiles", "minzoom": 15.5,
           "source-layer": "transportation", "filter": ["in", "class", "primary", "secondary", "tertiary", "minor"],
           "paint": {"line-color": "#00ff00", "line-width": 2}},
          {"id": "street-names",
          """##
      ).replacingOccurrences(
        of: ##""line-color": "#c8c8c8""##,
        with: ##""line-color": "#c8c8c8", "line-dasharray": [2, 2]"##)
    }
    let text = try String(
      contentsOf: Self.styles.appendingPathComponent("omt.json"), encoding: .utf8)
    let document = try StyleDocument(data: Data(edit(text).utf8))
    let delegate = StyledRenderers(document, sourceID: "openmaptiles")
    let map = MapView(columns: 120, rows: 40)
    map.delegate = delegate
    map.addOverlay(
      SourceTileOverlay(source: try MBTilesSource(path: monacoPath)), level: .aboveRoads)
    map.setCenter(Coordinate(latitude: 43.7384, longitude: 7.4246), animated: false)
    var frames: [Double: CellBuffer] = [:]
    for zoom in [15.0, 15.3, 15.6, 15.0] {
      map.setZoomLevel(zoom, animated: false)
      let result = map.renderCompleteFrame(timeout: 60)
      #expect(result.complete)
      let (fresh, _) = try frame(
        monacoPath, style: "omt", source: "openmaptiles", zoom: zoom, columns: 120, rows: 40,
        edit: edit)
      // (A Bool: a failure names the zoom without printing two frames of cells.)
      let same = result.frame == fresh
      #expect(same, "zoom \(zoom)")
      frames[zoom] = result.frame
    }
    // The steps drew different things: the dashes and widths follow the zoom, the late layer
    // shows from 15.5 only.
    #expect(frames[15.0] != frames[15.3])
    #expect(cells(try #require(frames[15.6]), in: [Self.color("#00ff00")]) > 0)
    #expect(cells(try #require(frames[15.3]), in: [Self.color("#00ff00")]) == 0)
  }

  @Test("a zoom interpolate widens the major roads as one zooms in")
  func widthByZoom() throws {
    let yellow = Self.color("#f0d040")
    let (z13, _) = try frame(monacoPath, style: "omt", source: "openmaptiles", zoom: 13)
    let (z16, _) = try frame(monacoPath, style: "omt", source: "openmaptiles", zoom: 16)
    let (thin, _) = try frame(monacoPath, style: "omt", source: "openmaptiles", zoom: 16) {
      $0.replacingOccurrences(
        of: #"["interpolate", ["linear"], ["zoom"], 12, 2, 16, 14]"#, with: "1")
    }
    // At z16 the primary roads are four dots wide: they cover more cells than one-dot lines.
    #expect(cells(z16, in: [yellow]) * 2 > cells(thin, in: [yellow]) * 3)
    #expect(cells(thin, in: [yellow]) > 50)
    checkSnapshot(z13, named: "styled-omt-zoom13")
  }

  @Test("Shortbread: legacy filters, stops functions, fill-extrusion as outlined fill")
  func shortbread() throws {
    let (f, _) = try frame(
      shortbreadPath, style: "shortbread", source: "versatiles-shortbread", zoom: 15)
    #expect(cells(f, in: [Self.color("#1e5ac8")]) > 300, "the sea")
    #expect(cells(f, in: [Self.color("#f0d040")]) > 100, "primary and secondary streets")
    #expect(cells(f, in: [Self.color("#c8c8c8")]) > 500, "other streets")
    #expect(cells(f, in: [Self.color("#707070")]) > 500, "buildings")
    checkSnapshot(f, named: "styled-shortbread-zoom15")
  }

  @Test("Protomaps' earth is the ground: not stippled over all land, its colour the background")
  func ground() throws {
    func earth(filter: String) -> (String) -> String {
      {
        $0.replacingOccurrences(
          of: ##"{"id": "water""##,
          with: ##"{"id": "bg", "type": "background", "paint": {"background-color": "#cccccc"}}, "##
            + ##"{"id": "earth", "type": "fill", "source": "protomaps", "source-layer": "earth", "##
            + ##""filter": \##(filter), "paint": {"fill-color": "#e2dfda"}}, {"id": "water""##)
      }
    }
    let land = Self.color("#e2dfda")
    let (f, r) = try frame(
      protomapsPath, style: "protomaps", source: "protomaps", zoom: 16,
      edit: earth(filter: #"["==", "$type", "Polygon"]"#))
    #expect(r.drawnLayerIDs.first == "water")
    #expect(r.notes.contains { $0.hasPrefix("earth: the ground") })
    #expect(cells(f, in: [land]) == 0, "no texture over the land")
    #expect(cells(f, in: [Self.color("#1e5ac8")]) > 200, "the sea as before")
    let plan = StyledDrawPlan(document: r.document, sourceID: "protomaps")
    #expect(plan.backgroundColor(zoom: 16) == StyleColor(css: "#e2dfda"))
    // Picked by a property, the same layer is a fill like any other.
    let (g, s) = try frame(
      protomapsPath, style: "protomaps", source: "protomaps", zoom: 16,
      edit: earth(filter: #"["!=", ["get", "kind"], "nothing"]"#))
    #expect(s.drawnLayerIDs.first == "earth")
    #expect(cells(g, in: [land]) > 100, "drawn, a texture")
  }

  @Test("Protomaps: geometry-type and case filters, faint lines dotted, circles at points")
  func protomaps() throws {
    let (f, _) = try frame(protomapsPath, style: "protomaps", source: "protomaps", zoom: 16)
    #expect(cells(f, in: [Self.color("#1e5ac8")]) > 200, "the sea")
    #expect(cells(f, in: [Self.color("#f0d040")]) > 100, "major roads")
    #expect(cells(f, in: [Self.color("#e8462a")]) > 10, "points of interest")
    checkSnapshot(f, named: "styled-protomaps-zoom16")
  }
}
