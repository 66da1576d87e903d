import Foundation
import MapGeometry
import Testing

@testable import DotRaster
@testable import MapTiles
@testable import TileData

/// The moves and lines a run hands its sink, as text.
private struct RecordingSink: DotLineSink {
  var steps: [String] = []
  mutating func move(x: Double, y: Double, dashOffset: Double) {
    steps.append("move \(x) \(y) \(dashOffset)")
  }
  mutating func line(x: Double, y: Double) { steps.append("line \(x) \(y)") }
}

@Suite("A fill's rings from tile points")
struct FillRingTests {
  @Test(
    "addFillRing hands the sink what addRun hands it for a fill: points dropped, runs beyond the clip made chords",
    arguments: [1.0 / 64, 1.0 / 16, 1.0 / 4])
  func sameStepsAsAddRun(_ dotsPerUnit: Double) throws {
    let renderer = VectorTileRenderer(
      overlay: SourceTileOverlay(source: try MBTilesSource(path: shortbreadPath)),
      style: .dark)
    let t = TileTransform(tile: TileID(z: 15, x: 18_720, y: 9_480))
    let context = DrawingContext(canvas: DotCanvas(columns: 16, rows: 6))
    context.scaleBy(x: dotsPerUnit / t.scale, y: dotsPerUnit / t.scale)
    let placement = VectorTileRenderer.DotPlacement(t, context, origin: t.rect.origin)
    var seed: UInt64 = 0x2545_F491_4F6C_DD1D
    func random(_ n: Int) -> Int32 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int32(truncatingIfNeeded: (seed >> 33) % UInt64(n))
    }
    var compared = 0
    for _ in 0..<300 {
      // A ring wandering in and out of the clip in steps from a tile unit to a few hundred.
      var points: [TilePoint] = []
      var (x, y) = (random(4096) - 1024, random(2048) - 512)
      for _ in 0..<(1 + Int(random(40))) {
        let step = [2, 20, 400][Int(random(3))]
        x += random(2 * step + 1) - Int32(step)
        y += random(2 * step + 1) - Int32(step)
        points.append(TilePoint(x: x, y: y))
      }
      points.withUnsafeBufferPointer { p in
        var general = RecordingSink()
        var fill = RecordingSink()
        renderer.addRun(
          p, 0..<p.count, placement, cut: nil, dashed: false, lengthBefore: 0, keepsLast: false,
          &general)
        renderer.addFillRing(p, 0..<p.count, placement, &fill)
        #expect(fill.steps == general.steps)
        compared += general.steps.count
      }
    }
    // (Rings were handed on: a run that drew nothing would pass the comparison.)
    #expect(compared > 300)
  }

  /// Hands `sink` the ring's moves and lines (the generic `addFillRing`, not the sink's own).
  private static func viaLines<Sink: DotLineSink>(
    _ renderer: VectorTileRenderer, _ p: UnsafeBufferPointer<TilePoint>, _ range: Range<Int>,
    _ m: VectorTileRenderer.DotPlacement, _ sink: inout Sink
  ) {
    renderer.addFillRing(p, range, m, &sink)
  }

  @Test(
    "addFillRing writes into a ring sink the edges and bounds of its moves and lines",
    arguments: [1.0 / 64, 1.0 / 16, 1.0 / 4, 1.0])
  func writerAsLines(_ dotsPerUnit: Double) throws {
    let renderer = VectorTileRenderer(
      overlay: SourceTileOverlay(source: try MBTilesSource(path: shortbreadPath)),
      style: .dark)
    let t = TileTransform(tile: TileID(z: 15, x: 18_720, y: 9_480))
    let context = DrawingContext(canvas: DotCanvas(columns: 16, rows: 6))
    context.translateBy(x: -3.25, y: 1.5)
    context.scaleBy(x: dotsPerUnit / t.scale, y: dotsPerUnit / t.scale)
    let placement = VectorTileRenderer.DotPlacement(t, context, origin: t.rect.origin)
    #expect(placement.keepsPointsFinite)
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func random(_ n: Int) -> Int32 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int32(truncatingIfNeeded: (seed >> 33) % UInt64(n))
    }
    let storage = UnsafeMutablePointer<FillScratch.Edge>.allocate(capacity: 4)
    let other = UnsafeMutablePointer<FillScratch.Edge>.allocate(capacity: 4)
    var written = DotRingSink(edges: storage, capacity: 4)
    var lines = DotRingSink(edges: other, capacity: 4)
    defer {
      written.edges.deallocate()
      lines.edges.deallocate()
    }
    var compared = 0
    for n in 0..<400 {
      // A polygon of one to three rings wandering in and out of the clip in steps from a
      // tile unit to a few hundred, some edges level, some points repeated.
      var points: [TilePoint] = []
      var rings: [Range<Int>] = []
      for _ in 0..<(1 + Int(random(3))) {
        let start = points.count
        var (x, y) = (random(4096) - 1024, random(2048) - 512)
        for _ in 0..<(1 + Int(random(30))) {
          let step = [0, 2, 20, 400][Int(random(4))]
          x += random(2 * step + 1) - Int32(step)
          if random(4) > 0 { y += random(2 * step + 1) - Int32(step) }
          points.append(TilePoint(x: x, y: y))
        }
        rings.append(start..<points.count)
      }
      written.restart()
      lines.restart()
      points.withUnsafeBufferPointer { p in
        for r in rings {
          renderer.addFillRing(p, r, placement, &written)
          Self.viaLines(renderer, p, r, placement, &lines)
        }
      }
      written.closeRing()
      lines.closeRing()
      #expect(written.count == lines.count, "\(n)")
      for i in 0..<min(written.count, lines.count) {
        let (a, b) = (written.edges[i], lines.edges[i])
        #expect(
          [a.yTop, a.yBottom, a.xAtTop, a.slope].map(\.bitPattern)
            == [b.yTop, b.yBottom, b.xAtTop, b.slope].map(\.bitPattern), "\(n) \(i)")
      }
      let (a, b) = (written.bounds, lines.bounds)
      // (Equal values: a bound may keep a zero of the other sign.)
      #expect(
        a.minX == b.minX && a.maxX == b.maxX && a.minY == b.minY && a.maxY == b.maxY, "\(n)")
      compared += written.count
    }
    // (Edges were written: rings that gave none would pass the comparison.)
    #expect(compared > 1000)
  }
}
