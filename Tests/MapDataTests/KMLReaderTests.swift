import DotRaster
import Foundation
import MapGeometry
import TermMapKit
import Testing

@testable import MapData

@Suite struct KMLReaderTests {
  @Test func bohinjSampleShapes() throws {
    let c = try loadContent(Fixture.sample("bohinj.kml"))
    #expect(c.format == .kml && c.warnings.isEmpty)
    // Polygons by style: water (the lake), grass (the meadow with two holes and the pasture).
    let lake = try #require(c.overlays[0] as? Polygon)
    #expect(lake.title == "Bohinjsko jezero" && lake.pointCount == 21)
    let grass = try #require(c.overlays[1] as? MultiPolygon)
    #expect(grass.polygons.map(\.interiorPolygons.count) == [2, 0])
    #expect(grass.polygons[0].title == "Ukanc meadow")
    // Lines: the fence (multi-geometry), the ring, the lakeshore path, the two tracks.
    let titles = c.overlays.dropFirst(2).map(\.title)
    #expect(
      titles == [
        "Pasture and fence", "Stone bridge ring", "Lakeshore path", "Morning climb to Vogar",
        "Two-day hike",
      ])
    #expect((c.overlays[2] as? MultiPolyline)?.polylines.count == 2)
    #expect((c.overlays[6] as? MultiPolyline)?.polylines.count == 2)
    #expect(c.tracks == 2 && c.segments == 3)
  }

  @Test func stylesFromStyleURLsAndStyleMaps() throws {
    let c = try loadContent(Fixture.sample("bohinj.kml"))
    let water = try #require(c.style(for: c.overlays[0]))
    // aabbggrr: ffff0000 is opaque blue; 80ff901e is half-transparent dodger blue.
    #expect(water.stroke == TermColor.cube(0, 0, 5))
    #expect(water.fill == TermColor(nearestTo: 0x1E, g: 0x90, b: 0xFF))
    #expect(abs((water.fillOpacity ?? 0) - 128.0 / 255) < 1e-9)
    #expect(water.strokeWidth == 2)
    let path = try #require(c.style(for: c.overlays[4]))
    #expect(path.stroke == TermColor(nearestTo: 0xFF, g: 0x8C, b: 0x00))
    #expect(path.strokeWidth == 3)
    let church = try #require(c.annotations.first)
    #expect(c.style(for: church)?.markerColor == TermColor.cube(5, 0, 0))
  }

  @Test func placemarkTextAndDetails() throws {
    let c = try loadContent(Fixture.sample("bohinj.kml"))
    let church = c.annotations[0]
    #expect(church.title == "Church of St John the Baptist")
    #expect(
      church.subtitle == "Romanesque church by the stone bridge. Frescoes from the 14th century.")
    #expect(
      church.detailLines == [
        "altitude 526 m", "built: 1300", "Entry fee: 3 EUR", "folder: Bohinj / Sights",
        "46.27760, 13.89555",
      ])
    #expect(c.annotations[1].title == "Savica waterfall")
    let lake = try #require(c.overlays[0] as? Polygon)
    #expect(lake.subtitle == nil)
    let meadow = try #require((c.overlays[1] as? MultiPolygon)?.polygons[0])
    #expect(meadow.title == "Ukanc meadow")
  }

  @Test func gxTrackKeepsTimesAndElevations() throws {
    let c = try loadContent(Fixture.sample("bohinj.kml"))
    let climb = try #require(c.lines.first { $0.title == "Morning climb to Vogar" })
    #expect(climb.kind == .trackSegment && climb.coordinates.count == 8)
    #expect(climb.times.first == 1_689_404_400)  // 2023-07-15T07:00:00Z
    #expect(climb.elevations.last == 702)
    #expect(climb.coordinates[0] == Coordinate(latitude: 46.2770, longitude: 13.8895))
  }

  @Test func descriptionsLoseTheirMarkup() {
    #expect(HTMLText.plain("<p>A <b>bold</b>&amp;<i>x</i></p>") == "A bold & x")
    #expect(HTMLText.plain("one<br/>two&nbsp;three &#233; &#x41;") == "one two three é A")
    #expect(HTMLText.plain("\u{1B}[31mred") == "[31mred")
  }

  @Test func badPlacemarksAreSkippedWithWarnings() throws {
    let path = Fixture.path("readers/some-bad-placemarks.kml")
    let c = try loadContent(path)
    #expect(c.annotations.map(\.title) == ["Good"])
    #expect(c.overlays.map(\.title) == ["Good line"])
    #expect(
      c.warnings == [
        "\(path):5:50: skipped a placemark: expected \"longitude,latitude[,altitude]\", found \"14;46\"",
        "\(path):8:5: skipped a placemark: a LineString needs at least 2 positions, found 1",
        "\(path): skipped 2 placemarks that could not be read",
      ])
  }

  @Test func kmlWithoutNamespaceAndWithUnknownElements() throws {
    let c = try loadText(
      """
      <kml><Document><NetworkLink><Link><href>x</href></Link></NetworkLink>
      <Placemark><name>A</name><Point><coordinates> 1,2,3 </coordinates></Point></Placemark>
      <GroundOverlay><name>g</name></GroundOverlay></Document></kml>
      """, name: "n.kml")
    #expect(c.annotations.first?.coordinate == Coordinate(latitude: 2, longitude: 1))
    #expect(c.annotations.first?.detailLines.first == "altitude 3 m")
  }
}

@Suite struct KMLStyleTests {
  @Test func inlineStylesOverrideSharedOnesAndLateStylesResolve() throws {
    let c = try loadText(
      """
      <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
      <Placemark><styleUrl>#late</styleUrl>
        <Style><PolyStyle><fill>0</fill></PolyStyle></Style>
        <Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon>
      </Placemark>
      <Placemark><styleUrl>#late</styleUrl><LineString><coordinates>0,0 1,1</coordinates></LineString></Placemark>
      <Placemark><styleUrl>other.kml#x</styleUrl><LineString><coordinates>0,0 2,2</coordinates></LineString></Placemark>
      <Style id="late"><LineStyle><color>ff00ff00</color><width>4</width></LineStyle><PolyStyle><color>ff0000ff</color></PolyStyle></Style>
      </Document></kml>
      """, name: "s.kml")
    let polygon = try #require(c.style(for: c.overlays[0]))
    #expect(polygon.fill == TermColor.cube(5, 0, 0))
    #expect(polygon.fillOpacity == 0)
    #expect(polygon.stroke == TermColor.cube(0, 5, 0))
    let line = try #require(c.style(for: c.overlays[1]))
    #expect(line.stroke == TermColor.cube(0, 5, 0) && line.strokeWidth == 4)
    #expect(line.fillOpacity == 1)
    #expect(c.style(for: c.overlays[2]) == nil)
  }
}
