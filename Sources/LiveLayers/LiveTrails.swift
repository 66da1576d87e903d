import DotRaster
import MapGeometry
import TermMapKit

/// The trails of a live layer's point targets (`--trail N`): each target's last positions as
/// a line in the colour its marker has (`marker-color`, else its kind's; grey while stale).
/// One overlay for all of them, the lines grouped by colour, so many targets cost one
/// renderer. It makes its own renderer (`DefaultRendering`): the map, and a delegate that
/// hands such overlays to `MapView.defaultRenderer(for:)`, draw it in the targets' colours,
/// whatever a viewer's routes toggle says.
public final class LiveTrails: Overlay, DefaultRendering {
  /// The lines of one colour.
  public struct Group: Sendable {
    /// The colour the lines are drawn in.
    public let color: TermColor
    /// The lines.
    public let lines: MultiPolyline
  }

  /// The lines by colour, in the order the colours were first met.
  public let groups: [Group]
  /// The smallest rect holding every trail.
  public let boundingMapRect: MapRect

  /// Trails, each a line of two positions or more and the colour it is drawn in.
  public init(_ trails: [(coordinates: [Coordinate], color: TermColor)]) {
    var order: [TermColor] = []
    var lines: [TermColor: [Polyline]] = [:]
    for t in trails where t.coordinates.count >= 2 {
      if lines[t.color] == nil { order.append(t.color) }
      lines[t.color, default: []].append(Polyline(coordinates: t.coordinates))
    }
    groups = order.map { Group(color: $0, lines: MultiPolyline(lines[$0]!)) }
    boundingMapRect = groups.reduce(MapRect.null) { $0.union($1.lines.boundingMapRect) }
  }

  /// "trails".
  public var title: String? { "trails" }
  /// Decorations of the targets: not what fitting the view looks at (the targets are).
  public var contentBounds: MapRect { .null }

  /// The lines one dot wide, each group in its colour.
  public var drawing: LiveTrailsDrawing { LiveTrailsDrawing(trails: self) }

  /// A renderer drawing ``drawing``.
  public func makeDefaultRenderer() -> OverlayRenderer {
    OverlayRenderer(overlay: self, rendering: drawing)
  }
}

/// Draws `LiveTrails`: each group's lines one dot wide in its colour (a `MultiPolylineDrawing`
/// per group, moved to the overlay's origin).
public struct LiveTrailsDrawing: OverlayRendering {
  /// The trails drawn.
  public let trails: LiveTrails

  /// A drawing of `trails`.
  public init(trails: LiveTrails) { self.trails = trails }

  /// The style of a group's lines.
  static func style(_ color: TermColor) -> PathStyle { PathStyle(strokeColor: color, lineWidth: 1) }

  /// Strokes each group's lines near `mapRect`.
  public func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let origin = trails.boundingMapRect.origin
    let reach = tileMargin(zoomScale: zoomScale)
    let near = mapRect.insetBy(dx: -reach, dy: -reach)
    for g in trails.groups where g.lines.intersects(near) {
      // A group's drawing works from its own bounding rect's origin; user space here is the
      // overlay's.
      let own = g.lines.boundingMapRect.origin
      context.saveGState()
      context.translateBy(x: own.x - origin.x, y: own.y - origin.y)
      MultiPolylineDrawing(multiPolyline: g.lines, style: Self.style(g.color))
        .draw(mapRect, zoomScale: zoomScale, in: context)
      context.restoreGState()
    }
  }

  /// Half the stroke and a dot.
  public func tileMargin(zoomScale: Double) -> Double {
    Self.style(.white).tileMargin(zoomScale: zoomScale)
  }
}
