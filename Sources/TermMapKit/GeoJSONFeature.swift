import MapGeometry

/// An annotation that can say what it is as a GeoJSON Feature (RFC 7946): `termmap pick`
/// prints the selected one, and a program can hand it on (`jq`, a database, another map).
///
/// ``PointAnnotation`` conforms: a Point at its coordinate with the properties its file had
/// (``PointAnnotation/geoJSONProperties``), or its title and subtitle as `name` and
/// `description`.
public protocol GeoJSONFeatureProviding: Annotation {
  /// One line of GeoJSON (no line break): a Feature object with `geometry` and `properties`.
  var geoJSONFeature: String { get }
}

/// Pieces of GeoJSON text, written by hand so each is one line and its strings are escaped as
/// RFC 8259 requires (quotes, backslashes and control characters; everything else as UTF-8).
public enum GeoJSONText {
  /// A JSON string: `"…"` with `"`, `\` and the control characters escaped.
  public static func string(_ s: String) -> String {
    var out = "\""
    out.reserveCapacity(s.utf8.count + 2)
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      default:
        // Control characters, and the two line separators JavaScript does not take raw.
        if u.value < 0x20 || u.value == 0x2028 || u.value == 0x2029 {
          let hex = String(u.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    return out + "\""
  }

  /// A JSON number: an integral value without a fraction (`12`), others in the shortest form
  /// that reads back the same (`2.35`); `null` for a value JSON cannot hold (NaN, infinity).
  public static func number(_ v: Double) -> String {
    guard v.isFinite else { return "null" }
    if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
    return "\(v)"
  }

  /// A JSON object from its members in order; each value is JSON text already (`string(_:)`,
  /// `number(_:)`, another object).
  public static func object(_ members: [(key: String, value: String)]) -> String {
    "{" + members.map { string($0.key) + ":" + $0.value }.joined(separator: ",") + "}"
  }

  /// A Feature with a Point geometry at `coordinate`: `properties` is a JSON object's text,
  /// `id` the text of a JSON string or number (left out when nil).
  public static func pointFeature(coordinate: Coordinate, properties: String, id: String? = nil)
    -> String
  {
    let geometry =
      "{\"type\":\"Point\",\"coordinates\":[" + number(coordinate.longitude) + ","
      + number(coordinate.latitude) + "]}"
    return "{\"type\":\"Feature\"" + (id.map { ",\"id\":" + $0 } ?? "") + ",\"geometry\":"
      + geometry + ",\"properties\":" + properties + "}"
  }
}
