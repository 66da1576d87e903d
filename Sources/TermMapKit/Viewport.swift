import DotRaster
import MapGeometry

/// One frame's geometry: the screen in cells and dots, the zoom scale and where the screen's
/// top-left dot sits on the world's dot grid (snapped to whole cells, so drawn tiles and fill
/// patterns line up from frame to frame).
public struct Viewport: Sendable, Equatable {
  /// The screen's width in cells.
  public let columns: Int
  /// The screen's height in cells.
  public let rows: Int
  /// Dots per map point.
  public let zoomScale: Double
  /// The world dot under the screen's top-left dot.
  public let originX: Int
  /// The world dot row under the screen's top-left dot.
  public let originY: Int

  /// The geometry of a screen of a size centred on a map point at a zoom scale.
  public init(center: MapPoint, zoomScale: Double, columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
    self.zoomScale = zoomScale
    let w = Double(columns * CellGeometry.dotsWide)
    let h = Double(rows * CellGeometry.dotsHigh)
    let cw = Double(CellGeometry.dotsWide)
    let ch = Double(CellGeometry.dotsHigh)
    originX =
      Int(((center.x * zoomScale - w / 2) / cw).rounded(.toNearestOrEven)) * CellGeometry.dotsWide
    originY =
      Int(((center.y * zoomScale - h / 2) / ch).rounded(.toNearestOrEven)) * CellGeometry.dotsHigh
  }

  /// The screen's width in dots.
  public var widthInDots: Int { columns * CellGeometry.dotsWide }
  /// The screen's height in dots.
  public var heightInDots: Int { rows * CellGeometry.dotsHigh }
  /// The world's width in dots at this zoom.
  public var worldWidthInDots: Double { MapSize.world.width * zoomScale }

  /// The map rect the screen shows (x may run past the world's edges; the world repeats).
  public var mapRect: MapRect {
    MapRect(
      x: Double(originX) / zoomScale, y: Double(originY) / zoomScale,
      width: Double(widthInDots) / zoomScale, height: Double(heightInDots) / zoomScale)
  }

  /// The screen dot of a map point (for the world copy nearest the screen's centre).
  public func dot(for p: MapPoint) -> Point2D {
    let w = MapSize.world.width
    let cx = (Double(originX) + Double(widthInDots) / 2) / zoomScale
    var x = p.x
    let shift = ((cx - x) / w).rounded()
    x += shift * w
    return Point2D(x: x * zoomScale - Double(originX), y: p.y * zoomScale - Double(originY))
  }

  /// The map point under a screen dot.
  public func mapPoint(forDot d: Point2D) -> MapPoint {
    MapPoint(x: (d.x + Double(originX)) / zoomScale, y: (d.y + Double(originY)) / zoomScale)
  }

  /// The cell holding a map point, if it is on screen.
  public func cell(for p: MapPoint) -> (column: Int, row: Int)? {
    let d = dot(for: p)
    let c = Int((d.x / Double(CellGeometry.dotsWide)).rounded(.down))
    let r = Int((d.y / Double(CellGeometry.dotsHigh)).rounded(.down))
    guard c >= 0 && r >= 0 && c < columns && r < rows else { return nil }
    return (c, r)
  }

  /// The map point at the centre of a cell.
  public func mapPoint(forCellColumn column: Int, row: Int) -> MapPoint {
    mapPoint(
      forDot: Point2D(
        x: (Double(column) + 0.5) * Double(CellGeometry.dotsWide),
        y: (Double(row) + 0.5) * Double(CellGeometry.dotsHigh)))
  }

  /// Map points covered by one cell, across and down.
  public var cellSizeInMapPoints: MapSize {
    MapSize(
      width: Double(CellGeometry.dotsWide) / zoomScale,
      height: Double(CellGeometry.dotsHigh) / zoomScale)
  }

  /// The world-copy offsets (multiples of the world width) whose copies meet the screen.
  public var worldCopies: [Double] {
    let r = mapRect
    let w = MapSize.world.width
    let first = Int((r.minX / w).rounded(.down))
    let last = Int(((r.maxX - 1e-9) / w).rounded(.down))
    return (first...max(first, last)).map { Double($0) * w }
  }
}
