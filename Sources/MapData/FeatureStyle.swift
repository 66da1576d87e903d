import DotRaster
import Foundation

/// How a file asks for one feature to be drawn: simplestyle properties in GeoJSON, `<Style>`
/// in KML. Colours are the nearest xterm-256 colours; absent values are nil.
public struct FeatureStyle: Hashable, Sendable {
  /// The colour of lines and outlines (`stroke`, KML `LineStyle`).
  public var stroke: TermColor?
  /// The width of lines in the file's units (pixels), when given.
  public var strokeWidth: Double?
  /// 0…1, when given.
  public var strokeOpacity: Double?
  /// The colour inside polygons (`fill`, KML `PolyStyle`).
  public var fill: TermColor?
  /// 0…1, when given (0 when KML says `<fill>0</fill>`).
  public var fillOpacity: Double?
  /// The colour of a point's marker (`marker-color`, KML `IconStyle`).
  public var markerColor: TermColor?
  /// The marker's symbol name (`marker-symbol`), sanitized.
  public var markerSymbol: String?
  /// `small`, `medium` or `large` (`marker-size`).
  public var markerSize: String?

  /// A style; every field is optional.
  public init(
    stroke: TermColor? = nil, strokeWidth: Double? = nil, strokeOpacity: Double? = nil,
    fill: TermColor? = nil, fillOpacity: Double? = nil, markerColor: TermColor? = nil,
    markerSymbol: String? = nil, markerSize: String? = nil
  ) {
    self.stroke = stroke
    self.strokeWidth = strokeWidth
    self.strokeOpacity = strokeOpacity
    self.fill = fill
    self.fillOpacity = fillOpacity
    self.markerColor = markerColor
    self.markerSymbol = markerSymbol
    self.markerSize = markerSize
  }

  /// True when nothing is set.
  public var isEmpty: Bool { self == FeatureStyle() }

  /// The style with `other`'s values where it has them.
  func overlaid(by other: FeatureStyle) -> FeatureStyle {
    var s = self
    if let v = other.stroke { s.stroke = v }
    if let v = other.strokeWidth { s.strokeWidth = v }
    if let v = other.strokeOpacity { s.strokeOpacity = v }
    if let v = other.fill { s.fill = v }
    if let v = other.fillOpacity { s.fillOpacity = v }
    if let v = other.markerColor { s.markerColor = v }
    if let v = other.markerSymbol { s.markerSymbol = v }
    if let v = other.markerSize { s.markerSize = v }
    return s
  }
}

/// Colours written in files.
enum ColorText {
  private static let named: [String: (Int, Int, Int)] = [
    "black": (0, 0, 0), "white": (255, 255, 255), "red": (255, 0, 0), "lime": (0, 255, 0),
    "green": (0, 128, 0), "blue": (0, 0, 255), "yellow": (255, 255, 0), "cyan": (0, 255, 255),
    "aqua": (0, 255, 255), "magenta": (255, 0, 255), "fuchsia": (255, 0, 255),
    "silver": (192, 192, 192), "gray": (128, 128, 128), "grey": (128, 128, 128),
    "maroon": (128, 0, 0), "olive": (128, 128, 0), "purple": (128, 0, 128), "teal": (0, 128, 128),
    "navy": (0, 0, 128), "orange": (255, 165, 0), "brown": (165, 42, 42), "pink": (255, 192, 203),
  ]

  /// A CSS colour: `#rgb`, `#rrggbb` (the `#` may be left out, as simplestyle allows) or one
  /// of the basic CSS colour names; nil for anything else.
  static func css(_ text: String) -> TermColor? {
    rgb(css: text).map { TermColor(nearestTo: $0.r, g: $0.g, b: $0.b) }
  }

  /// The components (0–255) of a CSS colour as `css(_:)` reads it.
  static func rgb(css text: String) -> (r: Int, g: Int, b: Int)? {
    let t = text.trimmingCharacters(in: .whitespaces).lowercased()
    if let (r, g, b) = named[t] { return (r, g, b) }
    var hex = Substring(t)
    if hex.hasPrefix("#") { hex = hex.dropFirst() }
    guard hex.count == 3 || hex.count == 6, let v = Int(hex, radix: 16), !hex.hasPrefix("+"),
      !hex.hasPrefix("-")
    else { return nil }
    if hex.count == 3 {
      return (((v >> 8) & 0xF) * 17, ((v >> 4) & 0xF) * 17, (v & 0xF) * 17)
    }
    return ((v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF)
  }

  /// A KML colour `aabbggrr` (hex): the colour and its opacity 0…1.
  static func kml(_ text: String) -> (TermColor, Double)? {
    var t = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
    if t.hasPrefix("#") { t = t.dropFirst() }
    guard t.count == 8, let v = UInt32(t, radix: 16), !t.hasPrefix("+"), !t.hasPrefix("-") else {
      return nil
    }
    let a = Int(v >> 24)
    let b = Int((v >> 16) & 0xFF)
    let g = Int((v >> 8) & 0xFF)
    let r = Int(v & 0xFF)
    return (TermColor(nearestTo: r, g: g, b: b), Double(a) / 255)
  }
}

extension FeatureStyle {
  /// A colour as simplestyle writes it (`#rgb`, `#rrggbb`, the `#` optional, or a basic CSS
  /// colour name) as the nearest xterm-256 colour; nil for anything else.
  public static func color(css text: String) -> TermColor? { ColorText.css(text) }

  /// The same colour as a 24-bit `TermColor`: sent as itself to a terminal that announces
  /// truecolor, as its nearest xterm-256 colour (the one `color(css:)` gives) to one with 256
  /// colours, and as that colour's nearest basic colour to one with 16. Nil for anything
  /// `color(css:)` does not read.
  public static func trueColor(css text: String) -> TermColor? {
    ColorText.rgb(css: text).map { TermColor(red: $0.r, green: $0.g, blue: $0.b) }
  }
}
