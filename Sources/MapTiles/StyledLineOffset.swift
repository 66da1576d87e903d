import DotRaster
import TileData

// `line-offset` and `line-gap-width` (docs/styles.md, "Drawing a style"): a line drawn beside
// where its feature runs, or as two lines either side of a gap (a casing around a road drawn
// in the gap). Only lines whose paint sets either come here; the others take the plain path.

extension StyledDrawPlan.Paint {
  /// Whether the line is drawn off its centre line (`offset` or `gapOffset` set).
  var isOffset: Bool { offset != 0 || gapOffset != 0 }

  /// How far the drawn lines reach beyond the centre line's own stroke, in dots: the largest
  /// side offset, twice over for the mitred corners (a corner of up to 120° reaches at most
  /// twice as far). 0 for a line on its centre line.
  var offsetReach: Double { isOffset ? 2 * (abs(offset) + gapOffset) : 0 }

  /// The lines drawn, as offsets from the centre line in dots (positive: right of the line's
  /// direction): the line's own offset, or the two sides of its gap.
  var sideOffsets: [Double] {
    gapOffset > 0 ? [offset - gapOffset, offset + gapOffset] : [offset]
  }

  /// Sets `offset` and `gapOffset` from a line layer's `line-offset` and `line-gap-width` (in
  /// MapLibre pixels) for a line `widthPixels` wide, at the scale of `StyledDrawPlan.dots`
  /// (four pixels a dot), in whole dots so both sides of a gap fall alike on the dot grid.
  /// A gap narrower than its lines can part in dots (the sides less than a dot from the centre)
  /// is one line as wide as the whole casing, gap and both sides.
  mutating func setOffsets(offsetPixels: Double, gapPixels: Double, widthPixels: Double) {
    if gapPixels > 0 && gapPixels.isFinite {
      let side = min(
        StyledDrawPlan.wholeDots(pixels: (gapPixels + widthPixels) / 2), Self.maximumOffset)
      if side >= 1 {
        gapOffset = side
      } else {
        width = StyledDrawPlan.dots(pixels: gapPixels + 2 * widthPixels)
      }
    }
    if offsetPixels.isFinite {
      offset = min(
        max(StyledDrawPlan.wholeDots(pixels: offsetPixels), -Self.maximumOffset), Self.maximumOffset
      )
    }
  }

  /// The largest offset drawn, in dots (a map tile's width): a line further off its feature
  /// would be drawn from tiles that do not reach it.
  static let maximumOffset = 256.0
}

extension VectorTileRenderer.DotPlacement {
  /// This placement with its clip grown by `margin` dots: a run of vertices beyond the clip
  /// is cut to a chord (`addRun`), and a chord moved sideways must stay outside the clip.
  init(_ p: Self, grownBy margin: Double) {
    sx = p.sx
    sy = p.sy
    ox = p.ox
    oy = p.oy
    x0 = p.x0 - margin
    y0 = p.y0 - margin
    x1 = p.x1 + margin
    y1 = p.y1 + margin
  }
}

extension VectorTileRenderer {
  /// Strokes a line group's chunks near `box` once per side offset of `paint`
  /// (`StyledDrawPlan.Paint.sideOffsets`): each chunk's vertices as `addRun` keeps them,
  /// moved sideways by `OffsetLineSink`.
  func strokeOffsetLines(
    _ group: UnsafePointer<PreparedStyledTile.Group>, _ paint: StyledDrawPlan.Paint,
    chunks: UnsafeBufferPointer<PreparedVectorTile.Chunk>,
    points: UnsafeBufferPointer<TilePoint>, box: TileBox, placement: DotPlacement,
    cut: CutEdges, dashed: Bool, zoom z: Float, context: DrawingContext
  ) {
    var reach = TileBox.empty
    group.pointee.items.grid.forEachChunk(near: box) { n in
      let c = chunks[n]
      if c.minZoom <= z && c.box.intersects(box) { reach.formUnion(c.box) }
    }
    guard !reach.isEmpty else { return }
    let grow = paint.offsetReach
    let wide = DotPlacement(placement, grownBy: grow)
    let r = placement.dotBox(reach)
    let area = Rect2D(
      x: r.x - grow, y: r.y - grow, width: r.width + 2 * grow, height: r.height + 2 * grow)
    let sides = paint.sideOffsets
    context.strokeDotLines(within: area) { sink in
      withUnsafeMutablePointer(to: &sink) { base in
        for d in sides {
          var o = OffsetLineSink(base: base, offset: d)
          group.pointee.items.grid.forEachChunk(near: box) { n in
            let c = chunks[n]
            guard c.minZoom <= z && c.box.intersects(box) else { return }
            addChunk(c, points, wide, cut: cut, dashed: dashed, &o)
          }
          o.finish()
        }
      }
    }
  }
}

/// Hands the lines given to it on to another sink moved `offset` dots sideways (positive:
/// right of the direction of travel on screen, whose y grows downwards), as MapLibre's
/// `line-offset`: each vertex along the bisector of its two segments (a mitre), or at a corner
/// sharper than 60° (turning by more than 120°) both ends of it (a bevel). A subpath that
/// starts where the last one ended (a line's next chunk) goes on as the same subpath, so its
/// corner is mitred too; a subpath of one point is left out (no direction to move it by).
struct OffsetLineSink<Base: DotLineSink>: DotLineSink {
  let base: UnsafeMutablePointer<Base>
  let offset: Double
  /// Vertices of the open subpath so far (0, 1, or 2 meaning two or more).
  var count = 0
  /// The last vertex, and the dash offset the subpath started with.
  var lastX = 0.0
  var lastY = 0.0
  var dash = 0.0
  /// The right-hand unit normal of the last segment.
  var nx = 0.0
  var ny = 0.0

  init(base: UnsafeMutablePointer<Base>, offset: Double) {
    self.base = base
    self.offset = offset
  }

  mutating func move(x: Double, y: Double, dashOffset: Double) {
    // The next chunk of the same line: go on.
    if count == 2 && x == lastX && y == lastY { return }
    finish()
    lastX = x
    lastY = y
    dash = dashOffset
    count = 1
  }

  mutating func line(x: Double, y: Double) {
    if count == 0 {
      move(x: x, y: y, dashOffset: 0)
      return
    }
    let dx = x - lastX
    let dy = y - lastY
    let length = (dx * dx + dy * dy).squareRoot()
    guard length > 1e-9 else { return }
    let mx = -dy / length
    let my = dx / length
    if count == 1 {
      base.pointee.move(x: lastX + mx * offset, y: lastY + my * offset, dashOffset: dash)
      count = 2
    } else {
      // The bisector of the two normals; its length along either normal is cos(θ/2).
      var bx = nx + mx
      var by = ny + my
      let b = (bx * bx + by * by).squareRoot()
      let cosHalf = b / 2
      if cosHalf < 0.5 {
        base.pointee.line(x: lastX + nx * offset, y: lastY + ny * offset)
        base.pointee.line(x: lastX + mx * offset, y: lastY + my * offset)
      } else {
        bx /= b
        by /= b
        let k = offset / cosHalf
        base.pointee.line(x: lastX + bx * k, y: lastY + by * k)
      }
    }
    nx = mx
    ny = my
    lastX = x
    lastY = y
  }

  /// Ends the open subpath at its last vertex, moved along its last segment's normal.
  mutating func finish() {
    if count == 2 { base.pointee.line(x: lastX + nx * offset, y: lastY + ny * offset) }
    count = 0
  }
}
