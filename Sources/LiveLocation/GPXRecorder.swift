import Foundation
import MapGeometry

/// Writes fixes to a GPX 1.1 track as they come, so the file is valid GPX at every moment: the
/// closing tags are written after each point, and the next point is written over them. If the
/// program is killed, the file ends after the last whole point with its closing tags.
public final class GPXRecorder {
  public let path: String
  private let fd: Int32
  /// Where the closing tags start (the next point goes here).
  private var tail: Int
  private static let closing = Array("  </trkseg>\n  </trk>\n</gpx>\n".utf8)
  public private(set) var pointCount = 0
  private var segmentOpen = true

  /// Creates (or replaces) the file and writes the header.
  public init(path: String, name: String = "termmap track", now: Date = Date())
    throws(LocationSourceError)
  {
    self.path = path
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw .cannotOpen(path, errnoText().lowercased()) }
    let header = """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="termmap" xmlns="http://www.topografix.com/GPX/1/1">
        <metadata><time>\(Self.time(now))</time></metadata>
        <trk>
          <name>\(Self.escape(name))</name>
          <trkseg>

      """
    let bytes = Array(header.utf8)
    tail = bytes.count
    guard write(bytes, at: 0), write(Self.closing, at: tail) else {
      close(fd)
      throw .cannotOpen(path, errnoText().lowercased())
    }
  }

  deinit { close(fd) }

  /// Appends a point (and the closing tags after it).
  @discardableResult
  public func append(_ fix: LocationFix) -> Bool {
    var s = String(
      format: "      <trkpt lat=\"%.7f\" lon=\"%.7f\">", fix.coordinate.latitude,
      fix.coordinate.longitude)
    if let a = fix.altitude { s += String(format: "<ele>%.1f</ele>", a) }
    if let t = fix.timestamp { s += "<time>\(Self.time(t))</time>" }
    switch fix.quality {
    case .fix2D: s += "<fix>2d</fix>"
    case .fix3D: s += "<fix>3d</fix>"
    case .dgps: s += "<fix>dgps</fix>"
    default: break
    }
    if let n = fix.satellitesUsed { s += "<sat>\(n)</sat>" }
    if let h = fix.hdop { s += String(format: "<hdop>%.1f</hdop>", h) }
    s += "</trkpt>\n"
    guard put(Array(s.utf8)) else { return false }
    pointCount += 1
    return true
  }

  /// Ends the current segment and starts another (after a gap or a lost fix).
  @discardableResult
  public func newSegment() -> Bool {
    guard pointCount > 0 else { return true }
    return put(Array("    </trkseg>\n    <trkseg>\n".utf8))
  }

  private func put(_ bytes: [UInt8]) -> Bool {
    // The new text and the closing tags in one write: at every moment the file is whole.
    guard write(bytes + Self.closing, at: tail) else { return false }
    tail += bytes.count
    return true
  }

  private func write(_ bytes: [UInt8], at offset: Int) -> Bool {
    var done = 0
    while done < bytes.count {
      let n = bytes.withUnsafeBytes {
        pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done))
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return false }
      done += n
    }
    return true
  }

  static func time(_ d: Date) -> String {
    let t = d.timeIntervalSince1970
    let secs = Int(t.rounded(.down))
    let days = secs >= 0 ? secs / 86400 : (secs - 86399) / 86400
    let rem = secs - days * 86400
    // Civil from days (Howard Hinnant).
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    let ms = Int(((t - Double(secs)) * 1000).rounded(.down))
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02d%@Z", year, month, day, rem / 3600, rem / 60 % 60,
      rem % 60, ms > 0 ? String(format: ".%03d", ms) : "")
  }

  static func escape(_ s: String) -> String {
    SafeText.clean(s).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
      of: "<", with: "&lt;"
    ).replacingOccurrences(of: ">", with: "&gt;")
  }
}
