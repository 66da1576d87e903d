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
