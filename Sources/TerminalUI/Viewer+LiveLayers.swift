import DotRaster
import Foundation
import LiveLayers
import MapGeometry
import TermMapKit

/// The viewer's live layers (`--layer`): each one's targets synchronized with the map once a
/// turn (only what changed since the last), its readers on their own threads waking the loop.
@MainActor
final class LiveLayerState {
  var layers: [LiveLayer] = []
  /// The view was fitted to the first targets (when nothing else placed it).
  var fitted = false
  /// The status-line text last shown (a change redraws).
  var shown = ""
  /// When the layers were last synchronized with the map (the viewer's clock).
  var lastSync = Date.distantPast
  /// Each layer's `LiveLayer.revision` when this viewer last drew it (a layer shared by the
  /// sessions of `termmap serve` is synchronized by whichever session turns first).
  var revisions: [ObjectIdentifier: Int] = [:]
  /// The layers this viewer hides (the layer list's Space): off its map, markers, lines and
  /// trails; other viewers of a shared layer still show it.
  var hidden: Set<ObjectIdentifier> = []
}

extension Viewer {
  /// Shows a live layer's targets (call before `run`; its readers may start at any time). A
  /// layer may be shown by several viewers at once (the sessions of `termmap serve`).
  public func addLiveLayer(_ layer: LiveLayer) {
    liveLayers.layers.append(layer)
    layer.attach(to: map)
    let flag = displayRequested
    layer.feed.setChangeHandler { flag.set() }
  }

  /// Takes what changed in the live layers; true when the frame must be drawn again.
  func receiveLiveLayers() -> Bool {
    let state = liveLayers
    guard !state.layers.isEmpty else { return false }
    var changed = false
    for l in state.layers {
      if l.synchronize() { changed = true }
      let id = ObjectIdentifier(l)
      if state.revisions[id] != l.revision {
        state.revisions[id] = l.revision
        changed = true
      }
    }
    if changed && !state.fitted {
      let count = state.layers.reduce(0) { $0 + $1.count }
      // Nothing else placed the view: the first targets do.
      if count > 0 && options.center == nil && options.bbox == nil && options.files.isEmpty {
        map.showAllContent(animated: false)
        if map.zoomLevel > 16 { map.setZoomLevel(options.zoom ?? 16, animated: false) }
        if let z = options.zoom { map.setZoomLevel(z, animated: false) }
      }
      if count > 0 { state.fitted = true }
    }
    let text = liveLayerStatusParts().joined(separator: " ")
    if text != state.shown {
      state.shown = text
      changed = true
    }
    return changed
  }

  /// Whether this viewer shows live layer `index` (the default).
  func isLiveLayerShown(_ index: Int) -> Bool {
    !liveLayers.hidden.contains(ObjectIdentifier(liveLayers.layers[index]))
  }

  /// Shows or hides live layer `index` on this viewer's map: its markers, lines and trails
  /// (the layer list's Space; the routes toggle leaves them).
  func setLiveLayer(_ index: Int, shown: Bool) {
    let layer = liveLayers.layers[index]
    guard isLiveLayerShown(index) != shown else { return }
    if shown {
      liveLayers.hidden.remove(ObjectIdentifier(layer))
      layer.attach(to: map)
    } else {
      liveLayers.hidden.insert(ObjectIdentifier(layer))
      layer.detach(from: map)
    }
    setNeedsFrame()
  }

  /// The map rect of a live layer's targets and shapes (null when it has none).
  func liveLayerMapRect(_ index: Int) -> MapRect {
    let layer = liveLayers.layers[index]
    var rect = MapRect.null
    for t in layer.allTargets {
      rect = rect.union(MapRect(origin: MapPoint(t.coordinate), size: MapSize(width: 0, height: 0)))
    }
    for o in layer.shapes.values { rect = rect.union(o.boundingMapRect) }
    return rect
  }

  /// A live layer's line in the layer list: shown or not, its sources, its targets.
  func liveLayerListLine(_ index: Int) -> (text: String, color: TermColor?, marked: Bool) {
    let layer = liveLayers.layers[index]
    let names = layer.feed.sourceNames.map { SafeText.clean($0) }.joined(separator: ", ")
    let count = layer.count
    return (
      "■ [\(isLiveLayerShown(index) ? "x" : " ")] live \(names.isEmpty ? "targets" : names)  \(count) target\(count == 1 ? "" : "s")",
      LiveTargetView.color(for: .feature), false
    )
  }

  /// The status-line fields of the live layers: the targets (and whether they are hidden),
  /// the bad messages skipped, a source's problem.
  func liveLayerStatusParts() -> [String] {
    let layers = liveLayers.layers
    guard !layers.isEmpty else { return [] }
    var parts: [String] = []
    let count = layers.reduce(0) { $0 + $1.count }
    let hidden = layers.indices.allSatisfy { !isLiveLayerShown($0) }
    parts.append("\(count) target\(count == 1 ? "" : "s")\(hidden ? " hidden" : "")")
    var bad = 0
    var dropped = 0
    var problems: [String] = []
    for l in layers {
      let s = l.feed.statistics
      bad += s.malformed
      dropped += s.droppedTargets
      problems += l.feed.problems
    }
    if bad > 0 { parts.append("\(bad) bad") }
    if dropped > 0 { parts.append("\(dropped) dropped") }
    if let p = problems.first { parts.append(p) }
    return parts
  }
}
