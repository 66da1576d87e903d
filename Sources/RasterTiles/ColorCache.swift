import DotRaster

/// The `TermColor`s made for recent RGB values (finding the nearest palette colour is the
/// costly part): map tiles repeat a few colours over large areas. Direct-mapped, 1024 slots.
struct ColorCache {
  private var keys = [UInt32](repeating: .max, count: 1024)
  private var colors = [TermColor](repeating: TermColor(0), count: 1024)

  /// The colour of a mean of premultiplied samples (components 0–255 × alpha, alpha > 0).
  mutating func color(_ r: Float, _ g: Float, _ b: Float, _ a: Float, trueColor: Bool)
    -> TermColor
  {
    let ri = min(max(Int((r / a).rounded()), 0), 255)
    let gi = min(max(Int((g / a).rounded()), 0), 255)
    let bi = min(max(Int((b / a).rounded()), 0), 255)
    let key = UInt32(ri << 16 | gi << 8 | bi)
    let slot = Int((key &* 2_654_435_761) >> 22) & 1023
    let c: TermColor
    if keys[slot] == key {
      c = colors[slot]
    } else {
      c = TermColor(red: ri, green: gi, blue: bi)
      keys[slot] = key
      colors[slot] = c
    }
    return trueColor ? c : TermColor(c.index)
  }
}
