import MapGeometry

/// A static bounding-box tree over many shapes (sort-tile-recursive packing), so a tile draws
/// only the shapes it meets, and a cluster of shapes smaller than a dot costs one dot.
public struct ShapeIndex: Sendable {
  typealias Box = PointRun.Box

  /// Shape numbers in leaf order.
  let order: [Int32]
  /// Boxes per level (level 0 = leaves, each covering `leafSize` entries of `order`).
  let levels: [[Box]]
  /// The rect holding every shape.
  public let bounds: MapRect
  /// The shapes' boxes in leaf order (`leafBoxes[j]` is shape `order[j]`'s), so a leaf's
  /// shapes are read from consecutive memory.
  let leafBoxes: [Box]

  static let leafSize = 16
  static let fanout = 8

  /// An index over shapes' bounding rects (shape n is `rects[n]`).
  public init(bounds rects: [MapRect]) {
    let boxes = rects.map { Box(minX: $0.minX, minY: $0.minY, maxX: $0.maxX, maxY: $0.maxY) }
    bounds = rects.reduce(MapRect.null) { $0.union($1) }
    let n = rects.count
    guard n > 0 else {
      order = []
      levels = []
      leafBoxes = []
      return
    }
    // Sort-tile-recursive: slabs by centre x, then by centre y inside each slab.
    var idx = (0..<n).map { Int32($0) }
    idx.sort {
      boxes[Int($0)].minX + boxes[Int($0)].maxX < boxes[Int($1)].minX + boxes[Int($1)].maxX
    }
    let leaves = (n + Self.leafSize - 1) / Self.leafSize
    let slabs = max(1, Int(Double(leaves).squareRoot().rounded(.up)))
    let perSlab = slabs * Self.leafSize
    var start = 0
    while start < n {
      let end = min(start + perSlab, n)
      idx[start..<end].sort {
        boxes[Int($0)].minY + boxes[Int($0)].maxY < boxes[Int($1)].minY + boxes[Int($1)].maxY
      }
      start = end
    }
    order = idx
    leafBoxes = idx.map { boxes[Int($0)] }
    var leafLevel: [Box] = []
    leafLevel.reserveCapacity(leaves)
    for k in 0..<leaves {
      var box = leafBoxes[k * Self.leafSize]
      for j in (k * Self.leafSize)..<min((k + 1) * Self.leafSize, n) {
        box = box.merged(leafBoxes[j])
      }
      leafLevel.append(box)
    }
    levels = Box.levels(above: leafLevel, fanout: Self.fanout)
  }

  /// Calls `shape` for every shape whose box meets `rect`, except where a whole group of shapes
  /// is smaller than `tolerance`: then `speck` gets the group's centre once instead.
  public func query(
    _ rect: MapRect, tolerance: Double, shape: (Int) -> Void, speck: (MapPoint) -> Void
  ) {
    queryInLeafOrder(rect, tolerance: tolerance, shape: { s, _ in shape(s) }, speck: speck)
  }

  /// `query`, giving each shape with its place in leaf order (for data kept in that order,
  /// read from consecutive memory as the walk goes).
  func queryInLeafOrder(
    _ rect: MapRect, tolerance: Double, shape: (_ shape: Int, _ position: Int) -> Void,
    speck: (MapPoint) -> Void
  ) {
    guard !levels.isEmpty else { return }
    let q = Box(minX: rect.minX, minY: rect.minY, maxX: rect.maxX, maxY: rect.maxY)
    let top = levels.count - 1
    for k in 0..<levels[top].count {
      visit(level: top, node: k, q, tolerance, shape, speck)
    }
  }

  private func visit(
    level: Int, node: Int, _ q: Box, _ tolerance: Double, _ shape: (Int, Int) -> Void,
    _ speck: (MapPoint) -> Void
  ) {
    let box = levels[level][node]
    if box.outside(q) { return }
    if box.smallerThan(tolerance) {
      speck(MapPoint(x: (box.minX + box.maxX) / 2, y: (box.minY + box.maxY) / 2))
      return
    }
    if level == 0 {
      let a = node * Self.leafSize
      for j in a..<min(a + Self.leafSize, order.count) {
        let b = leafBoxes[j]
        if b.outside(q) { continue }
        if b.smallerThan(tolerance) {
          speck(MapPoint(x: (b.minX + b.maxX) / 2, y: (b.minY + b.maxY) / 2))
        } else {
          shape(Int(order[j]), j)
        }
      }
      return
    }
    let first = node * Self.fanout
    for child in first..<min(first + Self.fanout, levels[level - 1].count) {
      visit(level: level - 1, node: child, q, tolerance, shape, speck)
    }
  }
}
