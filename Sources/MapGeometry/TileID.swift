import Foundation

/// A web-map tile address: zoom, column (x from the west) and row (y from the north).
public struct TileID: Hashable, Sendable, CustomStringConvertible {
  /// The zoom level (2^z tiles across).
  public var z: Int
  /// The column, 0 at the west edge.
  public var x: Int
  /// The row, 0 at the north edge (XYZ; not TMS).
  public var y: Int

  /// A tile at a zoom level, column and row.
  public init(z: Int, x: Int, y: Int) {
    self.z = z
    self.x = x
    self.y = y
  }

  /// The tile's rect in map points: (x·s, y·s, s, s) with s = world / 2^z.
  public var mapRect: MapRect {
    let s = MapSize.world.width / Double(1 << z)
    return MapRect(x: Double(x) * s, y: Double(y) * s, width: s, height: s)
  }

  /// The row in TMS order (y counted from the south), as MBTiles stores it.
  public var tmsY: Int { (1 << z) - 1 - y }

  public var description: String { "\(z)/\(x)/\(y)" }
}

/// Zoom levels and zoom scales: the world is 256·2^z dots wide at zoom z.
public enum ZoomMath {
  /// Dots per map point at a zoom level: 2^(z − 20).
  @inlinable public static func zoomScale(forZoomLevel z: Double) -> Double { exp2(z - 20) }
  /// The zoom level of a zoom scale.
  @inlinable public static func zoomLevel(forZoomScale s: Double) -> Double { log2(s) + 20 }
  /// MapKit's road width for a zoom scale, in context units (map points).
  public static func roadWidth(atZoomScale s: Double) -> Double {
    // Roads read as about one and a half dots wide at any zoom on a braille screen.
    1.5 / s
  }
}
