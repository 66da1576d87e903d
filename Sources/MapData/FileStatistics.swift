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
///   ascent and descent add up the rises and falls between consecutive vertices that both have
///   an elevation, unsmoothed; either is nil when its sum overflows (elevations near ±1e308).
///   No property is ever infinite or NaN. `timeSpan` is the earliest and latest time of a line vertex.
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
  /// The reader's warnings, one line each.
  public var warnings: [String]

  /// The figures of loaded content.
  public init(_ content: MapContent) {
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
    length = Self.totalLength(content.lines)

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
    // Pieces of about 64k segments, each measured on its own, then added in order.
    var pieces: [(line: Int, from: Int, to: Int)] = []
    for (k, line) in lines.enumerated() where line.coordinates.count > 1 {
      var from = 0
      let last = line.coordinates.count - 1
      while from < last {
        let to = min(from + 65_536, last)
        pieces.append((k, from, to))
        from = to
      }
    }
    if pieces.isEmpty { return 0 }
    let sums = UnsafeMutableBufferPointer<Double>.allocate(capacity: pieces.count)
    defer { sums.deallocate() }
    let results = SendableBuffer(sums)
    let work = pieces
    DispatchQueue.concurrentPerform(iterations: work.count) { k in
      let piece = work[k]
      results.buffer[k] = Geodesic.length(of: lines[piece.line].coordinates[piece.from...piece.to])
    }
    var total = 0.0
    var compensation = 0.0
    for d in sums {
      let t = total + d
      compensation += abs(total) >= abs(d) ? (total - t) + d : (d - t) + total
      total = t
    }
    return total + compensation
  }
}

/// A buffer written by parallel workers, each at its own index.
private struct SendableBuffer: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<Double>
  init(_ buffer: UnsafeMutableBufferPointer<Double>) { self.buffer = buffer }
}
