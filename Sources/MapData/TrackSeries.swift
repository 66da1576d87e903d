import MapGeometry

/// The vertices of one line as a track reader collects them: position, elevation, time and the
/// sensor channels, NaN where a vertex lacks a value (TCX, FIT, IGC and GPX extensions).
struct TrackSeries {
  var coordinates: [Coordinate] = []
  var elevations: [Double] = []
  var times: [Double] = []
  var speeds: [Double] = []
  var heartRates: [Double] = []
  var cadences: [Double] = []
  private var any: UInt8 = 0

  var isEmpty: Bool { coordinates.isEmpty }
  var count: Int { coordinates.count }

  mutating func reserve(_ n: Int) {
    coordinates.reserveCapacity(n)
    elevations.reserveCapacity(n)
    times.reserveCapacity(n)
  }

  mutating func append(
    _ c: Coordinate, elevation: Double = .nan, time: Double = .nan, speed: Double = .nan,
    heartRate: Double = .nan, cadence: Double = .nan
  ) {
    coordinates.append(c)
    elevations.append(elevation)
    times.append(time)
    // The sensor channels are filled lazily: most lines have none.
    let n = coordinates.count
    if !speed.isNaN || any & 4 != 0 { Self.fill(&speeds, speed, 4, &any, n) }
    if !heartRate.isNaN || any & 8 != 0 { Self.fill(&heartRates, heartRate, 8, &any, n) }
    if !cadence.isNaN || any & 16 != 0 { Self.fill(&cadences, cadence, 16, &any, n) }
    if !elevation.isNaN { any |= 1 }
    if !time.isNaN { any |= 2 }
  }

  private static func fill(
    _ channel: inout [Double], _ value: Double, _ bit: UInt8, _ any: inout UInt8, _ count: Int
  ) {
    if any & bit == 0 {
      any |= bit
      channel.append(contentsOf: repeatElement(.nan, count: count - 1))
    }
    channel.append(value)
  }

  /// The line, with channels that hold no value left empty.
  func measured(kind: MeasuredLine.Kind, title: String? = nil) -> MeasuredLine {
    var line = MeasuredLine(
      kind: kind, coordinates: coordinates, elevations: any & 1 != 0 ? elevations : [],
      times: any & 2 != 0 ? times : [], title: title)
    line.speeds = speeds
    line.heartRates = heartRates
    line.cadences = cadences
    return line
  }
}
