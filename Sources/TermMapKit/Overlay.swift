import MapGeometry

/// A shape laid over the map, drawn by an `OverlayRenderer`.
///
/// Overlays are immutable values shared with renderers that draw on several threads, so they are
/// `Sendable`; `boundingMapRect` never changes. An overlay that crosses the antimeridian has
/// `minX < 0` or `maxX > world width`.
public protocol Overlay: AnyObject, Sendable {
  /// The smallest rect holding the whole overlay; it must never change.
  var boundingMapRect: MapRect { get }
  /// The overlay's centre (a callout anchor).
  var coordinate: Coordinate { get }
  /// Whether the overlay meets a rect (defaults to a bounding-rect test).
  func intersects(_ mapRect: MapRect) -> Bool
  /// True when the overlay is opaque map content: map content lower in the stack (other
  /// overlays that can replace map content) is not drawn inside its bounding rect.
  var canReplaceMapContent: Bool { get }
  /// A title for lists and callouts.
  var title: String? { get }
  /// What the overlay's content covers, for fitting the view to what is on the map
  /// (`MapView.contentMapRect`, `showAllContent`): its bounding rect by default; null for
  /// layers of the map itself (tile overlays) and decorations (the accuracy circle). The map
  /// asks each overlay and names no kind of overlay.
  var contentBounds: MapRect { get }
  /// The credits to show while the overlay draws something (`MapView.visibleAttribution`;
  /// several separated by ";"); none by default.
  var attribution: String { get }
}

extension Overlay {
  public func intersects(_ mapRect: MapRect) -> Bool {
    let b = boundingMapRect
    guard b.width <= 0 || b.height <= 0 else { return b.intersects(mapRect) }
    // A straight east-west or north-south line (or a point) has a bounding rect without area,
    // which never "intersects" under the positive-overlap rule; it meets a rect it lies in.
    guard !b.isNull, !mapRect.isNull, mapRect.width > 0, mapRect.height > 0 else { return false }
    return b.minX < mapRect.maxX && b.maxX >= mapRect.minX && b.minY < mapRect.maxY
      && b.maxY >= mapRect.minY
  }
  public var canReplaceMapContent: Bool { false }
  public var coordinate: Coordinate { boundingMapRect.mid.coordinate }
  public var title: String? { nil }
  public var contentBounds: MapRect { boundingMapRect }
  public var attribution: String { "" }
}

/// Where an overlay sits in the stack: under labels or above them.
public enum OverlayLevel: Int, Sendable, CaseIterable, Comparable {
  /// Above roads, below labels, shields and points of interest.
  case aboveRoads = 0
  /// Above labels, below annotations.
  case aboveLabels = 1

  public static func < (a: OverlayLevel, b: OverlayLevel) -> Bool { a.rawValue < b.rawValue }
}

/// An overlay that makes its own standard renderer, so a new kind of overlay needs no change to
/// the map: `MapView.defaultRenderer(for:)` (and so a delegate that returns it) uses this.
public protocol DefaultRendering: Overlay {
  /// A new renderer for this overlay.
  func makeDefaultRenderer() -> OverlayRenderer
}
