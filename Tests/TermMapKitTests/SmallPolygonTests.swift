import DotRaster
import Foundation
import MapGeometry
import Testing

@testable import TermMapKit

/// A MultiPolygon draws polygons with short rings in one batch per tile, without a path; the
/// dots must be those of each polygon filled and stroked through the path, in the same order.
@Suite("Small polygons")
struct SmallPolygonTests {
  /// A tiny deterministic generator (so a failure can be replayed).
  struct Random {
    var state: UInt64
    mutating func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
  }

  static let zoomScale = 1.0 / 4096
  /// The map point of dot (0, 0) of tile (0, 0) of the area drawn.
  static let tileOrigin = (i: 500, j: 400)

  /// Polygons from under a dot to ten dots across, some overlapping each other and the tile
  /// edges, with one or two holes or none, rings of 3 to 14 points (some repeating their
  /// first point at the end), and a few rings long enough for an index (drawn through the
  /// path).
  static func polygons(count: Int, seed: UInt64) -> [TermMapKit.Polygon] {
    var rng = Random(state: seed)
    let dot = 1 / zoomScale
    let x0 = Double(tileOrigin.i * TileGrid.size) * dot
    let y0 = Double(tileOrigin.j * TileGrid.size) * dot
    var out: [TermMapKit.Polygon] = []
    for k in 0..<count {
      // Over three tiles by three, a little past them.
      let cx = x0 + (rng.next() * 200 - 4) * dot
      let cy = y0 + (rng.next() * 200 - 4) * dot
      let r = (k % 7 == 0 ? 0.2 + rng.next() * 0.4 : 1 + rng.next() * 5) * dot
      let n = k % 50 == 0 ? 40 : 3 + Int(rng.next() * 12)
      var ring: [MapPoint] = []
      for a in 0..<n {
        let t = (Double(a) + rng.next() * 0.5) / Double(n) * 2 * .pi
        let rr = r * (0.6 + 0.4 * rng.next())
        ring.append(MapPoint(x: cx + rr * cos(t), y: cy + rr * sin(t)))
      }
      if k % 5 == 0 { ring.append(ring[0]) }
      var holes: [TermMapKit.Polygon] = []
      for h in 0..<(k % 3) {
        let hx = cx + (Double(h) - 0.5) * r * 0.5
        let s = r * 0.2
        holes.append(
          TermMapKit.Polygon(points: [
            MapPoint(x: hx - s, y: cy - s), MapPoint(x: hx + s, y: cy - s),
            MapPoint(x: hx + s * rng.next(), y: cy + s), MapPoint(x: hx - s, y: cy + s),
          ]))
      }
      out.append(TermMapKit.Polygon(points: ring, interiorPolygons: holes))
    }
    return out
  }

  /// Tile (i, j) of the area drawn as `TileJob.draw` sets up its context, by `draw`.
  static func tile(
    _ i: Int, _ j: Int, renderer: OverlayRenderer,
    draw: (MapRect, DrawingContext) -> Void
  ) -> DotCanvas {
    let (i, j) = (tileOrigin.i + i, tileOrigin.j + j)
    let size = TileGrid.size
    let s = zoomScale
    let context = DrawingContext(
      canvas: DotCanvas(width: size, height: size), patternOrigin: (i * size, j * size))
    let origin = renderer.overlay.boundingMapRect.origin
    let tileOrigin = MapPoint(x: Double(i * size) / s, y: Double(j * size) / s)
    context.transform = Transform2D(
      scaleX: s, scaleY: s, translateX: (origin.x - tileOrigin.x) * s,
      translateY: (origin.y - tileOrigin.y) * s)
    let rect = TileGrid.mapRect(i: i, j: j, zoomScale: s)
    context.clip(to: renderer.rect(for: rect))
    draw(rect, context)
    return context.takeCanvas()
  }

  static let styles: [PathStyle] = {
    var thick = PathStyle(strokeColor: .yellow, fillColor: .green, lineWidth: 3)
    thick.fillPattern = .solid
    var dashed = PathStyle(strokeColor: .red, fillColor: .blue)
    dashed.lineDashPattern = [2, 1]
    return [
      PathStyle(strokeColor: .brightBlue, fillColor: .blue), thick,
      PathStyle(strokeColor: nil, fillColor: .cyan), PathStyle(strokeColor: .magenta), dashed,
    ]
  }()

  @Test("a MultiPolygon of tiny polygons with holes draws the dots of each polygon drawn alone")
  func sameDotsAsThePath() {
    let multi = MultiPolygon(Self.polygons(count: 600, seed: 3))
    #expect(multi.polygons.filter { PathPainter.drawsInBatch($0) }.count > 500)
    for style in Self.styles {
      let inked = Self.compareBatchedWithAlone(multi, style: style, label: "")
      // The tiles are far from blank (so the comparison can fail).
      #expect(inked > 5_000, "style \(style)")
    }
  }

  /// Octagons with a square hole, one to four dots across (as `termmap bench`'s parcels at
  /// 500 × 150), at any fraction of a dot, many across the tiles' edges.
  static func parcels(count: Int, seed: UInt64) -> [TermMapKit.Polygon] {
    var rng = Random(state: seed)
    let dot = 1 / zoomScale
    let x0 = Double(tileOrigin.i * TileGrid.size) * dot
    let y0 = Double(tileOrigin.j * TileGrid.size) * dot
    return (0..<count).map { _ in
      let cx = x0 + (rng.next() * 200 - 4) * dot
      let cy = y0 + (rng.next() * 200 - 4) * dot
      let r = (0.5 + rng.next() * 1.5) * dot
      let ring = (0..<8).map { a in
        let t = Double(a) / 8 * 2 * .pi
        return MapPoint(x: cx + r * cos(t), y: cy + r * sin(t))
      }
      let h = r * 0.4
      let hole = TermMapKit.Polygon(points: [
        MapPoint(x: cx - h, y: cy - h), MapPoint(x: cx + h, y: cy - h),
        MapPoint(x: cx + h, y: cy + h), MapPoint(x: cx - h, y: cy + h),
      ])
      return TermMapKit.Polygon(points: ring, interiorPolygons: [hole])
    }
  }

  @Test(
    "parcels of one to four dots and polygons of up to ten draw the dots of each drawn alone",
    arguments: [5, 11, 29] as [UInt64])
  func parcelsSameDotsAsThePath(seed: UInt64) {
    let multi = MultiPolygon(
      Self.parcels(count: 1_500, seed: seed) + Self.polygons(count: 300, seed: seed))
    for style in Self.styles {
      let inked = Self.compareBatchedWithAlone(multi, style: style, label: "seed \(seed), ")
      #expect(inked > 3_000, "style \(style)")
    }
  }

  /// The 5 × 5 tiles around the data, drawn by the renderer (batched) and each polygon through
  /// the path alone in the index's order: expects them equal; the cells inked.
  static func compareBatchedWithAlone(_ multi: MultiPolygon, style: PathStyle, label: String)
    -> Int
  {
    let renderer = MultiPolygonRenderer(multiPolygon: multi)
    renderer.style = style
    let painter = PathPainter(origin: multi.boundingMapRect.origin)
    var inked = 0
    for j in -1...3 {
      for i in -1...3 {
        let batched = tile(i, j, renderer: renderer) { rect, context in
          renderer.draw(rect, zoomScale: zoomScale, in: context)
        }
        // Each polygon through the path, in the order the index gives them.
        let alone = tile(i, j, renderer: renderer) { rect, context in
          let s = zoomScale
          let reach = style.tileMargin(zoomScale: s)
          multi.index.query(
            rect.insetBy(dx: -reach, dy: -reach), tolerance: 0.75 / s,
            shape: { n in
              painter.drawPolygon(
                multi.polygons[n], style: style, in: rect, zoomScale: s, context: context)
            },
            speck: { p in painter.drawSpeck(p, style: style, context: context) })
        }
        #expect(batched == alone, "\(label)tile \(i), \(j), style \(style)")
        inked += (0..<alone.height).reduce(0) { n, y in
          n + (0..<alone.width).filter { !alone[$0, y].isEmpty }.count
        }
      }
    }
    return inked
  }
}
