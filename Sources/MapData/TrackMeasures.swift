import Foundation
import MapGeometry

/// The smallest, largest and mean value of a sensor channel (heart rate, cadence, speed).
public struct ChannelSummary: Sendable, Equatable {
  /// The smallest finite value.
  public var minimum: Double
  /// The largest finite value.
  public var maximum: Double
  /// The mean of the finite values.
  public var mean: Double

  /// A summary of the given figures.
  public init(minimum: Double, maximum: Double, mean: Double) {
    self.minimum = minimum
    self.maximum = maximum
    self.mean = mean
  }

  /// The summary of the finite values of `channels`; nil when there are none.
  public static func of(_ channels: [[Double]]) -> ChannelSummary? {
    var low = Double.infinity
    var high = -Double.infinity
    var sum = 0.0
    var count = 0
    for values in channels {
      for v in values where v.isFinite {
        low = min(low, v)
        high = max(high, v)
        sum += v
        count += 1
      }
    }
    guard count > 0, sum.isFinite else { return nil }
    return ChannelSummary(minimum: low, maximum: high, mean: sum / Double(count))
  }
}

/// Length and motion of lines measured in one pass: the geodesic length, and, where
/// consecutive vertices both have a time, the moving time (intervals in which the speed
/// between the two vertices is at least `movingThreshold`), the distance covered in them and
/// the largest such speed. Long lines are measured in pieces on all cores.
public enum TrackMeasures {
  /// 0.5 m/s (1.8 km/h): slower than that counts as standing.
  public static let movingThreshold = 0.5

  /// What `measure` finds.
  public struct Result: Sendable {
    /// The geodesic length in metres, each line on its own.
    public var length = 0.0
    /// Seconds between consecutive timed vertices at moving speed.
    public var movingTime = 0.0
    /// Metres covered in those intervals.
    public var movingDistance = 0.0
    /// The largest speed between two consecutive timed vertices, metres per second.
    public var maxSpeed = 0.0
    /// The largest such speed that is not a GPS spike (`TrackTimes.maximumWithoutSpikes`,
    /// line by line); only `measure(_:cumulative:)` sets it, else it is `maxSpeed`.
    public var maxSpeedWithoutSpikes: Double?
    /// Whether any pair of consecutive vertices had two times.
    public var timed = false
  }

  /// Measures lines with a geodesic per leg, long lines in pieces on all cores.
  public static func measure(_ lines: [MeasuredLine]) -> Result {
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
    var result = Result()
    if pieces.isEmpty { return result }
    let sums = UnsafeMutableBufferPointer<Result>.allocate(capacity: pieces.count)
    sums.initialize(repeating: Result())
    defer { sums.deallocate() }
    let out = ResultBuffer(sums)
    let work = pieces
    DispatchQueue.concurrentPerform(iterations: work.count) { k in
      let piece = work[k]
      out.buffer[k] = measure(lines[piece.line], piece.from, piece.to)
    }
    var compensation = 0.0
    for r in sums {
      let t = result.length + r.length
      compensation +=
        abs(result.length) >= abs(r.length)
        ? (result.length - t) + r.length : (r.length - t) + result.length
      result.length = t
      result.movingTime += r.movingTime
      result.movingDistance += r.movingDistance
      result.maxSpeed = max(result.maxSpeed, r.maxSpeed)
      result.timed = result.timed || r.timed
    }
    result.length += compensation
    return result
  }

  /// One piece, vertices `from...to` of a line; the length summed as `Geodesic.length` does.
  static func measure(_ line: MeasuredLine, _ from: Int, _ to: Int) -> Result {
    var r = Result()
    let c = line.coordinates
    let times = line.times
    let timed = times.count == c.count
    var sum = 0.0
    var compensation = 0.0
    var k = from
    while k < to {
      let d = Geodesic.distance(c[k], c[k + 1])
      let t = sum + d
      compensation += abs(sum) >= abs(d) ? (sum - t) + d : (d - t) + sum
      sum = t
      if timed {
        let dt = times[k + 1] - times[k]
        if dt > 0 {
          r.timed = true
          let v = d / dt
          if v >= movingThreshold && v.isFinite {
            r.movingTime += dt
            r.movingDistance += d
            r.maxSpeed = max(r.maxSpeed, v)
          }
        }
      }
      k += 1
    }
    r.length = sum + compensation
    return r
  }

  /// The measures of lines whose cumulative distances (`cumulativeDistances`, one array per
  /// line) are known: no geodesic is computed again.
  public static func measure(_ lines: [MeasuredLine], cumulative: [[Double]]) -> Result {
    var r = Result()
    var compensation = 0.0
    for (line, d) in zip(lines, cumulative) where d.count == line.coordinates.count && d.count > 1 {
      let length = d[d.count - 1]
      let t = r.length + length
      compensation +=
        abs(r.length) >= abs(length) ? (r.length - t) + length : (length - t) + r.length
      r.length = t
      guard line.times.count == d.count else { continue }
      var speeds = [Double](repeating: .nan, count: d.count - 1)
      for k in 0..<(d.count - 1) {
        let dt = line.times[k + 1] - line.times[k]
        guard dt > 0 else { continue }
        r.timed = true
        let step = d[k + 1] - d[k]
        let v = step / dt
        speeds[k] = v
        if v >= movingThreshold && v.isFinite {
          r.movingTime += dt
          r.movingDistance += step
          r.maxSpeed = max(r.maxSpeed, v)
        }
      }
      // Each leg's speed at the time it ends.
      if let top = TrackTimes.maximumWithoutSpikes(
        speeds: speeds, times: Array(line.times.dropFirst()))
      {
        r.maxSpeedWithoutSpikes = max(
          r.maxSpeedWithoutSpikes ?? 0, top >= movingThreshold ? top : 0)
      }
    }
    r.length += compensation
    return r
  }

  /// The distance from the start of the line to each vertex, in metres (0 for the first).
  public static func cumulativeDistances(_ coordinates: [Coordinate]) -> [Double] {
    var out = [Double](repeating: 0, count: coordinates.count)
    guard coordinates.count > 1 else { return out }
    let n = coordinates.count - 1
    let pieces = max(1, min(64, n / 16_384))
    let step = (n + pieces - 1) / pieces
    out.withUnsafeMutableBufferPointer { b in
      let buffer = ResultBuffer(b)
      DispatchQueue.concurrentPerform(iterations: pieces) { p in
        let from = p * step
        let to = min(from + step, n)
        var k = from
        while k < to {
          buffer.buffer[k + 1] = Geodesic.distance(coordinates[k], coordinates[k + 1])
          k += 1
        }
      }
    }
    var sum = 0.0
    var compensation = 0.0
    for k in 1...n {
      let d = out[k]
      let t = sum + d
      compensation += abs(sum) >= abs(d) ? (sum - t) + d : (d - t) + sum
      sum = t
      out[k] = sum + compensation
    }
    return out
  }
}

/// A buffer written by parallel workers, each at its own indices (no two workers share one),
/// and read only after `concurrentPerform` has returned: no access overlaps.
private struct ResultBuffer<T>: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<T>
  init(_ buffer: UnsafeMutableBufferPointer<T>) { self.buffer = buffer }
}
