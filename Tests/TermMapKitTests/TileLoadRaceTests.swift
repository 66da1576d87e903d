import DotRaster
import Foundation
import MapGeometry
import Synchronization
import Testing

@testable import TermMapKit

/// A tile is loaded once: a load that ends on its thread between the frame's look at the
/// cache and its booking of a load is not started again (the load count a test of shared
/// tiles saw go from 1 to 2 on a loaded machine).
@Suite("Tile loads: one per tile, whatever the threads' timing")
struct TileLoadRaceTests {
  /// An overlay whose loads end when the test says: each asked tile's result is kept.
  final class HeldOverlay: TileOverlay, @unchecked Sendable {
    // `@unchecked Sendable`: its one field is a mutex; the base class keeps its own state
    // behind one too.
    let held = Mutex<[(TileOverlayPath, @Sendable ((any TileContent)?, (any Error)?) -> Void)]>(
      [])
    init() { super.init(urlTemplate: nil) }

    override func loadTileContent(
      at path: TileOverlayPath,
      result: @escaping @Sendable ((any TileContent)?, (any Error)?) -> Void
    ) {
      held.withLock { $0.append((path, result)) }
    }

    /// Ends every held load with a tile of dots.
    func finishAll() {
      let all = held.withLock { h in
        defer { h.removeAll() }
        return h
      }
      var dots = TileDots(width: 4, height: 4)
      dots[0, 0] = .brightGreen
      for (_, result) in all { result(dots, nil) }
    }
  }

  @Test("a load that ends between the frame's look and its booking is not started again")
  func endedLoadNotStartedAgain() throws {
    let overlay = HeldOverlay()
    let renderer = TileOverlayRenderer(tileOverlay: overlay)
    let path = TileOverlayPath(x: 5, y: 7, z: 4)
    // The frame's first look: nothing cached, a load booked.
    #expect(!renderer.canDraw(path.mapRect, zoomScale: ZoomMath.zoomScale(forZoomLevel: 4)))
    #expect(renderer.loadsStarted == 1)
    // A later look finds the tile still missing (its load has not ended yet) ...
    let look = renderer.resolve(path, now: Date())
    #expect(look.load == path)
    // ... the load ends on its thread ...
    overlay.finishAll()
    #expect(renderer.cachedContent(at: path) != nil)
    // ... and the booking that follows that look starts nothing: the tile is here.
    renderer.startLoad(try #require(look.load))
    #expect(renderer.loadsStarted == 1)
    #expect(overlay.held.withLock { $0.count } == 0)
    #expect(renderer.canDraw(path.mapRect, zoomScale: ZoomMath.zoomScale(forZoomLevel: 4)))
    #expect(renderer.loadsStarted == 1)
  }

  @Test("a load that failed between the look and the booking waits out the retry interval")
  func failedLoadNotRetriedAtOnce() throws {
    let overlay = HeldOverlay()
    let renderer = TileOverlayRenderer(tileOverlay: overlay, retryInterval: 30)
    let path = TileOverlayPath(x: 5, y: 7, z: 4)
    _ = renderer.canDraw(path.mapRect, zoomScale: ZoomMath.zoomScale(forZoomLevel: 4))
    let look = renderer.resolve(path, now: Date())
    let all = overlay.held.withLock { h in
      defer { h.removeAll() }
      return h
    }
    for (_, result) in all { result(nil, URLError(.timedOut)) }
    renderer.startLoad(try #require(look.load))
    #expect(renderer.loadsStarted == 1)
  }
}
