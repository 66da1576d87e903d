import DotRaster
import MapGeometry

/// What a frame is made from, without an actor: the overlays by level with their renderers,
/// the tile cache and the charset. Its one entry point, `compose`, runs every stage of a frame
/// (MapView+Rendering.swift); a frame's markers and callout are its inputs (`FrameContent`),
/// not state kept here.
///
/// `MapView` keeps one and composes its frames on it; a `MapSnapshotter` makes one per snapshot
/// and composes inside its own task, so a snapshot and a map view showing the same things draw
/// the same frame. Not `Sendable`: it belongs to one isolation domain (the map view's main
/// actor, or one snapshot's task).
final class FrameComposer {
  let overlayStore = OverlayStore()
  var tileCache = TileCache()
  var charset: Charset = .braille
  /// Which points of interest the labels name (nil: all): a setting of the map, like its
  /// charset, not an input of one frame.
  var pointOfInterestFilter: PointOfInterestFilter?
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
}

/// What a frame shows in cells over the map, as values: the markers, lowest z first, and the
/// callout, if one shows. A map view takes them from its annotation views, a snapshot from its
/// annotations.
struct FrameContent {
  var markers: [MarkerPlacement] = []
  var callout: CalloutBox?
}

/// A composed frame: its cells and cost, and what the caller reads back from it (credit
/// lines; the tiles and layers, for hit testing).
struct Frame {
  var cells: CellBuffer
  var statistics: FrameStatistics
  /// Credit lines of the overlays that drew something (each once, in stack order).
  var attribution: [String]
  /// Where each tile of the frame went, and the layer stack they belong to.
  var placements: [FramePlan.Placement]
  var layers: [FrameLayer]
  /// Whether the frame drew tiles or waited for some (the delegate hears of rendering then).
  var rendered: Bool
  /// Whether no tile is missing (none waits for its renderer).
  var complete: Bool
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
  /// centre, then the one given first); the selected one, `.required` ones and those with
  /// collision mode `.none` always show. A hidden marker is counted in the `+N` of the marker it
  /// collided with, so every annotation is drawn or counted.
  static func resolveCollisions(_ candidates: [MarkerCandidate], columns cols: Int, rows: Int)
    -> [Outcome]
  {
    var inputs: [CollisionInput] = []
    inputs.reserveCapacity(candidates.count)
    for c in candidates {
      let mode = c.collisionMode
      let text = c.displayedLabel
      let width =
        mode == .rectangle
        ? 1 + (text.isEmpty ? 0 : 1 + min(FrameComposer.labelWidth(text), 24)) : 1
      inputs.append(
        CollisionInput(
          column: c.column, row: c.row, width: min(width, cols - c.column), claims: mode != .none,
          always: mode == .none || c.isSelected || c.priority == .required,
          isSelected: c.isSelected, priority: c.priority.rawValue, order: 0,
          representedCount: c.representedCount))
    }
    return CollisionInput.resolve(inputs, columns: cols, rows: rows)
  }
}

/// A marker's claim in collisions, as plain numbers: its cell, how many cells it claims (the
/// marker and, for `.rectangle`, its label), and what decides who wins.
struct CollisionInput {
  let column: Int
  let row: Int
  /// Cells claimed from the marker rightwards (clipped at the screen's edge).
  let width: Int
  /// Whether it claims cells at all (collision mode not `.none`).
  let claims: Bool
  /// Never hidden (selected, `.required`, or collision mode `.none`).
  let always: Bool
  let isSelected: Bool
  let priority: Float
  /// Breaks ties of priority and distance (lower first), before the place in the list.
  let order: Int
  let representedCount: Int

  /// Selected first, then by priority (highest first), then nearest the centre, then by
  /// `order`, then in the order given. The first in that order takes its cells; a later one
  /// meeting a taken cell is hidden (unless it always shows) and counted in the `+N` of the one
  /// that took the first taken cell it meets.
  static func resolve(_ inputs: [CollisionInput], columns cols: Int, rows: Int)
    -> [MarkerCandidate.Outcome]
  {
    guard !inputs.isEmpty else { return [] }
    let cx = cols / 2
    let cy = rows / 2
    // Distances in dots: a row is dotsHigh / dotsWide times as tall as a column is wide.
    let aspect = CellGeometry.dotsHigh / CellGeometry.dotsWide
    let rowWeight = aspect * aspect
    // The order as one integer compared first: selected (bit 63 clear), priority (the bits of
    // 1000 - priority, a non-negative float, whose bit patterns sort as the numbers do), and
    // distance (low 32 bits).
    var majors: [UInt64] = []
    majors.reserveCapacity(inputs.count)
    var maxDistance = 0
    for c in inputs {
      let dx = c.column - cx
      let dy = c.row - cy
      let d = min(max(dx * dx + dy * dy * rowWeight, 0), Int(UInt32.max))
      maxDistance = max(maxDistance, d)
      let rank = UInt64((1000 - c.priority).bitPattern & 0x7FFF_FFFF)
      majors.append((c.isSelected ? 0 : 1 << 63) | rank << 32 | UInt64(d))
    }
    let sorted =
      countingOrder(inputs, majors, maxDistance: maxDistance)
      ?? comparisonOrder(inputs, majors)
    // Which shown marker claimed each cell (-1: none), as an index into `inputs`. (32 bits:
    // a 300 × 100 screen's table is half the memory to clear and to reach.)
    var owner = [Int32](repeating: -1, count: cols * rows)
    var outcomes = [MarkerCandidate.Outcome](repeating: .init(), count: inputs.count)
    for n32 in sorted {
      let n = Int(n32)
      let p = inputs[n]
      let first = p.row * cols + p.column
      let end = first + p.width
      var collidedWith = -1
      var k = first
      while k < end {
        if owner[k] >= 0 {
          collidedWith = Int(owner[k])
          break
        }
        k += 1
      }
      if p.always || collidedWith < 0 {
        if p.claims {
          for k in first..<end where owner[k] < 0 { owner[k] = n32 }
        }
      } else {
        outcomes[n].isHidden = true
        outcomes[collidedWith].collidedCount += p.representedCount
      }
    }
    return outcomes
  }

  /// The inputs' indices sorted by (major, order, index), by comparisons.
  static func comparisonOrder(_ inputs: [CollisionInput], _ majors: [UInt64]) -> [Int32] {
    struct Key: Comparable {
      let major: UInt64
      let order: Int
      let index: Int32
      static func < (a: Key, b: Key) -> Bool {
        if a.major != b.major { return a.major < b.major }
        if a.order != b.order { return a.order < b.order }
        return a.index < b.index
      }
    }
    var keys: [Key] = []
    keys.reserveCapacity(inputs.count)
    for n in inputs.indices {
      keys.append(Key(major: majors[n], order: inputs[n].order, index: Int32(n)))
    }
    keys.sort()
    return keys.map(\.index)
  }

  /// The same order as `comparisonOrder`, by counting: when there are many inputs in a few
  /// groups of (selected, priority), inputs are put in buckets of (group, a range of
  /// distances) in the order given, and each bucket holding more than one is sorted by
  /// distance, then `order` (insertion sort; the indices are already ascending). A range is
  /// 2^s distances, s the least that leaves a group no more buckets than there are inputs:
  /// a bucket for each distance left most of a 300 × 100 screen's 32,500 buckets empty, each
  /// cleared and summed for a few thousand inputs. Nil when that does not pay.
  static func countingOrder(_ inputs: [CollisionInput], _ majors: [UInt64], maxDistance: Int)
    -> [Int32]?
  {
    let n = inputs.count
    guard n >= 64 else { return nil }
    // The distinct groups (the major key without its distance), at most four.
    var groups: [UInt64] = []
    for m in majors {
      let g = m >> 32
      if !groups.contains(g) {
        guard groups.count < 4 else { return nil }
        groups.append(g)
      }
    }
    groups.sort()
    var shift: UInt64 = 0
    while (maxDistance >> shift) >= n { shift += 1 }
    let span = (maxDistance >> shift) + 1
    let buckets = groups.count * span
    var bucketOf = [Int32](repeating: 0, count: n)
    var start = [Int32](repeating: 0, count: buckets + 1)
    for i in 0..<n {
      let m = majors[i]
      let g = groups.count == 1 ? 0 : groups.firstIndex(of: m >> 32)!
      let b = g * span + Int((m & 0xFFFF_FFFF) >> shift)
      bucketOf[i] = Int32(b)
      start[b + 1] += 1
    }
    for b in 0..<buckets { start[b + 1] += start[b] }
    // Each bucket filled from its start, which ends at the bucket's end (the next one's start:
    // not a copy of the starts).
    var sorted = [Int32](repeating: 0, count: n)
    for i in 0..<n {
      let b = Int(bucketOf[i])
      sorted[Int(start[b])] = Int32(i)
      start[b] += 1
    }
    // Within a bucket (equal group, distances in one range): by distance, then order, then
    // index (stable: the indices are already ascending).
    var lo = 0
    while lo < n {
      let b = Int(bucketOf[Int(sorted[lo])])
      let hi = Int(start[b])
      if hi - lo > 1 {
        for j in (lo + 1)..<hi {
          let x = sorted[j]
          let mx = majors[Int(x)]
          let ox = inputs[Int(x)].order
          var k = j
          while k > lo {
            let y = Int(sorted[k - 1])
            let my = majors[y]
            guard my > mx || (my == mx && inputs[y].order > ox) else { break }
            sorted[k] = sorted[k - 1]
            k -= 1
          }
          sorted[k] = x
        }
      }
      lo = hi
    }
    return sorted
  }
}
