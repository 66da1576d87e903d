import DotRaster
import MapGeometry
import Synchronization

/// A track that grows while it is shown: every fix is appended, and `add` returns the rect of
/// the new segment, so its renderer redraws just the tiles that segment touches (Apple's
/// Breadcrumb sample, `CrumbPath`). Its bounding rect is the world, since it must never
/// change; `contentBounds` is what the points cover.
///
/// The points and a bounding-box tree over them (as `PointRun`'s, grown in place) live behind
/// a mutex; drawing takes a snapshot, so appending on the main thread and drawing tiles on
/// others never meet.
public final class Breadcrumb: Overlay, DefaultRendering {
  let store = Mutex(GrowingRun())
  /// The track's title.
  public let title: String?
  /// Points closer than this to the last one (in metres) are not added.
  public let minimumDistance: Double

  /// An empty breadcrumb.
  public init(title: String? = "track", minimumDistance: Double = 0) {
    self.title = title
    self.minimumDistance = minimumDistance
  }

  /// The world: the track grows, and a bounding rect must never change.
  public var boundingMapRect: MapRect { .world }

  /// The rect the points cover (null while empty).
  public var contentBounds: MapRect { store.withLock { $0.bounds } }

  /// How many points the track holds.
  public var pointCount: Int { store.withLock { $0.points.count } }

  /// The points, in order (a copy).
  public var points: [MapPoint] { store.withLock { $0.points } }

  /// Whether the points' bounds meet a rect (edges included).
  public func intersects(_ mapRect: MapRect) -> Bool {
    let b = contentBounds
    guard !b.isNull, !mapRect.isNull else { return false }
    return b.minX <= mapRect.maxX && b.maxX >= mapRect.minX && b.minY <= mapRect.maxY
      && b.maxY >= mapRect.minY
  }

  /// Appends a coordinate; returns the map rect of the new segment (or of the lone point
  /// that starts a piece), or nil when the point was too close to the last one to be added.
  @discardableResult
  public func add(_ coordinate: Coordinate) -> MapRect? {
    let p = MapPoint(coordinate)
    let minimum = minimumDistance * Mercator.mapPointsPerMeter(atLatitude: coordinate.latitude)
    return store.withLock { $0.append(p, minimumDistance: minimum) }
  }

  /// The next point starts a new piece (no line to it from the last one): after a lost fix
  /// or a file that started again.
  public func startNewPiece() {
    store.withLock { $0.pendingBreak = true }
  }

  func snapshot() -> GrowingRun { store.withLock { $0 } }

  /// A `BreadcrumbRenderer`.
  public func makeDefaultRenderer() -> OverlayRenderer { BreadcrumbRenderer(breadcrumb: self) }
}

/// Strokes a breadcrumb; `invalidate(segment:)` redraws the tiles a new segment touches.
public final class BreadcrumbRenderer: OverlayPathRenderer, @unchecked Sendable {
  /// The zoom scale of the last frame, and whether tiles at other scales missed segments'
  /// spill into neighbouring tiles (they are redrawn when the scale changes).
  let scales = Mutex<(current: Double, staleElsewhere: Bool)>((0, false))

  /// A renderer stroking the breadcrumb in bright cyan, one dot wide.
  public init(breadcrumb: Breadcrumb) {
    super.init(overlay: breadcrumb)
    var s = PathStyle()
    s.strokeColor = .brightCyan
    s.lineWidth = 1
    styleBox.withLock { $0 = s }
  }

  /// Redraws the tiles a new segment (as `Breadcrumb.add` returned it) touches, with the
  /// stroke's reach at the current zoom.
  public func invalidate(segment rect: MapRect) {
    let scale = scales.withLock { s in
      s.staleElsewhere = true
      return s.current
    }
    let reach = scale > 0 ? style.tileMargin(zoomScale: scale) : 0
    setNeedsDisplay(rect.insetBy(dx: -reach, dy: -reach))
  }

  /// Notes the zoom scale; after appends, a new scale redraws the track's tiles once.
  public override func visibleAreaDidChange(
    _ visible: [MapRect], zoomScale: Double, focus: MapPoint
  ) {
    let redraw = scales.withLock { s -> Bool in
      defer { s.current = zoomScale }
      guard s.current != zoomScale, s.staleElsewhere else { return false }
      s.staleElsewhere = false
      return true
    }
    if redraw { setNeedsDisplay() }
  }

  /// Strokes the part of the track near the tile, pieces apart, from a snapshot of the points.
  public override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    guard let crumb = overlay as? Breadcrumb else { return }
    let s = style
    guard s.strokeColor != nil else { return }
    let run = crumb.snapshot()
    s.applyStroke(to: context, atZoomScale: zoomScale)
    let reach = s.tileMargin(zoomScale: zoomScale)
    let origin = overlay.boundingMapRect.origin
    run.walk(in: mapRect.insetBy(dx: -reach, dy: -reach), tolerance: 0.75 / zoomScale) {
      step in
      switch step {
      case .move(let p):
        context.move(to: Point2D(x: p.x - origin.x, y: p.y - origin.y))
      case .line(let p): context.addLine(to: Point2D(x: p.x - origin.x, y: p.y - origin.y))
      }
    }
    context.strokePath()
    // A lone point (a piece of one fix) is one dot.
    if run.points.count == 1, let p = run.points.first, mapRect.contains(p) {
      PathPainter(origin: origin).drawSpeck(p, style: s, context: context)
    }
  }
}

/// The points of a breadcrumb with a bounding-box tree grown as points arrive: leaves of
/// `PointRun.leafSize` segments, `PointRun.fanout` children per node, updated along one path
/// per append.
struct GrowingRun: Sendable {
  typealias Box = PointRun.Box
  var points: [MapPoint] = []
  /// Indices of points that start a new piece.
  var breaks: Set<Int> = []
  var pendingBreak = false
  /// Level 0: one box per leaf (segments [16k, 16k + 16]); the top level has one box.
  var levels: [[Box]] = []
  var bounds = MapRect.null

  mutating func append(_ p: MapPoint, minimumDistance: Double) -> MapRect? {
    guard p.x.isFinite, p.y.isFinite else { return nil }
    if let last = points.last, !pendingBreak, last.distance(to: p) <= minimumDistance,
      minimumDistance > 0 || last == p
    {
      return nil
    }
    let n = points.count
    points.append(p)
    bounds = bounds.union(MapRect(origin: p, size: MapSize(width: 0, height: 0)))
    if pendingBreak && n > 0 { breaks.insert(n) }
    pendingBreak = false
    guard n > 0 else { return MapRect(origin: p, size: MapSize(width: 0, height: 0)) }
    let a = points[n - 1]
    let box = Box(
      minX: min(a.x, p.x), minY: min(a.y, p.y), maxX: max(a.x, p.x), maxY: max(a.y, p.y))
    // The segment n-1 → n is in leaf (n-1) / leafSize.
    let leaf = (n - 1) / PointRun.leafSize
    if levels.isEmpty { levels.append([]) }
    if leaf == levels[0].count {
      levels[0].append(box)
    } else {
      levels[0][leaf] = levels[0][leaf].merged(box)
    }
    var index = leaf
    var level = 0
    while levels[level].count > 1 {
      if level + 1 == levels.count { levels.append([]) }
      let parent = index / PointRun.fanout
      let first = parent * PointRun.fanout
      var merged = levels[level][first]
      for k in (first + 1)..<min(first + PointRun.fanout, levels[level].count) {
        merged = merged.merged(levels[level][k])
      }
      if parent == levels[level + 1].count {
        levels[level + 1].append(merged)
      } else {
        levels[level + 1][parent] = merged
      }
      index = parent
      level += 1
    }
    if breaks.contains(n) { return MapRect(origin: p, size: MapSize(width: 0, height: 0)) }
    return MapRect(
      x: box.minX, y: box.minY, width: box.maxX - box.minX, height: box.maxY - box.minY)
  }

  /// The points needed to draw inside `rect`: subtrees outside it are skipped, subtrees
  /// smaller than `tolerance` become their chord.
  func walk(in rect: MapRect, tolerance: Double, _ emit: (PointRun.Step) -> Void) {
    guard !points.isEmpty, !levels.isEmpty else { return }
    let q = Box(minX: rect.minX, minY: rect.minY, maxX: rect.maxX, maxY: rect.maxY)
    var last = -1
    var penDown = false
    func point(_ i: Int) {
      if i == last { return }
      if penDown && breaks.contains(i) && last == i - 1 { penDown = false }
      emit(penDown ? .line(points[i]) : .move(points[i]))
      penDown = true
      last = i
    }
    func visit(_ level: Int, _ node: Int) {
      let box = levels[level][node]
      var width = PointRun.leafSize
      for _ in 0..<level { width *= PointRun.fanout }
      let a = node * width
      let b = min(a + width, points.count - 1)
      if box.outside(q) {
        penDown = false
        return
      }
      if box.smallerThan(tolerance) {
        point(a)
        point(b)
        return
      }
      if level == 0 {
        for i in a...b { point(i) }
        return
      }
      let first = node * PointRun.fanout
      for child in first..<min(first + PointRun.fanout, levels[level - 1].count) {
        visit(level - 1, child)
      }
    }
    visit(levels.count - 1, 0)
  }
}
