import Foundation
import MapGeometry

/// CSV with a header: `id`, `lat` (or `latitude`), `lon` (or `lng`, `long`, `longitude`),
/// any other columns as properties (numbers as numbers). A row whose latitude and longitude
/// are both empty removes its target. Fields may be quoted (`"a, b"`, `""` for a quote); a
/// record is one line.
struct CSVTargets {
  let names: [String]
  let idColumn: Int?
  let latColumn: Int
  let lonColumn: Int
  let separator: UInt8

  /// The header, or nil when it has no latitude and longitude columns.
  init?(header: ArraySlice<UInt8>) {
    let sep: UInt8 =
      header.contains(0x2C)
      ? 0x2C : header.contains(0x3B) ? 0x3B : header.contains(0x09) ? 0x09 : 0x2C
    let fields = Self.split(header, separator: sep).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    let lower = fields.map { $0.lowercased() }
    guard let lat = lower.firstIndex(where: { $0 == "lat" || $0 == "latitude" }),
      let lon = lower.firstIndex(where: { ["lon", "lng", "long", "longitude"].contains($0) })
    else { return nil }
    names = fields
    idColumn = lower.firstIndex(of: "id")
    latColumn = lat
    lonColumn = lon
    separator = sep
  }

  /// The fields of one record.
  static func split(_ line: ArraySlice<UInt8>, separator: UInt8) -> [String] {
    var fields: [String] = []
    var field: [UInt8] = []
    var quoted = false
    var i = line.startIndex
    while i < line.endIndex {
      let c = line[i]
      if quoted {
        if c == 0x22 {
          if i + 1 < line.endIndex && line[i + 1] == 0x22 {
            field.append(0x22)
            i += 1
          } else {
            quoted = false
          }
        } else {
          field.append(c)
        }
      } else if c == 0x22 && field.isEmpty {
        quoted = true
      } else if c == separator {
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
      } else {
        field.append(c)
      }
      i += 1
    }
    fields.append(String(decoding: field, as: UTF8.self))
    return fields
  }

  func decode(_ line: ArraySlice<UInt8>, row: Int) throws(LiveMessageError) -> LiveUpdate {
    let fields = Self.split(line, separator: separator)
    guard fields.count == names.count else {
      throw LiveMessageError("\(fields.count) fields, the header has \(names.count)")
    }
    let id = idColumn.map { fields[$0].trimmingCharacters(in: .whitespaces) } ?? ""
    let latText = fields[latColumn].trimmingCharacters(in: .whitespaces)
    let lonText = fields[lonColumn].trimmingCharacters(in: .whitespaces)
    let geometry: LiveGeometry
    if latText.isEmpty && lonText.isEmpty {
      guard !id.isEmpty else { throw LiveMessageError("no id and no position") }
      geometry = .removed
    } else {
      guard let lat = Double(latText), let lon = Double(lonText) else {
        throw LiveMessageError("latitude and longitude must be numbers")
      }
      guard lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 else {
        throw LiveMessageError("coordinates out of range (\(lat), \(lon))")
      }
      geometry = .point(Coordinate(latitude: lat, longitude: lon))
    }
    var properties: [LiveProperty] = []
    var kind = TargetKind.feature
    for (n, name) in names.enumerated() where n != latColumn && n != lonColumn && n != idColumn {
      let v = fields[n].trimmingCharacters(in: .whitespaces)
      if v.isEmpty { continue }
      if name == "kind", let k = TargetKind(rawValue: v) { kind = k }
      if let d = Double(v), d.isFinite, v.first != "+",
        !v.hasPrefix("0") || v == "0" || v.hasPrefix("0.")
      {
        properties.append(LiveProperty(name, .number(d)))
      } else {
        properties.append(LiveProperty(name, .string(v)))
      }
    }
    return LiveUpdate(
      id: id.isEmpty ? "row \(row)" : id, kind: kind, geometry: geometry, properties: properties)
  }
}

/// dump1090 / readsb `aircraft.json`: `now`, and `aircraft`, each with `hex` (the ICAO
/// address: the target's id), `flight`, `lat`, `lon`, `alt_baro`, `gs`, `track`, `seen`,
/// `seen_pos` and more. Every scalar field becomes a property (`flight` trimmed); an aircraft
/// without a position only updates its properties.
enum AircraftJSON {
  static func decode(_ root: JSONNode, into out: inout [LiveUpdate]) throws(LiveMessageError) {
    guard case .array(let list)? = root["aircraft"] else {
      throw LiveMessageError("aircraft.json without an aircraft array")
    }
    for a in list {
      guard case .object(let fields) = a, var hex = a["hex"]?.string, !hex.isEmpty else {
        continue
      }
      hex = hex.lowercased()
      var properties: [LiveProperty] = []
      for (k, v) in fields where k != "lat" && k != "lon" {
        guard var s = v.scalar else { continue }
        if k == "flight", case .string(let t) = s {
          let trimmed = t.trimmingCharacters(in: .whitespaces)
          if trimmed.isEmpty { continue }
          s = .string(trimmed)
        }
        properties.append(LiveProperty(k, s))
      }
      var geometry = LiveGeometry.unchanged
      if let lat = a["lat"]?.number, let lon = a["lon"]?.number {
        guard lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 else { continue }
        geometry = .point(Coordinate(latitude: lat, longitude: lon))
      }
      let age = a["seen_pos"]?.number ?? a["seen"]?.number ?? 0
      out.append(
        LiveUpdate(
          id: hex, kind: .aircraft, geometry: geometry, properties: properties,
          age: max(0, min(age, 86_400))))
    }
  }
}

/// gpsd's `AIS` reports (gpsd's AIVDM/AIVDO documentation, JSON field names): positions from
/// types 1–3 (class A), 18 and 19 (class B) and 27 (long range); names from 5 (`shipname`,
/// `callsign`, `destination`, `shiptype_text`), 19 and 24 (part A `shipname`, part B
/// `callsign`). The MMSI is the target's id, so a vessel's name and position, from
/// different messages, merge. Unscaled reports (`"scaled": false`) give positions in
/// 1/600000 degree; the "not available" values (181 and 91 degrees, heading 511, course 360,
/// speed 102.3 knots) are left out. Other classes (VERSION, DEVICES, WATCH, TPV…) are ignored.
enum GPSDAIS {
  static let positionTypes: Set<Int> = [1, 2, 3, 18, 19, 27]

  /// Appends the update of one report (nothing for other classes); throws when an AIS report
  /// is malformed.
  static func decode(_ root: JSONNode, into out: inout [LiveUpdate]) throws(LiveMessageError) {
    guard let cls = root["class"]?.string else {
      throw LiveMessageError("a gpsd report without a class")
    }
    guard cls == "AIS" else { return }
    guard let type = root["type"]?.number.map(Int.init), let mmsi = root["mmsi"]?.number,
      mmsi >= 0, mmsi < 1e10
    else { throw LiveMessageError("an AIS report without type and mmsi") }
    let scaled = root["scaled"]?.bool ?? false
    var properties: [LiveProperty] = [LiveProperty("mmsi", .number(mmsi))]
    var geometry = LiveGeometry.unchanged
    if positionTypes.contains(type), var lat = root["lat"]?.number, var lon = root["lon"]?.number {
      if !scaled && type != 27 {
        lat /= 600_000
        lon /= 600_000
      } else if !scaled {
        lat /= 600
        lon /= 600
      }
      if lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180 {
        geometry = .point(Coordinate(latitude: lat, longitude: lon))
      }
    }
    func number(_ key: String, scale: Double, unavailable: Double) {
      guard var v = root[key]?.number else { return }
      if !scaled { v /= scale }
      if v >= unavailable { return }
      properties.append(LiveProperty(key, .number(v)))
    }
    number("speed", scale: 10, unavailable: 102.3)
    number("course", scale: 10, unavailable: 360)
    if let h = root["heading"]?.number, h >= 0, h < 360 {
      properties.append(LiveProperty("heading", .number(h)))
    }
    for key in ["shipname", "callsign", "destination", "status_text", "shiptype_text"] {
      if let t = root[key]?.string {
        let trimmed = t.trimmingCharacters(in: CharacterSet(charactersIn: " @"))
        if !trimmed.isEmpty { properties.append(LiveProperty(key, .string(trimmed))) }
      }
    }
    if let st = root["shiptype"]?.number {
      properties.append(LiveProperty("shiptype", .number(st)))
    }
    properties.append(LiveProperty("ais_type", .number(Double(type))))
    out.append(
      LiveUpdate(
        id: String(Int(mmsi)), kind: .vessel, geometry: geometry, properties: properties))
  }
}
