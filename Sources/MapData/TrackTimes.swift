import Foundation
import MapGeometry

/// How many vertex times were left out of speed and time figures, and why.
public struct TimeScreening: Sendable, Equatable {
  /// Times before 1980-01-01, when no GPS receiver had a clock (a clock never set, a zero, a
  /// 32-bit minimum such as 1901-12-13T20:45:52Z).
  public var beforeGPS = 0
  /// Times earlier than the used time before them on their line (or a lone time ahead of the
  /// ones after it).
  public var outOfOrder = 0
  /// Times that put the vertex more than 1,000 km/h away from the vertex of the used time
  /// before it.
  public var tooFast = 0

  /// Counts of times left out, by reason.
  public init(beforeGPS: Int = 0, outOfOrder: Int = 0, tooFast: Int = 0) {
    self.beforeGPS = beforeGPS
    self.outOfOrder = outOfOrder
    self.tooFast = tooFast
  }

  /// All the times left out.
  public var ignored: Int { beforeGPS + outOfOrder + tooFast }

  /// "184 before 1980", "2 out of order, 1 over 1000 km/h": the reasons, or "" when none.
  public var reasons: String {
    var parts = [String]()
    if beforeGPS > 0 { parts.append("\(beforeGPS) before 1980") }
    if outOfOrder > 0 { parts.append("\(outOfOrder) out of order") }
    if tooFast > 0 { parts.append("\(tooFast) over 1000 km/h") }
    return parts.joined(separator: ", ")
  }

  static func + (a: TimeScreening, b: TimeScreening) -> TimeScreening {
    TimeScreening(
      beforeGPS: a.beforeGPS + b.beforeGPS, outOfOrder: a.outOfOrder + b.outOfOrder,
      tooFast: a.tooFast + b.tooFast)
  }
}

/// Which vertex times are believable, and which speeds are GPS spikes.
public enum TrackTimes {
  /// 1980-01-01T00:00:00Z in seconds since 1970 (GPS time starts on 1980-01-06).
  public static let earliest = 315_532_800.0
  /// 1,000 km/h in metres per second: faster than any airliner's ground speed over land.
  public static let fastest = 1000 / 3.6

  /// The lines with their absurd times replaced by NaN (not used for speed or time), and how
  /// many there were. A time is absurd when it is before 1980, earlier than the last time kept
  /// on its line, or would mean more than 1,000 km/h from the vertex of that time (along the
  /// line: `cumulative` holds each line's `TrackMeasures.cumulativeDistances`). A time that
  /// is later than the next one while the next one follows the last time kept is the one
  /// dropped, so one time in the future does not take every later time with it.
  public static func screen(_ lines: [MeasuredLine], cumulative: [[Double]]) -> (
    lines: [MeasuredLine], screening: TimeScreening
  ) {
    var out = lines
    var total = TimeScreening()
    for (k, line) in lines.enumerated() where k < cumulative.count {
      let n = line.coordinates.count
      guard line.times.count == n, cumulative[k].count == n else { continue }
      let (times, s) = screen(times: line.times, cumulative: cumulative[k])
      if s.ignored > 0 { out[k].times = times }
      total = total + s
    }
    return (out, total)
  }

  /// One line's times (one per vertex, NaN where there is none).
  static func screen(times: [Double], cumulative d: [Double]) -> ([Double], TimeScreening) {
    var out = times
    var s = TimeScreening()
    var last = -1  // the vertex of the last time kept
    let n = times.count
    for k in 0..<n {
      let t = times[k]
      guard !t.isNaN else { continue }
      guard t >= earliest, t.isFinite else {
        s.beforeGPS += 1
        out[k] = .nan
        continue
      }
      if last >= 0 {
        let dt = t - times[last]
        if dt < 0 {
          s.outOfOrder += 1
          out[k] = .nan
          continue
        }
        let distance = d[k] - d[last]
        if distance > 0 && (dt == 0 || distance / dt > fastest) {
          s.tooFast += 1
          out[k] = .nan
          continue
        }
      }
      // A lone time ahead of the next one, which itself follows the last time kept: this
      // one is out of order, not every time after it.
      if k + 1 < n, times[k + 1] >= earliest, times[k + 1] < t,
        last < 0 || times[k + 1] >= times[last]
      {
        s.outOfOrder += 1
        out[k] = .nan
        continue
      }
      last = k
    }
    return (out, s)
  }

  /// The least spread of accelerations the spike test assumes, m/s².
  public static let minimumSpread = 0.5

  /// The largest speed that is not a GPS spike. `speeds[j]` is a speed at `times[j]` (NaN
  /// where unknown), in order along one line. A spike is found as GPXSee finds GPS outliers:
  /// the acceleration between consecutive known speeds, and its modified z-score
  /// (Iglewicz and Hoaglin: 0.6745 × (a − median) / MAD, with 1.2533 × the mean absolute
  /// deviation when the MAD is 0, and at least `minimumSpread`); an acceleration whose score
  /// is above 5 makes the faster of its two speeds a spike. With fewer than 8 accelerations nothing is a spike. Returns nil
  /// when no speed is known.
  public static func maximumWithoutSpikes(speeds: [Double], times: [Double]) -> Double? {
    let spikes = spikeIndices(speeds: speeds, times: times)
    var top = -Double.infinity
    for (j, v) in speeds.enumerated() where v.isFinite && !spikes.contains(j) {
      top = max(top, v)
    }
    return top.isFinite ? top : nil
  }

  /// The indices of `speeds` that are spikes (see `maximumWithoutSpikes`).
  public static func spikeIndices(speeds: [Double], times: [Double]) -> Set<Int> {
    var index = [Int]()
    var accelerations = [Double]()
    var previous = -1
    for j in 0..<min(speeds.count, times.count) where speeds[j].isFinite && times[j].isFinite {
      if previous >= 0 {
        let dt = times[j] - times[previous]
        if dt > 0 {
          accelerations.append((speeds[j] - speeds[previous]) / dt)
          index.append(j)
        }
      }
      previous = j
    }
    guard accelerations.count >= 8 else { return [] }
    let median = Self.median(accelerations)
    var deviations = accelerations.map { abs($0 - median) }
    // z = 0.6745 (a - median) / MAD, or (a - median) / (1.253314 × mean deviation) when
    // more than half the accelerations are the median (MAD 0: a steady speed, standing still).
    var scale = Self.median(deviations) / 0.6745
    if scale == 0 { scale = 1.253314 * deviations.reduce(0, +) / Double(deviations.count) }
    // A smooth (computed, or heavily filtered) track has almost no spread, and then braking
    // would stand out; a receiver's speed wanders by about half a metre per second from one
    // fix to the next, and an acceleration must be 2.5 m/s² from the median to be a spike.
    scale = max(scale, minimumSpread)
    guard scale.isFinite else { return [] }
    deviations.removeAll()
    var spikes = Set<Int>()
    var before = -1
    var k = 0
    for j in 0..<min(speeds.count, times.count) where speeds[j].isFinite && times[j].isFinite {
      if k < index.count, index[k] == j {
        if abs(accelerations[k] - median) / scale > 5, before >= 0 {
          spikes.insert(speeds[j] >= speeds[before] ? j : before)
        }
        k += 1
      }
      before = j
    }
    return spikes
  }

  private static func median(_ values: [Double]) -> Double {
    var v = values
    v.sort()
    let m = v.count / 2
    return v.count % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2
  }
}
