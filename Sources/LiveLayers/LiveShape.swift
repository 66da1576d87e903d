import DotRaster
import MapData
import MapGeometry
import TermMapKit

/// A line or polygon target on the map: its shape (a `Polyline`, `MultiPolyline`, `Polygon`
/// or `MultiPolygon`) drawn with its simplestyle properties (``SimpleStyle``). A message with
/// its id again replaces it (the `LiveLayer` swaps the overlay); `"geometry": null` removes it.
///
/// It makes its own renderer (`DefaultRendering`): the map, and a delegate that hands such
/// overlays to `MapView.defaultRenderer(for:)`, draw it in its own colours.
public final class LiveShape: Overlay, DefaultRendering {
  /// The target's id.
  public let id: String
  /// The shape drawn.
  public let shape: any Overlay
  /// How it is drawn: its simplestyle properties as a path style (grey while stale).
  public let style: PathStyle
  /// The target's label (`title`, `name`, …, else the id).
  public let title: String?
  /// The target's id.
  public let subtitle: String?

  /// The shape of a line or polygon target in a state (nil for any other geometry).
  public init?(_ state: TargetState, title: String) {
    switch state.geometry {
    case .lines(let lines) where lines.count == 1:
      shape = Polyline(coordinates: lines[0], title: title, subtitle: state.id)
    case .lines(let lines):
      shape = MultiPolyline(lines.map { Polyline(coordinates: $0) }, title: title)
    case .polygons(let polygons) where !polygons.isEmpty:
      let made = polygons.map { rings in
        Polygon(
          coordinates: rings[0],
          interiorPolygons: rings.dropFirst().map { Polygon(coordinates: $0) }, title: title,
          subtitle: state.id)
      }
      shape = made.count == 1 ? made[0] : MultiPolygon(made, title: title)
    default:
      return nil
    }
    id = state.id
    self.title = title
    subtitle = state.id
    let closed: Bool
    if case .polygons = state.geometry { closed = true } else { closed = false }
    style = SimpleStyle.pathStyle(
      state.properties, kind: state.kind, isStale: state.isStale, closed: closed)
  }

  /// The shape's bounding rect.
  public var boundingMapRect: MapRect { shape.boundingMapRect }
  /// Whether the shape meets a rect.
  public func intersects(_ mapRect: MapRect) -> Bool { shape.intersects(mapRect) }
  /// The shape's centre.
  public var coordinate: Coordinate { shape.coordinate }

  /// The shape's standard drawing (`PolylineDrawing`, `MultiPolylineDrawing`,
  /// `PolygonDrawing`, `MultiPolygonDrawing`) with ``style``.
  public var drawing: any OverlayRendering {
    switch shape {
    case let p as Polyline: return PolylineDrawing(polyline: p, style: style)
    case let m as MultiPolyline: return MultiPolylineDrawing(multiPolyline: m, style: style)
    case let p as Polygon: return PolygonDrawing(polygon: p, style: style)
    case let m as MultiPolygon: return MultiPolygonDrawing(multiPolygon: m, style: style)
    default: return MultiPolylineDrawing(multiPolyline: MultiPolyline([]), style: style)
    }
  }

  /// A renderer drawing ``drawing``.
  public func makeDefaultRenderer() -> OverlayRenderer {
    OverlayRenderer(overlay: self, rendering: drawing)
  }
}

/// Simplestyle (mapbox simplestyle-spec 1.1.0) on a braille raster: how a line or polygon
/// target's `stroke`, `stroke-width`, `stroke-opacity`, `fill` and `fill-opacity` become a
/// `PathStyle`. A cell has one colour and no partial ink, so opacity is dot density: a fill
/// inks that share of each cell's eight dots, a stroke that share of its length (dots on and
/// off). Colours are the nearest xterm-256 colours (a dot's ink holds a palette colour),
/// which terminals with 16 colours show as their nearest basic colour.
public enum SimpleStyle {
  /// The colour of a kind's lines and areas without `stroke` (as its markers without
  /// `marker-color`).
  public static func defaultColor(for kind: TargetKind) -> TermColor {
    LiveTargetView.color(for: kind)
  }

  /// The path style of a line (`closed` false) or polygon target with these properties:
  /// `stroke` (else the kind's colour), `stroke-width` in pixels as a brush of
  /// `strokeDots(pixels:)` dots (2 px by default: 1 dot), `stroke-opacity` as dashes
  /// (`strokeDashes(opacity:)`), `fill` (else the stroke's colour) and `fill-opacity` (0.6
  /// by default) as a dot pattern (`fillPattern(opacity:)`). A width or opacity of 0 draws
  /// no stroke or no fill. Stale: grey, however styled.
  public static func pathStyle(
    _ properties: [LiveProperty], kind: TargetKind, isStale: Bool = false, closed: Bool
  ) -> PathStyle {
    func value(_ key: String) -> LiveValue? { properties.first { $0.key == key }?.value }
    func color(_ key: String) -> TermColor? {
      guard case .string(let text)? = value(key), let c = FeatureStyle.color(css: text) else {
        return nil
      }
      return c
    }
    func number(_ key: String) -> Double? {
      guard let v = value(key)?.numberValue, v.isFinite else { return nil }
      return v
    }
    let grey: TermColor? = isStale ? .brightBlack : nil
    let stroke = grey ?? color("stroke") ?? defaultColor(for: kind)
    var s = PathStyle(strokeColor: stroke, lineWidth: 1)
    if let w = number("stroke-width") {
      if let dots = strokeDots(pixels: w) { s.lineWidth = dots } else { s.strokeColor = nil }
    }
    if let o = number("stroke-opacity") {
      if o <= 0 { s.strokeColor = nil } else { s.lineDashPattern = strokeDashes(opacity: o) }
    }
    if closed {
      s.fillColor = grey ?? color("fill") ?? stroke
      if let pattern = fillPattern(opacity: number("fill-opacity") ?? 0.6) {
        s.fillPattern = pattern
      } else {
        s.fillColor = nil
      }
    }
    return s
  }

  /// A brush width in dots for a simplestyle `stroke-width` in pixels: half of it, rounded,
  /// from 1 to 4 dots (a braille dot is some 4 pixels of an 8 × 16 cell; 2 px, simplestyle's
  /// default, is the thinnest line). Nil for 0 or less: no stroke.
  public static func strokeDots(pixels: Double) -> Double? {
    guard pixels > 0 else { return nil }
    return min(max((pixels / 2).rounded(), 1), 4)
  }

  /// Dashes in dots (on, off) inking about `opacity` of a line: nil (solid) from 7/8 up,
  /// `[3, 1]` from 5/8, `[1, 1]` from 3/8, `[1, 2]` from 3/16, `[1, 4]` below.
  public static func strokeDashes(opacity: Double) -> [Double]? {
    switch opacity {
    case 0.875...: return nil
    case 0.625...: return [3, 1]
    case 0.375...: return [1, 1]
    case 0.1875...: return [1, 2]
    default: return [1, 4]
    }
  }

  /// The dots of a cell a fill inks, in the order they are added as the opacity grows: each
  /// step spreads them as evenly as the cell allows (1: one dot in eight; 2: a dot on every
  /// other row and column; 4: a checkerboard; 8: solid).
  static let fillOrder: [(dx: Int, dy: Int)] = [
    (0, 0), (0, 2), (1, 1), (1, 3), (1, 2), (0, 1), (1, 0), (0, 3),
  ]

  /// The fill pattern inking `opacity` of each cell's eight dots (rounded to eighths, at
  /// least one dot); nil for 0 or less: no fill.
  public static func fillPattern(opacity: Double) -> DotPattern? {
    guard opacity > 0 else { return nil }
    let n = min(max(Int((opacity * 8).rounded()), 1), 8)
    var bits: UInt8 = 0
    for (dx, dy) in fillOrder.prefix(n) { bits |= CellGeometry.brailleBit(dx: dx, dy: dy) }
    return DotPattern(bits: bits)
  }
}
