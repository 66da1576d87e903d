import Foundation

extension Coordinate {
  /// Reads a coordinate as people write them: `48.8566, 2.3522`, `48.8566 2.3522`,
  /// `48°51′N 2°21′E`, `48°51'24"N 2°21'3"E`, `N 48.85 E 2.35`, `-33.9;18.4`.
  /// Latitude comes first unless hemisphere letters say otherwise. Nil when it is not one.
  public init?(parsing text: String) {
    let s = text.uppercased()
      .replacingOccurrences(of: "′", with: "'").replacingOccurrences(of: "’", with: "'")
      .replacingOccurrences(of: "″", with: "\"").replacingOccurrences(of: "”", with: "\"")
      .replacingOccurrences(of: "''", with: "\"")
    // Split into two parts at a comma/semicolon, or at the hemisphere letters, or at a space.
    var parts: [String] = []
    if s.contains(",") || s.contains(";") {
      parts = s.split(whereSeparator: { $0 == "," || $0 == ";" }).map(String.init)
    } else {
      var current = ""
      var sawHemisphere = false
      for ch in s {
        if "NSEW".contains(ch) {
          if current.trimmingCharacters(in: .whitespaces).isEmpty {
            current.append(ch)
          } else {
            current.append(ch)
            parts.append(current)
            current = ""
          }
          sawHemisphere = true
        } else {
          current.append(ch)
        }
      }
      if !current.trimmingCharacters(in: .whitespaces).isEmpty { parts.append(current) }
      if !sawHemisphere {
        parts = s.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      }
    }
    guard parts.count == 2,
      let a = Coordinate.angle(parts[0]), let b = Coordinate.angle(parts[1])
    else { return nil }
    var lat = a
    var lon = b
    if a.axis == .longitude || b.axis == .latitude { swap(&lat, &lon) }
    guard lat.axis != .longitude, lon.axis != .latitude else { return nil }
    let c = Coordinate(latitude: lat.value, longitude: lon.value)
    guard c.isValid else { return nil }
    self = c
  }

  private enum Axis { case latitude, longitude, unknown }

  /// One angle: decimal degrees or degrees/minutes/seconds, with an optional hemisphere letter.
  private static func angle(_ raw: String) -> (value: Double, axis: Axis)? {
    var t = raw.trimmingCharacters(in: .whitespaces)
    var sign = 1.0
    var axis = Axis.unknown
    for (letter, s, ax) in [
      ("N", 1.0, Axis.latitude), ("S", -1.0, .latitude), ("E", 1.0, .longitude),
      ("W", -1.0, .longitude),
    ] {
      if t.hasPrefix(letter) || t.hasSuffix(letter) {
        sign = s
        axis = ax
        t = t.trimmingCharacters(in: CharacterSet(charactersIn: letter + " "))
        break
      }
    }
    let numbers = t.split(whereSeparator: { "°'\" D:".contains($0) }).map(String.init)
    guard !numbers.isEmpty, numbers.count <= 3 else { return nil }
    var values: [Double] = []
    for n in numbers {
      guard let v = Double(n), v.isFinite else { return nil }
      values.append(v)
    }
    if values.count > 1 {
      guard values.dropFirst().allSatisfy({ $0 >= 0 && $0 < 60 }) else { return nil }
    }
    let first = values[0]
    var magnitude = abs(first)
    if values.count > 1 { magnitude += values[1] / 60 }
    if values.count > 2 { magnitude += values[2] / 3600 }
    let value = (first < 0 ? -magnitude : magnitude) * sign
    return (value, axis)
  }
}
