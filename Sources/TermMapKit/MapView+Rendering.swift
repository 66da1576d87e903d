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
  /// Tiles whose data failed (a load or decoding error; see
  /// `OverlayRenderer.failedTileCount(in:zoomScale:)`): the frame is not fully rendered.
  public var tilesFailed = 0
  /// Annotation markers shown.
  public var markersShown = 0
}

/// One overlay of this frame's stack, bottom first.
struct FrameLayer {
  let overlay: any Overlay
  let renderer: OverlayRenderer
  let level: OverlayLevel
  /// The overlay's ink goes on layers `layerBase + 1 ...`.
  let layerBase: UInt32
  /// Per map tile: bounds of map content higher in the stack that has content there and so
  /// hides this layer (when it is map content itself). Filled by `planFrame`.
  var hidden: [TilePosition: [MapRect]] = [:]
}

/// A map tile's column and row on the dot grid of the frame's zoom scale (the same in every
/// copy of the world).
struct TilePosition: Hashable {
  let i: Int32
  let j: Int32
}

/// A frame's work: the layer stack, where each of its tiles goes, and the tiles to draw.
struct FramePlan {
  struct Placement {
    let key: TileKey
    let x: Int
    let y: Int
    let layer: Int
    let position: TilePosition
    /// The world copy's shift in map points.
    let shift: Double
  }
  var layers: [FrameLayer] = []
  var placements: [Placement] = []
  var jobs: [TileJob] = []
  /// The first ink layer above the labels (overlays at `.aboveLabels` start here).
  var labelsBelowLayer = UInt32.max
  var statistics = FrameStatistics()
  var complete = true
}

extension MapView {
  /// Ink layers between two overlays' bands, so an overlay may draw a little past its count.
  nonisolated static let bandGap: UInt32 = 1

  /// Draws the current frame: overlays by level, labels, markers, the callout.
  public func renderFrame() -> CellBuffer {
    renderFrameWithStatistics().frame
  }

  /// Draws the current frame and says what it cost: the annotation views laid out, then
  /// the frame composed (`FrameComposer.compose`, the stages in MapView+Rendering.swift) with
  /// this map view's markers and callout, placed while the tiles draw.
  public func renderFrameWithStatistics() -> (frame: CellBuffer, statistics: FrameStatistics) {
    // Views are made (the delegate hears of them) before the tiles; their collisions are
    // resolved while the tiles draw.
    layoutIfNeeded(deferringCollisions: true)
    needsDisplay = false
    processLoadingEvents()
    let vp = viewport
    // While other cores draw, this thread places the markers (collisions, places) and the
    // callout, when there are enough markers for that to outlast waking a helper thread.
    let frame = composer.compose(
      vp, overlappingContent: annotationViews.shown.count >= markersWorthOverlapping,
      planned: { rendering in
        // Loads that canDraw started are announced before the frame's rendering.
        processLoadingEvents()
        if rendering { delegate?.mapViewWillStartRenderingMap(self) }
      },
      content: frameContent(vp))
    frameAttribution = frame.attribution
    framePlacements = frame.placements
    frameLayers = frame.layers
    if frame.rendered {
      delegate?.mapViewDidFinishRenderingMap(self, fullyRendered: frame.complete)
    }
    return (frame.cells, frame.statistics)
  }

  /// This frame's markers and callout, taken from the annotation views (their collisions
  /// resolved first, when the layout left them for the frame).
  func frameContent(_ vp: Viewport) -> FrameContent {
    resolveCollisionsIfNeeded()
    return FrameContent(markers: markerPlacements(vp), callout: calloutLayout(vp))
  }
}

// The one frame function, and its stages, private to it: a `MapView` and a `MapSnapshotter`
// both draw through `compose`, on a `FrameComposer` (the layer stack and the tile cache, no
// actor), so a snapshot runs the same pipeline off the main actor.
extension FrameComposer {
  /// Makes a frame. The stages, in order:
  ///
  /// 1. `planFrame`: the layer stack (overlays bottom to top, each on its own band of ink
  ///    layers; map content hidden under opaque map content above it) and its visible tiles:
  ///    cached, waiting for data, or to draw. `planned` hears whether the frame renders
  ///    (draws tiles or waits for some) before any tile draws.
  /// 2. `startDrawingTiles`, `finishDrawingTiles`: the missing tiles, drawn on all cores and
  ///    cached. `content` is evaluated once, in between: with `overlappingContent`, helper
  ///    threads start on the tiles first and this thread joins them after it; otherwise it is
  ///    evaluated before the tiles draw.
  /// 3. `compositeDots`: every tile copied onto one screen canvas on its layer's band.
  /// 4. `placeCellContent`: the canvas turned into glyphs, then what lives in cells — labels
  ///    (under `.aboveLabels` ink, over `.aboveRoads` ink), the content's markers, and its
  ///    callout.
  func compose(
    _ vp: Viewport, overlappingContent: Bool = false,
    planned: (_ rendering: Bool) -> Void = { _ in },
    content: @autoclosure () -> FrameContent
  ) -> Frame {
    var plan = planFrame(vp)
    let rendering = !plan.jobs.isEmpty || plan.statistics.tilesWaiting > 0
    planned(rendering)
    let drawing = startDrawingTiles(plan, overlapped: overlappingContent)
    let cellContent = content()
    finishDrawingTiles(drawing, &plan)
    let credits = attribution(of: plan)
    let canvas = compositeDots(plan, vp)
    var cells = placeCellContent(canvas, &plan, vp, cellContent)
    cells.repairWideGlyphs()
    return Frame(
      cells: cells, statistics: plan.statistics, attribution: credits,
      placements: plan.placements, layers: plan.layers, rendered: rendering,
      complete: plan.complete)
  }
}

// The stages, run by `compose` only.
extension FrameComposer {
  // MARK: Stage 1: the layer stack and its tiles

  /// The overlays drawn this frame, bottom first, with their ink bands (overlays with alpha 0
  /// are left out).
  private func layerStack() -> [FrameLayer] {
    var layers: [FrameLayer] = []
    var base: UInt32 = 0
    for level in OverlayLevel.allCases {
      for overlay in overlayStore.levels[level.rawValue] {
        guard let r = overlayStore.renderers[ObjectIdentifier(overlay)], r.alpha > 0 else {
          continue
        }
        layers.append(FrameLayer(overlay: overlay, renderer: r, level: level, layerBase: base))
        base += r.inkLayerCount + Self.bandGap
      }
    }
    return layers
  }

  /// Stage 1: the layer stack, and for each layer the tiles that meet the screen: reused from
  /// the cache, waiting for their renderer (`canDraw` false), or to be drawn.
  ///
  /// Map content hides map content: an overlay that can replace map content, whose renderer
  /// `replacesMapContent` at this zoom and `coversMapContent` for a map tile, hides the parts
  /// of lower overlays that can replace map content inside its bounding rect, tile by tile.
  /// (Where its tiles failed or are missing, what is beneath shows.) A tile wholly hidden is
  /// neither drawn nor loaded.
  private func planFrame(_ vp: Viewport) -> FramePlan {
    var plan = FramePlan()
    plan.layers = layerStack()
    var jobIndex: [TileKey: Int] = [:]
    // Whether a tile of this view was drawn before (reused, or drawn in a part too small now).
    var drawnBefore = false
    let scaleBits = vp.zoomScale.bitPattern
    let tilesAcross = Int((vp.worldWidthInDots / Double(TileGrid.size)).rounded(.up))
    let jMin = max(0, Int((Double(vp.originY) / Double(TileGrid.size)).rounded(.down)))
    let jMax = min(tilesAcross - 1, (vp.originY + vp.heightInDots - 1) / TileGrid.size)
    let visible = vp.worldCopies.map { vp.mapRect.offsetBy(dx: -$0, dy: 0) }
    if jMin <= jMax { hideMapContent(&plan.layers, vp, rows: jMin...jMax, across: tilesAcross) }
    for (index, layer) in plan.layers.enumerated() {
      let (overlay, r) = (layer.overlay, layer.renderer)
      if layer.level == .aboveLabels && plan.labelsBelowLayer == .max {
        plan.labelsBelowLayer = layer.layerBase + 1
      }
      let id = ObjectIdentifier(overlay)
      for inv in r.takeInvalidations() {
        switch inv {
        case .all: tileCache.invalidate(id, rect: nil, zoomScale: nil)
        case .rect(let rect): tileCache.invalidate(id, rect: rect, zoomScale: nil)
        case .rectAtScale(let rect, let s): tileCache.invalidate(id, rect: rect, zoomScale: s)
        }
      }
      if reportsVisibleArea {
        r.visibleAreaDidChange(visible, zoomScale: vp.zoomScale, focus: vp.mapRect.mid)
      }
      let failed = r.failedTileCount(in: visible, zoomScale: vp.zoomScale)
      if failed > 0 {
        plan.statistics.tilesFailed += failed
        plan.complete = false
      }
      // Tiles within a stroke's reach of the overlay are drawn too (a stroke along the edge
      // of a tile spills into the next one).
      let margin = r.tileMargin(zoomScale: vp.zoomScale)
      guard jMin <= jMax else { continue }
      for shift in vp.worldCopies {
        let copyX = Self.copyX(shift, vp)
        guard let columns = Self.tileColumns(copyX: copyX, vp, across: tilesAcross) else {
          continue
        }
        for j in jMin...jMax {
          for i in columns {
            let x = copyX + i * TileGrid.size
            let y = j * TileGrid.size - vp.originY
            if x >= vp.widthInDots || x + TileGrid.size <= 0 { continue }
            let rect = TileGrid.mapRect(i: i, j: j, zoomScale: vp.zoomScale)
            guard !rect.isNull, meets(overlay, rect.insetBy(dx: -margin, dy: -margin)) else {
              continue
            }
            // A tile wholly under map content above is neither drawn nor loaded.
            let position = TilePosition(i: Int32(i), j: Int32(j))
            if let h = layer.hidden[position], h.contains(where: { $0.contains(rect) }) {
              continue
            }
            let key = TileKey(overlay: id, scaleBits: scaleBits, i: Int32(i), j: Int32(j))
            // The tile's dots that show, in its own dots.
            let shows = DotRect(
              minX: max(0, -x), minY: max(0, -y), maxX: min(TileGrid.size, vp.widthInDots - x),
              maxY: min(TileGrid.size, vp.heightInDots - y))
            var entry = tileCache.lookup(key)
            if case .drawn(_, let area)? = entry {
              drawnBefore = true
              if !area.contains(shows) { entry = nil }
            }
            switch entry {
            case .drawn?:
              plan.statistics.tilesReused += 1
            case .waiting?:
              plan.statistics.tilesWaiting += 1
              plan.complete = false
              continue
            case nil:
              if let n = jobIndex[key] {
                plan.jobs[n].area = plan.jobs[n].area?.union(shows)
              } else {
                guard r.canDraw(rect, zoomScale: vp.zoomScale) else {
                  tileCache.store(.waiting, for: key)
                  plan.statistics.tilesWaiting += 1
                  plan.complete = false
                  continue
                }
                jobIndex[key] = plan.jobs.count
                plan.jobs.append(
                  TileJob(
                    key: key, renderer: r, rect: rect, zoomScale: vp.zoomScale, i: i, j: j,
                    area: shows))
              }
            }
            plan.placements.append(
              .init(key: key, x: x, y: y, layer: index, position: position, shift: shift))
          }
        }
      }
    }
    // A frame that finds none of its tiles drawn shows a new view (a zoom step, a jump, the
    // first frame): its tiles are drawn only where they show, about half the dots of whole
    // tiles at 160 × 48. Once tiles are found drawn (whole or in part) the view is panning,
    // and tiles are drawn whole and kept for the pans that follow. (A tile drawn in part is
    // drawn again, whole, when more of it comes into view; on a small screen every 128-dot
    // tile may be cut by its edges, so a pan may reuse none and still be a pan.)
    if plan.statistics.tilesReused > 0 || drawnBefore {
      for n in plan.jobs.indices { plan.jobs[n].area = nil }
    }
    return plan
  }

  /// The visible map tiles, top layer down: records in each map-content layer which tiles of
  /// map content above it hide it, and where.
  private func hideMapContent(
    _ layers: inout [FrameLayer], _ vp: Viewport, rows: ClosedRange<Int>, across: Int
  ) {
    // Only map content with more map content beneath it needs to know what it covers.
    guard let lowest = layers.firstIndex(where: { $0.overlay.canReplaceMapContent }) else {
      return
    }
    var columns = Set<Int>()
    for shift in vp.worldCopies {
      if let c = Self.tileColumns(copyX: Self.copyX(shift, vp), vp, across: across) {
        columns.formUnion(c)
      }
    }
    var covers: [TilePosition: [MapRect]] = [:]
    for n in layers.indices.reversed() where layers[n].overlay.canReplaceMapContent {
      let (overlay, r) = (layers[n].overlay, layers[n].renderer)
      layers[n].hidden = covers
      guard n > lowest, r.replacesMapContent(zoomScale: vp.zoomScale) else { continue }
      let bounds = overlay.boundingMapRect
      for j in rows {
        for i in columns {
          let rect = TileGrid.mapRect(i: i, j: j, zoomScale: vp.zoomScale)
          let position = TilePosition(i: Int32(i), j: Int32(j))
          guard !rect.isNull, meets(overlay, rect) else { continue }
          if let h = covers[position], h.contains(where: { $0.contains(rect) }) { continue }
          guard r.coversMapContent(rect, zoomScale: vp.zoomScale) else { continue }
          covers[position, default: []].append(bounds)
        }
      }
    }
  }

  /// The screen dot where a copy of the world (shifted by `shift` map points) starts.
  static func copyX(_ shift: Double, _ vp: Viewport) -> Int {
    Int((shift * vp.zoomScale).rounded()) - vp.originX
  }

  /// The map tile columns of a copy of the world starting at screen dot `copyX` that may
  /// show (one spare on the left, for strokes reaching in), or nil.
  static func tileColumns(copyX: Int, _ vp: Viewport, across: Int) -> ClosedRange<Int>? {
    let iMin = max(0, (-copyX) / TileGrid.size - 1)
    let iMax = min(across - 1, (vp.widthInDots - copyX) / TileGrid.size)
    return iMin <= iMax ? iMin...iMax : nil
  }

  // MARK: Stage 2: drawing tiles

  /// Stage 2 begun (nil: no tile to draw). `overlapped`: the plan's missing tiles start
  /// drawing on other cores now, while this thread does other work before
  /// `finishDrawingTiles`; otherwise they all draw there, on every core.
  private func startDrawingTiles(_ plan: FramePlan, overlapped: Bool) -> TileDrawBatch? {
    guard !plan.jobs.isEmpty else { return nil }
    return TileDrawBatch(plan.jobs, overlapped: overlapped)
  }

  /// Stage 2 ended: this thread draws what is left, and the tiles are cached.
  private func finishDrawingTiles(_ batch: TileDrawBatch?, _ plan: inout FramePlan) {
    guard let batch else { return }
    for (job, tile) in zip(batch.jobs, batch.finish()) {
      tileCache.store(.drawn(tile, area: job.area ?? TileGrid.whole), for: job.key)
    }
    plan.statistics.tilesDrawn = batch.jobs.count
  }

  // MARK: Stage 3: compositing dots

  /// Stage 3: stacks every placed tile onto the screen's cells, on its layer's band of ink
  /// layers, leaving out the parts of map content that opaque map content above it hides.
  /// Tiles sit on whole cells (the viewport snaps to cells, tiles are whole cells wide), so
  /// a tile is stacked cell by cell from its summary; only tiles cut by map content above, or
  /// off the cell grid (a copy of the world at a fractional zoom), go dot by dot.
  ///
  /// The tiles before the first that goes dot by dot are stacked at once on the blank canvas
  /// (`CellCanvas(columns:rows:stacking:)`): the bottom layer's tiles, which meet no other,
  /// are copied in bulk, and the canvas is not cleared first where they cover it.
  private func compositeDots(_ plan: FramePlan, _ vp: Viewport) -> CellCanvas {
    // Made when the first tile that goes dot by dot comes (until then, the tiles are gathered
    // in `stacked`).
    var canvas = CellCanvas(columns: 0, rows: 0)
    var gathering = true
    var stacked: [CellCanvas.Placed] = []
    stacked.reserveCapacity(plan.placements.count)
    let screen = DotRect(minX: 0, minY: 0, maxX: vp.widthInDots, maxY: vp.heightInDots)
    for p in plan.placements {
      guard case .drawn(let tile?, _)? = tileCache.lookup(p.key) else { continue }
      let layer = plan.layers[p.layer]
      let cut = layer.hidden[p.position].map { !$0.isEmpty } ?? false
      let onCells = p.x % CellGeometry.dotsWide == 0 && p.y % CellGeometry.dotsHigh == 0
      // The tile's first cell on the screen (when it lies on the cell grid).
      let (column, row) = (
        p.x / CellGeometry.dotsWide + tile.cellColumn, p.y / CellGeometry.dotsHigh + tile.cellRow
      )
      if gathering {
        if !cut && onCells {
          stacked.append(
            CellCanvas.Placed(tile.cells, column: column, row: row, layerBase: layer.layerBase))
          continue
        }
        canvas = CellCanvas(columns: vp.columns, rows: vp.rows, stacking: stacked)
        gathering = false
      }
      if cut, let hs = layer.hidden[p.position] {
        // The parts of the tile outside the map content above it, in screen dots.
        let holes = hs.map { r in
          DotRect(
            minX: Int(((r.minX + p.shift) * vp.zoomScale).rounded()) - vp.originX,
            minY: Int((r.minY * vp.zoomScale).rounded()) - vp.originY,
            maxX: Int(((r.maxX + p.shift) * vp.zoomScale).rounded()) - vp.originX,
            maxY: Int((r.maxY * vp.zoomScale).rounded()) - vp.originY)
        }
        let area = DotRect(
          minX: p.x, minY: p.y, maxX: p.x + tile.dots.width, maxY: p.y + tile.dots.height)
        let (tx, ty) = (p.x + tile.cellOrigin.x, p.y + tile.cellOrigin.y)
        for part in area.intersection(screen).subtracting(holes) {
          canvas.add(tile.dots, atX: p.x, y: p.y, layerBase: layer.layerBase, within: part)
          canvas.addText(
            tile.cells.textRuns, atX: tx, y: ty, layerBase: layer.layerBase, within: part)
        }
      } else if onCells {
        canvas.composite(tile.cells, column: column, row: row, layerBase: layer.layerBase)
      } else {
        canvas.add(tile.dots, atX: p.x, y: p.y, layerBase: layer.layerBase)
        canvas.addText(
          tile.cells.textRuns, atX: p.x + tile.cellOrigin.x, y: p.y + tile.cellOrigin.y,
          layerBase: layer.layerBase)
      }
    }
    return gathering
      ? CellCanvas(columns: vp.columns, rows: vp.rows, stacking: stacked) : canvas
  }

  // MARK: Stage 4: cell content

  /// Stage 4: cell layers (`CellLayerRendering`, e.g. half-block pictures), the canvas as
  /// glyphs (and the overlays' text) over them, then labels from the renderers that have them
  /// (never over a marker, the callout, overlay text, or ink of an `.aboveLabels` overlay),
  /// markers, and the callout.
  private func placeCellContent(
    _ canvas: CellCanvas, _ plan: inout FramePlan, _ vp: Viewport, _ content: FrameContent
  ) -> CellBuffer {
    var cells = CellBuffer(columns: vp.columns, rows: vp.rows)
    for layer in plan.layers {
      (layer.renderer as? CellLayerRendering)?.drawCells(into: &cells, viewport: vp)
    }
    canvas.paint(into: &cells, charset: charset)
    let callout = content.callout
    let markers = content.markers
    let markerText = markerLabels(markers, columns: vp.columns)
    let providers = plan.layers.compactMap { layer -> (LabelProviding, FrameLayer)? in
      guard let p = layer.renderer as? LabelProviding else { return nil }
      return (p, layer)
    }
    if !providers.isEmpty {
      var taken =
        plan.labelsBelowLayer == .max
        ? [Bool](repeating: false, count: vp.columns * vp.rows)
        : canvas.cellsInked(atOrAbove: plan.labelsBelowLayer)
      if let c = callout {
        for i in c.cellIndices(columns: vp.columns) where i >= 0 && i < taken.count {
          taken[i] = true
        }
      }
      // Names keep off text that overlays drew, and markers and their labels.
      for i in canvas.textCellIndices() { taken[i] = true }
      for m in markers { taken[m.row * vp.columns + m.column] = true }
      for l in markerText {
        let first = l.row * vp.columns + l.column - 1
        for k in first..<(first + 1 + l.width) where k < taken.count {
          taken[k] = true
        }
      }
      var labels: [MapLabel] = []
      let w = MapSize.world.width
      let tile = Double(TileGrid.size) / vp.zoomScale
      for (provider, layer) in providers {
        let all = provider.labels(for: vp)
        if layer.hidden.isEmpty {
          // Nothing above hides this layer: its names as they are (the first provider's list
          // itself, not copied label by label).
          if labels.isEmpty { labels = all } else { labels.append(contentsOf: all) }
          continue
        }
        labels.reserveCapacity(labels.count + all.count)
        for label in all {
          // A name under map content above its layer is that content's to show.
          let x = label.point.x - (label.point.x / w).rounded(.down) * w
          let p = MapPoint(x: x, y: label.point.y)
          let position = TilePosition(
            i: Int32((x / tile).rounded(.down)), j: Int32((p.y / tile).rounded(.down)))
          if let h = layer.hidden[position], h.contains(where: { $0.contains(p) }) { continue }
          labels.append(label)
        }
      }
      if let filter = pointOfInterestFilter { labels.removeAll { !filter.includes($0) } }
      // (The flags handed over: the placer writes them in place, not in a copy.)
      var placer = LabelPlacer(viewport: vp, taken: consume taken)
      placer.place(labels, into: &cells)
    }
    plan.statistics.markersShown = drawMarkers(markers, labels: markerText, into: &cells)
    if let c = callout { c.draw(into: &cells, charset: charset) }
    return cells
  }

}

extension MapView {
  /// Credit lines of the tile overlays drawn in the last frame (each once, in stack order).
  public var visibleAttribution: [String] { frameAttribution }
}

extension FrameComposer {

  /// The credit lines of the tile overlays that drew something in a plan.
  private func attribution(of plan: FramePlan) -> [String] {
    var lines: [String] = []
    var seen = Set<Int>()
    for p in plan.placements where !seen.contains(p.layer) {
      // Only what shows: a tile that drew dots (or a layer drawn in cells).
      let layer = plan.layers[p.layer]
      if layer.renderer as? CellLayerRendering == nil {
        guard case .drawn(_?, _)? = tileCache.lookup(p.key) else { continue }
      }
      seen.insert(p.layer)
      for part in layer.overlay.attribution.split(separator: ";") {
        let line = part.trimmingCharacters(in: .whitespaces)
        if !line.isEmpty && !lines.contains(line) { lines.append(line) }
      }
    }
    return lines
  }

}

extension MapView {
  /// Drops every drawn tile (the next frame draws all tiles afresh).
  public func discardTileCache() { tileCache.removeAll() }

  /// Drawn tiles held in the cache.
  public var cachedTileCount: Int { tileCache.count }
}

extension DotRect {
  /// The parts of this rect outside every rect of `holes` (at most a few rects).
  func subtracting(_ holes: [DotRect]) -> [DotRect] {
    var parts = isEmpty ? [] : [self]
    for h in holes {
      parts = parts.flatMap { r -> [DotRect] in
        let i = r.intersection(h)
        guard !i.isEmpty else { return [r] }
        var out: [DotRect] = []
        if r.minY < i.minY {
          out.append(DotRect(minX: r.minX, minY: r.minY, maxX: r.maxX, maxY: i.minY))
        }
        if i.maxY < r.maxY {
          out.append(DotRect(minX: r.minX, minY: i.maxY, maxX: r.maxX, maxY: r.maxY))
        }
        if r.minX < i.minX {
          out.append(DotRect(minX: r.minX, minY: i.minY, maxX: i.minX, maxY: i.maxY))
        }
        if i.maxX < r.maxX {
          out.append(DotRect(minX: i.maxX, minY: i.minY, maxX: r.maxX, maxY: i.maxY))
        }
        return out
      }
    }
    return parts
  }
}

/// One overlay tile to draw off the main thread.
struct TileJob: Sendable {
  let key: TileKey
  let renderer: OverlayRenderer
  let rect: MapRect
  let zoomScale: Double
  let i: Int
  let j: Int
  /// The tile's dots to draw (nil: all of them).
  var area: DotRect?

  /// Draws the tile: a canvas of `TileGrid.size` dots whose context maps the renderer's user
  /// space (map points less the overlay's origin) to the tile's dots, clipped to the tile (or
  /// to `area` of it, and the renderer asked for that part of the map).
  func draw() -> DrawnTile? {
    let size = TileGrid.size
    let context = DrawingContext(
      canvas: TileCanvasPool.shared.take(), patternOrigin: (i * size, j * size))
    context.holdsNoInk()
    let origin = renderer.overlay.boundingMapRect.origin
    let tileOrigin = MapPoint(x: Double(i * size) / zoomScale, y: Double(j * size) / zoomScale)
    let base = Transform2D(
      scaleX: zoomScale, scaleY: zoomScale, translateX: (origin.x - tileOrigin.x) * zoomScale,
      translateY: (origin.y - tileOrigin.y) * zoomScale)
    context.transform = base
    var rect = self.rect
    if let a = area, a != TileGrid.whole {
      rect = MapRect(
        x: tileOrigin.x + Double(a.minX) / zoomScale, y: tileOrigin.y + Double(a.minY) / zoomScale,
        width: Double(a.maxX - a.minX) / zoomScale, height: Double(a.maxY - a.minY) / zoomScale
      ).intersection(self.rect)
      guard !rect.isNull else { return nil }
    }
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
    let (dots, pending) = context.takeCanvasUnsettled()
    return DrawnTile(dots, pending: pending, text: context.textRuns, drawnIn: area)
  }

  /// `TERMMAP_SERIAL_DRAW=1` draws a frame's tiles one after another on the calling thread,
  /// so that callgrind, which counts only the thread in the function it toggles on, counts
  /// all of a frame's instructions (docs/benchmarks.md).
  static let serial = ProcessInfo.processInfo.environment["TERMMAP_SERIAL_DRAW"] == "1"
}

/// A frame's tiles to draw. Started `overlapped`, helper threads begin drawing at once, while
/// the calling thread does other work of the frame, and the calling thread joins them in
/// `finish()`: jobs are taken one at a time from a shared counter, so no core idles while one
/// is left. Otherwise `finish()` draws them all on every core (`concurrentPerform`, whose
/// workers wake sooner than helpers started there would).
///
/// With `TERMMAP_SERIAL_DRAW=1` the caller draws every job in `finish()` (so callgrind, which
/// counts only the thread it toggles on, counts whole frames).
final class TileDrawBatch: Sendable {
  let jobs: [TileJob]
  private let next = Atomic<Int>(0)
  private let results: TileResults
  private let helpers = DispatchGroup()
  private let overlapped: Bool

  init(_ jobs: [TileJob], overlapped: Bool) {
    self.jobs = jobs
    results = TileResults(count: jobs.count)
    self.overlapped = overlapped && !TileJob.serial && !jobs.isEmpty
    guard self.overlapped else { return }
    // One helper fewer than the cores (the caller's thread is the last), no more than jobs.
    let cores = ProcessInfo.processInfo.activeProcessorCount
    for _ in 0..<min(jobs.count, max(1, cores - 1)) {
      helpers.enter()
      DispatchQueue.global().async {
        self.drain()
        self.helpers.leave()
      }
    }
  }

  /// Draws jobs until none is left to take.
  private func drain() {
    while true {
      let n = next.wrappingAdd(1, ordering: .relaxed).oldValue
      guard n < jobs.count else { return }
      results.set(n, jobs[n].draw())
    }
  }

  /// Draws what is left, waits for the helpers' last tiles, and returns every tile in the
  /// jobs' order.
  func finish() -> [DrawnTile?] {
    if TileJob.serial { return jobs.map { $0.draw() } }
    if overlapped {
      drain()
      helpers.wait()
    } else {
      DispatchQueue.concurrentPerform(iterations: jobs.count) { n in
        results.set(n, jobs[n].draw())
      }
    }
    return results.values
  }
}

/// Slots for concurrently drawn tiles: each job writes only its own slot, under a mutex.
final class TileResults: Sendable {
  private let slots: Mutex<[DrawnTile?]>
  init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }
  func set(_ n: Int, _ c: DrawnTile?) { slots.withLock { $0[n] = c } }
  var values: [DrawnTile?] { slots.withLock { $0 } }
}
