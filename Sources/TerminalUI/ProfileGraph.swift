import DotRaster
import Foundation
import MapData
import MapGeometry

/// What a profile plots against distance.
public enum ProfileChannel: String, CaseIterable, Sendable {
  case elevation, speed, heartRate, cadence

  public var name: String {
    switch self {
    case .elevation: "elevation"
    case .speed: "speed"
    case .heartRate: "heart rate"
    case .cadence: "cadence"
    }
  }

  /// The unit of the values as shown (speed is stored in m/s and shown in km/h).
  public var unit: String {
    switch self {
    case .elevation: "m"
    case .speed: "km/h"
    case .heartRate: "bpm"
    case .cadence: "rpm"
    }
  }

  /// The shown value of a stored one.
  public func shown(_ v: Double) -> Double { self == .speed ? v * 3.6 : v }
}

/// The vertices of one track (its segments one after another) with the distance from the start
/// to each and the values of each channel: what the profile panel plots.
public struct TrackProfile: Sendable {
  public var title: String
  public var coordinates: [Coordinate] = []
  /// Metres from the start along the track; a gap between segments adds nothing.
  public var distances: [Double] = []
  public var values: [ProfileChannel: [Double]] = [:]
  /// The track's lines as read, with absurd times removed (`TrackTimes.screen`), for its
  /// statistics and the cursor's clock.
  public var lines: [MeasuredLine]
  /// The times left out, by reason.
  public var timeScreening = TimeScreening()

  /// The profile of `lines` (the segments of one track), or nil when they have no vertices.
  /// Times that are absurd are not used; speeds that are GPS spikes are not drawn.
  public init?(title: String, lines read: [MeasuredLine]) {
    self.title = title
    let total = read.reduce(0) { $0 + $1.coordinates.count }
    guard total > 0 else { return nil }
    lineDistances = read.map { TrackMeasures.cumulativeDistances($0.coordinates) }
    (lines, timeScreening) = TrackTimes.screen(read, cumulative: lineDistances)
    coordinates.reserveCapacity(total)
    distances.reserveCapacity(total)
    var offset = 0.0
    var elevation: [Double] = []
    var speed: [Double] = []
    var heart: [Double] = []
    var cadence: [Double] = []
    var anyElevation = false
    var anySpeed = false
    var anyHeart = false
    var anyCadence = false
    for (line, d) in zip(lines, lineDistances) {
      if line.coordinates.isEmpty { continue }
      for x in d { distances.append(offset + x) }
      offset += d.last ?? 0
      coordinates += line.coordinates
      let n = line.coordinates.count
      func add(_ from: [Double], _ to: inout [Double], _ any: inout Bool) {
        if from.count == n {
          to += from
          if !any { any = from.contains { $0.isFinite } }
        } else {
          to += repeatElement(.nan, count: n)
        }
      }
      add(line.elevations, &elevation, &anyElevation)
      add(line.heartRates, &heart, &anyHeart)
      add(line.cadences, &cadence, &anyCadence)
      if line.speeds.count == n {
        var recorded = line.speeds
        if line.times.count == n {
          for j in TrackTimes.spikeIndices(speeds: recorded, times: line.times) {
            recorded[j] = .nan
          }
        }
        add(recorded, &speed, &anySpeed)
      } else if line.times.count == n {
        // No recorded speed: the speed from each vertex to the next (the last repeats),
        // without GPS spikes.
        var derived = [Double](repeating: .nan, count: n)
        for k in 0..<(n - 1) {
          let dt = line.times[k + 1] - line.times[k]
          if dt > 0 { derived[k] = (d[k + 1] - d[k]) / dt }
        }
        if n > 1 {
          let spikes = TrackTimes.spikeIndices(
            speeds: Array(derived[0..<(n - 1)]), times: Array(line.times.dropFirst()))
          for j in spikes { derived[j] = .nan }
          derived[n - 1] = derived[n - 2]
        }
        add(derived, &speed, &anySpeed)
      } else {
        speed += repeatElement(.nan, count: n)
      }
    }
    if anyElevation { values[.elevation] = elevation }
    if anySpeed { values[.speed] = speed }
    if anyHeart { values[.heartRate] = heart }
    if anyCadence { values[.cadence] = cadence }
    for (channel, v) in values { ranges[channel] = ProfileGraph.range(v) }
    if distances.count > ProfileSummary.bins * 2, let total = distances.last, total > 0 {
      for (channel, v) in values {
        summaries[channel] = ProfileSummary(distances: distances, values: v, total: total)
      }
    }
  }

  /// The range each channel's graph spans (`ProfileGraph.range`), worked out once.
  public var ranges: [ProfileChannel: ClosedRange<Double>] = [:]

  /// Long tracks' values binned by distance, so a frame draws from a few thousand bins.
  public var summaries: [ProfileChannel: ProfileSummary] = [:]

  public var length: Double { distances.last ?? 0 }

  /// The distances along each line from its own start (as `TrackMeasures.cumulativeDistances`).
  public var lineDistances: [[Double]] = []

  /// What `termmap info` says about these lines, from the distances already measured.
  public func statistics(path: String) -> FileStatistics {
    var content = MapContent(
      path: path, overlays: [], annotations: [], pointCount: coordinates.count)
    content.lines = lines
    return FileStatistics(
      content, measures: TrackMeasures.measure(lines, cumulative: lineDistances),
      timeScreening: timeScreening)
  }

  /// The channels this track has, in the order `v` cycles through them.
  public var channels: [ProfileChannel] { ProfileChannel.allCases.filter { values[$0] != nil } }

  /// The index of the vertex nearest a distance along the track.
  public func index(atDistance d: Double) -> Int {
    guard !distances.isEmpty else { return 0 }
    var lo = 0
    var hi = distances.count - 1
    while lo < hi {
      let mid = (lo + hi) / 2
      if distances[mid] < d { lo = mid + 1 } else { hi = mid }
    }
    if lo > 0 && abs(distances[lo - 1] - d) <= abs(distances[lo] - d) { return lo - 1 }
    return lo
  }
}

/// The lowest and highest value in each of `bins` equal stretches of a track's distance:
/// what a graph narrower than the bins needs (each dot column takes the bins whose middle falls
/// in it, so a column's extremes are off by at most half a bin, 1/8192 of the track).
public struct ProfileSummary: Sendable {
  public static let bins = 8192
  public var low: [Double]
  public var high: [Double]
  public var total: Double

  public init(distances: [Double], values: [Double], total: Double) {
    self.total = total
    low = [Double](repeating: .infinity, count: Self.bins)
    high = [Double](repeating: -.infinity, count: Self.bins)
    let scale = Double(Self.bins) / total
    for k in 0..<min(values.count, distances.count) {
      let v = values[k]
      guard v.isFinite else { continue }
      let b = min(Int(distances[k] * scale), Self.bins - 1)
      if v < low[b] { low[b] = v }
      if v > high[b] { high[b] = v }
    }
  }
}

/// Draws a profile as braille dots: for each dot column the lowest and highest value of the
/// vertices whose distance falls in it, joined to the next column, with the area under the
/// line lightly dotted. One pass over the vertices, so a 1,000,000-point track draws in a few
/// milliseconds.
public enum ProfileGraph {
  /// The panel's rows in a terminal of `rows` rows: a third, 7 to 16 (0 when the map would
  /// keep fewer than 3 rows).
  public static func panelRows(terminalRows rows: Int) -> Int {
    let panel = min(max(rows / 3, 7), 16)
    return rows - 1 - panel >= 3 ? panel : 0
  }

  /// The width of the statistics beside the graph, and of the value axis before it.
  public static func statsWidth(columns: Int) -> Int { min(34, columns / 3) }
  public static let axisWidth = 8

  /// The graph's size in cells inside the panel of a terminal this size.
  public static func graphSize(columns: Int, rows: Int) -> (columns: Int, rows: Int) {
    (columns - axisWidth - statsWidth(columns: columns) - 2, panelRows(terminalRows: rows) - 2)
  }

  /// The value range drawn for a channel: its finite minimum and maximum (a flat line gets a
  /// range of one unit around it); nil when there is no value.
  public static func range(_ values: [Double]) -> ClosedRange<Double>? {
    var low = Double.infinity
    var high = -Double.infinity
    for v in values where v.isFinite {
      if v < low { low = v }
      if v > high { high = v }
    }
    guard low <= high else { return nil }
    if high - low < 1e-9 { return (low - 0.5)...(high + 0.5) }
    return low...high
  }

  /// Braille cells of the graph of `values` against `distances` (`columns` × `rows` cells).
  public static func cells(
    distances: [Double], values: [Double], range: ClosedRange<Double>, columns: Int, rows: Int,
    color: TermColor, fillColor: TermColor, summary: ProfileSummary? = nil
  ) -> CellBuffer {
    var out = CellBuffer(columns: columns, rows: rows)
    let width = columns * CellGeometry.dotsWide
    let height = rows * CellGeometry.dotsHigh
    guard width > 0, height > 0, let total = distances.last, total > 0,
      values.count == distances.count
    else { return out }
    var low = [Int](repeating: Int.max, count: width)
    var high = [Int](repeating: Int.min, count: width)
    let xScale = Double(width) / total
    let span = range.upperBound - range.lowerBound
    let yScale = Double(height - 1) / span
    let top = range.upperBound
    if let summary, width * 2 <= ProfileSummary.bins {
      // A bin's middle decides its column.
      let binWidth = summary.total / Double(ProfileSummary.bins)
      for b in 0..<ProfileSummary.bins where summary.low[b] <= summary.high[b] {
        let x = min(Int((Double(b) + 0.5) * binWidth * xScale), width - 1)
        let y0 = min(max(Int(((top - summary.high[b]) * yScale).rounded()), 0), height - 1)
        let y1 = min(max(Int(((top - summary.low[b]) * yScale).rounded()), 0), height - 1)
        if y0 < low[x] { low[x] = y0 }
        if y1 > high[x] { high[x] = y1 }
      }
    } else {
      values.withUnsafeBufferPointer { v in
        distances.withUnsafeBufferPointer { d in
          for k in 0..<v.count {
            let value = v[k]
            guard value.isFinite else { continue }
            let x = min(Int(d[k] * xScale), width - 1)
            let y = min(max(Int(((top - value) * yScale).rounded()), 0), height - 1)
            if y < low[x] { low[x] = y }
            if y > high[x] { high[x] = y }
          }
        }
      }
    }
    var line = [UInt8](repeating: 0, count: columns * rows)
    var fill = [UInt8](repeating: 0, count: columns * rows)
    func set(_ bits: inout [UInt8], _ x: Int, _ y: Int) {
      bits[(y / CellGeometry.dotsHigh) * columns + x / CellGeometry.dotsWide] |=
        CellGeometry.brailleBit(dx: x % CellGeometry.dotsWide, dy: y % CellGeometry.dotsHigh)
    }
    var previous: (low: Int, high: Int)?
    for x in 0..<width {
      guard low[x] != Int.max else { continue }
      var a = low[x]
      var b = high[x]
      // Join to the previous column so steep climbs stay one line.
      if let p = previous {
        a = min(a, p.high)
        b = max(b, p.low)
      }
      for y in a...b { set(&line, x, y) }
      // The area under the line: every other dot column, every fourth dot row.
      if x % 2 == 0 {
        var y = high[x] + 2
        while y < height {
          if y % 4 == 3 { set(&fill, x, y) }
          y += 1
        }
      }
      previous = (low[x], high[x])
    }
    for r in 0..<rows {
      for c in 0..<columns {
        let l = line[r * columns + c]
        let f = fill[r * columns + c]
        if l != 0 {
          out[c, r] = Cell(glyph: Unicode.Scalar(0x2800 + UInt32(l | f))!, foreground: color)
        } else if f != 0 {
          out[c, r] = Cell(glyph: Unicode.Scalar(0x2800 + UInt32(f))!, foreground: fillColor)
        }
      }
    }
    return out
  }
}
