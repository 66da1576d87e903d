import DotRaster
import Foundation
import MapGeometry
import Synchronization
import Testing

@testable import TermMapKit

@MainActor
@Suite("Concurrent tile drawing")
struct ConcurrentDrawingTests {
  /// Every tile job of the map's current frame, in overlay order.
  func jobs(_ map: MapView) -> [TileJob] {
    let vp = map.viewport
    let size = TileGrid.size
    var jobs: [TileJob] = []
    for overlay in map.overlays {
      guard let renderer = map.renderer(for: overlay) else { continue }
      let iRange = (vp.originX / size)...((vp.originX + vp.widthInDots - 1) / size)
      let jRange = (vp.originY / size)...((vp.originY + vp.heightInDots - 1) / size)
      for j in jRange {
        for i in iRange {
          let rect = TileGrid.mapRect(i: i, j: j, zoomScale: vp.zoomScale)
          let margin = renderer.tileMargin(zoomScale: vp.zoomScale)
          guard overlay.intersects(rect.insetBy(dx: -margin, dy: -margin)) else { continue }
          jobs.append(
            TileJob(
              key: TileKey(
                overlay: ObjectIdentifier(overlay), scaleBits: vp.zoomScale.bitPattern,
                i: Int32(i), j: Int32(j)),
              renderer: renderer, rect: rect, zoomScale: vp.zoomScale, i: i, j: j))
        }
      }
    }
    return jobs
  }

  @Test("The same renderers drawing on eight threads at once give the tiles one thread gives")
  func sharedRenderersOnManyThreads() {
    let (map, _) = busyMap()
    _ = map.renderFrame()  // makes the renderers
    let all = jobs(map)
    #expect(all.count > 12)  // (128-dot tiles: 18 of them)
    let reference = all.map { $0.draw() }
    #expect(reference.compactMap { $0 }.count > 12)
    let rounds = 6
    let results = Mutex([DrawnTile?](repeating: nil, count: all.count * rounds))
    // Each tile drawn `rounds` times, interleaved, every renderer shared by all threads.
    DispatchQueue.concurrentPerform(iterations: all.count * rounds) { k in
      let tile = all[k % all.count].draw()
      results.withLock { $0[k] = tile }
    }
    let drawn = results.withLock { $0 }
    var differing = 0
    for k in drawn.indices where drawn[k] != reference[k % all.count] { differing += 1 }
    #expect(differing == 0, "\(differing) of \(drawn.count) concurrent tiles differ")
  }

  @Test("A style changed while tiles draw on other threads: each tile is all old or all new")
  func styleChangeDuringDrawing() throws {
    // (Large enough for several 128-dot tiles.)
    let map = MapView(columns: 240, rows: 64)
    var wave: [MapPoint] = []
    let base = MapPoint(Coordinate(latitude: 48, longitude: 2))
    for k in 0..<5000 {
      let t = Double(k) / 5000
      wave.append(MapPoint(x: base.x + t * 160_000, y: base.y + sin(t * 40) * 30_000))
    }
    let line = Polyline(points: wave)
    map.addOverlay(line)
    map.showAllContent(animated: false)
    _ = map.renderFrame()  // makes the renderer
    let renderer = try #require(map.renderer(for: line) as? PolylineRenderer)
    renderer.lineWidth = 2
    renderer.strokeColor = .brightRed
    let all = jobs(map)
    #expect(all.count > 4)
    let red = all.map { $0.draw() }
    renderer.strokeColor = .brightBlue
    renderer.lineWidth = 1
    let blue = all.map { $0.draw() }
    #expect(red != blue)
    var thick = PathStyle()
    thick.strokeColor = .brightRed
    thick.lineWidth = 2
    var thin = PathStyle()
    thin.strokeColor = .brightBlue
    thin.lineWidth = 1
    let styles = [thick, thin]
    let rounds = 20
    let results = Mutex([DrawnTile?](repeating: nil, count: all.count * rounds))
    // One more iteration than tiles: it flips the style back and forth meanwhile.
    DispatchQueue.concurrentPerform(iterations: all.count * rounds + 1) { k in
      if k == all.count * rounds {
        for n in 0..<200 {
          renderer.style = styles[n % 2]
        }
        return
      }
      let tile = all[k % all.count].draw()
      results.withLock { $0[k] = tile }
    }
    let drawn = results.withLock { $0 }
    var mixed = 0
    for k in drawn.indices {
      let i = k % all.count
      if drawn[k] != red[i] && drawn[k] != blue[i] { mixed += 1 }
    }
    #expect(mixed == 0, "\(mixed) tiles mix the two styles")
  }

  /// A map of 200 × 60 cells with a multipolygon of many holed squares and a long wavy line
  /// across all of it.
  func busyMap() -> (MapView, [any Overlay]) {
    let map = MapView(columns: 200, rows: 60)
    var polygons: [Polygon] = []
    let base = MapPoint(Coordinate(latitude: 48, longitude: 2))
    let step = 4000.0
    for gy in 0..<12 {
      for gx in 0..<40 {
        let x = base.x + Double(gx) * step
        let y = base.y + Double(gy) * step
        let s = step * (0.5 + 0.4 * Double((gx * 7 + gy * 3) % 5) / 4)
        let hole = Polygon(points: [
          MapPoint(x: x + s * 0.3, y: y + s * 0.3), MapPoint(x: x + s * 0.7, y: y + s * 0.3),
          MapPoint(x: x + s * 0.7, y: y + s * 0.7), MapPoint(x: x + s * 0.3, y: y + s * 0.7),
        ])
        polygons.append(
          Polygon(
            points: [
              MapPoint(x: x, y: y), MapPoint(x: x + s, y: y + s * 0.1),
              MapPoint(x: x + s * 0.9, y: y + s), MapPoint(x: x - s * 0.1, y: y + s * 0.8),
            ], interiorPolygons: [hole]))
      }
    }
    let multi = MultiPolygon(polygons)
    var wave: [MapPoint] = []
    for k in 0..<20_000 {
      let t = Double(k) / 20_000
      wave.append(
        MapPoint(
          x: base.x - step + t * step * 42,
          y: base.y + step * 6 + sin(t * 60) * step * 5 + cos(t * 370) * step * 0.3))
    }
    let line = Polyline(points: wave)
    let circle = Circle(
      center: MapPoint(x: base.x + step * 20, y: base.y + step * 6).coordinate, radius: 9000)
    map.addOverlay(multi)
    map.addOverlay(line)
    map.addOverlay(circle, level: .aboveRoads)
    map.showAllContent(animated: false)
    return (map, map.overlays)
  }

  @Test("Tiles drawn concurrently by renderFrame equal the same tiles drawn one by one")
  func concurrentEqualsSequential() {
    for _ in 0..<3 {
      let (map, overlays) = busyMap()
      let (frame, stats) = map.renderFrameWithStatistics()
      #expect(stats.tilesDrawn > 12)
      #expect(frame.inkedCellCount > 1000)

      // The same tiles, drawn on this thread, each with a fresh context, composited in order.
      let vp = map.viewport
      let size = TileGrid.size
      var canvas = DotCanvas(columns: vp.columns, rows: vp.rows)
      var drawn = 0
      for (n, overlay) in overlays.enumerated() {
        guard let renderer = map.renderer(for: overlay) else {
          Issue.record("no renderer for overlay \(n)")
          continue
        }
        let layerBase = UInt32(n) * (4 + MapView.bandGap)
        let iRange = (vp.originX / size)...((vp.originX + vp.widthInDots - 1) / size)
        let jRange = (vp.originY / size)...((vp.originY + vp.heightInDots - 1) / size)
        for j in jRange {
          for i in iRange {
            let rect = TileGrid.mapRect(i: i, j: j, zoomScale: vp.zoomScale)
            // Tiles within a stroke's reach of the overlay are drawn too.
            let margin = renderer.tileMargin(zoomScale: vp.zoomScale)
            guard overlay.intersects(rect.insetBy(dx: -margin, dy: -margin)) else { continue }
            drawn += 1
            let job = TileJob(
              key: TileKey(
                overlay: ObjectIdentifier(overlay), scaleBits: vp.zoomScale.bitPattern,
                i: Int32(i), j: Int32(j)),
              renderer: renderer, rect: rect, zoomScale: vp.zoomScale, i: i, j: j)
            if let tile = job.draw() {
              canvas.composite(
                tile.dots, atX: i * size - vp.originX, y: j * size - vp.originY,
                layerBase: layerBase)
            }
          }
        }
      }
      #expect(drawn == stats.tilesDrawn)
      let sequential = canvas.cells(charset: map.charset)
      #expect(sequential == frame)
      if sequential != frame {
        let diff = zip(sequential.cells, frame.cells).filter { $0 != $1 }.count
        Issue.record("\(diff) cells differ")
        break
      }
    }
  }

  @Test("Tiles drawn while this thread places markers give the frame of tiles drawn first")
  func overlappedEqualsTilesFirst() {
    var frames: [CellBuffer] = []
    for threshold in [Int.max, 0, 0, 0] {
      let (map, _) = busyMap()
      // 3,000 markers over the busy area, most of them on screen.
      let area = map.visibleMapRect
      var state: UInt64 = 5
      func unit() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
      }
      map.addAnnotations(
        (0..<3_000).map { k in
          PointAnnotation(
            coordinate: MapPoint(
              x: area.minX + unit() * area.width, y: area.minY + unit() * area.height
            ).coordinate, title: "M\(k)")
        })
      map.markersWorthOverlapping = threshold
      let (frame, stats) = map.renderFrameWithStatistics()
      #expect(stats.tilesDrawn > 12 && stats.markersShown > 300)
      #expect(map.annotationViewsOnScreen.filter { !$0.isHidden }.count == stats.markersShown)
      frames.append(frame)
    }
    for f in frames.dropFirst() {
      #expect(
        f == frames[0], "\(zip(f.cells, frames[0].cells).filter { $0 != $1 }.count) cells differ")
    }
  }

  @Test("Drawing the same map again, from a cold cache, gives the same frame")
  func repeatableFrames() {
    let (map, _) = busyMap()
    let first = map.renderFrame()
    for _ in 0..<3 {
      map.discardTileCache()
      #expect(map.renderFrame() == first)
    }
    // A warm frame reuses every tile and still matches.
    let (warm, stats) = map.renderFrameWithStatistics()
    #expect(warm == first)
    #expect(stats.tilesDrawn == 0 && stats.tilesReused > 12)
  }

  @Test("Panning and coming back gives the frame that was there before")
  func panAndReturn() {
    let (map, _) = busyMap()
    let before = map.renderFrame()
    map.pan(byDotsX: 64, y: -32)
    let moved = map.renderFrame()
    #expect(moved != before)
    map.pan(byDotsX: -64, y: 32)
    #expect(map.renderFrame() == before)
  }
}

@MainActor
@Suite("Annotation views follow the screen, not the data")
struct AnnotationScaleTests {
  @Test("100,000 annotations on 160 × 48 cells: at most one view per cell, and views are reused")
  func hundredThousandAnnotations() {
    let columns = 160
    let rows = 48
    let map = MapView(columns: columns, rows: rows)
    var generator = SplitMix(seed: 42)
    func unit() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
    var annotations: [PointAnnotation] = []
    annotations.reserveCapacity(100_000)
    for k in 0..<100_000 {
      annotations.append(
        PointAnnotation(
          coordinate: Coordinate(latitude: 35 + 25 * unit(), longitude: -10 + 40 * unit()),
          title: "P\(k)"))
    }
    map.addAnnotations(annotations)
    #expect(map.annotationCount == 100_000)
    map.setRegion(
      CoordinateRegion(
        center: Coordinate(latitude: 47.5, longitude: 10),
        span: CoordinateSpan(latitudeDelta: 25, longitudeDelta: 40)), animated: false)
    let wide = map.annotationViewsOnScreen
    #expect(wide.count <= columns * rows)
    #expect(wide.count > 1000)
    #expect(wide.reduce(0) { $0 + $1.representedCount } > 90_000)
    let (frame, stats) = map.renderFrameWithStatistics()
    #expect(stats.markersShown <= columns * rows)
    #expect(frame.inkedCellCount > 100)

    // Zoom in and pan back and forth: views leave for the queue and come back from it.
    map.setZoomLevel(8, animated: false)
    let id = MapView.defaultAnnotationViewReuseIdentifier
    var seen = Set<ObjectIdentifier>()
    var distinctAfterRound: [Int] = []
    for round in 0..<4 {
      for dx in [600.0, -600.0] {
        map.pan(byDotsX: dx, y: round % 2 == 0 ? 40 : -40)
        let views = map.annotationViewsOnScreen
        #expect(views.count <= columns * rows)
        #expect(views.allSatisfy { $0.annotation != nil })
        for v in views { seen.insert(ObjectIdentifier(v)) }
        #expect(views.count + map.queuedViewCount(withIdentifier: id) <= 2 * columns * rows)
      }
      distinctAfterRound.append(seen.count)
    }
    #expect(map.queuedViewCount(withIdentifier: id) > 0)
    #expect(map.annotationViewsOnScreen.contains { $0.reuseCount > 0 })
    // After the first round trip no new views are needed: the queue supplies them.
    #expect(distinctAfterRound.last! <= distinctAfterRound[1], "\(distinctAfterRound)")
    #expect(distinctAfterRound.last! <= 2 * columns * rows)
  }
}
