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
}
