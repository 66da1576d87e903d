import DotRaster

/// The map under the overlays (land, water, borders, roads, names).
///
/// Its dots come from an overlay and renderer that the map view draws first, through the same
/// tile scheduler as every overlay (so basemap tiles are drawn on several threads, cached, and
/// reused while panning); its labels are placed per frame, in cells, around what is reserved.
@MainActor
public protocol BasemapLayer: AnyObject {
  /// The overlay whose renderer draws the basemap's dots (below every other overlay).
  var overlay: any Overlay { get }
  /// The renderer of `overlay`.
  var renderer: OverlayRenderer { get }
  /// Writes labels over the cells, avoiding the cells in `reserved` (row-major indices).
  func drawLabels(_ viewport: Viewport, into cells: inout CellBuffer, reserved: Set<Int>)
  /// Credit lines for the data shown.
  var attribution: [String] { get }
}
