import Foundation
import TermMap
import Testing

@MainActor
final class GradientDelegate: MapViewDelegate {
  var renderers: [ObjectIdentifier: OverlayRenderer] = [:]
  func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
    renderers[ObjectIdentifier(overlay)] ?? MapView.defaultRenderer(for: overlay)
  }
}

@Suite("Colour along a line")
struct GradientPolylineTests {
  /// Five points due east along 60.17° N, 0.025° apart (about 9 columns at zoom 10).
  static func track(latitude: Double = 60.17) -> [Coordinate] {
    (0..<5).map { Coordinate(latitude: latitude, longitude: 24.9 + Double($0) * 0.025) }
  }

  /// The colours of the inked cells of a row, west to east, each run once.
  static func colourRuns(_ frame: CellBuffer, row: Int) -> [TermColor] {
    var runs: [TermColor] = []
    for c in 0..<frame.columns {
      let cell = frame[c, row]
      guard (0x2801...0x28FF).contains(cell.glyph.value), let f = cell.foreground else { continue }
      if runs.last != f { runs.append(f) }
    }
    return runs
  }

  @MainActor static func map(_ overlays: [(any Overlay, OverlayRenderer)]) -> (
    MapView, GradientDelegate
  ) {
    let map = MapView(columns: 60, rows: 12)
    let delegate = GradientDelegate()
    map.delegate = delegate
    map.setCenter(Coordinate(latitude: 60.17, longitude: 24.95), animated: false)
    map.setZoomLevel(10, animated: false)
    for (o, r) in overlays {
      delegate.renderers[ObjectIdentifier(o)] = r
      map.addOverlay(o)
    }
    return (map, delegate)
  }

  @Test(
    "values at the points (a track's elevation) colour each leg by the value at its start, on the colours' equal parts of the range; a missing value draws grey"
  )
  @MainActor func byValue() throws {
    let line = Polyline(coordinates: Self.track())
    let renderer = GradientPolylineRenderer(polyline: line)
    renderer.lineWidth = 1
    renderer.setColors([.blue, .green, .red], values: [[0, 25, 50, 75, 100]])
    let (map, delegate) = Self.map([(line, renderer)])
    _ = delegate
    let row = try #require(map.viewport.cell(for: MapPoint(Self.track()[0]))).row
    let frame = map.renderFrame()
    // Legs start at 0, 25, 50, 75 of 0…100: the lower third blue (two legs), green, red.
    #expect(Self.colourRuns(frame, row: row) == [.blue, .green, .red])
    let cells = (0..<frame.columns).map { frame[$0, row].foreground }
    let blue = cells.filter { $0 == .blue }.count
    let red = cells.filter { $0 == .red }.count
    #expect(blue > red + 3, "\(blue) blue, \(red) red")
    // A point without a value: its leg grey, in the middle of the line.
    renderer.setColors([.blue, .green, .red], values: [[0, 25, .nan, 75, 100]], range: 0...100)
    #expect(Self.colourRuns(map.renderFrame(), row: row) == [.blue, .brightBlack, .red])
  }

  @Test("colours at locations along the length: each leg takes the stop nearest its middle")
  @MainActor func byLocation() throws {
    let line = Polyline(coordinates: Self.track())
    let renderer = GradientPolylineRenderer(polyline: line)
    renderer.lineWidth = 1
    let (map, delegate) = Self.map([(line, renderer)])
    _ = delegate
    let row = try #require(map.viewport.cell(for: MapPoint(Self.track()[0]))).row
    // Before any colours: the stroke colour.
    #expect(Self.colourRuns(map.renderFrame(), row: row) == [.brightRed])
    renderer.setColors([.yellow, .magenta], locations: [0, 1])
    #expect(renderer.colors == [.yellow, .magenta])
    #expect(Self.colourRuns(map.renderFrame(), row: row) == [.yellow, .magenta])
  }

  @Test("a multi-polyline's lines each get their own values")
  @MainActor func multiPolyline() throws {
    let north = Polyline(coordinates: Self.track(latitude: 60.18))
    let south = Polyline(coordinates: Self.track(latitude: 60.16))
    let both = MultiPolyline([north, south])
    let renderer = GradientPolylineRenderer(multiPolyline: both)
    renderer.lineWidth = 1
    renderer.setColors(
      [.cyan, .red], values: [[1, 1, 1, 1, 1], [0, 0, 9, 9, 9]], range: 0...2)
    let (map, delegate) = Self.map([(both, renderer)])
    _ = delegate
    let frame = map.renderFrame()
    let n = try #require(map.viewport.cell(for: MapPoint(Self.track(latitude: 60.18)[0]))).row
    let s = try #require(map.viewport.cell(for: MapPoint(Self.track(latitude: 60.16)[0]))).row
    #expect(Self.colourRuns(frame, row: n) == [.red])
    #expect(Self.colourRuns(frame, row: s) == [.cyan, .red])
  }
}
