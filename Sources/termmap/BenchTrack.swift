import DotRaster
import Foundation
import MapData
import MapGeometry
import TerminalUI

// `termmap bench` scenarios of the track tool (issue 13): loading a 1,000,000-record FIT
// file, and drawing the profile panel's graph of a 1,000,000-point track at 160x48.

extension BenchCommand {
  /// The track tool's scenarios: `fit-load-1M` and `profile-1M-160x48` (100k with --quick).
  func trackScenarios(quick: Bool, frames: Int) throws -> [Result] {
    let records = quick ? 100_000 : 1_000_000
    let label = records >= 1_000_000 ? "1M" : "100k"
    let path = NSTemporaryDirectory() + "termmap-bench-\(getpid()).fit"
    defer { unlink(path) }
    let bytes = try writeBenchFIT(path: path, records: records)
    Memory.resetPeak()
    let baseline = Memory.residentBytes()
    let clock = ContinuousClock()
    let start = clock.now
    let content = try MapContentLoader.load(path: path)
    let loadMs = Self.milliseconds(clock.now - start)
    guard content.pointCount == records else {
      throw UsageError("bench: loaded \(content.pointCount) of \(records) generated records")
    }
    var results = [
      Result(
        name: "fit-load-\(label)", frames: 1, median: loadMs, p95: loadMs,
        peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576,
        note: String(
          format: "%.1f MB file, %.0f MB above the baseline at peak", Double(bytes) / 1e6,
          Double(Memory.peakResidentBytes() - baseline) / 1_048_576))
    ]
    // The profile: prepared once when a track is chosen (distances along it), then drawn
    // every frame at the size the panel gives its graph in a 160x48 terminal.
    let prepareStart = clock.now
    guard let profile = TrackProfile(title: "bench", lines: content.lines),
      let values = profile.values[.elevation], profile.ranges[.elevation] != nil
    else { throw UsageError("bench: the generated track has no elevation profile") }
    let prepareMs = Self.milliseconds(clock.now - prepareStart)
    results.append(
      Result(
        name: "profile-prepare-\(label)", frames: 1, median: prepareMs, p95: prepareMs,
        peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576,
        note: "distances along the track, once per chosen track"))
    let size = ProfileGraph.graphSize(columns: 160, rows: 48)
    var times: [Double] = []
    var inked = 0
    for _ in 0..<frames {
      let t = clock.now
      // What the panel does each frame: the channel's range and its graph.
      guard let range = profile.ranges[.elevation] else { break }
      let cells = ProfileGraph.cells(
        distances: profile.distances, values: values, range: range, columns: size.columns,
        rows: size.rows, color: .brightGreen, fillColor: .green,
        summary: profile.summaries[.elevation])
      times.append(Self.milliseconds(clock.now - t))
      inked =
        cells.lines.joined().unicodeScalars.filter { $0.value > 0x2800 && $0.value <= 0x28FF }.count
    }
    times.sort()
    results.append(
      Result(
        name: "profile-\(label)-160x48", frames: frames, median: times[times.count / 2],
        p95: times[min(times.count - 1, times.count * 95 / 100)],
        peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576,
        note: "graph \(size.columns)x\(size.rows) cells, \(inked) inked"))
    return results
  }
}

/// Writes a FIT activity of `records` record messages (timestamp, position, enhanced altitude
/// and speed, heart rate, cadence, distance: 27 bytes each) on a GPS-like ride from the Alps,
/// 1 s apart; returns the file's size.
func writeBenchFIT(path: String, records: Int) throws -> Int {
  var data: [UInt8] = []
  data.reserveCapacity(records * 27 + 64)
  func le16(_ v: Int) { data += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
  func le32(_ v: UInt32) {
    data += [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
  }
  // Definition of local type 0 as global message 20 (record), little-endian.
  data += [0x40, 0, 0]
  le16(20)
  let fields: [(UInt8, UInt8, UInt8)] = [
    (253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (78, 4, 0x86), (73, 4, 0x86), (3, 1, 0x02),
    (4, 1, 0x02), (5, 4, 0x86),
  ]
  data.append(UInt8(fields.count))
  for f in fields { data += [f.0, f.1, f.2] }
  var rng = SplitMix64(state: 13)
  var lat = 46.0
  var lon = 7.0
  var heading = 0.3
  var ele = 1200.0
  var distance = 0.0
  let start: UInt32 = 1_083_492_000  // 2024-05-01T10:00:00Z in FIT time
  let semicircles = 2_147_483_648.0 / 180
  for k in 0..<records {
    heading += rng.normal() * 0.05
    let speed = 6 + rng.normal() * 0.5
    lat += cos(heading) * speed / 111_320
    lon += sin(heading) * speed / (111_320 * cos(lat * .pi / 180))
    ele += rng.normal() * 0.3
    distance += speed
    data.append(0)
    le32(start + UInt32(k))
    le32(UInt32(bitPattern: Int32((lat * semicircles).rounded())))
    le32(UInt32(bitPattern: Int32((lon * semicircles).rounded())))
    le32(UInt32(((ele + 500) * 5).rounded()))
    le32(UInt32((speed * 1000).rounded()))
    data.append(UInt8(120 + k % 40))
    data.append(UInt8(85 + k % 10))
    le32(UInt32((distance * 100).rounded()))
  }
  var file: [UInt8] = [14, 0x20]
  file += [UInt8(2132 & 0xFF), UInt8(2132 >> 8)]
  let size = UInt32(data.count)
  file += [
    UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24),
  ]
  file += Array(".FIT".utf8)
  file += [0, 0]  // no header CRC
  file += data
  let crc = benchFITCRC(file)
  file += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
  guard FileManager.default.createFile(atPath: path, contents: Data(file)) else {
    throw UsageError("bench: cannot write \(path)")
  }
  return file.count
}

/// The FIT protocol's CRC-16 (as the FIT SDK computes it, a nibble at a time).
func benchFITCRC(_ bytes: [UInt8]) -> UInt16 {
  let table: [UInt16] = [
    0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
    0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
  ]
  var crc: UInt16 = 0
  for b in bytes {
    var tmp = table[Int(crc & 0xF)]
    crc = (crc >> 4) & 0x0FFF
    crc = crc ^ tmp ^ table[Int(b & 0xF)]
    tmp = table[Int(crc & 0xF)]
    crc = (crc >> 4) & 0x0FFF
    crc = crc ^ tmp ^ table[Int((b >> 4) & 0xF)]
  }
  return crc
}
