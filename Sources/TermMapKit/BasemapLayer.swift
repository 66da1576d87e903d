import DotRaster

/// The map under the overlays (coastlines, roads, labels), drawn first into each frame.
@MainActor
public protocol BasemapLayer: AnyObject {
  /// Draws the basemap's dots for a viewport, on ink layers from `layerBase` upward (below
  /// every overlay). Returns false when some of it is still loading.
  func drawDots(_ viewport: Viewport, into canvas: inout DotCanvas, layerBase: UInt32) -> Bool
  /// Writes labels over the cells, avoiding the cells in `reserved` (row-major indices).
  func drawLabels(_ viewport: Viewport, into cells: inout CellBuffer, reserved: Set<Int>)
  /// Credit lines for the data shown.
  var attribution: [String] { get }
}
