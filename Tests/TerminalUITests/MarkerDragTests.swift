import DotRaster
import Foundation
import MapGeometry
import Testing

@testable import TermMapKit
@testable import TerminalUI

private let walk = "Data/samples/lisbon-walk.csv"

/// A CSV file of six cafés along one street (lat 38.71, 0.0015° of longitude apart), in a
/// directory of its own: far apart when fitted, colliding when zoomed out.
private func cafes() throws -> String {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
    "termmap-cafes-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  let names = ["Alfa", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot"]
  var text = "lat,lon,name,description\n"
  for (i, name) in names.enumerated() {
    text += String(format: "38.71000,%.5f,%@,café %d\n", -9.14 + Double(i) * 0.0015, name, i + 1)
  }
  let path = dir.appendingPathComponent("cafes.csv").path
  try text.write(toFile: path, atomically: true, encoding: .utf8)
  return path
}

/// The zoom level the status line shows.
private func zoom(_ status: String) -> Double? {
  guard let r = status.range(of: #"z-?\d+\.\d"#, options: .regularExpression) else { return nil }
  return Double(status[r].dropFirst())
}

/// Waypoints of loaded files in the viewer: a mouse drag or `M` and the arrows move them, and
/// where they are dense they cluster; Enter on a cluster zooms to its members.
@MainActor
@Suite("moving waypoints and their clusters in the viewer")
struct MarkerDragTests {
  func annotation(_ h: Harness, _ title: String) throws -> any Annotation {
    try #require(h.viewer.map.annotations.first { $0.title == title })
  }

  func mouse(_ column: Int, _ row: Int, _ action: MouseEvent.Action) -> InputEvent {
    .mouse(MouseEvent(column: column, row: row, action: action))
  }

  @Test("a mouse drag from a waypoint moves it: the frame, the status line and the callout")
  func mouseDragMovesWaypoint() throws {
    let h = try Harness([walk])
    let start = try #require(h.find("● Rossio"))
    let rossio = try annotation(h, "Rossio")
    let before = rossio.coordinate
    let changes = h.viewer.regionChanges
    h.backend.send(mouse(start.column, start.row, .press))
    for step in 1...5 {
      h.backend.send(mouse(start.column - step * 2, start.row + step, .motion))
    }
    h.backend.send(mouse(start.column - 10, start.row + 5, .release))
    h.settle()
    // The marker stands 10 cells left and 5 down; the map did not move.
    let after = try #require(h.find("● Rossio"), "\(h.text)")
    #expect(after.column == start.column - 10 && after.row == start.row + 5, "\(h.text)")
    #expect(h.viewer.regionChanges == changes)
    #expect(h.find("A Brasileira") != nil)
    // The annotation stands under its new cell, and the status line says where.
    let moved = rossio.coordinate
    #expect(moved != before)
    let cell = h.viewer.map.coordinate(atColumn: after.column, row: after.row)
    #expect(abs(cell.latitude - moved.latitude) < 0.001)
    #expect(abs(cell.longitude - moved.longitude) < 0.001)
    let position = String(format: "%.5f, %.5f", moved.latitude, moved.longitude)
    #expect(h.status.hasPrefix("moved Rossio to \(position)"), "\(h.status)")
    // A click on it opens its callout with the new position, not the old.
    h.send(mouse(after.column, after.row, .press), mouse(after.column, after.row, .release))
    #expect(h.text.contains(position), "\(h.text)")
    #expect(!h.text.contains(String(format: "%.5f, %.5f", before.latitude, before.longitude)))
  }

  @Test("a drag from an empty cell still pans; the waypoints keep their coordinates")
  func dragFromEmptyCellPans() throws {
    let h = try Harness([walk])
    let before = try #require(h.find("● Rossio"))
    let rossio = try annotation(h, "Rossio")
    let coordinate = rossio.coordinate
    h.backend.send(mouse(10, 5, .press))
    for dx in 1...4 { h.backend.send(mouse(10 + dx, 5, .motion)) }
    h.backend.send(mouse(14, 5, .release))
    h.settle()
    #expect(h.find("● Rossio")?.column == before.column + 4)
    #expect(rossio.coordinate == coordinate)
    #expect(!h.status.contains("moved"))
  }

  @Test("Esc during a mouse drag puts the waypoint back; the release then does nothing")
  func escapeCancelsMouseDrag() throws {
    let h = try Harness([walk])
    let start = try #require(h.find("● Rossio"))
    let rossio = try annotation(h, "Rossio")
    let coordinate = rossio.coordinate
    h.send(mouse(start.column, start.row, .press), mouse(start.column + 6, start.row + 2, .motion))
    #expect(h.find("● Rossio")?.column == start.column + 6, "\(h.text)")
    h.send(.character("\u{1B}"))
    #expect(h.find("● Rossio")?.column == start.column)
    #expect(h.status.hasPrefix("Rossio not moved"), "\(h.status)")
    h.send(mouse(start.column + 6, start.row + 2, .release))
    #expect(rossio.coordinate == coordinate)
    #expect(h.find("● Rossio")?.column == start.column)
    #expect(h.viewer.map.draggedAnnotation == nil)
  }

  @Test("a drag that ends over the profile still drops the waypoint, on the map's last row")
  func dropOverDockedPanel() throws {
    let h = try Harness([walk])
    h.send(.character("p"))
    let mapRows = h.viewer.map.rows
    #expect(mapRows < 29, "the profile is not docked:\n\(h.text)")
    let start = try #require(h.find("● Rossio"))
    h.send(
      mouse(start.column, start.row, .press), mouse(start.column, 20, .motion),
      mouse(start.column, 27, .motion), mouse(start.column, 27, .release))
    #expect(h.viewer.map.draggedAnnotation == nil)
    #expect(h.status.hasPrefix("moved Rossio to"), "\(h.status)")
    #expect(h.find("● Rossio")?.row == mapRows - 1, "\(h.text)")
  }

  @Test("M moves the selected waypoint with the arrows; Esc puts it back, Enter drops it")
  func keyMove() throws {
    let h = try Harness([walk])
    h.send(.character("\t"))
    #expect(h.status.contains("▸ A Brasileira"))
    let start = try #require(h.find("● A Brasileira"))
    let brasileira = try annotation(h, "A Brasileira")
    let coordinate = brasileira.coordinate
    h.send(.character("M"))
    #expect(h.status.hasPrefix("moving A Brasileira: arrows, Enter to drop, Esc to cancel"))
    h.send(.key(.right), .key(.right), .key(.down))
    // The arrows move the marker, not the map.
    #expect(h.find("● A Brasileira")?.column == start.column + 2, "\(h.text)")
    #expect(h.find("● A Brasileira")?.row == start.row + 1)
    #expect(h.find("● Rossio") != nil)
    h.send(.character("\u{1B}"))
    #expect(h.find("● A Brasileira")?.column == start.column)
    #expect(h.find("● A Brasileira")?.row == start.row)
    #expect(brasileira.coordinate == coordinate)
    #expect(h.status.hasPrefix("A Brasileira not moved"), "\(h.status)")
    // Still selected: M again, Shift-→ moves it eight cells, Enter drops it.
    h.send(.character("M"), .key(.shiftRight), .key(.up), .character("\r"))
    let dropped = try #require(h.find("● A Brasileira"))
    #expect(dropped.column == start.column + 8 && dropped.row == start.row - 1, "\(h.text)")
    let moved = brasileira.coordinate
    #expect(moved.longitude > coordinate.longitude && moved.latitude > coordinate.latitude)
    let position = String(format: "%.5f, %.5f", moved.latitude, moved.longitude)
    #expect(h.status.hasPrefix("moved A Brasileira to \(position)"), "\(h.status)")
    // Enter now opens the callout, which gives the new position.
    h.send(.character("\r"))
    #expect(h.text.contains("Café on Rua Garrett"))
    #expect(h.text.contains(position), "\(h.text)")
  }

  @Test("M with nothing selected says how to select; arrows then still pan")
  func keyMoveWithoutSelection() throws {
    let h = try Harness([walk])
    h.send(.character("M"))
    #expect(h.status.hasPrefix("no marker selected: Tab selects one, M moves it"))
    let before = try #require(h.find("Rossio"))
    h.send(.key(.left))
    #expect((h.find("Rossio")?.column ?? 0) > before.column)
  }

  @Test("dense waypoints cluster; Enter opens the cluster's callout, Enter again zooms to them")
  func clusterZooms() throws {
    let h = try Harness([cafes()])
    // Fitted, each café has its own marker.
    #expect(h.text.contains("● Alfa") && h.text.contains("● Echo"), "\(h.text)")
    for _ in 0..<3 { h.send(.character("-")) }
    // Three zoom levels out they collide: two clusters of three stand for them.
    let row = try #require(h.find("◉ 3"), "\(h.text)")
    #expect(h.screen[row.row].components(separatedBy: "◉ 3").count == 3, "\(h.text)")
    #expect(!h.text.contains("●"), "\(h.text)")
    let z = try #require(zoom(h.status))
    h.send(.character("\t"))
    let cluster = try #require(h.viewer.map.selectedAnnotations.first as? ClusterAnnotation)
    let names = cluster.memberAnnotations.compactMap(\.title)
    #expect(names.count == 3)
    h.send(.character("\r"))
    // The callout: the first member, the count of the others and their names.
    #expect(h.text.contains("+2 more"), "\(h.text)")
    for name in names { #expect(h.text.contains(name), "\(name) not listed:\n\(h.text)") }
    h.send(.character("\r"))
    // Zoomed to the members: each has its own marker again, and the cluster is gone.
    #expect(try #require(zoom(h.status)) > z + 1, "\(h.status)")
    #expect(!h.text.contains("◉"), "\(h.text)")
    // (The fit is of the markers: the last one's label may run off the screen.)
    let viewport = h.viewer.map.viewport
    for member in cluster.memberAnnotations {
      let cell = try #require(viewport.cell(for: MapPoint(member.coordinate)))
      #expect(Array(h.screen[cell.row])[cell.column] == "●", "\(member.title ?? ""):\n\(h.text)")
    }
    #expect(h.find("● " + names[0]) != nil, "\(h.text)")
  }

  @Test("a cluster cannot be moved: M says what Enter does instead")
  func clusterNotMovable() throws {
    let h = try Harness([cafes()])
    for _ in 0..<3 { h.send(.character("-")) }
    h.send(.character("\t"), .character("M"))
    #expect(h.status.hasPrefix("a cluster cannot be moved"), "\(h.status)")
    #expect(h.viewer.map.draggedAnnotation == nil)
  }

  @Test("without clustering the collided waypoints are hidden and counted as +N")
  func clusteringOff() throws {
    let h = try Harness([cafes()]) { $0.clustersMarkers = false }
    for _ in 0..<3 { h.send(.character("-")) }
    #expect(!h.text.contains("◉"), "\(h.text)")
    #expect(h.text.contains(" +4"), "\(h.text)")
  }
}
