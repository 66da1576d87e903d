import DotRaster
import MapGeometry
import Testing
import TileData

@testable import MapTiles

/// `VectorTileRenderer.addRun` hands a solid thin stroke no segment that lies beyond one edge
/// of the clip (`DotLineSink.mayLiftBeyondClip`): the dots must be those of handing it every
/// segment and chord, as a path gets them.
@Suite("Line runs stroked with the segments beyond the clip left out")
struct LineRunTests {
  /// Strokes what it is handed with a `DotStrokeSink`, but is handed every segment (it does
  /// not say it may lift the pen).
  struct EverySegment: DotLineSink {
    var base: DotStrokeSink
    mutating func move(x: Double, y: Double, dashOffset: Double) {
      base.move(x: x, y: y, dashOffset: dashOffset)
    }
    mutating func line(x: Double, y: Double) { base.line(x: x, y: y) }
  }

  /// Pseudo-random runs of tile points for a tile 128 dots across, placed from −40 dots on a
  /// 64 × 64 canvas: small steps (some under half a dot, which are dropped), long ones, runs
  /// along and beyond each edge of the clip and far outside, and points on the tile's edges
  /// (where an outline's cut segments lie).
  static func runs() -> [[TilePoint]] {
    var seed: UInt64 = 0x2545_F491_4F6C_DD1D
    func next(_ n: Int) -> Int {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((seed >> 33) % UInt64(n))
    }
    var out: [[TilePoint]] = []
    for r in 0..<400 {
      var x = next(4097)
      var y = next(4097)
      var run: [TilePoint] = []
      for _ in 0..<(1 + next(18)) {
        switch (r + next(7)) % 7 {
        case 0: (x, y) = (x + next(33) - 16, y + next(33) - 16)  // about half a dot
        case 1: (x, y) = (x + next(801) - 400, y + next(801) - 400)
        case 2: (x, y) = (next(4097), next(4097))
        case 3: x = [0, 4096][next(2)]  // on a tile edge
        case 4: (x, y) = (next(400), y + next(601) - 300)  // beyond the left of the clip
        case 5: (x, y) = (x + next(601) - 300, 3600 + next(497))  // beyond its bottom
        default: (x, y) = (x + next(161) - 80, y + next(161) - 80)
        }
        (x, y) = (min(max(x, -200), 4300), min(max(y, -200), 4300))
        run.append(TilePoint(x: Int32(x), y: Int32(y)))
      }
      out.append(run)
    }
    return out
  }

  @Test(
    "a run's dots are those of every segment handed over: thin, a dot and more wide, dashed, outlines",
    arguments: [
      (1.0, false, false), (1.0, false, true), (1.9, false, false), (3.5, false, false),
      (1.0, true, false),
    ])
  func sameDots(_ width: Double, _ dashed: Bool, _ outline: Bool) throws {
    let renderer = VectorTileRenderer(
      overlay: SourceTileOverlay(source: HandMadeSource(layer: "lines", [])), style: .dark)
    let transform = TileTransform(tile: TileID(z: 0, x: 0, y: 0), extent: 4096)
    let cut = VectorTileRenderer.CutEdges(transform: transform, bounds: .world)
    let runs = Self.runs()
    var lifted = 0
    func draw(every: Bool) -> DotCanvas {
      let c = DrawingContext(canvas: DotCanvas(width: 64, height: 64))
      let scale = 128 / MapSize.world.width
      c.transform = Transform2D(scaleX: scale, scaleY: scale, translateX: -40, translateY: -40)
      c.strokeColor = .white
      c.lineWidth = width / scale
      if dashed { c.setLineDash(phase: 0, lengths: [1 / scale, 1 / scale]) }
      // The clip in dots 7..<51 × 5..<60 (the user space is map points).
      c.clip(to: Rect2D(x: 47 / scale, y: 45 / scale, width: 44 / scale, height: 55 / scale))
      let placement = VectorTileRenderer.DotPlacement(transform, c, origin: MapPoint(x: 0, y: 0))
      c.strokeDotLines { sink in
        if !every && sink.mayLiftBeyondClip { lifted += 1 }
        for run in runs {
          run.withUnsafeBufferPointer { points in
            if every {
              var all = EverySegment(base: sink)
              renderer.addRun(
                points, 0..<points.count, placement, cut: outline ? cut : nil, dashed: dashed,
                lengthBefore: 0, keepsLast: true, &all)
              sink = all.base
            } else {
              renderer.addRun(
                points, 0..<points.count, placement, cut: outline ? cut : nil, dashed: dashed,
                lengthBefore: 0, keepsLast: true, &sink)
            }
          }
        }
      }
      return c.takeCanvas()
    }
    let all = draw(every: true)
    let left = draw(every: false)
    #expect(left == all)
    #expect(all.dots.filter { !$0.isEmpty }.count > 400)
    // Solid strokes up to a dot past their centre line lift the pen; others are handed all.
    #expect((lifted == 1) == (!dashed && width < 2))
  }
}
