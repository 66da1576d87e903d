import Foundation
import MapGeometry

/// A point in tile coordinates: integers, x right, y down; 0…extent inside the tile, beyond it in
/// the buffer around the tile.
public struct TilePoint: Hashable, Sendable, CustomStringConvertible {
  /// Across, in tile units.
  public var x: Int32
  /// Down, in tile units.
  public var y: Int32

  /// A point in tile units.
  @inlinable public init(x: Int32, y: Int32) {
    self.x = x
    self.y = y
  }

  public var description: String { "(\(x), \(y))" }
}

/// An axis-aligned box in tile coordinates, edges included. `TileBox.empty` holds no point.
public struct TileBox: Hashable, Sendable, CustomStringConvertible {
  /// The left edge (inside).
  public var minX: Int32
  /// The top edge (inside).
  public var minY: Int32
  /// The right edge (inside).
  public var maxX: Int32
  /// The bottom edge (inside).
  public var maxY: Int32

  /// A box from its edges.
  @inlinable public init(minX: Int32, minY: Int32, maxX: Int32, maxY: Int32) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  /// The box of no points (min above max), the identity of `formUnion`.
  public static let empty = TileBox(minX: .max, minY: .max, maxX: .min, maxY: .min)

  /// Whether the box holds no point.
  @inlinable public var isEmpty: Bool { minX > maxX || minY > maxY }

  /// Grows the box to hold `p`.
  @inlinable public mutating func formUnion(_ p: TilePoint) {
    if p.x < minX { minX = p.x }
    if p.x > maxX { maxX = p.x }
    if p.y < minY { minY = p.y }
    if p.y > maxY { maxY = p.y }
  }

  /// Grows the box to hold `other`.
  @inlinable public mutating func formUnion(_ other: TileBox) {
    if other.isEmpty { return }
    minX = Swift.min(minX, other.minX)
    minY = Swift.min(minY, other.minY)
    maxX = Swift.max(maxX, other.maxX)
    maxY = Swift.max(maxY, other.maxY)
  }

  /// True when the boxes share at least one point (edges included).
  @inlinable public func intersects(_ other: TileBox) -> Bool {
    !isEmpty && !other.isEmpty && minX <= other.maxX && other.minX <= maxX && minY <= other.maxY
      && other.minY <= maxY
  }

  /// Whether a point lies in the box (edges included).
  @inlinable public func contains(_ p: TilePoint) -> Bool {
    p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
  }

  public var description: String {
    isEmpty ? "TileBox.empty" : "[\(minX), \(minY) – \(maxX), \(maxY)]"
  }
}

/// A feature's geometry type (MVT `GeomType`; UNKNOWN features are skipped by the decoder).
public enum GeometryType: UInt8, Sendable, CustomStringConvertible {
  /// Points.
  case point = 1
  /// Lines.
  case lineString = 2
  /// Polygons (rings).
  case polygon = 3

  public var description: String {
    switch self {
    case .point: return "point"
    case .lineString: return "linestring"
    case .polygon: return "polygon"
    }
  }
}

/// What one part of a feature's geometry is.
public enum PartKind: UInt8, Sendable {
  /// One point of a (multi)point feature.
  case point
  /// One line of a (multi)linestring feature.
  case line
  /// A polygon's outer ring (positive area in tile coordinates: clockwise with y down). It starts
  /// a new polygon; the interior rings after it belong to it.
  case exteriorRing
  /// A hole of the polygon whose exterior ring came last.
  case interiorRing
}

/// A part of a feature's geometry: a point, a line, or a ring. Rings are stored open: the closing
/// segment back to the first point is implicit and the first point is not repeated.
public struct GeometryPart: Sendable {
  /// A point, a line or a ring.
  public var kind: PartKind
  /// The part's points.
  public var points: ArraySlice<TilePoint>

  /// A part of a kind.
  @inlinable public init(kind: PartKind, points: ArraySlice<TilePoint>) {
    self.kind = kind
    self.points = points
  }

  /// Twice the signed area by the surveyor's formula (positive for exterior rings); 0 for points
  /// and lines.
  public var doubleSignedArea: Int64 {
    guard kind == .exteriorRing || kind == .interiorRing else { return 0 }
    return TileGeometryMath.doubleSignedArea(points)
  }
}

enum TileGeometryMath {
  /// Twice the signed area of a closed ring given open (wrapping arithmetic: never traps on
  /// hostile coordinates).
  static func doubleSignedArea(_ ring: ArraySlice<TilePoint>) -> Int64 {
    guard ring.count >= 3 else { return 0 }
    var sum: Int64 = 0
    var prev = ring[ring.endIndex - 1]
    for p in ring {
      sum = sum &+ (Int64(prev.x) &* Int64(p.y) &- Int64(p.x) &* Int64(prev.y))
      prev = p
    }
    return sum
  }
}

/// Converts tile coordinates of one tile to map points and back:
/// point = rect.origin + coordinate / extent × rect.size, with rect = `TileID.mapRect`.
public struct TileTransform: Sendable, Hashable {
  /// The tile.
  public let tile: TileID
  /// Tile units across the tile (4096 usually).
  public let extent: Int
  /// The tile's rect in map points.
  public let rect: MapRect
  /// Map points per tile unit.
  public let scale: Double

  /// The transform of a tile with an extent.
  public init(tile: TileID, extent: Int = 4096) {
    self.tile = tile
    self.extent = max(extent, 1)
    self.rect = tile.mapRect
    self.scale = rect.size.width / Double(self.extent)
  }

  /// The map point of a tile point.
  @inlinable public func mapPoint(_ p: TilePoint) -> MapPoint {
    MapPoint(x: rect.origin.x + Double(p.x) * scale, y: rect.origin.y + Double(p.y) * scale)
  }

  /// The map point of a position in tile units.
  @inlinable public func mapPoint(x: Double, y: Double) -> MapPoint {
    MapPoint(x: rect.origin.x + x * scale, y: rect.origin.y + y * scale)
  }

  /// The map rect of a box in tile coordinates (null for an empty box).
  public func mapRect(_ box: TileBox) -> MapRect {
    if box.isEmpty { return .null }
    let o = mapPoint(TilePoint(x: box.minX, y: box.minY))
    return MapRect(
      x: o.x, y: o.y, width: Double(Int64(box.maxX) - Int64(box.minX)) * scale,
      height: Double(Int64(box.maxY) - Int64(box.minY)) * scale)
  }

  /// Tile coordinates (fractional) of a map point.
  @inlinable public func tileCoordinates(_ p: MapPoint) -> (x: Double, y: Double) {
    ((p.x - rect.origin.x) / scale, (p.y - rect.origin.y) / scale)
  }

  /// The smallest box of tile coordinates covering a map rect (clamped to Int32), for culling
  /// features against a visible rect. Empty for a null rect.
  public func tileBox(covering r: MapRect) -> TileBox {
    if r.isNull { return .empty }
    let a = tileCoordinates(r.origin)
    let b = tileCoordinates(MapPoint(x: r.maxX, y: r.maxY))
    func clamp(_ v: Double) -> Int32 {
      Int32(max(Double(Int32.min), min(Double(Int32.max), v)))
    }
    return TileBox(
      minX: clamp(a.x.rounded(.down)), minY: clamp(a.y.rounded(.down)),
      maxX: clamp(b.x.rounded(.up)), maxY: clamp(b.y.rounded(.up)))
  }
}
