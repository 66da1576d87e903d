import Foundation

/// A colour as the style specification computes with it: red, green and blue premultiplied by
/// alpha, each 0…1 (as MapLibre's `Color`).
public struct StyleColor: Sendable, Equatable {
  // Stored straight (not premultiplied): 32 bytes, so a `StyleValue` holding a colour stays
  // small, and a transparent colour keeps its red, green and blue as MapLibre's does.
  private var red: Double
  private var green: Double
  private var blue: Double
  /// Alpha, 0…1.
  public var a: Double

  /// Red × alpha, 0…1.
  public var r: Double { red * a }
  /// Green × alpha, 0…1.
  public var g: Double { green * a }
  /// Blue × alpha, 0…1.
  public var b: Double { blue * a }

  /// A colour from premultiplied components.
  public init(premultipliedRed r: Double, green g: Double, blue b: Double, alpha a: Double) {
    let f = a == 0 ? Double.infinity : a
    self.init(red: r / f, green: g / f, blue: b / f, alpha: a)
  }

  /// A colour from straight (not premultiplied) components, each 0…1.
  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    a = alpha
  }

  /// Equal when the premultiplied components are.
  public static func == (x: StyleColor, y: StyleColor) -> Bool {
    x.r == y.r && x.g == y.g && x.b == y.b && x.a == y.a
  }

  /// Straight red, green, blue (0…1) and alpha.
  public var straight: (r: Double, g: Double, b: Double, a: Double) { (red, green, blue, a) }

  /// Straight red, green and blue as 0…255 bytes (rounded) and alpha 0…1.
  public var rgba8: (r: UInt8, g: UInt8, b: UInt8, a: Double) {
    let s = straight
    func byte(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
    return (byte(s.r), byte(s.g), byte(s.b), s.a)
  }

  /// `rgba(r,g,b,a)` as MapLibre prints a colour.
  public var cssString: String {
    let s = straight
    func c(_ v: Double) -> String { jsNumberString((v * 255).rounded()) }
    return "rgba(\(c(s.r)),\(c(s.g)),\(c(s.b)),\(jsNumberString(s.a)))"
  }

  /// `text` without leading and trailing Foundation `.whitespaces` (tab and the Unicode space
  /// separators), trimmed by hand: `trimmingCharacters(in:)` bridges to `NSString` and was
  /// half of a colour's parse time when a style loads (docs/benchmarks.md).
  static func trimmed(_ text: String) -> String {
    func blank(_ c: Unicode.Scalar) -> Bool {
      c == "\t" || c.properties.generalCategory == .spaceSeparator
    }
    var view = Substring(text).unicodeScalars
    guard view.first.map(blank) == true || view.last.map(blank) == true else { return text }
    while let c = view.first, blank(c) { view.removeFirst() }
    while let c = view.last, blank(c) { view.removeLast() }
    return String(view)
  }

  /// Parses a CSS colour: named colours, `transparent`, `#rgb`, `#rgba`, `#rrggbb`,
  /// `#rrggbbaa`, `rgb()`/`rgba()` and `hsl()`/`hsla()` (comma or space separated,
  /// percentages). Nil when the text is not one.
  public init?(css input: String) {
    let s = Self.trimmed(input.lowercased())
    if s == "transparent" {
      self.init(red: 0, green: 0, blue: 0, alpha: 0)
      return
    }
    if let v = cssNamedColors[s] {
      self.init(
        red: Double(v >> 16 & 0xFF) / 255, green: Double(v >> 8 & 0xFF) / 255,
        blue: Double(v & 0xFF) / 255)
      return
    }
    if s.hasPrefix("#") {
      let hex = Array(s.utf8.dropFirst())
      guard [3, 4, 6, 8].contains(hex.count),
        hex.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) })
      else { return nil }
      func digit(_ c: UInt8) -> Int { c <= 0x39 ? Int(c - 0x30) : Int(c - 0x61 + 10) }
      var comps = [Double]()
      if hex.count <= 4 {
        for c in hex { comps.append(Double(digit(c) * 17) / 255) }
      } else {
        for k in stride(from: 0, to: hex.count, by: 2) {
          comps.append(Double(digit(hex[k]) * 16 + digit(hex[k + 1])) / 255)
        }
      }
      self.init(
        red: comps[0], green: comps[1], blue: comps[2], alpha: comps.count > 3 ? comps[3] : 1)
      return
    }
    guard let open = s.firstIndex(of: "("), s.hasSuffix(")") else { return nil }
    let name = String(s[..<open])
    let body = String(s[s.index(after: open)..<s.index(before: s.endIndex)])
    guard let args = CSSArguments(body) else { return nil }
    if name == "rgb" || name == "rgba" {
      let p = args.percent
      let maxValue: Double = p[0] && p[1] && p[2] ? 100 : (!p[0] && !p[1] && !p[2] ? 255 : 0)
      guard maxValue > 0 else { return nil }
      func clamp(_ v: Double) -> Double { min(max(0, v), 1) }
      let alpha =
        args.values.count > 3 ? clamp(args.percent[3] ? args.values[3] / 100 : args.values[3]) : 1
      let c = [args.values[0], args.values[1], args.values[2]].map { clamp($0 / maxValue) }
      guard !(c + [alpha]).contains(where: \.isNaN) else { return nil }
      self.init(red: c[0], green: c[1], blue: c[2], alpha: alpha)
      return
    }
    if name == "hsl" || name == "hsla" {
      guard !args.percent[0], args.percent[1], args.percent[2] else { return nil }
      let alpha =
        args.values.count > 3
        ? min(max(0, args.percent[3] ? args.values[3] / 100 : args.values[3]), 1) : 1
      let h = args.values[0]
      let sat = min(max(0, args.values[1]), 100)
      let l = min(max(0, args.values[2]), 100)
      guard ![h, sat, l, alpha].contains(where: \.isNaN) else { return nil }
      let rgb = hslToRGB(h, sat, l)
      self.init(red: rgb.0, green: rgb.1, blue: rgb.2, alpha: alpha)
      return
    }
    return nil
  }

  /// Interpolates in RGB (straight components), as `interpolate` does.
  static func interpolateRGB(_ x: StyleColor, _ y: StyleColor, _ t: Double) -> StyleColor {
    let a = x.straight
    let b = y.straight
    return StyleColor(
      red: a.r + t * (b.r - a.r), green: a.g + t * (b.g - a.g), blue: a.b + t * (b.b - a.b),
      alpha: a.a + t * (b.a - a.a))
  }

  /// Interpolates in CIELAB, as `interpolate-lab` does.
  static func interpolateLab(_ x: StyleColor, _ y: StyleColor, _ t: Double) -> StyleColor {
    let a = rgbToLab(x.straight)
    let b = rgbToLab(y.straight)
    let l = labToRgb(
      (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1), a.2 + t * (b.2 - a.2), a.3 + t * (b.3 - a.3)))
    return StyleColor(red: l.0, green: l.1, blue: l.2, alpha: l.3)
  }

  /// Interpolates in HCL, as `interpolate-hcl` does.
  static func interpolateHCL(_ x: StyleColor, _ y: StyleColor, _ t: Double) -> StyleColor {
    let (h0, c0, l0, a0) = rgbToHcl(x.straight)
    let (h1, c1, l1, a1) = rgbToHcl(y.straight)
    var hue: Double
    var chroma: Double? = nil
    if !h0.isNaN && !h1.isNaN {
      var dh = h1 - h0
      if h1 > h0 && dh > 180 {
        dh -= 360
      } else if h1 < h0 && h0 - h1 > 180 {
        dh += 360
      }
      hue = h0 + t * dh
    } else if !h0.isNaN {
      hue = h0
      if l1 == 1 || l1 == 0 { chroma = c0 }
    } else if !h1.isNaN {
      hue = h1
      if l0 == 1 || l0 == 0 { chroma = c1 }
    } else {
      hue = .nan
    }
    let c = chroma ?? (c0 + t * (c1 - c0))
    let hr = hue.isNaN ? 0 : hue * .pi / 180
    let rgb = labToRgb((l0 + t * (l1 - l0), cos(hr) * c, sin(hr) * c, a0 + t * (a1 - a0)))
    return StyleColor(red: rgb.0, green: rgb.1, blue: rgb.2, alpha: rgb.3)
  }
}

/// The arguments of `rgb(…)` or `hsl(…)`: numbers, which were percentages, and whether the
/// separators form one of CSS's accepted layouts.
private struct CSSArguments {
  var values: [Double] = []
  var percent: [Bool] = []

  init?(_ body: String) {
    // Accepted: "a b c", "a b c / d", "a,b,c", "a,b,c,d" (spaces around separators allowed).
    let chars = Array(body)
    var tokens: [String] = []
    var seps: [Character] = []
    var k = 0
    func skipSpace() -> Bool {
      var any = false
      while k < chars.count, chars[k] == " " || chars[k] == "\t" {
        k += 1
        any = true
      }
      return any
    }
    _ = skipSpace()
    while k < chars.count {
      var tok = ""
      while k < chars.count, "0123456789e.+-%".contains(chars[k]) || chars[k].isLetter {
        tok.append(chars[k])
        k += 1
      }
      guard !tok.isEmpty else { return nil }
      tokens.append(tok)
      let space = skipSpace()
      if k >= chars.count { break }
      if chars[k] == "," || chars[k] == "/" {
        seps.append(chars[k])
        k += 1
        _ = skipSpace()
      } else if space {
        seps.append(" ")
      } else {
        return nil
      }
    }
    guard tokens.count == 3 || tokens.count == 4, seps.count == tokens.count - 1 else { return nil }
    let layout = String(seps)
    guard ["  ", "  /", ",,", ",,,"].contains(layout) else { return nil }
    for (i, t) in tokens.enumerated() {
      var t = t
      var pct = false
      if i == 0, t.hasSuffix("deg") { t.removeLast(3) }
      if t.hasSuffix("%") {
        pct = true
        t.removeLast()
      }
      guard let v = Double(t) else { return nil }
      values.append(v)
      percent.append(pct)
    }
  }
}

private func hslToRGB(_ h0: Double, _ s0: Double, _ l0: Double) -> (Double, Double, Double) {
  var h = h0.truncatingRemainder(dividingBy: 360)
  if h < 0 { h += 360 }
  let s = s0 / 100
  let l = l0 / 100
  func f(_ n: Double) -> Double {
    let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
    let a = s * min(l, 1 - l)
    return l - a * max(-1, min(k - 3, 9 - k, 1))
  }
  return (f(0), f(8), f(4))
}

private let labXn = 0.96422
private let labZn = 0.82521
private let labT0 = 4.0 / 29
private let labT1 = 6.0 / 29
private let labT2 = 3 * labT1 * labT1
private let labT3 = labT1 * labT1 * labT1

private func rgbToLab(_ c: (r: Double, g: Double, b: Double, a: Double)) -> (
  Double, Double, Double, Double
) {
  func rgb2xyz(_ x: Double) -> Double { x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4) }
  func xyz2lab(_ t: Double) -> Double { t > labT3 ? pow(t, 1.0 / 3) : t / labT2 + labT0 }
  let r = rgb2xyz(c.r)
  let g = rgb2xyz(c.g)
  let b = rgb2xyz(c.b)
  let y = xyz2lab(0.2225045 * r + 0.7168786 * g + 0.0606169 * b)
  let x: Double
  let z: Double
  if r == g && g == b {
    x = y
    z = y
  } else {
    x = xyz2lab((0.4360747 * r + 0.3850649 * g + 0.1430804 * b) / labXn)
    z = xyz2lab((0.0139322 * r + 0.0971045 * g + 0.7141733 * b) / labZn)
  }
  let l = 116 * y - 16
  return (l < 0 ? 0 : l, 500 * (x - y), 200 * (y - z), c.a)
}

private func labToRgb(_ c: (Double, Double, Double, Double)) -> (Double, Double, Double, Double) {
  func lab2xyz(_ t: Double) -> Double { t > labT1 ? t * t * t : labT2 * (t - labT0) }
  func xyz2rgb(_ x0: Double) -> Double {
    let x = x0 <= 0.00304 ? 12.92 * x0 : 1.055 * pow(x0, 1 / 2.4) - 0.055
    return x < 0 ? 0 : x > 1 ? 1 : x
  }
  var y = (c.0 + 16) / 116
  var x = c.1.isNaN ? y : y + c.1 / 500
  var z = c.2.isNaN ? y : y - c.2 / 200
  y = lab2xyz(y)
  x = labXn * lab2xyz(x)
  z = labZn * lab2xyz(z)
  return (
    xyz2rgb(3.1338561 * x - 1.6168667 * y - 0.4906146 * z),
    xyz2rgb(-0.9787684 * x + 1.9161415 * y + 0.033454 * z),
    xyz2rgb(0.0719453 * x - 0.2289914 * y + 1.4052427 * z), c.3
  )
}

private func rgbToHcl(_ c: (r: Double, g: Double, b: Double, a: Double)) -> (
  Double, Double, Double, Double
) {
  let (l, a, b, alpha) = rgbToLab(c)
  let chroma = (a * a + b * b).squareRoot()
  var h = Double.nan
  if (chroma * 10000).rounded() != 0 {
    h = (atan2(b, a) * 180 / .pi).truncatingRemainder(dividingBy: 360)
    if h < 0 { h += 360 }
  }
  return (h, chroma, l, alpha)
}
