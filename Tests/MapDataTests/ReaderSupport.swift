import Foundation
import Testing

@testable import MapData

/// Loads a file from `Fixtures/` or `Data/samples/` (by full path) and fails the test on error.
func loadContent(_ path: String) throws -> MapContent {
  try MapContentLoader.load(path: path)
}

/// Loads text given inline as if it were a file called `name`.
func loadText(_ text: String, name: String) throws(DataFileError) -> MapContent {
  try MapContentLoader.load(data: Data(text.utf8), path: name)
}

/// The description of the error loading inline text gives, or nil when it loads.
func loadFailure(_ text: String, name: String) -> String? {
  do {
    _ = try loadText(text, name: name)
    return nil
  } catch {
    return error.description
  }
}

/// Reference numbers computed at development time by
/// `Tests/MapDataTests/Fixtures/reference/expected.py`: gpxpy 1.6.2 (GPX), Python's json
/// module (GeoJSON) and xml.etree (KML) for parsing, and GeographicLib 2.1's
/// `Geodesic.WGS84.Inverse` for the length of each track segment, route or line (summed within
/// each, never across the gap between segments).
enum Reference {
  struct Expected: Sendable {
    var file: String
    var format: String
    var tracks: Int
    var segments: Int
    var routes: Int
    var waypoints: Int
    var points: Int
    var polylines: Int
    var polygons: Int
    var annotations: Int
    var length: Double
    var elevation: ClosedRange<Double>?
  }

  static let samples: [Expected] = [
    Expected(
      file: "korita-zbevnica.gpx", format: "gpx", tracks: 4, segments: 4, routes: 0,
      waypoints: 2, points: 871, polylines: 3, polygons: 0, annotations: 2,
      length: 14914.283303722172, elevation: 722.087402...1050.858154),
    Expected(
      file: "cerknicko-jezero.gpx", format: "gpx", tracks: 8, segments: 8, routes: 0,
      waypoints: 7, points: 296, polylines: 7, polygons: 0, annotations: 7,
      length: 4576.90748419316, elevation: 506.752075...579.331543),
    Expected(
      file: "Mojstrovka.gpx", format: "gpx", tracks: 1, segments: 1, routes: 0, waypoints: 0,
      points: 184, polylines: 1, polygons: 0, annotations: 0, length: 2700.9175307580945,
      elevation: 1614.678...2057.36952),
    Expected(
      file: "route.gpx", format: "gpx", tracks: 0, segments: 0, routes: 1, waypoints: 0,
      points: 55, polylines: 1, polygons: 0, annotations: 0, length: 6690.968593725476,
      elevation: nil),
    Expected(
      file: "bled.geojson", format: "geojson", tracks: 0, segments: 0, routes: 0, waypoints: 0,
      points: 56, polylines: 4, polygons: 3, annotations: 5, length: 3686.6715637103944,
      elevation: 476...478),
    Expected(
      file: "bohinj.kml", format: "kml", tracks: 2, segments: 3, routes: 0, waypoints: 0,
      points: 79, polylines: 7, polygons: 3, annotations: 2, length: 10668.795976222453,
      elevation: 525...836),
  ]
}

/// The malformed fixtures and the one line each must give (`Fixtures/malformed-expected.tsv`).
enum MalformedFixtures {
  static let directory = Fixture.directory.appendingPathComponent("malformed")

  static let cases: [(file: String, message: String)] = {
    let url = Fixture.directory.appendingPathComponent("malformed-expected.tsv")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { line in
      if line.hasPrefix("#") { return nil }
      let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
      return parts.count == 2 ? (parts[0], parts[1]) : nil
    }
  }()
}
