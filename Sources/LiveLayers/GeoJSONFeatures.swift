import MapGeometry

/// Why a message was refused (said on the status line).
struct LiveMessageError: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}

/// GeoJSON features from one JSON text: a Feature, a FeatureCollection, or a bare geometry
/// with no id (then it is a new target each time). Read by `JSONScanner` field by field: only
/// `type`, `id`, `geometry` and `properties` are looked at, the rest skipped.
enum GeoJSONFeatures {
  /// Appends the updates of one JSON text; throws the reason when it is refused (nothing is
  /// appended then).
  static func decode(
    _ bytes: UnsafeBufferPointer<UInt8>, serial: inout Int, into out: inout [LiveUpdate]
  ) throws(LiveMessageError) {
    var s = JSONScanner(bytes)
    let mark = out.count
    do throws(LiveMessageError) {
      try feature(&s, serial: &serial, into: &out, depth: 0)
      guard s.peek() == nil else { throw LiveMessageError("text after the JSON value") }
    } catch {
      out.removeSubrange(mark...)
      throw error
    }
  }

  /// One object: a Feature (appended) or a FeatureCollection (its features appended).
  static func feature(
    _ s: inout JSONScanner, serial: inout Int, into out: inout [LiveUpdate], depth: Int
  ) throws(LiveMessageError) {
    guard s.take(0x7B) else { throw LiveMessageError("not a JSON object") }
    var type: String?
    var id: String?
    var geometry: LiveGeometry?
    var properties: [LiveProperty] = []
    var collection = false
    var bareGeometry: (type: String?, coordinates: Coordinates?) = (nil, nil)
    if !s.take(0x7D) {
      repeat {
        guard let key = s.rawString(), s.take(0x3A) else {
          throw LiveMessageError("malformed JSON")
        }
        if s.equals(key, "type") {
          // The usual types compared as bytes, without making a string.
          guard let r = s.rawString() else { throw LiveMessageError("type: expected a string") }
          type =
            s.equals(r, "Feature")
            ? "Feature" : s.equals(r, "FeatureCollection") ? "FeatureCollection" : s.text(r)
        } else if s.equals(key, "id") {
          id = try identifier(&s)
        } else if s.equals(key, "geometry") {
          geometry = try self.geometry(&s)
        } else if s.equals(key, "properties") {
          if s.literal("null") { continue }
          properties = try self.properties(&s)
        } else if s.equals(key, "features") && depth == 0 {
          guard s.take(0x5B) else { throw LiveMessageError("features: expected an array") }
          collection = true
          if !s.take(0x5D) {
            repeat {
              try feature(&s, serial: &serial, into: &out, depth: 1)
            } while s.take(0x2C)
            guard s.take(0x5D) else { throw LiveMessageError("malformed JSON") }
          }
        } else if s.equals(key, "coordinates") {
          bareGeometry.coordinates = try coordinates(&s, depth: 0)
        } else {
          guard s.skipValue() else { throw LiveMessageError("malformed JSON") }
        }
      } while s.take(0x2C)
      guard s.take(0x7D) else { throw LiveMessageError("malformed JSON") }
    }
    switch type {
    case "Feature":
      guard let g = geometry else { throw LiveMessageError("a Feature without geometry") }
      var kind = TargetKind.feature
      if let k = properties.first(where: { $0.key == "kind" })?.value.textValue,
        let named = TargetKind(rawValue: k)
      {
        kind = named
      }
      // An id among the properties names the target when the feature has none.
      let name =
        id ?? properties.first(where: { $0.key == "id" })?.value.textValue
        ?? {
          serial += 1
          return "#\(serial)"
        }()
      out.append(LiveUpdate(id: name, kind: kind, geometry: g, properties: properties))
    case "FeatureCollection":
      guard collection else { throw LiveMessageError("a FeatureCollection without features") }
    case "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon":
      guard let c = bareGeometry.coordinates else {
        throw LiveMessageError("\(type!) without coordinates")
      }
      serial += 1
      out.append(LiveUpdate(id: "#\(serial)", geometry: try make(type!, c)))
    case let t?:
      throw LiveMessageError("type \(SafeTextShort.of(t)): expected Feature or FeatureCollection")
    case nil:
      throw LiveMessageError("no type: expected a GeoJSON Feature")
    }
  }

  /// A feature id: a string, or a number as written (`7`, not `7.0`).
  static func identifier(_ s: inout JSONScanner) throws(LiveMessageError) -> String {
    switch s.peek() {
    case 0x22:
      guard let t = s.string() else { throw LiveMessageError("id: malformed string") }
      return t
    default:
      guard let v = s.number() else { throw LiveMessageError("id: expected a string or number") }
      return JSONText.number(v)
    }
  }

  static func properties(_ s: inout JSONScanner) throws(LiveMessageError) -> [LiveProperty] {
    guard s.take(0x7B) else { throw LiveMessageError("properties: expected an object") }
    var out: [LiveProperty] = []
    if s.take(0x7D) { return out }
    repeat {
      guard let key = s.string(), s.take(0x3A), let v = s.value() else {
        throw LiveMessageError("properties: malformed JSON")
      }
      out.append(LiveProperty(key, v))
    } while s.take(0x2C)
    guard s.take(0x7D) else { throw LiveMessageError("properties: malformed JSON") }
    return out
  }

  /// Nested coordinate arrays.
  indirect enum Coordinates {
    case position(Coordinate)
    case list([Coordinates])
  }

  static func geometry(_ s: inout JSONScanner) throws(LiveMessageError) -> LiveGeometry {
    if s.literal("null") { return .removed }
    guard s.take(0x7B) else { throw LiveMessageError("geometry: expected an object or null") }
    var type: String?
    var coords: Coordinates?
    if !s.take(0x7D) {
      repeat {
        guard let key = s.rawString(), s.take(0x3A) else {
          throw LiveMessageError("geometry: malformed JSON")
        }
        if s.equals(key, "type") {
          guard let r = s.rawString() else { throw LiveMessageError("geometry: malformed type") }
          type = s.equals(r, "Point") ? "Point" : s.text(r)
        } else if s.equals(key, "coordinates") {
          coords = try coordinates(&s, depth: 0)
        } else {
          guard s.skipValue() else { throw LiveMessageError("geometry: malformed JSON") }
        }
      } while s.take(0x2C)
      guard s.take(0x7D) else { throw LiveMessageError("geometry: malformed JSON") }
    }
    guard let t = type else { throw LiveMessageError("geometry without a type") }
    guard let c = coords else {
      throw LiveMessageError("\(SafeTextShort.of(t)) without coordinates")
    }
    return try make(t, c)
  }

  /// A position `[lon, lat(, alt)]` is read without making arrays; deeper nesting as lists.
  static func coordinates(_ s: inout JSONScanner, depth: Int) throws(LiveMessageError)
    -> Coordinates
  {
    guard depth < 6, s.take(0x5B) else { throw LiveMessageError("coordinates: expected an array") }
    if let c = s.peek(), c == 0x2D || c &- 0x30 < 10 {
      guard let lon = s.number(), s.take(0x2C), let lat = s.number() else {
        throw LiveMessageError("coordinates: expected numbers")
      }
      while s.take(0x2C) {
        guard s.number() != nil else { throw LiveMessageError("coordinates: expected numbers") }
      }
      guard s.take(0x5D) else { throw LiveMessageError("coordinates: expected numbers") }
      guard lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 else {
        throw LiveMessageError("coordinates out of range (\(lon), \(lat))")
      }
      return .position(Coordinate(latitude: lat, longitude: lon))
    }
    var items: [Coordinates] = []
    if s.take(0x5D) { return .list(items) }
    repeat {
      items.append(try coordinates(&s, depth: depth + 1))
    } while s.take(0x2C)
    guard s.take(0x5D) else { throw LiveMessageError("coordinates: malformed JSON") }
    return .list(items)
  }

  static func make(_ type: String, _ c: Coordinates) throws(LiveMessageError) -> LiveGeometry {
    func positions(_ c: Coordinates) throws(LiveMessageError) -> [Coordinate] {
      guard case .list(let items) = c else {
        throw LiveMessageError("\(type): malformed coordinates")
      }
      var out: [Coordinate] = []
      out.reserveCapacity(items.count)
      for item in items {
        guard case .position(let p) = item else {
          throw LiveMessageError("\(type): malformed coordinates")
        }
        out.append(p)
      }
      return out
    }
    func lists(_ c: Coordinates) throws(LiveMessageError) -> [Coordinates] {
      guard case .list(let items) = c else {
        throw LiveMessageError("\(type): malformed coordinates")
      }
      return items
    }
    switch type {
    case "Point":
      guard case .position(let p) = c else {
        throw LiveMessageError("Point: malformed coordinates")
      }
      return .point(p)
    case "MultiPoint":
      // A target is one point: the first.
      guard let p = try positions(c).first else { throw LiveMessageError("MultiPoint: empty") }
      return .point(p)
    case "LineString":
      let line = try positions(c)
      guard line.count >= 2 else { throw LiveMessageError("LineString: fewer than 2 positions") }
      return .lines([line])
    case "MultiLineString":
      var out: [[Coordinate]] = []
      for l in try lists(c) { out.append(try positions(l)) }
      return .lines(out)
    case "Polygon":
      var rings: [[Coordinate]] = []
      for r in try lists(c) { rings.append(try positions(r)) }
      guard let outer = rings.first, outer.count >= 3 else {
        throw LiveMessageError("Polygon: no ring")
      }
      return .polygons([rings])
    case "MultiPolygon":
      var polygons: [[[Coordinate]]] = []
      for p in try lists(c) {
        var rings: [[Coordinate]] = []
        for r in try lists(p) { rings.append(try positions(r)) }
        if let outer = rings.first, outer.count >= 3 { polygons.append(rings) }
      }
      return .polygons(polygons)
    default:
      throw LiveMessageError("geometry type \(SafeTextShort.of(type)) is not read")
    }
  }
}

/// Text from a message, short and clean enough for a status line.
enum SafeTextShort {
  static func of(_ s: String) -> String {
    let t = SafeText.clean(s)
    return t.count > 40 ? String(t.prefix(40)) + "…" : t
  }
}
