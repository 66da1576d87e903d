import DotRaster

extension RasterImage {
  /// Draws the image as half blocks: `mapping` places source pixels onto a rectangle of
  /// *cells*, and each cell shows two colour samples, its upper and lower half, as `▀`
  /// (U+2580) with the upper colour as foreground and the lower as background. Each sample is
  /// the area-weighted mean of the pixels it covers. Cells off the buffer are skipped; where
  /// both halves are transparent the buffer's cell is left as it is, and where one is, the
  /// other half is drawn alone (`▀` or `▄` with no background).
  ///
  /// `charset: .ascii` has no half blocks: each cell becomes one character of the ramp
  /// `RasterImage.asciiRamp`, chosen by how dark the two halves' mean is between
  /// `paperLevel` (a space) and `inkLevel` (`@`), in that mean colour. Like the braille dots,
  /// it draws what is darker than the paper, so a light map reads as a sketch and keeps its
  /// shapes even without colours.
  public func drawHalfBlocks(
    into buffer: inout CellBuffer, mapping m: RasterMapping, charset: Charset = .braille,
    trueColor: Bool = true, paperLevel: Float = 0.92, inkLevel: Float = 0.35
  ) {
    guard m.isDrawable else { return }
    let vx0 = max(m.x, 0)
    let vy0 = max(m.y, 0)
    let vx1 = min(m.x + m.width, buffer.columns)
    let vy1 = min(m.y + m.height, buffer.rows)
    guard vx0 < vx1, vy0 < vy1, m.width > 0, m.height > 0 else { return }
    let gw = vx1 - vx0
    let s = Samples(
      self, m, unitsWide: m.width, unitsHigh: 2 * m.height, skipX: vx0 - m.x,
      skipY: 2 * (vy0 - m.y), columns: gw, rows: 2 * (vy1 - vy0))
    var cache = ColorCache()
    func color(_ r: Float, _ g: Float, _ b: Float, _ a: Float) -> TermColor {
      cache.color(r, g, b, a, trueColor: trueColor)
    }
    for row in vy0..<vy1 {
      let upper = (2 * (row - vy0)) * gw
      let lower = upper + gw
      for column in vx0..<vx1 {
        let u = upper + column - vx0
        let l = lower + column - vx0
        let showU = s.a(u) >= 0.5
        let showL = s.a(l) >= 0.5
        if !showU && !showL { continue }
        if charset == .ascii {
          let a = (showU ? s.a(u) : 0) + (showL ? s.a(l) : 0)
          let r = (showU ? s.r(u) : 0) + (showL ? s.r(l) : 0)
          let g = (showU ? s.g(u) : 0) + (showL ? s.g(l) : 0)
          let b = (showU ? s.b(u) : 0) + (showL ? s.b(l) : 0)
          let lum = (0.2126 * r + 0.7152 * g + 0.0722 * b) / (255 * a)
          buffer[column, row] = Cell(
            glyph: RasterImage.asciiGlyph(
              darkness: (paperLevel - lum) / max(paperLevel - inkLevel, 1e-6)),
            foreground: color(r, g, b, a))
        } else if showU && showL {
          buffer[column, row] = Cell(
            glyph: "\u{2580}", foreground: color(s.r(u), s.g(u), s.b(u), s.a(u)),
            background: color(s.r(l), s.g(l), s.b(l), s.a(l)))
        } else if showU {
          buffer[column, row] = Cell(
            glyph: "\u{2580}", foreground: color(s.r(u), s.g(u), s.b(u), s.a(u)))
        } else {
          buffer[column, row] = Cell(
            glyph: "\u{2584}", foreground: color(s.r(l), s.g(l), s.b(l), s.a(l)))
        }
      }
    }
  }

  /// The ASCII fallback's characters from paper to ink.
  public static let asciiRamp: [Unicode.Scalar] = [
    " ", ".", ":", "-", "=", "+", "*", "#", "%", "@",
  ]

  static func asciiGlyph(darkness: Float) -> Unicode.Scalar {
    let n = asciiRamp.count
    let i = Int((min(max(darkness, 0), 1) * Float(n - 1)).rounded())
    return asciiRamp[i]
  }
}
