import DotRaster
import Foundation
import MapGeometry
import TermMapKit
import Testing

@testable import MapTiles
@testable import TileData

/// A map over vector tiles that names cafés and no other point of interest; streets and
/// places keep their names (the article "Finding places" quotes this).
@MainActor func cafeMap(_ tiles: SourceTileOverlay) -> MapView {
  let map = MapView(columns: 160, rows: 48)
  map.addOverlay(tiles, level: .aboveRoads)
  map.pointOfInterestFilter = PointOfInterestFilter(including: [.cafe])
  return map
}

@Suite("Points of interest by category")
struct PointOfInterestFilterTests {
  /// The Casino square of Monte-Carlo at zoom 17 from a fixture, with a filter; the frame's
  /// text and the basemap's labels.
  @MainActor func frame(_ path: String, filter: PointOfInterestFilter?) throws -> (
    text: String, labels: [MapLabel]
  ) {
    let map = MapView(columns: 160, rows: 48)
    let overlay = SourceTileOverlay(source: try MBTilesSource(path: path), variant: .dark)
    map.addOverlay(overlay, level: .aboveRoads)
    map.setCenter(Coordinate(latitude: 43.7396, longitude: 7.4276), animated: false)
    map.setZoomLevel(17, animated: false)
    map.pointOfInterestFilter = filter
    let result = map.renderCompleteFrame(timeout: 60)
    #expect(result.complete)
    let labels = try #require(map.renderer(for: overlay) as? LabelProviding).labels(
      for: map.viewport)
    return (result.frame.lines.joined(separator: "\n"), labels)
  }

  @Test("a map made to name cafés only: the café, not the restaurant")
  @MainActor func cafesOnly() throws {
    let map = cafeMap(
      SourceTileOverlay(source: try MBTilesSource(path: shortbreadPath), variant: .dark))
    map.setCenter(Coordinate(latitude: 43.7396, longitude: 7.4276), animated: false)
    map.setZoomLevel(17, animated: false)
    let text = map.renderCompleteFrame(timeout: 60).frame.lines.joined(separator: "\n")
    #expect(text.contains("Café de Paris") && !text.contains("Buddha-Bar"))
  }

  @Test("a snapshot honours its options' filter")
  func snapshot() async throws {
    let overlay = SourceTileOverlay(source: try MBTilesSource(path: shortbreadPath), variant: .dark)
    var options = MapSnapshotter.Options(columns: 160, rows: 48)
    // The view of the map views above (zoom 17).
    options.mapRect = await MainActor.run {
      let map = MapView(columns: 160, rows: 48)
      map.setCenter(Coordinate(latitude: 43.7396, longitude: 7.4276), animated: false)
      map.setZoomLevel(17, animated: false)
      return map.visibleMapRect
    }
    options.addOverlay(overlay, level: .aboveRoads)
    let all = try await MapSnapshotter(options: options).start()
    options.pointOfInterestFilter = PointOfInterestFilter(including: [.cafe])
    let cafes = try await MapSnapshotter(options: options).start()
    #expect(all.text.contains("Buddha-Bar") && all.text.contains("Café de Paris"))
    #expect(!cafes.text.contains("Buddha-Bar") && cafes.text.contains("Café de Paris"))
  }

  @Test(
    "a filter names only the categories it includes, or all but those it excludes; streets and places always show",
    arguments: [("shortbread", shortbreadPath), ("protomaps", protomapsPath)])
  @MainActor func filter(_ name: String, _ path: String) throws {
    let all = try frame(path, filter: nil)
    for poi in ["Café de Paris", "Buddha-Bar", "Hôtel de Paris", "Cartier"] {
      #expect(all.text.contains(poi), "\(name): \(poi) without a filter")
    }
    #expect(
      all.labels.first { $0.text == "Café de Paris" }?.category == .cafe, "\(name): its class")
    // Names that are not points of interest, shown without a filter: shown with any.
    let others = all.labels.filter { $0.category == nil && all.text.contains($0.text) }
    #expect(!others.isEmpty, "\(name): streets and places")

    let cafes = try frame(path, filter: PointOfInterestFilter(including: [.cafe]))
    #expect(cafes.text.contains("Café de Paris"), "\(name)")
    for poi in ["Buddha-Bar", "Hôtel de Paris", "Cartier"] {
      #expect(!cafes.text.contains(poi), "\(name): \(poi) with cafés only")
    }
    let noShops = try frame(path, filter: PointOfInterestFilter(excluding: ["jewelry", "clothes"]))
    #expect(noShops.text.contains("Café de Paris") && noShops.text.contains("Buddha-Bar"))
    #expect(!noShops.text.contains("Cartier") && !noShops.text.contains("Chanel"), "\(name)")
    let none = try frame(path, filter: .excludingAll)
    // (Names inside other names, as the supermarket "Casino" in "Place du Casino", aside.)
    for label in all.labels
    where label.category != nil
      && !all.labels.contains(where: { $0.text != label.text && $0.text.contains(label.text) })
    {
      #expect(!none.text.contains(label.text), "\(name): \(label.text) with none")
    }
    for filtered in [cafes, noShops, none] {
      for label in others {
        #expect(filtered.text.contains(label.text), "\(name): \(label.text) always")
      }
    }
  }
}
