import Foundation
import Testing

@testable import MapGeometry

/// An opt-in bulk comparison with a CSV of GeographicLib results (see docs/geodesy.md for the
/// script that writes it). Runs only when GEODESIC_REFERENCE_CSV names the file.
@Test(
  "Bulk comparison with a GeographicLib reference file",
  .enabled(if: ProcessInfo.processInfo.environment["GEODESIC_REFERENCE_CSV"] != nil))
func geodesicReferenceFile() throws {
  let path = ProcessInfo.processInfo.environment["GEODESIC_REFERENCE_CSV"]!
  let text = try String(contentsOfFile: path, encoding: .utf8)
  var worstDistance = 0.0
  var worstAzimuth = 0.0
  var worstDirect = 0.0
  var worstAzimuth2 = 0.0
  var worstOffset = 0.0
  var count = 0
  for line in text.split(separator: "\n") {
    let v = line.split(separator: ",").map { Double(String($0))! }
    guard v.count == 12 else { continue }
    count += 1
    let a = Coordinate(latitude: v[0], longitude: v[1])
    let b = Coordinate(latitude: v[2], longitude: v[3])
    let r = Geodesic.inverse(a, b)
    let ds = abs(r.distance - v[4])
    worstDistance = max(worstDistance, ds)
    // On short lines the azimuth is limited by the round-off of the input coordinates
    // (~1e-9 m), so azimuths are judged by the sideways offset they make at the far end.
    if v[4] > 1e-3 {
      let gap = max(angleGap(r.initialAzimuth, v[5]), angleGap(r.finalAzimuth, v[6]))
      if v[4] > 1000 {
        worstAzimuth = max(worstAzimuth, gap)
      } else {
        worstOffset = max(worstOffset, gap * .pi / 180 * v[4])
      }
    }
    let d = GeodesicSolver.wgs84.direct(v[0], v[1], v[7], v[8])
    let dLat = abs(d.lat2 - v[9])
    let dLon = angleGap(d.lon2, v[10]) * cos(v[9] * .pi / 180)
    worstDirect = max(worstDirect, max(dLat, dLon) * 111_320)
    if abs(v[9]) < 89.999 { worstAzimuth2 = max(worstAzimuth2, angleGap(d.azi2, v[11])) }
    #expect(ds <= 1e-6, "inverse \(line): \(r.distance)")
  }
  print(
    "geodesic reference: \(count) cases; worst distance error \(worstDistance) m, "
      + "worst inverse azimuth error (lines over 1 km) \(worstAzimuth)°, "
      + "worst sideways offset from azimuth error (lines up to 1 km) \(worstOffset) m, "
      + "worst direct position error "
      + "\(worstDirect) m, worst direct azimuth error \(worstAzimuth2)°")
  #expect(worstDirect < 1e-6)
  #expect(worstAzimuth < 1e-9)
  #expect(worstOffset < 1e-8)
}
