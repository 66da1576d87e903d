/// What one dot holds: nothing (0), or a stacking layer and a colour.
///
/// The layer is compared when dots of several layers share a cell: the cell takes the colour of
/// its highest-layer dot, so the upper layer's colour wins for that cell.
public struct Ink: Hashable, Sendable {
  /// The layer in the high 24 bits, the palette colour in the low 8 (0: no ink).
  public var raw: UInt32

  /// Ink from its raw bits.
  @inlinable public init(raw: UInt32) { self.raw = raw }

  /// Ink of a colour on a layer (layer 0 is reserved for "no dot", so layers start at 1).
  @inlinable public init(layer: UInt32, color: TermColor) {
    raw = (max(layer, 1) << 8) | UInt32(color.index)
  }

  /// No dot.
  public static let none = Ink(raw: 0)

  /// Whether the dot holds no ink.
  @inlinable public var isEmpty: Bool { raw == 0 }
  /// The stacking layer (higher wins a cell's colour).
  @inlinable public var layer: UInt32 { raw >> 8 }
  /// The ink's palette colour.
  @inlinable public var color: TermColor { TermColor(UInt8(truncatingIfNeeded: raw)) }

  /// The same colour moved onto another layer.
  @inlinable public func onLayer(_ layer: UInt32) -> Ink { Ink(layer: layer, color: color) }
}

/// A 2 × 4 dot mask repeated over the canvas, for fills that read as a texture (water, parks).
public struct DotPattern: Hashable, Sendable {
  /// Braille bits (see `CellGeometry.brailleBit`) that are inked in every cell-sized block.
  public var bits: UInt8

  /// A pattern from its braille bits.
  public init(bits: UInt8) { self.bits = bits }

  /// Every dot.
  public static let solid = DotPattern(bits: 0xFF)
  /// Every other dot, in a checkerboard.
  public static let checker = DotPattern(
    bits: CellGeometry.brailleBit(dx: 0, dy: 0) | CellGeometry.brailleBit(dx: 1, dy: 1)
      | CellGeometry.brailleBit(dx: 0, dy: 2) | CellGeometry.brailleBit(dx: 1, dy: 3))
  /// One dot in eight: a light stipple.
  public static let sparse = DotPattern(bits: CellGeometry.brailleBit(dx: 0, dy: 1))
  /// Horizontal lines on every other dot row.
  public static let hatch = DotPattern(bits: CellGeometry.rowMasks[1] | CellGeometry.rowMasks[3])

  /// Whether the dot at absolute canvas position (x, y) is inked.
  @inlinable public func covers(x: Int, y: Int) -> Bool {
    let dx = x & (CellGeometry.dotsWide - 1)
    let dy = y & (CellGeometry.dotsHigh - 1)
    return bits & CellGeometry.brailleBit(dx: dx, dy: dy) != 0
  }
}
