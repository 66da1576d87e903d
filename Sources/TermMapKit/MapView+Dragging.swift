import DotRaster
import MapGeometry

/// A drag in progress: the view, its annotation, and where it started and stands now.
@MainActor
struct DragSession {
  let view: AnnotationView
  let annotation: any MovableAnnotation
  /// The annotation's map point when the drag began.
  let start: MapPoint
  /// The map point the marker stands for now.
  var point: MapPoint
}

extension MapView {
  // MARK: Dragging

  /// The annotation whose marker is being dragged, if any.
  public var draggedAnnotation: (any Annotation)? { annotationViews.drag?.annotation }

  /// Starts dragging the marker drawn on top at a cell (what a mouse press there does) when its
  /// view `isDraggable` and its annotation is a `MovableAnnotation`; false (and nothing
  /// happens) otherwise, or while another drag is in progress. The view's drag state goes to
  /// `.starting`, and the standard view moves on to `.dragging`; the delegate hears both.
  @discardableResult
  public func beginDrag(atColumn column: Int, row: Int) -> Bool {
    guard let v = annotationView(atColumn: column, row: row), let a = v.annotation else {
      return false
    }
    return beginDrag(v, a)
  }

  /// Starts dragging an annotation's marker (what a key does to the selected annotation): as
  /// `beginDrag(atColumn:row:)`, for an annotation with a view on screen. A marker hidden by a
  /// collision or in a cluster shows while it is dragged.
  @discardableResult
  public func beginDrag(of annotation: any Annotation) -> Bool {
    layoutIfNeeded()
    guard let v = annotationViews.visible[ObjectIdentifier(annotation)] else { return false }
    return beginDrag(v, annotation)
  }

  func beginDrag(_ v: AnnotationView, _ a: any Annotation) -> Bool {
    guard annotationViews.drag == nil, v.isDraggable, v.isEnabled, annotationIndex.contains(a),
      let movable = a as? any MovableAnnotation
    else { return false }
    annotationViews.drag = DragSession(
      view: v, annotation: movable, start: v.layoutPoint, point: v.layoutPoint)
    v.isBeingDragged = true
    v.dragObserver = self
    // The dragged marker always shows: collisions are resolved again.
    annotationViews.collisionsFor = viewport
    needsDisplay = true
    v.setDragState(.starting, animated: false)
    return true
  }

  /// Moves the dragged marker to a cell (kept on screen; what a mouse motion does). The
  /// annotation keeps its coordinate until the drag ends; it moves by whole cells from where
  /// it was, keeping its place inside its cell.
  public func drag(toColumn column: Int, row: Int) {
    guard var d = annotationViews.drag else { return }
    let vp = viewport
    let col = min(max(column, 0), vp.columns - 1)
    let r = min(max(row, 0), vp.rows - 1)
    let dot = vp.dot(for: d.start)
    let startColumn = Int((dot.x / Double(CellGeometry.dotsWide)).rounded(.down))
    let startRow = Int((dot.y / Double(CellGeometry.dotsHigh)).rounded(.down))
    let offset = d.view.centerOffset
    let cell = vp.cellSizeInMapPoints
    let p = AnnotationIndex.clamped(
      MapPoint(
        x: d.start.x + Double(col - offset.columns - startColumn) * cell.width,
        y: d.start.y + Double(r - offset.rows - startRow) * cell.height))
    guard p != d.point else { return }
    d.point = p
    d.view.layoutPoint = p
    annotationViews.drag = d
    annotationViews.collisionsFor = vp
    needsDisplay = true
  }

  /// Moves the dragged marker by whole cells (right and down positive; what an arrow key
  /// does), kept on screen.
  public func drag(byColumns columns: Int, rows: Int) {
    guard let d = annotationViews.drag else { return }
    let dot = viewport.dot(for: d.point)
    let offset = d.view.centerOffset
    drag(
      toColumn: Int((dot.x / Double(CellGeometry.dotsWide)).rounded(.down)) + offset.columns
        + columns,
      row: Int((dot.y / Double(CellGeometry.dotsHigh)).rounded(.down)) + offset.rows + rows)
  }

  /// Drops the dragged marker where it is (what a mouse release or Return does): the
  /// annotation's coordinate is set and the map re-indexes it, then the view's drag state goes
  /// to `.ending` (the standard view moves on to `.none`); the delegate hears both.
  public func endDrag() {
    guard let d = annotationViews.drag else { return }
    annotationViews.drag = nil
    if d.point != d.start {
      d.annotation.coordinate = d.point.coordinate
      annotationIndex.move(d.annotation)
      setNeedsLayout()
    }
    finishDrag(d, .ending)
  }

  /// Puts the dragged marker back (what Esc does): the annotation keeps its coordinate, and
  /// the view's drag state goes to `.canceling` (the standard view moves on to `.none`); the
  /// delegate hears both.
  public func cancelDrag() {
    guard let d = annotationViews.drag else { return }
    annotationViews.drag = nil
    d.view.layoutPoint = d.start
    finishDrag(d, .canceling)
  }

  func finishDrag(_ d: DragSession, _ state: AnnotationView.DragState) {
    d.view.isBeingDragged = false
    annotationViews.collisionsFor = viewport
    needsDisplay = true
    d.view.setDragState(state, animated: false)
  }

  /// Tells the delegate of a view's new drag state; the view stops being watched once it is
  /// back to `.none` after its drag.
  func annotationView(
    _ view: AnnotationView, dragStateDidChangeFrom oldState: AnnotationView.DragState
  ) {
    delegate?.mapView(self, annotationView: view, didChange: view.dragState, fromOldState: oldState)
    if view.dragState == .none && annotationViews.drag?.view !== view {
      view.dragObserver = nil
    }
  }

  /// After a layout, the dragged marker stands where it was dragged again.
  func keepDraggedMarker() {
    guard let d = annotationViews.drag, d.view.layoutSlot >= 0 else { return }
    d.view.layoutPoint = d.point
  }
}
