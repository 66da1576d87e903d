import DotRaster
import MapGeometry

/// Why a view could not be dequeued.
public enum AnnotationViewError: Error, Equatable, CustomStringConvertible {
  /// Nothing is registered for this reuse identifier.
  case unregisteredReuseIdentifier(String)
  public var description: String {
    switch self {
    case .unregisteredReuseIdentifier(let id):
      return "no annotation view class is registered for reuse identifier \"\(id)\""
    }
  }
}

/// An annotation's place in one map's index (`MapView.slot(of:)`): handed back to the map
/// with `MapView.annotationsDidMove(inSlots:redisplaying:)`, it names the annotation without
/// the map hashing it. It names that annotation until it is removed from that map; after
/// that it names nothing, even when another annotation takes the place.
public struct AnnotationSlot: Hashable, Sendable {
  /// The slot in the index.
  let index: Int32
  /// The annotation's place in the order annotations were added to the map (the slot's, while
  /// it holds this annotation).
  let serial: Int
}

/// What the clustering, collision and marker passes read of a view on screen, copied out of
/// the view in one pass (`MapView.readFacts`): thousands of views are objects scattered in
/// memory, and reading each in every pass was a cache miss per view per pass.
struct ViewFacts {
  /// The annotation's map point, as the layout found it.
  var point: MapPoint
  /// The annotation's place in the order annotations were added (`layoutOrder`).
  var order: Int
  /// `representedMarks`.
  var marks: UInt64
  /// `layoutSlot` (-1: the view left the screen).
  var slot: Int32
  /// `representedCount`.
  var count: Int32
  /// The count a collision hides with the view: a cluster view's members, else `count`.
  var collisionCount: Int32
  /// The marker's cell, `centerOffset` applied (column -1: not on screen).
  var column: Int32
  var row: Int32
  /// The cells it claims in collisions from its marker rightwards (`MapView.collisionWidth`).
  var width: Int32
  /// `clusterKey` when the view may join a cluster (`MapView.isClusterable`), else -1.
  var clusterKey: Int32
  /// `collidedCount`.
  var collided: Int32
  /// `displayPriority`'s raw value.
  var priority: Float
  /// `isHidden`, `isSelected`, whether it claims cells (collision mode not `.none`), whether it
  /// always shows.
  var hidden: Bool
  var selected: Bool
  var claims: Bool
  var always: Bool
}

/// Views on screen, views waiting for reuse, and registered view classes.
@MainActor
struct AnnotationViewRegistry {
  var visible: [ObjectIdentifier: AnnotationView] = [:]
  /// The views on screen by their annotation's slot in the index (the same views as `visible`),
  /// so a layout finds them without hashing annotations.
  var bySlot: [AnnotationView?] = []
  /// The views on screen in the order the last layout found them (the same views as
  /// `visible`): frames walk these, in the index's spatial order, not the dictionary's
  /// scattered one.
  var shown: [AnnotationView] = []
  /// The viewport of the last layout while its collisions are still to resolve.
  var collisionsFor: Viewport?
  /// The current layout pass (views found on screen in it carry it as `layoutStamp`).
  var stamp: UInt32 = 0
  /// The last pass's representatives, kept for its capacity (a pass over a dense place finds
  /// thousands).
  var reps: [AnnotationIndex.Representative] = []
  /// The table `AnnotationIndex.representatives` finds cells' representatives in (a place in
  /// `reps` by cell), kept between passes with every cell -1.
  var cellReps: [Int32] = []
  var queues: [String: [AnnotationView]] = [:]
  var classes: [String: AnnotationView.Type] = [:]
  var selected: (any Annotation)?
  /// The clusters on screen, as the slots of the annotations whose views held their places, in
  /// the order they formed (MapView+Clustering.swift).
  var clusterHeads: [Int32] = []
  /// The clusters on screen by the slot of the annotation whose view held the place: a
  /// clustering pass finds a group's last cluster by its first member's slot, without hashing
  /// its annotation.
  var clusterSlots: [ClusterSlot] = []
  /// The last clustering pass's groups' claims (a group whose claims are the same keeps its
  /// cluster as it is).
  var lastClusterPass = ClusterPass()
  /// Their views, drawn with `shown`.
  var clusterViews: [AnnotationView] = []
  /// The places in `shown` of the views that are no cluster's members, in order, when the last
  /// layout formed clusters (nil: every view of `shown` may show): a frame's markers are looked
  /// for among these and `clusterViews`, not among thousands of hidden members.
  var unclustered: [Int32]?
  /// What the frame's passes read of each view of `shown`, by its place there
  /// (`MapView.readFacts`): read once when collisions are resolved, so the clustering, the
  /// collisions and the markers read an array in order and reach a view object only for what
  /// they change or draw.
  var facts: [ViewFacts] = []
  /// Whether `facts` holds for `shown` as it is: its `hidden` flags are each view's
  /// `isHidden` (set when collisions are resolved, cleared by a layout and by a selection).
  var factsValid = false
  /// The clustering passes made (`ClusterRecord.keptPass`).
  var clusterPass: UInt32 = 0
  /// Whether a view on screen had a clustering identifier at the last layout: collisions are
  /// then resolved with the layout, so cluster views are made (and the delegate hears of them)
  /// before the frame draws.
  var clustering = false
  /// The drag in progress (MapView+Dragging.swift).
  var drag: DragSession?
}

extension MapView {
  /// The identifier of the standard marker view.
  public static let defaultAnnotationViewReuseIdentifier = "termmap.default-annotation-view"

  // MARK: Annotations

  /// Every annotation on the map.
  public var annotations: [any Annotation] { annotationIndex.annotations(in: .world) }

  /// How many annotations are on the map.
  public var annotationCount: Int { annotationIndex.count }

  /// Adds an annotation; its view is made when it comes on screen.
  public func addAnnotation(_ annotation: any Annotation) {
    annotationIndex.insert(annotation)
    setNeedsLayout()
  }

  /// Adds annotations; their views are made when they come on screen.
  public func addAnnotations(_ annotations: [any Annotation]) {
    annotationIndex.insert(contentsOf: annotations)
    setNeedsLayout()
  }

  /// Removes an annotation; its view goes to the reuse queue.
  public func removeAnnotation(_ annotation: any Annotation) {
    // A cluster is not in the index: the map takes it away itself.
    guard annotationIndex.contains(annotation) else { return }
    if let d = annotationViews.drag, d.annotation === annotation { cancelDrag() }
    if let s = annotationViews.selected, s === annotation {
      deselectAnnotation(annotation, animated: false)
    }
    annotationIndex.remove(annotation)
    if let v = annotationViews.visible.removeValue(forKey: ObjectIdentifier(annotation)) {
      forgetSlot(of: v)
      enqueue(v)
    }
    setNeedsLayout()
  }

  /// Removes annotations; their views go to the reuse queue.
  public func removeAnnotations(_ annotations: [any Annotation]) {
    for a in annotations { removeAnnotation(a) }
  }

  /// Re-indexes an annotation whose coordinate changed.
  public func annotationDidMove(_ annotation: any Annotation) {
    guard annotationIndex.move(annotation) else { return }
    setNeedsLayout()
  }

  /// Re-indexes annotations whose coordinates changed, with one layout for all of them, and
  /// has the views on screen of those annotations `prepareForDisplay()` again, so a view that
  /// shows its annotation's state (a heading, a colour, a label) follows it: annotations that
  /// move in place, as live targets do, without being removed and added.
  ///
  /// The index takes the moves in the order of its slots (which follow the annotations'
  /// places on the map), not the order given, so thousands of moves read its memory in order
  /// rather than a cache miss or three each; a move that stays in its leaf of the index
  /// changes only that leaf. The index's shape depends only on where the annotations are, so
  /// the frame is the one `annotationDidMove(_:)` for each, in any order, would give.
  public func annotationsDidMove(_ annotations: [any Annotation]) {
    var slots: [Int32] = []
    slots.reserveCapacity(annotations.count)
    for a in annotations {
      if let slot = annotationIndex.slot(of: a) { slots.append(slot) }
    }
    moveInIndex(slots, redisplaying: true)
  }

  /// Where an annotation is in this map's index, kept by a program that moves many
  /// annotations often (`annotationsDidMove(inSlots:redisplaying:)`), so the map finds them
  /// without hashing each (nil when the annotation is not on the map).
  public func slot(of annotation: any Annotation) -> AnnotationSlot? {
    annotationIndex.handle(of: annotation).map { AnnotationSlot(index: $0.slot, serial: $0.serial) }
  }

  /// `annotationsDidMove(_:)` for annotations given by their slots on this map
  /// (`slot(of:)`): the map finds them without hashing each, so a program that moves
  /// thousands a frame (live targets) hands them over for the cost of the moves. A slot of an
  /// annotation removed since is passed over.
  ///
  /// With `redisplaying` false the views on screen are not asked to `prepareForDisplay()`
  /// again: for annotations whose coordinates alone changed, whose views show nothing that
  /// depends on where they are. The frame is the one `annotationsDidMove(_:)` would give for
  /// those annotations.
  public func annotationsDidMove(inSlots slots: [AnnotationSlot], redisplaying: Bool = true) {
    var found: [Int32] = []
    found.reserveCapacity(slots.count)
    for s in slots where annotationIndex.holds(slot: s.index, serial: s.serial) {
      found.append(s.index)
    }
    moveInIndex(found, redisplaying: redisplaying)
  }

  /// `annotationsDidMove(inSlots:redisplaying:)` for annotations whose coordinates now are
  /// given with their slots (`coordinates[k]` is the `coordinate` of the annotation of
  /// `slots[k]`, as the caller knows, having just set it): the map does not ask each
  /// annotation for its coordinate (a live target reads its own under a lock). The frame is
  /// the one `annotationsDidMove(inSlots:redisplaying:)` would give.
  public func annotationsDidMove(
    inSlots slots: [AnnotationSlot], coordinates: [Coordinate], redisplaying: Bool = true
  ) {
    precondition(coordinates.count == slots.count, "a coordinate for each slot")
    annotationsDidMove(
      inSlots: slots, points: coordinates.map(MapPoint.init), redisplaying: redisplaying)
  }

  /// `annotationsDidMove(inSlots:coordinates:redisplaying:)` for annotations whose map points
  /// now are given with their slots (`points[k]` is `MapPoint(_:)` of the `coordinate` of the
  /// annotation of `slots[k]`): a caller that projected each coordinate already — off the
  /// main thread, where it was set — spares the frame the projection. The frame is the one
  /// `annotationsDidMove(inSlots:coordinates:redisplaying:)` would give for those
  /// coordinates.
  public func annotationsDidMove(
    inSlots slots: [AnnotationSlot], points: [MapPoint], redisplaying: Bool = true
  ) {
    precondition(points.count == slots.count, "a point for each slot")
    // The slots checked and moved in one pass of the index (no lists of those found and
    // their points made here first).
    let (count, moved) = annotationIndex.move(slots, points: points, listing: redisplaying)
    guard count > 0 else { return }
    if redisplaying { redisplay(moved) }
    setNeedsLayout()
  }

  /// Moves annotations in the index by slot (each to its coordinate now), perhaps with their
  /// views on screen prepared for display again, and lays out again.
  private func moveInIndex(_ slots: [Int32], redisplaying: Bool) {
    guard !slots.isEmpty else { return }
    let moved = annotationIndex.move(slots: slots)
    if redisplaying { redisplay(moved) }
    setNeedsLayout()
  }

  /// Has the views on screen of annotations just moved (by slot) `prepareForDisplay()` again.
  private func redisplay(_ moved: [Int32]) {
    // The views on screen, found by slot (the same views as `visible` has for them).
    let views = annotationViews.bySlot.count
    for s in moved where Int(s) < views {
      annotationViews.bySlot[Int(s)]?.prepareForDisplay()
    }
  }

  /// The annotations inside a map rect (from the spatial index).
  public func annotations(in rect: MapRect) -> [any Annotation] {
    annotationIndex.annotations(in: rect)
  }

  /// The view of an annotation, or nil when it is off screen.
  public func view(for annotation: any Annotation) -> AnnotationView? {
    layoutIfNeeded()
    return annotationViews.visible[ObjectIdentifier(annotation)]
  }

  /// The views on screen (hidden ones included).
  public var annotationViewsOnScreen: [AnnotationView] {
    layoutIfNeeded()
    return Array(annotationViews.visible.values)
  }

  // MARK: Hit testing

  /// The views whose markers are drawn at a cell (hidden ones left out), the one drawn on top
  /// first (a selected view by its `selectedZPriority`).
  public func annotationViews(atColumn column: Int, row: Int) -> [AnnotationView] {
    let vp = viewport
    // Where the frame draws it: the point the layout found (or where it is dragged).
    return annotationViewsOnScreen.filter { v in
      guard !v.isHidden, v.annotation != nil, let c = vp.cell(for: v.layoutPoint) else {
        return false
      }
      return c.column + v.centerOffset.columns == column && c.row + v.centerOffset.rows == row
    }.sorted { a, b in
      (a.isSelected ? a.selectedZPriority : a.zPriority)
        > (b.isSelected ? b.selectedZPriority : b.zPriority)
    }
  }

  /// The view drawn on top at a cell, if any: what a click there selects.
  public func annotationView(atColumn column: Int, row: Int) -> AnnotationView? {
    annotationViews(atColumn: column, row: row).first
  }

  /// The annotations whose markers are drawn at a cell, the one on top first.
  public func annotations(atColumn column: Int, row: Int) -> [any Annotation] {
    annotationViews(atColumn: column, row: row).compactMap(\.annotation)
  }

  /// The overlays that drew ink in a cell in the last frame, the one on top first (what a
  /// click on a route or a shape there means).
  public func overlays(atColumn column: Int, row: Int) -> [any Overlay] {
    let (w, h) = (CellGeometry.dotsWide, CellGeometry.dotsHigh)
    let (x0, y0) = (column * w, row * h)
    var found: [(layer: Int, overlay: any Overlay)] = []
    var seen = Set<ObjectIdentifier>()
    for p in framePlacements {
      let overlay = frameLayers[p.layer].overlay
      guard !seen.contains(ObjectIdentifier(overlay)),
        case .drawn(let tile?, _)? = composer.tileCache.lookup(p.key)
      else { continue }
      let (lx, ly) = (x0 - p.x, y0 - p.y)
      guard lx + w > 0, ly + h > 0, lx < tile.dots.width, ly < tile.dots.height else { continue }
      var inked = false
      for y in max(ly, 0)..<min(ly + h, tile.dots.height) where !inked {
        for x in max(lx, 0)..<min(lx + w, tile.dots.width) where tile.dots[x, y].raw != 0 {
          inked = true
          break
        }
      }
      if inked {
        seen.insert(ObjectIdentifier(overlay))
        found.append((p.layer, overlay))
      }
    }
    return found.sorted { $0.layer > $1.layer }.map(\.overlay)
  }

  // MARK: Reuse

  /// Registers the class made by `dequeueReusableAnnotationView(withIdentifier:for:)`.
  public func register(
    _ viewClass: AnnotationView.Type, forAnnotationViewWithReuseIdentifier id: String
  ) {
    annotationViews.classes[id] = viewClass
  }

  /// A queued view with this identifier, or nil when the queue is empty.
  public func dequeueReusableAnnotationView(withIdentifier id: String) -> AnnotationView? {
    // Popped in place: taking the queue out of the dictionary first would copy it whole for
    // every view dequeued (a pan over thousands of markers dequeues thousands).
    guard let v = annotationViews.queues[id]?.popLast() else { return nil }
    v.prepareForReuse()
    return v
  }

  /// A queued view, or a new one of the registered class, showing `annotation`. Throws when
  /// nothing is registered for the identifier.
  public func dequeueReusableAnnotationView(
    withIdentifier id: String, for annotation: any Annotation
  )
    throws(AnnotationViewError) -> AnnotationView
  {
    if let v = dequeueReusableAnnotationView(withIdentifier: id) {
      v.annotation = annotation
      return v
    }
    guard let cls = annotationViews.classes[id] else {
      throw .unregisteredReuseIdentifier(id)
    }
    return cls.init(annotation: annotation, reuseIdentifier: id)
  }

  /// Views waiting in the reuse queue for an identifier.
  public func queuedViewCount(withIdentifier id: String) -> Int {
    annotationViews.queues[id]?.count ?? 0
  }

  func enqueue(_ v: AnnotationView) {
    if v.isSelected { v.setSelected(false, animated: false) }
    v.annotation = nil
    v.layoutSlot = -1
    v.cluster = nil
    guard let id = v.reuseIdentifier else { return }
    annotationViews.queues[id, default: []].append(v)
  }

  func makeView(for a: any Annotation) -> AnnotationView {
    if let v = delegate?.mapView(self, viewFor: a) {
      v.annotation = a
      return v
    }
    // An annotation with a standard view of its own (the user's location) gets it.
    if let own = a as? any DefaultAnnotationViewProviding { return own.makeDefaultAnnotationView() }
    // A cluster the map made gets the standard cluster view (MapKit's default cluster
    // identifier), anything else the standard marker.
    let isCluster = a is ClusterAnnotation
    let id =
      isCluster
      ? Self.defaultClusterAnnotationViewReuseIdentifier : Self.defaultAnnotationViewReuseIdentifier
    let standard: AnnotationView.Type =
      isCluster ? ClusterAnnotationView.self : MarkerAnnotationView.self
    if annotationViews.classes[id] == nil {
      annotationViews.classes[id] = standard
    }
    return (try? dequeueReusableAnnotationView(withIdentifier: id, for: a))
      ?? standard.init(annotation: a, reuseIdentifier: id)
  }

  // MARK: Selection

  /// The selected annotation, if any (at most one).
  public var selectedAnnotations: [any Annotation] {
    get { annotationViews.selected.map { [$0] } ?? [] }
    set {
      if let first = newValue.first {
        selectAnnotation(first, animated: false)
      } else if let s = annotationViews.selected {
        deselectAnnotation(s, animated: false)
      }
    }
  }

  /// Selects an annotation that has a view on screen (does nothing for one off screen).
  public func selectAnnotation(_ annotation: any Annotation, animated: Bool) {
    layoutIfNeeded()
    guard let v = annotationViews.visible[ObjectIdentifier(annotation)], v.isEnabled else { return }
    if let s = annotationViews.selected {
      if s === annotation { return }
      deselectAnnotation(s, animated: animated)
    }
    annotationViews.selected = annotation
    v.isHidden = false
    // A member of a cluster may show now: the frame looks for markers among all the views, as
    // they are (not as the facts read with the collisions have them).
    annotationViews.unclustered = nil
    annotationViews.factsValid = false
    // The next clustering pass reads every cluster's signature: a member of a cluster shown
    // now (it is selected) may be deselected before that pass, its claim as it was.
    annotationViews.lastClusterPass = ClusterPass()
    v.setSelected(true, animated: animated)
    delegate?.mapView(self, didSelect: v)
    delegate?.mapView(self, didSelect: annotation)
  }

  /// Deselects an annotation (closing its callout).
  public func deselectAnnotation(_ annotation: any Annotation, animated: Bool) {
    guard let s = annotationViews.selected, s === annotation else { return }
    annotationViews.selected = nil
    if let v = annotationViews.visible[ObjectIdentifier(annotation)] {
      v.setSelected(false, animated: animated)
      delegate?.mapView(self, didDeselect: v)
    }
    delegate?.mapView(self, didDeselect: annotation)
  }

  /// Whether the selected view shows a callout: it allows one and its annotation has a title.
  public var isCalloutVisible: Bool {
    guard showsCallouts, let s = annotationViews.selected,
      let v = annotationViews.visible[ObjectIdentifier(s)]
    else {
      return false
    }
    // No callout while its marker is dragged.
    return v.canShowCallout && s.title != nil && !v.isBeingDragged
  }

  /// Taps the selected callout's right accessory; only a control reaches the delegate.
  public func tapCalloutAccessory() {
    guard isCalloutVisible, let s = annotationViews.selected,
      let v = annotationViews.visible[ObjectIdentifier(s)], let acc = v.rightCalloutAccessory,
      acc.isControl
    else { return }
    delegate?.mapView(self, annotationView: v, calloutAccessoryControlTapped: acc)
  }

  // MARK: Layout

  /// Brings views in line with the visible area: views for annotations that came on screen
  /// (from the delegate or the queue), queued views for those that left, and collisions.
  ///
  /// Views that stay on screen are kept (as MapKit keeps them); they are found by their
  /// annotation's slot in the index, and marked with this pass's stamp, so the pass hashes only
  /// the annotations that come or go.
  func layoutAnnotationViews() {
    // No annotations and no views: nothing to find, nothing to leave.
    if annotationIndex.count == 0 && annotationViews.shown.isEmpty {
      annotationViews.collisionsFor = nil
      annotationViews.clustering = false
      if !annotationViews.clusterHeads.isEmpty { dismissAllClusters() }
      return
    }
    let vp = viewport
    annotationViews.unclustered = nil
    annotationViews.factsValid = false
    var reps: [AnnotationIndex.Representative] = []
    swap(&reps, &annotationViews.reps)
    reps.removeAll(keepingCapacity: true)
    defer { swap(&reps, &annotationViews.reps) }
    // The table of cells' representatives, kept between passes all -1 but for the cells the
    // last pass wrote, which it cleared after (not a screenful of cells filled each pass).
    var slots: [Int32] = []
    swap(&slots, &annotationViews.cellReps)
    if slots.count != vp.columns * vp.rows {
      slots = [Int32](repeating: -1, count: vp.columns * vp.rows)
    }
    let visible = vp.mapRect
    // While views cluster, the walk logs the members it counts (for the new clusters' members).
    annotationIndex.startMemberLog(annotationViews.clustering ? vp : nil)
    for shift in vp.worldCopies {
      let r = visible.offsetBy(dx: -shift, dy: 0).intersection(.world)
      guard !r.isNull else { continue }
      annotationIndex.representatives(in: r, shift: shift, viewport: vp, into: &reps, slots: &slots)
    }
    // (Through the table's storage: no uniqueness check a cell. Safe: a representative's cell
    // is on screen, `AnnotationIndex.cell(of:shift:viewport:)`, so its place is below
    // `columns × rows`, the table's count; nothing else reaches the table meanwhile.)
    let columns = vp.columns
    slots.withUnsafeMutableBufferPointer { cells in
      for rep in reps { cells[rep.row * columns + rep.column] = -1 }
    }
    swap(&slots, &annotationViews.cellReps)
    let capacity = annotationIndex.slotCapacity
    if annotationViews.bySlot.count < capacity {
      annotationViews.bySlot.append(
        contentsOf: repeatElement(nil, count: capacity - annotationViews.bySlot.count))
    }
    annotationViews.stamp &+= 1
    let stamp = annotationViews.stamp
    // Views that stay: this pass's count (an annotation seen in two copies of the world takes
    // the count of the last), its point and its order of addition. The views on screen are
    // listed in the order found, each once.
    var entering: [Int] = []
    var previous: [AnnotationView] = []
    swap(&previous, &annotationViews.shown)
    // The views that stay, written straight into the new list's storage (thousands a frame:
    // an append each was a call to make the list unique and one to append). Its capacity,
    // one place a representative, also holds the views that enter (no view is listed twice).
    var shown: [AnnotationView]
    do {
      // (The table's copy gone before the entering views are written to it.)
      let bySlot = annotationViews.bySlot
      shown = [AnnotationView](unsafeUninitializedCapacity: reps.count) { buffer, initialized in
        // Safe: each place below `buffer.count` (at least `reps.count`) is initialized once, in
        // order (a view is written at most once a representative, so `n` < `reps.count`), and
        // `initialized` is set to exactly the places written; nothing here throws or returns
        // early, and no code but this loop's reaches the buffer meanwhile.
        var n = 0
        for (k, rep) in reps.enumerated() {
          if let v = bySlot[Int(rep.slot)] {
            if v.layoutStamp != stamp {
              v.layoutStamp = stamp
              buffer.initializeElement(at: n, to: v)
              n += 1
            }
            v.representedCount = rep.count
            v.representedMarks = rep.marks
            v.layoutPoint = rep.point
            v.layoutOrder = rep.serial
          } else {
            entering.append(k)
          }
        }
        initialized = n
      }
    }
    // Views that leave: those of the last pass not found in this one (a view removed with its
    // annotation since has left already: its slot is -1).
    var leaving: [AnnotationView] = []
    for v in previous where v.layoutStamp != stamp && v.layoutSlot >= 0 {
      leaving.append(v)
    }
    // A drag whose annotation left the screen is cancelled.
    for v in leaving where v.isBeingDragged { cancelDrag() }
    for v in leaving {
      if let a = v.annotation { annotationViews.visible[ObjectIdentifier(a)] = nil }
      forgetSlot(of: v)
    }
    if let s = annotationViews.selected, annotationViews.visible[ObjectIdentifier(s)] == nil {
      annotationViews.selected = nil
      if let v = leaving.first(where: { $0.annotation === s }) {
        v.setSelected(false, animated: false)
        delegate?.mapView(self, didDeselect: v)
      }
    }
    for v in leaving { enqueue(v) }
    var added: [AnnotationView] = []
    for n in entering {
      let rep = reps[n]
      let slot = Int(rep.slot)
      if let v = annotationViews.bySlot[slot] {
        // The same annotation in another copy of the world, made earlier in this pass.
        v.representedCount = rep.count
        v.representedMarks = rep.marks
        continue
      }
      let a = annotationIndex.annotation(inSlot: rep.slot)
      let v = makeView(for: a)
      v.representedCount = rep.count
      v.representedMarks = rep.marks
      v.prepareForDisplay()
      v.layoutSlot = rep.slot
      v.layoutStamp = stamp
      v.layoutPoint = rep.point
      v.layoutOrder = rep.serial
      annotationViews.visible[ObjectIdentifier(a)] = v
      annotationViews.bySlot[slot] = v
      shown.append(v)
      added.append(v)
    }
    annotationViews.shown = shown
    if !added.isEmpty { delegate?.mapView(self, didAdd: added) }
    keepDraggedMarker()
    annotationViews.clustering = viewsUseClustering()
    annotationViews.collisionsFor = vp
  }

  /// Resolves the last layout's collisions if that is still to do.
  func resolveCollisionsIfNeeded() {
    guard let vp = annotationViews.collisionsFor else { return }
    annotationViews.collisionsFor = nil
    resolveCollisions(vp)
  }

  /// Takes a view that leaves the screen out of the by-slot table.
  func forgetSlot(of v: AnnotationView) {
    let slot = Int(v.layoutSlot)
    if slot >= 0 && slot < annotationViews.bySlot.count && annotationViews.bySlot[slot] === v {
      annotationViews.bySlot[slot] = nil
    }
    v.layoutSlot = -1
  }

  /// Hides the lower-priority view where views overlap (ties: the one farther from the centre,
  /// then the annotation added later). Clusters are formed first (MapView+Clustering.swift):
  /// their views take part in place of their members'.
  ///
  /// The views are read once, into `annotationViews.facts` (`readFacts`); the clustering and
  /// the collisions work on those, and a view's `isHidden` and `collidedCount` are written
  /// only when they change.
  func resolveCollisions(_ vp: Viewport) {
    // Each view's point and order of addition are its own copies (set by the layout), not
    // read from the index's arrays by slot: slots follow the order annotations were added, so
    // reading those for every view on screen was a cache miss each.
    let views = annotationViews.shown
    var facts: [ViewFacts] = []
    swap(&facts, &annotationViews.facts)
    readFacts(views, vp, into: &facts)
    // The views that take part, by their places in `views` (a cluster's view as `~k`, its
    // place in `clusterViews`), when clusters formed; nil: all of `views`.
    var placed: [Int32]? = nil
    var clusterFacts: [ViewFacts] = []
    if annotationViews.clustering {
      placed = formClusters(views, &facts, &clusterFacts, vp)
    } else if !annotationViews.clusterHeads.isEmpty {
      dismissAllClusters()
    }
    let clusterViews = annotationViews.clusterViews
    let count = placed?.count ?? views.count
    var inputs: [CollisionInput] = []
    // Each input's place (as `placed` gives it).
    var places: [Int32] = []
    inputs.reserveCapacity(count)
    places.reserveCapacity(count)
    for n in 0..<count {
      let p = placed?[n] ?? Int32(n)
      let f = p >= 0 ? facts[Int(p)] : clusterFacts[Int(~p)]
      guard f.column >= 0 else {
        if !f.hidden {
          if p >= 0 {
            views[Int(p)].isHidden = true
            facts[Int(p)].hidden = true
          } else {
            clusterViews[Int(~p)].isHidden = true
          }
        }
        continue
      }
      places.append(p)
      inputs.append(
        CollisionInput(
          column: Int(f.column), row: Int(f.row), width: Int(f.width), claims: f.claims,
          always: f.always, isSelected: f.selected, priority: f.priority, order: f.order,
          representedCount: Int(f.collisionCount)))
    }
    let outcomes = CollisionInput.resolve(inputs, columns: vp.columns, rows: vp.rows)
    for (n, p) in places.enumerated() {
      let o = outcomes[n]
      let f = p >= 0 ? facts[Int(p)] : clusterFacts[Int(~p)]
      guard o.isHidden != f.hidden || o.collidedCount != Int(f.collided) else { continue }
      let v = p >= 0 ? views[Int(p)] : clusterViews[Int(~p)]
      v.isHidden = o.isHidden
      v.collidedCount = o.collidedCount
      if p >= 0 {
        facts[Int(p)].hidden = o.isHidden
        facts[Int(p)].collided = Int32(o.collidedCount)
      }
    }
    swap(&facts, &annotationViews.facts)
    annotationViews.factsValid = true
  }

  /// Reads what the clustering, collision and marker passes need of each view, in one pass
  /// over the views (each reached once).
  func readFacts(_ views: [AnnotationView], _ vp: Viewport, into facts: inout [ViewFacts]) {
    facts.removeAll(keepingCapacity: true)
    facts.reserveCapacity(views.count)
    // (The world's width read once: a global of another module, a call each time.)
    let w = MapSize.world.width
    // (Whether each may join a cluster found from the fields `facts` reads anyway:
    // `isClusterable`'s test.)
    for v in views { facts.append(Self.facts(of: v, vp, clusterable: nil, worldWidth: w)) }
  }

  /// What the passes read of a view (`ViewFacts`), its marker's cell for a viewport.
  @inline(__always)
  static func facts(of v: AnnotationView, _ vp: Viewport, clusterable: Bool) -> ViewFacts {
    facts(of: v, vp, clusterable: clusterable, worldWidth: MapSize.world.width)
  }

  /// `facts(of:_:clusterable:)` with the world's width given; `clusterable` nil: the view's
  /// own (`isClusterable`), found from the fields read here.
  @inline(__always)
  static func facts(
    of v: AnnotationView, _ vp: Viewport, clusterable: Bool?, worldWidth w: Double
  ) -> ViewFacts {
    // Each of the view's overridable properties read once (a call each).
    let mode = v.collisionMode
    let selected = v.isSelected
    let priority = v.displayPriority
    let dragged = v.isBeingDragged
    let key = v.clusterKey
    let slot = v.layoutSlot
    var column: Int32 = -1
    var row: Int32 = -1
    var width: Int32 = 1
    if slot >= 0, let c = vp.cell(for: v.layoutPoint, worldWidth: w) {
      let offset = v.centerOffset
      let col = c.column + offset.columns
      let r = c.row + offset.rows
      if col >= 0 && r >= 0 && col < vp.columns && r < vp.rows {
        column = Int32(col)
        row = Int32(r)
        width = Int32(collisionWidth(v, mode: mode, column: col, columns: vp.columns))
      }
    }
    let joins =
      clusterable
      ?? (key >= 0 && !selected && !dragged && mode != .none && priority != .required)
    let count = v.representedCount
    let members = v.clusterMemberCount
    return ViewFacts(
      point: v.layoutPoint, order: v.layoutOrder, marks: v.representedMarks, slot: slot,
      count: Int32(truncatingIfNeeded: count),
      collisionCount: Int32(truncatingIfNeeded: members > 0 ? members : count), column: column,
      row: row, width: width, clusterKey: joins ? key : -1,
      collided: Int32(truncatingIfNeeded: v.collidedCount), priority: priority.rawValue,
      hidden: v.isHidden, selected: selected, claims: mode != .none,
      always: mode == .none || selected || priority == .required || dragged)
  }

  /// The cells a view claims in collisions from its marker rightwards: the marker, and for
  /// `.rectangle` the label with its `+N` (the width of `displayedLabel`, without building it),
  /// clipped at the screen's edge.
  @inline(__always)
  static func collisionWidth(_ v: AnnotationView, column: Int, columns: Int) -> Int {
    collisionWidth(v, mode: v.collisionMode, column: column, columns: columns)
  }

  /// `collisionWidth(_:column:columns:)` for a view whose `collisionMode` was read.
  @inline(__always)
  static func collisionWidth(
    _ v: AnnotationView, mode: CollisionMode, column: Int, columns: Int
  ) -> Int {
    var width = 1
    if mode == .rectangle {
      let others = v.representedCount - 1 + v.collidedCount
      var text = Self.measuredLabelWidth(v)
      let named = v.measuredLabelNamed
      if others > 0 { text += (named ? 2 : 1) + Self.decimalDigits(others) }
      if named || others > 0 { width = 1 + 1 + min(text, 24) }
      // A cluster's count is what it says: it keeps the free cell its label needs after it.
      if v.clusterMemberCount > 0 { width += 1 }
    }
    return min(width, columns - column)
  }

  /// `FrameComposer.labelWidth(view.label ?? "")`, measured again only when the label changed:
  /// the label itself is read only when it was set since (`AnnotationView.labelSet`).
  @inline(__always)
  static func measuredLabelWidth(_ v: AnnotationView) -> Int {
    if v.labelSet { measureLabel(v) }
    return v.measuredLabelWidth
  }

  /// Reads a view's label set since it was last measured, and measures it if it changed.
  static func measureLabel(_ v: AnnotationView) {
    v.labelSet = false
    let label = v.label
    if label != v.measuredLabel {
      v.measuredLabel = label
      v.measuredLabelNamed = !(label?.isEmpty ?? true)
      // (Not `label.map { … }`: a closure written here is checked to be on the main actor.)
      if let label {
        v.measuredLabelWidth = FrameComposer.labelWidth(label)
      } else {
        v.measuredLabelWidth = 0
      }
    }
  }

  /// How many decimal digits a positive number has.
  nonisolated static func decimalDigits(_ n: Int) -> Int {
    var d = 1
    var m = n
    while m >= 10 {
      m /= 10
      d += 1
    }
    return d
  }

  /// Marks layout stale (after a region or content change).
  func setNeedsLayout() {
    layoutStale = true
    needsDisplay = true
  }

  /// Lays out renderers and annotation views if anything changed since the last layout.
  public func layoutIfNeeded() {
    layoutIfNeeded(deferringCollisions: false)
  }

  /// `layoutIfNeeded()`, perhaps leaving the views' collisions for
  /// `resolveCollisionsIfNeeded()` (a frame resolves them while its tiles draw).
  func layoutIfNeeded(deferringCollisions: Bool) {
    if layoutStale {
      layoutStale = false
      ensureRenderers()
      layoutAnnotationViews()
    }
    // Clusters are made with the layout, so the delegate hears of their views before the frame.
    if !deferringCollisions || annotationViews.clustering || !annotationViews.clusterHeads.isEmpty {
      resolveCollisionsIfNeeded()
    }
  }
}
