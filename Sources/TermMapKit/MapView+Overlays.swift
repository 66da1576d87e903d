import MapGeometry

/// The overlays of a map by level, with the renderers made for them so far.
final class OverlayStore {
  var levels: [[any Overlay]] = Array(repeating: [], count: OverlayLevel.allCases.count)
  var renderers: [ObjectIdentifier: OverlayRenderer] = [:]

  var all: [any Overlay] { levels.flatMap { $0 } }

  func level(of overlay: any Overlay) -> (OverlayLevel, Int)? {
    let id = ObjectIdentifier(overlay)
    for level in OverlayLevel.allCases {
      if let i = levels[level.rawValue].firstIndex(where: { ObjectIdentifier($0) == id }) {
        return (level, i)
      }
    }
    return nil
  }
}

extension MapView {
  /// Every overlay, bottom level first, back to front within a level.
  public var overlays: [any Overlay] { overlayStore.all }

  /// The overlays of one level, back to front.
  public func overlays(in level: OverlayLevel) -> [any Overlay] {
    overlayStore.levels[level.rawValue]
  }

  /// Adds an overlay above labels.
  public func addOverlay(_ overlay: any Overlay) { addOverlay(overlay, level: .aboveLabels) }

  /// Appends overlays, in order, to a level (`.aboveLabels` by default).
  public func addOverlays(_ overlays: [any Overlay], level: OverlayLevel = .aboveLabels) {
    for o in overlays { addOverlay(o, level: level) }
  }

  /// Appends an overlay to a level (an overlay already on the map is left where it is).
  public func addOverlay(_ overlay: any Overlay, level: OverlayLevel) {
    guard overlayStore.level(of: overlay) == nil else { return }
    overlayStore.levels[level.rawValue].append(overlay)
    setNeedsLayout()
  }

  /// Inserts an overlay at an index of a level (past the end appends).
  public func insertOverlay(
    _ overlay: any Overlay, at index: Int, level: OverlayLevel = .aboveLabels
  ) {
    guard overlayStore.level(of: overlay) == nil else { return }
    var list = overlayStore.levels[level.rawValue]
    list.insert(overlay, at: min(max(index, 0), list.count))
    overlayStore.levels[level.rawValue] = list
    setNeedsLayout()
  }

  /// Inserts an overlay just above a sibling (appended to its level when the sibling is absent).
  public func insertOverlay(_ overlay: any Overlay, above sibling: any Overlay) {
    if let (level, i) = overlayStore.level(of: sibling) {
      insertOverlay(overlay, at: i + 1, level: level)
    } else {
      addOverlay(overlay)
    }
  }

  /// Inserts an overlay just below a sibling (appended when the sibling is absent).
  public func insertOverlay(_ overlay: any Overlay, below sibling: any Overlay) {
    if let (level, i) = overlayStore.level(of: sibling) {
      insertOverlay(overlay, at: i, level: level)
    } else {
      addOverlay(overlay)
    }
  }

  /// Swaps the places of two overlays (across levels too).
  public func exchangeOverlay(_ a: any Overlay, with b: any Overlay) {
    guard let (la, ia) = overlayStore.level(of: a), let (lb, ib) = overlayStore.level(of: b) else {
      return
    }
    overlayStore.levels[la.rawValue][ia] = b
    overlayStore.levels[lb.rawValue][ib] = a
    setNeedsLayout()
  }

  /// Removes an overlay from any level and drops its renderer; unknown overlays are ignored.
  public func removeOverlay(_ overlay: any Overlay) {
    guard let (level, i) = overlayStore.level(of: overlay) else { return }
    overlayStore.levels[level.rawValue].remove(at: i)
    let id = ObjectIdentifier(overlay)
    overlayStore.renderers.removeValue(forKey: id)?.setDisplayHandler(nil)
    tileCache.removeAll(of: id)
    setNeedsLayout()
  }

  /// Removes overlays from any level and drops their renderers.
  public func removeOverlays(_ overlays: [any Overlay]) {
    for o in overlays { removeOverlay(o) }
  }

  /// The overlays that meet a rect, back to front.
  public func overlays(in rect: MapRect) -> [any Overlay] {
    overlayStore.all.filter { meets($0, rect) }
  }

  /// The renderer of an overlay, or nil while it has not yet met the visible area.
  public func renderer(for overlay: any Overlay) -> OverlayRenderer? {
    overlayStore.renderers[ObjectIdentifier(overlay)]
  }

  /// Whether an overlay meets a rect, counting the world's repeats on either side.
  func meets(_ overlay: any Overlay, _ rect: MapRect) -> Bool {
    FrameComposer.meets(overlay, rect)
  }

  /// Makes renderers for overlays that now meet the visible area, and tells the delegate.
  func ensureRenderers() {
    let visible = viewport.mapRect
    var added: [OverlayRenderer] = []
    for overlay in overlayStore.all {
      let id = ObjectIdentifier(overlay)
      guard overlayStore.renderers[id] == nil, meets(overlay, visible) else { continue }
      let r = delegate?.mapView(self, rendererFor: overlay) ?? MapView.defaultRenderer(for: overlay)
      let handler = displayRequestHandler
      r.setDisplayHandler { handler?() }
      overlayStore.renderers[id] = r
      added.append(r)
    }
    if !added.isEmpty { delegate?.mapView(self, didAdd: added) }
  }
}
