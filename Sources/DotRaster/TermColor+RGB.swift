extension TermColor {
  /// The xterm-256 colour nearest to an RGB value (components 0–255, clamped).
  ///
  /// Only the 6×6×6 cube and the grey ramp (indices 16–255) are candidates: the 16 basic
  /// colours are left out because terminals' themes change them. Nearness is the "redmean"
  /// weighted distance, a cheap approximation of how different two colours look.
  public init(nearestTo r: Int, g: Int, b: Int) {
    let r = min(max(r, 0), 255)
    let g = min(max(g, 0), 255)
    let b = min(max(b, 0), 255)
    var best = 16
    var bestDistance = Int.max
    for index in 16...255 {
      let (cr, cg, cb) = TermColor(UInt8(index)).rgb
      let mean = (r + cr) / 2
      let dr = r - cr
      let dg = g - cg
      let db = b - cb
      let d = ((512 + mean) * dr * dr) >> 8 + 4 * dg * dg + ((767 - mean) * db * db) >> 8
      if d < bestDistance {
        bestDistance = d
        best = index
      }
    }
    self.init(UInt8(best))
  }

  /// The palette index `init(nearestTo:g:b:)` picks (components already 0–255), found by
  /// measuring only the cube colours whose levels bracket each component and the greys between
  /// the smallest and largest component, instead of all 240. Tests compare it with the full
  /// search over a lattice of colours.
  static func nearestIndex(r: Int, g: Int, b: Int) -> UInt8 {
    var best = 16
    var bestDistance = Int.max
    @inline(__always) func consider(_ index: Int, _ cr: Int, _ cg: Int, _ cb: Int) {
      let mean = (r + cr) / 2
      let dr = r - cr
      let dg = g - cg
      let db = b - cb
      let d = ((512 + mean) * dr * dr) >> 8 + 4 * dg * dg + ((767 - mean) * db * db) >> 8
      if d < bestDistance || (d == bestDistance && index < best) {
        bestDistance = d
        best = index
      }
    }
    let (r0, r1) = cubeBracket(r)
    let (g0, g1) = cubeBracket(g)
    let (b0, b1) = cubeBracket(b)
    for ri in r0...r1 {
      for gi in g0...g1 {
        for bi in b0...b1 {
          consider(16 + 36 * ri + 6 * gi + bi, cubeLevels[ri], cubeLevels[gi], cubeLevels[bi])
        }
      }
    }
    // Greys 232–255 are 8 + 10k: those from just below the darkest component to just above
    // the lightest.
    let lo = max(0, (min(r, g, b) - 8) / 10 - 1)
    let hi = min(23, (max(r, g, b) - 8) / 10 + 1)
    if lo <= hi {
      for k in lo...hi {
        let v = 8 + 10 * k
        consider(232 + k, v, v, v)
      }
    }
    return UInt8(best)
  }

  private static let cubeLevels = [0, 95, 135, 175, 215, 255]

  /// The cube levels (indices 0–5) just below and just above a component.
  private static func cubeBracket(_ v: Int) -> (Int, Int) {
    if v < 95 { return (0, 1) }
    let i = min((v - 95) / 40 + 1, 5)
    return (i, min(i + 1, 5))
  }
}
