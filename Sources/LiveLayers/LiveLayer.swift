import DotRaster
import Foundation
import MapGeometry
import TermMapKit

/// A feed's targets on a map view: point targets are `LiveTarget` annotations that move in
/// place (`MapView.annotationsDidMove(inSlots:redisplaying:)`: handed over by their slots in
/// the map's index, one layout for all that moved, their views prepared again only when what
/// they show changed), lines and
/// polygons are overlays replaced when their target changes, and the trails of the last
/// positions are one overlay (`LiveTrails`, each in its target's colour), rebuilt at most
/// once a second. Call `synchronize()` once per frame: it takes only what changed since the
/// last call.
@MainActor
public final class LiveLayer {
  /// The targets' feed.
  public let feed: LiveFeed
  /// The map the targets are on (nil before `attach(to:)`).
  public private(set) weak var map: MapView?
  /// The point targets on the map, by id.
  public private(set) var targets: [String: LiveTarget] = [:]
  /// The overlays of line and polygon targets, by id.
  public private(set) var shapes: [String: any Overlay] = [:]
  /// The trails overlay while there is one.
  public private(set) var trails: LiveTrails?
  /// Whether the targets' markers join in clusters where they are dense (MapKit's
  /// clustering; true by default). Set before the first `synchronize()`.
  public var clustersTargets = true
  /// A map the layer is on, with each point target's slot in that map's index by the
  /// target's slot in the store (`MapView.slot(of:)`): moves are handed to the map by slot,
  /// so neither side hashes a moved target.
  private struct WeakMap {
    weak var map: MapView?
    var slots: [AnnotationSlot?] = []
    /// Notes the map's slots of targets just added to it (by their slots in the store).
    @MainActor mutating func note(_ added: [(slot: Int, target: LiveTarget)], on map: MapView) {
      for (slot, t) in added {
        if slots.count <= slot {
          slots.append(contentsOf: repeatElement(nil, count: slot + 1 - slots.count))
        }
        slots[slot] = map.slot(of: t)
      }
    }
    /// The map's slots of targets given by their slots in the store, each with its map
    /// point (`points[k]` is the target's of `storeSlots[k]`).
    func mapSlots(_ storeSlots: [Int], _ points: [MapPoint]) -> (
      slots: [AnnotationSlot], points: [MapPoint]
    ) {
      var out: [AnnotationSlot] = []
      var at: [MapPoint] = []
      out.reserveCapacity(storeSlots.count)
      at.reserveCapacity(storeSlots.count)
      for (s, c) in zip(storeSlots, points) where s < slots.count {
        if let m = slots[s] {
          out.append(m)
          at.append(c)
        }
      }
      return (out, at)
    }
  }
  private var maps: [WeakMap] = []
  /// The point targets by their slot in the feed's store (`TargetStore.takeChangedSlots()`),
  /// so a target that moves is found without hashing its id, and each one's slot by id.
  private var targetBySlot: [LiveTarget?] = []
  private var slotOfTarget: [String: Int] = [:]
  private var trailsChanged = false
  private var lastTrails = -Double.infinity
  private var lastExpiry = -Double.infinity
  /// How many point targets only moved in the last `synchronize()`.
  private var lastMoved = 0

  /// A layer showing a feed's targets.
  public init(feed: LiveFeed) {
    self.feed = feed
  }

  /// Puts the layer's targets on a map. A layer may be on several maps (the sessions of
  /// `termmap serve`): its sources are read once and every map shows the same targets; a map
  /// attached later gets at once what the others show, and a map that is gone is forgotten.
  public func attach(to map: MapView) {
    if self.map == nil { self.map = map }
    maps.removeAll { $0.map == nil || $0.map === map }
    var entry = WeakMap(map: map)
    if !targets.isEmpty {
      map.addAnnotations(Array(targets.values))
      var all: [(slot: Int, target: LiveTarget)] = []
      for (slot, t) in targetBySlot.enumerated() {
        if let t { all.append((slot, t)) }
      }
      entry.note(all, on: map)
    }
    maps.append(entry)
    for o in shapes.values { map.addOverlay(o, level: .aboveLabels) }
    if let t = trails { map.addOverlay(t, level: .aboveRoads) }
  }

  /// Takes the layer's targets, shapes and trails off a map (a viewer hiding the layer);
  /// `attach(to:)` puts them back as they are then. The layer goes on for its other maps.
  public func detach(from map: MapView) {
    guard maps.contains(where: { $0.map === map }) else { return }
    maps.removeAll { $0.map == nil || $0.map === map }
    if self.map === map { self.map = maps.first?.map }
    if !targets.isEmpty { map.removeAnnotations(Array(targets.values)) }
    if !shapes.isEmpty { map.removeOverlays(Array(shapes.values)) }
    if let t = trails { map.removeOverlay(t) }
  }

  /// The maps the layer is on.
  public var attachedMaps: [MapView] { maps.compactMap(\.map) }

  /// Counts the `synchronize()` calls that changed the maps: a viewer sharing the layer with
  /// others (whose calls take the changes) compares it with the count it last saw.
  public private(set) var revision = 0

  /// How many targets are drawn (points, lines and polygons).
  public var count: Int { targets.count + shapes.count }

  /// Applies what changed in the feed since the last call: targets added, moved, changed,
  /// turned stale or removed (time-to-live is checked four times a second). True when the
  /// targets changed. `trailsNow` rebuilds the trails whatever the time since the last. A
  /// layer on no map (hidden by its viewer) keeps its tables up to date all the same, so a
  /// map it is attached to again gets the targets as they are.
  @discardableResult
  public func synchronize(trailsNow: Bool = false) -> Bool {
    maps.removeAll { $0.map == nil }
    let now = feed.clock()
    let expire = now - lastExpiry >= 0.25
    if expire { lastExpiry = now }
    // Point targets that moved, by their slots in the store: those whose markers show the
    // same (only the position changed) and those whose markers change. They take their new
    // states where the store keeps them (under the feed's lock); the other changes (targets
    // new here, lines and polygons) are copied out and made after.
    var moved: [Int] = []
    var redisplayed: [Int] = []
    // Their map points, as they moved: handed to the maps with their slots, so the index
    // neither asks each target for its coordinate again nor projects it (the store projected
    // it when the target moved, off the main thread).
    var movedTo: [MapPoint] = []
    // As many as moved last time (a frame's moves are alike: not grown by doubling).
    moved.reserveCapacity(lastMoved)
    movedTo.reserveCapacity(lastMoved)
    var redisplayedAt: [MapPoint] = []
    var changed: [(slot: Int, state: TargetState)] = []
    let bySlot = targetBySlot
    let (removed, trailLength) = feed.withStore { store in
      if expire { store.expire(now: now) }
      // A removal in this take may have freed a slot that another target (or the same id,
      // back) holds now: then every change is copied out and made after the removals.
      if store.hasRemovals {
        let c = store.takeChangedSlots()
        changed = c.changed
        return (c.removed, store.trailLength)
      }
      let removed = store.takeChangedSlots { slot, state, point in
        // (The state read where the store keeps it, not copied.)
        if case .point = state.pointee.geometry, slot < bySlot.count,
          let t = bySlot[slot]
        {
          // A point target already (so no line or polygon has its id): it moves.
          if t.update(from: state) {
            redisplayed.append(slot)
            redisplayedAt.append(point)
          } else {
            moved.append(slot)
            movedTo.append(point)
          }
        } else {
          changed.append((slot, state.pointee))
        }
      }
      return (removed, store.trailLength)
    }
    lastMoved = moved.count
    if trailLength > 0 && !(moved.isEmpty && redisplayed.isEmpty) { trailsChanged = true }
    guard
      !changed.isEmpty || !moved.isEmpty || !redisplayed.isEmpty || !removed.isEmpty
        || (trailsChanged && trailLength > 0)
    else {
      return false
    }
    var gone: [any Annotation] = []
    var shapesGone: [any Overlay] = []
    var shapesAdded: [any Overlay] = []
    for id in removed {
      if let t = removeTarget(id) { gone.append(t) }
      if let o = shapes.removeValue(forKey: id) { shapesGone.append(o) }
    }
    if !gone.isEmpty { trailsChanged = true }
    var added: [any Annotation] = []
    var addedSlots: [(slot: Int, target: LiveTarget)] = []
    for (slot, state) in changed {
      switch state.geometry {
      case .point(let c):
        if slot < targetBySlot.count, let t = targetBySlot[slot] {
          // A point target already (so no line or polygon has its id): it moves.
          if t.update(state) {
            redisplayed.append(slot)
            redisplayedAt.append(MapPoint(c))
          } else {
            moved.append(slot)
            movedTo.append(MapPoint(c))
          }
        } else {
          if let o = shapes.removeValue(forKey: state.id) { shapesGone.append(o) }
          let t = LiveTarget(
            state, clusteringIdentifier: clustersTargets ? LiveTargetView.clusters : nil)
          targets[state.id] = t
          if targetBySlot.count <= slot {
            targetBySlot.append(
              contentsOf: repeatElement(nil, count: slot + 1 - targetBySlot.count))
          }
          targetBySlot[slot] = t
          slotOfTarget[state.id] = slot
          added.append(t)
          addedSlots.append((slot, t))
        }
        if trailLength > 0 { trailsChanged = true }
      case .lines, .polygons:
        if let t = removeTarget(state.id) { gone.append(t) }
        if let o = shapes.removeValue(forKey: state.id) { shapesGone.append(o) }
        let o = Self.overlay(for: state)
        shapes[state.id] = o
        shapesAdded.append(o)
      case .removed, .unchanged:
        break
      }
    }
    for k in maps.indices {
      guard let map = maps[k].map else { continue }
      if !gone.isEmpty { map.removeAnnotations(gone) }
      if !shapesGone.isEmpty { map.removeOverlays(shapesGone) }
      if !shapesAdded.isEmpty { map.addOverlays(shapesAdded, level: .aboveLabels) }
      if !added.isEmpty {
        map.addAnnotations(added)
        maps[k].note(addedSlots, on: map)
      }
      if !moved.isEmpty {
        let (slots, points) = maps[k].mapSlots(moved, movedTo)
        map.annotationsDidMove(inSlots: slots, points: points, redisplaying: false)
      }
      if !redisplayed.isEmpty {
        let (slots, points) = maps[k].mapSlots(redisplayed, redisplayedAt)
        map.annotationsDidMove(inSlots: slots, points: points, redisplaying: true)
      }
    }
    if trailLength > 0 && trailsChanged && (trailsNow || now - lastTrails >= 1) {
      rebuildTrails(attachedMaps)
      lastTrails = now
    }
    revision += 1
    return true
  }

  /// Takes a point target out of the layer's tables.
  private func removeTarget(_ id: String) -> LiveTarget? {
    guard let t = targets.removeValue(forKey: id) else { return nil }
    if let slot = slotOfTarget.removeValue(forKey: id) { targetBySlot[slot] = nil }
    return t
  }

  /// Every point target, in no particular order.
  public var allTargets: [LiveTarget] { Array(targets.values) }

  private func rebuildTrails(_ maps: [MapView]) {
    trailsChanged = false
    if let old = trails { for map in maps { map.removeOverlay(old) } }
    trails = nil
    var lines: [(coordinates: [Coordinate], color: TermColor)] = []
    for t in targets.values {
      let trail = t.state.trail
      if trail.count >= 2 { lines.append((trail, t.drawnColor)) }
    }
    guard !lines.isEmpty else { return }
    let m = LiveTrails(lines)
    trails = m
    for map in maps { map.addOverlay(m, level: .aboveRoads) }
  }

  /// The overlay of a line or polygon target, titled with its title: a `LiveShape` drawn
  /// with its simplestyle properties.
  static func overlay(for state: TargetState) -> any Overlay {
    let title = LiveTarget(state).title ?? state.id
    return LiveShape(state, title: title) ?? MultiPolyline([], title: title)
  }
}
