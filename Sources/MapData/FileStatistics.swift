import Foundation
import MapGeometry
import TermMapKit

/// Counts and measures of one loaded file, as `termmap info` shows them.
///
/// - `points` counts the vertices of lines and polygon rings (track and route points for
///   GPX); waypoints and other markers are counted apart, in `waypoints` and `annotations`.
/// - `polylines` counts single lines, including those inside multi-polylines (one per drawn
///   track segment); `polygons` counts polygons (outer rings), including those inside
///   multi-polygons.
/// - `length` sums the WGS84 geodesic length of every line (track segments, routes, line
///   strings), each on its own: never across the gap between two segments. Polygon outlines
///   are not lines and are not included.
/// - `elevationRange`, `ascent` and `descent` come from the elevations of line vertices;
///   ascent and descent add up the rises and falls from each vertex with an elevation to the
///   next vertex of the line that has one (vertices without one are bridged), unsmoothed; either is nil when its sum overflows (elevations near ±1e308).
///   No property is ever infinite or NaN. `timeSpan` is the earliest and latest time of a line vertex.
/// - Times that are absurd (before 1980, out of order, or more than 1,000 km/h from the vertex
///   before) are not used for the time span, the moving time or speeds; `timeScreening` counts
///   them by reason (`TrackTimes.screen`). GPS spikes are left out of the maximum speed
///   (`TrackTimes.maximumWithoutSpikes`).
public struct FileStatistics: Sendable {
  /// The file.
  public var path: String
  /// The format it was read as.
  public var format: DataFormat
  /// GPX tracks and KML tracks.
  public var tracks: Int
  /// Track segments.
  public var segments: Int
  /// Routes.
  public var routes: Int
  /// Waypoints.
  public var waypoints: Int
  /// Vertices of all lines and rings.
  public var points: Int
  /// Overlays drawn as lines.
  public var polylines: Int
  /// Overlays drawn as polygons.
  public var polygons: Int
  /// Annotations (named points).
  public var annotations: Int
  /// The box around every coordinate; nil when the file has none.
  public var bounds: CoordinateBounds?
  /// Metres.
  public var length: Double
  /// Metres; nil when no line vertex has an elevation.
  public var elevationRange: ClosedRange<Double>?
  /// Metres climbed along lines; nil without elevations (or when the sum overflows).
  public var ascent: Double?
  /// Metres descended along lines; nil without elevations (or when the sum overflows).
  public var descent: Double?
  /// Seconds since 1970; nil when no line vertex has a time.
  public var timeSpan: ClosedRange<Double>?
  /// Seconds spent moving (at least `TrackMeasures.movingThreshold` between consecutive timed
  /// vertices); nil when no two consecutive vertices have times.
  public var movingTime: Double?
  /// Metres per second: the distance covered while moving over the moving time.
  public var movingSpeed: Double?
  /// Metres per second: the largest recorded speed, or else the largest between two timed
  /// vertices, unsmoothed but without GPS spikes.
  public var maxSpeed: Double?
  /// Vertex times not used, by reason.
  public var timeScreening = TimeScreening()
  /// Heart rate of line vertices in beats per minute (TCX, FIT, GPX extensions).
  public var heartRate: ChannelSummary?
  /// Cadence of line vertices in revolutions or steps per minute.
  public var cadence: ChannelSummary?
  /// Speed of line vertices as the device recorded it, metres per second.
  public var recordedSpeed: ChannelSummary?
  /// The reader's warnings, one line each.
  public var warnings: [String]

  /// The figures of loaded content.
  public init(_ content: MapContent) {
    let timed = content.lines.contains {
      $0.coordinates.count > 1 && $0.times.count == $0.coordinates.count
    }
    guard timed else {
      self.init(content, measures: TrackMeasures.measure(content.lines))
      return
    }
    // Times are screened with the distances along each line, which then give the measures.
    let cumulative = content.lines.map { TrackMeasures.cumulativeDistances($0.coordinates) }
    let (lines, screening) = TrackTimes.screen(content.lines, cumulative: cumulative)
    var screened = content
    screened.lines = lines
    self.init(
      screened, measures: TrackMeasures.measure(lines, cumulative: cumulative),
      timeScreening: screening)
  }

  /// The statistics with the lines' length and motion already measured (the profile panel
  /// has the distances along its track and does not measure them twice). The lines' times
  /// are taken as they are: screened already (`TrackTimes.screen`), with `timeScreening` what
  /// the screening found.
  public init(
    _ content: MapContent, measures: TrackMeasures.Result,
    timeScreening: TimeScreening = TimeScreening()
  ) {
    self.timeScreening = timeScreening
    path = content.path
    format = content.format
    tracks = content.tracks
    segments = content.segments
    routes = content.routes
    waypoints = content.waypoints
    points = content.pointCount
    annotations = content.annotations.count
    bounds = content.bounds
    warnings = content.warnings
    var lineCount = 0
    var polygonCount = 0
    for o in content.overlays {
      switch o {
      case let m as MultiPolyline: lineCount += m.polylines.count
      case let m as MultiPolygon: polygonCount += m.polygons.count
      case is Polygon: polygonCount += 1
      case is Polyline, is GeodesicPolyline: lineCount += 1
      default: break
      }
    }
    polylines = lineCount
    polygons = polygonCount
    length = measures.length
    heartRate = ChannelSummary.of(content.lines.map(\.heartRates))
    cadence = ChannelSummary.of(content.lines.map(\.cadences))
    recordedSpeed = ChannelSummary.of(content.lines.map(\.speeds))
    // The largest recorded speed without spikes (where the line has times to tell them).
    var recordedTop: Double?
    if recordedSpeed != nil {
      for line in content.lines where !line.speeds.isEmpty {
        let top =
          line.times.count == line.speeds.count
          ? TrackTimes.maximumWithoutSpikes(speeds: line.speeds, times: line.times)
          : ChannelSummary.of([line.speeds])?.maximum
        if let top { recordedTop = max(recordedTop ?? top, top) }
      }
    }
    if measures.timed {
      movingTime = measures.movingTime
      movingSpeed = measures.movingTime > 0 ? measures.movingDistance / measures.movingTime : 0
      maxSpeed = recordedTop ?? measures.maxSpeedWithoutSpikes ?? measures.maxSpeed
    } else if let recordedTop {
      maxSpeed = recordedTop
    }

    var low = Double.infinity
    var high = -Double.infinity
    var up = 0.0
    var down = 0.0
    var first = Double.infinity
    var last = -Double.infinity
    for line in content.lines {
      var previous = Double.nan
      for e in line.elevations where !e.isNaN {
        low = min(low, e)
        high = max(high, e)
        if !previous.isNaN {
          let d = e - previous
          if d > 0 { up += d } else { down -= d }
        }
        previous = e
      }
      for t in line.times where !t.isNaN {
        first = min(first, t)
        last = max(last, t)
      }
    }
    if low <= high {
      elevationRange = low...high
      // Elevations near ±Double.greatestFiniteMagnitude make the sums overflow: an infinite
      // total is no measure, so it is left out (nil) rather than reported as infinity.
      ascent = up.isFinite ? up : nil
      descent = down.isFinite ? down : nil
    }
    if first <= last { timeSpan = first...last }
  }

  /// The geodesic length of every line, summed; long lines are measured on all cores.
  static func totalLength(_ lines: [MeasuredLine]) -> Double {
    TrackMeasures.measure(lines).length
  }
}
