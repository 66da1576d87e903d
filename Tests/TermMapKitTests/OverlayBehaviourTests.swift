import DotRaster
import Foundation
import MapGeometry
import Synchronization
import Testing

@testable import TermMapKit

/// Behaviours 10–13 of docs/mapkit-model.md: lazy renderers, tiled concurrent drawing with
/// clipping, canDraw and invalidation, and path renderer stroke properties.
@MainActor
@Suite("MapKit behaviours 10–13: overlays and renderers")
struct OverlayBehaviourTests {
  /// A map at zoom 12 around Lisbon.
  func lisbonMap(columns: Int = 60, rows: Int = 20, delegate: RecordingDelegate? = nil) -> MapView {
    let map = makeMap(columns: columns, rows: rows, delegate: delegate)
    map.setCenter(Coordinate(latitude: 38.7223, longitude: -9.1393), animated: false)
    map.setZoomLevel(12, animated: false)
    return map
  }

  // MARK: 10

  @Test("10. rendererFor is asked only once the overlay meets the visible rect; didAdd follows")
  func lazyRenderers() {
    let d = RecordingDelegate()
    let map = lisbonMap(delegate: d)
    let visible = map.visibleMapRect
    let cell = map.viewport.cellSizeInMapPoints.width
    // Just right of the screen, three cells away.
    let box = BoxOverlay(
      MapRect(x: visible.maxX + 3 * cell, y: visible.midY, width: 10 * cell, height: 10 * cell))
    map.addOverlay(box)
    _ = map.renderFrame()
    #expect(map.renderer(for: box) == nil)
    #expect(!d.events.contains(.rendererFor(ObjectIdentifier(box))))
    #expect(map.overlays.count == 1)

    // Pan until it comes on screen.
    d.clear()
    map.pan(byDotsX: 10 * Double(CellGeometry.dotsWide), y: 0)
    _ = map.renderFrame()
    let rendererEvents = d.events.filter {
      if case .rendererFor = $0 { return true }
      if case .addedRenderers = $0 { return true }
      return false
    }
    let renderer = map.renderer(for: box)
    #expect(renderer != nil)
    #expect(
      rendererEvents == [
        .rendererFor(ObjectIdentifier(box)), .addedRenderers([ObjectIdentifier(renderer!)]),
      ])

    // Moving away and back does not ask again; the renderer stays.
    d.clear()
    map.pan(byDotsX: -400, y: 0)
    _ = map.renderFrame()
    map.pan(byDotsX: 400, y: 0)
    _ = map.renderFrame()
    #expect(!d.events.contains { if case .rendererFor = $0 { true } else { false } })
    #expect(map.renderer(for: box) === renderer)

    // Removing the overlay drops its renderer.
    map.removeOverlay(box)
    #expect(map.renderer(for: box) == nil)
    #expect(map.overlays.isEmpty)
  }

  @Test("10. A renderer is made when intersects(_:) says the overlay meets the screen")
  func lazyRendererUsesIntersects() {
    let d = RecordingDelegate()
    let map = lisbonMap(delegate: d)
    let visible = map.visibleMapRect
    // The bounding rect covers the screen, but the shape itself is far to the east.
    let far = MapRect(x: visible.maxX + visible.width, y: visible.minY, width: 1000, height: 1000)
    let overlay = BoxOverlay(visible.union(far), hitRect: far)
    map.addOverlay(overlay)
    _ = map.renderFrame()
    #expect(map.renderer(for: overlay) == nil)
    map.setCenter(far.mid, animated: false)
    map.layoutIfNeeded()
    #expect(map.renderer(for: overlay) != nil)
    #expect(d.events.filter { $0 == .rendererFor(ObjectIdentifier(overlay)) }.count == 1)
  }

  @Test("10. The delegate's renderer is the one used to draw")
  func delegateRendererDraws() {
    let d = RecordingDelegate()
    let recorder = Mutex<RecordingRenderer?>(nil)
    d.makeRenderer = { o in
      let r = RecordingRenderer(overlay: o)
      recorder.withLock { $0 = r }
      return r
    }
    let map = lisbonMap(delegate: d)
    let overlay = BoxOverlay(map.visibleMapRect.insetBy(dx: 100, dy: 100))
    map.addOverlay(overlay)
    _ = map.renderFrame()
    let r = recorder.withLock { $0 }
    #expect(r != nil && map.renderer(for: overlay) === r)
    #expect(!(r?.calls.isEmpty ?? true))
  }

  // MARK: 11

  /// Draws a frame of `map` with a whole-world overlay drawn by a recording renderer.
  func recordTiles(
    _ map: MapView, sleep: Double = 0,
    paint: (@Sendable (OverlayRenderer, MapRect, Double, DrawingContext) -> Void)? = nil
  ) -> (RecordingRenderer, CellBuffer) {
    let d = RecordingDelegate()
    let holder = Mutex<RecordingRenderer?>(nil)
    d.makeRenderer = { o in
      let r = RecordingRenderer(
        overlay: o, sleep: sleep, paint: paint,
        awaitSecondThread: ProcessInfo.processInfo.activeProcessorCount > 1 && sleep > 0)
      holder.withLock { $0 = r }
      return r
    }
    map.delegate = d
    map.addOverlay(BoxOverlay(.world))
    let frame = map.renderFrame()
    map.delegate = nil
    return (holder.withLock { $0 }!, frame)
  }

  @Test("11. draw is called with tile rects that tile the visible area, on several threads")
  func tilesCoverScreenConcurrently() {
    let map = lisbonMap(columns: 200, rows: 60)
    let (r, _) = recordTiles(map, sleep: 0.002)
    let calls = r.calls
    let rects = calls.map(\.rect)
    #expect(rects.count >= 8)
    // No two tiles overlap.
    for i in rects.indices {
      for j in rects.indices where j > i {
        #expect(!rects[i].intersects(rects[j]), "\(rects[i]) overlaps \(rects[j])")
      }
    }
    // Together they cover the screen: every sample point lies in exactly one tile. (The screen
    // is the visible rect snapped to whole cells.)
    let cell = map.viewport.cellSizeInMapPoints
    #expect(abs(map.visibleMapRect.minX - map.viewport.mapRect.minX) <= cell.width)
    #expect(abs(map.visibleMapRect.minY - map.viewport.mapRect.minY) <= cell.height)
    #expect(map.visibleMapRect.size == map.viewport.mapRect.size)
    for visible in [map.viewport.mapRect] {
      let n = 40
      for a in 0...n {
        for b in 0...n {
          let p = MapPoint(
            x: visible.minX + visible.width * (Double(a) / Double(n)) * 0.999_999,
            y: visible.minY + visible.height * (Double(b) / Double(n)) * 0.999_999)
          let hits = rects.filter { $0.contains(p) }.count
          #expect(hits == 1, "\(p) lies in \(hits) tiles")
        }
      }
    }
    // Each tile meets the screen, at the map's zoom scale.
    #expect(rects.allSatisfy { $0.intersects(map.viewport.mapRect) })
    #expect(calls.allSatisfy { $0.zoomScale == map.zoomScale })
    // Tiles are rects of whole cells on the 128-dot tile grid: a new view asks only for what
    // shows of each tile, so the tiles inside the screen are whole squares, those on its
    // edges are cut to the screen.
    let side = 128.0
    for r in rects {
      let (x0, y0) = (r.minX * map.zoomScale, r.minY * map.zoomScale)
      let (x1, y1) = (r.maxX * map.zoomScale, r.maxY * map.zoomScale)
      for (v, cell) in [
        (x0, CellGeometry.dotsWide), (x1, CellGeometry.dotsWide), (y0, CellGeometry.dotsHigh),
        (y1, CellGeometry.dotsHigh),
      ] {
        #expect(abs(v - v.rounded()) < 1e-6 && Int(v.rounded()) % cell == 0, "\(r) is not on cells")
      }
      #expect((x0 / side).rounded(.down) == ((x1 - 1e-6) / side).rounded(.down), "\(r) spans tiles")
      #expect((y0 / side).rounded(.down) == ((y1 - 1e-6) / side).rounded(.down), "\(r) spans tiles")
      let inside =
        r.minX > map.viewport.mapRect.minX && r.maxX < map.viewport.mapRect.maxX
        && r.minY > map.viewport.mapRect.minY && r.maxY < map.viewport.mapRect.maxY
      if inside {
        #expect(abs(r.width * map.zoomScale - side) < 1e-6 && abs(r.height - r.width) < 1e-9)
      }
    }
    #expect(rects.contains { abs($0.width * map.zoomScale - side) < 1e-6 })
    // Drawn on more than one thread (where there is more than one processor to run them).
    let threads = Set(calls.map(\.thread))
    if ProcessInfo.processInfo.activeProcessorCount > 1 {
      #expect(threads.count > 1, "all \(calls.count) tiles drawn on one thread")
    }
  }

  @Test("11. A draw outside its tile has no effect: only the chosen tile's cells are inked")
  func drawIsClippedToTile() {
    let map = lisbonMap(columns: 120, rows: 40)
    let target = map.centerPoint
    let (r, frame) = recordTiles(map) { renderer, rect, zoomScale, context in
      guard rect.contains(target) else { return }
      context.fillColor = .green
      context.fillPattern = .solid
      context.addRect(renderer.rect(for: MapRect.world.insetBy(dx: -1e9, dy: -1e9)))
      context.fillPath()
      context.strokeColor = .red
      context.lineWidth = 20 / zoomScale
      context.strokeSegment(
        from: renderer.point(for: MapPoint(x: 0, y: 0)),
        to: renderer.point(for: MapPoint(x: 2e8, y: 2e8)))
    }
    let tile = r.calls.map(\.rect).first { $0.contains(target) }!
    let vp = map.viewport
    let x0 = Int((tile.minX * vp.zoomScale).rounded()) - vp.originX
    let x1 = Int((tile.maxX * vp.zoomScale).rounded()) - vp.originX
    let y0 = Int((tile.minY * vp.zoomScale).rounded()) - vp.originY
    let y1 = Int((tile.maxY * vp.zoomScale).rounded()) - vp.originY
    var inside = 0
    for row in 0..<frame.rows {
      for col in 0..<frame.columns {
        let dx = col * CellGeometry.dotsWide
        let dy = row * CellGeometry.dotsHigh
        let inTile = dx >= x0 && dx < x1 && dy >= y0 && dy < y1
        if inTile {
          inside += 1
          #expect(frame[col, row].glyph == "\u{28FF}", "cell \(col),\(row) of the tile")
        } else {
          #expect(frame[col, row].glyph == " ", "cell \(col),\(row) outside the tile")
        }
      }
    }
    #expect(inside > 0 && inside < frame.columns * frame.rows / 2)
  }

  @Test("11. point(for:) is the map point less the bounding rect's origin")
  func pointForIsOffsetByOrigin() {
    let overlay = BoxOverlay(MapRect(x: 1000, y: 2000, width: 500, height: 700))
    let r = OverlayRenderer(overlay: overlay)
    #expect(r.point(for: MapPoint(x: 1500, y: 2600)) == Point2D(x: 500, y: 600))
    #expect(r.point(for: MapPoint(x: 0, y: 0)) == Point2D(x: -1000, y: -2000))
    #expect(r.mapPoint(for: Point2D(x: 500, y: 600)) == MapPoint(x: 1500, y: 2600))
    #expect(
      r.rect(for: MapRect(x: 1100, y: 2100, width: 30, height: 40))
        == Rect2D(x: 100, y: 100, width: 30, height: 40))
    #expect(
      r.mapRect(for: Rect2D(x: 100, y: 100, width: 30, height: 40))
        == MapRect(x: 1100, y: 2100, width: 30, height: 40))
    #expect(r.contentScaleFactor == 1)
    #expect(r.alpha == 1)
  }

  @Test("11. Inside draw, point(for:) of a map point lands on that point's screen dot")
  func contextUserSpaceIsOverlaySpace() {
    let map = lisbonMap(columns: 60, rows: 20)
    let vp = map.viewport
    let q = vp.mapPoint(forDot: Point2D(x: 37.5, y: 21.5))
    let (_, frame) = recordTiles(map) { renderer, _, _, context in
      context.plot(renderer.point(for: q), color: .yellow)
    }
    // Dot (37, 21) is in cell (18, 5), at dx 1, dy 1 of that cell.
    #expect(frame.inkedCellCount == 1, "\(frame.text)")
    #expect(frame[18, 5].glyph.value == 0x2800 + UInt32(CellGeometry.brailleBit(dx: 1, dy: 1)))
    #expect(frame[18, 5].foreground == .yellow)
  }

  // MARK: 12

  @Test("12. canDraw false suppresses draw until setNeedsDisplay(_:zoomScale:)")
  func canDrawWaitsForInvalidation() {
    let d = RecordingDelegate()
    let holder = Mutex<RecordingRenderer?>(nil)
    d.makeRenderer = { o in
      let r = RecordingRenderer(overlay: o)
      r.ready = false
      holder.withLock { $0 = r }
      return r
    }
    let map = lisbonMap(columns: 100, rows: 30, delegate: d)
    map.addOverlay(BoxOverlay(.world))
    let first = map.renderFrameWithStatistics().statistics
    let r = holder.withLock { $0 }!
    #expect(r.calls.isEmpty)
    #expect(first.tilesDrawn == 0 && first.tilesWaiting > 0)
    #expect(d.events.contains(.finishRendering(fully: false)))
    let asked = r.canDrawCalls
    #expect(asked == first.tilesWaiting)

    // Ready now, but nobody said so: still nothing drawn, and canDraw is not asked again.
    r.ready = true
    let second = map.renderFrameWithStatistics().statistics
    #expect(r.calls.isEmpty && second.tilesDrawn == 0)
    #expect(r.canDrawCalls == asked)

    // An invalidation at another zoom scale does not release these tiles.
    r.setNeedsDisplay(map.visibleMapRect, zoomScale: map.zoomScale * 2)
    #expect(map.renderFrameWithStatistics().statistics.tilesDrawn == 0)

    d.clear()
    r.setNeedsDisplay(map.visibleMapRect, zoomScale: map.zoomScale)
    let third = map.renderFrameWithStatistics().statistics
    #expect(third.tilesDrawn == first.tilesWaiting)
    #expect(third.tilesWaiting == 0)
    #expect(r.calls.count == first.tilesWaiting)
    #expect(d.events.contains(.finishRendering(fully: true)))
  }

  @Test("12. setNeedsDisplay(rect) redraws only the tiles that meet the rect")
  func invalidateRect() {
    // (Large enough that the centre's 128-dot tile lies wholly on the screen.)
    let map = lisbonMap(columns: 160, rows: 80)
    let (r, _) = recordTiles(map)
    let all = r.calls.map(\.rect)
    #expect(all.count >= 6)

    // Nothing invalidated: every tile comes from the cache.
    r.resetCalls()
    let reused = map.renderFrameWithStatistics().statistics
    #expect(r.calls.isEmpty && reused.tilesDrawn == 0 && reused.tilesReused == all.count)

    // A rect inside one tile.
    let centreTile = all.first { $0.contains(map.centerPoint) }!
    r.setNeedsDisplay(centreTile.insetBy(dx: centreTile.width / 4, dy: centreTile.height / 4))
    let one = map.renderFrameWithStatistics().statistics
    #expect(one.tilesDrawn == 1)
    #expect(r.calls.map(\.rect) == [centreTile])

    // A rect across the edge between two tiles.
    r.resetCalls()
    let straddle = MapRect(
      x: centreTile.maxX - centreTile.width / 8, y: centreTile.midY, width: centreTile.width / 4,
      height: 1)
    r.setNeedsDisplay(straddle)
    #expect(map.renderFrameWithStatistics().statistics.tilesDrawn == 2)
    #expect(Set(r.calls.map(\.rect.minX)).count == 2)
    #expect(r.calls.allSatisfy { $0.rect.intersects(straddle) })

    // A rect off screen redraws nothing; setNeedsDisplay() redraws everything.
    r.resetCalls()
    r.setNeedsDisplay(map.visibleMapRect.offsetBy(dx: map.visibleMapRect.width * 3, dy: 0))
    #expect(map.renderFrameWithStatistics().statistics.tilesDrawn == 0)
    r.setNeedsDisplay()
    #expect(map.renderFrameWithStatistics().statistics.tilesDrawn == all.count)
    #expect(r.calls.count == all.count)
  }

  // MARK: 13

  @Test(
    "13. lineWidth 4 gives a context line width of 4 / zoomScale; 0 gives the road width",
    arguments: [1.0, 1.0 / 1024, 0.003_906_25, 0.37])
  func strokeProperties(zoomScale: Double) {
    let line = Polyline(points: [MapPoint(x: 0, y: 0), MapPoint(x: 10, y: 10)])
    let r = PolylineRenderer(polyline: line)
    #expect(r.lineWidth == 0)
    let context = DrawingContext(canvas: DotCanvas(width: 8, height: 8))
    r.lineWidth = 4
    r.strokeColor = .green
    r.lineDashPattern = [2, 3]
    r.lineDashPhase = 1
    r.applyStrokeProperties(to: context, atZoomScale: zoomScale)
    #expect(abs(context.lineWidth - 4 / zoomScale) <= 1e-12 * (4 / zoomScale))
    #expect(context.strokeColor == .green)
    #expect(context.lineDashPattern.count == 2)
    #expect(abs(context.lineDashPattern[0] - 2 / zoomScale) <= 1e-9 / zoomScale)
    #expect(abs(context.lineDashPattern[1] - 3 / zoomScale) <= 1e-9 / zoomScale)
    // Through a transform of the zoom scale that is 4 dots.
    context.scaleBy(x: zoomScale, y: zoomScale)
    #expect(abs(context.lineWidthInDots - 4) < 1e-9)

    r.lineWidth = 0
    let fresh = DrawingContext(canvas: DotCanvas(width: 8, height: 8))
    r.applyStrokeProperties(to: fresh, atZoomScale: zoomScale)
    #expect(fresh.lineWidth == ZoomMath.roadWidth(atZoomScale: zoomScale))
    r.lineWidth = -3
    #expect(r.lineWidth == 0)
  }

  /// How many dots thick a horizontal polyline is when its renderer draws one tile.
  func drawnThickness(lineWidth: Double) -> Int {
    let zoomScale = 1.0 / 64
    let line = Polyline(points: [MapPoint(x: 64, y: 2048), MapPoint(x: 4032, y: 2048)])
    let r = PolylineRenderer(polyline: line)
    r.lineWidth = lineWidth
    let origin = line.boundingMapRect.origin
    let context = DrawingContext(canvas: DotCanvas(width: 64, height: 64))
    context.transform = Transform2D(
      scaleX: zoomScale, scaleY: zoomScale, translateX: origin.x * zoomScale,
      translateY: origin.y * zoomScale)
    r.draw(MapRect(x: 0, y: 0, width: 4096, height: 4096), zoomScale: zoomScale, in: context)
    let canvas = context.takeCanvas()
    return (0..<64).filter { !canvas[32, $0].isEmpty }.count
  }

  @Test("13. A drawn line is lineWidth dots thick, and the road width when lineWidth is 0")
  func drawnLineWidth() {
    #expect(drawnThickness(lineWidth: 3) == 3)
    #expect(drawnThickness(lineWidth: 5) == 5)
    #expect(drawnThickness(lineWidth: 1) == 1)
    // The road width is about one and a half dots: one dot on a braille screen.
    #expect(drawnThickness(lineWidth: 0) == 1)
  }

  @Test("13. A nil strokeColor strokes nothing (the canvas stays blank)")
  func nilStrokeColour() {
    let d = RecordingDelegate()
    d.makeRenderer = { o in
      let r = MapView.defaultRenderer(for: o)
      (r as? OverlayPathRenderer)?.strokeColor = nil
      (r as? OverlayPathRenderer)?.fillColor = nil
      return r
    }
    let map = lisbonMap(columns: 60, rows: 20, delegate: d)
    let route = Polyline(coordinates: lisbonRoute)
    map.addOverlay(route)
    map.addOverlay(Circle(center: map.centerCoordinate, radius: 500))
    let shifted = lisbonRoute.map {
      Coordinate(latitude: $0.latitude + 0.01, longitude: $0.longitude)
    }
    map.addOverlay(MultiPolyline([route, Polyline(coordinates: shifted)]))
    // Polygons far smaller than a dot, drawn as specks.
    let specks = (0..<50).map { k -> Polygon in
      let p = MapPoint(lisbonRoute[k % lisbonRoute.count])
      let q = MapPoint(x: p.x + Double(k), y: p.y)
      return Polygon(points: [q, MapPoint(x: q.x + 1, y: q.y), MapPoint(x: q.x, y: q.y + 1)])
    }
    map.addOverlay(MultiPolygon(specks))
    map.addOverlay(Polygon(coordinates: lisbonRoute))
    map.showAllContent(animated: false)
    let frame = map.renderFrame()
    #expect(
      frame.inkedCellCount == 0, "\(frame.text)\n\(Set(frame.cells.compactMap(\.foreground)))")
    #expect(map.renderer(for: route) != nil)

    // Directly: draw into a context.
    let r = PolylineRenderer(polyline: route)
    r.strokeColor = nil
    r.lineWidth = 6
    let zoomScale = map.zoomScale
    let context = DrawingContext(canvas: DotCanvas(width: 256, height: 256))
    context.transform = Transform2D(scaleX: zoomScale, scaleY: zoomScale)
    r.draw(route.boundingMapRect, zoomScale: zoomScale, in: context)
    #expect(context.takeCanvas().isBlank)
    // strokePath(in:) with no colour draws nothing and clears the path.
    let c2 = DrawingContext(canvas: DotCanvas(width: 8, height: 8))
    r.applyStrokeProperties(to: c2, atZoomScale: 1)
    c2.addLines(between: [Point2D(x: 0.5, y: 0.5), Point2D(x: 7.5, y: 7.5)])
    r.strokePath(in: c2)
    #expect(c2.isPathEmpty)
    #expect(c2.takeCanvas().isBlank)
    // With the colour back the same renderer does draw (the test can fail).
    r.strokeColor = .red
    r.applyStrokeProperties(to: c2, atZoomScale: 1)
    c2.addLines(between: [Point2D(x: 0.5, y: 0.5), Point2D(x: 7.5, y: 7.5)])
    r.strokePath(in: c2)
    #expect(!c2.takeCanvas().isBlank)
  }

  @Test("13. A polygon without a stroke colour is filled but has no outline")
  func polygonFillOnly() {
    let d = RecordingDelegate()
    d.makeRenderer = { o in
      let r = MapView.defaultRenderer(for: o) as! OverlayPathRenderer
      r.strokeColor = nil
      r.fillColor = .green
      r.fillPattern = .solid
      return r
    }
    let map = makeMap(columns: 40, rows: 12, delegate: d)
    let square = Polygon(points: [
      MapPoint(x: 1e8, y: 1e8), MapPoint(x: 1.01e8, y: 1e8), MapPoint(x: 1.01e8, y: 1.01e8),
      MapPoint(x: 1e8, y: 1.01e8),
    ])
    map.addOverlay(square)
    map.showAllContent(animated: false)
    let frame = map.renderFrame()
    let colours = Set(frame.cells.compactMap(\.foreground))
    #expect(colours == [.green])
  }
}
