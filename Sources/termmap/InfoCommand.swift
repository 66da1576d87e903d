import Foundation
import MapData

/// `termmap info [--json] FILE...`: what each file holds, its extent, length, elevation and time.
struct InfoCommand {
  var json = false
  var files: [String] = []

  init(_ c: Termmap.Info) throws {
    json = c.json
    files = c.files
    if files.isEmpty { throw UsageError("info needs at least one FILE") }
  }

  func run() throws -> Int32 {
    var status: Int32 = 0
    var results: [FileStatistics] = []
    for path in files {
      do {
        let content = try MapContentLoader.load(
          path: path, progress: LoadProgress.reporter(for: path))
        LoadProgress.clear()
        for w in content.warnings { Self.standardError(w + "\n") }
        let stats = FileStatistics(content)
        results.append(stats)
        if !json { Output.write(Self.human(stats) + (path == files.last ? "" : "\n")) }
      } catch {
        LoadProgress.clear()
        Self.standardError(error.description + "\n")
        status = 2
      }
    }
    if json { Output.write(Self.json(results) + "\n") }
    return status
  }

  static func standardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }

  // MARK: Human output

  static func human(_ s: FileStatistics) -> String {
    var lines = [TextSanitizer.clean(s.path)]
    func row(_ label: String, _ value: String) {
      lines.append("  " + label.padding(toLength: 12, withPad: " ", startingAt: 0) + value)
    }
    row("format", s.format.displayName)
    row("tracks", "\(s.tracks) (\(s.segments) \(s.segments == 1 ? "segment" : "segments"))")
    row("routes", "\(s.routes)")
    row("waypoints", "\(s.waypoints)")
    row("points", "\(s.points)")
    row("polylines", "\(s.polylines)")
    row("polygons", "\(s.polygons)")
    row("annotations", "\(s.annotations)")
    if let b = s.bounds {
      row(
        "bounds",
        String(format: "%.6f, %.6f to %.6f, %.6f (S, W to N, E)", b.south, b.west, b.north, b.east))
    } else {
      row("bounds", "none")
    }
    row("length", distance(s.length))
    if let e = s.elevationRange {
      row(
        "elevation", "\(InfoCommand.tenths(e.lowerBound)) to \(InfoCommand.tenths(e.upperBound)) m")
      row("ascent", "\(metres(s.ascent)) up, \(metres(s.descent)) down")
    } else {
      row("elevation", "none")
    }
    if let t = s.timeSpan {
      row(
        "time",
        "\(iso(t.lowerBound)) to \(iso(t.upperBound)) (\(duration(t.upperBound - t.lowerBound)))")
    } else {
      row("time", "none")
    }
    // Times not used for the span and speeds, and why (issue 20).
    let ignored = s.timeScreening.ignored
    if ignored > 0 {
      row(
        "ignored",
        "\(ignored) point \(ignored == 1 ? "time" : "times") (\(s.timeScreening.reasons))")
    }
    // Track tool rows (issue 13): only for files that have the values.
    if let moving = s.movingTime {
      row(
        "moving",
        "\(duration(moving)), average \(speed(s.movingSpeed)), max \(speed(s.maxSpeed))")
    } else if s.maxSpeed != nil {
      row("speed", "max \(speed(s.maxSpeed))")
    }
    if let h = s.heartRate {
      row("heart rate", "\(whole(h.minimum)) to \(whole(h.maximum)) bpm, average \(whole(h.mean))")
    }
    if let c = s.cadence {
      row("cadence", "\(whole(c.minimum)) to \(whole(c.maximum)) rpm, average \(whole(c.mean))")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// "12.3 km/h" from metres per second.
  static func speed(_ v: Double?) -> String {
    guard let v, v.isFinite else { return "unknown" }
    return String(format: "%.1f km/h", v * 3.6)
  }

  static func whole(_ v: Double) -> String { String(format: "%.0f", v) }

  /// "12.3 m", or "unknown" for a sum that overflowed (nil) or any non-finite value.
  static func metres(_ m: Double?) -> String {
    guard let m, m.isFinite else { return "unknown" }
    return String(format: "%.1f m", m)
  }

  static func distance(_ m: Double) -> String {
    guard m.isFinite else { return "unknown" }
    if m >= 1000 { return String(format: "%.3f km (%.1f m)", m / 1000, m) }
    return String(format: "%.1f m", m)
  }

  static func duration(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    let d = s / 86_400
    let h = s / 3600 % 24
    let m = s / 60 % 60
    let sec = s % 60
    if d > 0 { return "\(d) d \(h) h \(m) min" }
    if h > 0 { return "\(h) h \(m) min" }
    if m > 0 { return "\(m) min \(sec) s" }
    return "\(sec) s"
  }

  static func iso(_ t: Double) -> String {
    let date = Date(timeIntervalSince1970: t)
    let f = ISO8601DateFormatter()
    f.formatOptions =
      t == t.rounded() ? [.withInternetDateTime] : [.withInternetDateTime, .withFractionalSeconds]
    return f.string(from: date)
  }

  // MARK: JSON

  static func json(_ results: [FileStatistics]) -> String {
    let files = results.map { s -> String in
      var fields: [(String, String)] = [
        ("path", string(s.path)),
        ("format", string(s.format.rawValue)),
        ("tracks", "\(s.tracks)"),
        ("segments", "\(s.segments)"),
        ("routes", "\(s.routes)"),
        ("waypoints", "\(s.waypoints)"),
        ("points", "\(s.points)"),
        ("polylines", "\(s.polylines)"),
        ("polygons", "\(s.polygons)"),
        ("annotations", "\(s.annotations)"),
      ]
      if let b = s.bounds {
        fields.append(
          ("bbox", "[\(number(b.west)), \(number(b.south)), \(number(b.east)), \(number(b.north))]")
        )
      } else {
        fields.append(("bbox", "null"))
      }
      fields.append(("length_m", fixed3(s.length)))
      if let e = s.elevationRange {
        fields.append(("elevation_m", "[\(number(e.lowerBound)), \(number(e.upperBound))]"))
        fields.append(("ascent_m", fixed3(s.ascent)))
        fields.append(("descent_m", fixed3(s.descent)))
      } else {
        fields.append(("elevation_m", "null"))
        fields.append(("ascent_m", "null"))
        fields.append(("descent_m", "null"))
      }
      if let t = s.timeSpan {
        fields.append(("time", "[\(string(iso(t.lowerBound))), \(string(iso(t.upperBound)))]"))
      } else {
        fields.append(("time", "null"))
      }
      let t = s.timeScreening
      fields.append(
        (
          "times_ignored",
          "{\"before_1980\": \(t.beforeGPS), \"out_of_order\": \(t.outOfOrder), "
            + "\"over_1000_kmh\": \(t.tooFast)}"
        ))
      fields.append(("moving_time_s", fixed3(s.movingTime)))
      fields.append(("moving_speed_mps", fixed3(s.movingSpeed)))
      fields.append(("max_speed_mps", fixed3(s.maxSpeed)))
      for (name, c) in [("heart_rate_bpm", s.heartRate), ("cadence_rpm", s.cadence)] {
        if let c {
          fields.append((name, "[\(number(c.minimum)), \(number(c.maximum)), \(fixed3(c.mean))]"))
        } else {
          fields.append((name, "null"))
        }
      }
      fields.append(("warnings", "[" + s.warnings.map(string).joined(separator: ", ") + "]"))
      return "    {" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }
    if files.isEmpty { return "{\"files\": []}" }
    return "{\"files\": [\n" + files.joined(separator: ",\n") + "\n]}"
  }

  /// Three decimals, or null for a missing or non-finite value (JSON has no infinity).
  static func fixed3(_ v: Double?) -> String {
    guard let v, v.isFinite else { return "null" }
    return String(format: "%.3f", v)
  }

  /// One decimal, without a minus sign on a value that rounds to zero ("-0.0").
  static func tenths(_ v: Double) -> String {
    let s = String(format: "%.1f", v)
    return s == "-0.0" ? "0.0" : s
  }

  static func number(_ v: Double) -> String {
    guard v.isFinite else { return "null" }
    if v == v.rounded() && abs(v) < 1e15 { return String(Int(v)) }
    return "\(v)"
  }

  static func string(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        // C0, DEL, C1 and bidirectional controls are escaped, so the text stays valid JSON
        // and inert on a terminal.
        if u.value < 0x20 || (0x7F...0x9F).contains(u.value) || (0x202A...0x202E).contains(u.value)
          || (0x2066...0x2069).contains(u.value)
        {
          out += String(format: "\\u%04x", u.value)
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    return out + "\""
  }
}
