import Foundation
import MapGeometry
import TermMapKit

/// Reads GPX 1.0 and 1.1 from a streaming tokenizer positioned just after `<gpx>`.
///
/// Tracks become multi-polylines of their segments, routes polylines, waypoints annotations.
/// Elevation and time of track and route points are kept in `MapContent.lines`. Elements of
/// other namespaces and `<extensions>` are skipped; so are GPX elements termmap does not use.
/// A point with a missing or bad `lat`/`lon` is skipped with a warning; a bad `<ele>` or
/// `<time>` is ignored with a warning.
struct GPXReader {
  static let gpx10 = 1
  static let gpx11 = 2

  let xml: XMLTokenizer
  var builder: ContentBuilder
  private var text: [UInt8] = []
  private var textOffset = -1

  /// What a `<wpt>`, `<rtept>` or `<trkpt>` holds.
  private struct PointRecord {
    var coordinate: Coordinate
    var elevation = Double.nan
    var time = Double.nan
    /// From Garmin's TrackPointExtension (`<extensions>`).
    var speed = Double.nan
    var heartRate = Double.nan
    var cadence = Double.nan
    var name: String?
    var comment: String?
    var description: String?
    var source: String?
    var symbol: String?
    var type: String?
    var links: [String] = []
  }

  private enum PointKind {
    case waypoint, routePoint, trackPoint
    var singular: String {
      switch self {
      case .waypoint: "waypoint"
      case .routePoint: "route point"
      case .trackPoint: "track point"
      }
    }
  }

  init(xml: XMLTokenizer, path: String) {
    self.xml = xml
    builder = ContentBuilder(path: path)
    text.reserveCapacity(64)
  }

  private func isGPX(_ ns: Int) -> Bool { ns == 0 || ns == Self.gpx10 || ns == Self.gpx11 }

  /// Reads the children of `<gpx>` and the end of the document.
  mutating func read() throws(DataFileError) -> MapContent {
    while true {
      switch try xml.next() {
      case .startElement:
        if !isGPX(xml.namespace) {
          try xml.skipElement()
        } else if xml.localNameIs("trk") {
          try readTrack()
        } else if xml.localNameIs("rte") {
          try readRoute()
        } else if xml.localNameIs("wpt") {
          if let p = try readPoint(.waypoint) { addWaypoint(p) }
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement:
        guard try xml.next() == .endOfDocument else {
          throw DataFileError(path: builder.path, message: "unexpected content after </gpx>")
        }
        if builder.isEmpty && builder.problems.first == nil {
          builder.notes.append(
            DataFileError(
              path: builder.path, message: "the file has no tracks, routes or waypoints"
            )
            .description)
        }
        return try builder.build(format: .gpx)
      case .endOfDocument:
        return try builder.build(format: .gpx)
      }
    }
  }

  // MARK: Containers

  private mutating func readTrack() throws(DataFileError) {
    builder.tracks += 1
    var name: String?
    var segments: [MeasuredLine] = []
    while true {
      switch try xml.next() {
      case .startElement:
        if !isGPX(xml.namespace) {
          try xml.skipElement()
        } else if xml.localNameIs("trkseg") {
          builder.segments += 1
          segments.append(try readSegment())
        } else if xml.localNameIs("name") {
          name = try readString()
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument:
        for k in segments.indices { segments[k].title = name }
        builder.addTrack(title: name, segments: segments)
        return
      }
    }
  }

  private mutating func readSegment() throws(DataFileError) -> MeasuredLine {
    var line = Series()
    while true {
      switch try xml.next() {
      case .startElement:
        if isGPX(xml.namespace) && xml.localNameIs("trkpt") {
          if let p = try readPoint(.trackPoint) { line.append(p) }
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument:
        return line.measured(kind: .trackSegment)
      }
    }
  }

  private mutating func readRoute() throws(DataFileError) {
    builder.routes += 1
    var name: String?
    var line = Series()
    while true {
      switch try xml.next() {
      case .startElement:
        if !isGPX(xml.namespace) {
          try xml.skipElement()
        } else if xml.localNameIs("rtept") {
          if let p = try readPoint(.routePoint) { line.append(p) }
        } else if xml.localNameIs("name") {
          name = try readString()
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument:
        var measured = line.measured(kind: .route)
        measured.title = name
        builder.addLine(measured, title: name)
        return
      }
    }
  }

  /// Coordinates, elevations, times and sensor values of one line as they are read.
  private struct Series {
    var series = TrackSeries()

    mutating func append(_ p: PointRecord) {
      series.append(
        p.coordinate, elevation: p.elevation, time: p.time, speed: p.speed,
        heartRate: p.heartRate, cadence: p.cadence)
    }

    func measured(kind: MeasuredLine.Kind) -> MeasuredLine { series.measured(kind: kind) }
  }

  // MARK: Points

  private mutating func addWaypoint(_ p: PointRecord) {
    var details: [String] = []
    let description = p.description ?? p.comment
    if let c = p.comment, c != description { details.append("comment: \(c)") }
    if let s = p.symbol { details.append("symbol: \(s)") }
    if let t = p.type { details.append("type: \(t)") }
    if !p.elevation.isNaN { details.append("elevation \(Formatting.metres(p.elevation))") }
    if !p.time.isNaN { details.append("time \(Formatting.time(p.time))") }
    for l in p.links { details.append("link: \(l)") }
    if let s = p.source { details.append("source: \(s)") }
    details.append(Formatting.coordinate(p.coordinate))
    let annotation = PointAnnotation(
      coordinate: p.coordinate, title: p.name, subtitle: description, detailLines: details)
    // The GeoJSON feature (`termmap pick`): the waypoint's fields under GPX's own names.
    var properties: [(key: String, value: String)] = []
    func add(_ key: String, _ value: String?) {
      if let value { properties.append((key, GeoJSONText.string(value))) }
    }
    add("name", p.name)
    add("desc", p.description)
    add("cmt", p.comment)
    add("sym", p.symbol)
    add("type", p.type)
    if !p.elevation.isNaN { properties.append(("ele", GeoJSONText.number(p.elevation))) }
    if !p.time.isNaN { add("time", Formatting.time(p.time)) }
    if !p.links.isEmpty {
      properties.append(
        ("links", "[" + p.links.map(GeoJSONText.string).joined(separator: ",") + "]"))
    }
    add("src", p.source)
    annotation.geoJSONProperties = GeoJSONText.object(properties)
    builder.addPoint(annotation, waypoint: true)
  }

  /// Reads a point element from its start tag to its end; nil (with a warning) when its
  /// position is missing or bad.
  private mutating func readPoint(_ kind: PointKind) throws(DataFileError) -> PointRecord? {
    var problem: DataFileError?
    let tag = xml.tokenOffset
    let latitude = position("lat", "latitude", limit: 90, tag: tag, problem: &problem)
    let longitude = position("lon", "longitude", limit: 180, tag: tag, problem: &problem)
    var record = PointRecord(coordinate: Coordinate(latitude: latitude, longitude: longitude))
    let full = kind != .trackPoint
    while true {
      switch try xml.next() {
      case .startElement:
        if !isGPX(xml.namespace) {
          try xml.skipElement()
        } else if xml.localNameIs("ele") {
          try readText()
          if let v = ValueParser.number(text), v.isFinite {
            record.elevation = v
          } else if !isBlank(text) {
            ignore("elevation", "a number")
          }
        } else if xml.localNameIs("time") {
          try readText()
          if let t = ValueParser.time(text) {
            record.time = t
          } else if !isBlank(text) {
            ignore("time", "an ISO 8601 time such as 2024-05-01T10:00:00Z")
          }
        } else if xml.localNameIs("extensions") {
          try readExtensions(&record)
        } else if !full {
          try xml.skipElement()
        } else if xml.localNameIs("name") {
          record.name = try readString()
        } else if xml.localNameIs("desc") {
          record.description = try readString()
        } else if xml.localNameIs("cmt") {
          record.comment = try readString()
        } else if xml.localNameIs("sym") {
          record.symbol = try readString()
        } else if xml.localNameIs("type") {
          record.type = try readString()
        } else if xml.localNameIs("src") {
          record.source = try readString()
        } else if xml.localNameIs("link") {
          if let l = try readLink() { record.links.append(l) }
        } else if xml.localNameIs("url") {
          if let u = try readString() { record.links.append(u) }
        } else if xml.localNameIs("urlname") {
          if let n = try readString() {
            if let last = record.links.popLast() {
              record.links.append("\(last) (\(n))")
            } else {
              record.links.append(n)
            }
          }
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument:
        if let problem {
          let plural = kind == .waypoint ? "waypoints" : kind.singular + "s"
          builder.problems.skip(kind.singular, plural, problem)
          return nil
        }
        return record
      }
    }
  }

  /// Heart rate, cadence and speed from Garmin's TrackPointExtension (v1 or v2) inside
  /// `<extensions>`; other extensions are skipped, and so is a value that is not a number.
  private mutating func readExtensions(_ record: inout PointRecord) throws(DataFileError) {
    while true {
      switch try xml.next() {
      case .startElement:
        guard xml.namespace == TCXReader.trackPointExtension else {
          try xml.skipElement()
          continue
        }
        if xml.localNameIs("TrackPointExtension") {
          try readExtensions(&record)
        } else if xml.localNameIs("hr") || xml.localNameIs("cad") || xml.localNameIs("speed") {
          let which = xml.localNameIs("hr") ? 0 : xml.localNameIs("cad") ? 1 : 2
          try readText()
          if let v = ValueParser.number(text), v.isFinite, v >= 0 {
            switch which {
            case 0: record.heartRate = v
            case 1: record.cadence = v
            default: record.speed = v
            }
          }
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument: return
      }
    }
  }

  /// A `lat` or `lon` attribute of the current start tag; records the first problem.
  private func position(
    _ attribute: StaticString, _ what: String, limit: Double, tag: Int,
    problem: inout DataFileError?
  ) -> Double {
    guard problem == nil else { return 0 }
    guard let k = xml.attribute(attribute) else {
      problem = xml.error(
        at: tag, "<\(xml.qualifiedName)> has no \(attribute) attribute (\(what) is required)")
      return 0
    }
    let a = xml.attributes[k]
    let value: Double?
    if a.needsDecoding {
      value = ValueParser.number(Array(xml.attributeString(k).utf8))
    } else {
      value = ValueParser.number(xml.buf, a.valueStart, a.valueEnd)
    }
    if let v = value, v.isFinite, abs(v) <= limit { return v }
    if let message = ValueParser.coordinateProblem(
      value, text: xml.attributeString(k), what, limit: limit)
    {
      problem = xml.error(at: xml.attributeOffset(k), message)
    }
    return 0
  }

  private mutating func ignore(_ what: String, _ expected: String) {
    guard builder.problems.wantsDetail else {
      builder.problems.ignore(DataFileError(path: builder.path, message: ""))
      return
    }
    let shown = Formatting.shown(String(decoding: text, as: UTF8.self))
    builder.problems.ignore(
      xml.error(
        at: textOffset, "ignored the \(what) \"\(shown)\" (expected \(expected))"))
  }

  private func isBlank(_ bytes: [UInt8]) -> Bool {
    bytes.allSatisfy(ValueParser.isSpace)
  }

  // MARK: Text

  /// Reads the text of the current element into `text` (nested elements are skipped).
  private mutating func readText() throws(DataFileError) {
    text.removeAll(keepingCapacity: true)
    textOffset = xml.tokenOffset
    var first = true
    while true {
      switch try xml.next() {
      case .text:
        if first {
          textOffset = xml.textOffset
          first = false
        }
        xml.appendText(to: &text)
      case .startElement: try xml.skipElement()
      case .endElement, .endOfDocument: return
      }
    }
  }

  /// The sanitized text of the current element; nil when it is empty.
  private mutating func readString() throws(DataFileError) -> String? {
    try readText()
    let s = TextSanitizer.clean(String(decoding: text, as: UTF8.self))
    return s.isEmpty ? nil : s
  }

  /// A GPX 1.1 `<link href>` with its optional `<text>`.
  private mutating func readLink() throws(DataFileError) -> String? {
    let href = xml.attribute("href").map { TextSanitizer.clean(xml.attributeString($0)) }
    var label: String?
    while true {
      switch try xml.next() {
      case .startElement:
        if isGPX(xml.namespace) && xml.localNameIs("text") {
          label = try readString()
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument:
        switch (href.flatMap { $0.isEmpty ? nil : $0 }, label) {
        case (let h?, let l?): return "\(h) (\(l))"
        case (let h?, nil): return h
        case (nil, let l?): return l
        case (nil, nil): return nil
        }
      }
    }
  }
}
