import Foundation

/// A drawing context in the spirit of CGContext, drawing dots onto a `DotCanvas`.
///
/// Paths are built in user space and mapped to dots by the current transform; strokes have a
/// width in user units (scaled by the transform), fills use the even-odd rule so inner rings are
/// holes, and everything is clipped to the clip rect. One context is used by one thread.
public final class DrawingContext {
  // Exclusivity: `canvas`, the path (`xs`, `ys`, `subpaths`), `fillScratch` and `pending` are read
  // and written without the runtime's check (`@exclusivity(unchecked)`), which cost a call per
  // access, about 75 instructions: 6,800 a frame for OpenFreeMap liberty at Helsinki z15 160 × 48,
  // 0.5 M instructions. It is safe because no two accesses to one of them can overlap. Only this
  // class's methods (here and in its extensions in this module) and a `FillOutlineBatch` (which
  // reads `pending` and calls `keptInk` between its draws) reach them, on the one thread that
  // uses the context (it is not `Sendable`), and no access spans a call that can come back to the
  // context: while one lasts, only the standard library (array growth and removal, `swap`),
  // `DotCanvas`'s, `FillScratch`'s and `PendingDraws`' own methods, or closures of this module that
  // use local values (the fill's row loop) run. Where code from outside gets the canvas
  // (`withCanvas(_:)`, `strokeDotLines`' sink, a `SmallShapeBatch`, a `FillOutlineBatch`), it is
  // moved out of the property first, and a drawing made through the context meanwhile finds an
  // empty canvas and draws nothing (every rasteriser cuts its clip to its canvas). The compiler
  // keeps the check for a class's property when any one access might overlap another (such as an
  // `append` that may call the array's growth); the other properties have none.

  /// The canvas drawn on; dots drawn in 24-bit colours (or on a canvas that has some) may
  /// hold pending inks until `settlePending()`: read it through `takeCanvas()` or
  /// `withCanvas(_:)`, which settle them.
  @exclusivity(unchecked) var canvas: DotCanvas
  /// The absolute dot position of the canvas's top-left dot, so fill patterns line up across
  /// separately drawn tiles.
  public let patternOrigin: (x: Int, y: Int)

  /// Ink layer of fills (strokes sit above them within one renderer's output).
  public static let fillLayer: UInt32 = 1
  /// Ink layer of strokes.
  public static let strokeLayer: UInt32 = 2
  /// Ink layer of marks drawn on top (points).
  public static let markLayer: UInt32 = 3

  struct State {
    var transform = Transform2D.identity
    var clip: DotRect
    var strokeColor: TermColor? = .white
    var fillColor: TermColor? = nil
    var lineWidth: Double = 1
    var dashPattern: [Double] = []
    var dashPhase: Double = 0
    var fillPattern = DotPattern.solid
  }

  var state: State
  var stack: [State] = []

  // The current path, in dot space.
  @exclusivity(unchecked) var xs: [Double] = []
  @exclusivity(unchecked) var ys: [Double] = []
  /// Each subpath's first point, whether it is closed, and how far into the dash pattern it
  /// starts (in dots).
  @exclusivity(unchecked) var subpaths: [DotPathBuilder.Subpath] = []
  /// Reused by fills (taken and handed back with nothing but the standard library and
  /// `FillScratch`'s own methods in between: two checks a fill were 0.04 M instructions a frame
  /// for liberty).
  @exclusivity(unchecked) var fillScratch = FillScratch()
  /// The draws waiting to be settled (`drawKeepingColor`).
  @exclusivity(unchecked) var pending = PendingDraws()
  /// An empty canvas swapped with `canvas` while a stroke lends the canvas out
  /// (`strokeDotLines`, `withStroker`): a swap of two properties costs no reference counting,
  /// where a copy of `Stroker.lentOut` per stroke cost three retains and three releases.
  @exclusivity(unchecked) var spareCanvas = Stroker.lentOut
  /// Whether `spareCanvas` holds the lent canvas (a stroke is drawing): a stroke begun
  /// meanwhile (from the lines' `body`) lends out the empty canvas it finds, as before.
  var spareHoldsCanvas = false
  /// Whether the canvas may hold a settled ink without a colour plane: true unless the owner
  /// says the canvas was blank when the context got it (a map tile's, `holdsNoInk()`), until
  /// a drawing inks dots in a palette colour (`keepsColor` says no), a mark is plotted, or
  /// the canvas is lent out (`withCanvas(_:)`, `withSmallShapes(_:)`). Drawings in 24-bit
  /// colours ink pending inks only, so a canvas handed out unsettled without this holds only
  /// pending inks (`PendingInks.plain`). (Written only by this class's methods, on the
  /// context's thread, with no access overlapping another: see "Exclusivity" above.)
  @exclusivity(unchecked) var mayHoldSettledInk = true
  /// The text drawn so far (`drawText`), in the order drawn.
  public internal(set) var textRuns: [TextRun] = []

  /// A context drawing into a canvas; fill patterns line up with `patternOrigin`, the canvas's
  /// place on a larger dot grid.
  public init(canvas: DotCanvas, patternOrigin: (x: Int, y: Int) = (0, 0)) {
    self.canvas = canvas
    self.patternOrigin = patternOrigin
    state = State(clip: DotRect(minX: 0, minY: 0, maxX: canvas.width, maxY: canvas.height))
  }

  deinit { fillScratch.ringEdges?.deallocate() }

  /// Lets a renderer set dots directly (a raster picture); it must keep to `clipBounds`.
  /// (Drawing through the context while `body` runs draws nothing: the canvas is lent out.)
  public func withCanvas<R>(_ body: (inout DotCanvas) throws -> R) rethrows -> R {
    settlePending()
    mayHoldSettledInk = true
    // Moved out while `body` runs (see "Exclusivity" above): no access to `canvas` lasts
    // while code from outside runs.
    var lent = Stroker.lentOut
    swap(&lent, &canvas)
    defer { swap(&lent, &canvas) }
    return try body(&lent)
  }

  /// Hands the canvas out (the context keeps drawing on its own copy).
  public func takeCanvas() -> DotCanvas {
    settlePending()
    return canvas
  }

  // MARK: State

  /// Pushes the graphics state (colours, width, dashes, clip, transform).
  public func saveGState() { stack.append(state) }
  /// Pops the graphics state saved last.
  public func restoreGState() {
    if let s = stack.popLast() { state = s }
  }

  /// The transform from user space to dots.
  public var transform: Transform2D {
    get { state.transform }
    set { state.transform = newValue }
  }
  /// Moves user space by `x`, `y` (in user units).
  public func translateBy(x: Double, y: Double) {
    state.transform = state.transform.translatedBy(x: x, y: y)
  }
  /// Scales user space.
  public func scaleBy(x: Double, y: Double) {
    state.transform = state.transform.scaledBy(x: x, y: y)
  }

  /// The colour strokes draw in (nil: strokes draw nothing).
  public var strokeColor: TermColor? {
    get { state.strokeColor }
    set { state.strokeColor = newValue }
  }
  /// The colour fills draw in (nil: fills draw nothing).
  public var fillColor: TermColor? {
    get { state.fillColor }
    set { state.fillColor = newValue }
  }
  /// The stroke width in user units (dots = width × the transform's scale).
  public var lineWidth: Double {
    get { state.lineWidth }
    set { state.lineWidth = max(newValue, 0) }
  }
  /// The dot texture fills are drawn with.
  public var fillPattern: DotPattern {
    get { state.fillPattern }
    set { state.fillPattern = newValue }
  }
  /// Sets the dash pattern, in user units; an empty pattern draws solid lines.
  public func setLineDash(phase: Double, lengths: [Double]) {
    state.dashPhase = phase
    state.dashPattern = lengths.allSatisfy { $0 >= 0 } && lengths.contains { $0 > 0 } ? lengths : []
  }
  /// The dash lengths in user units (empty: solid).
  public var lineDashPattern: [Double] { state.dashPattern }

  /// The clip rect in dots.
  public var clipBounds: DotRect { state.clip }

  /// Narrows the clip to a user-space rect (dots whose centres lie inside it).
  public func clip(to rect: Rect2D) {
    let a = state.transform.apply(Point2D(x: rect.x, y: rect.y))
    let b = state.transform.apply(Point2D(x: rect.maxX, y: rect.maxY))
    let r = DotRect(
      minX: Int((min(a.x, b.x) - 0.5).rounded(.up)), minY: Int((min(a.y, b.y) - 0.5).rounded(.up)),
      maxX: Int((max(a.x, b.x) - 0.5).rounded(.up)), maxY: Int((max(a.y, b.y) - 0.5).rounded(.up)))
    state.clip = state.clip.intersection(r)
  }

  /// The user-space rect that the clip covers (what is worth drawing).
  public var userClipRect: Rect2D {
    let t = state.transform
    let x0 = (Double(state.clip.minX) - t.translateX) / t.scaleX
    let x1 = (Double(state.clip.maxX) - t.translateX) / t.scaleX
    let y0 = (Double(state.clip.minY) - t.translateY) / t.scaleY
    let y1 = (Double(state.clip.maxY) - t.translateY) / t.scaleY
    return Rect2D(x: min(x0, x1), y: min(y0, y1), width: abs(x1 - x0), height: abs(y1 - y0))
  }

  // MARK: Paths

  /// Forgets the current path.
  public func beginPath() {
    xs.removeAll(keepingCapacity: true)
    ys.removeAll(keepingCapacity: true)
    subpaths.removeAll(keepingCapacity: true)
  }

  /// Whether the current path has no points.
  public var isPathEmpty: Bool { xs.isEmpty }

  /// Starts a new subpath at a point.
  public func move(to p: Point2D) {
    move(to: p, dashOffset: 0)
  }

  /// Starts a subpath whose dashes begin `dashOffset` user units into the pattern, as if that
  /// much line had been stroked before it, so a line drawn in pieces (one tile at a time, or
  /// resumed after a part that was skipped) keeps its dashes in step.
  public func move(to p: Point2D, dashOffset: Double) {
    let d = state.transform.apply(p)
    let offset = dashOffset.isFinite ? dashOffset * abs(state.transform.scaleX) : 0
    subpaths.append(.init(start: xs.count, closed: false, dashOffset: offset))
    xs.append(d.x)
    ys.append(d.y)
  }

  /// Adds a straight segment from the current point.
  public func addLine(to p: Point2D) {
    if subpaths.isEmpty {
      move(to: p)
      return
    }
    let d = state.transform.apply(p)
    xs.append(d.x)
    ys.append(d.y)
  }

  /// Adds a polyline: a move to the first point and lines to the rest.
  public func addLines(between points: [Point2D]) {
    guard let first = points.first else { return }
    move(to: first)
    for p in points.dropFirst() { addLine(to: p) }
  }

  /// Closes the current subpath back to its first point.
  public func closePath() {
    if let last = subpaths.indices.last { subpaths[last].closed = true }
  }

  /// Adds to the current path in dot space (no transform), through a builder that is a plain
  /// value while `body` runs: renderers that emit many vertices (vector tiles) pay no per-vertex
  /// call into the context.
  public func withDotPath<R>(_ body: (inout DotPathBuilder) throws -> R) rethrows -> R {
    // Room for a map feature's points from the first path on: a context is made per map
    // tile, and its arrays grew by doubling in every tile (liberty at Helsinki z15 160 × 48:
    // 450 new buffers a frame, each copied).
    if xs.capacity < Self.pathCapacity {
      xs.reserveCapacity(Self.pathCapacity)
      ys.reserveCapacity(Self.pathCapacity)
    }
    var builder = DotPathBuilder()
    swap(&builder.xs, &xs)
    swap(&builder.ys, &ys)
    swap(&builder.subpaths, &subpaths)
    defer {
      swap(&builder.xs, &xs)
      swap(&builder.ys, &ys)
      swap(&builder.subpaths, &subpaths)
    }
    return try body(&builder)
  }

  /// The points a path has room for from the first `withDotPath(_:)` on.
  static let pathCapacity = 512

  /// Adds a rectangle as a closed subpath.
  public func addRect(_ r: Rect2D) {
    move(to: Point2D(x: r.x, y: r.y))
    addLine(to: Point2D(x: r.maxX, y: r.y))
    addLine(to: Point2D(x: r.maxX, y: r.maxY))
    addLine(to: Point2D(x: r.x, y: r.maxY))
    closePath()
  }

  /// Adds an ellipse inscribed in a rect, as a closed polygon fine enough for dots.
  public func addEllipse(in r: Rect2D) {
    let cx = r.x + r.width / 2
    let cy = r.y + r.height / 2
    let radiusDots =
      max(abs(r.width * state.transform.scaleX), abs(r.height * state.transform.scaleY)) / 2
    let steps = min(max(Int(radiusDots * 2), 12), 720)
    for i in 0..<steps {
      let a = Double(i) / Double(steps) * 2 * .pi
      let p = Point2D(x: cx + r.width / 2 * sin(a), y: cy - r.height / 2 * cos(a))
      if i == 0 { move(to: p) } else { addLine(to: p) }
    }
    closePath()
  }

  // MARK: Painting

  /// Fills the current path (even-odd) and clears it.
  public func fillPath() {
    if let color = state.fillColor { fillCurrentPath(color) }
    beginPath()
  }

  /// Strokes the current path and clears it.
  public func strokePath() {
    if let color = state.strokeColor { strokeCurrentPath(color) }
    beginPath()
  }

  /// Fills, then strokes, the current path (as a polygon renderer draws), and clears it.
  public func fillAndStrokePath() {
    if let color = state.fillColor { fillCurrentPath(color) }
    if let color = state.strokeColor { strokeCurrentPath(color) }
    beginPath()
  }

  /// Inks the single dot under a user-space point with the stroke colour on the mark layer.
  public func plot(_ p: Point2D, color: TermColor? = nil) {
    guard let c = color ?? state.strokeColor else { return }
    let d = state.transform.apply(p)
    let x = Int(d.x.rounded(.down))
    let y = Int(d.y.rounded(.down))
    let clip = state.clip
    if x >= clip.minX && x < clip.maxX && y >= clip.minY && y < clip.maxY {
      mayHoldSettledInk = true
      if keepsColor(c) {
        canvas.plot(x: x, y: y, layer: Self.markLayer, color: c)
      } else {
        canvas[x, y] = Ink(layer: Self.markLayer, color: c)
      }
    }
  }

  // MARK: 24-bit colours

  /// The ink a fill or stroke that keeps its colour draws when it settles nothing (its area
  /// misses the canvas): layer 0xFFFFFF, which no drawing uses.
  static let pendingInk = Ink(raw: 0xFFFF_FFFF)

  /// The first of the inks fills and strokes that keep their colour draw with
  /// (`drawKeepingColor`): `pendingRaw(ink:index:)` stands for `pending[k]` until the dots
  /// are settled. Layers from 0x800000 up, which no drawing uses.
  static let pendingBase: UInt32 = 0x8000_0000
  /// Where the pending inks end: `pendingInk` and the small-shape batches' inks lie above.
  static let pendingEnd: UInt32 = 0xFFFF_F000
  /// How many low bits of a pending ink hold its draw's index.
  static let pendingIndexBits: UInt32 = 12
  /// How many draws wait to be settled at most (then they are settled at once).
  static let pendingCapacity = 1 << pendingIndexBits

  /// The pending ink of draw `k`, drawn in `ink` (below 0x7FFFF: layers below 0x7FF): bit 31,
  /// the ink in bits 12–30 and k in bits 0–11. Two pending inks compare as the inks they
  /// stand for, and draws of one ink by their index, so the cells of a canvas of pending inks
  /// find their top ink without looking each dot's up (`CellCanvas.sumPendingCells`).
  @inline(__always) static func pendingRaw(ink: UInt32, index k: Int) -> UInt32 {
    pendingBase | ink << pendingIndexBits | UInt32(truncatingIfNeeded: k)
  }

  /// The index of the draw that `raw` is the pending ink of, among `count` draws: nil when it is
  /// not one (a settled ink, `pendingInk`, or an index past them).
  @inline(__always) static func pendingIndex(_ raw: UInt32, count: UInt32) -> Int? {
    let k = raw & (1 << pendingIndexBits - 1)
    return raw >= pendingBase && raw < pendingEnd && k < count ? Int(k) : nil
  }

  /// Whether drawing in `color` goes through the canvas's colour plane: a 24-bit colour is kept
  /// there, and once the canvas has one, a palette colour drawn over a dot takes the dot's
  /// entry away (the upper drawing's colour wins). Palette colours on a canvas without 24-bit
  /// colours are drawn as they always were, at no cost.
  @inline(__always) func keepsColor(_ color: TermColor) -> Bool {
    if color.isTrueColor || canvas.hasTrueColor || pending.hasColor { return true }
    mayHoldSettledInk = true
    return false
  }

  /// Says that the canvas holds no ink yet (a map tile's, taken blank from its pool), so that
  /// a canvas drawn in 24-bit colours alone is handed out as holding pending inks only
  /// (`mayHoldSettledInk`).
  package func holdsNoInk() { mayHoldSettledInk = false }

  /// Draws `draw`'s dots with an ink of their own, which the dots within `area` (and the clip)
  /// still hold when `settlePending()` comes exchange for the ink of `color` on `layer`, and
  /// the colour plane `color` (see `DotCanvas.settlePending`). A map tile's fills and strokes
  /// are settled together, in one pass over the dots they reach, when the tile is handed out
  /// (`takeCanvas()`): settling each at once scanned each one's area, and a map tile's line
  /// layers each reach most of it. The dots come out as settling each at once gives them.
  func drawKeepingColor(
    _ color: TermColor, layer: UInt32, in area: DotRect, _ draw: (Ink) -> Void
  ) {
    draw(keptInk(color, layer: layer, in: area))
  }

  /// The ink `drawKeepingColor` draws with (its pending draw added first): for a caller that
  /// draws with it at once, without a closure.
  func keptInk(_ color: TermColor, layer: UInt32, in area: DotRect) -> Ink {
    // (The clip lies in the canvas.)
    let a = area.intersection(state.clip)
    guard !a.isEmpty else { return Self.pendingInk }
    let ink = Ink(layer: layer, color: color)
    precondition(ink.raw < 0x7_FFFF, "a pending ink holds layers below 0x7FF")
    let entry = color.isTrueColor ? UInt64(ink.raw) << 32 | UInt64(color.raw) : 0
    // (One access to the context's pending draws: each is a call to the runtime's
    // exclusivity check.)
    guard let k = pending.add(ink: ink.raw, entry: entry, area: a) else {
      settlePending()
      return keptInk(color, layer: layer, in: area)
    }
    return Ink(raw: Self.pendingRaw(ink: ink.raw, index: k))
  }

  /// Gives the dots drawn with pending inks (`drawKeepingColor`) their inks and colours.
  func settlePending() {
    guard !pending.entries.isEmpty else { return }
    var draws = PendingDraws()
    swap(&draws, &pending)
    // (The plane is made here, not when a draw in a 24-bit colour is added: a tile handed out
    // unsettled, `takeCanvasUnsettled()`, needs none.)
    if draws.hasColor { canvas.makePlane() }
    draws.entries.withUnsafeBufferPointer {
      canvas.settlePending($0, in: draws.area)
    }
    draws.entries.removeAll(keepingCapacity: true)
    draws.area = DotRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
    draws.hasColor = false
    swap(&draws, &pending)
  }

  /// Hands the canvas out without settling its pending draws, with what they stand for: the
  /// canvas `PendingInks.settle(_:)` makes of it is the one `takeCanvas()` gives (when every
  /// dot a draw inked lies in the area it was drawn for), and `CellCanvas(_:pending:within:)`
  /// sums it up into the cells of that canvas without settling it. For a map tile, whose dots
  /// are seldom read once its cells are made: settling scanned each tile's drawn area, and
  /// the cells are summed from the same dots anyway. The context keeps an empty canvas: it
  /// draws nothing afterwards.
  package func takeCanvasUnsettled() -> (canvas: DotCanvas, pending: PendingInks) {
    var out = Stroker.lentOut
    swap(&out, &canvas)
    var draws = PendingDraws()
    swap(&draws, &pending)
    return (
      out,
      PendingInks(entries: draws.entries, hasColor: draws.hasColor, plain: !mayHoldSettledInk)
    )
  }

  /// The dots of the clip that the current path's points, grown by `margin` dots, reach (the
  /// whole clip when a point is not finite).
  func pathArea(margin: Double) -> DotRect {
    var (x0, y0) = (Double.infinity, Double.infinity)
    var (x1, y1) = (-Double.infinity, -Double.infinity)
    for i in xs.indices {
      x0 = min(x0, xs[i])
      x1 = max(x1, xs[i])
      y0 = min(y0, ys[i])
      y1 = max(y1, ys[i])
    }
    return dotArea(x0, y0, x1, y1, margin: margin)
  }

  /// The dots of the clip within `margin` dots of the box from (x0, y0) to (x1, y1), in dot
  /// space (the whole clip when an edge is not finite).
  func dotArea(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, margin: Double) -> DotRect {
    let clip = state.clip
    guard x0.isFinite && y0.isFinite && x1.isFinite && y1.isFinite && margin.isFinite else {
      return clip
    }
    // (Limited to just beyond the clip before the conversion: no overflow, and small enough
    // for `floorToIntNear`, which makes no call to libm's `floor`.)
    @inline(__always) func dot(_ v: Double, _ lo: Int, _ hi: Int) -> Int {
      floorToIntNear(min(max(v, Double(lo) - 1), Double(hi) + 1))
    }
    return DotRect(
      minX: dot(x0 - margin, clip.minX, clip.maxX), minY: dot(y0 - margin, clip.minY, clip.maxY),
      maxX: dot(x1 + margin, clip.minX, clip.maxX) + 1,
      maxY: dot(y1 + margin, clip.minY, clip.maxY) + 1
    ).intersection(clip)
  }

  /// How far beyond its centre line a stroke of the current width inks, in dots, with one more
  /// for rounding.
  var strokeMargin: Double { lineWidthInDots / 2 + 2 }

  /// Fills the current path in `color` on the fill layer.
  func fillCurrentPath(_ color: TermColor) {
    if keepsColor(color) {
      drawKeepingColor(color, layer: Self.fillLayer, in: pathArea(margin: 2)) {
        fillEvenOdd(ink: $0)
      }
    } else {
      fillEvenOdd(ink: Ink(layer: Self.fillLayer, color: color))
    }
  }

  /// Strokes the current path in `color` on the stroke layer.
  func strokeCurrentPath(_ color: TermColor) {
    if keepsColor(color) {
      drawKeepingColor(color, layer: Self.strokeLayer, in: pathArea(margin: strokeMargin)) {
        strokeCurrentPath(ink: $0)
      }
    } else {
      strokeCurrentPath(ink: Ink(layer: Self.strokeLayer, color: color))
    }
  }

  /// The stroke width in dots.
  public var lineWidthInDots: Double { state.lineWidth * abs(state.transform.scaleX) }
}

/// Fills and strokes drawn with pending inks (`DrawingContext.drawKeepingColor`): the ink and
/// colour-plane entry that the pending ink of index k (`DrawingContext.pendingRaw(ink:index:)`)
/// stands for, and the dots where pending inks may lie.
struct PendingDraws {
  var entries: [(ink: UInt32, entry: UInt64)] = []
  var area = DotRect(minX: 0, minY: 0, maxX: 0, maxY: 0)
  /// Whether an entry has a 24-bit colour (then the canvas gets a colour plane when they are
  /// settled, and until then every draw on it keeps its colour: `keepsColor`).
  var hasColor = false

  /// The index of the pending ink for a draw of `ink` and `entry` in `a`: that of one of the
  /// last few draws when it had the same (a building's fill and outline, building after
  /// building), else a new one; nil when `DrawingContext.pendingCapacity` are waiting.
  mutating func add(ink: UInt32, entry: UInt64, area a: DotRect) -> Int? {
    let count = entries.count
    var k = count
    // The last of the last four that matches (a loop down, not `suffix(4)`'s slice).
    var j = count
    let stop = count > 4 ? count &- 4 : 0
    while j > stop {
      j &-= 1
      if entries[j].ink == ink && entries[j].entry == entry {
        k = j
        break
      }
    }
    if k == count {
      guard k < DrawingContext.pendingCapacity else { return nil }
      // (Room for a map tile's draws at once: a context is made per map tile, and its
      // entries grew by doubling in each, about four new buffers a tile.)
      if k == 0 && entries.capacity < 32 { entries.reserveCapacity(32) }
      entries.append((ink, entry))
      if entry != 0 { hasColor = true }
    }
    area = area.union(a)
    return k
  }
}

/// The draws a canvas handed out by `DrawingContext.takeCanvasUnsettled()` still holds as
/// pending inks: the pending ink of index k (`DrawingContext.pendingIndex(_:count:)`) stands
/// for ink `entries[k].ink` and colour-plane entry `entries[k].entry` (0 for a palette colour).
package struct PendingInks: Sendable {
  let entries: [(ink: UInt32, entry: UInt64)]
  /// Whether an entry has a 24-bit colour.
  let hasColor: Bool
  /// Whether every inked dot of the canvas holds a pending ink (or `DrawingContext.pendingInk`),
  /// none a settled one (`DrawingContext.mayHoldSettledInk`).
  let plain: Bool

  /// No pending draws.
  package init() {
    entries = []
    hasColor = false
    plain = false
  }

  init(entries: [(ink: UInt32, entry: UInt64)], hasColor: Bool, plain: Bool) {
    self.entries = entries
    self.hasColor = hasColor
    self.plain = plain
  }

  /// Whether there are none.
  package var isEmpty: Bool { entries.isEmpty }

  /// Gives every dot of `canvas` that holds one of these pending inks its ink and colour, as
  /// `DrawingContext.takeCanvas()` does with the dots in the areas drawn.
  package func settle(_ canvas: inout DotCanvas) {
    guard !entries.isEmpty else { return }
    if hasColor { canvas.makePlane() }
    entries.withUnsafeBufferPointer {
      canvas.settlePending(
        $0, in: DotRect(minX: 0, minY: 0, maxX: canvas.width, maxY: canvas.height))
    }
  }
}
