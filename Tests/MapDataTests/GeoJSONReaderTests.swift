import DotRaster
import Foundation
import MapGeometry
import TermMapKit
import Testing

@testable import MapData

@Suite struct GeoJSONReaderTests {
  static let dodgerBlue = TermColor(nearestTo: 0x1E, g: 0x90, b: 0xFF)

  @Test func bledSampleShapesHolesAndStyles() throws {
    let c = try loadContent(Fixture.sample("bled.geojson"))
    #expect(c.format == .geojson && c.warnings.isEmpty)
    // Polygons first (one overlay per style), then lines in file order.
    let lake = try #require(c.overlays[0] as? Polygon)
    #expect(lake.title == "Blejsko jezero")
    #expect(lake.pointCount == 17 && lake.interiorPolygons.count == 1)
    #expect(lake.interiorPolygons[0].pointCount == 9)
    let lakeStyle = try #require(c.style(for: lake))
    #expect(lakeStyle.fill == Self.dodgerBlue)
    #expect(lakeStyle.stroke == TermColor.cube(0, 0, 5))
    #expect(lakeStyle.fillOpacity == 0.5)
    let meadows = try #require(c.overlays[1] as? MultiPolygon)
    #expect(meadows.polygons.count == 2 && meadows.title == "Meadows")
    #expect(c.style(for: meadows)?.fill == TermColor(nearestTo: 0x7C, g: 0xFC, b: 0x00))
    let promenade = try #require(c.overlays[2] as? Polyline)
    #expect(promenade.title == "Lakeside promenade" && promenade.pointCount == 5)
    #expect(c.style(for: promenade)?.strokeWidth == 3)
    let trails = try #require(c.overlays[3] as? MultiPolyline)
    #expect(trails.polylines.map(\.pointCount) == [3, 4])
    #expect(c.overlays.count == 5)
    #expect(c.lines.count == 4 && c.lines[0].elevations == [476, 476, 477, 478, 476])
  }

  @Test func pointsBecomeAnnotationsWithProperties() throws {
    let c = try loadContent(Fixture.sample("bled.geojson"))
    #expect(
      c.annotations.map(\.title) == [
        "Bled Castle", "Church of the Assumption", "Vintgar Gorge", "Pletna pier", "Pletna pier",
      ])
    let castle = c.annotations[0]
    #expect(castle.subtitle == "Castle on the cliff above the lake")
    #expect(
      castle.detailLines == [
        "elevation 501 m", "ele: 501", "built: 1011", "open: true", "46.36975, 14.10062",
      ])
    let style = try #require(c.style(for: castle))
    #expect(style.markerColor == TermColor.cube(5, 0, 0))
    #expect(style.markerSymbol == "castle")
    // "f0f" without "#" is a colour too; a null property is shown as null.
    #expect(c.style(for: c.annotations[1])?.markerColor == TermColor.cube(5, 0, 5))
    #expect(c.annotations[1].detailLines.contains("website: null"))
  }

  @Test func polygonsOfOneStyleShareAnOverlay() throws {
    func square(_ x: Double, _ style: String) -> String {
      """
      {"type": "Feature", "properties": {\(style)}, "geometry": {"type": "Polygon", "coordinates": \
      [[[\(x), 0], [\(x + 1), 0], [\(x + 1), 1], [\(x), 1], [\(x), 0]]]}}
      """
    }
    let red = "\"fill\": \"#ff0000\""
    let blue = "\"fill\": \"#0000ff\""
    let features = [
      square(0, red), square(2, blue), square(4, red), square(6, ""), square(8, red),
      square(10, blue),
    ]
    let c = try loadText(
      "{\"type\": \"FeatureCollection\", \"features\": [\(features.joined(separator: ",\n"))]}",
      name: "many.geojson")
    #expect(c.overlays.count == 3)
    let groups = c.overlays.map { o -> Int in
      if let m = o as? MultiPolygon { return m.polygons.count }
      return o is Polygon ? 1 : 0
    }
    #expect(groups == [3, 2, 1])
    #expect(c.style(for: c.overlays[0])?.fill == TermColor.cube(5, 0, 0))
    #expect(c.style(for: c.overlays[2]) == nil)
  }

  @Test func bareGeometriesAndFeatures() throws {
    let line = try loadText(
      "{\"type\": \"LineString\", \"coordinates\": [[0, 0], [1, 1, 10]], \"bbox\": [0, 0, 1, 1]}",
      name: "l.geojson")
    #expect(line.overlays.count == 1 && line.lines[0].elevations[1] == 10)
    #expect(line.lines[0].elevations[0].isNaN)
    let point = try loadText(
      "{\"type\": \"Feature\", \"geometry\": {\"type\": \"Point\", \"coordinates\": [-9.1, 38.7]},"
        + " \"properties\": {\"title\": \"Lisboa\", \"description\": \"capital\"}, \"foo\": {\"bar\": 1}}",
      name: "p.geojson")
    #expect(point.annotations.first?.title == "Lisboa")
    #expect(point.annotations.first?.subtitle == "capital")
    let collection = try loadText(
      """
      {"type": "GeometryCollection", "geometries": [
        {"type": "MultiPoint", "coordinates": [[1, 1], [2, 2]]},
        {"type": "MultiPolygon", "coordinates": [[[[0, 0], [1, 0], [1, 1], [0, 0]]], [[[5, 5], [6, 5], [6, 6], [5, 5]], [[5.2, 5.1], [5.8, 5.1], [5.8, 5.5], [5.2, 5.1]]]]},
        {"type": "GeometryCollection", "geometries": [{"type": "LineString", "coordinates": []}]}
      ]}
      """, name: "g.geojson")
    #expect(collection.annotations.count == 2)
    let multi = try #require(collection.overlays.first as? MultiPolygon)
    #expect(multi.polygons.map(\.interiorPolygons.count) == [0, 1])
  }

  @Test func unclosedRingsAreClosed() throws {
    let c = try loadText(
      "{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}",
      name: "open.geojson")
    let p = try #require(c.overlays.first as? Polygon)
    #expect(p.pointCount == 5)
  }

  @Test func stringsAndNumbersFollowJSON() throws {
    let c = try loadText(
      #"{"type": "Feature", "properties": {"name": "Caf\u00e9 \ud83d\uddfa \"x\"\n", "n": -1.5e2, "a": [1, "b"], "o": {"k": false}}, "geometry": {"type": "Point", "coordinates": [0, 0]}}"#,
      name: "s.geojson")
    let a = try #require(c.annotations.first)
    #expect(a.title == "Café 🗺 \"x\"")
    #expect(a.detailLines.contains("n: -150"))
    #expect(a.detailLines.contains("a: [1, \"b\"]"))
    #expect(a.detailLines.contains("o: {\"k\": false}"))
  }

  @Test func badFeaturesAreSkippedWithWarnings() throws {
    let path = Fixture.path("readers/some-bad-features.geojson")
    let c = try loadContent(path)
    #expect(c.annotations.count == 1 && c.overlays.count == 1)
    #expect(
      c.warnings == [
        "\(path):3:110: skipped a feature: latitude 96 is outside -90...90",
        "\(path):4:89: skipped a feature: a polygon ring needs at least 4 positions (the first repeated at the end), found 3",
        "\(path):6:12: skipped a feature: expected a Feature, found type \"Point\"",
        "\(path): skipped 3 features that could not be read",
      ])
  }

  @Test func deepNestingIsAnErrorNotACrash() {
    let deep = String(repeating: "[", count: 100_000)
    let message = loadFailure("{\"type\": \"Point\", \"coordinates\": \(deep)", name: "d.geojson")
    #expect(message == "d.geojson:1:545: the JSON nests deeper than 512 levels")
  }

  @Test func emptyCollectionLoadsWithANote() throws {
    let c = try loadText("{\"type\": \"FeatureCollection\", \"features\": []}", name: "e.geojson")
    #expect(c.warnings == ["e.geojson: the file has no features with coordinates"])
  }
}

@Suite struct LoaderProgressTests {
  @Test(arguments: ["bled.geojson", "bohinj.kml", "lisbon-walk.csv", "route.gpx"])
  func progressIsMonotonicAndEndsAtOne(file: String) throws {
    var seen: [Double] = []
    _ = try MapContentLoader.load(path: Fixture.sample(file)) { seen.append($0) }
    #expect(seen == seen.sorted())
    #expect(seen.last == 1)
    #expect(seen.allSatisfy { (0...1).contains($0) })
  }
}
