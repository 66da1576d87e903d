import Foundation
import MapGeometry
import TermMapKit

/// The kinds of data file termmap reads.
public enum DataFormat: String, Sendable, CaseIterable {
  /// A route CSV (or any file that is not XML or JSON).
  case csv
  /// GPX 1.0 or 1.1.
  case gpx
  /// GeoJSON (RFC 7946).
  case geojson
  /// KML 2.2.
  case kml
  /// Garmin Training Center XML (TrackReaders: TCXReader).
  case tcx
  /// Garmin's binary Flexible and Interoperable Data Transfer format (FITReader).
  case fit
  /// The flight recorder format of the FAI's IGC (IGCReader).
  case igc

  /// The name people use for the format.
  public var displayName: String {
    switch self {
    case .csv: "CSV"
    case .gpx: "GPX"
    case .geojson: "GeoJSON"
    case .kml: "KML"
    case .tcx: "TCX"
    case .fit: "FIT"
    case .igc: "IGC"
    }
  }
}

/// One line of a file with the values measured at its vertices, kept for statistics and plots.
///
/// `elevations`, `times` and the sensor channels (`speeds`, `heartRates`, `cadences`) are
/// either empty (the line has none) or as long as `coordinates`, with NaN where a vertex lacks
/// a value. Times are seconds since 1970-01-01T00:00:00Z; speeds metres per second as the
/// device recorded them (TCX, FIT, GPX TrackPointExtension), heart rates beats and cadences
/// revolutions (or steps) per minute.
public struct MeasuredLine: Sendable {
  /// What kind of line it is.
  public enum Kind: String, Sendable, Hashable {
    /// A segment of a track (GPX `<trkseg>`, KML `<gx:Track>`).
    case trackSegment
    /// A GPX route, or the rows of a route CSV.
    case route
    /// Any other line (GeoJSON LineString, KML LineString or LinearRing).
    case line
  }

  /// What kind of line it is.
  public var kind: Kind
  /// The line's vertices.
  public var coordinates: [Coordinate]
  /// Elevations in metres, one per vertex (NaN where unknown), or empty.
  public var elevations: [Double]
  /// Times in seconds since 1970, one per vertex (NaN where unknown), or empty.
  public var times: [Double]
  /// Metres per second as recorded (empty when the file has none).
  public var speeds: [Double] = []
  /// Beats per minute (empty when the file has none).
  public var heartRates: [Double] = []
  /// Revolutions (or steps) per minute (empty when the file has none).
  public var cadences: [Double] = []
  /// The line's name, if the file gives one.
  public var title: String?

  /// A line with its vertices and, optionally, elevations and times.
  public init(
    kind: Kind, coordinates: [Coordinate], elevations: [Double] = [], times: [Double] = [],
    title: String? = nil
  ) {
    self.kind = kind
    self.coordinates = coordinates
    self.elevations = elevations
    self.times = times
    self.title = title
  }

  /// The geodesic length in metres along the line (WGS84).
  public var length: Double { Geodesic.length(of: coordinates) }
}

/// A box in degrees: west and east longitudes, south and north latitudes.
public struct CoordinateBounds: Sendable, Hashable {
  /// The westernmost longitude, in degrees.
  public var west: Double
  /// The southernmost latitude, in degrees.
  public var south: Double
  /// The easternmost longitude, in degrees.
  public var east: Double
  /// The northernmost latitude, in degrees.
  public var north: Double

  /// A box from its edges, in degrees.
  public init(west: Double, south: Double, east: Double, north: Double) {
    self.west = west
    self.south = south
    self.east = east
    self.north = north
  }

  init(_ c: Coordinate) {
    self.init(west: c.longitude, south: c.latitude, east: c.longitude, north: c.latitude)
  }

  mutating func include(_ c: Coordinate) {
    if c.longitude < west { west = c.longitude }
    if c.longitude > east { east = c.longitude }
    if c.latitude < south { south = c.latitude }
    if c.latitude > north { north = c.latitude }
  }

  mutating func include(_ b: CoordinateBounds) {
    west = min(west, b.west)
    east = max(east, b.east)
    south = min(south, b.south)
    north = max(north, b.north)
  }
}

/// Problems found in single features of a file that was read all the same.
struct Problems {
  let path: String
  /// The first problems, as they were found (at most `shownLimit` are kept located).
  private(set) var shown: [DataFileError] = []
  private(set) var first: DataFileError?
  private(set) var total = 0
  /// Skipped items by kind, in the order first seen.
  private var skippedKinds: [(singular: String, plural: String, count: Int)] = []
  static let shownLimit = 10

  init(path: String) { self.path = path }

  /// Whether a further problem would still be shown (so worth locating).
  var wantsDetail: Bool { shown.count < Self.shownLimit || first == nil }

  var skippedCount: Int { skippedKinds.reduce(0) { $0 + $1.count } }

  /// Records that an item was left out because of `error`.
  mutating func skip(_ singular: String, _ plural: String, _ error: DataFileError) {
    total += 1
    if first == nil { first = error }
    if shown.count < Self.shownLimit {
      var e = error
      e.message = "skipped \(article(singular)) \(singular): \(error.message)"
      shown.append(e)
    }
    if let k = skippedKinds.firstIndex(where: { $0.singular == singular }) {
      skippedKinds[k].count += 1
    } else {
      skippedKinds.append((singular, plural, 1))
    }
  }

  /// Records that a value was ignored (its item was kept).
  mutating func ignore(_ error: DataFileError) {
    total += 1
    if shown.count < Self.shownLimit { shown.append(error) }
  }

  private func article(_ word: String) -> String {
    guard let f = word.first else { return "a" }
    return "aeiou".contains(f) ? "an" : "a"
  }

  /// The warning lines: the first problems, how many more, and what was skipped.
  var warnings: [String] {
    var out = shown.map(\.description)
    if total > shown.count {
      out.append(
        DataFileError(path: path, message: "\(total - shown.count) more problems not shown")
          .description)
    }
    if !skippedKinds.isEmpty {
      let parts = skippedKinds.map { "\($0.count) \($0.count == 1 ? $0.singular : $0.plural)" }
      let list: String
      if parts.count == 1 {
        list = parts[0]
      } else {
        list = parts.dropLast().joined(separator: ", ") + " and " + parts.last!
      }
      out.append(
        DataFileError(path: path, message: "skipped \(list) that could not be read").description)
    }
    return out
  }
}

/// Collects what readers find and makes the map content from it.
struct ContentBuilder {
  let path: String
  private(set) var lineOverlays: [any Overlay] = []
  private var polygonGroups:
    [(style: FeatureStyle?, polygons: [Polygon], titles: [String?], single: Bool)] = []
  private(set) var annotations: [PointAnnotation] = []
  private var styles: [ObjectIdentifier: FeatureStyle] = [:]
  private(set) var lines: [MeasuredLine] = []
  var tracks = 0
  var segments = 0
  var routes = 0
  var waypoints = 0
  private(set) var pointCount = 0
  private(set) var bounds: CoordinateBounds?
  var problems: Problems
  /// Notes that are not problems (such as an empty file).
  var notes: [String] = []

  init(path: String) {
    self.path = path
    problems = Problems(path: path)
  }

  var isEmpty: Bool { lineOverlays.isEmpty && polygonGroups.isEmpty && annotations.isEmpty }

  private mutating func include(_ coordinates: [Coordinate]) {
    guard let first = coordinates.first else { return }
    var b = CoordinateBounds(first)
    for c in coordinates { b.include(c) }
    if bounds == nil { bounds = b } else { bounds!.include(b) }
  }

  private mutating func setStyle(_ style: FeatureStyle?, for object: AnyObject) {
    if let style, !style.isEmpty { styles[ObjectIdentifier(object)] = style }
  }

  private mutating func polyline(for line: MeasuredLine, title: String?, subtitle: String? = nil)
    -> Polyline
  {
    include(line.coordinates)
    pointCount += line.coordinates.count
    lines.append(line)
    return Polyline(coordinates: line.coordinates, title: title, subtitle: subtitle)
  }

  /// A track: each non-empty segment a polyline, together one multi-polyline.
  mutating func addTrack(title: String?, segments parts: [MeasuredLine], style: FeatureStyle? = nil)
  {
    let drawn = parts.filter { !$0.coordinates.isEmpty }
    guard !drawn.isEmpty else { return }
    let overlay = MultiPolyline(drawn.map { polyline(for: $0, title: title) }, title: title)
    setStyle(style, for: overlay)
    lineOverlays.append(overlay)
  }

  /// One polyline.
  mutating func addLine(
    _ line: MeasuredLine, title: String?, subtitle: String? = nil, style: FeatureStyle? = nil
  ) {
    guard !line.coordinates.isEmpty else { return }
    let overlay = polyline(for: line, title: title, subtitle: subtitle)
    setStyle(style, for: overlay)
    lineOverlays.append(overlay)
  }

  /// Several lines of one feature as one multi-polyline.
  mutating func addMultiLine(_ parts: [MeasuredLine], title: String?, style: FeatureStyle? = nil) {
    let drawn = parts.filter { !$0.coordinates.isEmpty }
    guard !drawn.isEmpty else { return }
    if drawn.count == 1 {
      addLine(drawn[0], title: title, style: style)
      return
    }
    let overlay = MultiPolyline(drawn.map { polyline(for: $0, title: title) }, title: title)
    setStyle(style, for: overlay)
    lineOverlays.append(overlay)
  }

  /// A polygon with holes; polygons of one style end up in one overlay.
  mutating func addPolygon(
    outer: [Coordinate], holes: [[Coordinate]], title: String?, style: FeatureStyle?,
    partOfMulti: Bool = false
  ) {
    include(outer)
    pointCount += outer.count + holes.reduce(0) { $0 + $1.count }
    let polygon = Polygon(
      coordinates: outer, interiorPolygons: holes.map { Polygon(coordinates: $0) }, title: title)
    let key = (style?.isEmpty ?? true) ? nil : style
    if let k = polygonGroups.firstIndex(where: { $0.style == key }) {
      polygonGroups[k].polygons.append(polygon)
      polygonGroups[k].titles.append(title)
      polygonGroups[k].single = false
    } else {
      polygonGroups.append((key, [polygon], [title], !partOfMulti))
    }
  }

  /// A marker.
  mutating func addPoint(
    _ annotation: PointAnnotation, style: FeatureStyle? = nil, waypoint: Bool = false
  ) {
    include([annotation.coordinate])
    if waypoint { waypoints += 1 }
    setStyle(style, for: annotation)
    annotations.append(annotation)
  }

  /// The map content, or the first problem when nothing at all could be read.
  mutating func build(format: DataFormat) throws(DataFileError) -> MapContent {
    if isEmpty, let first = problems.first { throw first }
    var overlays: [any Overlay] = []
    for group in polygonGroups {
      let overlay: any Overlay
      if group.single && group.polygons.count == 1 {
        overlay = group.polygons[0]
      } else {
        let titles = Set(group.titles.compactMap { $0 })
        overlay = MultiPolygon(group.polygons, title: titles.count == 1 ? titles.first : nil)
      }
      if let style = group.style { styles[ObjectIdentifier(overlay)] = style }
      overlays.append(overlay)
    }
    overlays.append(contentsOf: lineOverlays)
    var content = MapContent(
      path: path, overlays: overlays, annotations: annotations, pointCount: pointCount)
    content.format = format
    content.styles = styles
    content.lines = lines
    content.tracks = tracks
    content.segments = segments
    content.routes = routes
    content.waypoints = waypoints
    content.bounds = bounds
    content.warnings = problems.warnings + notes
    return content
  }
}

/// Text for callouts.
enum Formatting {
  /// An elevation such as "733 m".
  static func metres(_ value: Double) -> String {
    String(format: "%.0f m", value)
  }

  /// A time as ISO 8601 in UTC, with fractions of a second only when there are some.
  static func time(_ seconds: Double) -> String {
    let whole = seconds.rounded(.down)
    var fraction = seconds - whole
    var total = Int(whole)
    var millis = Int((fraction * 1000).rounded())
    if millis == 1000 {
      total += 1
      millis = 0
      fraction = 0
    }
    let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
    let secondOfDay = total - days * 86_400
    let (y, m, d) = civil(days)
    var s = String(
      format: "%04d-%02d-%02dT%02d:%02d:%02d", y, m, d, secondOfDay / 3600, secondOfDay / 60 % 60,
      secondOfDay % 60)
    if millis != 0 { s += String(format: ".%03d", millis) }
    return s + "Z"
  }

  /// The civil date of a day count since 1970-01-01 (H. Hinnant's algorithm).
  static func civil(_ z0: Int) -> (Int, Int, Int) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let y = yoe + era * 400
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (m <= 2 ? y + 1 : y, m, d)
  }

  /// A coordinate as "lat, lon" with five decimals.
  static func coordinate(_ c: Coordinate) -> String {
    String(format: "%.5f, %.5f", c.latitude, c.longitude)
  }

  /// File text cut to `limit` characters after sanitizing.
  static func shown(_ s: String, limit: Int = 40) -> String {
    let clean = TextSanitizer.clean(s)
    if clean.unicodeScalars.count <= limit { return clean }
    var scalars = String.UnicodeScalarView()
    scalars.append(contentsOf: clean.unicodeScalars.prefix(limit))
    return String(scalars) + "…"
  }
}

/// Numbers and coordinates from bytes, with the same messages as the CSV reader.
enum ValueParser {
  /// The number in `[start, end)` after trimming XML white space; nil when it is not one.
  static func number(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
    var s = start
    var e = end
    while s < e && isSpace(p[s]) { s += 1 }
    while e > s && isSpace(p[e - 1]) { e -= 1 }
    return DecimalParser.parse(p, s, e, decimalComma: false)
  }

  static func number(_ bytes: [UInt8]) -> Double? {
    bytes.withUnsafeBufferPointer { b in
      guard let base = b.baseAddress else { return nil }
      return number(base, 0, b.count)
    }
  }

  @inline(__always) static func isSpace(_ c: UInt8) -> Bool {
    c == 0x20 || c == 0x0A || c == 0x09 || c == 0x0D
  }

  /// Checks a parsed value: a number, finite and within ±limit; nil when it is good.
  static func coordinateProblem(
    _ value: Double?, text: @autoclosure () -> String, _ what: String, limit: Double
  )
    -> String?
  {
    guard let value else {
      let t = text().trimmingCharacters(in: .whitespacesAndNewlines)
      if t.isEmpty { return "expected a number for \(what), found nothing" }
      return "expected a number for \(what), found \"\(Formatting.shown(t))\""
    }
    if !value.isFinite {
      return "\(what) must be a finite number, found \"\(Formatting.shown(text()))\""
    }
    if abs(value) > limit {
      let bound = Int(limit)
      return
        "\(what) \(Formatting.shown(text().trimmingCharacters(in: .whitespacesAndNewlines))) is outside -\(bound)...\(bound)"
    }
    return nil
  }

  /// A time in `[start, end)` after trimming, as seconds since 1970; nil when it is not one.
  static func time(_ p: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
    var s = start
    var e = end
    while s < e && isSpace(p[s]) { s += 1 }
    while e > s && isSpace(p[e - 1]) { e -= 1 }
    return ISO8601Time.parse(p, s, e)?.timeIntervalSince1970
  }

  static func time(_ bytes: [UInt8]) -> Double? {
    bytes.withUnsafeBufferPointer { b in
      guard let base = b.baseAddress else { return nil }
      return time(base, 0, b.count)
    }
  }
}
