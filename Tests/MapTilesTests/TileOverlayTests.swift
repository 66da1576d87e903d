import DotRaster
import Foundation
import MapGeometry
import Synchronization
import Testing

@testable import MapTiles
@testable import TermMapKit
@testable import TileData

/// A library user's own tile overlay: tiles come from its own loader (here Data/world.pmtiles
/// read on a background queue once the test releases them), drawn by the vector renderer.
final class OwnTiles: TileOverlay, @unchecked Sendable {
  let file: PMTilesSource
  /// Loads asked for and not yet answered (mutex-guarded).
  let waiting = Mutex<[(TileOverlayPath, @Sendable (Data?, (any Error)?) -> Void)]>([])
  let asked = Mutex<[TileOverlayPath]>([])

  init() throws {
    file = try PMTilesSource(path: worldPath)
    super.init(urlTemplate: nil)
    maximumZ = 6
    canReplaceMapContent = true
    attribution = "own tiles"
  }

  override func loadTile(
    at path: TileOverlayPath, result: @escaping @Sendable (Data?, (any Error)?) -> Void
  ) {
    asked.withLock { $0.append(path) }
    waiting.withLock { $0.append((path, result)) }
  }

  override func makeDefaultRenderer() -> OverlayRenderer {
    VectorTileRenderer(overlay: self, style: .dark)
  }

  /// Answers every waiting load on other threads and waits for the answers.
  func release() {
    let taken = waiting.withLock { w in
      defer { w.removeAll() }
      return w
    }
    let group = DispatchGroup()
    for (path, result) in taken {
      let data = try? file.tile(TileID(z: path.z, x: path.x, y: path.y))
      DispatchQueue.global().async(group: group) { result(data, nil) }
    }
    group.wait()
  }
}

@Suite("Tile overlays added by a library user")
struct TileOverlayLibraryTests {
  @Test(
    "a TileOverlay subclass with its own loadTile: canDraw false while loading, one redraw per arrival, then drawn"
  )
  @MainActor func ownLoader() throws {
    let tiles = try OwnTiles()
    let map = MapView(columns: 80, rows: 24)
    let redraws = Mutex(0)
    map.displayRequestHandler = { redraws.withLock { $0 += 1 } }
    map.addOverlay(tiles, level: .aboveRoads)
    map.setCenter(Coordinate(latitude: 45, longitude: 10), animated: false)
    map.setZoomLevel(3.2, animated: false)

    let first = map.renderFrameWithStatistics()
    #expect(first.statistics.tilesWaiting > 0)
    #expect(inkedCells(first.frame) == 0)
    let renderer = try #require(map.renderer(for: tiles) as? VectorTileRenderer)
    let asked = tiles.asked.withLock { $0 }
    #expect(!asked.isEmpty)
    #expect(Set(asked).count == asked.count, "each tile asked for once")
    #expect(asked.allSatisfy { $0.z == 2 }, "vector tiles one zoom below the map's")
    // Waiting tiles are not asked again while their loads are in flight.
    _ = map.renderFrameWithStatistics()
    #expect(tiles.asked.withLock { $0.count } == asked.count)
    let mapTile = TileOverlayPath.tiles(covering: map.visibleMapRect, zoom: 2)[0].mapRect
    #expect(!renderer.canDraw(mapTile, zoomScale: map.zoomScale))

    redraws.withLock { $0 = 0 }
    tiles.release()
    #expect(redraws.withLock { $0 } >= asked.count, "the host is woken for each arrival")
    // One redraw per arrival: an invalidation of just that tile's rect.
    let rects = renderer.takeInvalidations().compactMap { inv -> MapRect? in
      if case .rect(let r) = inv { return r }
      return nil
    }
    #expect(Set(rects.map(\.origin.x)).count == asked.count)
    #expect(rects.count == asked.count)
    #expect(Set(rects) == Set(asked.map(\.mapRect)))
    renderer.setNeedsDisplay()
    let second = map.renderFrameWithStatistics()
    #expect(second.statistics.tilesWaiting == 0)
    #expect(inkedCells(second.frame) > 200)
    #expect(second.frame.lines.joined().contains("Italy"))
    #expect(map.visibleAttribution == ["own tiles"])
  }

  @Test("url(forTilePath:) fills {x} {y} {z} {scale} {s}; TMS paths are flipped; files load")
  func urlTemplate() throws {
    let o = TileOverlay(urlTemplate: "https://{s}.tiles.example/{z}/{x}/{y}@{scale}x.png")
    o.subdomains = ["a", "b"]
    let p = TileOverlayPath(x: 3, y: 1, z: 2)
    #expect(o.url(forTilePath: p).absoluteString == "https://a.tiles.example/2/3/1@1x.png")
    #expect(o.url(forTilePath: p.flipped).absoluteString == "https://b.tiles.example/2/3/2@1x.png")
    #expect(
      p.mapRect == MapRect(x: 3 * 67_108_864, y: 67_108_864, width: 67_108_864, height: 67_108_864))

    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-tiles-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.createDirectory(
      at: dir.appendingPathComponent("2/3"), withIntermediateDirectories: true)
    try Data("tile".utf8).write(to: dir.appendingPathComponent("2/3/1.bin"))
    let files = TileOverlay(urlTemplate: dir.path + "/{z}/{x}/{y}.bin")
    let got = Mutex<[String]>([])
    let group = DispatchGroup()
    for path in [p, TileOverlayPath(x: 0, y: 0, z: 2)] {
      group.enter()
      files.loadTile(at: path) { data, error in
        got.withLock {
          $0.append(
            "\(path): \(data.map { String(decoding: $0, as: UTF8.self) } ?? "nil") \(error == nil)")
        }
        group.leave()
      }
    }
    #expect(group.wait(timeout: .now() + 10) == .success)
    #expect(Set(got.withLock { $0 }) == ["2/3/1: tile true", "2/0/0: nil true"])

    let web = TileOverlay(urlTemplate: "gopher://example.invalid/{z}/{x}/{y}.png")
    let message = Mutex("")
    group.enter()
    web.loadTile(at: p) { _, error in
      message.withLock { $0 = "\(error.map { "\($0)" } ?? "")" }
      group.leave()
    }
    #expect(group.wait(timeout: .now() + 10) == .success)
    #expect(message.withLock { $0 } == "no loader for gopher: URLs")
  }
}

@Suite("The layer stack")
struct LayerStackTests {
  /// The world map, and a horizontal line through the label "Italy" at `level`.
  @MainActor func frame(routeAt level: OverlayLevel?) throws -> (CellBuffer, row: Int, column: Int)
  {
    let map = MapView(columns: 100, rows: 30)
    map.addOverlays(try OfflineMap.overlays(dataDirectory: dataDirectory), level: .aboveRoads)
    map.setCenter(Coordinate(latitude: 45, longitude: 10), animated: false)
    map.setZoomLevel(4, animated: false)
    let plain = map.renderCompleteFrame(timeout: 60).frame
    let row = try #require(plain.lines.firstIndex { $0.contains("Italy") })
    let column = plain.lines[row].distance(
      from: plain.lines[row].startIndex, to: plain.lines[row].range(of: "Italy")!.lowerBound)
    guard let level else { return (plain, row, column) }
    let at = map.coordinate(atColumn: column + 2, row: row)
    let line = Polyline(coordinates: [
      Coordinate(latitude: at.latitude, longitude: at.longitude - 30),
      Coordinate(latitude: at.latitude, longitude: at.longitude + 30),
    ])
    map.addOverlay(line, level: level)
    return (map.renderCompleteFrame(timeout: 60).frame, row, column)
  }

  func isBraille(_ c: Cell) -> Bool { (0x2801...0x28FF).contains(c.glyph.value) }

  @Test("an .aboveRoads overlay is drawn under place names; an .aboveLabels one over them")
  @MainActor func levels() throws {
    let (under, row, column) = try frame(routeAt: .aboveRoads)
    #expect(under.lines[row].contains("Italy"), "the name is printed over the line")

    let (over, _, _) = try frame(routeAt: .aboveLabels)
    // The line's cells in that row stay the line's: no letter of a name covers them.
    let cells = (column..<(column + 5)).map { over[$0, row] }
    #expect(cells.allSatisfy(isBraille), "\(over.lines[row])")
    #expect(!over.lines[row].contains("Italy"))
  }
}

@Suite("Map content from several sources")
struct SeamTests {
  @Test("where Monaco's extract ends the world's sea goes on, with no stroked line")
  @MainActor func noSeamAtTheExtractEdge() throws {
    let map = MapView(columns: 80, rows: 20)
    map.addOverlays(try OfflineMap.overlays(dataDirectory: dataDirectory), level: .aboveRoads)
    map.setCenter(Coordinate(latitude: 43.74, longitude: 7.45), animated: false)
    map.setZoomLevel(12, animated: false)
    let frame = map.renderCompleteFrame(timeout: 60).frame
    let edge = try #require(
      map.viewport.cell(for: MapPoint(Coordinate(latitude: 43.74, longitude: 7.448637)))?.column)
    // A cell with a full column of dots on its left or right side.
    func vertical(_ c: Cell) -> Bool {
      let v = c.glyph.value
      guard (0x2800...0x28FF).contains(v) else { return false }
      let bits = v - 0x2800
      return bits & 0x47 == 0x47 || bits & 0xB8 == 0xB8
    }
    for col in max(0, edge - 2)...min(79, edge + 2) {
      let run = (0..<20).filter { vertical(frame[col, $0]) }.count
      #expect(
        run < 5, "column \(col): a line of \(run) cells\n\(frame.lines.joined(separator: "\n"))")
    }
    // The sea (a stipple) is drawn on both sides of the edge.
    for col in [edge - 3, edge + 3] {
      let sea = (0..<20).filter { frame[col, $0].glyph == "⠂" }.count
      #expect(sea > 10, "column \(col)")
    }
    #expect(map.visibleAttribution.contains { $0.contains("OpenStreetMap") })
    #expect(map.visibleAttribution.contains { $0.contains("Natural Earth") })
  }

  @Test("where the upper source's tiles fail, the map content beneath shows")
  @MainActor func failedTilesShowWhatIsBeneath() throws {
    let zero = TileID(z: 0, x: 0, y: 0)
    let failing = try GatedSource(failures: [zero: "HTTP 500"])
    let map = MapView(columns: 80, rows: 24)
    map.addOverlay(
      SourceTileOverlay(source: try PMTilesSource(path: worldPath)), level: .aboveRoads)
    map.addOverlay(SourceTileOverlay(source: failing), level: .aboveRoads)
    let first = map.renderFrameWithStatistics()
    #expect(inkedCells(first.frame) == 0, "the upper source's tile is loading: nothing beneath")
    failing.release()
    let frame = map.renderCompleteFrame(timeout: 60).frame
    #expect(inkedCells(frame) > 100)
  }
}
