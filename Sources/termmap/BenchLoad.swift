import Foundation
import MapData
import MapGeometry

/// What loading a generated GPX file cost.
struct LoadBenchResult {
  /// Track points in the file.
  var points: Int
  var fileBytes: Int
  /// Wall-clock seconds of `MapContentLoader.load` (reading, parsing, building overlays).
  var seconds: Double
  /// Resident memory just before the load, in bytes.
  var baselineRSSBytes: Int
  /// The highest resident memory during the load (VmHWM after a reset), in bytes.
  var peakRSSBytes: Int
}

/// Writes a GPX 1.1 file with one track of `points` track points (each with `<ele>` and
/// `<time>`, as GPS loggers write them) to a temporary file, loads it with
/// `MapContentLoader.load(path:)`, deletes it and returns the load time and peak memory.
func benchLoadGPX(points: Int = 1_000_000) throws -> LoadBenchResult {
  let path = NSTemporaryDirectory() + "termmap-bench-\(getpid()).gpx"
  defer { unlink(path) }
  let fileBytes = try writeBenchGPX(path: path, points: points)
  Memory.resetPeak()
  let baseline = Memory.residentBytes()
  let start = DispatchTime.now().uptimeNanoseconds
  let content = try MapContentLoader.load(path: path)
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  let peak = Memory.peakResidentBytes()
  guard content.pointCount == points else {
    throw UsageError("bench: loaded \(content.pointCount) of \(points) generated points")
  }
  return LoadBenchResult(
    points: points, fileBytes: fileBytes, seconds: seconds, baselineRSSBytes: baseline,
    peakRSSBytes: peak)
}

/// Writes the bench GPX: a GPS-like walk (a point every ~3 m) from the Alps, 1 s apart.
/// Returns the file's size in bytes.
func writeBenchGPX(path: String, points: Int) throws -> Int {
  guard
    let out = FileHandle(forWritingAtPath: path)
      ?? {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        return FileHandle(forWritingAtPath: path)
      }()
  else { throw UsageError("bench: cannot write \(path)") }
  defer { try? out.close() }
  try out.truncate(atOffset: 0)
  var chunk = ""
  chunk.reserveCapacity(1 << 20)
  var written = 0
  func flush() throws {
    let data = Data(chunk.utf8)
    written += data.count
    try out.write(contentsOf: data)
    chunk.removeAll(keepingCapacity: true)
  }
  chunk += """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="termmap bench" xmlns="http://www.topografix.com/GPX/1/1">
    <metadata><name>bench</name></metadata>
    <trk><name>bench track</name><trkseg>

    """
  var rng = SplitMix64(state: 11)
  var lat = 46.0
  var lon = 7.0
  var heading = 0.3
  var ele = 1200.0
  let start = 1_714_557_600  // 2024-05-01T10:00:00Z
  for k in 0..<points {
    heading += rng.normal() * 0.05
    lat += cos(heading) * 3 / 111_320
    lon += sin(heading) * 3 / (111_320 * cos(lat * .pi / 180))
    ele += rng.normal() * 0.3
    let t = start + k
    let s = t % 86_400
    let days = t / 86_400
    let (y, m, d) = civilDate(days)
    chunk += String(
      format:
        "<trkpt lat=\"%.7f\" lon=\"%.7f\"><ele>%.1f</ele><time>%04d-%02d-%02dT%02d:%02d:%02dZ</time></trkpt>\n",
      lat, lon, ele, y, m, d, s / 3600, s / 60 % 60, s % 60)
    if chunk.utf8.count > 1 << 20 { try flush() }
  }
  chunk += "</trkseg></trk>\n</gpx>\n"
  try flush()
  return written
}

/// The civil date of a day count since 1970-01-01 (H. Hinnant's algorithm).
private func civilDate(_ z0: Int) -> (Int, Int, Int) {
  let z = z0 + 719_468
  let era = (z >= 0 ? z : z - 146_096) / 146_097
  let doe = z - era * 146_097
  let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
  let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
  let mp = (5 * doy + 2) / 153
  let d = doy - (153 * mp + 2) / 5 + 1
  let m = mp < 10 ? mp + 3 : mp - 9
  return (m <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, m, d)
}
