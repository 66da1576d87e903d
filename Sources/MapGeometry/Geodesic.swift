import Foundation

/// Geodesics on the WGS84 ellipsoid (placeholder: replaced by Karney's method).
public enum Geodesic {
  /// Surface distance in metres between two coordinates.
  public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
    let p1 = a.latitude * .pi / 180
    let p2 = b.latitude * .pi / 180
    let dl = (b.longitude - a.longitude) * .pi / 180
    let h = sin((p2 - p1) / 2) * sin((p2 - p1) / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
    return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
  }
}
