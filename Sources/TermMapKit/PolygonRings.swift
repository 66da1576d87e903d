import DotRaster
import MapGeometry

/// The rings of a MultiPolygon's polygons in flat arrays, in the order its `ShapeIndex` walks
/// its leaves: what a tile reads to draw small polygons, from consecutive memory.
///
/// A tile of a MultiPolygon of parcels or buildings draws thousands of polygons a few dots
/// across. Read through the objects (`Polygon`, its `PointRun`, the points' buffer, the array
/// of holes, each hole's objects), every polygon costs several cache misses and a dozen
/// retains and releases; read here, a polygon is a few entries next to the last one's.
/// Only polygons that `PathPainter.drawsInBatch` draws are kept; the others are drawn from
/// their objects.
struct PolygonRings: Sendable {
  /// Per place in leaf order: the polygon's first ring in `ringEnds`'s numbering; its rings
  /// run to the next place's first ring. A polygon not kept has none.
  let firstRing: [Int32]
  /// Per ring: where its points end in `points` (ring r is `ringEnds[r] ..< ringEnds[r + 1]`).
  let ringEnds: [Int32]
  /// Per ring: its bounds (the ring's `PointRun.bounds`).
  let ringBounds: [PointRun.Box]
  /// Every kept ring's points, outer ring first, then the holes, polygon after polygon.
  let points: [MapPoint]

  /// The rings of `polygons` (numbered as the index numbers them) in `index`'s leaf order.
  init(_ polygons: [Polygon], index: ShapeIndex) {
    var firstRing: [Int32] = []
    var ringEnds: [Int32] = [0]
    var ringBounds: [PointRun.Box] = []
    var points: [MapPoint] = []
    // Sized first: a MultiPolygon of parcels holds millions of points, and arrays grown by
    // doubling would hold up to twice that while they are built.
    var ringCount = 0
    var pointCount = 0
    for polygon in polygons where PathPainter.drawsInBatch(polygon) {
      ringCount += 1 + polygon.interiorPolygons.count
      pointCount += polygon.run.count + polygon.interiorPolygons.reduce(0) { $0 + $1.run.count }
    }
    firstRing.reserveCapacity(index.order.count + 1)
    ringEnds.reserveCapacity(ringCount + 1)
    ringBounds.reserveCapacity(ringCount)
    points.reserveCapacity(pointCount)
    for s in index.order {
      firstRing.append(Int32(ringBounds.count))
      let polygon = polygons[Int(s)]
      guard PathPainter.drawsInBatch(polygon) else { continue }
      for k in -1..<polygon.interiorPolygons.count {
        let run = k < 0 ? polygon.run : polygon.interiorPolygons[k].run
        points.append(contentsOf: run.points)
        ringEnds.append(Int32(points.count))
        let b = run.bounds
        ringBounds.append(PointRun.Box(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY))
      }
    }
    firstRing.append(Int32(ringBounds.count))
    self.firstRing = firstRing
    self.ringEnds = ringEnds
    self.ringBounds = ringBounds
    self.points = points
  }

  /// Whether the polygon at a place in leaf order is kept here.
  @inline(__always) func holds(position j: Int) -> Bool { firstRing[j + 1] > firstRing[j] }
}

extension PathPainter {
  /// `drawSmallPolygon` for the polygon at place `j` of `rings` (which holds it): the same
  /// points, in the same order, through the same formulas, so the same dots.
  func drawSmallPolygon(
    at j: Int, of rings: PolygonRings, strokeRect: MapRect, transform t: Transform2D,
    into batch: inout SmallShapeBatch
  ) {
    let ox = t.translateX - origin.x * t.scaleX
    let oy = t.translateY - origin.y * t.scaleY
    let (sx, sy) = (t.scaleX, t.scaleY)
    let first = Int(rings.firstRing[j])
    let end = Int(rings.firstRing[j + 1])
    rings.points.withUnsafeBufferPointer { points in
      rings.ringEnds.withUnsafeBufferPointer { ringEnds in
        if batch.fills {
          for r in first..<end {
            for n in Int(ringEnds[r])..<Int(ringEnds[r + 1]) {
              let p = points[n]
              batch.addPoint(x: p.x * sx + ox, y: p.y * sy + oy)
            }
            batch.closeRing()
          }
          batch.fillRings()
        }
        guard batch.strokes else { return }
        for r in first..<end {
          let a = Int(ringEnds[r])
          let z = Int(ringEnds[r + 1])
          guard a < z else { continue }
          let firstPoint = points[a]
          let lastPoint = points[z - 1]
          // As `drawSmallPolygon`: all the ring's segments, or none when its bounds miss the
          // rect.
          let b = rings.ringBounds[r]
          if !(b.maxX < strokeRect.minX || b.minX > strokeRect.maxX || b.maxY < strokeRect.minY
            || b.minY > strokeRect.maxY)
          {
            var px = firstPoint.x * sx + ox
            var py = firstPoint.y * sy + oy
            if z - a == 1 { batch.strokeSegment(px, py, px, py) }
            var n = a + 1
            while n < z {
              let p = points[n]
              let qx = p.x * sx + ox
              let qy = p.y * sy + oy
              batch.strokeSegment(px, py, qx, qy)
              (px, py) = (qx, qy)
              n += 1
            }
          }
          if firstPoint != lastPoint {
            let u = t.apply(point(for: lastPoint))
            let v = t.apply(point(for: firstPoint))
            batch.strokeSegment(u.x, u.y, v.x, v.y)
          }
        }
      }
    }
  }
}
