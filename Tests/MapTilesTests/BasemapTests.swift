import DotRaster
import Foundation
import LoopbackHTTPServer
import MapGeometry
import Synchronization
import Testing

@testable import MapTiles
@testable import TermMapKit
@testable import TileData

/// The repository's Data/ folder, found from this source file.
let dataDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Data")
let worldPath = dataDirectory.appendingPathComponent("world.pmtiles").path

/// Tiles from Data/world.pmtiles whose background loads wait until the test releases them.
final class GatedSource: TileSource {
  let inner: PMTilesSource
  var minZoom: Int { inner.minZoom }
  var maxZoom: Int { inner.maxZoom }
  var bounds: MapRect? { inner.bounds }
  var attribution: String { inner.attribution }
  var vectorLayers: [String] { inner.vectorLayers }
  var format: TileFormat { inner.format }
  var name: String { "gated" }
  /// Errors to answer instead of data, by tile.
  let failures: [TileID: String]
  private let state = Mutex<
    (waiting: [(TileID, @Sendable (Result<Data?, any Error>) -> Void)], calls: [TileID])
  >(([], []))

  init(failures: [TileID: String] = [:]) throws {
    inner = try PMTilesSource(path: worldPath)
    self.failures = failures
  }

  func tile(_ id: TileID) throws -> Data? { try inner.tile(id) }

  func loadTile(_ id: TileID, completion: @escaping @Sendable (Result<Data?, any Error>) -> Void) {
    state.withLock {
      $0.waiting.append((id, completion))
      $0.calls.append(id)
    }
  }

  /// Tiles asked for with loadTile, in order (repeats included).
  var calls: [TileID] { state.withLock { $0.calls } }
  var waiting: [TileID] { state.withLock { $0.waiting.map(\.0) } }

  /// Answers the waiting loads (all, or those for `id`), on another thread, and waits for them.
  func release(_ id: TileID? = nil) {
    let taken = state.withLock { s -> [(TileID, @Sendable (Result<Data?, any Error>) -> Void)] in
      let t = s.waiting.filter { id == nil || $0.0 == id }
      s.waiting.removeAll { id == nil || $0.0 == id }
      return t
    }
    let group = DispatchGroup()
    for (tile, completion) in taken {
      let result: Result<Data?, any Error> =
        failures[tile].map { .failure(TileSourceError.readFailed(path: "gated", message: $0)) }
        ?? Result { try inner.tile(tile) }
      DispatchQueue.global().async(group: group) { completion(result) }
    }
    group.wait()
  }
}

/// Records the delegate's loading and rendering calls.
@MainActor
final class LoadingRecorder: MapViewDelegate {
  var events: [String] = []
  var errors: [String] = []
  func mapViewWillStartLoadingMap(_ mapView: MapView) { events.append("willStartLoading") }
  func mapViewDidFinishLoadingMap(_ mapView: MapView) { events.append("didFinishLoading") }
  func mapViewDidFailLoadingMap(_ mapView: MapView, withError error: any Error) {
    events.append("didFailLoading")
    errors.append("\(error)")
  }
  func mapViewWillStartRenderingMap(_ mapView: MapView) { events.append("willStartRendering") }
  func mapViewDidFinishRenderingMap(_ mapView: MapView, fullyRendered: Bool) {
    events.append("didFinishRendering(\(fullyRendered))")
  }
}

/// Braille cells with dots in a frame.
func inkedCells(_ frame: CellBuffer) -> Int {
  frame.lines.joined().unicodeScalars.filter { $0.value > 0x2800 && $0.value <= 0x28FF }.count
}

func renderer(_ source: any TileSource) throws -> VectorTileRenderer {
  VectorTileRenderer(overlay: SourceTileOverlay(source: source), style: .dark)
}

extension TileOverlayRenderer {
  /// `resolve` now, with the tile addressed by a `TileID`.
  func resolve(_ id: TileID) -> Resolution {
    resolve(TileOverlayPath(x: id.x, y: id.y, z: id.z), now: Date())
  }
  func cachedChildren(of id: TileID) -> [(path: TileOverlayPath, content: any TileContent)] {
    cachedChildren(of: TileOverlayPath(x: id.x, y: id.y, z: id.z))
  }
}

extension TileOverlayPath {
  var tileID: TileID { TileID(z: z, x: x, y: y) }
}

/// The zoom scale at which the basemap draws vector tiles of zoom `z`.
func zoomScale(forTileZoom z: Int) -> Double {
  ZoomMath.zoomScale(forZoomLevel: Double(z) + 0.75)
}

@Suite("Basemap: background tile loading")
struct BasemapLoadingTests {
  @Test("canDraw is false while the tile loads, one load per tile, then one redraw of its rect")
  func canDrawWhileLoading() throws {
    let source = try GatedSource()
    let r = try renderer(source)
    let id = TileID(z: 2, x: 2, y: 1)
    let scale = zoomScale(forTileZoom: 2)
    // Two map tiles inside the same vector tile.
    let a = gridTile(at: id.mapRect.mid, scale).rect
    let b = gridTile(at: id.mapRect.mid, scale, dx: 1).rect
    #expect(!r.canDraw(a, zoomScale: scale))
    #expect(!r.canDraw(b, zoomScale: scale))
    #expect(!r.canDraw(a, zoomScale: scale))
    #expect(source.calls == [id])
    #expect(r.loadsInFlight == 1)
    #expect(r.takeInvalidations().isEmpty)

    source.release()
    #expect(r.loadsInFlight == 0)
    let invalidations = r.takeInvalidations()
    #expect(invalidations.count == 1)
    if case .rect(let rect)? = invalidations.first {
      #expect(rect == id.mapRect)
    } else {
      Issue.record("expected one rect invalidation, got \(invalidations)")
    }
    #expect(r.canDraw(a, zoomScale: scale))
    #expect(r.canDraw(b, zoomScale: scale))
    #expect(source.calls == [id])
  }

  @Test("a cached parent stands in (drawn scaled up) while the tile itself loads")
  func parentStandsIn() throws {
    let source = try GatedSource()
    let r = try renderer(source)
    let parent = TileID(z: 1, x: 1, y: 0)
    let child = TileID(z: 3, x: 4, y: 2)  // Europe, inside the parent
    let parentScale = zoomScale(forTileZoom: 1)
    #expect(!r.canDraw(parent.mapRect, zoomScale: parentScale))
    source.release()

    let scale = zoomScale(forTileZoom: 3)
    let rect = gridTile(at: child.mapRect.mid, scale).rect
    #expect(r.canDraw(rect, zoomScale: scale))
    #expect(source.waiting == [child])
    let resolution = r.resolve(child)
    #expect(resolution.drawn?.path.tileID == parent)
    #expect(resolution.complete == false)

    // draw uses the stand-in: the tile is not blank.
    #expect(!drawTile(r, at: child.mapRect.mid, scale).isBlank)
    source.release()
    #expect(r.resolve(child).drawn?.path.tileID == child)
    #expect(r.resolve(child).complete)
  }

  @Test("cached children stand in for their parent")
  func childrenStandIn() throws {
    let source = try GatedSource()
    let r = try renderer(source)
    let parent = TileID(z: 2, x: 2, y: 1)
    let childScale = zoomScale(forTileZoom: 3)
    for dy in 0...1 {
      for dx in 0...1 {
        let c = TileID(z: 3, x: 4 + dx, y: 2 + dy)
        _ = r.canDraw(
          MapRect(x: c.mapRect.minX, y: c.mapRect.minY, width: 1, height: 1),
          zoomScale: childScale)
      }
    }
    source.release()
    let scale = zoomScale(forTileZoom: 2)
    let rect = gridTile(at: parent.mapRect.mid, scale).rect
    #expect(r.resolve(parent).drawn == nil)
    #expect(r.canDraw(rect, zoomScale: scale))
    #expect(r.cachedChildren(of: parent).count == 4)
    #expect(!drawTile(r, at: parent.mapRect.mid, scale).isBlank)
  }

  @Test("above the source's maxZoom the deepest tile is scaled up; no load past maxZoom")
  func overzoom() throws {
    let source = try GatedSource()
    let r = try renderer(source)
    let deep = TileID(z: 12, x: 2132, y: 1493)  // Monaco
    let maxZ = source.maxZoom
    let scale = zoomScale(forTileZoom: 12)
    let rect = gridTile(at: deep.mapRect.mid, scale).rect
    #expect(!r.canDraw(rect, zoomScale: scale))
    #expect(source.calls == [TileID(z: maxZ, x: deep.x >> (12 - maxZ), y: deep.y >> (12 - maxZ))])
    source.release()
    #expect(r.canDraw(rect, zoomScale: scale))
    #expect(r.resolve(deep).complete)
    #expect(r.resolve(deep).drawn?.path.z == maxZ)
  }

  @Test("the delegate hears will-start-loading, then did-finish-loading, around the renders")
  @MainActor func delegateOrder() throws {
    let source = try GatedSource()
    let map = MapView(columns: 80, rows: 24)
    let recorder = LoadingRecorder()
    map.delegate = recorder
    let requests = Mutex(0)
    map.displayRequestHandler = { requests.withLock { $0 += 1 } }
    map.addOverlay(SourceTileOverlay(source: source), level: .aboveRoads)
    let first = map.renderFrameWithStatistics()
    #expect(first.statistics.tilesWaiting > 0)
    #expect(inkedCells(first.frame) == 0)
    #expect(map.isLoadingMap)
    #expect(
      recorder.events == ["willStartLoading", "willStartRendering", "didFinishRendering(false)"])
    recorder.events.removeAll()
    #expect(source.calls == [TileID(z: 0, x: 0, y: 0)])

    source.release()
    #expect(requests.withLock { $0 } >= 1)  // the loaded tile asked for a redraw
    map.processLoadingEvents()
    #expect(recorder.events == ["didFinishLoading"])
    let second = map.renderFrameWithStatistics()
    #expect(second.statistics.tilesWaiting == 0)
    #expect(second.statistics.tilesDrawn > 0)
    #expect(inkedCells(second.frame) > 100)
    #expect(
      recorder.events == ["didFinishLoading", "willStartRendering", "didFinishRendering(true)"])
    #expect(!map.isLoadingMap)
  }

  @Test("a failed load calls didFailLoadingMap; the frame completes without the tile")
  @MainActor func failedLoad() throws {
    let zero = TileID(z: 0, x: 0, y: 0)
    let source = try GatedSource(failures: [zero: "HTTP 500 Internal Server Error"])
    let map = MapView(columns: 80, rows: 24)
    let recorder = LoadingRecorder()
    map.delegate = recorder
    map.addOverlay(SourceTileOverlay(source: source), level: .aboveRoads)
    _ = map.renderFrame()
    source.release()
    let result = map.renderCompleteFrame(timeout: 60)
    #expect(result.complete)
    #expect(result.statistics.tilesWaiting == 0)
    #expect(recorder.events.first == "willStartLoading")
    #expect(recorder.events.filter { $0 == "didFailLoading" }.count == 1)
    #expect(!recorder.events.contains("didFinishLoading"))
    #expect(recorder.errors.first?.contains("HTTP 500") == true)
    // Complete, but not fully rendered: a tile failed (MapKit's `fullyRendered`).
    #expect(result.statistics.tilesFailed > 0)
    #expect(recorder.events.last == "didFinishRendering(false)")
    // Not retried at once.
    _ = map.renderFrame()
    #expect(source.calls == [zero])
  }

  @Test("renderCompleteFrame draws what a synchronous render would")
  @MainActor func completeFrame() throws {
    let map = MapView(columns: 100, rows: 30)
    map.addOverlay(
      SourceTileOverlay(source: try PMTilesSource(path: worldPath)), level: .aboveRoads)
    map.setCenter(Coordinate(latitude: 45, longitude: 10), animated: false)
    map.setZoomLevel(4, animated: false)
    let result = map.renderCompleteFrame(timeout: 60)
    #expect(result.complete)
    map.discardTileCache()
    let again = map.renderFrameWithStatistics()  // decoded tiles cached: draws at once
    #expect(again.statistics.tilesWaiting == 0)
    #expect(again.frame.lines == result.frame.lines)
    #expect(result.frame.lines.joined().contains("Italy"))
  }

  @Test("an overlay that can replace the map's content hides map content below it")
  @MainActor func replacesMapContent() throws {
    final class Cover: Overlay {
      let boundingMapRect = MapRect.world
      let replaces: Bool
      init(replaces: Bool) { self.replaces = replaces }
      var canReplaceMapContent: Bool { replaces }
    }
    for replaces in [false, true] {
      let map = MapView(columns: 80, rows: 24)
      map.addOverlay(
        SourceTileOverlay(source: try PMTilesSource(path: worldPath)), level: .aboveRoads)
      map.addOverlay(Cover(replaces: replaces))  // its default renderer draws nothing
      let frame = map.renderCompleteFrame(timeout: 60).frame
      if replaces {
        #expect(inkedCells(frame) == 0)
      } else {
        #expect(inkedCells(frame) > 100)
      }
    }
  }
}

/// The map view's tile (`TileGrid.size` dots on the grid of `scale`) that holds `p`.
func gridTile(at p: MapPoint, _ scale: Double, dx: Int = 0) -> (rect: MapRect, i: Int, j: Int) {
  let size = Double(TileGrid.size)
  let i = Int((p.x * scale / size).rounded(.down)) + dx
  let j = Int((p.y * scale / size).rounded(.down))
  return (TileGrid.mapRect(i: i, j: j, zoomScale: scale), i, j)
}

/// Draws one map tile of the renderer the way the map view does.
func drawTile(_ r: OverlayRenderer, at p: MapPoint, _ scale: Double) -> DotCanvas {
  let t = gridTile(at: p, scale)
  return TileJob(
    key: TileKey(overlay: ObjectIdentifier(r.overlay), scaleBits: scale.bitPattern, i: 0, j: 0),
    renderer: r, rect: t.rect, zoomScale: scale, i: t.i, j: t.j
  ).draw()?.dots ?? DotCanvas(width: TileGrid.size, height: TileGrid.size)
}

@Suite("Basemap over HTTP (loopback server)")
struct BasemapHTTPTests {
  struct Run {
    let frame: CellBuffer
    let complete: Bool
    let events: [String]
    let errors: [String]
    let seconds: Double
  }

  /// One map frame of the world at zoom 1 from the loopback server (path prefix `prefix`),
  /// optionally over the offline world file.
  @MainActor
  func render(
    _ server: LoopbackHTTPServer, _ prefix: String, cache: URL, withWorld: Bool = false,
    maxAge: TimeInterval = 3600, timeout: TimeInterval = 60
  ) throws -> (Run, HTTPTileSource) {
    let http = try HTTPTileSource(
      template: server.baseURL + prefix + "/{z}/{x}/{y}.pbf", maxZoom: 6, cacheHome: cache,
      maxAge: maxAge, timeout: timeout)
    var sources: [any TileSource] = []
    if withWorld { sources.append(try PMTilesSource(path: worldPath)) }
    sources.append(http)
    let map = MapView(columns: 100, rows: 30)
    let recorder = LoadingRecorder()
    map.delegate = recorder
    map.addOverlays(sources.map { SourceTileOverlay(source: $0) }, level: .aboveRoads)
    map.setCenter(Coordinate(latitude: 30, longitude: 0), animated: false)
    map.setZoomLevel(1.6, animated: false)
    let start = Date()
    let result = map.renderCompleteFrame(timeout: 60)
    return (
      Run(
        frame: result.frame, complete: result.complete, events: recorder.events,
        errors: recorder.errors, seconds: Date().timeIntervalSince(start)), http
    )
  }

  @Test("tiles load over HTTP, land is drawn, the disk cache fills, a second run revalidates")
  @MainActor func loadsAndCaches() throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: WorldMBTiles.path)
    defer { server.stop() }
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
      "basemap-http-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }

    let (run, http) = try render(server, "", cache: cache)
    #expect(run.complete)
    #expect(inkedCells(run.frame) > 200)
    #expect(run.events.first == "willStartLoading")
    #expect(run.events.contains("didFinishLoading"))
    #expect(!run.events.contains("didFailLoading"))
    #expect(run.events.last == "didFinishRendering(true)")
    let fetched = server.requests.count
    #expect(fetched >= 1)
    let directory = try #require(http.cacheDirectory)
    let walker = try #require(FileManager.default.enumerator(atPath: directory.path))
    let files = walker.compactMap { $0 as? String }
    #expect(files.filter { $0.hasSuffix(".meta") }.count == fetched)

    // Second run, same cache, everything stale: conditional requests answered 304.
    let (again, second) = try render(server, "", cache: cache, maxAge: 0)
    #expect(again.complete)
    #expect(again.frame.lines == run.frame.lines)
    #expect(second.statistics.notModified == fetched)
    #expect(server.requests.dropFirst(fetched).allSatisfy { $0.headers["if-none-match"] != nil })
    // Third run, fresh cache: no request at all.
    let (third, _) = try render(server, "", cache: cache)
    #expect(third.frame.lines == run.frame.lines)
    #expect(server.requests.count == 2 * fetched)
  }

  @Test("404: no tile and no failure")
  @MainActor func notFound() throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: WorldMBTiles.path)
    defer { server.stop() }
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
      "basemap-http-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    let (run, _) = try render(server, "/404", cache: cache)
    #expect(run.complete)
    #expect(run.events.contains("didFinishLoading"))
    #expect(!run.events.contains("didFailLoading"))
    #expect(inkedCells(run.frame) == 0)
  }

  @Test(
    "500, a time-out and a garbage body: didFailLoadingMap, and the frame still draws",
    arguments: ["/500", "/hang", "/garbage"])
  @MainActor func failures(prefix: String) throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: WorldMBTiles.path)
    defer { server.stop() }
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
      "basemap-http-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    // Over the offline world: the world's land still shows.
    let (run, _) = try render(server, prefix, cache: cache, withWorld: true, timeout: 0.5)
    #expect(run.complete)
    // The failure ends the first burst of loads; the world's tiles, asked for then, are a
    // second burst that finishes.
    let failed = try #require(run.events.firstIndex(of: "didFailLoading"))
    #expect(run.events[..<failed].filter { $0 == "willStartLoading" }.count == 1)
    #expect(run.errors.count >= 1)
    #expect(inkedCells(run.frame) > 200)
    // Drawn, but not fully rendered: the server's tiles failed (MapKit's `fullyRendered`).
    #expect(run.events.last == "didFinishRendering(false)")
  }
}
