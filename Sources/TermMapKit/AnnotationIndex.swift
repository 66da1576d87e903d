import DotRaster
import MapGeometry

/// A point quadtree over annotations. Entries hold slot numbers, not references, so walking the
/// tree copies no object references. A query reports one annotation per screen cell, taking
/// nodes smaller than a cell whole, so a frame's work follows the cells on screen, not the
/// number of annotations.
final class AnnotationIndex {
  /// A member of a leaf. Its point is not here but in its slot's record
  /// (`SlotRecord.point`): a move that stays within its leaf then changes the record alone,
  /// read in the order of the slots, without reaching the leaf or its entries (two cache
  /// misses a move, when thousands move a frame).
  struct Entry {
    let slot: Int32
    /// The slot's place in the order annotations were added (`SlotRecord.serial`), kept here so a
    /// layout reads it with the point, not from an array indexed by slot.
    let serial: Int
  }

  final class Node {
    let rect: MapRect
    /// The node this one is a quarter of (nil for the root). A node is taken out of the tree
    /// only with its parent's whole subtree (`collapse(_:)`), so the parent outlives it: the
    /// reference is `unowned(unsafe)` (no check, no reference count: a move walks up through
    /// it for every target moved) because no node is reached after its parent is gone.
    unowned(unsafe) let parent: Node?
    // A node's fields are read for every node a walk or a move passes, and without the
    // run-time exclusivity check (each read of `entries` was a call to begin an access, a
    // leaf at a time). Safe: the index is used on the main actor only (its map view's), so
    // accesses never run at once on two threads; and no access overlaps another on that
    // thread: the index calls no code but its own and the standard library's while it reads
    // or changes a node (an annotation's `coordinate` is read before the tree is reached,
    // `insert(_:)` and `move(slots:)`), and each access to `entries` or `children` is a
    // single load, store or in-place change (`append`, `remove(at:)`) that reaches no node.
    @exclusivity(unchecked) var entries: [Entry] = []
    @exclusivity(unchecked) var children: [Node]? = nil
    @exclusivity(unchecked) var count = 0
    /// The members' `AnnotationIndex.mark(_:)`s combined (exclusive or): the same for the same
    /// members, whatever their points inside the node.
    @exclusivity(unchecked) var marks: UInt64 = 0
    /// The member added first, standing for the node (nil when unknown; found again on
    /// demand).
    @exclusivity(unchecked) var rep: Entry?
    init(rect: MapRect, parent: Node?) {
      self.rect = rect
      self.parent = parent
    }
  }

  /// A member's mark in `Node.marks`: its order of addition, mixed (SplitMix64's finalizer),
  /// so the marks of a set of annotations combined tell that set from another with
  /// overwhelming likelihood. (The order of addition, not the slot: a slot freed and taken by
  /// another annotation is another member.)
  @inline(__always)
  static func mark(_ serial: Int) -> UInt64 {
    var z = UInt64(bitPattern: Int64(serial)) &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  static let capacity = 8
  private(set) var root = Node(rect: .world, parent: nil)
  /// Annotations by slot (nil for a freed slot).
  private var store: [(any Annotation)?] = []
  private var freeSlots: [Int32] = []
  private var slotOf: [ObjectIdentifier: Int32] = [:]
  /// What the index keeps per slot, together (a move reads them all: one cache line, not
  /// three).
  struct SlotRecord {
    /// The annotation's map point (the index's only copy: entries and representatives name
    /// the slot).
    var point: MapPoint
    /// Its place in the order annotations were added (ties in marker collisions go to the
    /// annotation added first); kept when an annotation moves.
    var serial: Int
    /// Its leaf's rect: a move to a point inside it changes nothing but `point`.
    var leafRect: MapRect
    /// Its leaf (nil for a free slot). `unowned(unsafe)`: a record points only at a leaf in
    /// the tree (the tree holds its nodes; `split` and `collapse` point the records of the
    /// entries they move at their new leaf, `remove(_:)` clears it), and a move reads it
    /// without a reference count on the node.
    unowned(unsafe) var leaf: Node?
  }
  private var slotRecords: [SlotRecord] = []
  private var nextSerial = 0
  /// Changes to the index's members and points (each insert, removal and move): a
  /// `MemberLog` holds while this is what it was when the log was made.
  private var generation = 0

  /// The members `representatives` counted in each screen cell, in the order of its walks,
  /// when a layout asks for them (`startMemberLog(_:)`): a clustering pass finds its new
  /// clusters' members in this list, not in another walk of the tree.
  struct MemberLog {
    /// Each member counted, in the order of the walks (one per copy of the world, in
    /// `Viewport.worldCopies`' order): its screen cell (row × columns + column) in the high 32
    /// bits, its slot in the low (one array: one append a member).
    var entries: [UInt64] = []
    /// The layout's viewport (nil: no log is being made).
    var viewport: Viewport?
    /// The index's `generation` when the log was started.
    var generation = -1
    /// A table by screen cell for the log's reader, all -1 between its uses.
    var table: [Int32] = []
  }
  private var memberLog = MemberLog()

  /// Starts a log of the members the next `representatives` walks count (for a layout at
  /// `viewport`), or stops logging (nil).
  func startMemberLog(_ viewport: Viewport?) {
    memberLog.entries.removeAll(keepingCapacity: true)
    memberLog.viewport = viewport
    memberLog.generation = generation
  }

  /// The log of the last layout at `viewport`, taken out of the index, when the index has not
  /// changed since (nil otherwise): give it back with `restoreMemberLog(_:)`.
  func takeMemberLog(for viewport: Viewport) -> MemberLog? {
    guard memberLog.viewport == viewport, memberLog.generation == generation else { return nil }
    var log = MemberLog()
    swap(&log, &memberLog)
    return log
  }

  /// Gives a log taken with `takeMemberLog(for:)` back (its table all -1 again).
  func restoreMemberLog(_ log: MemberLog) {
    memberLog = log
  }

  /// Slots in use or free: slot numbers are below this.
  var slotCapacity: Int { store.count }

  var count: Int { root.count }

  /// Every annotation's map point.
  var allPoints: [MapPoint] { slotOf.values.map { slotRecords[Int($0)].point } }

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
      slotRecords[Int(s)] = SlotRecord(point: p, serial: serial, leafRect: .world, leaf: nil)
    } else {
      slot = Int32(store.count)
      store.append(a)
      slotRecords.append(SlotRecord(point: p, serial: serial, leafRect: .world, leaf: nil))
    }
    slotOf[id] = slot
    insert(Entry(slot: slot, serial: serial), into: root)
  }

  @discardableResult
  func remove(_ a: any Annotation) -> Bool {
    guard let slot = slotOf.removeValue(forKey: ObjectIdentifier(a)) else { return false }
    generation &+= 1
    let p = slotRecords[Int(slot)].point
    store[Int(slot)] = nil
    slotRecords[Int(slot)].leaf = nil
    // No annotation's: an `AnnotationSlot` of the one removed no longer matches.
    slotRecords[Int(slot)].serial = -1
    freeSlots.append(slot)
    return remove(slot, at: p, from: root)
  }

  /// Re-indexes an annotation whose coordinate changed, in the same slot and keeping its place
  /// in the order of addition; false when it is not in the index.
  ///
  /// A move within its leaf — most moves of a live target between two frames — changes the
  /// slot's record alone (its point; the leaf's rect is in the record too). Other moves walk
  /// once from the root: the nodes that hold both the old and the new point keep their count,
  /// marks and representative, and only below the node where the two points part is the entry
  /// removed from one child and inserted in another.
  @discardableResult
  func move(_ a: any Annotation) -> Bool {
    guard let slot = slotOf[ObjectIdentifier(a)] else { return false }
    return move(slot: slot, to: Self.clamped(MapPoint(a.coordinate)))
  }

  /// `move(_:)` for a slot and its new (clamped) point.
  ///
  /// A move out of its leaf starts from the deepest node that holds both points, found by
  /// walking up from the leaf (`Node.parent`): the walk down from the root to it would pass
  /// the same nodes (each holds both points, so both go to the same child), reading and
  /// retaining each node's children on the way, for nothing (the nodes above keep their
  /// members). Most such moves cross into a neighbouring leaf, a level or two up.
  @discardableResult
  func move(slot: Int32, to p: MapPoint) -> Bool {
    generation &+= 1
    let k = Int(slot)
    // A free slot's serial is -1 (its leaf is nil: read without reaching the node).
    guard slotRecords[k].serial >= 0 else { return false }
    if Self.holds(slotRecords[k].leafRect, p) {
      // Still in its leaf: the point is the record's alone (entries and representatives
      // name the slot), and the leaf's members, count and marks are as they were.
      slotRecords[k].point = p
      return true
    }
    let old = slotRecords[k].point
    let e = Entry(slot: slot, serial: slotRecords[k].serial)
    var n = root
    if let leaf = slotRecords[k].leaf {
      var up = leaf.parent
      while let m = up, !Self.holds(m.rect, p) { up = m.parent }
      // (None holds it, the root not: a point that is not a number. The walk from the root
      // then goes as it always went.)
      if let m = up { n = m }
    }
    while true {
      guard let children = n.children else {
        // Both points in this leaf.
        slotRecords[k].point = p
        return true
      }
      let from = childIndex(n, old)
      let to = childIndex(n, p)
      if from == to {
        n = children[to]
        continue
      }
      guard remove(slot, at: old, from: children[from]) else { return false }
      slotRecords[k].point = p
      insert(e, into: children[to])
      return true
    }
  }

  /// Moves many annotations at once, each to its annotation's coordinate now, in the order of
  /// their slots rather than the order given: slots follow the annotations' places on the map
  /// (`insert(contentsOf:)`), so the moves read the slots' records, the leaves and their
  /// entries in memory order, near each other, not one cache miss each. A slot given twice
  /// moves once. Returns the slots moved, in that order.
  ///
  /// The order is found by marking the slots in a table of every slot (`slotCapacity`) and
  /// reading it through, not by sorting, when the moves are at least a sixteenth of the slots
  /// (live targets: thousands a frame); fewer are sorted.
  @discardableResult
  func move(slots given: [Int32]) -> [Int32] {
    generation &+= 1
    var order: [Int32] = []
    order.reserveCapacity(given.count)
    if given.count >= store.count / 16 {
      // (The table in a local variable while it is marked and read: no run-time exclusivity
      // check per slot.) 1 for a slot given, else 0.
      var table: [Int32] = []
      swap(&table, &movedAt)
      defer { swap(&table, &movedAt) }
      if table.count < store.count {
        table.append(contentsOf: repeatElement(0, count: store.count - table.count))
      }
      var lowest = Int.max
      var highest = -1
      for s in given {
        let k = Int(s)
        table[k] = 1
        if k < lowest { lowest = k }
        if k > highest { highest = k }
      }
      if highest >= 0 {
        for k in lowest...highest where table[k] != 0 {
          table[k] = 0
          order.append(Int32(k))
        }
      }
    } else {
      let sorted = given.sorted()
      for (n, s) in sorted.enumerated() where n == 0 || sorted[n - 1] != s { order.append(s) }
    }
    // The annotations' places now (a moved live target reads its own under its lock), all
    // read before any move: an annotation's `coordinate` is its program's code, which may
    // read the index.
    var points: [MapPoint] = []
    points.reserveCapacity(order.count)
    let annotations = store
    for s in order { points.append(Self.clamped(MapPoint(annotations[Int(s)]!.coordinate))) }
    var records: [SlotRecord] = []
    swap(&records, &slotRecords)
    for (s, p) in zip(order, points) { step(Int(s), p, &records) }
    swap(&records, &slotRecords)
    return order
  }

  /// `move(slots:)` for slots named with their annotations' serials (`AnnotationSlot`: a slot
  /// that no longer holds its annotation is passed over), each with the map point of the
  /// coordinate its annotation has now (`points[k]` for `given[k]`, not yet clamped; a slot
  /// given twice: the last), so the annotations are not asked. One pass in the order of the
  /// slots makes each move as it reaches the slot: no lists of the slots, their places in
  /// `given` and their points are built first (thousands a frame, an append and a uniqueness
  /// check each). Returns how many moved and, when `listing`, which, in the order moved.
  func move(
    _ given: [AnnotationSlot], points: [MapPoint], listing: Bool
  ) -> (count: Int, moved: [Int32]) {
    precondition(points.count == given.count, "a point a slot")
    var moved: [Int32] = []
    var count = 0
    // The records in a local variable (each read or write of the index's own `slotRecords`
    // is checked for exclusive access at run time: a third of a move's instructions), put
    // back for a move out of its leaf (`step`).
    var records: [SlotRecord] = []
    swap(&records, &slotRecords)
    if given.count >= store.count / 16 {
      // A slot's place in `given`, plus one (0: not given; the table all 0 between calls).
      var table: [Int32] = []
      swap(&table, &movedAt)
      if table.count < records.count {
        table.append(contentsOf: repeatElement(0, count: records.count - table.count))
      }
      var lowest = Int.max
      var highest = -1
      for (n, h) in given.enumerated() {
        let k = Int(h.index)
        // `holds(slot:serial:)`, read from the local records.
        guard k >= 0, k < records.count, h.serial >= 0, records[k].serial == h.serial else {
          continue
        }
        table[k] = Int32(n + 1)
        if k < lowest { lowest = k }
        if k > highest { highest = k }
      }
      if highest >= 0 {
        generation &+= 1
        if listing { moved.reserveCapacity(given.count) }
        for k in lowest...highest where table[k] != 0 {
          let n = Int(table[k]) - 1
          table[k] = 0
          count += 1
          if listing { moved.append(Int32(k)) }
          step(k, Self.clamped(points[n]), &records)
        }
      }
      swap(&table, &movedAt)
    } else {
      // By slot, then place: the last place of each slot kept.
      var pairs: [(slot: Int32, place: Int32)] = []
      pairs.reserveCapacity(given.count)
      for (n, h) in given.enumerated() {
        let k = Int(h.index)
        guard k >= 0, k < records.count, h.serial >= 0, records[k].serial == h.serial else {
          continue
        }
        pairs.append((h.index, Int32(n)))
      }
      pairs.sort { $0.slot != $1.slot ? $0.slot < $1.slot : $0.place < $1.place }
      if !pairs.isEmpty { generation &+= 1 }
      for (n, p) in pairs.enumerated() where n + 1 == pairs.count || pairs[n + 1].slot != p.slot {
        count += 1
        if listing { moved.append(p.slot) }
        step(Int(p.slot), Self.clamped(points[Int(p.place)]), &records)
      }
    }
    swap(&records, &slotRecords)
    return (count, moved)
  }

  /// One move of a bulk move, with the index's records in `records` (its `slotRecords` empty
  /// meanwhile): a move within its leaf (almost all) writes the point there; the others go
  /// through `move(slot:to:)` with the records back in place.
  @inline(__always)
  private func step(_ k: Int, _ p: MapPoint, _ records: inout [SlotRecord]) {
    if records[k].serial >= 0 && Self.holds(records[k].leafRect, p) {
      records[k].point = p
      return
    }
    swap(&records, &slotRecords)
    move(slot: Int32(k), to: p)
    swap(&records, &slotRecords)
  }

  /// `move(slots:)`'s and `move(_:coordinates:listing:)`'s table of the slots to move (all 0
  /// between calls).
  private var movedAt: [Int32] = []

  func contains(_ a: any Annotation) -> Bool { slotOf[ObjectIdentifier(a)] != nil }

  func slot(of a: any Annotation) -> Int32? { slotOf[ObjectIdentifier(a)] }

  /// A slot and the annotation's place in the order of addition, together naming one
  /// annotation while it is in the index (`AnnotationSlot`).
  func handle(of a: any Annotation) -> (slot: Int32, serial: Int)? {
    guard let s = slotOf[ObjectIdentifier(a)] else { return nil }
    return (s, slotRecords[Int(s)].serial)
  }

  /// Whether a slot holds the annotation added `serial`th (not one removed since, nor another
  /// in its place).
  @inline(__always)
  func holds(slot: Int32, serial: Int) -> Bool {
    let k = Int(slot)
    // A free slot's serial is -1 (`remove(_:)`); serials given are 0 or more.
    return k >= 0 && k < slotRecords.count && serial >= 0 && slotRecords[k].serial == serial
  }

  func point(of a: any Annotation) -> MapPoint? {
    slotOf[ObjectIdentifier(a)].map { slotRecords[Int($0)].point }
  }

  func annotation(inSlot slot: Int32) -> any Annotation { store[Int(slot)]! }

  static func clamped(_ p: MapPoint) -> MapPoint {
    let w = MapSize.world.width
    var x = p.x
    // A point in the world already (nearly always) is its own remainder (-0 too): no call to
    // `fmod`.
    if !(x >= 0 && x < w) {
      x = x.truncatingRemainder(dividingBy: w)
      if x < 0 { x += w }
    }
    return MapPoint(x: x, y: min(max(p.y, 0), w.nextDown))
  }

  private func insert(_ e: Entry, into node: Node) {
    let mark = Self.mark(e.serial)
    var n = node
    while true {
      n.count += 1
      n.marks ^= mark
      // The first member stands for the node. An unknown representative (nil, after its
      // removal) stays unknown: the entry is not known to come before the others.
      if n.count == 1 {
        n.rep = e
      } else if let r = n.rep, e.serial < r.serial {
        n.rep = e
      }
      if let children = n.children {
        n = children[childIndex(n, slotRecords[Int(e.slot)].point)]
        continue
      }
      n.entries.append(e)
      slotRecords[Int(e.slot)].leaf = n
      slotRecords[Int(e.slot)].leafRect = n.rect
      if n.entries.count > Self.capacity && n.rect.width > 1 { split(n) }
      return
    }
  }

  /// Whether a point falls in a node's rect as `childIndex(_:_:)` sends points down: the
  /// rects' edges are exact (halves of the world's power-of-two width), the low edges inside,
  /// the high ones outside.
  @inline(__always)
  static func holds(_ r: MapRect, _ p: MapPoint) -> Bool {
    p.x >= r.minX && p.x < r.maxX && p.y >= r.minY && p.y < r.maxY
  }

  private func childIndex(_ n: Node, _ p: MapPoint) -> Int {
    (p.x >= n.rect.midX ? 1 : 0) + (p.y >= n.rect.midY ? 2 : 0)
  }

  private func split(_ n: Node) {
    let r = n.rect
    let hw = r.width / 2
    let hh = r.height / 2
    n.children = [
      Node(rect: MapRect(x: r.minX, y: r.minY, width: hw, height: hh), parent: n),
      Node(rect: MapRect(x: r.minX + hw, y: r.minY, width: hw, height: hh), parent: n),
      Node(rect: MapRect(x: r.minX, y: r.minY + hh, width: hw, height: hh), parent: n),
      Node(rect: MapRect(x: r.minX + hw, y: r.minY + hh, width: hw, height: hh), parent: n),
    ]
    let moving = n.entries
    n.entries = []
    for e in moving {
      let c = n.children![childIndex(n, slotRecords[Int(e.slot)].point)]
      c.count += 1
      c.marks ^= Self.mark(e.serial)
      c.entries.append(e)
      slotRecords[Int(e.slot)].leaf = c
      slotRecords[Int(e.slot)].leafRect = c.rect
    }
    for c in n.children! where c.entries.count > Self.capacity && c.rect.width > 1 { split(c) }
  }

  /// Takes a slot's entry out of the subtree under `node` where its point `p` leads: one walk
  /// down to find it, one more to count it out (no list of the nodes passed is kept). The
  /// first node on the way left with no more than `capacity` members takes its subtree's
  /// entries back as a leaf (`collapse(_:)`), so the tree's shape depends only on the points
  /// in it, not on the order they came, moved and went.
  private func remove(_ slot: Int32, at p: MapPoint, from node: Node) -> Bool {
    var n = node
    while let children = n.children { n = children[childIndex(n, p)] }
    guard let i = n.entries.firstIndex(where: { $0.slot == slot }) else { return false }
    let mark = Self.mark(n.entries[i].serial)
    n.entries.remove(at: i)
    n = node
    while true {
      n.count -= 1
      n.marks ^= mark
      if let r = n.rep, r.slot == slot { n.rep = nil }
      guard let children = n.children else { return true }
      if n.count <= Self.capacity {
        collapse(n)
        return true
      }
      n = children[childIndex(n, p)]
    }
  }

  /// Makes a node that was split a leaf again, holding its subtree's entries (the way `split`
  /// would have left them: a node is split exactly when it holds more than `capacity`).
  private func collapse(_ n: Node) {
    var entries: [Entry] = []
    entries.reserveCapacity(n.count)
    func gather(_ m: Node) {
      entries.append(contentsOf: m.entries)
      for c in m.children ?? [] where c.count > 0 { gather(c) }
    }
    gather(n)
    n.children = nil
    for e in entries {
      slotRecords[Int(e.slot)].leaf = n
      slotRecords[Int(e.slot)].leafRect = n.rect
    }
    n.entries = entries
  }

  /// Every annotation inside `rect`.
  func annotations(in rect: MapRect) -> [any Annotation] {
    var out: [any Annotation] = []
    let records = slotRecords
    collect(root, rect, records) { out.append(store[Int($0.slot)]!) }
    return out
  }

  private func collect(
    _ n: Node, _ rect: MapRect, _ records: [SlotRecord], _ body: (Entry) -> Void
  ) {
    guard n.count > 0, n.rect.intersects(rect) || rect.contains(n.rect) else { return }
    if let children = n.children {
      for c in children { collect(c, rect, records, body) }
    } else {
      for e in n.entries where rect.contains(records[Int(e.slot)].point) { body(e) }
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
    /// The members' marks combined (`Node.marks`): the same for the same members.
    var marks: UInt64
  }

  /// One annotation per screen cell of `viewport` inside `rect` (shifted by `shift` map points
  /// to reach a repeat of the world), with the count of members it stands for.
  func representatives(
    in rect: MapRect, shift: Double, viewport vp: Viewport, into found: inout [Representative],
    slots: inout [Int32]
  ) {
    guard !rect.isNull else { return }
    // The walk's state in one local value passed down `inout` (not captured by nested
    // functions: each read of a captured `inout` array was checked for exclusive access at
    // run time), the rect's edges read once (a node's rect meets it, or holds it, by four
    // compares, not calls into MapGeometry).
    var w = RepresentativeWalk(
      minX: rect.minX, minY: rect.minY, maxX: rect.maxX, maxY: rect.maxY,
      isEmpty: rect.isEmpty, resolution: vp.cellSizeInMapPoints.width, shift: shift,
      viewport: vp, records: slotRecords, found: [], slots: [],
      logging: memberLog.viewport != nil, logged: [])
    swap(&w.found, &found)
    swap(&w.slots, &slots)
    // The members counted, logged when a layout asked (`MemberLog`).
    if w.logging { swap(&w.logged, &memberLog.entries) }
    walk(root, &w)
    swap(&w.found, &found)
    swap(&w.slots, &slots)
    if w.logging { swap(&w.logged, &memberLog.entries) }
  }

  /// What `representatives(in:shift:viewport:into:slots:)` walks with.
  private struct RepresentativeWalk {
    /// The rect's edges (a rect that is not null), and whether it is empty (it then holds no
    /// point, as `MapRect.contains(_:)` has it).
    let minX: Double
    let minY: Double
    let maxX: Double
    let maxY: Double
    let isEmpty: Bool
    let resolution: Double
    let shift: Double
    let viewport: Viewport
    /// The points, read from a local copy of the records (no exclusivity check per read).
    let records: [SlotRecord]
    var found: [Representative]
    var slots: [Int32]
    /// Whether the members counted are logged (`MemberLog`), and the log while the walk runs.
    let logging: Bool
    var logged: [UInt64]

    /// A node's members, as `memberSlots` lists them, logged in `cell`.
    mutating func log(_ n: Node, _ cell: UInt64) {
      for e in n.entries { logged.append(cell | UInt64(UInt32(bitPattern: e.slot))) }
      guard let children = n.children else { return }
      for c in children where c.count > 0 { log(c, cell) }
    }

    /// `MapRect.intersects(_:)` of the rect and a node's (neither null).
    @inline(__always) func meets(_ r: MapRect) -> Bool {
      min(r.maxX, maxX) > max(r.minX, minX) && min(r.maxY, maxY) > max(r.minY, minY)
    }

    /// `MapRect.contains(_:)` of the rect and a node's (neither null).
    @inline(__always) func holds(_ r: MapRect) -> Bool {
      r.minX >= minX && r.maxX <= maxX && r.minY >= minY && r.maxY <= maxY
    }

    /// `MapRect.contains(_:)` of the rect and a point.
    @inline(__always) func holds(_ p: MapPoint) -> Bool {
      !isEmpty && p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// Counts an entry (standing for `n` members with these marks) in its cell.
    /// (`node`: the node the entry stands for, whose members are logged; nil: the entry alone.)
    @inline(__always) mutating func take(
      _ e: Entry, _ point: MapPoint, _ n: Int, _ marks: UInt64, _ node: Node?
    ) {
      guard let c = AnnotationIndex.cell(of: point, shift: shift, viewport: viewport) else {
        return
      }
      let index = c.row * viewport.columns + c.column
      if logging {
        let cell = UInt64(index) << 32
        if let node {
          log(node, cell)
        } else {
          logged.append(cell | UInt64(UInt32(bitPattern: e.slot)))
        }
      }
      let s = Int(slots[index])
      if s >= 0 {
        // The annotation added first stands for the cell.
        let r = found[s]
        found[s] =
          e.serial < r.serial
          ? Representative(
            slot: e.slot, point: point, serial: e.serial, column: r.column, row: r.row,
            count: r.count + n, marks: r.marks ^ marks)
          : Representative(
            slot: r.slot, point: r.point, serial: r.serial, column: r.column, row: r.row,
            count: r.count + n, marks: r.marks ^ marks)
      } else {
        slots[index] = Int32(found.count)
        found.append(
          Representative(
            slot: e.slot, point: point, serial: e.serial, column: c.column, row: c.row, count: n,
            marks: marks))
      }
    }
  }

  /// `representatives`' walk of a node.
  private func walk(_ n: Node, _ w: inout RepresentativeWalk) {
    guard n.count > 0 else { return }
    let r = n.rect
    guard w.meets(r) else { return }
    if r.width <= w.resolution && w.holds(r) {
      if let e = firstEntry(n) {
        w.take(e, w.records[Int(e.slot)].point, n.count, n.marks, n)
      }
      return
    }
    if let children = n.children {
      for c in children { walk(c, &w) }
    } else {
      for e in n.entries {
        let point = w.records[Int(e.slot)].point
        if w.holds(point) { w.take(e, point, 1, Self.mark(e.serial), nil) }
      }
    }
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
    let records = slotRecords
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
        let point = records[Int(e.slot)].point
        guard let c = Self.cell(of: point, shift: shift, viewport: vp) else { return false }
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
          for e in n.entries
          where e.slot != first && r.contains(records[Int(e.slot)].point) && inCell(e) {
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
    let records = slotRecords
    for shift in vp.worldCopies {
      let r = visible.offsetBy(dx: -shift, dy: 0).intersection(.world)
      guard !r.isNull else { continue }
      func group(_ e: Entry) -> Int {
        let point = records[Int(e.slot)].point
        guard let c = Self.cell(of: point, shift: shift, viewport: vp) else { return -1 }
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
          for e in n.entries where r.contains(records[Int(e.slot)].point) {
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
