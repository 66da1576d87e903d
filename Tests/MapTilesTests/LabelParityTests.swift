import DotRaster
import Foundation
import MapGeometry
import MapStyle
import Testing

@testable import MapTiles
@testable import TermMapKit
@testable import TileData

/// The labels of the built-in style documents (Sources/MapTiles/Styles/*.json) through
/// `StyleLabels`, against those of the `BasemapStyle` label rules they were written from,
/// through the map, label for label: text, point, colour, weight, marker, category and order,
/// with and without `--lang en`. (A check for as long as both exist: when the Swift label
/// rules go, this goes with them.)
@MainActor
@Suite("Label parity: built-in label rules as symbol layers")
struct LabelParityTests {
  final class Renderers: MapViewDelegate {
    let make: (TileOverlay) -> OverlayRenderer
    init(_ make: @escaping (TileOverlay) -> OverlayRenderer) { self.make = make }
    func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
      guard let tiles = overlay as? TileOverlay else {
        return MapView.defaultRenderer(for: overlay)
      }
      return make(tiles)
    }
  }

  static let helsinki = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("shared/bench/helsinki-omt").path

  static func source(_ path: String) throws -> any TileSource {
    if path.hasSuffix(".mbtiles") { return try MBTilesSource(path: path) }
    if path.hasSuffix(".pmtiles") { return try PMTilesSource(path: path) }
    return try DirectoryTileSource(root: path)
  }

  /// The labels of the viewport, as the renderer gives them to the map.
  static func labels(
    _ path: String, center: Coordinate, zoom: Double, language: String? = nil,
    _ make: @escaping (TileOverlay) -> VectorTileRenderer
  ) throws -> [MapLabel] {
    let delegate = Renderers(make)
    let map = MapView(columns: 160, rows: 48)
    map.delegate = delegate
    let overlay = SourceTileOverlay(source: try source(path))
    map.addOverlay(overlay, level: .aboveRoads)
    map.setCenter(center, animated: false)
    map.setZoomLevel(zoom, animated: false)
    #expect(map.renderCompleteFrame(timeout: 20).complete)
    let renderer = try #require(map.renderer(for: overlay) as? VectorTileRenderer)
    if language != nil {
      renderer.language = language
      #expect(map.renderCompleteFrame(timeout: 20).complete)
    }
    return renderer.labels(for: map.viewport)
  }

  static func line(_ l: MapLabel) -> String {
    var s = "\(l.text) @\(Int(l.point.x)),\(Int(l.point.y)) \(l.color)"
    if l.bold { s += " bold" }
    if let m = l.marker { s += " marker \(m.glyph) \(m.color)" }
    if let c = l.category { s += " [\(c.rawValue)]" }
    return s
  }

  static let styles = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
      "Sources/MapTiles/Styles")

  static let helsinkiCenter = Coordinate(latitude: 60.1699, longitude: 24.9440)
  static let monaco = Coordinate(latitude: 43.7384, longitude: 7.4246)
  static let cases: [(String, String, BasemapStyle, Coordinate, [Double])] = [
    ("openmaptiles-dark", worldPath, .dark, helsinkiCenter, [2, 5.5, 8]),
    ("openmaptiles-light", worldPath, .light, helsinkiCenter, [3]),
    ("openmaptiles-mono", worldPath, .mono, helsinkiCenter, [5.5]),
    ("openmaptiles-dark", monacoPath, .dark, monaco, [13, 15, 16.5]),
    ("openmaptiles-light", monacoPath, .light, monaco, [15]),
    ("shortbread-dark", shortbreadPath, .shortbread, monaco, [13, 16.5]),
    ("shortbread-light", shortbreadPath, .shortbreadLight, monaco, [15]),
    ("shortbread-mono", shortbreadPath, .shortbreadMono, monaco, [15]),
    ("protomaps-dark", protomapsPath, .protomaps, monaco, [13, 16.5]),
    ("protomaps-light", protomapsPath, .protomapsLight, monaco, [15]),
    ("protomaps-mono", protomapsPath, .protomapsMono, monaco, [15]),
  ]
  /// At development time, the bench tiles (outside the repository) too.
  static let benchCases: [(String, String, BasemapStyle, Coordinate, [Double])] =
    FileManager.default.fileExists(atPath: helsinki)
    ? [
      ("openmaptiles-dark", helsinki, .dark, helsinkiCenter, [2, 10.5, 14, 15, 16.5]),
      ("openmaptiles-light", helsinki, .light, helsinkiCenter, [15]),
      ("openmaptiles-mono", helsinki, .mono, helsinkiCenter, [3]),
    ] : []

  @Test("each label rule as a symbol layer gives the same labels, in the same order")
  func parity() throws {
    for (file, path, style, center, zooms) in Self.cases + Self.benchCases {
      let document = try StyleDocument(
        data: Data(contentsOf: Self.styles.appendingPathComponent(file + ".json")))
      let sourceID = try #require(document.sourceIDs.first)
      for zoom in zooms {
        for language in [nil, "en"] as [String?] {
          let old = try Self.labels(path, center: center, zoom: zoom, language: language) {
            VectorTileRenderer(overlay: $0, style: style)
          }
          let new = try Self.labels(path, center: center, zoom: zoom, language: language) {
            StyledVectorTileRenderer(overlay: $0, document: document, sourceID: sourceID)
          }
          #expect(!old.isEmpty, "\(file) z\(zoom)")
          let a = old.map(Self.line)
          let b = new.map(Self.line)
          if a != b {
            Issue.record(
              "\(file) \(style.name) z\(zoom) \(language ?? "-"): \(a.count) vs \(b.count)\n\(Self.diff(a, b))"
            )
          }
        }
      }
    }
  }

  static func diff(_ a: [String], _ b: [String]) -> String {
    var out: [String] = []
    for i in 0..<max(a.count, b.count) where (i < a.count ? a[i] : "") != (i < b.count ? b[i] : "")
    {
      out.append("\(i): \(i < a.count ? a[i] : "—")  |  \(i < b.count ? b[i] : "—")")
      if out.count > 12 { break }
    }
    return out.joined(separator: "\n")
  }
}
