import DotRaster
import MapGeometry

/// What a frame is made from, without an actor: the overlays by level with their renderers,
/// the tile cache, the charset, and this frame's markers and callout as values.
///
/// `MapView` keeps one and runs the frame's stages on it (MapView+Rendering.swift); a
/// `MapSnapshotter` makes one per snapshot and runs the same stages inside its own task, so a
/// snapshot and a map view showing the same things draw the same frame. Not `Sendable`: it
/// belongs to one isolation domain (the map view's main actor, or one snapshot's task).
final class FrameComposer {
  let overlayStore = OverlayStore()
  var tileCache = TileCache()
  var charset: Charset = .braille
  /// This frame's markers, lowest z first (set before `placeCellContent`).
  var markers: [MarkerPlacement] = []
  /// This frame's callout, if one shows (set before `placeCellContent`).
  var callout: CalloutBox?
  /// Whether renderers hear `visibleAreaDidChange` each frame (a map view's do, so network
  /// loads follow the view). A snapshot's do not: its view never moves, and its renderers'
  /// overlays may be shared with other snapshots, whose loads that call would cancel.
  var reportsVisibleArea = true

  /// Ink layers between two overlays' bands.
  static var bandGap: UInt32 { MapView.bandGap }

  /// Whether an overlay meets a rect, counting the world's repeats on either side.
  static func meets(_ overlay: any Overlay, _ rect: MapRect) -> Bool {
    let w = MapSize.world.width
    for shift in [0, -w, w] where overlay.intersects(rect.offsetBy(dx: shift, dy: 0)) {
      return true
    }
    return false
  }

  func meets(_ overlay: any Overlay, _ rect: MapRect) -> Bool { Self.meets(overlay, rect) }

  func markerPlacements(_ vp: Viewport) -> [MarkerPlacement] { markers }

  func calloutLayout(_ vp: Viewport) -> CalloutBox? { callout }
}

extension MapView {
  // The frame's stages, run on the map view's composer.

  func planFrame(_ vp: Viewport) -> FramePlan { composer.planFrame(vp) }

  func drawTiles(_ plan: inout FramePlan) { composer.drawTiles(&plan) }

  func attribution(of plan: FramePlan) -> [String] { composer.attribution(of: plan) }

  func compositeDots(_ plan: FramePlan, _ vp: Viewport) -> CellCanvas {
    composer.compositeDots(plan, vp)
  }

  /// Stage 4 with this frame's markers and callout, taken from the annotation views.
  func placeCellContent(_ canvas: CellCanvas, _ plan: inout FramePlan, _ vp: Viewport)
    -> CellBuffer
  {
    composer.markers = markerPlacements(vp)
    composer.callout = calloutLayout(vp)
    defer {
      composer.markers = []
      composer.callout = nil
    }
    return composer.placeCellContent(canvas, &plan, vp)
  }
}

/// A marker competing for its cells when markers collide, as a value (from a view, or from a
/// snapshot's standard marker).
struct MarkerCandidate {
  let column: Int
  let row: Int
  let displayedLabel: String
  let collisionMode: CollisionMode
  let priority: DisplayPriority
  let isSelected: Bool
  let representedCount: Int

  /// Whether a candidate is hidden and how many hidden annotations it counts in its `+N`.
  struct Outcome {
    var isHidden = false
    var collidedCount = 0
  }

  /// Hides the lower-priority marker where markers overlap (ties: the one farther from the
  /// centre); the selected one, `.required` ones and those with collision mode `.none` always
  /// show. A hidden marker is counted in the `+N` of the marker it collided with, so every
  /// annotation is drawn or counted.
  static func resolveCollisions(_ candidates: [MarkerCandidate], columns cols: Int, rows: Int)
    -> [Outcome]
  {
    struct Placed {
      let index: Int
      let first: Int
      let width: Int
      let selected: Bool
      let priority: Float
      let distance: Int
      let claims: Bool
      let always: Bool
    }
    let cx = cols / 2
    let cy = rows / 2
    // Distances in dots: a row is dotsHigh / dotsWide times as tall as a column is wide.
    let aspect = CellGeometry.dotsHigh / CellGeometry.dotsWide
    let rowWeight = aspect * aspect
    var placed: [Placed] = []
    placed.reserveCapacity(candidates.count)
    for (n, c) in candidates.enumerated() {
      let mode = c.collisionMode
      let text = c.displayedLabel
      let width =
        mode == .rectangle
        ? 1 + (text.isEmpty ? 0 : 1 + min(FrameComposer.labelWidth(text), 24)) : 1
      placed.append(
        Placed(
          index: n, first: c.row * cols + c.column, width: min(width, cols - c.column),
          selected: c.isSelected, priority: c.priority.rawValue,
          distance: (c.column - cx) * (c.column - cx) + (c.row - cy) * (c.row - cy) * rowWeight,
          claims: mode != .none,
          always: mode == .none || c.isSelected || c.priority == .required))
    }
    // Selected first, then by priority (highest first), then nearest the centre; ties in the
    // order given. Sorted as small keys (not the placements) by their own `<`.
    struct Key: Comparable {
      let selected: Int
      let priority: Float
      let distance: Int
      let index: Int
      static func < (a: Key, b: Key) -> Bool {
        (a.selected, a.priority, a.distance, a.index) < (
          b.selected, b.priority, b.distance, b.index
        )
      }
    }
    var keys = placed.map {
      Key(
        selected: $0.selected ? 0 : 1, priority: -$0.priority, distance: $0.distance,
        index: $0.index)
    }
    keys.sort()
    placed = keys.map { placed[$0.index] }
    // Which shown marker claimed each cell (-1: none).
    var owner = [Int](repeating: -1, count: cols * rows)
    var outcomes = [Outcome](repeating: Outcome(), count: candidates.count)
    for (n, p) in placed.enumerated() {
      var collidedWith = -1
      for k in p.first..<(p.first + p.width) where owner[k] >= 0 {
        collidedWith = owner[k]
        break
      }
      if p.always || collidedWith < 0 {
        outcomes[p.index].isHidden = false
        if p.claims { for k in p.first..<(p.first + p.width) where owner[k] < 0 { owner[k] = n } }
      } else {
        outcomes[p.index].isHidden = true
        outcomes[placed[collidedWith].index].collidedCount += candidates[p.index].representedCount
      }
    }
    return outcomes
  }
}
