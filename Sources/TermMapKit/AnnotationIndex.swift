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
    /// The slot's place in the order annotations were added (`serialOf`), kept here so a
    /// layout reads it with the point, not from an array indexed by slot.
    let serial: Int
  }

  final class Node {
    let rect: MapRect
    var entries: [Entry] = []
    var children: [Node]? = nil
    var count = 0
    /// The member added first, standing for the node (nil when unknown; found again on
    /// demand).
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
  /// Changes with every insertion, removal and move (a cluster whose member views and counts
  /// are unchanged keeps its members while it stays the same).
  private(set) var generation = 0

  /// Slots in use or free: slot numbers are below this.
  var slotCapacity: Int { store.count }

  var count: Int { root.count }

  /// Every annotation's map point.
  var allPoints: [MapPoint] { slotOf.values.map { pointOf[Int($0)] } }

  func insert(_ a: any Annotation) {
    let id = ObjectIdentifier(a)
    if slotOf[id] != nil { return }
    insert(a, at: Self.clamped(MapPoint(a.coordinate)), serial: nextSerial)
    nextSerial += 1
  }

  /// Inserts annotations in the order given (their order of addition), in slots that follow
  /// their place on the map: slots are taken along a Z-order curve over their points, so
  /// annotations near each other on screen have nearby slots, and a layout reading the views
  /// of a screenful by slot reads nearby memory (slots in the order of a file's records sent
  /// each read to a different cache line).
  func insert(contentsOf annotations: [any Annotation]) {
    var seen = Set<ObjectIdentifier>()
    var batch: [(key: UInt64, point: MapPoint, serial: Int, index: Int)] = []
    batch.reserveCapacity(annotations.count)
    for (k, a) in annotations.enumerated() {
      let id = ObjectIdentifier(a)
      guard slotOf[id] == nil, seen.insert(id).inserted else { continue }
      let p = Self.clamped(MapPoint(a.coordinate))
      batch.append((Self.zOrder(p), p, nextSerial, k))
      nextSerial += 1
    }
    batch.sort { $0.key < $1.key }
    for b in batch { insert(annotations[b.index], at: b.point, serial: b.serial) }
  }

  /// A point's place on a Z-order (Morton) curve over the world, 32 bits a side.
  static func zOrder(_ p: MapPoint) -> UInt64 {
    let scale = Double(UInt32.max) / MapSize.world.width
    func spread(_ v: Double) -> UInt64 {
      // A coordinate that is not a number (from a caller's annotation) sorts first.
      let d = v * scale
      var x = d.isNaN ? 0 : UInt64(min(max(d, 0), Double(UInt32.max)))
      x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF
      x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
      x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0F
      x = (x | (x << 2)) & 0x3333_3333_3333_3333
      x = (x | (x << 1)) & 0x5555_5555_5555_5555
      return x
    }
    return spread(p.x) | (spread(p.y) << 1)
  }

  private func insert(_ a: any Annotation, at p: MapPoint, serial: Int) {
    generation &+= 1
    let id = ObjectIdentifier(a)
    let slot: Int32
    if let s = freeSlots.popLast() {
      slot = s
      store[Int(s)] = a
      pointOf[Int(s)] = p
      serialOf[Int(s)] = serial
    } else {
      slot = Int32(store.count)
      store.append(a)
      pointOf.append(p)
      serialOf.append(serial)
    }
    slotOf[id] = slot
    insert(Entry(point: p, slot: slot, serial: serial), into: root)
  }

  @discardableResult
  func remove(_ a: any Annotation) -> Bool {
    guard let slot = slotOf.removeValue(forKey: ObjectIdentifier(a)) else { return false }
    generation &+= 1
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
    generation &+= 1
    guard remove(slot, at: pointOf[Int(slot)], from: root) else { return false }
    let p = Self.clamped(MapPoint(a.coordinate))
    pointOf[Int(slot)] = p
    insert(Entry(point: p, slot: slot, serial: serialOf[Int(slot)]), into: root)
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
      if let r = n.rep, r.serial < e.serial {} else { n.rep = e }
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

  /// A representative of the annotations in one screen cell: the one added first.
  struct Representative {
    let slot: Int32
    let point: MapPoint
    /// The annotation's place in the order annotations were added.
    let serial: Int
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
    func take(_ e: Entry, _ n: Int) {
      guard let c = Self.cell(of: e.point, shift: shift, viewport: vp) else { return }
      let index = c.row * columns + c.column
      let s = Int(slots[index])
      if s >= 0 {
        // The annotation added first stands for the cell.
        let r = found[s]
        found[s] =
          e.serial < r.serial
          ? Representative(
            slot: e.slot, point: e.point, serial: e.serial, column: r.column, row: r.row,
            count: r.count + n)
          : Representative(
            slot: r.slot, point: r.point, serial: r.serial, column: r.column, row: r.row,
            count: r.count + n)
      } else {
        slots[index] = Int32(found.count)
        found.append(
          Representative(
            slot: e.slot, point: e.point, serial: e.serial, column: c.column, row: c.row, count: n))
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

  /// The screen cell where `representatives` counts a point's copy shifted by `shift` map
  /// points (nil: off screen). (`Viewport.cell(for:)` takes the copy nearest the centre, which
  /// would count an annotation once per repeat of the world on screen.)
  @inline(__always)
  static func cell(of p: MapPoint, shift: Double, viewport vp: Viewport) -> (
    column: Int, row: Int
  )? {
    let x = ((p.x + shift) * vp.zoomScale - Double(vp.originX)) / Double(CellGeometry.dotsWide)
    let y = (p.y * vp.zoomScale - Double(vp.originY)) / Double(CellGeometry.dotsHigh)
    guard x >= 0, y >= 0, x < Double(vp.columns), y < Double(vp.rows) else { return nil }
    return (Int(x), Int(y))
  }

  /// The annotations `representatives` counts in one screen cell (as many as its count there),
  /// found by the same walk kept to that cell: `first` (the cell's representative) first, then
  /// the others in the tree's order.
  func members(ofCell column: Int, row: Int, first: Int32, viewport vp: Viewport)
    -> [any Annotation]
  {
    let visible = vp.mapRect
    let cell = vp.cellSizeInMapPoints
    let resolution = cell.width
    var slots: [Int32] = [first]
    for shift in vp.worldCopies {
      let r = visible.offsetBy(dx: -shift, dy: 0).intersection(.world)
      guard !r.isNull else { continue }
      // The cell in this copy of the world, grown by a cell each way: a node taken whole is
      // narrower than a cell and holds a point of the cell, so it meets this rect.
      let near = MapRect(
        x: visible.minX + Double(column - 1) * cell.width - shift,
        y: visible.minY + Double(row - 1) * cell.height, width: 3 * cell.width,
        height: 3 * cell.height)
      func inCell(_ e: Entry) -> Bool {
        guard let c = Self.cell(of: e.point, shift: shift, viewport: vp) else { return false }
        return c.column == column && c.row == row
      }
      func all(_ n: Node) {
        for e in n.entries where e.slot != first { slots.append(e.slot) }
        for c in n.children ?? [] where c.count > 0 { all(c) }
      }
      func walk(_ n: Node) {
        guard n.count > 0, n.rect.intersects(r), n.rect.intersects(near) else { return }
        if n.rect.width <= resolution && r.contains(n.rect) {
          if let e = firstEntry(n), inCell(e) { all(n) }
          return
        }
        if let children = n.children {
          for c in children { walk(c) }
        } else {
          for e in n.entries where e.slot != first && r.contains(e.point) && inCell(e) {
            slots.append(e.slot)
          }
        }
      }
      walk(root)
    }
    return slots.map { store[Int($0)]! }
  }

  /// The slots `representatives` counts in chosen screen cells, in one walk of the screen:
  /// `groupOf` gives each cell's group (-1: none), and `slots` receives each group's slots in
  /// the tree's order. (For many cells, cheaper than `members(ofCell:row:first:viewport:)` for
  /// each.)
  func memberSlots(groupOf: [Int32], viewport vp: Viewport, into slots: inout [[Int32]]) {
    let visible = vp.mapRect
    let resolution = vp.cellSizeInMapPoints.width
    let columns = vp.columns
    for shift in vp.worldCopies {
      let r = visible.offsetBy(dx: -shift, dy: 0).intersection(.world)
      guard !r.isNull else { continue }
      func group(_ e: Entry) -> Int {
        guard let c = Self.cell(of: e.point, shift: shift, viewport: vp) else { return -1 }
        return Int(groupOf[c.row * columns + c.column])
      }
      func all(_ n: Node, _ g: Int, _ slots: inout [[Int32]]) {
        for e in n.entries { slots[g].append(e.slot) }
        guard let children = n.children else { return }
        for c in children where c.count > 0 { all(c, g, &slots) }
      }
      func walk(_ n: Node, _ slots: inout [[Int32]]) {
        guard n.count > 0, n.rect.intersects(r) else { return }
        if n.rect.width <= resolution && r.contains(n.rect) {
          if let e = firstEntry(n) {
            let g = group(e)
            if g >= 0 { all(n, g, &slots) }
          }
          return
        }
        if let children = n.children {
          for c in children { walk(c, &slots) }
        } else {
          for e in n.entries where r.contains(e.point) {
            let g = group(e)
            if g >= 0 { slots[g].append(e.slot) }
          }
        }
      }
      walk(root, &slots)
    }
  }

  /// The annotation in each slot.
  func annotations(inSlots slots: [Int32]) -> [any Annotation] {
    slots.map { store[Int($0)]! }
  }

  /// The member of a node added first (kept in the node; found again after a removal).
  private func firstEntry(_ n: Node) -> Entry? {
    if let r = n.rep { return r }
    var found: Entry? = nil
    for e in n.entries where found.map({ e.serial < $0.serial }) ?? true { found = e }
    for c in n.children ?? [] where c.count > 0 {
      if let e = firstEntry(c), found.map({ e.serial < $0.serial }) ?? true { found = e }
    }
    n.rep = found
    return found
  }
}
