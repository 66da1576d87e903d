/// A point in a drawing context's user space.
public struct Point2D: Hashable, Sendable {
  /// The horizontal position.
  public var x: Double
  /// The vertical position (down is positive).
  public var y: Double
  /// A point.
  @inlinable public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// A rectangle in a drawing context's user space.
public struct Rect2D: Hashable, Sendable {
  /// The left edge.
  public var x: Double
  /// The top edge.
  public var y: Double
  /// The width.
  public var width: Double
  /// The height.
  public var height: Double
  /// A rectangle from its top-left corner and size.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }
  /// The right edge.
  public var maxX: Double { x + width }
  /// The bottom edge.
  public var maxY: Double { y + height }
}

/// A scale-and-translate transform from user space to dots: dot = user · scale + translation.
public struct Transform2D: Hashable, Sendable {
  /// Horizontal scale.
  public var scaleX: Double
  /// Vertical scale.
  public var scaleY: Double
  /// Horizontal translation, in dots.
  public var translateX: Double
  /// Vertical translation, in dots.
  public var translateY: Double

  /// A transform from its scales and translations (the identity by default).
  public init(
    scaleX: Double = 1, scaleY: Double = 1, translateX: Double = 0, translateY: Double = 0
  ) {
    self.scaleX = scaleX
    self.scaleY = scaleY
    self.translateX = translateX
    self.translateY = translateY
  }

  /// Leaves points where they are.
  public static let identity = Transform2D()

  /// The dot position of a user-space point.
  @inlinable public func apply(_ p: Point2D) -> Point2D {
    Point2D(x: p.x * scaleX + translateX, y: p.y * scaleY + translateY)
  }

  /// This transform applied after a translation in user space (as CGContext's translateBy).
  public func translatedBy(x: Double, y: Double) -> Transform2D {
    Transform2D(
      scaleX: scaleX, scaleY: scaleY, translateX: translateX + x * scaleX,
      translateY: translateY + y * scaleY)
  }

  /// This transform applied after a scale in user space (as CGContext's scaleBy).
  public func scaledBy(x: Double, y: Double) -> Transform2D {
    Transform2D(
      scaleX: scaleX * x, scaleY: scaleY * y, translateX: translateX, translateY: translateY)
  }
}

/// A half-open rectangle of whole dots.
public struct DotRect: Hashable, Sendable {
  /// The left column (inside).
  public var minX: Int
  /// The top row (inside).
  public var minY: Int
  /// The right column (outside).
  public var maxX: Int
  /// The bottom row (outside).
  public var maxY: Int

  /// A rect from its edges.
  public init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
    self.minX = minX
    self.minY = minY
    self.maxX = maxX
    self.maxY = maxY
  }

  /// Whether the rect holds no dot.
  public var isEmpty: Bool { maxX <= minX || maxY <= minY }

  /// The dots in both rects.
  public func intersection(_ o: DotRect) -> DotRect {
    DotRect(
      minX: max(minX, o.minX), minY: max(minY, o.minY), maxX: min(maxX, o.maxX),
      maxY: min(maxY, o.maxY))
  }

  /// The smallest rect holding both rects' dots.
  public func union(_ o: DotRect) -> DotRect {
    if isEmpty { return o }
    if o.isEmpty { return self }
    return DotRect(
      minX: min(minX, o.minX), minY: min(minY, o.minY), maxX: max(maxX, o.maxX),
      maxY: max(maxY, o.maxY))
  }

  /// Whether every dot of `o` is in this rect (an empty `o` is in every rect).
  public func contains(_ o: DotRect) -> Bool {
    o.isEmpty || (minX <= o.minX && minY <= o.minY && maxX >= o.maxX && maxY >= o.maxY)
  }
}

/// A path under construction in dot space (see `DrawingContext.withDotPath`).
public struct DotPathBuilder {
  /// A subpath: its first point's index, whether it is closed, and how far into the dash
  /// pattern it starts (in dots).
  @usableFromInline struct Subpath {
    @usableFromInline var start: Int
    @usableFromInline var closed: Bool
    @usableFromInline var dashOffset: Double
    @usableFromInline init(start: Int, closed: Bool, dashOffset: Double) {
      self.start = start
      self.closed = closed
      self.dashOffset = dashOffset
    }
  }
  @usableFromInline var xs: [Double] = []
  @usableFromInline var ys: [Double] = []
  @usableFromInline var subpaths: [Subpath] = []

  init() {}

  /// Starts a subpath at a dot-space point.
  @inlinable public mutating func move(x: Double, y: Double) {
    move(x: x, y: y, dashOffset: 0)
  }

  /// Starts a subpath at a dot-space point whose dashes begin `dashOffset` dots into the
  /// pattern (a line drawn in pieces keeps its dashes in step).
  @inlinable public mutating func move(x: Double, y: Double, dashOffset: Double) {
    subpaths.append(
      Subpath(start: xs.count, closed: false, dashOffset: dashOffset.isFinite ? dashOffset : 0))
    xs.append(x)
    ys.append(y)
  }

  /// Adds a line to a dot-space point (a move when no subpath is open).
  @inlinable public mutating func line(x: Double, y: Double) {
    if subpaths.isEmpty { subpaths.append(Subpath(start: xs.count, closed: false, dashOffset: 0)) }
    xs.append(x)
    ys.append(y)
  }

  /// Closes the current subpath.
  @inlinable public mutating func close() {
    if !subpaths.isEmpty { subpaths[subpaths.count - 1].closed = true }
  }
}
