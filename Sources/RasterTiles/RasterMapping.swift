/// Where an image lands on a grid: a rectangle of the image, in pixels (fractions allowed, so
/// an overzoomed quarter of a tile or a tile at a fractional scale can be drawn), onto a
/// rectangle of dots or cells, scaled to fit.
public struct RasterMapping: Sendable, Hashable {
  /// The image rectangle, in pixels from the image's top-left.
  public var sourceX: Double
  /// The rectangle's top, in pixels.
  public var sourceY: Double
  /// The rectangle's width, in pixels.
  public var sourceWidth: Double
  /// The rectangle's height, in pixels.
  public var sourceHeight: Double
  /// The destination rectangle on the grid (dots for `drawDots`, cells for `halfBlockCells`).
  public var x: Int
  /// The destination's top.
  public var y: Int
  /// The destination's width.
  public var width: Int
  /// The destination's height.
  public var height: Int

  /// A mapping from an image rectangle onto a grid rectangle.
  public init(
    sourceX: Double, sourceY: Double, sourceWidth: Double, sourceHeight: Double, x: Int, y: Int,
    width: Int, height: Int
  ) {
    self.sourceX = sourceX
    self.sourceY = sourceY
    self.sourceWidth = sourceWidth
    self.sourceHeight = sourceHeight
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// True when the destination rectangle is non-empty and within ±2^40 grid units (far
  /// beyond any canvas), so that its arithmetic cannot overflow; others draw nothing.
  var isDrawable: Bool {
    let bound = 1 << 40
    return width > 0 && height > 0 && width < bound && height < bound && x > -bound
      && x < bound && y > -bound && y < bound
  }

  /// The whole image onto `width × height` grid units with its top-left at (x, y). A tile of
  /// zoom z drawn at map zoom `zoom` covers 256·2^(zoom−z) dots each way, whatever its pixel
  /// size (256, or 512 for @2x): that is `width` and `height` for `drawDots`.
  public static func whole(_ image: RasterImage, x: Int, y: Int, width: Int, height: Int)
    -> RasterMapping
  {
    RasterMapping(
      sourceX: 0, sourceY: 0, sourceWidth: Double(image.width),
      sourceHeight: Double(image.height), x: x, y: y, width: width, height: height)
  }
}

/// The image resampled onto a grid: for each grid unit the area-weighted mean of the pixels it
/// covers (a box filter, so thin dark lines fade rather than vanish when scaled down; scaling
/// up repeats pixels).
struct Samples {
  let width: Int
  let height: Int
  /// Per grid unit, four floats: premultiplied red, green, blue (0–255 scale) and alpha (0–1).
  var values: [Float]

  @inline(__always) func r(_ i: Int) -> Float { values[4 * i] }
  @inline(__always) func g(_ i: Int) -> Float { values[4 * i + 1] }
  @inline(__always) func b(_ i: Int) -> Float { values[4 * i + 2] }
  @inline(__always) func a(_ i: Int) -> Float { values[4 * i + 3] }

  /// One axis of the box filter: for each destination unit, the pixels it covers and how much.
  struct Taps {
    var start: [Int32] = []
    var pixels: [Int32] = []
    var weights: [Float] = []
  }

  static func taps(origin: Double, extent: Double, units: Int, pixels: Int, skip: Int) -> Taps {
    var t = Taps()
    let scale = extent / Double(units)
    for u in 0..<units {
      t.start.append(Int32(t.pixels.count))
      let lo = origin + Double(u + skip) * scale
      let hi = lo + scale
      var p = Int(lo.rounded(.down))
      var total = 0.0
      var first = t.pixels.count
      while Double(p) < hi {
        let w = min(hi, Double(p + 1)) - max(lo, Double(p))
        if w > 1e-9 {
          t.pixels.append(Int32(min(max(p, 0), pixels - 1)))
          t.weights.append(Float(w))
          total += w
        }
        p += 1
      }
      if total > 0 {
        while first < t.weights.count {
          t.weights[first] /= Float(total)
          first += 1
        }
      }
    }
    t.start.append(Int32(t.pixels.count))
    return t
  }

  /// Samples for the grid units (skipX..<skipX+columns, skipY..<skipY+rows) of a mapping
  /// `units` wide and high (units outside the mapping's rectangle continue its scale, and
  /// pixels beyond the image repeat its edge).
  init(
    _ image: RasterImage, _ m: RasterMapping, unitsWide: Int, unitsHigh: Int, skipX: Int,
    skipY: Int, columns: Int, rows: Int
  ) {
    width = max(columns, 0)
    height = max(rows, 0)
    values = [Float](repeating: 0, count: 4 * width * height)
    // A source rectangle that is not finite, or absurdly far out, draws nothing (transparent)
    // rather than trapping when pixel positions are turned into integers.
    let limit = 1e9
    guard width > 0, height > 0, image.width > 0, image.height > 0, unitsWide > 0,
      unitsHigh > 0, unitsWide < 1 << 24, unitsHigh < 1 << 24,
      [m.sourceX, m.sourceY, m.sourceWidth, m.sourceHeight].allSatisfy({ abs($0) < limit })
    else { return }
    let colTaps = Samples.shiftedTaps(
      origin: m.sourceX, scale: m.sourceWidth / Double(unitsWide), first: skipX, count: columns,
      pixels: image.width)
    let rowTaps = Samples.shiftedTaps(
      origin: m.sourceY, scale: m.sourceHeight / Double(unitsHigh), first: skipY, count: rows,
      pixels: image.height)
    let w = image.width
    let width = self.width
    let height = self.height
    image.pixels.withUnsafeBufferPointer { px in
      colTaps.start.withUnsafeBufferPointer { cStart in
        colTaps.pixels.withUnsafeBufferPointer { cPixel in
          colTaps.weights.withUnsafeBufferPointer { cWeight in
            values.withUnsafeMutableBufferPointer { out in
              for j in 0..<height {
                let row = j * width * 4
                for ty in Int(rowTaps.start[j])..<Int(rowTaps.start[j + 1]) {
                  let base = Int(rowTaps.pixels[ty]) * w
                  let wy = rowTaps.weights[ty] * (1 / 255)
                  for i in 0..<width {
                    var sr: Float = 0
                    var sg: Float = 0
                    var sb: Float = 0
                    var sa: Float = 0
                    for tx in Int(cStart[i])..<Int(cStart[i + 1]) {
                      let o = (base + Int(cPixel[tx])) * 4
                      let wa = cWeight[tx] * Float(px[o + 3])
                      sr += wa * Float(px[o])
                      sg += wa * Float(px[o + 1])
                      sb += wa * Float(px[o + 2])
                      sa += wa
                    }
                    let k = row + 4 * i
                    out[k] += wy * sr
                    out[k + 1] += wy * sg
                    out[k + 2] += wy * sb
                    out[k + 3] += wy * sa
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  static func shiftedTaps(origin: Double, scale: Double, first: Int, count: Int, pixels: Int)
    -> Taps
  {
    taps(
      origin: origin, extent: scale * Double(count), units: max(count, 0), pixels: pixels,
      skip: first)
  }

  /// Luminance (Rec. 709 weights on the encoded values) of the colour under the alpha, 0–1;
  /// for a transparent unit, 1 (paper).
  @inline(__always) func luminance(_ i: Int) -> Float {
    let alpha = a(i)
    guard alpha > 0.001 else { return 1 }
    return (0.2126 * r(i) + 0.7152 * g(i) + 0.0722 * b(i)) / (255 * alpha)
  }
}
