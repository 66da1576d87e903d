import DotRaster
import Foundation
import MapGeometry
import Testing

@testable import MapTiles
@testable import TermMapKit
@testable import TileData

/// A z/x/y folder of raster tiles copied from the RasterTiles fixtures.
struct RasterTileFolder {
  let root: URL
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("RasterTilesTests/Fixtures")

  init(_ tiles: [(file: String, z: Int, x: Int, y: Int)]) throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-raster-\(UUID().uuidString)")
    for t in tiles {
      let dir = root.appendingPathComponent("\(t.z)/\(t.x)")
      try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
      let ext = (t.file as NSString).pathExtension
      try FileManager.default.copyItem(
        at: Self.fixtures.appendingPathComponent(t.file),
        to: dir.appendingPathComponent("\(t.y).\(ext)"))
    }
  }
  func remove() { try? FileManager.default.removeItem(at: root) }
}

@Suite("Raster tiles through the map")
struct RasterPipelineTests {
  /// The dots of a frame (from its braille glyphs), as a set of (x, y).
  func dots(_ frame: CellBuffer) -> Set<[Int]> {
    var out = Set<[Int]>()
    for row in 0..<frame.rows {
      for column in 0..<frame.columns {
        let v = frame[column, row].glyph.value
        guard (0x2801...0x28FF).contains(v) else { continue }
        let bits = UInt8(v - 0x2800)
        for dy in 0..<CellGeometry.dotsHigh {
          for dx in 0..<CellGeometry.dotsWide
          where bits & CellGeometry.brailleBit(dx: dx, dy: dy) != 0 {
            out.insert([column * CellGeometry.dotsWide + dx, row * CellGeometry.dotsHigh + dy])
          }
        }
      }
    }
    return out
  }

  @Test("a tile with known geometry puts its dark pixels on the expected dots, one pixel per dot")
  @MainActor func knownGeometry() throws {
    let folder = try RasterTileFolder([("geometry.png", 1, 0, 0)])
    defer { folder.remove() }
    let overlay = SourceTileOverlay(source: try DirectoryTileSource(root: folder.root.path))
    let map = MapView(columns: 128, rows: 64)
    map.addOverlay(overlay, level: .aboveRoads)
    // Zoom 1: the world is 512 dots wide, tile 1/0/0 is the screen's 256 × 256 dots.
    map.setZoomLevel(1, animated: false)
    map.setCenter(MapPoint(x: MapSize.world.width / 4, y: MapSize.world.width / 4), animated: false)
    #expect(map.viewport.originX == 0 && map.viewport.originY == 0)
    let result = map.renderCompleteFrame(timeout: 60)
    #expect(result.complete)
    var expected = Set<[Int]>()
    for i in 0..<256 { expected.insert([i, i]) }
    for x in 160...223 { for y in 32...63 { expected.insert([x, y]) } }
    #expect(dots(result.frame) == expected)
  }

  @Test("a 512-pixel @2x tile is drawn one zoom down: one tile pixel per dot")
  @MainActor func retinaTiles() throws {
    let folder = try RasterTileFolder([("monaco-z17-68238-47794@2x.png", 17, 68238, 47794)])
    defer { folder.remove() }
    let overlay = SourceTileOverlay(source: try DirectoryTileSource(root: folder.root.path))
    overlay.tileSize = 512
    let map = MapView(columns: 64, rows: 16)
    map.addOverlay(overlay, level: .aboveRoads)
    let tile = TileOverlayPath(x: 68238, y: 47794, z: 17)
    map.setCenter(tile.mapRect.mid, animated: false)
    map.setZoomLevel(18, animated: false)
    let frame = map.renderCompleteFrame(timeout: 60).frame
    let renderer = try #require(map.renderer(for: overlay) as? RasterTileRenderer)
    #expect(renderer.tileZoom(forZoomScale: map.zoomScale) == 17)
    #expect(renderer.cachedContent(at: tile) != nil)
    #expect(frame.cells.filter { (0x2801...0x28FF).contains($0.glyph.value) }.count > 200)
  }

  @Test("raster MBTiles (PNG, TMS rows) draw as the same tiles in a z/x/y folder do")
  @MainActor func rasterMBTiles() throws {
    let folder = try RasterTileFolder([
      ("monaco-z15-17059-11948.png", 15, 17059, 11948),
      ("monaco-z16-34119-23895.png", 16, 34119, 23895),
    ])
    defer { folder.remove() }
    let mbtiles = try MBTilesSource(
      path: fixtures.appendingPathComponent("monaco-raster.mbtiles").path)
    #expect(mbtiles.format == .png)
    var frames: [[String]] = []
    for source in [mbtiles as any TileSource, try DirectoryTileSource(root: folder.root.path)] {
      let overlay = SourceTileOverlay(source: source)
      // The folder has no bounds or zooms of its own: the same as the MBTiles file.
      overlay.minimumZ = 15
      overlay.maximumZ = 16
      let map = MapView(columns: 64, rows: 16)
      map.addOverlay(overlay, level: .aboveRoads)
      map.setCenter(Coordinate(latitude: 43.73538, longitude: 7.42126), animated: false)
      map.setZoomLevel(15.5, animated: false)
      frames.append(map.renderCompleteFrame(timeout: 60).frame.lines)
    }
    #expect(frames[0] == frames[1])
    #expect(
      frames[0].joined().unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }.count > 300)
  }

  @Test("Mapnik tiles in braille dots and in half blocks (snapshots)")
  @MainActor func snapshots() throws {
    let folder = try RasterTileFolder([
      ("monaco-z15-17059-11948.png", 15, 17059, 11948),
      ("monaco-z16-34119-23895.png", 16, 34119, 23895),
    ])
    defer { folder.remove() }
    for mode in RasterMode.allCases {
      let overlay = SourceTileOverlay(source: try DirectoryTileSource(root: folder.root.path))
      overlay.rasterMode = mode
      let map = MapView(columns: 64, rows: 16)
      map.addOverlay(overlay, level: .aboveRoads)
      map.setCenter(Coordinate(latitude: 43.73538, longitude: 7.42126), animated: false)
      map.setZoomLevel(15, animated: false)
      let frame = map.renderCompleteFrame(timeout: 60).frame
      checkSnapshot(
        text: (mode == .dots ? frame.lines : frame.ansiLines(colors: .palette256)).joined(
          separator: "\n") + "\n", named: "raster-monaco-z15-\(mode.rawValue)")
      if mode == .blocks {
        #expect(frame.cells.allSatisfy { $0.glyph == "▀" })
      } else {
        #expect(frame.cells.filter { (0x2801...0x28FF).contains($0.glyph.value) }.count > 400)
      }
    }
  }
}
