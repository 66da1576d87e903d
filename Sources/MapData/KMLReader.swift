import Foundation
import MapGeometry
import TermMapKit

/// Reads the common subset of KML 2.2 from a streaming tokenizer positioned after `<kml>`.
///
/// Placemarks anywhere in nested Documents and Folders, with Point, LineString, LinearRing,
/// Polygon (outer and inner boundaries), MultiGeometry, gx:Track and gx:MultiTrack; name,
/// description (its text only: tags are stripped), ExtendedData, and colours from Style,
/// StyleMap and styleUrl (`#id` in the same file). A placemark whose geometry is bad is skipped
/// with a warning. Other elements (overlays, network links, models, …) are skipped.
struct KMLReader {
  static let kml = 3
  static let gx = 4

  let xml: XMLTokenizer
  var builder: ContentBuilder
  private var text: [UInt8] = []
  private var textLocation = (line: 1, column: 1)
  private var folders: [String] = []
  private var placemarks: [Placemark] = []
  private var styles: [String: FeatureStyle] = [:]
  private var styleMaps: [String: String] = [:]
  private var placemarkCount = 0
  private var multiGeometryDepth = 0
  /// MultiGeometries may nest this deep inside each other; a placemark with deeper ones is
  /// skipped with a warning. (Elements in general nest at most `XMLTokenizer.maxDepth` deep.)
  static let maxMultiGeometryDepth = 32

  private indirect enum Geometry {
    case point(Coordinate, Double)
    case line(MeasuredLine)
    case polygon(outer: [Coordinate], holes: [[Coordinate]])
    case track([MeasuredLine])
    case multi([Geometry])
  }

  private struct Placemark {
    var name: String?
    var description: String?
    var styleURL: String?
    var inlineStyle: FeatureStyle?
    var details: [String] = []
    /// `<ExtendedData>`'s values by name, for the GeoJSON feature (`termmap pick`).
    var data: [(key: String, value: String)] = []
    var geometries: [Geometry] = []
  }

  /// A problem inside a placemark (the placemark is skipped), or, when `fatal`, in the file
  /// itself (reading stops).
  private struct Bad: Error {
    var error: DataFileError
    var fatal = false
  }

  init(xml: XMLTokenizer, path: String) {
    self.xml = xml
    builder = ContentBuilder(path: path)
  }

  private func isKML(_ ns: Int) -> Bool { ns == 0 || ns == Self.kml }
  private func isGX(_ ns: Int) -> Bool { ns == Self.gx || (ns == -1 && xml.prefix == "gx") }

  mutating func read() throws(DataFileError) -> MapContent {
    try readContainer()
    guard try xml.next() == .endOfDocument else {
      throw DataFileError(path: builder.path, message: "unexpected content after </kml>")
    }
    for p in placemarks { add(p) }
    if builder.isEmpty && builder.problems.first == nil {
      builder.notes.append(
        DataFileError(path: builder.path, message: "the file has no placemarks with coordinates")
          .description)
    }
    return try builder.build(format: .kml)
  }

  // MARK: Containers and styles

  /// Reads the children of `<kml>`, `<Document>` or `<Folder>` up to its end.
  private mutating func readContainer() throws(DataFileError) {
    var named = false
    defer { if named { folders.removeLast() } }
    while true {
      switch try xml.next() {
      case .startElement:
        guard isKML(xml.namespace) else {
          try xml.skipElement()
          continue
        }
        if xml.localNameIs("Document") || xml.localNameIs("Folder") {
          try readContainer()
        } else if xml.localNameIs("Placemark") {
          try readPlacemark()
        } else if xml.localNameIs("Style") {
          let id = xml.attribute("id").map { xml.attributeString($0) }
          let style = try readStyle()
          if let id { styles[id] = style }
        } else if xml.localNameIs("StyleMap") {
          let id = xml.attribute("id").map { xml.attributeString($0) }
          let normal = try readStyleMap()
          if let id, let normal { styleMaps[id] = normal }
        } else if xml.localNameIs("name") && !named && xml.depth > 2 {
          let name = try readString() ?? ""
          folders.append(name)
          named = true
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument: return
      }
    }
  }

  private mutating func readStyle() throws(DataFileError) -> FeatureStyle {
    var style = FeatureStyle()
    while true {
      switch try xml.next() {
      case .startElement:
        guard isKML(xml.namespace) else {
          try xml.skipElement()
          continue
        }
        if xml.localNameIs("LineStyle") {
          try readSubStyle { _, name, value in
            if name == "color", let (c, a) = ColorText.kml(value) {
              style.stroke = c
              style.strokeOpacity = a
            } else if name == "width",
              let w = Double(value.trimmingCharacters(in: .whitespacesAndNewlines)), w.isFinite
            {
              style.strokeWidth = w
            }
          }
        } else if xml.localNameIs("PolyStyle") {
          var fillOff = false
          try readSubStyle { _, name, value in
            if name == "color", let (c, a) = ColorText.kml(value) {
              style.fill = c
              style.fillOpacity = a
            } else if name == "fill", value.trimmingCharacters(in: .whitespacesAndNewlines) == "0" {
              fillOff = true
            }
          }
          if fillOff { style.fillOpacity = 0 }
        } else if xml.localNameIs("IconStyle") {
          try readSubStyle { _, name, value in
            if name == "color", let (c, _) = ColorText.kml(value) { style.markerColor = c }
          }
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument: return style
      }
    }
  }

  /// Reads the simple children of a LineStyle, PolyStyle or IconStyle.
  private mutating func readSubStyle(
    _ take: (inout KMLReader, String, String) -> Void
  ) throws(DataFileError) {
    while true {
      switch try xml.next() {
      case .startElement:
        if isKML(xml.namespace)
          && (xml.localNameIs("color") || xml.localNameIs("width") || xml.localNameIs("fill"))
        {
          let name = xml.qualifiedName
          try readText()
          take(&self, name, String(decoding: text, as: UTF8.self))
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument: return
      }
    }
  }

  /// The `normal` style URL of a StyleMap.
  private mutating func readStyleMap() throws(DataFileError) -> String? {
    var normal: String?
    while true {
      switch try xml.next() {
      case .startElement:
        if isKML(xml.namespace) && xml.localNameIs("Pair") {
          var key: String?
          var url: String?
          while true {
            let e = try xml.next()
            if e == .startElement {
              if xml.localNameIs("key") {
                key = try readString()
              } else if xml.localNameIs("styleUrl") {
                url = try readString()
              } else {
                try xml.skipElement()
              }
            } else if e != .text {
              break
            }
          }
          if key == "normal" || (normal == nil && key == nil) { normal = url }
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument: return normal
      }
    }
  }

  /// The style a `#id` URL names, following StyleMaps to their `normal` style. A StyleMap
  /// chain that comes back to a map already visited (`#a` → `#a`, `#a` → `#b` → `#a`) names no
  /// style; the walk is a loop, so no chain can exhaust the stack.
  private func resolve(_ url: String?) -> FeatureStyle? {
    var next = url
    var visited: Set<String> = []
    while let u = next {
      var id = u.trimmingCharacters(in: .whitespacesAndNewlines)
      guard id.hasPrefix("#") else { return nil }
      id.removeFirst()
      if let s = styles[id] { return s }
      guard visited.insert(id).inserted else { return nil }
      next = styleMaps[id]
    }
    return nil
  }

  // MARK: Placemarks

  private mutating func readPlacemark() throws(DataFileError) {
    placemarkCount += 1
    var p = Placemark()
    var problem: DataFileError?
    while true {
      switch try xml.next() {
      case .startElement:
        guard isKML(xml.namespace) || isGX(xml.namespace) else {
          try xml.skipElement()
          continue
        }
        if isKML(xml.namespace) && xml.localNameIs("name") {
          p.name = try readString()
        } else if isKML(xml.namespace) && xml.localNameIs("description") {
          try readText()
          let stripped = HTMLText.plain(String(decoding: text, as: UTF8.self))
          p.description = stripped.isEmpty ? nil : stripped
        } else if isKML(xml.namespace) && xml.localNameIs("styleUrl") {
          p.styleURL = try readString()
        } else if isKML(xml.namespace) && xml.localNameIs("Style") {
          p.inlineStyle = try readStyle()
        } else if isKML(xml.namespace) && xml.localNameIs("ExtendedData") {
          let data = try readExtendedData()
          p.details += data.map { $0.line }
          p.data += data.map { ($0.name, $0.value) }
        } else if geometryKind() != nil {
          if let g = try readGeometryIfAny(&problem) { p.geometries.append(g) }
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument:
        if let problem {
          builder.problems.skip("placemark", "placemarks", problem)
          return
        }
        if !folders.isEmpty {
          let path = folders.filter { !$0.isEmpty }.joined(separator: " / ")
          if !path.isEmpty { p.details.append("folder: \(path)") }
        }
        placemarks.append(p)
        return
      }
    }
  }

  /// Reads the geometry element the current start tag opens (nil when it is none). A bad
  /// geometry is read to its end, recorded in `problem` (the first one) and given as nil; a
  /// well-formedness error ends the file.
  private mutating func readGeometryIfAny(_ problem: inout DataFileError?) throws(DataFileError)
    -> Geometry?
  {
    guard let kind = geometryKind() else { return nil }
    do throws(Bad) {
      return try readGeometry(kind)
    } catch {
      if error.fatal { throw error.error }
      if problem == nil { problem = error.error }
      return nil
    }
  }

  /// The kind of geometry the current start tag opens, if it is one.
  private func geometryKind() -> String? {
    let ns = xml.namespace
    if isKML(ns) {
      for k: StaticString in ["Point", "LineString", "LinearRing", "Polygon", "MultiGeometry"]
      where xml.localNameIs(k) {
        return k.description
      }
    } else if isGX(ns) {
      if xml.localNameIs("Track") { return "Track" }
      if xml.localNameIs("MultiTrack") { return "MultiTrack" }
    }
    return nil
  }

  private mutating func readGeometry(_ kind: String) throws(Bad) -> Geometry {
    let tagLocation = xml.location(of: xml.tokenOffset)
    switch kind {
    case "Point":
      let c = try readCoordinatesChild("Point", tagLocation)
      guard c.coordinates.count == 1 else {
        throw bad(tagLocation, "a Point needs 1 coordinate tuple, found \(c.coordinates.count)")
      }
      return .point(c.coordinates[0], c.elevations.first ?? .nan)
    case "LineString", "LinearRing":
      let c = try readCoordinatesChild(kind, tagLocation)
      let least = kind == "LineString" ? 2 : 4
      guard c.coordinates.count >= least else {
        throw bad(
          tagLocation, "a \(kind) needs at least \(least) positions, found \(c.coordinates.count)")
      }
      return .line(c)
    case "Polygon": return try readPolygon(tagLocation)
    case "MultiGeometry":
      guard multiGeometryDepth < Self.maxMultiGeometryDepth else {
        try skip()
        throw bad(
          tagLocation, "MultiGeometry nests deeper than \(Self.maxMultiGeometryDepth) levels")
      }
      multiGeometryDepth += 1
      defer { multiGeometryDepth -= 1 }
      let parts = try readChildren(
        accepting: { $0.geometryKind() != nil },
        { (r: inout KMLReader) throws(Bad) -> Geometry in try r.readGeometry(r.geometryKind()!) })
      return .multi(parts)
    case "Track":
      return .track([try readTrack(tagLocation)])
    default:  // MultiTrack
      let tracks = try readChildren(
        accepting: { $0.isGX($0.xml.namespace) && $0.xml.localNameIs("Track") },
        { (r: inout KMLReader) throws(Bad) -> MeasuredLine in
          try r.readTrack(r.xml.location(of: r.xml.tokenOffset))
        })
      guard !tracks.isEmpty else { throw bad(tagLocation, "the gx:MultiTrack has no gx:Track") }
      return .track(tracks)
    }
  }

  private func bad(_ at: (line: Int, column: Int), _ message: String) -> Bad {
    Bad(
      error: DataFileError(path: builder.path, line: at.line, column: at.column, message: message))
  }

  /// Reads the current element's children up to its end: those `accepting` picks go through
  /// `read`, the others are skipped. A child with a recoverable problem is left out and the
  /// first such problem is thrown once all children are read; a fatal one is thrown at once.
  private mutating func readChildren<T>(
    accepting: (KMLReader) -> Bool, _ read: (inout KMLReader) throws(Bad) -> T
  ) throws(Bad) -> [T] {
    var items: [T] = []
    var problem: Bad?
    while true {
      let e = try nextEvent()
      if e == .startElement {
        if accepting(self) {
          do throws(Bad) {
            items.append(try read(&self))
          } catch {
            if error.fatal { throw error }
            if problem == nil { problem = error }
          }
        } else {
          try skip()
        }
      } else if e != .text {
        break
      }
    }
    if let problem { throw problem }
    return items
  }

  private func nextEvent() throws(Bad) -> XMLEvent {
    do throws(DataFileError) {
      return try xml.next()
    } catch {
      throw Bad(error: error, fatal: true)
    }
  }

  private func skip() throws(Bad) {
    do throws(DataFileError) {
      try xml.skipElement()
    } catch {
      throw Bad(error: error, fatal: true)
    }
  }

  private mutating func readTextOrFail() throws(Bad) {
    do throws(DataFileError) {
      try readText()
    } catch {
      throw Bad(error: error, fatal: true)
    }
  }

  /// Reads the element's `<coordinates>` child and the rest of the element.
  private mutating func readCoordinatesChild(_ kind: String, _ at: (line: Int, column: Int))
    throws(Bad) -> MeasuredLine
  {
    var found: MeasuredLine?
    var problem: Bad?
    while true {
      let e = try nextEvent()
      if e == .startElement {
        if isKML(xml.namespace) && xml.localNameIs("coordinates") && found == nil && problem == nil
        {
          try readTextOrFail()
          do throws(Bad) {
            found = try parseTuples()
          } catch {
            problem = error
          }
        } else {
          try skip()
        }
      } else if e != .text {
        break
      }
    }
    if let problem { throw problem }
    guard let found else { throw bad(at, "the \(kind) has no <coordinates>") }
    return found
  }

  private mutating func readPolygon(_ at: (line: Int, column: Int)) throws(Bad) -> Geometry {
    var outer: MeasuredLine?
    var holes: [[Coordinate]] = []
    var problem: Bad?
    while true {
      let e = try nextEvent()
      if e == .startElement {
        let isOuter = isKML(xml.namespace) && xml.localNameIs("outerBoundaryIs")
        let isInner = isKML(xml.namespace) && xml.localNameIs("innerBoundaryIs")
        if !isOuter && !isInner {
          try skip()
          continue
        }
        while true {
          let e2 = try nextEvent()
          if e2 == .startElement {
            if isKML(xml.namespace) && xml.localNameIs("LinearRing") {
              let ringAt = xml.location(of: xml.tokenOffset)
              do throws(Bad) {
                let ring = try readCoordinatesChild("LinearRing", ringAt)
                guard ring.coordinates.count >= 4 else {
                  throw bad(
                    ringAt,
                    "a LinearRing needs at least 4 positions, found \(ring.coordinates.count)")
                }
                if isOuter { outer = ring } else { holes.append(Self.closed(ring.coordinates)) }
              } catch {
                if error.fatal { throw error }
                if problem == nil { problem = error }
              }
            } else {
              try skip()
            }
          } else if e2 != .text {
            break
          }
        }
      } else if e != .text {
        break
      }
    }
    if let problem { throw problem }
    guard let outer else { throw bad(at, "the Polygon has no <outerBoundaryIs> ring") }
    return .polygon(outer: Self.closed(outer.coordinates), holes: holes)
  }

  static func closed(_ ring: [Coordinate]) -> [Coordinate] {
    guard let first = ring.first, let last = ring.last, first != last else { return ring }
    return ring + [first]
  }

  /// A gx:Track: `<when>` times and `<gx:coord>` positions ("lon lat alt").
  private mutating func readTrack(_ at: (line: Int, column: Int)) throws(Bad) -> MeasuredLine {
    var coordinates: [Coordinate] = []
    var elevations: [Double] = []
    var times: [Double] = []
    var anyElevation = false
    var problem: Bad?
    while true {
      let e = try nextEvent()
      if e == .startElement {
        if isKML(xml.namespace) && xml.localNameIs("when") {
          try readTextOrFail()
          times.append(ValueParser.time(text) ?? .nan)
        } else if isGX(xml.namespace) && xml.localNameIs("coord") {
          try readTextOrFail()
          do throws(Bad) {
            let (c, ele) = try parseCoord()
            coordinates.append(c)
            elevations.append(ele)
            if !ele.isNaN { anyElevation = true }
          } catch {
            if problem == nil { problem = error }
          }
        } else {
          try skip()
        }
      } else if e != .text {
        break
      }
    }
    if let problem { throw problem }
    guard !coordinates.isEmpty else { throw bad(at, "the gx:Track has no <gx:coord> positions") }
    let keepTimes = times.count == coordinates.count && times.contains { !$0.isNaN }
    return MeasuredLine(
      kind: .trackSegment, coordinates: coordinates, elevations: anyElevation ? elevations : [],
      times: keepTimes ? times : [])
  }

  private mutating func readExtendedData() throws(DataFileError) -> [(
    line: String, name: String, value: String
  )] {
    var out: [(line: String, name: String, value: String)] = []
    while true {
      switch try xml.next() {
      case .startElement:
        let isData = xml.localNameIs("Data")
        let isSimple = xml.localNameIs("SimpleData")
        if isData || isSimple {
          let name = xml.attribute("name").map { TextSanitizer.clean(xml.attributeString($0)) }
          var display: String?
          var value: String?
          if isSimple {
            value = try readString()
          } else {
            while true {
              let e = try xml.next()
              if e == .startElement {
                if xml.localNameIs("value") {
                  value = try readString()
                } else if xml.localNameIs("displayName") {
                  display = try readString().map(HTMLText.plain)
                } else {
                  try xml.skipElement()
                }
              } else if e != .text {
                break
              }
            }
          }
          let label = display ?? name ?? ""
          if let value {
            out.append((label.isEmpty ? value : "\(label): \(value)", name ?? label, value))
          }
        } else if xml.localNameIs("SchemaData") {
          out += try readExtendedData()
        } else {
          try xml.skipElement()
        }
      case .text: continue
      case .endElement, .endOfDocument: return out
      }
    }
  }

  // MARK: Text and tuples

  private mutating func readText() throws(DataFileError) {
    text.removeAll(keepingCapacity: true)
    textLocation = xml.location(of: xml.tokenOffset)
    var first = true
    while true {
      switch try xml.next() {
      case .text:
        if first {
          textLocation = xml.location(of: xml.textOffset)
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

  /// The location of byte `offset` of `text`.
  private func location(inText offset: Int) -> (line: Int, column: Int) {
    var line = textLocation.line
    var column = textLocation.column
    var k = 0
    while k < offset {
      if text[k] == Chars.lf {
        line += 1
        column = 1
      } else if text[k] & 0xC0 != 0x80 {
        column += 1
      }
      k += 1
    }
    return (line, column)
  }

  /// The tuples of a `<coordinates>` text: "lon,lat[,alt]" separated by white space.
  private func parseTuples() throws(Bad) -> MeasuredLine {
    var coordinates: [Coordinate] = []
    var elevations: [Double] = []
    var anyElevation = false
    let n = text.count
    var problem: (Int, String)?
    text.withUnsafeBufferPointer { b in
      guard let p = b.baseAddress else { return }
      var i = 0
      while i < n {
        while i < n && ValueParser.isSpace(p[i]) { i += 1 }
        if i >= n { break }
        let start = i
        var fields: [(Int, Int)] = []
        var f = i
        while i < n && !ValueParser.isSpace(p[i]) {
          if p[i] == Chars.comma {
            fields.append((f, i))
            f = i + 1
          }
          i += 1
        }
        fields.append((f, i))
        // "lon, lat" with a space after the comma: a common slip; join it.
        if fields.count < 2 {
          problem = (
            start,
            "expected \"longitude,latitude[,altitude]\", found \"\(Formatting.shown(String(decoding: b[start..<i], as: UTF8.self)))\""
          )
          return
        }
        let lonText = String(decoding: b[fields[0].0..<fields[0].1], as: UTF8.self)
        let latText = String(decoding: b[fields[1].0..<fields[1].1], as: UTF8.self)
        let lon = ValueParser.number(p, fields[0].0, fields[0].1)
        let lat = ValueParser.number(p, fields[1].0, fields[1].1)
        if let m = ValueParser.coordinateProblem(lon, text: lonText, "longitude", limit: 180) {
          problem = (fields[0].0, m)
          return
        }
        if let m = ValueParser.coordinateProblem(lat, text: latText, "latitude", limit: 90) {
          problem = (fields[1].0, m)
          return
        }
        var ele = Double.nan
        if fields.count >= 3, let v = ValueParser.number(p, fields[2].0, fields[2].1), v.isFinite {
          ele = v
          anyElevation = true
        }
        coordinates.append(Coordinate(latitude: lat!, longitude: lon!))
        elevations.append(ele)
      }
    }
    if let (offset, message) = problem { throw bad(location(inText: offset), message) }
    return MeasuredLine(
      kind: .line, coordinates: coordinates, elevations: anyElevation ? elevations : [])
  }

  /// A `<gx:coord>`: "lon lat [alt]" separated by spaces.
  private func parseCoord() throws(Bad) -> (Coordinate, Double) {
    let parts = String(decoding: text, as: UTF8.self).split(whereSeparator: \.isWhitespace)
      .map(String.init)
    guard parts.count >= 2 else {
      throw bad(
        textLocation,
        "expected \"longitude latitude [altitude]\" in <gx:coord>, found \"\(Formatting.shown(String(decoding: text, as: UTF8.self)))\""
      )
    }
    let lon = ValueParser.number(Array(parts[0].utf8))
    let lat = ValueParser.number(Array(parts[1].utf8))
    if let m = ValueParser.coordinateProblem(lon, text: parts[0], "longitude", limit: 180) {
      throw bad(textLocation, m)
    }
    if let m = ValueParser.coordinateProblem(lat, text: parts[1], "latitude", limit: 90) {
      throw bad(textLocation, m)
    }
    var ele = Double.nan
    if parts.count >= 3, let v = ValueParser.number(Array(parts[2].utf8)), v.isFinite { ele = v }
    return (Coordinate(latitude: lat!, longitude: lon!), ele)
  }

  // MARK: Making content

  private mutating func add(_ p: Placemark) {
    var style = p.styleURL.flatMap(resolve)
    if let inline = p.inlineStyle { style = (style ?? FeatureStyle()).overlaid(by: inline) }
    add(p.geometries, p, style)
  }

  private mutating func add(_ geometries: [Geometry], _ p: Placemark, _ style: FeatureStyle?) {
    var lines: [MeasuredLine] = []
    var polygons = 0
    for g in geometries {
      switch g {
      case .polygon: polygons += 1
      default: break
      }
    }
    for g in geometries {
      switch g {
      case .point(let c, let ele):
        var details = p.details
        if !ele.isNaN && ele != 0 { details.insert("altitude \(Formatting.metres(ele))", at: 0) }
        details.append(Formatting.coordinate(c))
        let annotation = PointAnnotation(
          coordinate: c, title: p.name, subtitle: p.description, detailLines: details)
        // The GeoJSON feature (`termmap pick`): name, description, altitude and the
        // placemark's data, as the file had them.
        var properties: [(key: String, value: String)] = []
        if let n = p.name { properties.append(("name", GeoJSONText.string(n))) }
        if let d = p.description { properties.append(("description", GeoJSONText.string(d))) }
        if !ele.isNaN && ele != 0 { properties.append(("ele", GeoJSONText.number(ele))) }
        for (key, value) in p.data where !properties.contains(where: { $0.key == key }) {
          properties.append((key, GeoJSONText.string(value)))
        }
        annotation.geoJSONProperties = GeoJSONText.object(properties)
        builder.addPoint(annotation, style: style)
      case .line(var l):
        l.title = p.name
        lines.append(l)
      case .polygon(let outer, let holes):
        builder.addPolygon(
          outer: outer, holes: holes, title: p.name, style: style, partOfMulti: polygons > 1)
      case .track(var parts):
        builder.tracks += 1
        builder.segments += parts.count
        for k in parts.indices { parts[k].title = p.name }
        if parts.count == 1 {
          builder.addLine(parts[0], title: p.name, subtitle: p.description, style: style)
        } else {
          builder.addTrack(title: p.name, segments: parts, style: style)
        }
      case .multi(let inner):
        add(inner, p, style)
      }
    }
    if lines.count == 1 {
      builder.addLine(lines[0], title: p.name, subtitle: p.description, style: style)
    } else if lines.count > 1 {
      builder.addMultiLine(lines, title: p.name, style: style)
    }
  }
}
