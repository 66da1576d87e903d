import Foundation
import LoopbackHTTPServer
import TermMap
import TestProcesses
import Testing

/// The tests' folder, and the fixtures of other test targets.
private let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent()

/// A tile of each kind, their z/x/y, and a folder laid out z/x/y for nginx to serve.
private struct TileSite {
  /// Monaco as a PNG and as a JPEG tile (the same picture), and a vector tile (Shortbread).
  static let png = TileOverlayPath(x: 34119, y: 23895, z: 16)
  static let mvt = TileOverlayPath(x: 8529, y: 5974, z: 14)
  let root: URL

  init() throws {
    root = FileManager.default.temporaryDirectory
      .appendingPathComponent("termmap-tile-site-\(UUID().uuidString)", isDirectory: true)
    let pictures = testsFolder.appendingPathComponent("RasterTilesTests/Fixtures")
    let png = try Data(contentsOf: pictures.appendingPathComponent("monaco-z16-34119-23895.png"))
    let jpg = try Data(contentsOf: pictures.appendingPathComponent("monaco-z16-34119-23895.jpg"))
    let vector = try MBTilesSource(
      path: testsFolder.appendingPathComponent("MapTilesTests/Fixtures/monaco-shortbread.mbtiles")
        .path)
    let p = Self.mvt
    let mvt = try #require(try vector.tile(TileID(z: p.z, x: p.x, y: p.y)))
    // Named by their kind (for the reference, a z/x/y folder), and with no extension at all.
    for (data, kind, tile) in [
      (png, "png", "16/34119/23895"), (jpg, "jpg", "16/34119/23895"), (mvt, "mvt", "14/8529/5974"),
    ] {
      try put(data, "\(kind)/\(tile).\(kind)")
      try put(data, "bare-\(kind)/\(tile)")
    }
    // Bytes that are no tile, and a PNG cut short: both arrive whole, neither draws.
    try put(Data("<html>maintenance</html>".utf8), "html/16/34119/23895.png")
    let picture = try Data(
      contentsOf: pictures.appendingPathComponent("monaco-z16-34119-23895.png"))
    try put(picture.prefix(200), "cut/16/34119/23895.png")
  }

  func put(_ data: Data, _ path: String) throws {
    let file = root.appendingPathComponent(path)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try data.write(to: file)
  }

  func remove() { try? FileManager.default.removeItem(at: root) }
}

@MainActor
private final class RenderingLog: MapViewDelegate {
  var fullyRendered: [Bool] = []
  var failures: [String] = []
  func mapViewDidFinishRenderingMap(_ mapView: MapView, fullyRendered: Bool) {
    self.fullyRendered.append(fullyRendered)
  }
  func mapViewDidFailLoadingMap(_ mapView: MapView, withError error: any Error) {
    failures.append("\(error)")
  }
}

/// A map of 40 × 12 cells looking at the middle of tile `path` at zoom `level`, with `overlay`
/// on it and no delegate renderer: the frame once every tile has come.
@MainActor
private func frame(
  _ overlay: TileOverlay, at path: TileOverlayPath, level: Double, log: RenderingLog? = nil
) -> (frame: CellBuffer, statistics: FrameStatistics) {
  let map = MapView(columns: 40, rows: 12)
  map.delegate = log
  map.setCenter(path.mapRect.mid, animated: false)
  map.setZoomLevel(level, animated: false)
  map.addOverlay(overlay, level: .aboveRoads)
  let r = map.renderCompleteFrame(timeout: 60)
  return (r.frame, r.statistics)
}

private func inked(_ frame: CellBuffer) -> Int {
  frame.lines.joined().unicodeScalars.filter { $0.value > 0x2800 && $0.value <= 0x28FF }.count
}

/// The access log lines of requests for tiles: every request nginx had answered when asked
/// (`Nginx.accessLogThroughMark()`: nginx writes a line after its answer, so the client may
/// have the tile before the line is there).
private func tileRequests(_ nginx: Nginx) -> [String] {
  nginx.accessLogThroughMark()
}

@Suite("Tile overlays that just work", .serialized)
struct TileOverlayDefaultsTests {
  /// The disk cache in a folder of the test's own (the defaults' is `~/.cache`).
  @MainActor func withCache<R>(_ body: (URL) throws -> R) throws -> R {
    let cache = FileManager.default.temporaryDirectory
      .appendingPathComponent("termmap-tile-cache-\(UUID().uuidString)", isDirectory: true)
    let before = TileOverlay.defaults
    TileOverlay.defaults = StandardTileSupport(cacheHome: cache, timeout: 60)
    defer {
      TileOverlay.defaults = before
      try? FileManager.default.removeItem(at: cache)
    }
    return try body(cache)
  }

  @Test("import TermMap installs the standard tile support: HTTP loader and automatic renderer")
  func announced() {
    #expect(TileOverlay.defaults is StandardTileSupport)
    let overlay = TileOverlay(urlTemplate: "http://127.0.0.1:9/{z}/{x}/{y}.png")
    #expect(overlay.makeDefaultRenderer() is AutomaticTileRenderer)
    #expect(TileOverlay(urlTemplate: nil).makeDefaultRenderer() is AutomaticTileRenderer)
  }

  @Test("PNG, JPEG and MVT templates over HTTP draw their tiles, told apart by their bytes")
  @MainActor func pngJpegMvt() throws {
    let site = try TileSite()
    defer { site.remove() }
    let nginx = try Nginx(serving: site.root)
    defer { nginx.stop() }
    try withCache { _ in
      for (kind, path, level) in [
        ("png", TileSite.png, 16.0), ("jpg", TileSite.png, 16.0), ("mvt", TileSite.mvt, 15.0),
      ] {
        // No extension says what the tiles are: the bytes tell.
        let overlay = TileOverlay(urlTemplate: nginx.baseURL + "/bare-\(kind)/{z}/{x}/{y}")
        let log = RenderingLog()
        let (got, statistics) = frame(overlay, at: path, level: level, log: log)
        // The same tiles through the tile source the viewer uses for a z/x/y folder.
        let reference = frame(
          SourceTileOverlay(
            source: try DirectoryTileSource(root: site.root.appendingPathComponent(kind)),
            variant: .dark), at: path, level: level
        ).frame
        #expect(inked(got) > 100, "\(kind):\n\(got.lines.joined(separator: "\n"))")
        #expect(got.lines == reference.lines, "\(kind)")
        #expect(statistics.tilesFailed == 0)
        #expect(log.fullyRendered.last == true, "\(kind): \(log.fullyRendered)")
        #expect(log.failures.isEmpty, "\(log.failures)")
      }
      // A local path template draws the same as the server's.
      let local = frame(
        TileOverlay(urlTemplate: site.root.path + "/png/{z}/{x}/{y}.png"), at: TileSite.png,
        level: 16
      ).frame
      let served = frame(
        TileOverlay(urlTemplate: nginx.baseURL + "/png/{z}/{x}/{y}.png"), at: TileSite.png,
        level: 16
      ).frame
      #expect(local.lines == served.lines)
    }
  }

  @Test("the second load of a tile comes from the disk cache: nginx sees one request")
  @MainActor func diskCache() throws {
    let site = try TileSite()
    defer { site.remove() }
    let nginx = try Nginx(serving: site.root)
    defer { nginx.stop() }
    try withCache { cache in
      let template = nginx.baseURL + "/png/{z}/{x}/{y}.png"
      let first = frame(TileOverlay(urlTemplate: template), at: TileSite.png, level: 16).frame
      let asked = tileRequests(nginx).filter {
        $0.contains("GET /png/16/34119/23895.png")
      }
      #expect(asked.count == 1, "\(asked)")
      // Stored under the XDG cache home, by template.
      let stored = try FileManager.default.subpathsOfDirectory(
        atPath: cache.appendingPathComponent("termmap/tiles").path)
      #expect(stored.contains { $0.hasSuffix("16/34119/23895") }, "\(stored)")
      // A new overlay (nothing in memory) draws the same frame without asking the server.
      let before = tileRequests(nginx).count
      let second = frame(TileOverlay(urlTemplate: template), at: TileSite.png, level: 16).frame
      #expect(second.lines == first.lines)
      #expect(inked(second) > 100)
      #expect(tileRequests(nginx).count == before, "\(tileRequests(nginx))")
    }
  }

  @Test(
    "maps sharing an overlay's decoded tiles: the second map draws the same frame with no load")
  @MainActor func sharedContent() throws {
    let site = try TileSite()
    defer { site.remove() }
    let nginx = try Nginx(serving: site.root)
    defer { nginx.stop() }
    try withCache { _ in
      for (name, template, path, level) in [
        ("mvt", nginx.baseURL + "/mvt/{z}/{x}/{y}.mvt", TileSite.mvt, 15.0),
        ("png", nginx.baseURL + "/png/{z}/{x}/{y}.png", TileSite.png, 16.0),
      ] {
        let overlay = TileOverlay(urlTemplate: template)
        let shared = SharedTileContent()
        overlay.sharedContent = shared
        @MainActor func show() -> (CellBuffer, Int) {
          let map = MapView(columns: 40, rows: 12)
          map.setCenter(path.mapRect.mid, animated: false)
          map.setZoomLevel(level, animated: false)
          map.addOverlay(overlay, level: .aboveRoads)
          let frame = map.renderCompleteFrame(timeout: 60).frame
          let loads = (map.renderer(for: overlay) as? TileOverlayRenderer)?.loadsStarted ?? -1
          return (frame, loads)
        }
        let (first, firstLoads) = show()
        #expect(firstLoads > 0 && shared.stored == firstLoads, "\(name): \(shared.stored)")
        #expect(inked(first) > 100, "\(name)")
        // A second map (another session of `termmap serve`): the tiles come decoded from the
        // overlay, nothing is loaded, the frame is the same.
        let (second, secondLoads) = show()
        #expect(secondLoads == 0, "\(name)")
        #expect(shared.hits >= firstLoads, "\(name): \(shared.hits)")
        #expect(second.lines == first.lines, "\(name)")
        // Without sharing, every map loads its own.
        overlay.sharedContent = nil
        let (_, alone) = show()
        #expect(alone == firstLoads, "\(name)")
      }
    }
  }

  @Test(
    "a tile that fails (404, 500, a time-out, bytes that are no tile, a cut PNG) is not fully rendered"
  )
  @MainActor func failedTiles() throws {
    let site = try TileSite()
    defer { site.remove() }
    let nginx = try Nginx(serving: site.root)
    defer { nginx.stop() }
    let broken = try LoopbackHTTPServer { _ in .respond(status: 500, body: Data("oops".utf8)) }
    defer { broken.stop() }
    let silent = try LoopbackHTTPServer { _ in .hang }
    defer { silent.stop() }
    try withCache { cache in
      for (name, template) in [
        ("404", nginx.baseURL + "/none/{z}/{x}/{y}.png"),
        ("500", broken.baseURL + "/{z}/{x}/{y}.png"),
        ("no tile", nginx.baseURL + "/html/{z}/{x}/{y}.png"),
        ("cut PNG", nginx.baseURL + "/cut/{z}/{x}/{y}.png"),
      ] {
        let log = RenderingLog()
        let (got, statistics) = frame(
          TileOverlay(urlTemplate: template), at: TileSite.png, level: 16, log: log)
        #expect(inked(got) == 0, "\(name)")
        #expect(statistics.tilesFailed > 0, "\(name)")
        #expect(log.fullyRendered.last == false, "\(name): \(log.fullyRendered)")
      }
      let log = RenderingLog()
      _ = frame(
        TileOverlay(urlTemplate: broken.baseURL + "/{z}/{x}/{y}.png"), at: TileSite.png,
        level: 16, log: log)
      #expect(log.failures.first?.contains("HTTP 500") == true, "\(log.failures)")

      // A server that never answers: the tile fails when the time-out has passed.
      TileOverlay.defaults = StandardTileSupport(cacheHome: cache, timeout: 0.5)
      let slow = RenderingLog()
      let (blank, statistics) = frame(
        TileOverlay(urlTemplate: silent.baseURL + "/{z}/{x}/{y}.png"), at: TileSite.png,
        level: 16, log: slow)
      #expect(inked(blank) == 0)
      #expect(statistics.tilesFailed > 0)
      #expect(slow.fullyRendered.last == false, "\(slow.fullyRendered)")
      #expect(slow.failures.first?.contains("timed out after 0.5 s") == true, "\(slow.failures)")
    }
  }

  /// A generated layer: one subclass answering dots (a checkerboard, 64 × 64 squares a tile).
  final class Checkerboard: TileOverlay, @unchecked Sendable {
    // `@unchecked Sendable`: no state of its own; the base class keeps its own behind a mutex.
    init() { super.init(urlTemplate: nil) }

    override func loadTileContent(
      at path: TileOverlayPath,
      result: @escaping @Sendable ((any TileContent)?, (any Error)?) -> Void
    ) {
      var dots = TileDots(width: 64, height: 64)
      for y in 0..<64 { for x in 0..<64 where (x + y) % 2 == 0 { dots[x, y] = .brightGreen } }
      result(dots, nil)
    }
  }

  @Test("a generated layer is one subclass answering dots, drawn by the default renderer")
  @MainActor func generatedDots() throws {
    // At zoom 6 a tile of zoom 6 is 256 dots wide: a square of the board is 4 × 4 dots, two
    // cells across and one down. The map's top-left corner is a tile's.
    let map = MapView(columns: 16, rows: 4)
    let corner = TileOverlayPath(x: 33, y: 22, z: 6).mapRect.origin
    let dot = 1 / ZoomMath.zoomScale(forZoomLevel: 6)
    map.setZoomLevel(6, animated: false)
    map.setCenter(MapPoint(x: corner.x + 16 * dot, y: corner.y + 8 * dot), animated: false)
    let overlay = Checkerboard()
    map.addOverlay(overlay, level: .aboveRoads)
    let r = map.renderCompleteFrame(timeout: 60)
    #expect(r.complete)
    #expect(r.statistics.tilesFailed == 0)
    #expect(map.renderer(for: overlay) is AutomaticTileRenderer)
    let a = String(repeating: "⣿⣿  ", count: 4)
    let b = String(repeating: "  ⣿⣿", count: 4)
    #expect(r.frame.lines == [a, b, a, b], "\n\(r.frame.lines.joined(separator: "\n"))")
  }

  /// A layer made in code that answers one decoded tile (and no tile elsewhere).
  final class DecodedTile: TileOverlay, @unchecked Sendable {
    // `@unchecked Sendable`: `content` and `path` are immutable `Sendable` values; the base
    // class keeps its own state behind a mutex.
    let content: any TileContent
    let path: TileOverlayPath

    init(_ content: any TileContent, at path: TileOverlayPath) {
      self.content = content
      self.path = path
      super.init(urlTemplate: nil)
    }

    override func loadTileContent(
      at path: TileOverlayPath,
      result: @escaping @Sendable ((any TileContent)?, (any Error)?) -> Void
    ) {
      result(path == self.path ? content : nil, nil)
    }
  }

  @Test("loadTileContent may answer a decoded picture or decoded vector features")
  @MainActor func decodedContent() throws {
    let site = try TileSite()
    defer { site.remove() }
    let png = try Data(contentsOf: site.root.appendingPathComponent("png/16/34119/23895.png"))
    let mvt = try Data(contentsOf: site.root.appendingPathComponent("mvt/14/8529/5974.mvt"))
    for (kind, content, path, level) in [
      (
        "png", RasterTileContent(try RasterImage.decode(png)) as any TileContent, TileSite.png, 16.0
      ),
      ("mvt", VectorTileContent(try VectorTileDecoder.decodeCompressed(mvt)), TileSite.mvt, 15),
    ] {
      let (got, statistics) = frame(DecodedTile(content, at: path), at: path, level: level)
      let reference = frame(
        SourceTileOverlay(
          source: try DirectoryTileSource(root: site.root.appendingPathComponent(kind)),
          variant: .dark), at: path, level: level
      ).frame
      #expect(inked(got) > 100, "\(kind)")
      #expect(got.lines == reference.lines, "\(kind)")
      #expect(statistics.tilesFailed == 0, "\(kind)")
    }
  }

  @Test("a snapshot of a template over HTTP is the map's frame; a failed one counts its tiles")
  @MainActor func snapshot() async throws {
    let site = try TileSite()
    defer { site.remove() }
    let nginx = try Nginx(serving: site.root)
    defer { nginx.stop() }
    let cache = FileManager.default.temporaryDirectory
      .appendingPathComponent("termmap-tile-cache-\(UUID().uuidString)", isDirectory: true)
    let before = TileOverlay.defaults
    TileOverlay.defaults = StandardTileSupport(cacheHome: cache, timeout: 60)
    defer {
      TileOverlay.defaults = before
      try? FileManager.default.removeItem(at: cache)
    }
    do {
      let map = MapView(columns: 40, rows: 12)
      map.setCenter(TileSite.png.mapRect.mid, animated: false)
      await map.setZoomLevel(16, animated: false)
      map.addOverlay(TileOverlay(urlTemplate: nginx.baseURL + "/png/{z}/{x}/{y}.png"))
      let expected = map.renderCompleteFrame(timeout: 60).frame
      for (folder, fails) in [("png", false), ("none", true)] {
        var options = MapSnapshotter.Options(columns: 40, rows: 12)
        options.mapRect = map.visibleMapRect
        let template = nginx.baseURL + "/\(folder)/{z}/{x}/{y}.png"
        options.addOverlays([TileOverlay(urlTemplate: template)])
        let snapshot = try await MapSnapshotter(options: options).start()
        #expect((snapshot.statistics.tilesFailed > 0) == fails, "\(folder)")
        if !fails { #expect(snapshot.buffer.lines == expected.lines) }
      }
    }
  }
}
