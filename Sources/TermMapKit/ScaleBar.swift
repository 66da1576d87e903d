import DotRaster
import Foundation
import MapGeometry

/// A distance legend for the screen's centre latitude (MKScaleView), in metres or kilometres.
public struct ScaleBar: Sendable, Equatable {
  /// The distance the bar stands for, in metres.
  public let meters: Double
  /// The bar's length in cells.
  public let cells: Int

  /// The longest round distance (1, 2 or 5 × 10^k metres) that fits in `maxCells` cells.
  public init(latitude: Double, zoomScale: Double, maxCells: Int = 10) {
    let metersPerCell =
      Mercator.metersPerMapPoint(atLatitude: latitude) * Double(CellGeometry.dotsWide) / zoomScale
    let limit = metersPerCell * Double(max(maxCells, 1))
    var best = 1.0
    var k = 0.0
    outer: while true {
      for m in [1.0, 2.0, 5.0] {
        let d = m * pow(10, k)
        if d > limit { break outer }
        best = d
      }
      k += 1
      if k > 8 { break }
    }
    meters = best
    cells = max(1, Int((best / metersPerCell).rounded()))
  }

  /// "500 m" or "20 km".
  public var label: String {
    meters >= 1000 ? "\(Int(meters / 1000)) km" : "\(Int(meters)) m"
  }

  /// The bar drawn with box characters, or ASCII.
  public func text(ascii: Bool) -> String {
    let body = String(repeating: ascii ? "-" : "─", count: max(cells - 2, 0))
    return (ascii ? "|" : "├") + body + (ascii ? "|" : "┤") + " " + label
  }
}
