import MapGeometry

/// A run of map points with a hierarchical bounding-box index, so drawing one map-rect tile
/// costs what is visible in it, not what is loaded.
///
/// Leaves are chunks of `leafSize` consecutive segments; each level groups `fanout` nodes of the
/// level below. A node whose box is smaller than the drawing tolerance is replaced by the chord
/// from its first to its last point (level of detail); a node wholly outside the query rect is
/// skipped (for strokes) or replaced by its chord (for fills, where a chain and its chord form a
/// loop wholly outside the rect and so leave the even-odd parity inside it unchanged).
public struct PointRun: Sendable {
  /// The points, in order.
  public let points: [MapPoint]
  /// Boxes per level, level 0 being the leaves; stored as minX, minY, maxX, maxY.
  let levels: [[Box]]
  /// The smallest rect holding every point.
  public let bounds: MapRect
  /// The length of the run up to the first point of each leaf, in map points (for dashes).
  let leafDistances: [Double]

  static let leafSize = 16
  static let fanout = 8

  struct Box: Sendable {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    @inline(__always) func outside(_ r: Box) -> Bool {
      maxX < r.minX || minX > r.maxX || maxY < r.minY || minY > r.maxY
    }
    @inline(__always) func smallerThan(_ t: Double) -> Bool {
      maxX - minX < t && maxY - minY < t
    }
    /// The levels of a bounding-box tree: `leaves`, then boxes of `fanout` boxes each, up to
    /// one root box.
    static func levels(above leaves: [Box], fanout: Int) -> [[Box]] {
      var all = [leaves]
      while all.last!.count > 1 {
        let below = all.last!
        var level: [Box] = []
        level.reserveCapacity((below.count + fanout - 1) / fanout)
        var i = 0
        while i < below.count {
          var box = below[i]
          for j in (i + 1)..<min(i + fanout, below.count) { box = box.merged(below[j]) }
          level.append(box)
          i += fanout
        }
        all.append(level)
      }
      return all
    }

    func merged(_ o: Box) -> Box {
      Box(
        minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX),
        maxY: max(maxY, o.maxY))
    }
  }

  /// A run of points with its index of bounding boxes.
  public init(_ points: [MapPoint]) {
    self.points = points
    bounds = MapRect(bounding: points)
    guard points.count > Self.leafSize else {
      levels = []
      leafDistances = []
      return
    }
    // Leaf k covers points [k·leafSize, (k+1)·leafSize] (sharing its last point with the next).
    let segments = points.count - 1
    let leafCount = (segments + Self.leafSize - 1) / Self.leafSize
    var leaves: [Box] = []
    leaves.reserveCapacity(leafCount)
    var distances: [Double] = []
    distances.reserveCapacity(leafCount)
    points.withUnsafeBufferPointer { p in
      var length = 0.0
      for k in 0..<leafCount {
        let a = k * Self.leafSize
        let b = min(a + Self.leafSize, points.count - 1)
        var box = Box(minX: p[a].x, minY: p[a].y, maxX: p[a].x, maxY: p[a].y)
        distances.append(length)
        for i in (a + 1)...b {
          let q = p[i]
          if q.x < box.minX { box.minX = q.x }
          if q.x > box.maxX { box.maxX = q.x }
          if q.y < box.minY { box.minY = q.y }
          if q.y > box.maxY { box.maxY = q.y }
          length +=
            ((q.x - p[i - 1].x) * (q.x - p[i - 1].x) + (q.y - p[i - 1].y) * (q.y - p[i - 1].y))
            .squareRoot()
        }
        leaves.append(box)
      }
    }
    leafDistances = distances
    let leafLevel = leaves
    levels = Box.levels(above: leafLevel, fanout: Self.fanout)
  }

  /// How many points the run has.
  public var count: Int { points.count }

  /// The length of the run from its first point to point `index`, in map points.
  public func distance(toIndex index: Int) -> Double {
    guard index > 0, !points.isEmpty else { return 0 }
    let end = min(index, points.count - 1)
    var k = 0
    var d = 0.0
    if !leafDistances.isEmpty {
      let leaf = min(end / Self.leafSize, leafDistances.count - 1)
      k = leaf * Self.leafSize
      d = leafDistances[leaf]
    }
    while k < end {
      let a = points[k]
      let b = points[k + 1]
      d += ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
      k += 1
    }
    return d
  }

  /// Bytes held by the index beyond the points themselves.
  public var indexBytes: Int { levels.reduce(0) { $0 + $1.count * MemoryLayout<Box>.stride } }

  /// What a walk over the run reports.
  public enum Step {
    /// Start a new piece at this point (pen up before it).
    case move(MapPoint)
    /// Continue the piece to this point.
    case line(MapPoint)
  }

  /// Walks the points needed to draw the run inside `rect` with `tolerance` map points of detail.
  /// With `closedForFill`, parts outside the rect are kept as chords so the ring stays closed.
  public func walk(
    in rect: MapRect, tolerance: Double, closedForFill: Bool, _ emit: (Step) -> Void
  ) {
    walkWithIndices(in: rect, tolerance: tolerance, closedForFill: closedForFill) { step, _ in
      emit(step)
    }
  }

  /// The same walk, with the index in `points` of each point reported.
  func walkWithIndices(
    in rect: MapRect, tolerance: Double, closedForFill: Bool, _ emit: (Step, Int) -> Void
  ) {
    guard !points.isEmpty else { return }
    withoutActuallyEscaping(emit) { emit in
      walkIndexed(in: rect, tolerance: tolerance, closedForFill: closedForFill, emit)
    }
  }

  private func walkIndexed(
    in rect: MapRect, tolerance: Double, closedForFill: Bool, _ emit: @escaping (Step, Int) -> Void
  ) {
    let q = Box(minX: rect.minX, minY: rect.minY, maxX: rect.maxX, maxY: rect.maxY)
    var walker = Walker(emit: emit)
    if levels.isEmpty {
      let box = Box(minX: bounds.minX, minY: bounds.minY, maxX: bounds.maxX, maxY: bounds.maxY)
      if box.outside(q) && !closedForFill { return }
      points.withUnsafeBufferPointer { p in
        for i in 0..<p.count { walker.point(i, p[i]) }
      }
      return
    }
    points.withUnsafeBufferPointer { p in
      let top = levels.count - 1
      for k in 0..<levels[top].count {
        visit(level: top, node: k, query: q, tolerance: tolerance, fill: closedForFill, p, &walker)
      }
    }
  }

  /// The first and last point indices a node covers.
  @inline(__always) func span(level: Int, node: Int) -> (Int, Int) {
    var width = Self.leafSize
    for _ in 0..<level { width *= Self.fanout }
    let a = node * width
    return (a, min(a + width, points.count - 1))
  }

  private func visit(
    level: Int, node: Int, query: Box, tolerance: Double, fill: Bool,
    _ p: UnsafeBufferPointer<MapPoint>, _ walker: inout Walker
  ) {
    let box = levels[level][node]
    let (a, b) = span(level: level, node: node)
    if box.outside(query) {
      if fill {
        walker.point(a, p[a])
        walker.point(b, p[b])
      } else {
        walker.breakPath()
      }
      return
    }
    if box.smallerThan(tolerance) {
      walker.point(a, p[a])
      walker.point(b, p[b])
      return
    }
    if level == 0 {
      for i in a...b { walker.point(i, p[i]) }
      return
    }
    let first = node * Self.fanout
    let last = min(first + Self.fanout, levels[level - 1].count)
    for child in first..<last {
      visit(
        level: level - 1, node: child, query: query, tolerance: tolerance, fill: fill, p, &walker)
    }
  }

  /// Turns point indices into moves and lines, dropping repeats of the same index.
  struct Walker {
    let emit: (Step, Int) -> Void
    var last = -1
    var penDown = false

    mutating func point(_ index: Int, _ p: MapPoint) {
      if index == last { return }
      emit(penDown ? .line(p) : .move(p), index)
      penDown = true
      last = index
    }

    mutating func breakPath() {
      penDown = false
    }
  }
}
