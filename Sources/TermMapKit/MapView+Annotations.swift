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

/// Views on screen, views waiting for reuse, and registered view classes.
@MainActor
struct AnnotationViewRegistry {
  var visible: [ObjectIdentifier: AnnotationView] = [:]
  var queues: [String: [AnnotationView]] = [:]
  var classes: [String: AnnotationView.Type] = [:]
  var selected: (any Annotation)?
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
    for a in annotations { annotationIndex.insert(a) }
    setNeedsLayout()
  }

  /// Removes an annotation; its view goes to the reuse queue.
  public func removeAnnotation(_ annotation: any Annotation) {
    if let s = annotationViews.selected, s === annotation {
      deselectAnnotation(annotation, animated: false)
    }
    annotationIndex.remove(annotation)
    if let v = annotationViews.visible.removeValue(forKey: ObjectIdentifier(annotation)) {
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
    guard annotationIndex.remove(annotation) else { return }
    annotationIndex.insert(annotation)
    setNeedsLayout()
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
    guard let id = v.reuseIdentifier else { return }
    annotationViews.queues[id, default: []].append(v)
  }

  func makeView(for a: any Annotation) -> AnnotationView {
    if let v = delegate?.mapView(self, viewFor: a) {
      v.annotation = a
      return v
    }
    // The user's location has its own marker unless the delegate gives one.
    if a is UserLocation { return UserLocationView(annotation: a, reuseIdentifier: nil) }
    let id = Self.defaultAnnotationViewReuseIdentifier
    if annotationViews.classes[id] == nil {
      annotationViews.classes[id] = MarkerAnnotationView.self
    }
    return (try? dequeueReusableAnnotationView(withIdentifier: id, for: a))
      ?? MarkerAnnotationView(annotation: a, reuseIdentifier: id)
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
    v.setSelected(true, animated: animated)
    delegate?.mapView(self, didSelect: v)
  }

  /// Deselects an annotation (closing its callout).
  public func deselectAnnotation(_ annotation: any Annotation, animated: Bool) {
    guard let s = annotationViews.selected, s === annotation else { return }
    annotationViews.selected = nil
    if let v = annotationViews.visible[ObjectIdentifier(annotation)] {
      v.setSelected(false, animated: animated)
      delegate?.mapView(self, didDeselect: v)
    }
  }

  /// Whether the selected view shows a callout: it allows one and its annotation has a title.
  public var isCalloutVisible: Bool {
    guard showsCallouts, let s = annotationViews.selected,
      let v = annotationViews.visible[ObjectIdentifier(s)]
    else {
      return false
    }
    return v.canShowCallout && s.title != nil
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
  func layoutAnnotationViews() {
    let vp = viewport
    var reps: [AnnotationIndex.Representative] = []
    var slots = [Int32](repeating: -1, count: vp.columns * vp.rows)
    let visible = vp.mapRect
    for shift in vp.worldCopies {
      let r = visible.offsetBy(dx: -shift, dy: 0).intersection(.world)
      guard !r.isNull else { continue }
      annotationIndex.representatives(in: r, shift: shift, viewport: vp, into: &reps, slots: &slots)
    }
    var present: [ObjectIdentifier: (any Annotation, Int)] = [:]
    present.reserveCapacity(reps.count)
    for rep in reps {
      let a = annotationIndex.annotation(inSlot: rep.slot)
      present[ObjectIdentifier(a)] = (a, rep.count)
    }
    var leaving: [AnnotationView] = []
    for (id, v) in annotationViews.visible where present[id] == nil {
      leaving.append(v)
      annotationViews.visible[id] = nil
    }
    if let s = annotationViews.selected, present[ObjectIdentifier(s)] == nil {
      annotationViews.selected = nil
      if let v = leaving.first(where: { $0.annotation === s }) {
        v.setSelected(false, animated: false)
        delegate?.mapView(self, didDeselect: v)
      }
    }
    for v in leaving { enqueue(v) }
    var added: [AnnotationView] = []
    for (id, entry) in present {
      if let v = annotationViews.visible[id] {
        v.representedCount = entry.1
        continue
      }
      let v = makeView(for: entry.0)
      v.representedCount = entry.1
      v.prepareForDisplay()
      annotationViews.visible[id] = v
      added.append(v)
    }
    if !added.isEmpty { delegate?.mapView(self, didAdd: added) }
    resolveCollisions(vp)
  }

  /// Hides the lower-priority view where views overlap (ties: the one farther from the centre).
  func resolveCollisions(_ vp: Viewport) {
    var views: [AnnotationView] = []
    var candidates: [MarkerCandidate] = []
    views.reserveCapacity(annotationViews.visible.count)
    candidates.reserveCapacity(annotationViews.visible.count)
    for v in annotationViews.visible.values {
      guard let a = v.annotation, let p = annotationIndex.point(of: a), let c = vp.cell(for: p)
      else {
        v.isHidden = true
        continue
      }
      let col = c.column + v.centerOffset.columns
      let row = c.row + v.centerOffset.rows
      guard col >= 0 && row >= 0 && col < vp.columns && row < vp.rows else {
        v.isHidden = true
        continue
      }
      views.append(v)
      candidates.append(
        MarkerCandidate(
          column: col, row: row, displayedLabel: v.displayedLabel, collisionMode: v.collisionMode,
          priority: v.displayPriority, isSelected: v.isSelected,
          representedCount: v.representedCount))
    }
    let outcomes = MarkerCandidate.resolveCollisions(candidates, columns: vp.columns, rows: vp.rows)
    for (v, o) in zip(views, outcomes) {
      v.isHidden = o.isHidden
      v.collidedCount = o.collidedCount
    }
  }

  /// Marks layout stale (after a region or content change).
  func setNeedsLayout() {
    layoutStale = true
    needsDisplay = true
  }

  /// Lays out renderers and annotation views if anything changed since the last layout.
  public func layoutIfNeeded() {
    guard layoutStale else { return }
    layoutStale = false
    ensureRenderers()
    layoutAnnotationViews()
  }
}
