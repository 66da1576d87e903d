import DotRaster
import Foundation
import MapGeometry
import TermMapKit
import Testing

@testable import TerminalUI

private let walk = "Data/samples/lisbon-walk.csv"

/// The targets panel (`T`), following a marker (`f`) and pick mode's keys, on the in-memory
/// terminal: what the panel lists, in which order, and what Enter and `f` do to the map.
@MainActor
@Suite("targets panel, follow and pick on a test backend")
struct TargetsPanelTests {
  /// The panel's rows on screen: the lines holding a row's bearing ("NE 045°").
  func panelRows(_ h: Harness) -> [String] {
    h.screen.filter { $0.range(of: #"[NSEW]{1,2} \d{3}°"#, options: .regularExpression) != nil }
  }

  @Test(
    "rows: nearest first, ties by title; the filter matches title or subtitle, any case, no accents"
  )
  func sortAndFilter() {
    let centre = Coordinate(latitude: 38.71, longitude: -9.14)
    let far = PointAnnotation(
      coordinate: Coordinate(latitude: 38.80, longitude: -9.14), title: "Far", subtitle: "ship")
    let near = PointAnnotation(
      coordinate: Coordinate(latitude: 38.711, longitude: -9.14), title: "Near", subtitle: "plane")
    let east = PointAnnotation(
      coordinate: Coordinate(latitude: 38.71, longitude: -9.13), title: "Café Ést")
    let rows = TargetsPanel.rows([far, near, east], from: centre, filter: "")
    #expect(rows.map(\.title) == ["Near", "Café Ést", "Far"])
    #expect(rows[0].compassPoint == "N")
    #expect(abs(rows[0].distance - 111) < 1)
    #expect(rows[1].compassPoint == "E")
    #expect(abs(rows[1].bearing - 90) < 0.1)
    #expect(rows[0].text == "Near  plane  111 m  N 000°")
    #expect(rows[2].text.hasPrefix("Far  ship  10 km  N 000°"))
    // Case, accents, subtitle, several words all matching.
    #expect(
      TargetsPanel.rows([far, near, east], from: centre, filter: "cafe").map(\.title) == [
        "Café Ést"
      ])
    #expect(
      TargetsPanel.rows([far, near, east], from: centre, filter: "SHIP").map(\.title) == [
        "Far"
      ])
    #expect(TargetsPanel.rows([far, near, east], from: centre, filter: "far plane").isEmpty)
    // From elsewhere, the order turns round.
    let fromNorth = Coordinate(latitude: 38.81, longitude: -9.14)
    #expect(
      TargetsPanel.rows([far, near, east], from: fromNorth, filter: "").map(\.title).first == "Far")
  }

  @Test("T lists the walk's markers nearest the centre first; typing filters; Esc closes")
  func panelLists() throws {
    let h = try Harness([walk])
    h.type("T")
    #expect(h.text.contains("targets: 3 · from the centre"), "\(h.text)")
    let rows = panelRows(h)
    #expect(rows.count == 3, "\(h.text)")
    // The walk is fitted: A Brasileira is nearest its middle, the two ends farther.
    #expect(rows.first?.contains("› A Brasileira  Café on Rua Garrett, open sin…") == true)
    #expect(rows.first?.contains("154 m  NW 311°") == true, "\(rows)")
    #expect(rows.contains { $0.contains("Rossio  Praça D. Pedro IV") })
    h.type("sod")
    #expect(h.text.contains("targets: 1 of 3"))
    #expect(h.text.contains("filter: sod"))
    let filtered = panelRows(h)
    #expect(filtered.count == 1)
    #expect(filtered.first?.contains("› Cais do Sodré") == true)
    // Tab: from your position, which needs one.
    h.send(.character("\t"))
    #expect(h.text.contains("from the centre"))
    #expect(h.status.contains("no live position: distances are from the centre"))
    h.send(.character("\u{1B}"))
    #expect(!h.text.contains("targets:"))
  }

  @Test("Enter on a row selects it, centres it and opens its callout with every detail")
  func enterSelects() throws {
    let h = try Harness([walk])
    h.type("T")
    h.type("ross")
    h.send(.character("\r"))
    #expect(!h.text.contains("targets:"))
    #expect(h.status.contains("▸ Rossio"))
    #expect(h.text.contains("Praça D. Pedro IV, the city's central square"))
    #expect(h.text.contains("38.71390, -9.13940"))
    let c = h.viewer.map.centerCoordinate
    #expect(abs(c.latitude - 38.7139) < 1e-4 && abs(c.longitude + 9.1394) < 1e-4)
  }

  @Test("the panel's distances follow a marker that moves")
  func refreshesAsMarkersMove() throws {
    let h = try Harness([walk])
    h.type("T")
    let before = panelRows(h).first { $0.contains("Rossio") } ?? ""
    let rossio = try #require(
      h.viewer.map.annotations.first { $0.title == "Rossio" } as? PointAnnotation)
    // 2 km north of the centre.
    rossio.coordinate = Geodesic.direct(
      from: h.viewer.map.centerCoordinate, azimuth: 0, distance: 2000)
    h.viewer.map.annotationDidMove(rossio)
    h.settle()
    let after = panelRows(h).first { $0.contains("Rossio") } ?? ""
    #expect(before != after)
    #expect(after.contains("2.0 km  N 000°"), "\(after)")
    // Now the farthest: last.
    #expect(panelRows(h).last?.contains("Rossio") == true)
  }

  @Test("f follows the selected marker as it moves; a pan stops following")
  func followsMarker() throws {
    let h = try Harness([walk])
    h.type("T")
    h.type("sod")
    h.send(.character("\r"))
    h.send(.character("f"))
    #expect(h.status.contains("following Cais do Sodré"), "\(h.status)")
    let cais = try #require(
      h.viewer.map.annotations.first { $0.title == "Cais do Sodré" } as? PointAnnotation)
    let moved = Coordinate(latitude: 38.72, longitude: -9.12)
    cais.coordinate = moved
    h.viewer.map.annotationDidMove(cais)
    h.settle()
    var c = h.viewer.map.centerCoordinate
    #expect(abs(c.latitude - 38.72) < 1e-6 && abs(c.longitude + 9.12) < 1e-6)
    // The marker is drawn where the centre is (the middle of the map's rows and columns).
    let at = try #require(h.find("Cais do Sodré"))
    #expect(abs(at.row - (h.viewer.map.rows / 2)) <= 1, "\(h.text)")
    h.send(.key(.left))
    #expect(h.viewer.followedTarget == nil)
    cais.coordinate = Coordinate(latitude: 38.73, longitude: -9.11)
    h.viewer.map.annotationDidMove(cais)
    h.settle()
    c = h.viewer.map.centerCoordinate
    #expect(abs(c.latitude - 38.73) > 1e-3, "the map still follows after a pan")
  }

  @Test("Esc stops following; f with nothing selected does not follow a marker")
  func escStopsFollowing() throws {
    let h = try Harness([walk])
    h.send(.character("\t"))
    h.send(.character("f"))
    #expect(h.viewer.followedTarget != nil)
    h.send(.character("\u{1B}"))
    #expect(h.viewer.followedTarget == nil)
    #expect(h.status.contains("stopped following"))
    // Esc deselected too: f now cycles your position's mode, not a marker's follow.
    h.send(.character("\u{1B}"))
    h.send(.character("f"))
    #expect(h.viewer.followedTarget == nil)
  }

  @Test("pick: Enter on a selected marker ends with its feature, status 0")
  func pickSelected() throws {
    let h = try Harness([walk]) { $0.picks = true }
    #expect(h.status.contains("pick: Enter prints the selected marker"))
    h.send(.character("\t"))
    h.send(.character("\r"))
    #expect(!h.viewer.isRunning)
    #expect(h.viewer.exitStatus == 0)
    #expect(
      h.viewer.pickedFeature
        == #"{"type":"Feature","geometry":{"type":"Point","coordinates":[-9.1421,38.7107]},"properties":{"name":"A Brasileira","desc":"Café on Rua Garrett, open since 1905"}}"#
    )
  }

  @Test("pick: Enter with nothing selected gives the centre; Esc and q cancel with 1")
  func pickCentreAndCancel() throws {
    let h = try Harness([walk]) { $0.picks = true }
    h.send(.character("\r"))
    #expect(h.viewer.exitStatus == 0)
    let feature = try #require(h.viewer.pickedFeature)
    #expect(
      feature.hasPrefix(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[-9.14"#))
    #expect(feature.contains(#""properties":{"zoom":"#))
    let esc = try Harness([walk]) { $0.picks = true }
    esc.send(.character("\t"))
    esc.send(.character("\u{1B}"))
    #expect(!esc.viewer.isRunning && esc.viewer.exitStatus == 1 && esc.viewer.pickedFeature == nil)
    let q = try Harness([walk]) { $0.picks = true }
    q.send(.character("q"))
    #expect(!q.viewer.isRunning && q.viewer.exitStatus == 1 && q.viewer.pickedFeature == nil)
  }

  @Test("pick: the search box keeps its Enter and Esc; the pick waits for them to close")
  func pickLeavesPanelsTheirKeys() throws {
    let h = try Harness([walk]) { $0.picks = true }
    h.type("/")
    h.send(.character("\u{1B}"))
    #expect(h.viewer.isRunning)
    h.type("T")
    h.type("ross")
    h.send(.character("\r"))
    #expect(h.viewer.isRunning)
    #expect(h.viewer.map.selectedAnnotations.first?.title == "Rossio")
    #expect(h.text.contains("Praça D. Pedro IV, the city's central square"))
    h.send(.character("\r"))
    #expect(h.viewer.pickedFeature?.contains(#""name":"Rossio""#) == true)
  }
}
