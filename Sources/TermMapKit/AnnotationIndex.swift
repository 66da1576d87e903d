import MapGeometry

/// A point quadtree over annotations. A query at a resolution reports one member of every node
/// smaller than that resolution, with the node's count, so the work of a frame follows the
/// number of cells on screen, not the number of annotations.
final class AnnotationIndex {
  struct Entry {
    let point: MapPoint
    let annotation: any Annotation
    var id: ObjectIdentifier { ObjectIdentifier(annotation) }
  }

  final class Node {
    let rect: MapRect
    var entries: [Entry] = []
    var children: [Node]? = nil
    var count = 0
    init(rect: MapRect) { self.rect = rect }
  }

  static let capacity = 32
  private(set) var root = Node(rect: .world)
  private(set) var points: [ObjectIdentifier: MapPoint] = [:]

  var count: Int { root.count }

  func insert(_ a: any Annotation) {
    let id = ObjectIdentifier(a)
    if points[id] != nil { return }
    let p = Self.clamped(MapPoint(a.coordinate))
    points[id] = p
    insert(Entry(point: p, annotation: a), into: root)
  }

  @discardableResult
  func remove(_ a: any Annotation) -> Bool {
    let id = ObjectIdentifier(a)
    guard let p = points.removeValue(forKey: id) else { return false }
    return remove(id, at: p, from: root)
  }

  func contains(_ a: any Annotation) -> Bool { points[ObjectIdentifier(a)] != nil }

  func point(of a: any Annotation) -> MapPoint? { points[ObjectIdentifier(a)] }

  static func clamped(_ p: MapPoint) -> MapPoint {
    let w = MapSize.world.width
    var x = p.x.truncatingRemainder(dividingBy: w)
    if x < 0 { x += w }
    return MapPoint(x: x, y: min(max(p.y, 0), w.nextDown))
  }

  private func insert(_ e: Entry, into node: Node) {
    var n = node
    while true {
      n.count += 1
      if let children = n.children {
        n = children[childIndex(n, e.point)]
        continue
      }
      n.entries.append(e)
      if n.entries.count > Self.capacity && n.rect.width > 1 { split(n) }
      return
    }
  }

  private func childIndex(_ n: Node, _ p: MapPoint) -> Int {
    (p.x >= n.rect.midX ? 1 : 0) + (p.y >= n.rect.midY ? 2 : 0)
  }

  private func split(_ n: Node) {
    let r = n.rect
    let hw = r.width / 2
    let hh = r.height / 2
    n.children = [
      Node(rect: MapRect(x: r.minX, y: r.minY, width: hw, height: hh)),
      Node(rect: MapRect(x: r.minX + hw, y: r.minY, width: hw, height: hh)),
      Node(rect: MapRect(x: r.minX, y: r.minY + hh, width: hw, height: hh)),
      Node(rect: MapRect(x: r.minX + hw, y: r.minY + hh, width: hw, height: hh)),
    ]
    let moving = n.entries
    n.entries = []
    for e in moving {
      let c = n.children![childIndex(n, e.point)]
      c.count += 1
      c.entries.append(e)
    }
    for c in n.children! where c.entries.count > Self.capacity && c.rect.width > 1 { split(c) }
  }

  private func remove(_ id: ObjectIdentifier, at p: MapPoint, from node: Node) -> Bool {
    var path: [Node] = []
    var n = node
    while let children = n.children {
      path.append(n)
      n = children[childIndex(n, p)]
    }
    guard let i = n.entries.firstIndex(where: { $0.id == id }) else { return false }
    n.entries.remove(at: i)
    n.count -= 1
    for a in path { a.count -= 1 }
    return true
  }

  /// Every annotation inside `rect`.
  func annotations(in rect: MapRect) -> [any Annotation] {
    var out: [any Annotation] = []
    collect(root, rect) { out.append($0.annotation) }
    return out
  }

  private func collect(_ n: Node, _ rect: MapRect, _ body: (Entry) -> Void) {
    guard n.count > 0, n.rect.intersects(rect) || rect.contains(n.rect) else { return }
    if let children = n.children {
      for c in children { collect(c, rect, body) }
    } else {
      for e in n.entries where rect.contains(e.point) { body(e) }
    }
  }

  /// One annotation per node smaller than `resolution` inside `rect` (with the count of
  /// members it stands for), and every annotation where nodes are larger.
  func representatives(in rect: MapRect, resolution: Double, _ body: (any Annotation, Int) -> Void) {
    represent(root, rect, resolution, body)
  }

  private func represent(
    _ n: Node, _ rect: MapRect, _ resolution: Double, _ body: (any Annotation, Int) -> Void
  ) {
    guard n.count > 0, n.rect.intersects(rect) else { return }
    if n.rect.width <= resolution && rect.contains(n.rect) {
      if let e = firstEntry(n) { body(e.annotation, n.count) }
      return
    }
    if let children = n.children {
      for c in children { represent(c, rect, resolution, body) }
    } else {
      for e in n.entries where rect.contains(e.point) { body(e.annotation, 1) }
    }
  }

  private func firstEntry(_ n: Node) -> Entry? {
    if let e = n.entries.first { return e }
    for c in n.children ?? [] where c.count > 0 { return firstEntry(c) }
    return nil
  }
}
