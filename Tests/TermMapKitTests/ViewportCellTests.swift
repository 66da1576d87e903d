import DotRaster
import Foundation
import MapGeometry
import Testing

@testable import TermMapKit

/// `Viewport.cell(for:)` and `LabelPosition`'s rounding avoid libm calls with exact forms;
/// they must give what the general forms (`rounded(.down)` of the screen dot, `rounded()` for
/// the world copy, `rounded(.toNearestOrAwayFromZero)`) give.
@Suite("Viewport cells and label rounding")
struct ViewportCellTests {
  /// The cell as it was worked out before: the screen dot's floor, cell by cell.
  static func generalCell(_ vp: Viewport, _ p: MapPoint) -> (column: Int, row: Int)? {
    let w = MapSize.world.width
    let cx = (Double(vp.originX) + Double(vp.widthInDots) / 2) / vp.zoomScale
    let x = p.x + ((cx - p.x) / w).rounded() * w
    let dx = x * vp.zoomScale - Double(vp.originX)
    let dy = p.y * vp.zoomScale - Double(vp.originY)
    let c = Int((dx / Double(CellGeometry.dotsWide)).rounded(.down))
    let r = Int((dy / Double(CellGeometry.dotsHigh)).rounded(.down))
    guard c >= 0 && r >= 0 && c < vp.columns && r < vp.rows else { return nil }
    return (c, r)
  }

  @Test(
    "cell(for:) is the screen dot's floor, on the screen and at its edges, across the world's seam")
  func cellMatchesFloor() {
    var rng = SystemRandomNumberGenerator()
    let w = MapSize.world.width
    var onScreen = 0
    var checked = 0
    for center in [
      MapPoint(x: w * 0.5683, y: w * 0.2860), MapPoint(x: 30, y: w / 2),
      MapPoint(x: w - 30, y: 1000),
    ] {
      for zoom in [2.0, 9.0, 15.0, 15.3, 17.0] {
        let zs = pow(2, zoom) * 256 / w
        let vp = Viewport(center: center, zoomScale: zs, columns: 160, rows: 48)
        let r = vp.mapRect
        var points: [MapPoint] = []
        // Cell corners (exact edges) and points on either side of them.
        for col in stride(from: -2, through: vp.columns + 2, by: 1) {
          for row in [-1, 0, 1, vp.rows / 2, vp.rows - 1, vp.rows, vp.rows + 1] {
            let px = Double(vp.originX + col * CellGeometry.dotsWide) / zs
            let py = Double(vp.originY + row * CellGeometry.dotsHigh) / zs
            for e in [-1e-9, 0, 1e-9] {
              points.append(MapPoint(x: px + e, y: py + e))
              points.append(MapPoint(x: px - w, y: py))
              points.append(MapPoint(x: px + w, y: py))
            }
          }
        }
        for _ in 0..<2000 {
          points.append(
            MapPoint(
              x: Double.random(in: (r.minX - r.width)...(r.maxX + r.width), using: &rng),
              y: Double.random(in: (r.minY - r.height)...(r.maxY + r.height), using: &rng)))
        }
        for p in points {
          let a = vp.cell(for: p)
          let b = Self.generalCell(vp, p)
          #expect(a?.column == b?.column && a?.row == b?.row, "\(p) at z\(zoom)")
          if a != nil { onScreen += 1 }
          checked += 1
        }
      }
    }
    #expect(onScreen > checked / 10)
  }

  @Test("a point off the screen by a NaN or a huge coordinate has no cell")
  func nanAndHuge() {
    let vp = Viewport(
      center: MapPoint(x: 1e8, y: 1e8), zoomScale: 0.01, columns: 80, rows: 24)
    #expect(vp.cell(for: MapPoint(x: .nan, y: 1e8)) == nil)
    #expect(vp.cell(for: MapPoint(x: 1e8, y: .nan)) == nil)
    #expect(vp.cell(for: MapPoint(x: 1e8, y: 1e300)) == nil)
    #expect(vp.cell(for: MapPoint(x: 1e8, y: 1e8))?.column == 40)
  }

  @Test("LabelPosition.roundedAway is rounded(.toNearestOrAwayFromZero)")
  func roundedAway() {
    var values: [Double] = [
      0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994,
    ]
    for k in -40...40 {
      let h = Double(k) / 2
      values += [h, h.nextUp, h.nextDown, h + 0.25, h - 0.25]
    }
    values += [999_999.5, -999_999.5, 999_999.4999999, 123_456.5000001]
    for v in values {
      #expect(
        LabelPosition.roundedAway(v) == Int(v.rounded(.toNearestOrAwayFromZero)), "\(v)")
    }
  }
}
