import DotRaster
import Foundation
import MapGeometry
import Synchronization
import TermMapKit
import TileData

/// A decoded vector tile, as a tile overlay renderer caches it.
public struct VectorTileContent: TileContent {
  /// The decoded tile.
  public let tile: DecodedTile
  /// The tile sorted out for the style document it is drawn with (made on first draw).
  let styled = StyledTileCache()
  /// A decoded tile.
  public init(_ tile: DecodedTile) { self.tile = tile }
  public var byteCount: Int { tile.approximateByteCount * 5 / 4 }
}

/// Draws a tile overlay of Mapbox Vector Tiles with one of termmap's built-in styles
/// (`BasemapStyle`: a style document per schema and theme), and gives the map their place and
/// street names as labels, from the document's symbol layers (`StyleLabels`).
///
/// The document's layers are drawn as `StyledVectorTileRenderer` draws a style's (its
/// superclass: this class holds the drawing, the subclass a document of the user's own).
///
/// Loading, caching, stand-ins and loading events are `TileOverlayRenderer`'s. Vector tiles are
/// drawn one zoom below the map's (a braille dot is coarser than the pixels tiles are made for).
/// Paths keep only what can show in the tile being drawn, and no edge that the tiler or the
/// source's bounds cut is ever stroked (where a detailed source ends, a coarser one goes on
/// with no line between them).
///
/// `@unchecked Sendable`: the style and its compiled layers are behind a mutex (they change at
/// most once, when a renderer that detects the schema decodes its first telling tile, and the
/// language when set), `inflateLimit` and `detectionVariant` are immutable; the rest is the
/// superclass's.
// Not final: `AutomaticTileRenderer` (this module) draws vector tiles as this class does.
public class VectorTileRenderer: TileOverlayRenderer, LabelProviding, @unchecked Sendable {
  /// The style tiles are drawn with. A renderer made with `detectingSchema:` starts with the
  /// OpenMapTiles style of its variant and switches, once, to the style of the first schema
  /// `VectorSchema.detect` finds in a decoded tile's layer names (before that tile is drawn).
  public var style: BasemapStyle { state.withLock { $0.style } }
  /// The language of the labels (`BasemapStyle.localized(to:)`): names in it where the tiles
  /// have them, else the style's own. Setting it redraws; a style the renderer switches to on
  /// detecting the schema keeps it.
  public var language: String? {
    get { state.withLock { $0.style.language } }
    set {
      let changed = state.withLock { s -> Bool in
        let style = s.style.localized(to: newValue)
        guard s.style != style else { return false }
        s.style = style
        return true
      }
      if changed { setNeedsDisplay() }
    }
  }
  /// The schema found in the tiles (nil: not detecting, or none found yet).
  public var detectedSchema: VectorSchema? { state.withLock { $0.detected } }
  /// Largest inflated tile accepted.
  public let inflateLimit: Int
  /// Light or dark, when the style is chosen from the tiles; nil for a fixed style.
  public let detectionVariant: BasemapStyle.Variant?
  /// The style, the layers drawn (the style's, or a `StyledVectorTileRenderer`'s document's),
  /// the schema detected, and whether a tile was drawn before detection (it is then redrawn
  /// once the style changes).
  private let state:
    Mutex<
      (style: BasemapStyle, plan: StyledDrawPlan, detected: VectorSchema?, drawnBefore: Bool)
    >
  /// The labels of the drawn document's symbol layers in the language last asked for, and
  /// the layers they were made for (made on first use).
  let documentLabelSet = Mutex<(document: StyledDrawPlan, labels: StyleLabels)?>(nil)

  /// A renderer drawing a vector tile overlay with a fixed style.
  public init(
    overlay: TileOverlay, style: BasemapStyle, retryInterval: TimeInterval = 30,
    inflateLimit: Int = Inflate.defaultLimit
  ) {
    state = Mutex((style, style.plan, nil, false))
    detectionVariant = nil
    self.inflateLimit = inflateLimit
    super.init(tileOverlay: overlay, retryInterval: retryInterval)
  }

  /// A renderer that picks its style from the layer names of the first decoded tile that
  /// tells the schema (for sources whose metadata lists no vector layers).
  public init(
    overlay: TileOverlay, detectingSchema variant: BasemapStyle.Variant,
    retryInterval: TimeInterval = 30, inflateLimit: Int = Inflate.defaultLimit
  ) {
    let style = BasemapStyle.forSchema(.openMapTiles, variant: variant)
    state = Mutex((style, style.plan, nil, false))
    detectionVariant = variant
    self.inflateLimit = inflateLimit
    super.init(tileOverlay: overlay, retryInterval: retryInterval)
  }

  /// A renderer drawing the layers of `plan` (a style document of the user's own:
  /// `StyledVectorTileRenderer`); `style` stays the default and says nothing of the look.
  init(
    overlay: TileOverlay, plan: StyledDrawPlan, retryInterval: TimeInterval,
    inflateLimit: Int
  ) {
    state = Mutex((.dark, plan, nil, false))
    detectionVariant = nil
    self.inflateLimit = inflateLimit
    super.init(tileOverlay: overlay, retryInterval: retryInterval)
  }

  /// The compiled layers drawn now.
  var plan: StyledDrawPlan { state.withLock { $0.plan } }

  /// The zoom of the vector tiles used at a map zoom level: one level below it.
  static func tileZoom(forLevel zoomLevel: Double) -> Int {
    max(0, Int((zoomLevel - 0.5).rounded(.down)))
  }

  public override func tileZoom(forZoomScale zoomScale: Double) -> Int {
    Self.tileZoom(forLevel: ZoomMath.zoomLevel(forZoomScale: zoomScale))
  }

  public override func decodeTile(_ data: Data, at path: TileOverlayPath) throws -> any TileContent
  {
    let raw = try Inflate.decompressIfNeeded(data, limit: inflateLimit)
    let tile = try VectorTileDecoder.decode(raw)
    detectSchema(in: tile)
    return VectorTileContent(tile)
  }

  public override func didAdoptSharedContent(_ content: any TileContent, at path: TileOverlayPath) {
    if let vector = content as? VectorTileContent { detectSchema(in: vector.tile) }
  }

  /// When detecting: takes the style of the schema the tile's layer names tell, if none was
  /// found yet (tiles drawn meanwhile with the OpenMapTiles style are drawn again).
  func detectSchema(in tile: DecodedTile) {
    guard let variant = detectionVariant else { return }
    let redraw = state.withLock { s -> Bool in
      guard s.detected == nil, let schema = VectorSchema.detect(layerNames: tile.layerNames)
      else { return false }
      let drawn = s.drawnBefore
      let style = BasemapStyle.forSchema(schema, variant: variant).localized(to: s.style.language)
      s = (style, style.plan, schema, false)
      return drawn
    }
    // Tiles that told nothing were drawn with the OpenMapTiles style meanwhile.
    if redraw { setNeedsDisplay() }
  }

  public override func drawTile(
    _ content: any TileContent, at path: TileOverlayPath, in mapRect: MapRect, zoomScale: Double,
    context: DrawingContext
  ) {
    let plan = state.withLock { s in
      if detectionVariant != nil && s.detected == nil { s.drawnBefore = true }
      return s.plan
    }
    drawStyled(content, at: path, in: mapRect, zoomScale: zoomScale, context: context, plan: plan)
  }

  /// The tile boxes one map tile's rules look for features in, each made once per map tile:
  /// a box depends only on the vector-tile layer's extent and the rule's line width (the map
  /// tile, its rect and zoom scale being the same for all its rules), and the rules of a
  /// schema share a few extents and widths. (Making a box for each rule cost a frame about 0.8 %
  /// of its instructions.) Held in stack memory, at most `capacity` boxes; past that, boxes
  /// are made as before.
  struct TileBoxMemo {
    struct Entry {
      let extent: Int
      let lineWidth: Double
      let box: TileBox
    }
    static let capacity = 16
    let entries: UnsafeMutableBufferPointer<Entry>
    var count = 0
    let id: TileID
    let mapRect: MapRect
    let zoomScale: Double
    let bounds: MapRect
    /// The transform of the extent asked for last, and its cut edges.
    private(set) var transform: TileTransform
    private(set) var cut: CutEdges

    init(
      entries: UnsafeMutableBufferPointer<Entry>, id: TileID, mapRect: MapRect, zoomScale: Double,
      bounds: MapRect
    ) {
      self.entries = entries
      self.id = id
      self.mapRect = mapRect
      self.zoomScale = zoomScale
      self.bounds = bounds
      transform = TileTransform(tile: id)
      cut = CutEdges(transform: transform, bounds: bounds)
    }

    /// The transform of a layer with `extent` units across, into this map tile, and the edges
    /// where its polygons were cut.
    mutating func transform(extent: Int) -> (TileTransform, CutEdges) {
      if transform.extent != max(extent, 1) {
        transform = TileTransform(tile: id, extent: extent)
        cut = CutEdges(transform: transform, bounds: bounds)
      }
      return (transform, cut)
    }

    /// The tile box (of a layer with `extent`) that features stroked `lineWidth` wide must
    /// meet to reach this map tile.
    mutating func box(extent: Int, lineWidth: Double) -> TileBox {
      for i in 0..<count where entries[i].extent == extent && entries[i].lineWidth == lineWidth {
        return entries[i].box
      }
      let reach = (lineWidth / 2 + 1) / zoomScale
      let box = transform(extent: extent).0.tileBox(
        covering: mapRect.insetBy(dx: -reach, dy: -reach))
      if count < entries.count {
        (entries.baseAddress! + count).initialize(
          to: Entry(extent: extent, lineWidth: lineWidth, box: box))
        count += 1
      }
      return box
    }
  }

  /// A feature's parts in a layer's flat geometry.
  struct FlatParts {
    let points: UnsafeBufferPointer<TilePoint>
    let offsets: UnsafeBufferPointer<Int32>
    let parts: Range<Int32>
  }

  /// Where tile units land in a context's dots, and the clip (grown a little) to keep to.
  struct DotPlacement {
    /// Dots per tile unit, and the tile's origin in dots.
    let sx: Double
    let sy: Double
    let ox: Double
    let oy: Double
    let x0: Double
    let y0: Double
    let x1: Double
    let y1: Double

    init(_ t: TileTransform, _ context: DrawingContext, origin: MapPoint) {
      let m = context.transform
      let clip = context.clipBounds
      let margin = 2.0
      x0 = Double(clip.minX) - margin
      y0 = Double(clip.minY) - margin
      x1 = Double(clip.maxX) + margin
      y1 = Double(clip.maxY) + margin
      sx = t.scale * m.scaleX
      sy = t.scale * m.scaleY
      // (The context's user space is map points less the overlay's origin.)
      ox = (t.rect.origin.x - origin.x) * m.scaleX + m.translateX
      oy = (t.rect.origin.y - origin.y) * m.scaleY + m.translateY
    }

    /// Whether every tile point lands on a finite dot (the scales and origins finite, and small
    /// enough that no product or sum with a tile coordinate overflows: a coordinate is a 32-bit
    /// integer, and 2^31 × 1e290 + 1e290 is finite).
    @inline(__always) var keepsPointsFinite: Bool {
      let limit = 1e290
      return sx.magnitude < limit && sy.magnitude < limit && ox.magnitude < limit
        && oy.magnitude < limit
    }

    @inline(__always) func code(_ x: Double, _ y: Double) -> Int {
      (x < x0 ? 1 : 0) | (x > x1 ? 2 : 0) | (y < y0 ? 4 : 0) | (y > y1 ? 8 : 0)
    }
  }

  /// The lines along which a tile's polygons were cut, in tile units: the tile's own square
  /// (features reach a little past it, into the tile's buffer) and the source's bounds.
  struct CutEdges {
    let minX: Double
    let minY: Double
    let maxX: Double
    let maxY: Double
    /// Half a tile unit of slack per 256th of the extent (tilers round cut points to units).
    let slack: Double

    init(transform t: TileTransform, bounds: MapRect) {
      let e = Double(t.extent)
      var (x0, y0, x1, y1) = (0.0, 0.0, e, e)
      if !bounds.isNull && bounds != .world {
        x0 = max(x0, (bounds.minX - t.rect.minX) / t.scale)
        y0 = max(y0, (bounds.minY - t.rect.minY) / t.scale)
        x1 = min(x1, (bounds.maxX - t.rect.minX) / t.scale)
        y1 = min(y1, (bounds.maxY - t.rect.minY) / t.scale)
      }
      (minX, minY, maxX, maxY) = (x0, y0, x1, y1)
      slack = max(1, e / 512)
    }

    /// True when the segment lies along (or beyond) one cut edge.
    @inline(__always) func isCut(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Bool {
      (ax <= minX + slack && bx <= minX + slack) || (ax >= maxX - slack && bx >= maxX - slack)
        || (ay <= minY + slack && by <= minY + slack) || (ay >= maxY - slack && by >= maxY - slack)
    }
  }

  /// Adds a feature's rings to the path for a fill, keeping only what can show in the
  /// context's clip (see `addRun`).
  func addParts<Sink: DotLineSink>(_ f: FlatParts, _ m: DotPlacement, _ path: inout Sink) {
    for p in f.parts {
      let a = Int(f.offsets[Int(p)])
      let b = Int(f.offsets[Int(p) + 1])
      guard a < b else { continue }
      addRun(
        f.points, a..<b, m, cut: nil, dashed: false, lengthBefore: 0, keepsLast: false, &path)
    }
  }

  /// Hands a feature's rings to a fill (`DrawingContext.fillDotRings`): what `addParts` hands
  /// it, through a loop of its own (`addFillRing`).
  func addFillParts(_ f: FlatParts, _ m: DotPlacement, _ sink: inout DotRingSink) {
    for p in f.parts {
      let a = Int(f.offsets[Int(p)])
      let b = Int(f.offsets[Int(p) + 1])
      guard a < b else { continue }
      addFillRing(f.points, a..<b, m, &sink)
    }
  }

  /// `addRun` for a fill's ring (no cut, no dashes, the last vertex not kept): the same moves
  /// and lines, without the work for cuts and dashes on each vertex. The points kept go
  /// straight to the fill's sink as edges (`DotRingSink.startRing`), as they are found: a
  /// vertex's edge and bounds cost a few instructions, not a store of the point and a second
  /// loop over the points with tests for points that are not finite (a point from a finite
  /// placement is finite; another placement takes `DotRingSink.addRing`'s way).
  @inline(never) func addFillRing(
    _ points: UnsafeBufferPointer<TilePoint>, _ range: Range<Int>, _ m: DotPlacement,
    _ sink: inout DotRingSink
  ) {
    guard !range.isEmpty else { return }
    guard m.keepsPointsFinite else {
      var kept = KeptRingPoints(count: range.count)
      fillRing(points, range, m, &kept)
      kept.points.withUnsafeBufferPointer { sink.addRing($0.baseAddress!, count: kept.count) }
      return
    }
    // `fillRing`'s loop, written out here with the writer in registers (a generic
    // `fillRing` handing the points to a writer was not inlined, and the writer's state went
    // through memory at each point).
    // (At most one point a vertex: a vertex held beyond an edge is handed on once, when a
    // later one comes. `FillRingTests` compares the edges with those of `fillRing`'s points.)
    let (scale, origin) = (SIMD2(m.sx, m.sy), SIMD2(m.ox, m.oy))
    let (low, high) = (SIMD2(m.x0, m.y0), SIMD2(m.x1, m.y1))
    @inline(__always) func dot(_ k: Int) -> SIMD2<Double> {
      let q = points[k]
      return origin + SIMD2(Double(q.x), Double(q.y)) * scale
    }
    var kept = dot(range.lowerBound)
    var w = sink.startRing(count: range.count, at: kept)
    var lastCode = Self.code(kept, low, high)
    var held = false
    var k = range.lowerBound &+ 1
    let end = range.upperBound
    while k < end {
      let p = dot(k)
      k &+= 1
      let d = p - kept
      let d2 = d * d
      if d2.x + d2.y < 0.25 { continue }
      let c = Self.code(p, low, high)
      if c & lastCode != 0 {
        kept = p
        held = true
        lastCode &= c
        continue
      }
      if held {
        w.point(kept)
        held = false
      }
      kept = p
      w.point(p)
      lastCode = c
    }
    if held { w.point(kept) }
    sink.finishRing(w)
  }

  /// `DotPlacement.code(p.x, p.y)` with the clip's corners `low` and `high` (the same bits: 1
  /// left of the clip, 2 right, 4 above, 8 below), from two comparisons of pairs.
  @inline(__always) static func code(
    _ p: SIMD2<Double>, _ low: SIMD2<Double>, _ high: SIMD2<Double>
  ) -> Int {
    // (A comparison's lanes are all ones or all zeros: Int64 −1 or 0.)
    let l = unsafeBitCast(p .< low, to: SIMD2<Int64>.self)
    let h = unsafeBitCast(p .> high, to: SIMD2<Int64>.self)
    let bits = (l & SIMD2(1, 4)) | (h & SIMD2(2, 8))
    return Int(truncatingIfNeeded: bits.x | bits.y)
  }

  /// `addFillRing` for any line sink: a move to the first point kept and lines to the others
  /// (what the tests compare with `addRun`).
  func addFillRing<Sink: DotLineSink>(
    _ points: UnsafeBufferPointer<TilePoint>, _ range: Range<Int>, _ m: DotPlacement,
    _ sink: inout Sink
  ) {
    guard !range.isEmpty else { return }
    var kept = KeptRingPoints(count: range.count)
    fillRing(points, range, m, &kept)
    sink.move(x: kept.points[0], y: kept.points[1], dashOffset: 0)
    for i in 1..<kept.count { sink.line(x: kept.points[2 * i], y: kept.points[2 * i + 1]) }
  }

  /// Where `fillRing` hands the points it keeps (x, y).
  protocol FillRingSink {
    mutating func point(_ p: SIMD2<Double>)
  }

  /// The points of a ring kept, in an array (x then y for each), the first included.
  struct KeptRingPoints: FillRingSink {
    var points: [Double]
    var count = 0
    init(count: Int) { points = Array(repeating: 0, count: 2 * count) }
    mutating func point(_ p: SIMD2<Double>) {
      points[2 * count] = p.x
      points[2 * count + 1] = p.y
      count += 1
    }
  }

  /// Hands `out` the points of a fill's ring (`range`, not empty) that `addRun` would keep
  /// (see it), the first (never left out) included.
  ///
  /// A point is a pair (x, y) in one register: its place in dots (`ox + x × sx` and
  /// `oy + y × sy`, the products and sums of `addRun`), its distance from the last point kept
  /// and its code (`DotPlacement.code`: the same bits, from two comparisons of pairs) are
  /// worked out for both coordinates at once. A run beyond one edge hands on its last point,
  /// which is the last point kept when the run ends (the point held is the one kept).
  private func fillRing<Out: FillRingSink>(
    _ points: UnsafeBufferPointer<TilePoint>, _ range: Range<Int>, _ m: DotPlacement,
    _ out: inout Out
  ) {
    let (scale, origin) = (SIMD2(m.sx, m.sy), SIMD2(m.ox, m.oy))
    let (low, high) = (SIMD2(m.x0, m.y0), SIMD2(m.x1, m.y1))
    @inline(__always) func dot(_ k: Int) -> SIMD2<Double> {
      let q = points[k]
      return origin + SIMD2(Double(q.x), Double(q.y)) * scale
    }
    var kept = dot(range.lowerBound)
    // (The first point is kept whatever its code: nothing is held before it.)
    out.point(kept)
    var lastCode = Self.code(kept, low, high)
    var held = false
    var k = range.lowerBound &+ 1
    let end = range.upperBound
    while k < end {
      let p = dot(k)
      k &+= 1
      let d = p - kept
      let d2 = d * d
      if d2.x + d2.y < 0.25 { continue }
      let c = Self.code(p, low, high)
      // (`code & lastCode` is not zero only when `code` is not.)
      if c & lastCode != 0 {
        // Still beyond the same edge: hold the point, the run's end is what matters.
        kept = p
        held = true
        lastCode &= c
        continue
      }
      if held {
        out.point(kept)
        held = false
      }
      kept = p
      out.point(p)
      lastCode = c
    }
    if held { out.point(kept) }
  }

  /// Adds one piece of a line or outline to the path (see `addRun`), skipping segments along
  /// cut edges (outlines). Its last vertex is kept (the next piece starts there).
  func addChunk<Sink: DotLineSink>(
    _ chunk: PreparedVectorTile.Chunk, _ points: UnsafeBufferPointer<TilePoint>,
    _ m: DotPlacement, cut: CutEdges, dashed: Bool, _ path: inout Sink
  ) {
    let a = Int(chunk.start)
    addRun(
      points, a..<(a + Int(chunk.count)), m, cut: chunk.outline ? cut : nil, dashed: dashed,
      lengthBefore: Double(chunk.lengthBefore), keepsLast: true, &path)
  }

  /// Adds the vertices `range` of `points` as one run, in two steps whose result inside the
  /// clip does not depend on where the clip is (a tile drawn whole or in part, or its
  /// neighbour, gives the same dots):
  ///
  /// 1. A vertex closer than half a dot to the last vertex kept is dropped (wherever it is),
  ///    except the run's first and, with `keepsLast`, its last.
  /// 2. Of the vertices kept, a run that lies beyond one edge of the clip (grown a little)
  ///    becomes its first and last vertex: the chord between them lies beyond that edge too,
  ///    so strokes inside the clip are unchanged, and the run and the chord form a loop wholly
  ///    outside, so the even-odd parity of a fill inside is unchanged.
  ///
  /// With `dashed`, a subpath starts at its distance along the kept line (from
  /// `lengthBefore`), and after a run made a chord the line resumes as a new subpath at its
  /// own distance, so dashes keep their place.
  ///
  /// A sink that may lift the pen beyond the clip (`DotLineSink.mayLiftBeyondClip`: solid
  /// strokes at most a dot wide each side) takes `addLiftingRun`'s way, the same dots with
  /// fewer segments.
  @inline(never) func addRun<Sink: DotLineSink>(
    _ points: UnsafeBufferPointer<TilePoint>, _ range: Range<Int>, _ m: DotPlacement,
    cut: CutEdges?, dashed: Bool, lengthBefore: Double, keepsLast: Bool,
    _ path: inout Sink
  ) {
    if !dashed && path.mayLiftBeyondClip {
      addLiftingRun(points, range, m, cut: cut, keepsLast: keepsLast, &path)
      return
    }
    let (a, b) = (range.lowerBound, range.upperBound)
    var started = false
    var penUp = false
    var lastCode = -1
    // The last vertex kept by step 1, in dots and in tile units.
    var keptX = 0.0
    var keptY = 0.0
    var keptU = 0.0
    var keptV = 0.0
    var prevU = 0.0
    var prevV = 0.0
    var pendingX = 0.0
    var pendingY = 0.0
    var pendingAlong = 0.0
    var pending = false
    // Distance along the kept line in tile units, for dashes.
    var along = lengthBefore
    let dotsPerUnit = abs(m.sx)
    // Adds the length from the last kept vertex to (u, v) to `along`.
    @inline(__always) func advance(_ u: Double, _ v: Double) {
      let du = u - keptU
      let dv = v - keptV
      along += (du * du + dv * dv).squareRoot()
    }
    @inline(__always) func emit(_ x: Double, _ y: Double, at distance: Double) {
      if started && !penUp {
        path.line(x: x, y: y)
      } else {
        path.move(x: x, y: y, dashOffset: distance * dotsPerUnit)
      }
      started = true
      penUp = false
    }
    for n in a..<b {
      let q = points[n]
      let u = Double(q.x)
      let v = Double(q.y)
      let x = m.ox + u * m.sx
      let y = m.oy + v * m.sy
      let code = m.code(x, y)
      if let cut, n > a, cut.isCut(prevU, prevV, u, v) {
        // Lift the pen: this segment is a cut, not an outline.
        if pending {
          emit(pendingX, pendingY, at: pendingAlong)
          pending = false
        }
        if dashed { advance(u, v) }
        penUp = true
        lastCode = code
        emit(x, y, at: along)
        (keptX, keptY, keptU, keptV) = (x, y, u, v)
        prevU = u
        prevV = v
        continue
      }
      prevU = u
      prevV = v
      if n > a {
        let dx = x - keptX
        let dy = y - keptY
        if dx * dx + dy * dy < 0.25 && !(keepsLast && n == b - 1) { continue }
        if dashed { advance(u, v) }
      }
      (keptX, keptY, keptU, keptV) = (x, y, u, v)
      if code != 0 && lastCode >= 0 && code & lastCode != 0 {
        // Still beyond the same edge: hold the point, the run's end is what matters.
        pendingX = x
        pendingY = y
        pendingAlong = along
        pending = true
        lastCode &= code
        continue
      }
      if pending {
        emit(pendingX, pendingY, at: pendingAlong)
        if dashed {
          // Dashes go on from the run's end at its own distance, not the chord's.
          penUp = true
          emit(pendingX, pendingY, at: pendingAlong)
        }
        pending = false
      }
      emit(x, y, at: along)
      lastCode = code
    }
    if pending { emit(pendingX, pendingY, at: pendingAlong) }
  }

  /// `addRun` for a sink that may lift the pen beyond the clip, solid: the same vertices kept
  /// (step 1), but no chords, and no segment whose ends both lie beyond one edge of the clip
  /// (grown a little) is handed over; the line goes on from the far end of the last one left
  /// out with a move when a segment next reaches the clip. Those segments and the chords ink
  /// no dot of the clip (their dots lie within a dot of the steps between their ends' dots,
  /// all beyond that edge), and a solid stroke's segments are independent, so the dots are
  /// `addRun`'s. A first vertex beyond the clip is held the same way (its dot alone would lie
  /// beyond it too). Cut segments of outlines lift the pen as in `addRun`.
  @inline(never) func addLiftingRun<Sink: DotLineSink>(
    _ points: UnsafeBufferPointer<TilePoint>, _ range: Range<Int>, _ m: DotPlacement,
    cut: CutEdges?, keepsLast: Bool, _ path: inout Sink
  ) {
    let (a, b) = (range.lowerBound, range.upperBound)
    // A subpath is open at the last vertex kept (else the pen is held there, lifted).
    var down = false
    // The clip code of the last vertex kept (−1, every bit, before the first).
    var lastCode = -1
    var keptX = 0.0
    var keptY = 0.0
    var prevU = 0.0
    var prevV = 0.0
    for n in a..<b {
      let q = points[n]
      let u = Double(q.x)
      let v = Double(q.y)
      let x = m.ox + u * m.sx
      let y = m.oy + v * m.sy
      let code = m.code(x, y)
      if let cut, n > a, cut.isCut(prevU, prevV, u, v) {
        // Lift the pen: this segment is a cut, not an outline.
        path.move(x: x, y: y, dashOffset: 0)
        down = true
        lastCode = code
        (keptX, keptY, prevU, prevV) = (x, y, u, v)
        continue
      }
      prevU = u
      prevV = v
      if n > a {
        let dx = x - keptX
        let dy = y - keptY
        if dx * dx + dy * dy < 0.25 && !(keepsLast && n == b - 1) { continue }
      }
      let (heldX, heldY) = (keptX, keptY)
      keptX = x
      keptY = y
      if code & lastCode != 0 {
        // Beyond an edge the last vertex kept lies beyond (or a first vertex beyond the
        // clip): left out, the pen held here.
        down = false
        lastCode = code
        continue
      }
      lastCode = code
      if down {
        path.line(x: x, y: y)
      } else if n > a {
        path.move(x: heldX, y: heldY, dashOffset: 0)
        path.line(x: x, y: y)
        down = true
      } else {
        path.move(x: x, y: y, dashOffset: 0)
        down = true
      }
    }
  }

  // MARK: Labels

  /// Names from the cached tiles that cover the viewport, as the style's symbol layers say
  /// (`StyleLabels`), in the renderer's `language`.
  public func labels(for viewport: Viewport) -> [MapLabel] {
    labels(for: viewport, from: documentLabels)
  }

  /// The labels of the drawn document's symbol layers in the renderer's `language`, compiled
  /// again when the language or the document (on detecting the schema) changes.
  var documentLabels: StyleLabels {
    let (plan, language) = state.withLock { ($0.plan, $0.style.language) }
    return documentLabelSet.withLock { set in
      if let s = set, s.labels.language == language, s.document === plan { return s.labels }
      let made = StyleLabels(document: plan.document, sourceID: plan.sourceID, language: language)
      set = (plan, made)
      return made
    }
  }

  /// The labels of the cached tiles that cover the viewport, each tile's from `tileLabels`,
  /// merged: each name once per layer, most important first. `styleKey` tells what made the
  /// labels apart in the memo (a style and its language).
  func mergedLabels(
    for viewport: Viewport, styleKey: String,
    tileLabels: (DecodedTile, TileOverlayPath, Double) -> TileLabels
  ) -> [MapLabel] {
    let zoom = ZoomMath.zoomLevel(forZoomScale: viewport.zoomScale)
    let tz = Self.tileZoom(forLevel: zoom)
    let visible = viewport.mapRect
    // The tiles that hold the names, with the shift of their copy of the world. A frame
    // covers a few tiles: each path is looked for among those taken so far (a set cost more,
    // its storage made and each path hashed every frame).
    var taken: [TileOverlayPath] = []
    var sources: [(tile: VectorTileContent, path: TileOverlayPath, shift: Double)] = []
    for shift in viewport.worldCopies {
      let r = visible.offsetBy(dx: -shift, dy: 0)
      let paths = TileOverlayPath.tiles(covering: r, zoom: tz)
      taken.reserveCapacity(taken.count + paths.count)
      sources.reserveCapacity(sources.count + paths.count)
      for path in paths {
        guard let t = bestCachedTile(for: path), !taken.contains(t.path) else { continue }
        taken.append(t.path)
        guard let v = t.content as? VectorTileContent else { continue }
        sources.append((v, t.path, shift))
      }
    }
    // A pan within the same tiles asks for the same names: the last answer is kept.
    let memoKey = LabelMemoKey(
      zoomBits: zoom.bitPattern, generation: contentGeneration, style: styleKey,
      tiles: sources.map {
        .init(path: $0.path, shiftBits: $0.shift.bitPattern, tile: $0.tile.styled)
      })
    if let memo = labelMemo.withLock({ $0 }), memo.key == memoKey { return memo.labels }
    // Each name once per layer: the most important feature of that name (so the result does
    // not depend on which tiles, exact or stand-ins, held it first). Keys are compared by
    // their hash, worked out once per tile, and the labels themselves (strings inside) are
    // copied once, into the answer.
    // Below zoom 0 (termmap's map zooms out past it in a small terminal; a style has no zoom
    // below 0) the labels are those of zoom 0, as a layer from zoom 0 is drawn there too.
    let labelZoom = max(zoom, 0)
    let perTile = sources.map { tileLabels($0.tile.tile, $0.path, labelZoom) }
    let total = perTile.reduce(0) { $0 + $1.names.count }
    var names = [LabelName: Int](minimumCapacity: total)
    // The winner of each name, as (tile, index in tile), and its priority.
    var winners: [(tile: Int32, index: Int32)] = []
    var priorities: [Double] = []
    winners.reserveCapacity(total)
    priorities.reserveCapacity(total)
    for (t, tile) in perTile.enumerated() {
      for n in tile.names.indices {
        let priority = tile.labels[n].priority
        let name = tile.names[n]
        if let i = names[name] {
          if priority > priorities[i] {
            winners[i] = (Int32(t), Int32(n))
            priorities[i] = priority
          }
        } else {
          names[name] = winners.count
          winners.append((Int32(t), Int32(n)))
          priorities.append(priority)
        }
      }
    }
    // Most important first (stably), the order the label placer takes them in.
    var order = Array(winners.indices)
    order.sort { a, b in
      priorities[a] != priorities[b] ? priorities[a] > priorities[b] : a < b
    }
    let shifts = sources.map(\.shift)
    var out: [MapLabel] = []
    out.reserveCapacity(order.count)
    for i in order {
      let (t, n) = winners[i]
      var label = perTile[Int(t)].labels[Int(n)]
      label.point.x += shifts[Int(t)]
      out.append(label)
    }
    labelMemo.withLock { $0 = (memoKey, out) }
    return out
  }

  /// A label's layer and name, hashed once (when its tile's labels are made): a frame merges
  /// the labels of every tile on screen by these.
  struct LabelName: Hashable {
    let text: String
    let hash: Int
    init(_ text: String) {
      self.text = text
      hash = text.hashValue
    }
    static func == (a: LabelName, b: LabelName) -> Bool { a.hash == b.hash && a.text == b.text }
    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
  }

  /// What `labels(for:)` answered last and for what: the zoom, the content, the style and
  /// the very tiles (decoded objects, so a tile that arrives in place of a stand-in counts).
  struct LabelMemoKey: Equatable {
    struct Source: Equatable {
      let path: TileOverlayPath
      let shiftBits: UInt64
      /// The decoded tile's own object (held, so its identity is not reused).
      let tile: StyledTileCache
      static func == (a: Source, b: Source) -> Bool {
        a.path == b.path && a.shiftBits == b.shiftBits && a.tile === b.tile
      }
    }
    let zoomBits: UInt64
    let generation: Int
    let style: String
    let tiles: [Source]
  }
  let labelMemo = Mutex<(key: LabelMemoKey, labels: [MapLabel])?>(nil)

  struct LabelKey: Hashable {
    let path: TileOverlayPath
    let zoomBits: UInt64
    let generation: Int
    let style: String
  }

  /// Label candidates of tiles at the current zoom (a pan asks for the same tiles again), by
  /// tile; all of another zoom go when the zoom changes.
  let labelCache = Mutex<[LabelKey: TileLabels]>([:])

  /// A tile's labels and their layer/name keys, side by side.
  struct TileLabels {
    var names: [LabelName] = []
    var labels: [MapLabel] = []
  }

  /// A tile's labels from the cache, else from `make` (then cached), by tile, zoom, content
  /// generation and `styleKey`.
  func cachedTileLabels(
    at path: TileOverlayPath, zoom: Double, styleKey: String, make: () -> TileLabels
  ) -> TileLabels {
    let key = LabelKey(
      path: path, zoomBits: zoom.bitPattern, generation: contentGeneration, style: styleKey)
    if let cached = labelCache.withLock({ $0[key] }) { return cached }
    let out = make()
    labelCache.withLock { cache in
      if cache.count > 256 || cache.keys.contains(where: { $0.zoomBits != key.zoomBits }) {
        cache.removeAll()
      }
      cache[key] = out
    }
    return out
  }

  /// Where a feature's label goes: the point, or a line's middle vertex.
  static func anchor(_ f: VectorFeature, _ t: TileTransform) -> MapPoint? {
    switch f.type {
    case .point:
      return f.allPoints.first.map(t.mapPoint)
    case .lineString:
      let longest = f.parts.max { $0.points.count < $1.points.count }
      guard let pts = longest?.points, !pts.isEmpty else { return nil }
      return t.mapPoint(pts[pts.startIndex + pts.count / 2])
    default:
      return nil
    }
  }
}
