import DotRaster
import Foundation
import LiveLayers
import MapGeometry
import TermMapKit
import Testing

/// A line or polygon update.
private func shape(_ id: String, _ geometry: LiveGeometry, _ props: [LiveProperty] = [])
  -> LiveUpdate
{
  LiveUpdate(id: id, geometry: geometry, properties: props)
}

/// An east-west line along a latitude.
private func line(lat: Double, from west: Double, to east: Double) -> LiveGeometry {
  .lines([[Coordinate(latitude: lat, longitude: west), Coordinate(latitude: lat, longitude: east)]])
}

/// A square polygon around a point.
private func square(lat: Double, lon: Double, half: Double) -> LiveGeometry {
  .polygons([
    [
      [
        Coordinate(latitude: lat - half, longitude: lon - half),
        Coordinate(latitude: lat - half, longitude: lon + half),
        Coordinate(latitude: lat + half, longitude: lon + half),
        Coordinate(latitude: lat + half, longitude: lon - half),
        Coordinate(latitude: lat - half, longitude: lon - half),
      ]
    ]
  ])
}

/// The braille dots a cell holds (0 for anything but braille).
private func dots(_ c: Cell) -> Int {
  let v = c.glyph.value
  guard v >= 0x2800 && v <= 0x28FF else { return 0 }
  return (v - 0x2800).nonzeroBitCount
}

@MainActor
@Suite("Live layers on a map: lines and areas in their simplestyle, markers by marker-symbol")
struct DrawingTests {
  /// A map around (0, 0) with a layer on it.
  func setUp(columns: Int = 40, rows: Int = 12) -> (LiveFeed, MapView, LiveLayer) {
    let feed = LiveFeed()
    let map = MapView(columns: columns, rows: rows)
    map.setCenter(Coordinate(latitude: 0, longitude: 0), animated: false)
    // A degree is some 6 dots: 3 columns, 1.5 rows.
    map.setZoomLevel(3, animated: false)
    let layer = LiveLayer(feed: feed)
    layer.attach(to: map)
    return (feed, map, layer)
  }

  /// The cells with ink (any glyph but a space) and their colours.
  func inked(_ frame: CellBuffer) -> [(column: Int, row: Int, cell: Cell)] {
    var out: [(Int, Int, Cell)] = []
    for r in 0..<frame.rows {
      for c in 0..<frame.columns where frame[c, r].glyph != " " { out.append((c, r, frame[c, r])) }
    }
    return out
  }

  @Test(
    "A line's stroke and stroke-width: its cells in the stroke's colour, a 6 px line three times as thick as a 2 px one"
  )
  func strokeColourAndWidth() throws {
    let red = TermColor(nearestTo: 255, g: 0, b: 0)
    let (feed, map, layer) = setUp()
    feed.apply([
      shape(
        "r", line(lat: 0, from: -4, to: 4),
        [LiveProperty("stroke", .string("#ff0000")), LiveProperty("stroke-width", .number(2))])
    ])
    layer.synchronize()
    let thin = inked(map.renderFrame())
    #expect(!thin.isEmpty)
    #expect(thin.allSatisfy { $0.cell.foreground == red }, "\(map.renderFrame().lines)")
    let thinDots = thin.reduce(0) { $0 + dots($1.cell) }
    // The same id again, thicker and green: replaced where it was.
    feed.apply([
      shape(
        "r", line(lat: 0, from: -4, to: 4),
        [LiveProperty("stroke", .string("lime")), LiveProperty("stroke-width", .number(6))])
    ])
    layer.synchronize()
    #expect(layer.count == 1)
    let thick = inked(map.renderFrame())
    let green = TermColor(nearestTo: 0, g: 255, b: 0)
    #expect(thick.allSatisfy { $0.cell.foreground == green }, "\(map.renderFrame().lines)")
    let thickDots = thick.reduce(0) { $0 + dots($1.cell) }
    #expect(
      thickDots >= thinDots * 5 / 2 && thickDots <= thinDots * 7 / 2, "\(thinDots) \(thickDots)")
  }

  @Test("A line moved by its id is drawn only at its new place; \"geometry\": null removes it")
  func lineMovesAndGoes() throws {
    let (feed, map, layer) = setUp()
    feed.apply([shape("l", line(lat: 1, from: -2, to: 2))])
    layer.synchronize()
    let before = Set(inked(map.renderFrame()).map(\.row))
    // Without a stroke: the colour of features (as their markers).
    #expect(inked(map.renderFrame()).allSatisfy { $0.cell.foreground == .brightYellow })
    feed.apply([shape("l", line(lat: -1, from: -2, to: 2))])
    layer.synchronize()
    let after = Set(inked(map.renderFrame()).map(\.row))
    #expect(
      !after.isEmpty && after.isDisjoint(with: before),
      "\(before) \(after)\n\(map.renderFrame().lines.joined(separator: "\n"))")
    #expect((after.min() ?? 0) > (before.max() ?? 0))
    feed.apply([shape("l", .removed)])
    layer.synchronize()
    #expect(inked(map.renderFrame()).isEmpty)
    #expect(layer.count == 0)
  }

  @Test(
    "stroke-opacity as dashes: a half-opaque line inks half the dots of an opaque one; 0 draws none"
  )
  func strokeOpacity() throws {
    func dotsOf(_ props: [LiveProperty]) -> Int {
      let (feed, map, layer) = setUp()
      feed.apply([shape("l", line(lat: 0, from: -4, to: 4), props)])
      layer.synchronize()
      return inked(map.renderFrame()).reduce(0) { $0 + dots($1.cell) }
    }
    let solid = dotsOf([])
    let half = dotsOf([LiveProperty("stroke-opacity", .number(0.5))])
    #expect(solid > 20)
    #expect(abs(half * 2 - solid) <= 4, "\(solid) \(half)")
    #expect(dotsOf([LiveProperty("stroke-opacity", .number(0))]) == 0)
    #expect(dotsOf([LiveProperty("stroke-width", .number(0))]) == 0)
  }

  @Test(
    "fill and fill-opacity: the inside of a polygon inked in its fill colour, as many dots of each cell's eight as the opacity says"
  )
  func fillOpacityAsDensity() throws {
    let blue = TermColor(nearestTo: 0, g: 0, b: 255)
    for (opacity, perCell) in [(0.125, 1), (0.25, 2), (0.5, 4), (0.75, 6), (1.0, 8)] {
      let (feed, map, layer) = setUp()
      feed.apply([
        shape(
          "p", square(lat: 0, lon: 0, half: 3),
          [
            LiveProperty("fill", .string("#00f")), LiveProperty("fill-opacity", .number(opacity)),
            LiveProperty("stroke-width", .number(0)),
          ])
      ])
      layer.synchronize()
      let frame = map.renderFrame()
      // The middle of the square, away from its edges.
      for r in 4...7 {
        for c in 15...24 {
          #expect(frame[c, r].foreground == blue, "\(frame.lines.joined(separator: "\n"))")
          #expect(dots(frame[c, r]) == perCell, "opacity \(opacity): \(frame.lines[r])")
        }
      }
    }
    // A quarter: a dot on every other row and column.
    #expect(SimpleStyle.fillPattern(opacity: 0.25) == DotPattern(bits: 0x05))
    #expect(SimpleStyle.fillPattern(opacity: 0.5) == .checker)
    #expect(SimpleStyle.fillPattern(opacity: 1) == .solid)
    #expect(SimpleStyle.fillPattern(opacity: 0) == nil)
  }

  @Test(
    "A polygon with a stroke and a fill: the outline in the stroke's colour, the inside in the fill's; stale, grey"
  )
  func strokeAndFillAndStale() throws {
    let clock = TestClock()
    let feed = LiveFeed(clock: { clock.now })
    let map = MapView(columns: 40, rows: 12)
    map.setCenter(Coordinate(latitude: 0, longitude: 0), animated: false)
    map.setZoomLevel(3, animated: false)
    let layer = LiveLayer(feed: feed)
    layer.attach(to: map)
    feed.apply([
      shape(
        "p", square(lat: 0, lon: 0, half: 3),
        [
          LiveProperty("stroke", .string("#ffffff")), LiveProperty("fill", .string("red")),
          LiveProperty("fill-opacity", .number(1)), LiveProperty("ttl", .number(10)),
        ])
    ])
    layer.synchronize()
    let frame = map.renderFrame()
    let colours = Set(inked(frame).compactMap(\.cell.foreground))
    let white = TermColor(nearestTo: 255, g: 255, b: 255)
    let red = TermColor(nearestTo: 255, g: 0, b: 0)
    #expect(colours == [white, red], "\(colours)")
    #expect(frame[20, 6].foreground == red && frame[20, 6].glyph == "⣿")
    // Silent past its time-to-live: grey.
    clock.now = 11
    layer.synchronize()
    let stale = Set(inked(map.renderFrame()).compactMap(\.cell.foreground))
    #expect(stale == [.brightBlack], "\(stale)")
  }

  @Test(
    "Maki names in marker-symbol draw their glyph; one character draws itself; others the kind's")
  func makiSymbols() throws {
    let (feed, map, layer) = setUp(columns: 60, rows: 20)
    func symbolled(_ id: String, _ lat: Double, _ symbol: LiveValue, kind: TargetKind = .feature)
      -> LiveUpdate
    {
      point(
        id, lat, 0, kind: kind,
        [LiveProperty("marker-symbol", symbol), LiveProperty("title", .string("T\(id)"))])
    }
    feed.apply([
      symbolled("1", 6, .string("ferry")), symbolled("2", 3, .string("airport-15")),
      symbolled("3", 0, .number(7)), symbolled("4", -3, .string("no-such-icon")),
      symbolled("5", -6, .string("⚓"), kind: .vessel),
    ])
    layer.clustersTargets = false
    layer.synchronize()
    let text = map.renderFrame().lines.joined(separator: "\n")
    #expect(text.contains("⇌ T1"), "\(text)")
    #expect(text.contains("✈ T2"))
    #expect(text.contains("7 T3"))
    #expect(text.contains("● T4"))
    // A wide emoji would take two cells: the vessel's own glyph instead.
    #expect(text.contains("◆ T5"))
    #expect(!text.contains("⚓"))
    // In ASCII, the table's stand-ins.
    map.charset = .ascii
    let ascii = map.renderFrame().lines.joined(separator: "\n")
    #expect(ascii.contains("~ T1") && ascii.contains("A T2") && ascii.contains("7 T3"), "\(ascii)")
  }

  @Test("A MultiLineString and a MultiPolygon take their simplestyle as one: every part in it")
  func multiPartShapes() throws {
    let (feed, map, layer) = setUp()
    guard case .lines(let a) = line(lat: 2, from: -4, to: -1),
      case .lines(let b) = line(lat: -2, from: 1, to: 4),
      case .polygons(let p) = square(lat: 2, lon: 3, half: 1),
      case .polygons(let q) = square(lat: -2, lon: -3, half: 1)
    else { return }
    feed.apply([
      shape("lines", .lines(a + b), [LiveProperty("stroke", .string("#00ffff"))]),
      shape(
        "areas", .polygons(p + q),
        [LiveProperty("stroke", .string("#ff00ff")), LiveProperty("fill-opacity", .number(1))]),
    ])
    layer.synchronize()
    #expect(layer.count == 2)
    let frame = map.renderFrame()
    let cells = inked(frame)
    let cyan = TermColor(nearestTo: 0, g: 255, b: 255)
    let magenta = TermColor(nearestTo: 255, g: 0, b: 255)
    #expect(Set(cells.compactMap(\.cell.foreground)) == [cyan, magenta])
    // Each part in each quarter of the screen: lines north-west and south-east, areas
    // north-east and south-west.
    func colours(west: Bool, north: Bool) -> Set<TermColor> {
      Set(
        cells.filter { (($0.column < 20) == west) && (($0.row < 6) == north) }.compactMap(
          \.cell.foreground))
    }
    #expect(colours(west: true, north: true) == [cyan])
    #expect(colours(west: false, north: false) == [cyan])
    #expect(colours(west: false, north: true) == [magenta])
    #expect(colours(west: true, north: false) == [magenta])
  }

  @Test("A vessel is labelled with its name, not its call sign (gpsd gives both in a type 5)")
  func vesselLabel() throws {
    let (feed, map, layer) = setUp()
    feed.apply([
      point(
        "211000001", 0, 0, kind: .vessel,
        [LiveProperty("callsign", .string("DA1234")), LiveProperty("shipname", .string("GULL"))])
    ])
    layer.synchronize()
    #expect(layer.targets["211000001"]?.title == "GULL")
    #expect(map.renderFrame().lines.joined().contains("◆ GULL"))
  }

  @Test("Every glyph of the Maki table takes one cell and is no emoji; each stand-in is ASCII")
  func makiTableGlyphsAreNarrow() {
    #expect(MarkerSymbol.maki.count >= 40)
    for (name, g) in MarkerSymbol.maki {
      let scalars = Array(g.glyph.unicodeScalars)
      #expect(scalars.count == 1, "\(name)")
      #expect(CellBuffer.displayWidth(of: scalars[0]) == 1, "\(name)")
      #expect(!scalars[0].properties.isEmojiPresentation, "\(name)")
      #expect(g.ascii.isASCII && !g.ascii.isWhitespace, "\(name)")
    }
    for name in [
      "airport", "harbor", "ferry", "rail", "bus", "car", "bicycle", "fuel", "hospital", "police",
      "fire-station", "restaurant", "cafe", "bar", "lodging", "campsite", "parking", "shop", "star",
      "triangle", "circle", "square", "marker", "heliport", "information", "toilet",
    ] {
      #expect(MarkerSymbol.maki[name] != nil, "\(name)")
    }
    #expect(MarkerSymbol.glyphs(for: "Harbor")?.glyph == "⎈")
    #expect(MarkerSymbol.glyphs(for: "rail-light")?.glyph == "╫")
    #expect(MarkerSymbol.glyphs(for: "x")?.glyph == "x")
    #expect(MarkerSymbol.glyphs(for: "🚲") == nil)
    #expect(MarkerSymbol.glyphs(for: "\u{7}") == nil)
    #expect(MarkerSymbol.glyphs(for: "-15") == nil)
  }

  @Test("docs/live-layers.md's table of Maki names is the table drawn")
  func makiTableDocumented() throws {
    let doc = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs/live-layers.md")
    let text = try String(contentsOf: doc, encoding: .utf8)
    var documented: [String: (Character, Character)] = [:]
    // Rows: | `name`, `name` | glyph | ascii |
    for row in text.split(separator: "\n") where row.hasPrefix("| `") {
      let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count == 3, cells[1].count == 1 || cells[1].hasPrefix("`") else { continue }
      let glyph = cells[1].replacingOccurrences(of: "`", with: "")
      let ascii = cells[2].replacingOccurrences(of: "`", with: "")
      guard glyph.count == 1, ascii.count == 1 else { continue }
      for name in cells[0].split(separator: ",") {
        let n = name.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "")
        documented[n] = (glyph.first!, ascii.first!)
      }
    }
    #expect(documented.count == MarkerSymbol.maki.count, "\(documented.keys.sorted())")
    for (name, g) in MarkerSymbol.maki {
      #expect(documented[name]?.0 == g.glyph && documented[name]?.1 == g.ascii, "\(name)")
    }
  }
}
