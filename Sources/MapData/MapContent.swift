import Foundation
import MapGeometry
import TermMapKit

/// What one data file puts on the map: overlays, annotations and a few counts.
public struct MapContent {
  public var path: String
  public var overlays: [any Overlay]
  public var annotations: [PointAnnotation]
  /// Vertices of all lines and rings.
  public var pointCount: Int

  public init(
    path: String, overlays: [any Overlay], annotations: [PointAnnotation], pointCount: Int
  ) {
    self.path = path
    self.overlays = overlays
    self.annotations = annotations
    self.pointCount = pointCount
  }
}

/// Reads data files into map content, choosing the reader from the file's contents.
public enum MapContentLoader {
  /// Loads a file, or says in one line what is wrong with it.
  public static func load(path: String) throws(DataFileError) -> MapContent {
    let route = try RouteCSV.read(path: path)
    return route.mapContent()
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
      if let t = w.time { details.append("time " + ISO8601DateFormatter().string(from: t)) }
      details.append(
        String(format: "%.5f, %.5f", w.coordinate.latitude, w.coordinate.longitude))
      return PointAnnotation(
        coordinate: w.coordinate, title: TextSanitizer.clean(w.name),
        subtitle: w.description.map(TextSanitizer.clean), detailLines: details)
    }
    return MapContent(
      path: path, overlays: points.isEmpty ? [] : [line], annotations: marks,
      pointCount: points.count)
  }
}
