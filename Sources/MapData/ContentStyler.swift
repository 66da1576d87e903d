import DotRaster
import TermMapKit

/// Colours file content on the map: each file's routes in its own colour, unless the file
/// styles a feature itself (GeoJSON simplestyle, KML styles); markers likewise.
@MainActor
public final class ContentStyler {
  /// The colours given to files in turn.
  public static let fileColors: [TermColor] = [
    .brightRed, .brightMagenta, .brightCyan, .brightGreen, .brightYellow, .brightBlue,
  ]
  /// The reuse identifier of the markers it makes.
  public static let markerIdentifier = "termmap.marker"

  private var overlayStyles: [ObjectIdentifier: (style: FeatureStyle?, color: TermColor)] = [:]
  private var markerColors: [ObjectIdentifier: TermColor] = [:]
  private var files = 0

  /// A styler.
  public init() {}

  /// Takes note of a file's content (call before its overlays and annotations go on the map).
  public func add(_ content: MapContent) {
    let color = Self.fileColors[files % Self.fileColors.count]
    files += 1
    for o in content.overlays {
      overlayStyles[ObjectIdentifier(o)] = (content.style(for: o), color)
    }
    for a in content.annotations {
      markerColors[ObjectIdentifier(a)] = content.style(for: a)?.markerColor ?? .brightYellow
    }
  }

  /// A renderer for an overlay from a file: thin lines, fills as a dot texture.
  public func renderer(for overlay: any Overlay) -> OverlayRenderer {
    let r = MapView.defaultRenderer(for: overlay)
    guard let p = r as? OverlayPathRenderer else { return r }
    let entry = overlayStyles[ObjectIdentifier(overlay)]
    let color = entry?.style?.stroke ?? entry?.color ?? .brightRed
    p.lineWidth = max(1, min(entry?.style?.strokeWidth ?? 1, 3))
    p.strokeColor = color
    if !(p is PolylineRenderer || p is MultiPolylineRenderer) {
      p.fillColor = entry?.style?.fill ?? color
      p.fillPattern = (entry?.style?.fillOpacity ?? 0.5) >= 0.75 ? .solid : .checker
      if entry?.style?.fillOpacity == 0 { p.fillColor = nil }
    }
    return r
  }

  /// A marker for an annotation, in its file's marker colour, reused through the map's queue.
  public func view(for annotation: any Annotation, on map: MapView) -> AnnotationView? {
    map.register(
      MarkerAnnotationView.self, forAnnotationViewWithReuseIdentifier: Self.markerIdentifier)
    guard
      let v = try? map.dequeueReusableAnnotationView(
        withIdentifier: Self.markerIdentifier, for: annotation)
    else { return nil }
    v.color = markerColors[ObjectIdentifier(annotation)] ?? .brightYellow
    return v
  }
}
