import MapGeometry

/// How long a target that hears nothing stays: drawn stale once silent for its time-to-live,
/// removed once silent for twice that. A `ttl` property (seconds) wins, then `fixed` (the
/// command line's `--ttl`), then the kind's default: aircraft 60 s, vessels 10 minutes,
/// plain features never.
public struct TimeToLive: Sendable, Equatable {
  /// One time-to-live for every kind (nil: each kind its default).
  public var fixed: Double?
  /// The defaults per kind.
  public init(fixed: Double? = nil) { self.fixed = fixed }

  /// A kind's default (nil: never).
  public static func defaultSeconds(for kind: TargetKind) -> Double? {
    switch kind {
    case .aircraft: return 60
    case .vessel: return 600
    case .feature: return nil
    }
  }

  func seconds(for kind: TargetKind, property: Double?) -> Double? {
    if let p = property, p > 0, p.isFinite { return p }
    return fixed ?? Self.defaultSeconds(for: kind)
  }
}

/// A target as the store keeps it.
public struct TargetState: Sendable, Equatable {
  /// Its id.
  public var id: String
  /// What it is.
  public var kind: TargetKind
  /// Its geometry (`.unchanged` while it has none yet: a vessel whose name came first).
  public var geometry: LiveGeometry
  /// Its properties, merged from every message, in the order they first came.
  public var properties: [LiveProperty]
  /// When it was last heard of (the store's clock, seconds).
  public var lastSeen: Double
  /// Its time-to-live in seconds (nil: it never ages out).
  public var timeToLive: Double?
  /// Drawn stale: silent for its time-to-live.
  public var isStale: Bool
  /// Its last positions, oldest first, the current one last (at most the store's
  /// `trailLength`).
  public var trail: [Coordinate]

  /// The position of a point target.
  public var coordinate: Coordinate? {
    if case .point(let c) = geometry { return c }
    return nil
  }
}

/// Targets by id, fed with updates: an update moves its target and merges its properties,
/// `.removed` takes it away; targets silent for their time-to-live turn stale, then go. At
/// most `maximumTargets` are kept (past that the least recently updated is dropped and
/// counted). What changed since the last `takeChanges()` is kept as a list of ids, so a map
/// redraws only those, however many updates came between two frames.
public struct TargetStore: Sendable {
  /// At most this many targets (100,000 by default).
  public var maximumTargets: Int
  /// Positions kept per target for its trail (0: none; at most 10,000).
  public var trailLength: Int
  /// Time-to-live settings.
  public var timeToLive: TimeToLive
  /// Targets dropped to keep within `maximumTargets`.
  public private(set) var droppedTargets = 0

  private var slots: [TargetState?] = []
  /// What `expire(now:)` reads of each slot's target, apart from its state (reading a field
  /// of an optional state in the array copied the whole state, a walk over every target a
  /// quarter second).
  private struct Age {
    var lastSeen: Double
    var timeToLive: Double?
    var isStale: Bool
  }
  private var ages: [Age] = []
  /// Each slot's point target's map point (`MapPoint(_:)` of its coordinate), projected where
  /// it moves — by the thread that applies the update, under the feed's lock — so the frame
  /// that takes the move hands it to the maps as it is (`takeChangedSlots(_:)`), not a sine
  /// and a logarithm a moved target on the main thread. (Not kept for other geometries.)
  private var points: [MapPoint] = []
  /// No target turns stale or goes before this time, less a millisecond (a bound: `apply`
  /// lowers it to each target's time to turn stale, `expire(now:)` sets it to the earliest
  /// of the targets it keeps): an `expire(now:)` before it has nothing to do, and returns
  /// without walking the targets.
  private var quietUntil = -Double.infinity
  private var slotById: [String: Int] = [:]
  private var free: [Int] = []
  // Recency: a doubly linked list of slots, most recent at the head.
  private var newer: [Int] = []
  private var older: [Int] = []
  private var head = -1
  private var tail = -1
  // Changes since the last take.
  private var changedFlag: [Bool] = []
  private var changed: [Int] = []
  private var removed: [String] = []

  /// An empty store.
  public init(maximumTargets: Int = 100_000, trailLength: Int = 0, timeToLive: TimeToLive = .init())
  {
    self.maximumTargets = max(1, maximumTargets)
    self.trailLength = min(max(0, trailLength), 10_000)
    self.timeToLive = timeToLive
  }

  /// How many targets there are (those without a position yet included).
  public var count: Int { slotById.count }

  /// A target by id.
  public subscript(id: String) -> TargetState? {
    slotById[id].flatMap { slots[$0] }
  }

  /// Every target, least recently updated first.
  public var targets: [TargetState] {
    var out: [TargetState] = []
    out.reserveCapacity(count)
    var s = tail
    while s >= 0 {
      if let t = slots[s] { out.append(t) }
      s = newer[s]
    }
    return out
  }

  /// Applies updates read at `now` (seconds on the store's clock).
  public mutating func apply(_ updates: [LiveUpdate], now: Double) {
    for u in updates { apply(u, now: now) }
  }

  /// Applies one update read at `now`.
  public mutating func apply(_ u: LiveUpdate, now: Double) {
    if case .removed = u.geometry {
      remove(u.id)
      return
    }
    let seen = now - u.age
    if let slot = slotById[u.id] {
      var t = slots[slot]!
      slots[slot] = nil  // unique, so the merge below does not copy the arrays
      if case .unchanged = u.geometry {
      } else {
        if trailLength > 0, case .point(let c) = u.geometry, c != t.coordinate {
          t.trail.append(c)
          if t.trail.count > trailLength { t.trail.removeFirst(t.trail.count - trailLength) }
        }
        t.geometry = u.geometry
        if case .point(let c) = u.geometry { points[slot] = MapPoint(c) }
      }
      if u.kind != .feature { t.kind = u.kind }
      Self.merge(u.properties, into: &t.properties)
      if seen > t.lastSeen { t.lastSeen = seen }
      t.timeToLive = timeToLive.seconds(for: t.kind, property: Self.ttlProperty(t.properties))
      t.isStale = false
      ages[slot] = Age(lastSeen: t.lastSeen, timeToLive: t.timeToLive, isStale: false)
      if let ttl = t.timeToLive { quietUntil = min(quietUntil, t.lastSeen + ttl) }
      slots[slot] = t
      touch(slot)
      markChanged(slot)
      return
    }
    if slotById.count >= maximumTargets, tail >= 0, let oldest = slots[tail] {
      remove(oldest.id)
      droppedTargets += 1
    }
    var trail: [Coordinate] = []
    if trailLength > 0, case .point(let c) = u.geometry { trail = [c] }
    let t = TargetState(
      id: u.id, kind: u.kind, geometry: u.geometry, properties: u.properties, lastSeen: seen,
      timeToLive: timeToLive.seconds(for: u.kind, property: Self.ttlProperty(u.properties)),
      isStale: false, trail: trail)
    let slot: Int
    let age = Age(lastSeen: t.lastSeen, timeToLive: t.timeToLive, isStale: false)
    var point = MapPoint(x: 0, y: 0)
    if case .point(let c) = u.geometry { point = MapPoint(c) }
    if let ttl = t.timeToLive { quietUntil = min(quietUntil, t.lastSeen + ttl) }
    if let f = free.popLast() {
      slot = f
      slots[slot] = t
      ages[slot] = age
      points[slot] = point
    } else {
      slot = slots.count
      slots.append(t)
      ages.append(age)
      points.append(point)
      newer.append(-1)
      older.append(-1)
      changedFlag.append(false)
    }
    slotById[u.id] = slot
    linkAtHead(slot)
    markChanged(slot)
  }

  /// Removes a target (nothing when there is none).
  public mutating func remove(_ id: String) {
    guard let slot = slotById.removeValue(forKey: id) else { return }
    slots[slot] = nil
    unlink(slot)
    free.append(slot)
    removed.append(id)
  }

  /// Turns targets silent for their time-to-live stale and removes those silent for twice
  /// that. A walk over every target: call it a few times a second, not per update.
  public mutating func expire(now: Double) {
    // Before every target's time (a millisecond to spare for rounding: `now - lastSeen` is
    // then below each one's time to live, or twice it for a stale one), nothing turns stale
    // or goes.
    guard !(now + 0.001 < quietUntil) else { return }
    var earliest = Double.infinity
    var s = tail
    while s >= 0 {
      let next = newer[s]
      // Each target's age read from `ages`: copying its state (its id, properties and trail
      // retained and released) made this walk cost a frame's worth with 10,000 targets.
      let age = ages[s]
      if let ttl = age.timeToLive {
        let silent = now - age.lastSeen
        if silent >= 2 * ttl {
          if let id = slots[s]?.id { remove(id) }
        } else if silent >= ttl && !age.isStale {
          slots[s]?.isStale = true
          ages[s].isStale = true
          markChanged(s)
          earliest = min(earliest, age.lastSeen + 2 * ttl)
        } else {
          earliest = min(earliest, age.lastSeen + (age.isStale ? 2 * ttl : ttl))
        }
      }
      s = next
    }
    quietUntil = earliest
  }

  /// The targets changed since the last call (their state now) and the ids removed since,
  /// which the map applies: removals first.
  public mutating func takeChanges() -> (changed: [TargetState], removed: [String]) {
    let (changed, gone) = takeChangedSlots()
    return (changed.map(\.state), gone)
  }

  /// `takeChanges()` with each changed target's slot in the store: a slot holds one id until
  /// that id is removed (its removal is in `removed` of the same or an earlier take), so a
  /// reader may keep what it made for a target by slot and find it without hashing the id.
  mutating func takeChangedSlots() -> (
    changed: [(slot: Int, state: TargetState)], removed: [String]
  ) {
    var out: [(slot: Int, state: TargetState)] = []
    out.reserveCapacity(changed.count)
    for s in changed {
      changedFlag[s] = false
      if let t = slots[s] { out.append((s, t)) }
    }
    changed.removeAll(keepingCapacity: changed.count < 65_536)
    let gone = removed
    removed.removeAll()
    return (out, gone)
  }

  /// Whether targets were removed since the last take (a slot of one may hold another id now).
  var hasRemovals: Bool { !removed.isEmpty }

  /// `takeChangedSlots()` without copying the states out: `body` reads each changed target's
  /// slot and state where the store keeps it (a frame takes thousands, and a copy of a state
  /// is a retain and a release of each of its arrays and its id, through the optional's
  /// generic copy: a thousand instructions a state), in the order they changed, with a point
  /// target's map point (`MapPoint(_:)` of its coordinate, projected when it moved; for other
  /// geometries, meaningless). The pointer is valid only during the call, and `body` must not
  /// reach the store. Returns the ids removed.
  mutating func takeChangedSlots(
    _ body: (Int, UnsafePointer<TargetState>, MapPoint) -> Void
  ) -> [String] {
    var list: [Int] = []
    swap(&list, &changed)
    for s in list {
      changedFlag[s] = false
      if case .none = slots[s] { continue }
      let point = points[s]
      withUnsafeMutablePointer(to: &slots[s]!) { body(s, UnsafePointer($0), point) }
    }
    list.removeAll(keepingCapacity: list.count < 65_536)
    swap(&list, &changed)
    let gone = removed
    removed.removeAll()
    return gone
  }

  // MARK: Internals

  static func merge(_ new: [LiveProperty], into props: inout [LiveProperty]) {
    for p in new {
      if let k = props.firstIndex(where: { $0.key == p.key }) {
        // Written only when it differs: the array is shared with the target's annotation
        // (`LiveTarget.state`), so a write copies it, and the layer compares the properties
        // of every target that moved (the same array compares at once).
        if !Self.identical(props[k].value, p.value) { props[k].value = p.value }
      } else {
        props.append(p)
      }
    }
  }

  /// Whether two values are the same value (numbers by their bits: -0 is not 0).
  static func identical(_ a: LiveValue, _ b: LiveValue) -> Bool {
    if case .number(let x) = a, case .number(let y) = b { return x.bitPattern == y.bitPattern }
    return a == b
  }

  static func ttlProperty(_ props: [LiveProperty]) -> Double? {
    for p in props where p.key == "ttl" { return p.value.numberValue }
    return nil
  }

  private mutating func markChanged(_ s: Int) {
    guard !changedFlag[s] else { return }
    changedFlag[s] = true
    changed.append(s)
  }

  private mutating func linkAtHead(_ s: Int) {
    older[s] = head
    newer[s] = -1
    if head >= 0 { newer[head] = s }
    head = s
    if tail < 0 { tail = s }
  }

  private mutating func unlink(_ s: Int) {
    let o = older[s]
    let n = newer[s]
    if o >= 0 { newer[o] = n } else { tail = n }
    if n >= 0 { older[n] = o } else { head = o }
    older[s] = -1
    newer[s] = -1
  }

  private mutating func touch(_ s: Int) {
    guard head != s else { return }
    unlink(s)
    linkAtHead(s)
  }
}
