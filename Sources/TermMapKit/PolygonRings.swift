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
  /// Per ring: where its points end (ring r is points `ringEnds[r] ..< ringEnds[r + 1]`).
  let ringEnds: [Int32]
  /// Per ring: its bounds (the ring's `PointRun.bounds`).
  let ringBounds: [PointRun.Box]
  /// Every kept ring's points as x, y pairs (point n is `coordinates[2 * n]`,
  /// `coordinates[2 * n + 1]`), outer ring first, then the holes, polygon after polygon: what
  /// `SmallShapeBatch.addRing` reads.
  let coordinates: [Double]
  /// Per place in leaf order: the least and greatest x and y of the kept polygon's points,
  /// exactly (what `SmallShapeBatch.setPolygonBounds` takes); NaN when a point is not finite
  /// or the polygon is not kept.
  let bounds: [PointRun.Box]

  /// The rings of `polygons` (numbered as the index numbers them) in `index`'s leaf order.
  init(_ polygons: [Polygon], index: ShapeIndex) {
    var firstRing: [Int32] = []
    var ringEnds: [Int32] = [0]
    var ringBounds: [PointRun.Box] = []
    var coordinates: [Double] = []
    var bounds: [PointRun.Box] = []
    let none = PointRun.Box(minX: .nan, minY: .nan, maxX: .nan, maxY: .nan)
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
    coordinates.reserveCapacity(2 * pointCount)
    bounds.reserveCapacity(index.order.count)
    for s in index.order {
      firstRing.append(Int32(ringBounds.count))
      let polygon = polygons[Int(s)]
      guard PathPainter.drawsInBatch(polygon) else {
        bounds.append(none)
        continue
      }
      var b = PointRun.Box(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
      var finite = true
      for k in -1..<polygon.interiorPolygons.count {
        let run = k < 0 ? polygon.run : polygon.interiorPolygons[k].run
        for p in run.points {
          coordinates.append(p.x)
          coordinates.append(p.y)
          finite = finite && p.x.isFinite && p.y.isFinite
          b.minX = p.x < b.minX ? p.x : b.minX
          b.maxX = p.x > b.maxX ? p.x : b.maxX
          b.minY = p.y < b.minY ? p.y : b.minY
          b.maxY = p.y > b.maxY ? p.y : b.maxY
        }
        ringEnds.append(Int32(coordinates.count / 2))
        let r = run.bounds
        ringBounds.append(PointRun.Box(minX: r.minX, minY: r.minY, maxX: r.maxX, maxY: r.maxY))
      }
      bounds.append(finite && b.minX <= b.maxX ? b : none)
    }
    firstRing.append(Int32(ringBounds.count))
    self.firstRing = firstRing
    self.ringEnds = ringEnds
    self.ringBounds = ringBounds
    self.coordinates = coordinates
    self.bounds = bounds
  }

  /// The arrays' storage, for the duration of `body` (a tile's whole walk reads them without
  /// a retain or a bounds check per polygon).
  func withBuffers<R>(_ body: (Buffers) throws -> R) rethrows -> R {
    try firstRing.withUnsafeBufferPointer { firstRing in
      try ringEnds.withUnsafeBufferPointer { ringEnds in
        try ringBounds.withUnsafeBufferPointer { ringBounds in
          try coordinates.withUnsafeBufferPointer { coordinates in
            try bounds.withUnsafeBufferPointer { bounds in
              try body(
                Buffers(
                  firstRing: firstRing, ringEnds: ringEnds, ringBounds: ringBounds,
                  coordinates: coordinates, bounds: bounds))
            }
          }
        }
      }
    }
  }

  /// The arrays of a `PolygonRings`, lent by `withBuffers`.
  struct Buffers {
    let firstRing: UnsafeBufferPointer<Int32>
    let ringEnds: UnsafeBufferPointer<Int32>
    let ringBounds: UnsafeBufferPointer<PointRun.Box>
    let coordinates: UnsafeBufferPointer<Double>
    let bounds: UnsafeBufferPointer<PointRun.Box>

    /// Whether the polygon at a place in leaf order is kept.
    @inline(__always) func holds(position j: Int) -> Bool { firstRing[j + 1] > firstRing[j] }
  }

  /// Whether the polygon at a place in leaf order is kept here.
  @inline(__always) func holds(position j: Int) -> Bool { firstRing[j + 1] > firstRing[j] }
}

extension PathPainter {
  /// `drawSmallPolygon` for the polygon at place `j` of `rings` (which holds it): the same
  /// points, in the same order, through the same formulas, so the same dots, filled and
  /// stroked by `SmallShapeBatch.drawPolygon` with one access to the canvas.
  @inline(__always)
  func drawSmallPolygon(
    at j: Int, of rings: PolygonRings.Buffers, strokeRect: MapRect, transform t: Transform2D,
    pointTransform: Transform2D, into batch: inout SmallShapeBatch
  ) {
    // The ring points as `addRun` computes them (`pointTransform`: the context's transform
    // moved by the origin); the closing segment as `strokeSegment` does (through
    // `point(for:)` and the transform): the two can differ in the last bit, and so in a dot.
    let first = Int(rings.firstRing[j])
    let end = Int(rings.firstRing[j + 1])
    let strokes = batch.strokes
    let coordinates = rings.coordinates
    let b = rings.bounds[j]
    if !b.minX.isNaN {
      batch.setPolygonBounds((b.minX, b.minY, b.maxX, b.maxY), transform: pointTransform)
    }
    for r in first..<end {
      let a = Int(rings.ringEnds[r])
      let z = Int(rings.ringEnds[r + 1])
      let ring = UnsafeBufferPointer(rebasing: coordinates[2 * a..<2 * z])
      guard strokes, a < z else {
        batch.addRing(ring, transform: pointTransform, stroked: false, closingSegment: nil)
        continue
      }
      // As `drawSmallPolygon`: all the ring's segments, or none when its bounds miss the
      // rect; the closing segment in any case.
      let rb = rings.ringBounds[r]
      let stroked =
        !(rb.maxX < strokeRect.minX || rb.minX > strokeRect.maxX || rb.maxY < strokeRect.minY
        || rb.minY > strokeRect.maxY)
      let firstPoint = MapPoint(x: ring[0], y: ring[1])
      let lastPoint = MapPoint(x: ring[ring.count - 2], y: ring[ring.count - 1])
      var closing: (x0: Double, y0: Double, x1: Double, y1: Double)?
      if firstPoint != lastPoint {
        let u = t.apply(point(for: lastPoint))
        let v = t.apply(point(for: firstPoint))
        closing = (u.x, u.y, v.x, v.y)
      }
      batch.addRing(ring, transform: pointTransform, stroked: stroked, closingSegment: closing)
    }
    batch.drawPolygon()
  }

  /// The transform of `addRun`'s ring points: `t` moved by the origin.
  func pointTransform(_ t: Transform2D) -> Transform2D {
    Transform2D(
      scaleX: t.scaleX, scaleY: t.scaleY, translateX: t.translateX - origin.x * t.scaleX,
      translateY: t.translateY - origin.y * t.scaleY)
  }
}
