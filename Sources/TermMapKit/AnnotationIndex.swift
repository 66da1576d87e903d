import DotRaster
import MapGeometry

/// A point quadtree over annotations. Entries hold slot numbers, not references, so walking the
/// tree copies no object references. A query reports one annotation per screen cell, taking
/// nodes smaller than a cell whole, so a frame's work follows the cells on screen, not the
/// number of annotations.
final class AnnotationIndex {
  struct Entry {
    let point: MapPoint
    let slot: Int32
  }

  final class Node {
    let rect: MapRect
    var entries: [Entry] = []
    var children: [Node]? = nil
    var count = 0
    /// A member standing for the node (nil when unknown; found again on demand).
    var rep: Entry?
    init(rect: MapRect) { self.rect = rect }
  }

  static let capacity = 8
  private(set) var root = Node(rect: .world)
  /// Annotations by slot (nil for a freed slot).
  private var store: [(any Annotation)?] = []
  private var freeSlots: [Int32] = []
  private var slotOf: [ObjectIdentifier: Int32] = [:]
  /// Each slot's map point (read by slot in layout, without hashing the annotation).
  private(set) var pointOf: [MapPoint] = []
  /// Each slot's place in the order annotations were added (ties in marker collisions go to the
  /// annotation added first); kept when an annotation moves.
  private(set) var serialOf: [Int] = []
  private var nextSerial = 0

  /// Slots in use or free: slot numbers are below this.
  var slotCapacity: Int { store.count }

  var count: Int { root.count }

  /// Every annotation's map point.
  var allPoints: [MapPoint] { slotOf.values.map { pointOf[Int($0)] } }

  func insert(_ a: any Annotation) {
    let id = ObjectIdentifier(a)
    if slotOf[id] != nil { return }
    let p = Self.clamped(MapPoint(a.coordinate))
    let slot: Int32
    if let s = freeSlots.popLast() {
      slot = s
      store[Int(s)] = a
      pointOf[Int(s)] = p
      serialOf[Int(s)] = nextSerial
    } else {
      slot = Int32(store.count)
      store.append(a)
      pointOf.append(p)
      serialOf.append(nextSerial)
    }
    nextSerial += 1
    slotOf[id] = slot
    insert(Entry(point: p, slot: slot), into: root)
  }

  @discardableResult
  func remove(_ a: any Annotation) -> Bool {
    guard let slot = slotOf.removeValue(forKey: ObjectIdentifier(a)) else { return false }
    let p = pointOf[Int(slot)]
    store[Int(slot)] = nil
    freeSlots.append(slot)
    return remove(slot, at: p, from: root)
  }

  /// Re-indexes an annotation whose coordinate changed, in the same slot and keeping its place
  /// in the order of addition; false when it is not in the index.
  @discardableResult
  func move(_ a: any Annotation) -> Bool {
    guard let slot = slotOf[ObjectIdentifier(a)] else { return false }
    guard remove(slot, at: pointOf[Int(slot)], from: root) else { return false }
    let p = Self.clamped(MapPoint(a.coordinate))
    pointOf[Int(slot)] = p
    insert(Entry(point: p, slot: slot), into: root)
    return true
  }

  func contains(_ a: any Annotation) -> Bool { slotOf[ObjectIdentifier(a)] != nil }

  func slot(of a: any Annotation) -> Int32? { slotOf[ObjectIdentifier(a)] }

  func point(of a: any Annotation) -> MapPoint? {
    slotOf[ObjectIdentifier(a)].map { pointOf[Int($0)] }
  }

  func annotation(inSlot slot: Int32) -> any Annotation { store[Int(slot)]! }

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
      if n.rep == nil { n.rep = e }
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

  private func remove(_ slot: Int32, at p: MapPoint, from node: Node) -> Bool {
    var path: [Node] = []
    var n = node
    while let children = n.children {
      path.append(n)
      n = children[childIndex(n, p)]
    }
    guard let i = n.entries.firstIndex(where: { $0.slot == slot }) else { return false }
    n.entries.remove(at: i)
    n.count -= 1
    if n.rep?.slot == slot { n.rep = nil }
    for a in path {
      a.count -= 1
      if a.rep?.slot == slot { a.rep = nil }
    }
    return true
  }

  /// Every annotation inside `rect`.
  func annotations(in rect: MapRect) -> [any Annotation] {
    var out: [any Annotation] = []
    collect(root, rect) { out.append(store[Int($0.slot)]!) }
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

  /// A representative of the annotations in one screen cell.
  struct Representative {
    let slot: Int32
    let point: MapPoint
    let column: Int
    let row: Int
    var count: Int
  }

  /// One annotation per screen cell of `viewport` inside `rect` (shifted by `shift` map points
  /// to reach a repeat of the world), with the count of members it stands for.
  func representatives(
    in rect: MapRect, shift: Double, viewport vp: Viewport, into found: inout [Representative],
    slots: inout [Int32]
  ) {
    let resolution = vp.cellSizeInMapPoints.width
    let columns = vp.columns
    let cellWidth = Double(CellGeometry.dotsWide)
    let cellHeight = Double(CellGeometry.dotsHigh)
    func take(_ e: Entry, _ n: Int) {
      // The cell of this copy of the point. (`Viewport.cell(for:)` takes the copy nearest the
      // centre, which would count an annotation once per repeat of the world on screen.)
      let x = ((e.point.x + shift) * vp.zoomScale - Double(vp.originX)) / cellWidth
      let y = (e.point.y * vp.zoomScale - Double(vp.originY)) / cellHeight
      guard x >= 0, y >= 0, x < Double(columns), y < Double(vp.rows) else { return }
      let c = (column: Int(x), row: Int(y))
      let index = c.row * columns + c.column
      let s = Int(slots[index])
      if s >= 0 {
        found[s].count += n
      } else {
        slots[index] = Int32(found.count)
        found.append(
          Representative(slot: e.slot, point: e.point, column: c.column, row: c.row, count: n))
      }
    }
    func walk(_ n: Node) {
      guard n.count > 0, n.rect.intersects(rect) else { return }
      if n.rect.width <= resolution && rect.contains(n.rect) {
        if let e = firstEntry(n) { take(e, n.count) }
        return
      }
      if let children = n.children {
        for c in children { walk(c) }
      } else {
        for e in n.entries where rect.contains(e.point) { take(e, 1) }
      }
    }
    walk(root)
  }

  private func firstEntry(_ n: Node) -> Entry? {
    if let r = n.rep { return r }
    var found = n.entries.first
    if found == nil {
      for c in n.children ?? [] where c.count > 0 {
        found = firstEntry(c)
        break
      }
    }
    n.rep = found
    return found
  }
}
