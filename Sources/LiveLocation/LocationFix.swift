import Foundation
import MapGeometry

/// How good a fix is: NMEA's GGA quality indicator and gpsd's `mode`/`status` in one value.
public enum FixQuality: String, Sendable, Equatable {
  /// No position (GGA quality 0, RMC status V, gpsd mode 1).
  case none = "no fix"
  /// A two-dimensional fix (no altitude: GSA mode 2, gpsd mode 2).
  case fix2D = "2D fix"
  /// A three-dimensional fix (GSA mode 3, gpsd mode 3).
  case fix3D = "3D fix"
  /// Differential GPS (GGA quality 2, gpsd status 2).
  case dgps = "DGPS"
  /// RTK, fixed or float (GGA quality 4 or 5).
  case rtk = "RTK"
  /// Dead reckoning (GGA quality 6, RMC mode E).
  case estimated = "estimated"
  /// Manual input or a simulator (GGA quality 7 or 8).
  case simulated = "simulated"
}

/// One position report from a location source (CLLocation's role), in the units MapKit uses:
/// metres, metres per second, degrees clockwise from true north.
public struct LocationFix: Sendable, Equatable {
  public var coordinate: Coordinate
  /// Metres above mean sea level.
  public var altitude: Double?
  /// The radius of uncertainty of the position, in metres.
  public var horizontalAccuracy: Double?
  /// Degrees clockwise from true north, 0..<360.
  public var course: Double?
  /// Metres per second over ground.
  public var speed: Double?
  /// When the receiver took the fix (UTC), if it said.
  public var timestamp: Date?
  public var quality: FixQuality
  /// Satellites used in the solution, and in view (when the source says).
  public var satellitesUsed: Int?
  public var satellitesInView: Int?
  /// Horizontal dilution of precision.
  public var hdop: Double?

  public init(
    coordinate: Coordinate, altitude: Double? = nil, horizontalAccuracy: Double? = nil,
    course: Double? = nil, speed: Double? = nil, timestamp: Date? = nil,
    quality: FixQuality = .fix3D, satellitesUsed: Int? = nil, satellitesInView: Int? = nil,
    hdop: Double? = nil
  ) {
    self.coordinate = coordinate
    self.altitude = altitude
    self.horizontalAccuracy = horizontalAccuracy
    self.course = course
    self.speed = speed
    self.timestamp = timestamp
    self.quality = quality
    self.satellitesUsed = satellitesUsed
    self.satellitesInView = satellitesInView
    self.hdop = hdop
  }

  /// The user equivalent range error assumed when only HDOP is known (metres): horizontal
  /// accuracy is HDOP × this, as gpsd estimates it for NMEA receivers without GST.
  public static let rangeError = 5.0
}

/// What a location source reports.
public enum LocationEvent: Sendable, Equatable {
  /// A new position.
  case fix(LocationFix)
  /// The receiver talks but has no position (satellites counted when known).
  case noFix(satellitesInView: Int?)
  /// The source failed (gone, refused, unreadable); it may come back.
  case failed(String)
  /// A file being followed was truncated or replaced: what follows is a new track.
  case restarted(String)
  /// A finite source (a file read once, standard input) has ended.
  case ended
}

/// Counts a source keeps: what was read and what was skipped.
public struct SourceStatistics: Sendable, Equatable {
  /// Sentences, lines or reports understood.
  public var accepted = 0
  /// Malformed input skipped (bad checksum, bad field, noise).
  public var malformed = 0
  /// Fixes delivered.
  public var fixes = 0
  /// The latest problem, e.g. `log.nmea:12: bad checksum` (sanitised).
  public var lastProblem: String?
  public init() {}
}

/// A source of positions (CLLocationManager's role): it reads on its own thread and hands
/// every event to the handler given to `start`, on that thread.
public protocol LocationProvider: AnyObject, Sendable {
  /// What the source is, for the status line ("gpsd 127.0.0.1:2947", "/dev/ttyUSB0").
  var name: String { get }
  /// Starts reading; `handler` is called from the provider's thread.
  func start(_ handler: @escaping @Sendable (LocationEvent) -> Void)
  /// Stops reading and closes the source; no event follows once this returns.
  func stop()
  /// What has been read and skipped so far.
  var statistics: SourceStatistics { get }
}
