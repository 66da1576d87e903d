import Dispatch
import DotRaster
import Foundation
import MapGeometry
import Synchronization

/// Per-frame figures, for the status line and the benchmark.
public struct FrameStatistics: Sendable, Equatable {
  /// Overlay tiles drawn this frame.
  public var tilesDrawn = 0
  /// Overlay tiles taken from the cache.
  public var tilesReused = 0
  /// Tiles whose renderer could not draw yet.
  public var tilesWaiting = 0
  /// Annotation markers shown.
  public var markersShown = 0
}

extension MapView {
  /// The ink layers given to each overlay (fill, stroke, marks).
  static let layersPerOverlay: UInt32 = 4
  /// Ink layers below the first overlay, kept for the basemap.
  static let basemapLayers: UInt32 = 64

  /// Draws the current frame: basemap, overlays by level, markers, the callout.
  public func renderFrame() -> CellBuffer {
    renderFrameWithStatistics().frame
  }

  /// Draws the current frame and says what it cost.
  public func renderFrameWithStatistics() -> (frame: CellBuffer, statistics: FrameStatistics) {
    layoutIfNeeded()
    needsDisplay = false
    processLoadingEvents()
    let vp = viewport
    var stats = FrameStatistics()
    var canvas = DotCanvas(columns: vp.columns, rows: vp.rows)
    var complete = true

    // Gather this frame's tiles: cached, waiting, or to draw.
    struct Placement {
      let key: TileKey
      let x: Int
      let y: Int
      let layerBase: UInt32
    }
    var placements: [Placement] = []
    var jobs: [TileJob] = []
    var jobKeys = Set<TileKey>()
    let scaleBits = vp.zoomScale.bitPattern
    let tilesAcross = Int((vp.worldWidthInDots / Double(TileGrid.size)).rounded(.up))
    let jMin = max(0, Int((Double(vp.originY) / Double(TileGrid.size)).rounded(.down)))
    let jMax = min(tilesAcross - 1, (vp.originY + vp.heightInDots - 1) / TileGrid.size)
    // The basemap draws first, on the layers below every overlay, unless an opaque overlay
    // replaces the map's content.
    var layered: [(overlay: any Overlay, renderer: OverlayRenderer, layerBase: UInt32)] = []
    let replaced = overlayStore.all.contains {
      $0.canReplaceMapContent && (overlayStore.renderers[ObjectIdentifier($0)]?.alpha ?? 0) > 0
    }
    if let basemap, !replaced {
      layered.append((basemap.overlay, basemap.renderer, 1))
    }
    var order: UInt32 = 0
    for overlay in overlayStore.all {
      order += 1
      guard let r = overlayStore.renderers[ObjectIdentifier(overlay)] else { continue }
      layered.append((overlay, r, Self.basemapLayers + order * Self.layersPerOverlay))
    }
    for (overlay, r, layerBase) in layered {
      let id = ObjectIdentifier(overlay)
      for inv in r.takeInvalidations() {
        switch inv {
        case .all: tileCache.invalidate(id, rect: nil, zoomScale: nil)
        case .rect(let rect): tileCache.invalidate(id, rect: rect, zoomScale: nil)
        case .rectAtScale(let rect, let s): tileCache.invalidate(id, rect: rect, zoomScale: s)
        }
      }
      guard r.alpha > 0 else { continue }
      // Tiles within a stroke's reach of the overlay are drawn too (a stroke along the edge
      // of a tile spills into the next one).
      let margin = r.tileMargin(zoomScale: vp.zoomScale)
      guard jMin <= jMax else { continue }
      for shift in vp.worldCopies {
        // This copy of the world starts at dot `copyX` on the screen.
        let copyX = Int((shift * vp.zoomScale).rounded()) - vp.originX
        let iMin = max(0, (-copyX) / TileGrid.size - 1)
        let iMax = min(tilesAcross - 1, (vp.widthInDots - copyX) / TileGrid.size)
        guard iMin <= iMax else { continue }
        for j in jMin...jMax {
          for i in iMin...iMax {
            let x = copyX + i * TileGrid.size
            let y = j * TileGrid.size - vp.originY
            if x >= vp.widthInDots || x + TileGrid.size <= 0 { continue }
            let rect = TileGrid.mapRect(i: i, j: j, zoomScale: vp.zoomScale)
            guard !rect.isNull, meets(overlay, rect.insetBy(dx: -margin, dy: -margin)) else {
              continue
            }
            let key = TileKey(overlay: id, scaleBits: scaleBits, i: Int32(i), j: Int32(j))
            switch tileCache.lookup(key) {
            case .drawn?:
              stats.tilesReused += 1
            case .waiting?:
              stats.tilesWaiting += 1
              complete = false
              continue
            case nil:
              if !jobKeys.contains(key) {
                guard r.canDraw(rect, zoomScale: vp.zoomScale) else {
                  tileCache.store(.waiting, for: key)
                  stats.tilesWaiting += 1
                  complete = false
                  continue
                }
                jobKeys.insert(key)
                jobs.append(
                  TileJob(key: key, renderer: r, rect: rect, zoomScale: vp.zoomScale, i: i, j: j))
              }
            }
            placements.append(Placement(key: key, x: x, y: y, layerBase: layerBase))
          }
        }
      }
    }

    // Loads that canDraw started are announced before the frame's rendering.
    processLoadingEvents()
    if !jobs.isEmpty || stats.tilesWaiting > 0 { delegate?.mapViewWillStartRenderingMap(self) }
    if !jobs.isEmpty {
      let drawn = TileJob.runConcurrently(jobs)
      for (job, canvas) in zip(jobs, drawn) {
        tileCache.store(.drawn(canvas), for: job.key)
      }
      stats.tilesDrawn = jobs.count
    }
    for p in placements {
      if case .drawn(let tile?)? = tileCache.lookup(p.key) {
        canvas.composite(tile, atX: p.x, y: p.y, layerBase: p.layerBase)
      }
    }

    var cells = canvas.cells(charset: charset)
    let callout = calloutLayout(vp)
    var reserved = Set<Int>()
    if let c = callout { reserved.formUnion(c.cellIndices(columns: vp.columns)) }
    let markers = markerPlacements(vp)
    for m in markers { reserved.insert(m.row * vp.columns + m.column) }
    basemap?.drawLabels(vp, into: &cells, reserved: reserved)
    stats.markersShown = drawMarkers(markers, into: &cells)
    if let c = callout { c.draw(into: &cells, charset: charset) }
    cells.repairWideGlyphs()
    if !jobs.isEmpty || stats.tilesWaiting > 0 {
      delegate?.mapViewDidFinishRenderingMap(self, fullyRendered: complete)
    }
    return (cells, stats)
  }

  /// Drops every drawn tile (the next frame draws all tiles afresh).
  public func discardTileCache() { tileCache.removeAll() }

  /// Drawn tiles held in the cache.
  public var cachedTileCount: Int { tileCache.count }
}

/// One overlay tile to draw off the main thread.
struct TileJob: Sendable {
  let key: TileKey
  let renderer: OverlayRenderer
  let rect: MapRect
  let zoomScale: Double
  let i: Int
  let j: Int

  /// Draws the tile: a canvas of `TileGrid.size` dots whose context maps the renderer's user
  /// space (map points less the overlay's origin) to the tile's dots, clipped to the tile.
  func draw() -> DotCanvas? {
    let size = TileGrid.size
    let context = DrawingContext(
      canvas: DotCanvas(width: size, height: size), patternOrigin: (i * size, j * size))
    let origin = renderer.overlay.boundingMapRect.origin
    let tileOrigin = MapPoint(x: Double(i * size) / zoomScale, y: Double(j * size) / zoomScale)
    let base = Transform2D(
      scaleX: zoomScale, scaleY: zoomScale, translateX: (origin.x - tileOrigin.x) * zoomScale,
      translateY: (origin.y - tileOrigin.y) * zoomScale)
    context.transform = base
    context.clip(to: renderer.rect(for: rect))
    renderer.draw(rect, zoomScale: zoomScale, in: context)
    // An overlay across the antimeridian also shows its parts beyond the world's edges.
    let bounds = renderer.overlay.boundingMapRect
    if bounds.spans180thMeridian {
      let w = MapSize.world.width
      for shift in [-w, w] {
        let shifted = rect.offsetBy(dx: shift, dy: 0)
        guard renderer.overlay.intersects(shifted) else { continue }
        context.saveGState()
        context.transform = base.translatedBy(x: -shift, y: 0)
        context.clip(to: renderer.rect(for: shifted))
        renderer.draw(shifted, zoomScale: zoomScale, in: context)
        context.restoreGState()
      }
    }
    let canvas = context.takeCanvas()
    return canvas.isBlank ? nil : canvas
  }

  /// Draws jobs on all cores; results come back in the jobs' order.
  static func runConcurrently(_ jobs: [TileJob]) -> [DotCanvas?] {
    let results = TileResults(count: jobs.count)
    DispatchQueue.concurrentPerform(iterations: jobs.count) { n in
      results.set(n, jobs[n].draw())
    }
    return results.values
  }
}

/// Slots for concurrently drawn tiles: each job writes only its own slot, under a mutex.
final class TileResults: Sendable {
  private let slots: Mutex<[DotCanvas?]>
  init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }
  func set(_ n: Int, _ c: DotCanvas?) { slots.withLock { $0[n] = c } }
  var values: [DotCanvas?] { slots.withLock { $0 } }
}
