import Foundation
import MapGeometry
import TermMapKit
import Testing

@testable import MapData

@Suite struct GPXReaderTests {
  @Test func koritaTracksSegmentsAndWaypoints() throws {
    let c = try loadContent(Fixture.sample("korita-zbevnica.gpx"))
    #expect(c.format == .gpx)
    #expect(c.tracks == 4 && c.segments == 4 && c.waypoints == 2)
    // The first track has an empty segment and draws nothing; the other three are
    // multi-polylines of one segment each.
    let tracks = c.overlays.compactMap { $0 as? MultiPolyline }
    #expect(tracks.count == 3)
    #expect(tracks.map(\.title) == ["03-OCT-10 #2", "ACTIVE LOG", "ACTIVE LOG #2"])
    #expect(c.lines.map(\.coordinates.count).reduce(0, +) == 871)
    let first = try #require(c.lines.first)
    #expect(first.kind == .trackSegment)
    #expect(first.coordinates[0] == Coordinate(latitude: 45.380600095, longitude: 14.144491442))
    #expect(first.elevations[0] == 733.623291)
    // The 358 points of the first non-empty segment have no time.
    #expect(first.times.isEmpty)
    #expect(c.lines[1].times.count == c.lines[1].coordinates.count)
    #expect(c.annotations.map(\.title) == ["001", "002"])
    #expect(c.annotations[0].subtitle == "02-OCT-10 16:01:13")
    #expect(c.annotations[0].detailLines.contains("symbol: Flag, Blue"))
    #expect(
      c.annotations[0].coordinate == Coordinate(latitude: 45.380593557, longitude: 14.144484317))
  }

  @Test func cerknicaWaypointsCarryCalloutDetails() throws {
    let c = try loadContent(Fixture.sample("cerknicko-jezero.gpx"))
    #expect(c.annotations.count == 7)
    let w = c.annotations[0]
    #expect(w.title == "001")
    #expect(w.subtitle == "05-AUG-10 16:58:37")
    #expect(w.detailLines.contains("time 2010-08-05T14:23:59Z"))
    #expect(!w.detailLines.contains { $0.hasPrefix("comment") })  // same text as the description
    let back = c.annotations[1]
    #expect(back.title == "BACK T TH")
    #expect(
      back.detailLines.contains("elevation -0 m") || back.detailLines.contains("elevation 0 m"))
    #expect(back.detailLines.contains("symbol: City (Small)"))
  }

  @Test func routeIsOnePolylineWithoutAnnotations() throws {
    let c = try loadContent(Fixture.sample("route.gpx"))
    #expect(c.routes == 1 && c.overlays.count == 1 && c.annotations.isEmpty)
    let line = try #require(c.overlays.first as? Polyline)
    #expect(line.pointCount == 55)
    #expect(c.lines[0].kind == .route)
  }

  @Test func mojstrovkaKeepsFractionalTimes() throws {
    let c = try loadContent(Fixture.sample("Mojstrovka.gpx"))
    let times = c.lines[0].times
    #expect(times.count == 184)
    // 1901-12-13T20:45:52.2073437Z, before 1970.
    #expect(abs(times[0] - -2_147_483_647.7926563) < 1e-6)
  }

  @Test func gpx11ExtensionsLinksRoutesAndForeignElements() throws {
    let c = try loadContent(Fixture.path("readers/gpx11-extensions.gpx"))
    #expect(c.warnings.isEmpty)
    #expect(c.tracks == 1 && c.segments == 2 && c.routes == 1 && c.waypoints == 2)
    // Foreign-namespace elements (and tracks inside them) are ignored.
    #expect(c.lines.count == 3)
    let hut = c.annotations[0]
    #expect(hut.title == "Hut <Koča>")
    #expect(hut.subtitle == "Mountain <hut> with beds")
    #expect(
      hut.detailLines == [
        "comment: Open in summer", "symbol: Lodge", "type: Shelter", "elevation 1000 m",
        "time 2024-05-01T10:00:00Z", "link: https://example.org/hut (Hut page)",
        "46.50000, 14.50000",
      ])
    // Tabs, line breaks and bidi overrides never reach the screen.
    #expect(c.annotations[1].title == "Sydney   Opera House")
    let track = try #require(c.overlays.compactMap { $0 as? MultiPolyline }.first)
    #expect(track.polylines.count == 2 && track.title == "Two segments")
    let seg2 = c.lines.first { $0.kind == .trackSegment && $0.coordinates.count == 3 }!
    #expect(seg2.elevations[0] == 490 && seg2.elevations[1].isNaN && seg2.elevations[2] == 520)
    #expect(seg2.times[0] == 1_714_557_600 && seg2.times[2].isNaN)
    let seg1 = c.lines.first { $0.kind == .trackSegment && $0.coordinates.count == 2 }!
    #expect(seg1.times[1] == 1_714_557_900.5)
    let route = c.lines.first { $0.kind == .route }!
    #expect(route.title == "Route one" && route.coordinates.count == 3)
  }

  @Test func latin1FilesAreConverted() throws {
    let c = try loadContent(Fixture.path("readers/latin1.gpx"))
    #expect(c.annotations.first?.title == "Café » München")
  }

  @Test func badPointsAreSkippedWithWarnings() throws {
    let path = Fixture.path("readers/some-bad-points.gpx")
    let c = try loadContent(path)
    #expect(c.waypoints == 1 && c.pointCount == 3)
    let p = path
    #expect(
      c.warnings == [
        "\(p):4:11: skipped a waypoint: latitude 146.5 is outside -90...90",
        "\(p):7:24: skipped a track point: expected a number for longitude, found \"x14.11\"",
        "\(p):8:36: ignored the elevation \"high\" (expected a number)",
        "\(p):8:52: ignored the time \"yesterday\" (expected an ISO 8601 time such as 2024-05-01T10:00:00Z)",
        "\(p):9:1: skipped a track point: <trkpt> has no lat attribute (latitude is required)",
        "\(p): skipped 1 waypoint and 2 track points that could not be read",
      ])
    #expect(c.lines[0].elevations[1].isNaN)
  }

  @Test func manyProblemsAreSummarised() throws {
    var body = ""
    for _ in 0..<25 { body += "<trkpt lat=\"95\" lon=\"14\"/>\n" }
    body += "<trkpt lat=\"45\" lon=\"14\"/>\n"
    let c = try loadText(
      "<gpx version=\"1.1\"><trk><trkseg>\n\(body)</trkseg></trk></gpx>", name: "m.gpx")
    #expect(c.warnings.count == 12)
    #expect(c.warnings[10] == "m.gpx: 15 more problems not shown")
    #expect(c.warnings[11] == "m.gpx: skipped 25 track points that could not be read")
  }

  @Test func emptyGPXLoadsWithANote() throws {
    let c = try loadText("<gpx version=\"1.0\"><metadata/></gpx>", name: "e.gpx")
    #expect(c.overlays.isEmpty && c.annotations.isEmpty)
    #expect(c.warnings == ["e.gpx: the file has no tracks, routes or waypoints"])
  }

  @Test func noNamespaceAndGPX10WithoutPrefixesAreRead() throws {
    let c = try loadText(
      "<?xml version='1.0'?><gpx><wpt lat='1' lon='2'><name>n</name></wpt></gpx>", name: "n.gpx")
    #expect(c.annotations.first?.coordinate == Coordinate(latitude: 1, longitude: 2))
  }

  @Test func progressRisesToOne() throws {
    var seen: [Double] = []
    _ = try MapContentLoader.load(path: Fixture.sample("korita-zbevnica.gpx")) { seen.append($0) }
    #expect(!seen.isEmpty)
    #expect(seen == seen.sorted())
    #expect(seen.last == 1)
    #expect(seen.allSatisfy { (0...1).contains($0) })
  }
}
