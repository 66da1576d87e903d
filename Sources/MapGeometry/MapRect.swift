import Foundation

/// An axis-aligned rectangle of map points, with MapKit's rules for null and empty rects.
public struct MapRect: Hashable, Sendable, CustomStringConvertible {
  /// The top-left corner.
  public var origin: MapPoint
  /// The width and height.
  public var size: MapSize

  /// A rect from its top-left corner and size.
  public init(origin: MapPoint, size: MapSize) {
    self.origin = origin
    self.size = size
  }

  /// A rect from its top-left corner and size, in map points.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: MapPoint(x: x, y: y), size: MapSize(width: width, height: height))
  }

  /// The smallest rect holding every point given (null for none).
  public init<S: Sequence>(bounding points: S) where S.Element == MapPoint {
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    for p in points {
      minX = min(minX, p.x)
      maxX = max(maxX, p.x)
      minY = min(minY, p.y)
      maxY = max(maxY, p.y)
    }
    if minX > maxX {
      self = .null
    } else {
      self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
  }

  /// The rect that holds every map point of the world.
  public static let world = MapRect(origin: MapPoint(x: 0, y: 0), size: .world)
  /// The null rect: origin at +∞, no size.
  public static let null = MapRect(
    origin: MapPoint(x: .infinity, y: .infinity), size: MapSize(width: 0, height: 0))

  /// The left edge.
  public var minX: Double { origin.x }
  /// The top edge.
  public var minY: Double { origin.y }
  /// The middle, across.
  public var midX: Double { origin.x + size.width / 2 }
  /// The middle, down.
  public var midY: Double { origin.y + size.height / 2 }
  /// The right edge.
  public var maxX: Double { origin.x + size.width }
  /// The bottom edge.
  public var maxY: Double { origin.y + size.height }
  /// The width.
  public var width: Double { size.width }
  /// The height.
  public var height: Double { size.height }
  /// The centre.
  public var mid: MapPoint { MapPoint(x: midX, y: midY) }

  /// True for the null rect (only the origin is looked at).
  public var isNull: Bool { origin.x.isInfinite || origin.y.isInfinite }
  /// True when null, or when width and height are both zero.
  public var isEmpty: Bool { isNull || (size.width == 0 && size.height == 0) }

  /// The bounding rect of both; a null operand yields the other.
  public func union(_ other: MapRect) -> MapRect {
    if isNull { return other }
    if other.isNull { return self }
    let x0 = min(minX, other.minX)
    let y0 = min(minY, other.minY)
    return MapRect(
      x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
  }

  /// The overlap of both, or null when they do not overlap.
  public func intersection(_ other: MapRect) -> MapRect {
    if isNull || other.isNull { return .null }
    let x0 = max(minX, other.minX)
    let y0 = max(minY, other.minY)
    let x1 = min(maxX, other.maxX)
    let y1 = min(maxY, other.maxY)
    if x1 < x0 || y1 < y0 { return .null }
    return MapRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  /// True when the overlap has positive width and height (touching edges do not count).
  @inlinable public func intersects(_ other: MapRect) -> Bool {
    if isNull || other.isNull { return false }
    return min(maxX, other.maxX) > max(minX, other.minX)
      && min(maxY, other.maxY) > max(minY, other.minY)
  }

  /// Half-open containment: points on the min edges count, points on the max edges do not.
  @inlinable public func contains(_ point: MapPoint) -> Bool {
    if isEmpty { return false }
    return point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
  }

  /// True when `other` lies wholly inside (always true for a null argument).
  public func contains(_ other: MapRect) -> Bool {
    if other.isNull { return true }
    if isNull { return false }
    return other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
  }

  /// Takes dx off both sides and dy off top and bottom (negative values grow the rect).
  public func insetBy(dx: Double, dy: Double) -> MapRect {
    if isNull { return self }
    let w = size.width - 2 * dx
    let h = size.height - 2 * dy
    if w < 0 || h < 0 { return .null }
    return MapRect(x: minX + dx, y: minY + dy, width: w, height: h)
  }

  /// Moves the origin.
  public func offsetBy(dx: Double, dy: Double) -> MapRect {
    if isNull { return self }
    return MapRect(x: minX + dx, y: minY + dy, width: width, height: height)
  }

  /// An edge of a rect, for `divided(atDistance:from:)`.
  public enum Edge: Sendable {
    /// The left edge.
    case minX
    /// The top edge.
    case minY
    /// The right edge.
    case maxX
    /// The bottom edge.
    case maxY
  }

  /// Splits off a slice of `amount` from an edge (as MKMapRectDivide; negative amounts are 0).
  public func divided(atDistance amount: Double, from edge: Edge) -> (
    slice: MapRect, remainder: MapRect
  ) {
    if isNull { return (.null, .null) }
    let d = max(amount, 0)
    switch edge {
    case .minX:
      let a = min(d, width)
      return (
        MapRect(x: minX, y: minY, width: a, height: height),
        MapRect(x: minX + a, y: minY, width: width - a, height: height)
      )
    case .maxX:
      let a = min(d, width)
      return (
        MapRect(x: maxX - a, y: minY, width: a, height: height),
        MapRect(x: minX, y: minY, width: width - a, height: height)
      )
    case .minY:
      let a = min(d, height)
      return (
        MapRect(x: minX, y: minY, width: width, height: a),
        MapRect(x: minX, y: minY + a, width: width, height: height - a)
      )
    case .maxY:
      let a = min(d, height)
      return (
        MapRect(x: minX, y: maxY - a, width: width, height: a),
        MapRect(x: minX, y: minY, width: width, height: height - a)
      )
    }
  }

  /// True when the rect reaches west of x = 0 or east of the world's width.
  public var spans180thMeridian: Bool {
    !isNull && (minX < 0 || maxX > MapSize.world.width)
  }

  /// The part of the rect outside the world, moved by ±world width to where it shows.
  public var remainder: MapRect {
    if isNull { return .null }
    let w = MapSize.world.width
    if maxX > w {
      return MapRect(x: max(minX, w) - w, y: minY, width: maxX - max(minX, w), height: height)
        .intersection(.world)
    }
    if minX < 0 {
      return MapRect(x: minX + w, y: minY, width: min(maxX, 0) - minX, height: height)
        .intersection(.world)
    }
    return .null
  }

  public var description: String { "{\(minX), \(minY), \(width), \(height)}" }
}
