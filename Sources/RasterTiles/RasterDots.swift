import DotRaster

/// How a raster image's tones become braille dots.
public enum RasterDotMethod: String, Sendable, CaseIterable {
  /// A dot where the image is darker than its surroundings (the mean over a square of dots
  /// around it) by more than `RasterDotOptions.contrast`, or darker than `inkLevel` outright.
  /// Edges, lines and text keep their shape; even areas stay empty whatever their tone.
  case adaptive
  /// Ordered (Bayer 4 × 4) dithering: a tone between `paperLevel` and `inkLevel` becomes that
  /// share of the dots, in a fixed pattern tied to the canvas grid (so tiles meet seamlessly).
  case ordered
  /// A dot where the tone is darker than halfway between `paperLevel` and `inkLevel`.
  case threshold
  /// `adaptive`, plus `ordered` at half strength: the edges, over a light texture that tells
  /// darker areas (water, buildings, parks) from the paper.
  case hybrid
}

/// Settings for `RasterImage.drawDots`.
public struct RasterDotOptions: Sendable, Hashable {
  /// How pixels become dots.
  public var method: RasterDotMethod
  /// Dots mark dark pixels (true, for the usual light map styles) or light ones.
  public var inkDark: Bool
  /// Luminance (0–1) at and above which a pixel is paper: no dot (`ordered`, `threshold`).
  public var paperLevel: Float
  /// Luminance at and below which a pixel always gets a dot (all methods).
  public var inkLevel: Float
  /// `adaptive`: how much darker (0–1) than its surroundings a pixel must be.
  public var contrast: Float
  /// `adaptive`: the half-width, in dots, of the square whose mean is the surroundings.
  public var radius: Int
  /// Dots carry the image's 24-bit colour (true) or only its nearest palette colour.
  public var trueColor: Bool
  /// The ink layer the dots go on.
  public var layer: UInt32

  /// Settings; the defaults suit light map styles.
  public init(
    method: RasterDotMethod = .hybrid, inkDark: Bool = true, paperLevel: Float = 0.92,
    inkLevel: Float = 0.35, contrast: Float = 0.05, radius: Int = 3, trueColor: Bool = true,
    layer: UInt32 = 1
  ) {
    self.method = method
    self.inkDark = inkDark
    self.paperLevel = paperLevel
    self.inkLevel = inkLevel
    self.contrast = contrast
    self.radius = radius
    self.trueColor = trueColor
    self.layer = layer
  }
}

extension RasterImage {
  /// Draws the image onto a dot canvas as `mapping` places it (source pixels onto a rectangle
  /// of dots; the part off the canvas is skipped). Each dot is sampled as the area-weighted
  /// mean of the pixels it covers; `options.method` decides which dots are inked; every inked
  /// dot of a cell gets that cell's colour: the mean of all the pixels the cell covers
  /// (inside the mapping). Transparent pixels (alpha under one half) get no dot.
  public func drawDots(
    into canvas: inout DotCanvas, mapping m: RasterMapping, options: RasterDotOptions = .init()
  ) {
    guard m.isDrawable else { return }
    let vx0 = max(m.x, 0)
    let vy0 = max(m.y, 0)
    let vx1 = min(m.x + m.width, canvas.width)
    let vy1 = min(m.y + m.height, canvas.height)
    guard vx0 < vx1, vy0 < vy1, m.width > 0, m.height > 0 else { return }
    let margin =
      options.method == .adaptive || options.method == .hybrid ? max(options.radius, 0) : 0
    let gw = vx1 - vx0 + 2 * margin
    let gh = vy1 - vy0 + 2 * margin
    let s = Samples(
      self, m, unitsWide: m.width, unitsHigh: m.height, skipX: vx0 - m.x - margin,
      skipY: vy0 - m.y - margin, columns: gw, rows: gh)
    // Darkness 0 (paper) … 1 (ink), in the chosen polarity.
    var dark = [Float](repeating: 0, count: gw * gh)
    var opaque = [Bool](repeating: false, count: gw * gh)
    for i in 0..<dark.count {
      let l = s.luminance(i)
      dark[i] = options.inkDark ? 1 - l : l
      opaque[i] = s.a(i) >= 0.5
    }
    let d0 = options.inkDark ? 1 - options.paperLevel : options.paperLevel
    let d1 = options.inkDark ? 1 - options.inkLevel : options.inkLevel
    let inked = RasterImage.inkMask(
      dark: dark, opaque: opaque, gw: gw, gh: gh, margin: margin, originX: vx0, originY: vy0,
      d0: d0, d1: d1, options: options)

    // Colours, one per canvas cell that the visible rectangle meets.
    let cw = CellGeometry.dotsWide
    let ch = CellGeometry.dotsHigh
    let vw = vx1 - vx0
    var cache = ColorCache()
    var cy = vy0 / ch * ch
    while cy < vy1 {
      var cx = vx0 / cw * cw
      while cx < vx1 {
        var r: Float = 0
        var g: Float = 0
        var b: Float = 0
        var a: Float = 0
        var any = false
        for y in max(cy, vy0)..<min(cy + ch, vy1) {
          for x in max(cx, vx0)..<min(cx + cw, vx1) {
            let i = (y - vy0 + margin) * gw + (x - vx0 + margin)
            r += s.r(i)
            g += s.g(i)
            b += s.b(i)
            a += s.a(i)
            if inked[(y - vy0) * vw + (x - vx0)] { any = true }
          }
        }
        if any && a > 0 {
          let c = cache.color(r, g, b, a, trueColor: options.trueColor)
          for y in max(cy, vy0)..<min(cy + ch, vy1) {
            for x in max(cx, vx0)..<min(cx + cw, vx1) where inked[(y - vy0) * vw + (x - vx0)] {
              canvas.plot(x: x, y: y, layer: options.layer, color: c)
            }
          }
        }
        cx += cw
      }
      cy += ch
    }
  }

  /// The 4 × 4 Bayer matrix as thresholds (k + ½) / 16.
  static let bayer: [Float] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5].map {
    (Float($0) + 0.5) / 16
  }

  /// Which dots of the visible rectangle (row-major, without the margin) are inked.
  static func inkMask(
    dark: [Float], opaque: [Bool], gw: Int, gh: Int, margin: Int, originX: Int, originY: Int,
    d0: Float, d1: Float, options: RasterDotOptions
  ) -> [Bool] {
    let vw = gw - 2 * margin
    let vh = gh - 2 * margin
    var out = [Bool](repeating: false, count: vw * vh)
    let span = max(d1 - d0, 1e-6)
    switch options.method {
    case .threshold:
      let t = (d0 + d1) / 2
      for y in 0..<vh {
        for x in 0..<vw {
          let i = y * gw + x
          out[y * vw + x] = opaque[i] && dark[i] > t
        }
      }
    case .ordered:
      for y in 0..<vh {
        for x in 0..<vw {
          let i = y * gw + x
          let v = (dark[i] - d0) / span
          let t = bayer[((originY + y) & 3) * 4 + ((originX + x) & 3)]
          out[y * vw + x] = opaque[i] && v > t
        }
      }
    case .adaptive, .hybrid:
      let gain: Float = options.method == .hybrid ? 0.5 : 0
      // Summed-area table of darkness over the grid with its margin.
      var sat = [Double](repeating: 0, count: (gw + 1) * (gh + 1))
      for y in 0..<gh {
        var rowSum = 0.0
        for x in 0..<gw {
          rowSum += Double(dark[y * gw + x])
          sat[(y + 1) * (gw + 1) + x + 1] = sat[y * (gw + 1) + x + 1] + rowSum
        }
      }
      let r = margin
      let area = Double((2 * r + 1) * (2 * r + 1))
      for y in 0..<vh {
        for x in 0..<vw {
          let gx = x + margin
          let gy = y + margin
          let i = gy * gw + gx
          guard opaque[i] else { continue }
          let d = dark[i]
          if d >= d1 {
            out[y * vw + x] = true
            continue
          }
          let x0 = gx - r
          let y0 = gy - r
          let x1 = gx + r + 1
          let y1 = gy + r + 1
          let sum =
            sat[y1 * (gw + 1) + x1] - sat[y0 * (gw + 1) + x1] - sat[y1 * (gw + 1) + x0]
            + sat[y0 * (gw + 1) + x0]
          let mean = Float(sum / area)
          if d > mean + options.contrast && d > d0 {
            out[y * vw + x] = true
          } else if gain > 0 {
            let t = bayer[((originY + y) & 3) * 4 + ((originX + x) & 3)]
            out[y * vw + x] = gain * (d - d0) / span > t
          }
        }
      }
    }
    return out
  }
}
