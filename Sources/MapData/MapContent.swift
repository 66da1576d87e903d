import Foundation
import MapGeometry
import TermMapKit

/// What one data file puts on the map: overlays, annotations and a few counts.
///
/// `Sendable` (checked): overlays are immutable, annotations keep their fields behind a mutex,
/// and the rest are values; a file can be loaded in one task and drawn in another (by a
/// `MapView` on the main actor or a `MapSnapshotter` anywhere).
public struct MapContent: Sendable {
  /// The file the content was read from.
  public var path: String
  /// Lines and polygons, in file order.
  public var overlays: [any Overlay]
  /// Named points, in file order.
  public var annotations: [PointAnnotation]
  /// Vertices of all lines and rings.
  public var pointCount: Int
  /// The format the file was read as (detected from its contents).
  public var format: DataFormat = .csv
  /// Styles the file asks for, by `ObjectIdentifier` of an overlay or an annotation; only
  /// objects with a style are present. See `style(for:)`.
  public var styles: [ObjectIdentifier: FeatureStyle] = [:]
  /// Problems with single features that were skipped or values that were ignored, one line
  /// each (`path:line:column: …`), then a summary; empty when the whole file was read.
  public var warnings: [String] = []
  /// Every line (track segment, route, line string) with its elevations and times, in file
  /// order. Polygon rings are not lines.
  public var lines: [MeasuredLine] = []
  /// GPX `<trk>` elements and KML `<gx:Track>`/`<gx:MultiTrack>`.
  public var tracks = 0
  /// Track segments (GPX `<trkseg>`, the tracks of a KML `<gx:MultiTrack>`).
  public var segments = 0
  /// GPX `<rte>` elements, and the one route of a route CSV.
  public var routes = 0
  /// GPX `<wpt>` elements and named CSV rows (they are also annotations).
  public var waypoints = 0
  /// The box around every coordinate of the file; nil when it has none.
  public var bounds: CoordinateBounds?

  /// Content of a file with its overlays, annotations and vertex count.
  public init(
    path: String, overlays: [any Overlay], annotations: [PointAnnotation], pointCount: Int
  ) {
    self.path = path
    self.overlays = overlays
    self.annotations = annotations
    self.pointCount = pointCount
  }

  /// The style the file gives an overlay, if any.
  public func style(for overlay: any Overlay) -> FeatureStyle? {
    styles[ObjectIdentifier(overlay)]
  }

  /// The style the file gives an annotation, if any.
  public func style(for annotation: PointAnnotation) -> FeatureStyle? {
    styles[ObjectIdentifier(annotation)]
  }
}

/// Reads data files into map content, choosing the reader from the file's contents.
public enum MapContentLoader {
  /// Loads a file, or says in one line what is wrong with it.
  ///
  /// The format is found from the first bytes (`<` for GPX and KML, told apart by the root
  /// element; `{` for GeoJSON; anything else is read as route CSV), not from the file name.
  /// `progress` is called on the calling thread with the fraction done, 0…1, in steps of
  /// at least 1%.
  public static func load(path: String, progress: ((Double) -> Void)? = nil)
    throws(DataFileError) -> MapContent
  {
    let source = try ByteSource(path: path, progress: progress)
    let content = try FormatDetection.read(source)
    progress?(1)
    return content
  }

  /// Loads bytes already in memory; `path` is used in messages and in the result.
  public static func load(data: Data, path: String) throws(DataFileError) -> MapContent {
    try FormatDetection.read(ByteSource(bytes: [UInt8](data), path: path))
  }
}

extension RouteFile {
  /// The route as one polyline and its named rows as annotations.
  public func mapContent() -> MapContent {
    let name = (path as NSString).lastPathComponent
    let line = Polyline(coordinates: points.map(\.coordinate), title: name)
    let marks = waypoints.map { w -> PointAnnotation in
      var details: [String] = []
      if let e = w.elevation { details.append(String(format: "elevation %.0f m", e)) }
      if let t = w.time { details.append("time " + Formatting.time(t.timeIntervalSince1970)) }
      details.append(
        String(format: "%.5f, %.5f", w.coordinate.latitude, w.coordinate.longitude))
      let annotation = PointAnnotation(
        coordinate: w.coordinate, title: TextSanitizer.clean(w.name),
        subtitle: w.description.map(TextSanitizer.clean), detailLines: details)
      // The GeoJSON feature (`termmap pick`): the row's fields as the file had them.
      var properties: [(key: String, value: String)] = [("name", GeoJSONText.string(w.name))]
      if let d = w.description { properties.append(("desc", GeoJSONText.string(d))) }
      if let e = w.elevation { properties.append(("ele", GeoJSONText.number(e))) }
      if let t = w.time {
        properties.append(("time", GeoJSONText.string(Formatting.time(t.timeIntervalSince1970))))
      }
      annotation.geoJSONProperties = GeoJSONText.object(properties)
      return annotation
    }
    var content = MapContent(
      path: path, overlays: points.isEmpty ? [] : [line], annotations: marks,
      pointCount: points.count)
    content.format = .csv
    content.waypoints = waypoints.count
    if !points.isEmpty {
      content.routes = 1
      let hasElevation = points.contains { $0.elevation != nil }
      let hasTime = points.contains { $0.time != nil }
      content.lines = [
        MeasuredLine(
          kind: .route, coordinates: points.map(\.coordinate),
          elevations: hasElevation ? points.map { $0.elevation ?? .nan } : [],
          times: hasTime ? points.map { $0.time?.timeIntervalSince1970 ?? .nan } : [],
          title: name)
      ]
      var b = CoordinateBounds(points[0].coordinate)
      for p in points { b.include(p.coordinate) }
      content.bounds = b
    }
    return content
  }
}
