import DotRaster
import MapGeometry
import Testing

@testable import TermMapKit

@Suite("Callouts with wide text")
@MainActor
struct WideTextCalloutTests {
  @Test("a Japanese title and details keep the callout's borders aligned and the frame COLS wide")
  func japaneseCallout() throws {
    let map = MapView(columns: 60, rows: 16)
    let a = PointAnnotation(
      coordinate: Coordinate(latitude: 35.6812, longitude: 139.7671), title: "東京駅 Tokyo Station",
      subtitle: "丸の内 Marunouchi", detailLines: ["東京都千代田区丸の内一丁目 and a long line to wrap"])
    map.addAnnotation(a)
    map.setCenter(a.coordinate, animated: false)
    map.setZoomLevel(14, animated: false)
    map.selectAnnotation(a, animated: false)
    let lines = map.renderFrame().lines
    for line in lines { #expect(CellBuffer.displayWidth(of: line) == 60, "\(line)") }
    // The box's right border sits in the same terminal column on every row of the box.
    var borderColumns = Set<Int>()
    for line in lines where line.contains("│") {
      var col = 0
      var last = -1
      for ch in line {
        if ch == "│" { last = col }
        col += CellBuffer.displayWidth(of: String(ch))
      }
      borderColumns.insert(last)
    }
    #expect(borderColumns.count == 1, "\(lines.joined(separator: "\n"))")
    #expect(lines.joined().contains("東京駅 Tokyo Station"))
    #expect(lines.joined().contains("丸の内 Marunouchi"))
  }
}
