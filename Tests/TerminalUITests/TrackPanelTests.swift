import Foundation
import MapGeometry
import Testing

@testable import TerminalUI

/// The profile panel on the in-memory terminal: the mouse in the graph and on the track.
@Suite("profile panel") @MainActor
struct TrackPanelTests {
  static let ride = "Tests/MapDataTests/Fixtures/tracks/ride-2020-06-01.fit"

  @Test("a click in the graph puts the cursor at that distance")
  func clickInGraph() throws {
    let h = try Harness([Self.ride], columns: 120, rows: 40)
    h.send(.character("p"))
    #expect(h.text.contains("▸ 0 m · -20 m"), "\(h.text)")
    let g = try #require(h.viewer.profilePanel.graphArea)
    let p = try #require(h.viewer.profilePanel.profile)
    // The last column of the graph: the end of the track.
    h.send(
      .mouse(MouseEvent(column: g.column + g.columns - 1, row: g.row + 1, action: .press)),
      .mouse(MouseEvent(column: g.column + g.columns - 1, row: g.row + 1, action: .release)))
    #expect(p.distances[h.viewer.profilePanel.cursor] > p.length * 0.98)
    // The first line beside the graph reads the cursor's point (895 m of 902 m here).
    let shown = "▸ " + Viewer.distanceText(p.distances[h.viewer.profilePanel.cursor]) + " · "
    #expect(shown == "▸ 895 m · ")
    #expect(h.text.contains(shown), "\(h.text)")
    // Dragging back to the middle moves it along.
    h.send(
      .mouse(MouseEvent(column: g.column + 1, row: g.row + 1, action: .press)),
      .mouse(MouseEvent(column: g.column + g.columns / 2, row: g.row + 1, action: .motion)),
      .mouse(MouseEvent(column: g.column + g.columns / 2, row: g.row + 1, action: .release)))
    let d = p.distances[h.viewer.profilePanel.cursor]
    #expect(d > p.length * 0.3 && d < p.length * 0.7, "cursor at \(d) m")
  }

  @Test("a click on the track on the map moves the cursor to the nearest point")
  func clickOnTrack() throws {
    let h = try Harness([Self.ride], columns: 120, rows: 40)
    h.send(.character("p"))
    let p = try #require(h.viewer.profilePanel.profile)
    let target = 60
    let cell = try #require(h.viewer.map.viewport.cell(for: MapPoint(p.coordinates[target])))
    h.send(
      .mouse(MouseEvent(column: cell.column, row: cell.row, action: .press)),
      .mouse(MouseEvent(column: cell.column, row: cell.row, action: .release)))
    let chosen = h.viewer.profilePanel.cursor
    let chosenCell = try #require(h.viewer.map.viewport.cell(for: MapPoint(p.coordinates[chosen])))
    #expect(chosenCell.column == cell.column && chosenCell.row == cell.row)
    // The marker is drawn on that cell.
    let row = h.screen[cell.row]
    #expect(Array(row)[cell.column] == "◆", "\(h.text)")
  }

  @Test("several files: the layer list and the profile follow the command line, not load times")
  func commandLineOrder() throws {
    // A long track first (it finishes loading last), then two small files.
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-order-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var gpx = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\" "
    gpx += "xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><name>long</name><trkseg>\n"
    for i in 0..<120_000 {
      gpx += "<trkpt lat=\"\(46 + Double(i) * 1e-6)\" lon=\"14\"><ele>\(i % 500)</ele></trkpt>\n"
    }
    gpx += "</trkseg></trk></gpx>\n"
    let long = dir.appendingPathComponent("long.gpx")
    try gpx.write(to: long, atomically: true, encoding: .utf8)
    for _ in 0..<3 {
      let h = try Harness(
        [long.path, "Data/samples/route.gpx", "Data/samples/bled.geojson"], columns: 120, rows: 40)
      #expect(
        h.viewer.track.files.map(\.name) == ["long.gpx", "route.gpx", "bled.geojson"],
        "\(h.viewer.track.files.map(\.name))")
      h.send(.character("p"))
      #expect(h.viewer.profilePanel.profile?.coordinates.count == 120_000)
    }
  }

  @Test("in ASCII the panel and the layer list use ASCII only")
  func ascii() throws {
    let h = try Harness([Self.ride], columns: 120, rows: 40, unicode: false)
    h.send(.character("p"))
    #expect(h.text.contains("> 0 m | -20 m"), "\(h.text)")
    #expect(h.text.contains("climb     up 3 m  down 4 m"), "\(h.text)")
    h.send(.character("L"))
    #expect(h.text.contains("# [x] ride-2020-06-01.fit  FIT  96 pts  902 m"), "\(h.text)")
    let panelAndList = h.screen.filter { $0.contains("|") || $0.contains("#") }
    #expect(!panelAndList.isEmpty)
    #expect(h.text.unicodeScalars.allSatisfy { $0.value < 0x80 }, "\(h.text)")
  }

  @Test("measuring: m starts at the centre, a click adds a point, Backspace undoes, Esc ends")
  func measureByClick() throws {
    let h = try Harness([Self.ride], columns: 120, rows: 40)
    h.send(.character("m"))
    #expect(h.status.contains("measure: 1 point · 0.0 m"), "\(h.status)")
    let centre = h.viewer.map.centerCoordinate
    let target = h.viewer.map.coordinate(atColumn: 10, row: 5)
    h.send(
      .mouse(MouseEvent(column: 10, row: 5, action: .press)),
      .mouse(MouseEvent(column: 10, row: 5, action: .release)))
    let length = Geodesic.length(of: [centre, target])
    let leg = Geodesic.inverse(centre, target)
    let bearing = (leg.initialAzimuth + 360).truncatingRemainder(dividingBy: 360)
    let expected = String(
      format: "measure: 2 points · %@ · last leg %@ at %.1f°", Viewer.preciseDistance(length),
      Viewer.preciseDistance(length), bearing)
    #expect(h.status.contains(expected), "\(h.status) / \(expected)")
    h.send(.key(.backspace))
    #expect(h.status.contains("measure: 1 point"), "\(h.status)")
    h.send(.character("\u{1B}"))
    #expect(!h.status.contains("measure"), "\(h.status)")
  }

  @Test("Mojstrovka.gpx (times in 1901): the panel shows no clock, no speed, and ignored times")
  func absurdTimesInThePanel() throws {
    // At 8ab8a51 the cursor read "▸ 0 m · 1615 m · 0.0 km/h · -3:-14:-8" and the speed axis
    // "107287." (cut).
    let h = try Harness(["Data/samples/Mojstrovka.gpx"], columns: 120, rows: 40)
    h.send(.character("p"))
    #expect(h.text.contains("elevation · "), "\(h.text)")
    #expect(h.text.contains("▸ 0 m · 1615 m\n") || h.text.contains("▸ 0 m · 1615 m "), "\(h.text)")
    #expect(!h.text.contains("km/h"), "\(h.text)")
    #expect(!h.text.contains(":-"), "\(h.text)")
    #expect(!h.text.contains("speed"), "\(h.text)")
    #expect(h.text.contains("ignored   184 times"), "\(h.text)")
    #expect(h.viewer.profilePanel.profile?.channels == [.elevation])
  }
}
