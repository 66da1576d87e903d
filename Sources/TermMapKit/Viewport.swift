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
    Point2D(x: dotX(forMapX: p.x), y: p.y * zoomScale - Double(originY))
  }

  /// `dot(for:)`'s x.
  @inline(__always) private func dotX(forMapX mapX: Double) -> Double {
    dotX(forMapX: mapX, worldWidth: MapSize.world.width)
  }

  /// `dotX(forMapX:)` with the world's width given.
  @inline(__always) private func dotX(forMapX mapX: Double, worldWidth w: Double) -> Double {
    var x = mapX
    // The world copy: `v.rounded()` (libm's `round`, a call), which is `v * 0` (a zero of
    // v's sign) for |v| below a half, as on the copy nearest the screen nearly always.
    let v = worldsFromCentre(mapX, worldWidth: w)
    let shift = v.magnitude < 0.5 ? v * 0 : v.rounded()
    x += shift * w
    return x * zoomScale - Double(originX)
  }

  /// How many world widths `w` the screen's centre lies to the right of map x `mapX`: the
  /// world copy nearest the screen is `mapX` moved by this, rounded, times the width.
  @inline(__always) private func worldsFromCentre(_ mapX: Double, worldWidth w: Double) -> Double {
    ((Double(originX) + Double(widthInDots) / 2) / zoomScale - mapX) / w
  }

  /// The map point under a screen dot.
  public func mapPoint(forDot d: Point2D) -> MapPoint {
    MapPoint(x: (d.x + Double(originX)) / zoomScale, y: (d.y + Double(originY)) / zoomScale)
  }

  /// The cell holding a map point, if it is on screen.
  public func cell(for p: MapPoint) -> (column: Int, row: Int)? {
    cell(for: p, worldWidth: MapSize.world.width)
  }

  /// `cell(for:)` with the world's width in map points given (read once for many points: it
  /// is a global of another module, a call to reach).
  @inline(__always) func cell(for p: MapPoint, worldWidth w: Double) -> (column: Int, row: Int)? {
    // The row first: most points off the screen are above or below it, and the row needs no
    // world copy. `Int(q.rounded(.down))` is on the screen exactly when 0 <= q < the count
    // (-0 included), and there it is `Int(q)`; a NaN or a huge q is off the screen.
    let y = (p.y * zoomScale - Double(originY)) / Double(CellGeometry.dotsHigh)
    guard y >= 0 && y < Double(rows) else { return nil }
    // `dotX(forMapX:worldWidth:)`, the point left as it is on the copy of the world nearest
    // the screen: there `dotX` adds a zero (of v's sign) times the width, which changes
    // nothing but the sign of a zero x, and a zero of either sign gives the same cell.
    let v = worldsFromCentre(p.x, worldWidth: w)
    let mapX = v.magnitude < 0.5 ? p.x : p.x + v.rounded() * w
    let x = (mapX * zoomScale - Double(originX)) / Double(CellGeometry.dotsWide)
    guard x >= 0 && x < Double(columns) else { return nil }
    return (Int(x), Int(y))
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
