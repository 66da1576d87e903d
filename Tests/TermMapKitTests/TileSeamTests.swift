import DotRaster
import Foundation
import MapGeometry
import Testing

@testable import TermMapKit

/// Tiles must join invisibly: a frame drawn tile by tile equals each renderer drawing the
/// whole screen at once.
@MainActor
@Suite("Tile seams")
struct TileSeamTests {
  /// The frame of `map`'s overlays drawn without tiles: each renderer draws the whole screen
  /// into one context, composited in the map's order.
  func wholeScreenFrame(_ map: MapView) -> CellBuffer {
    let vp = map.viewport
    let zs = vp.zoomScale
    var canvas = DotCanvas(columns: vp.columns, rows: vp.rows)
    for (n, overlay) in map.overlays.enumerated() {
      guard let r = map.renderer(for: overlay) else { continue }
      let context = DrawingContext(
        canvas: DotCanvas(columns: vp.columns, rows: vp.rows),
        patternOrigin: (vp.originX, vp.originY))
      let o = overlay.boundingMapRect.origin
      context.transform = Transform2D(
        scaleX: zs, scaleY: zs, translateX: o.x * zs - Double(vp.originX),
        translateY: o.y * zs - Double(vp.originY))
      r.draw(vp.mapRect, zoomScale: zs, in: context)
      canvas.composite(
        context.takeCanvas(), atX: 0, y: 0,
        layerBase: UInt32(n) * (4 + MapView.bandGap))
    }
    return canvas.cells(charset: map.charset)
  }

  /// A 100 × 30 map at zoom 12 whose path renderers stroke `lineWidth` dots wide.
  func makeSeamMap(lineWidth: Double) -> (MapView, RecordingDelegate) {
    let d = RecordingDelegate()
    d.makeRenderer = { o in
      let r = MapView.defaultRenderer(for: o)
      (r as? OverlayPathRenderer)?.lineWidth = lineWidth
      return r
    }
    let map = MapView(columns: 100, rows: 30)
    map.delegate = d
    map.setCenter(MapPoint(x: 1.0e8, y: 1.0e8), animated: false)
    map.setZoomLevel(12, animated: false)
    return (map, d)
  }

  @Test("A thick line running just beside a tile edge is not cut at the edge")
  func thickLineBesideTileEdge() {
    let (map, d) = makeSeamMap(lineWidth: 7)
    let vp = map.viewport
    let zs = vp.zoomScale
    let size = TileGrid.size
    // A tile row boundary and a tile column boundary on screen.
    let yb = Double((vp.originY / size + 1) * size) / zs
    let xb = Double((vp.originX / size + 1) * size) / zs
    let across = Polyline(points: [
      MapPoint(x: Double(vp.originX + 20) / zs, y: yb - 2 / zs),
      MapPoint(x: Double(vp.originX + 180) / zs, y: yb - 1.2 / zs),
    ])
    let down = Polyline(points: [
      MapPoint(x: xb - 2.5 / zs, y: Double(vp.originY + 10) / zs),
      MapPoint(x: xb - 1.5 / zs, y: Double(vp.originY + 110) / zs),
    ])
    map.addOverlays([across, down])
    let frame = map.renderFrame()
    let reference = wholeScreenFrame(map)
    #expect(frame == reference, "tiled:\n\(frame.text)\nwhole:\n\(reference.text)")
    // The stroke reaches below the tile edge: the cell row under it is inked.
    let rowBelow = (Int((yb * zs).rounded()) - vp.originY) / CellGeometry.dotsHigh
    let column = 40
    #expect(frame[column, rowBelow].glyph != " ")
    _ = d
  }

  @Test("Shapes crossing many tiles match a whole-screen draw", arguments: [1.0, 3.0, 0.0])
  func shapesMatchWholeScreen(lineWidth: Double) {
    let (map, d) = makeSeamMap(lineWidth: lineWidth)
    let c = map.centerPoint
    let k = 1 / map.zoomScale
    map.addOverlay(
      Polyline(points: [
        MapPoint(x: c.x - 90 * k, y: c.y - 50 * k), MapPoint(x: c.x + 95 * k, y: c.y + 55 * k),
        MapPoint(x: c.x + 20 * k, y: c.y - 57 * k),
      ]))
    map.addOverlay(
      Circle(
        center: c.coordinate,
        radius: 40 * k * Mercator.metersPerMapPoint(atLatitude: c.coordinate.latitude)))
    map.addOverlay(
      Polygon(points: [
        MapPoint(x: c.x - 70 * k, y: c.y + 10 * k), MapPoint(x: c.x - 10 * k, y: c.y + 55 * k),
        MapPoint(x: c.x - 95 * k, y: c.y + 50 * k),
      ]))
    let frame = map.renderFrame()
    let reference = wholeScreenFrame(map)
    let differing = zip(frame.cells, reference.cells).filter { $0 != $1 }.count
    #expect(differing == 0, "tiled:\n\(frame.text)\nwhole:\n\(reference.text)")
    _ = d
  }

  @Test(
    "A dashed line of many points keeps its dashes in step across tiles",
    arguments: [(1.0, false), (3.0, false), (1.0, true)])
  func dashesAcrossTiles(lineWidth: Double, multi: Bool) {
    let (map, d) = makeSeamMap(lineWidth: lineWidth)
    let inner = d.makeRenderer
    d.makeRenderer = { o in
      let r = inner!(o)
      (r as? OverlayPathRenderer)?.lineDashPattern = [6, 4]
      return r
    }
    let c = map.centerPoint
    let k = 1 / map.zoomScale
    // 1,000 points (more than one leaf of the run's index) on a gentle wave across the screen.
    let points = (0..<1000).map { i -> MapPoint in
      let t = Double(i) / 999
      return MapPoint(x: c.x + (t * 190 - 95) * k, y: c.y + (sin(t * 9) * 40) * k)
    }
    let line = Polyline(points: points)
    if multi {
      map.addOverlay(MultiPolyline([line]))
    } else {
      map.addOverlay(line)
    }
    let frame = map.renderFrame()
    // The line crosses tile seams (it meets four 128-dot tiles).
    #expect(map.renderFrameWithStatistics().statistics.tilesReused >= 4)
    let reference = wholeScreenFrame(map)
    #expect(frame == reference, "tiled:\n\(frame.text)\nwhole:\n\(reference.text)")
    // Dashed: fewer dots than the same line drawn solid.
    #expect(frame.inkedCellCount > 50)
  }

  @Test("PointRun.distance(toIndex:) is the length of the run up to a point")
  func runDistance() {
    var generator = SplitMix(seed: 3)
    let points = (0..<1234).map { _ in
      MapPoint(x: Double(generator.next() % 10_000), y: Double(generator.next() % 10_000))
    }
    for run in [PointRun(points), PointRun(Array(points.prefix(10)))] {
      var length = 0.0
      for i in 0..<run.count {
        if i > 0 {
          let a = run.points[i - 1]
          let b = run.points[i]
          length += ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        }
        #expect(abs(run.distance(toIndex: i) - length) <= 1e-9 * max(length, 1), "index \(i)")
      }
      #expect(run.distance(toIndex: run.count + 5) == run.distance(toIndex: run.count - 1))
      #expect(run.distance(toIndex: -1) == 0)
    }
  }

  @Test("A straight east-west or north-south route is drawn (its bounds have no area)")
  func straightRoutes() {
    for vertical in [false, true] {
      let map = MapView(columns: 60, rows: 20)
      let a = Coordinate(latitude: 38.70, longitude: -9.20)
      let b =
        vertical
        ? Coordinate(latitude: 38.75, longitude: -9.20)
        : Coordinate(latitude: 38.70, longitude: -9.10)
      let line = Polyline(coordinates: [a, b])
      #expect(line.boundingMapRect.width == 0 || line.boundingMapRect.height == 0)
      map.addOverlay(line)
      map.showAllContent(animated: false)
      let frame = map.renderFrame()
      #expect(map.renderer(for: line) != nil)
      #expect(frame.inkedCellCount >= (vertical ? 15 : 40), "vertical: \(vertical)\n\(frame.text)")
    }
  }

  @Test("A zero-area overlay meets the rects it lies in, and no others")
  func zeroAreaIntersects() {
    let flat = BoxLine(MapRect(x: 100, y: 200, width: 50, height: 0))
    #expect(flat.intersects(MapRect(x: 90, y: 150, width: 20, height: 100)))
    #expect(flat.intersects(MapRect(x: 120, y: 200, width: 10, height: 10)))
    #expect(!flat.intersects(MapRect(x: 90, y: 201, width: 100, height: 100)))
    // Its east end lies on the min edge of this rect (inside, under the half-open rule).
    #expect(flat.intersects(MapRect(x: 150, y: 150, width: 20, height: 100)))
    #expect(!flat.intersects(MapRect(x: 150.5, y: 150, width: 20, height: 100)))
    #expect(!flat.intersects(MapRect(x: 0, y: 0, width: 100, height: 300)))
    #expect(!flat.intersects(.null))
    #expect(!BoxLine(.null).intersects(.world))
    // Overlays with area keep MapKit's rule: touching edges do not count.
    let square = BoxLine(MapRect(x: 0, y: 0, width: 10, height: 10))
    #expect(!square.intersects(MapRect(x: 10, y: 0, width: 10, height: 10)))
    #expect(square.intersects(MapRect(x: 9, y: 9, width: 10, height: 10)))
  }
}

/// An overlay with the default `intersects`.
final class BoxLine: Overlay {
  let boundingMapRect: MapRect
  init(_ r: MapRect) { boundingMapRect = r }
}
