import Foundation
import Testing

@testable import TerminalUI

/// `/` also finds names in the loaded files, listed before the gazetteer's places (issue 13).
@Suite("search within loaded files") @MainActor
struct TrackSearchTests {
  @Test("a waypoint's name is listed before places of the same name; Enter goes to it")
  func waypointBeforePlaces() throws {
    let h = try Harness(["Data/samples/cerknicko-jezero.gpx"])
    h.send(.character("/"))
    h.type("rakov")
    let rows = h.screen.filter {
      $0.contains("(marker, ") || $0.contains(", Slovenia") || $0.contains("› ")
    }
    let first = try #require(rows.first, "\(h.text)")
    #expect(first.contains("› RAKOV12 (marker, cerknicko-jezero.gpx)"), "\(h.text)")
    // Places follow the file's names.
    let places = h.screen.firstIndex { $0.contains("Rakov") && !$0.contains("(marker") }
    let marker = h.screen.firstIndex { $0.contains("RAKOV12 (marker") }
    #expect(places != nil && marker != nil && marker! < places!, "\(h.text)")
    h.send(.character("\r"))
    #expect(h.status.contains("RAKOV12 (marker, cerknicko-jezero.gpx)"), "\(h.status)")
    #expect(h.viewer.map.selectedAnnotations.first?.title == "RAKOV12")
  }

  @Test("a track's name fits the map to the track")
  func trackName() throws {
    let h = try Harness(["Data/samples/korita-zbevnica.gpx"])
    h.viewer.map.setZoomLevel(3, animated: false)
    h.send(.character("/"))
    h.type("active log #2")
    #expect(h.text.contains("› ACTIVE LOG #2 (track, korita-zbevnica.gpx)"), "\(h.text)")
    h.send(.character("\r"))
    h.settle()
    #expect(h.viewer.map.zoomLevel > 10)
  }
}
