import Foundation
import MapGeometry
import Testing

@testable import MapData

@Suite struct SampleStatisticsTests {
  @Test(arguments: Reference.samples.map(\.file))
  func countsAndLengthsAgreeWithReference(file: String) throws {
    let expected = Reference.samples.first { $0.file == file }!
    let content = try loadContent(Fixture.sample(file))
    let s = FileStatistics(content)
    #expect(s.format.rawValue == expected.format)
    #expect(s.tracks == expected.tracks)
    #expect(s.segments == expected.segments)
    #expect(s.routes == expected.routes)
    #expect(s.waypoints == expected.waypoints)
    #expect(s.points == expected.points)
    #expect(s.polylines == expected.polylines)
    #expect(s.polygons == expected.polygons)
    #expect(s.annotations == expected.annotations)
    // Same method as GeographicLib, so agreement is to round-off, far inside 0.1%.
    #expect(abs(s.length - expected.length) <= expected.length * 1e-9)
    #expect(s.elevationRange == expected.elevation)
    #expect(s.warnings.isEmpty)
  }

  @Test func lengthNeverSpansTheGapBetweenSegments() throws {
    let gpx = """
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk>
      <trkseg><trkpt lat="0" lon="0"/><trkpt lat="0" lon="1"/></trkseg>
      <trkseg><trkpt lat="10" lon="0"/><trkpt lat="10" lon="1"/></trkseg>
      </trk></gpx>
      """
    let s = FileStatistics(try loadText(gpx, name: "gap.gpx"))
    let a = Geodesic.distance(
      Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1))
    let b = Geodesic.distance(
      Coordinate(latitude: 10, longitude: 0), Coordinate(latitude: 10, longitude: 1))
    #expect(abs(s.length - (a + b)) < 1e-6)
    #expect(abs(a - 111_319.490793) < 1e-3)  // GeographicLib: one degree along the equator
    #expect(s.segments == 2 && s.tracks == 1 && s.polylines == 2 && s.points == 4)
  }

  @Test func elevationAscentDescentAndTimeSpan() throws {
    let s = FileStatistics(try loadContent(Fixture.path("readers/gpx11-extensions.gpx")))
    #expect(s.elevationRange == 300...520)
    // Route 300→310 (+10); segment 1 500→510.5; segment 2 490→(none)→520 (+30).
    #expect(s.ascent == 50.5)
    #expect(s.descent == 0)
    #expect(s.timeSpan == 1_714_557_600...1_714_558_200)
    #expect(s.bounds == CoordinateBounds(west: 14, south: -33.9, east: 151.2, north: 46.5))
  }

  @Test func longLinesAreMeasuredInPiecesExactly() {
    var coordinates: [Coordinate] = []
    for k in 0..<200_001 {
      coordinates.append(Coordinate(latitude: 45 + Double(k) * 1e-5, longitude: 7))
    }
    let line = MeasuredLine(kind: .line, coordinates: coordinates)
    let whole = Geodesic.length(of: coordinates)
    #expect(abs(FileStatistics.totalLength([line]) - whole) < 1e-6)
  }

  @Test func csvRoutesHaveStatisticsToo() throws {
    let s = FileStatistics(try loadContent(Fixture.sample("korita-zbevnica.csv")))
    #expect(s.format == .csv)
    #expect(s.routes == 1 && s.waypoints == 2 && s.points == 873 && s.polylines == 1)
    #expect(s.elevationRange == 722.087402...1050.858154)
    #expect(s.timeSpan != nil)
  }
}
