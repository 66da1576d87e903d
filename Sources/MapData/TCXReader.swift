import Foundation
import MapGeometry
import TermMapKit

/// Reads Garmin Training Center XML (TCX, schema TrainingCenterDatabase v2) from a streaming
/// tokenizer positioned just after `<TrainingCenterDatabase>`.
///
/// - Each `<Activity>` becomes a track named by its sport and `<Id>` (its start time); each
///   `<Track>` inside its laps is a segment. Each `<Course>` becomes a track named by its
///   `<Name>`, its `<CoursePoint>`s waypoints.
/// - A `<Trackpoint>` gives position (`<Position>`), time, `<AltitudeMeters>`,
///   `<HeartRateBpm><Value>`, `<Cadence>` and, from Garmin's ActivityExtension `<TPX>`,
///   `<Speed>` (m/s) and `<RunCadence>`. Track points without `<Position>` (the schema allows
///   them: pauses, indoor sessions) are not drawn and not counted.
/// - A bad latitude or longitude skips its point with a located warning; a bad altitude, time,
///   heart rate, cadence or speed is ignored with a located warning.
/// - `<Workouts>`, `<Folders>`, `<Author>` and elements of other namespaces are skipped.
struct TCXReader {
  static let tcx = 5
  static let activityExtension = 6
  static let trackPointExtension = 7

  let xml: XMLTokenizer
  var builder: ContentBuilder
  private var text: [UInt8] = []
  private var textOffset = -1

  init(xml: XMLTokenizer, path: String) {
    self.xml = xml
    builder = ContentBuilder(path: path)
    text.reserveCapacity(64)
  }

  private func isTCX(_ ns: Int) -> Bool { ns == 0 || ns == Self.tcx }
  private func isTCXElement(_ name: StaticString) -> Bool {
    isTCX(xml.namespace) && xml.localNameIs(name)
  }

  mutating func read() throws(DataFileError) -> MapContent {
    while true {
      switch try xml.next() {
      case .startElement:
        if isTCXElement("Activities") {
          try readList("Activity") { (r: inout TCXReader) throws(DataFileError) in
            try r.readActivity()
          }
        } else if isTCXElement("Courses") {
          try readList("Course") { (r: inout TCXReader) throws(DataFileError) in
            try r.readCourse()
          }
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement:
        guard try xml.next() == .endOfDocument else {
          throw DataFileError(
            path: builder.path, message: "unexpected content after </TrainingCenterDatabase>")
        }
        return try finish()
      case .endOfDocument:
        return try finish()
      }
    }
  }

  private mutating func finish() throws(DataFileError) -> MapContent {
    if builder.isEmpty && builder.problems.first == nil {
      builder.notes.append(
        DataFileError(
          path: builder.path,
          message: "the file has no activities or courses with positions"
        )
        .description)
    }
    return try builder.build(format: .tcx)
  }

  /// Reads the children named `child` of a container with `body`, skipping the rest.
  private mutating func readList(
    _ child: StaticString, _ body: (inout TCXReader) throws(DataFileError) -> Void
  ) throws(DataFileError) {
    while true {
      switch try xml.next() {
      case .startElement:
        if isTCXElement(child) { try body(&self) } else { try xml.skipElement() }
      case .text: continue
      case .endElement, .endOfDocument: return
      }
    }
  }

  // MARK: Activities and courses

  private mutating func readActivity() throws(DataFileError) {
    let sport = xml.attribute("Sport").map { TextSanitizer.clean(xml.attributeString($0)) }
    var id: String?
    var segments: [MeasuredLine] = []
    while true {
      switch try xml.next() {
      case .startElement:
        if isTCXElement("Id") {
          id = try readString()
        } else if isTCXElement("Lap") {
          try readList("Track") { (r: inout TCXReader) throws(DataFileError) in
            segments.append(try r.readTrack())
          }
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument:
        let parts = [sport.flatMap { $0.isEmpty ? nil : $0 }, id].compactMap { $0 }
        let title = parts.isEmpty ? nil : parts.joined(separator: " · ")
        add(title: title, segments: segments)
        return
      }
    }
  }

  private mutating func readCourse() throws(DataFileError) {
    var name: String?
    var segments: [MeasuredLine] = []
    var points: [PointAnnotation] = []
    while true {
      switch try xml.next() {
      case .startElement:
        if isTCXElement("Name") {
          name = try readString()
        } else if isTCXElement("Track") {
          segments.append(try readTrack())
        } else if isTCXElement("CoursePoint") {
          if let p = try readCoursePoint() { points.append(p) }
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument:
        add(title: name, segments: segments)
        for p in points { builder.addPoint(p, waypoint: true) }
        return
      }
    }
  }

  private mutating func add(title: String?, segments: [MeasuredLine]) {
    builder.tracks += 1
    builder.segments += segments.count
    var titled = segments
    for k in titled.indices { titled[k].title = title }
    builder.addTrack(title: title, segments: titled)
  }

  private mutating func readTrack() throws(DataFileError) -> MeasuredLine {
    var series = TrackSeries()
    while true {
      switch try xml.next() {
      case .startElement:
        if isTCXElement("Trackpoint") {
          try readTrackpoint(into: &series)
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument:
        return series.measured(kind: .trackSegment)
      }
    }
  }

  // MARK: Points

  private struct Point {
    var latitude: Double?
    var longitude: Double?
    var problem: DataFileError?
    var elevation = Double.nan
    var time = Double.nan
    var speed = Double.nan
    var heartRate = Double.nan
    var cadence = Double.nan
    var name: String?
    var type: String?
    var notes: String?
  }

  private mutating func readTrackpoint(into series: inout TrackSeries) throws(DataFileError) {
    var p = Point()
    try readPointChildren(&p, full: false)
    guard p.problem == nil else {
      builder.problems.skip("track point", "track points", p.problem!)
      return
    }
    guard let lat = p.latitude, let lon = p.longitude else { return }
    series.append(
      Coordinate(latitude: lat, longitude: lon), elevation: p.elevation, time: p.time,
      speed: p.speed, heartRate: p.heartRate, cadence: p.cadence)
  }

  private mutating func readCoursePoint() throws(DataFileError) -> PointAnnotation? {
    let tag = xml.tokenOffset
    var p = Point()
    try readPointChildren(&p, full: true)
    if let problem = p.problem {
      builder.problems.skip("course point", "course points", problem)
      return nil
    }
    guard let lat = p.latitude, let lon = p.longitude else {
      builder.problems.skip(
        "course point", "course points",
        xml.error(at: tag, "<CoursePoint> has no <Position> (it is required)"))
      return nil
    }
    let c = Coordinate(latitude: lat, longitude: lon)
    var details: [String] = []
    if let t = p.type { details.append("type: \(t)") }
    if !p.elevation.isNaN { details.append("elevation \(Formatting.metres(p.elevation))") }
    if !p.time.isNaN { details.append("time \(Formatting.time(p.time))") }
    details.append(Formatting.coordinate(c))
    let annotation = PointAnnotation(
      coordinate: c, title: p.name, subtitle: p.notes, detailLines: details)
    // The GeoJSON feature (`termmap pick`): the course point's fields under TCX's names.
    var properties: [(key: String, value: String)] = []
    if let n = p.name { properties.append(("name", GeoJSONText.string(n))) }
    if let n = p.notes { properties.append(("notes", GeoJSONText.string(n))) }
    if let t = p.type { properties.append(("type", GeoJSONText.string(t))) }
    if !p.elevation.isNaN { properties.append(("ele", GeoJSONText.number(p.elevation))) }
    if !p.time.isNaN {
      properties.append(("time", GeoJSONText.string(Formatting.time(p.time))))
    }
    annotation.geoJSONProperties = GeoJSONText.object(properties)
    return annotation
  }

  private mutating func readPointChildren(_ p: inout Point, full: Bool) throws(DataFileError) {
    while true {
      switch try xml.next() {
      case .startElement:
        let ns = xml.namespace
        if ns == Self.activityExtension || ns == Self.trackPointExtension {
          try readExtension(&p)
        } else if !isTCX(ns) {
          try xml.skipElement()
        } else if xml.localNameIs("Position") {
          try readPosition(&p)
        } else if xml.localNameIs("Time") {
          try readText()
          if let t = ValueParser.time(text) {
            p.time = t
          } else if !isBlank() {
            ignore("time", "an ISO 8601 time such as 2024-05-01T10:00:00Z")
          }
        } else if xml.localNameIs("AltitudeMeters") {
          p.elevation = try number("altitude")
        } else if xml.localNameIs("HeartRateBpm") {
          try readValue(&p)
        } else if xml.localNameIs("Cadence") {
          p.cadence = try number("cadence", limit: 0...255)
        } else if xml.localNameIs("Extensions") {
          try readPointChildren(&p, full: full)
        } else if full && xml.localNameIs("Name") {
          p.name = try readString()
        } else if full && xml.localNameIs("PointType") {
          p.type = try readString()
        } else if full && xml.localNameIs("Notes") {
          p.notes = try readString()
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument: return
      }
    }
  }

  /// `<TPX>` of ActivityExtension (Speed, RunCadence) or a TrackPointExtension.
  private mutating func readExtension(_ p: inout Point) throws(DataFileError) {
    if xml.localNameIs("Speed") || xml.localNameIs("speed") {
      p.speed = try number("speed", limit: 0...1e6)
    } else if xml.localNameIs("RunCadence") || xml.localNameIs("cad") {
      p.cadence = try number("cadence", limit: 0...255)
    } else if xml.localNameIs("hr") {
      p.heartRate = try number("heart rate", limit: 0...255)
    } else if xml.localNameIs("TPX") || xml.localNameIs("TrackPointExtension") {
      while true {
        switch try xml.next() {
        case .startElement:
          let ns = xml.namespace
          if ns == Self.activityExtension || ns == Self.trackPointExtension {
            try readExtension(&p)
          } else {
            try xml.skipElement()
          }
        case .text: continue
        case .endElement, .endOfDocument: return
        }
      }
    } else {
      try xml.skipElement()
    }
  }

  private mutating func readValue(_ p: inout Point) throws(DataFileError) {
    while true {
      switch try xml.next() {
      case .startElement:
        if isTCXElement("Value") {
          p.heartRate = try number("heart rate", limit: 0...255)
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument: return
      }
    }
  }

  private mutating func readPosition(_ p: inout Point) throws(DataFileError) {
    let tag = xml.tokenOffset
    while true {
      switch try xml.next() {
      case .startElement:
        if isTCXElement("LatitudeDegrees") {
          p.latitude = try coordinate("latitude", limit: 90, &p)
        } else if isTCXElement("LongitudeDegrees") {
          p.longitude = try coordinate("longitude", limit: 180, &p)
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument:
        if p.problem == nil && (p.latitude == nil || p.longitude == nil) {
          let missing = p.latitude == nil ? "LatitudeDegrees" : "LongitudeDegrees"
          p.problem = xml.error(at: tag, "<Position> has no <\(missing)> (it is required)")
        }
        return
      }
    }
  }

  private mutating func coordinate(_ what: String, limit: Double, _ p: inout Point)
    throws(DataFileError) -> Double?
  {
    try readText()
    if let v = ValueParser.number(text), v.isFinite, abs(v) <= limit { return v }
    if p.problem == nil,
      let message = ValueParser.coordinateProblem(
        ValueParser.number(text), text: String(decoding: text, as: UTF8.self), what, limit: limit)
    {
      p.problem = xml.error(at: textOffset, message)
    }
    return nil
  }

  /// A number element's value; NaN (with a warning unless it is blank) when it is not one.
  private mutating func number(
    _ what: String, limit: ClosedRange<Double> = -1e6...1e6
  ) throws(DataFileError) -> Double {
    try readText()
    if let v = ValueParser.number(text), v.isFinite, limit.contains(v) { return v }
    if !isBlank() {
      ignore(
        what,
        "a number from \(InfoFormat.plain(limit.lowerBound)) to \(InfoFormat.plain(limit.upperBound))"
      )
    }
    return .nan
  }

  private mutating func ignore(_ what: String, _ expected: String) {
    guard builder.problems.wantsDetail else {
      builder.problems.ignore(DataFileError(path: builder.path, message: ""))
      return
    }
    let shown = Formatting.shown(String(decoding: text, as: UTF8.self))
    builder.problems.ignore(
      xml.error(at: textOffset, "ignored the \(what) \"\(shown)\" (expected \(expected))"))
  }

  private func isBlank() -> Bool { text.allSatisfy(ValueParser.isSpace) }

  // MARK: Text

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

  private mutating func readString() throws(DataFileError) -> String? {
    try readText()
    let s = TextSanitizer.clean(String(decoding: text, as: UTF8.self))
    return s.isEmpty ? nil : s
  }
}

/// Numbers in messages: "255", "0.5", "1000000".
enum InfoFormat {
  static func plain(_ v: Double) -> String {
    if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) }
    return "\(v)"
  }
}
