import Foundation
import MapGeometry
import MapTiles
import RegionFixtures
import TermMapKit
import Testing

@testable import TerminalUI

/// `/` finds the street, place and POI names of stored regions (issue 19 §3), from a region
/// cut from real Monaco tiles.
enum MonacoRegion {
  /// The names index of a Monaco region (Protomaps schema), made once.
  static let names: RegionNames? = {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-regionsearch-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let archive = dir.appendingPathComponent("monaco.pmtiles").path
    guard (try? MonacoArchive.write(to: archive)) != nil else { return nil }
    return try? RegionNames.index(archive: archive)
  }()

  /// The gazetteer's places and the Monaco region's names.
  static let gazetteer: Gazetteer? = {
    guard let names, let dir = Harness.dataDirectory else { return nil }
    return try? Gazetteer(directory: dir, regions: [names])
  }()
}

@Suite("search in stored regions' names")
struct RegionGazetteerTests {
  func search(_ q: String) throws -> [Place] {
    try #require(MonacoRegion.gazetteer).search(q)
  }

  @Test("a street by its name, typo and all; it says what it is and which region")
  func street() throws {
    let exact = try search("Boulevard Albert 1er")
    #expect(exact.first?.label == "Boulevard Albert 1er (street, monaco)", "\(exact)")
    let typo = try search("bulevard albert 1er")
    #expect(typo.first?.label == "Boulevard Albert 1er (street, monaco)", "\(typo)")
    let c = try #require(typo.first?.coordinate)
    #expect(abs(c.latitude - 43.735) < 0.005 && abs(c.longitude - 7.421) < 0.005, "\(c)")
    // A prefix, and accents and case folded.
    #expect(try search("avenue princesse gr").first?.name == "Avenue Princesse Grace")
    #expect(
      try search("eglise saint-nicolas").first?.label
        == "Église Saint-Nicolas (place of worship, monaco)")
  }

  @Test("a POI by its English name; a shop by its kind's name is not a match")
  func otherNames() throws {
    let r = try search("Princess Grace Hospital")
    #expect(r.first?.label == "Centre hospitalier Princesse Grace (hospital, monaco)", "\(r)")
  }

  @Test(
    "equal matches: near the view first, then the gazetteer's places; a region's town listed once"
  )
  func ranking() throws {
    let monaco = try search("Monaco")
    #expect(monaco.first?.label == "Monaco, Monaco", "\(monaco.map(\.label))")
    #expect(!monaco.contains { $0.region != nil && $0.name == "Monaco" }, "\(monaco.map(\.label))")
    // Paris the city before Monaco's "Café de Paris".
    let paris = try search("Paris")
    #expect(paris.first?.label == "Paris, France", "\(paris.map(\.label))")
    // Seen from Monaco, its own Fairmont hotel before the American town; seen from elsewhere,
    // the town first.
    let g = try #require(MonacoRegion.gazetteer as Gazetteer?)
    let fromMonaco = g.search("Fairmont", near: Coordinate(latitude: 43.74, longitude: 7.42))
    #expect(fromMonaco.first?.label == "Fairmont (hotel, monaco)", "\(fromMonaco.map(\.label))")
    let fromParis = g.search("Fairmont", near: Coordinate(latitude: 48.85, longitude: 2.35))
    #expect(fromParis.first?.label == "Fairmont, United States", "\(fromParis.map(\.label))")
    #expect(fromParis.contains { $0.label == "Fairmont (hotel, monaco)" })
    // Monte-Carlo the suburb is the gazetteer's place, listed once.
    let mc = g.search("Monte-Carlo")
    #expect(mc.filter { $0.name == "Monte-Carlo" }.count == 1, "\(mc.map(\.label))")
    // "name, region" narrows to the region.
    let narrowed = try search("Rue Grimaldi, monaco")
    #expect(narrowed.first?.label == "Rue Grimaldi (street, monaco)", "\(narrowed.map(\.label))")
  }

  @Test("without the gazetteer's files, a region's names are still found")
  func regionsOnly() throws {
    let g = try Gazetteer(directory: nil, regions: [try #require(MonacoRegion.names)])
    #expect(g.search("Rue Grimaldi").first?.label == "Rue Grimaldi (street, monaco)")
    #expect(g.search("Tokyo").isEmpty)
  }
}

@Suite("/ goes to a street of a stored region") @MainActor
struct RegionSearchViewerTests {
  @Test(
    "/ and a street's name with a typo: listed with its kind and region; Enter goes there, close")
  func goesToStreet() throws {
    let h = try Harness(["Data/samples/cerknicko-jezero.gpx"])
    let places = try #require(MonacoRegion.gazetteer as Gazetteer?)
    h.viewer.gazetteer = places
    h.send(.character("/"))
    h.type("bulevard albert 1er")
    #expect(h.text.contains("› Boulevard Albert 1er (street, monaco)"), "\(h.text)")
    h.send(.character("\r"))
    #expect(h.status.contains("Boulevard Albert 1er (street, monaco)"), "\(h.status)")
    let c = h.viewer.map.centerCoordinate
    #expect(abs(c.latitude - 43.735) < 0.005 && abs(c.longitude - 7.421) < 0.005, "\(c)")
    #expect(h.viewer.map.zoomLevel >= 15.9, "\(h.viewer.map.zoomLevel)")
  }

  @Test(
    "/ and a kind of place: every café of the region, by the library's LocalSearch and the map's filter"
  )
  func kindOfPlace() throws {
    let h = try Harness(["Data/samples/cerknicko-jezero.gpx"])
    h.viewer.gazetteer = try #require(MonacoRegion.gazetteer as Gazetteer?)
    h.viewer.map.setCenter(Coordinate(latitude: 43.7396, longitude: 7.4276), animated: false)
    h.viewer.map.setZoomLevel(16, animated: false)
    h.send(.character("/"))
    h.type("cafe")
    let listed = h.text.split(separator: "\n").filter { $0.contains("(cafe, monaco)") }
    #expect(listed.count >= 2, "\(h.text)")
    // Not only names with "café" in them: every café of the region (Starbucks, Costa…).
    #expect(
      listed.contains { !$0.prefix { $0 != "(" }.lowercased().contains("caf") }, "\(h.text)")
    #expect(listed.first?.contains("›") == true, "\(h.text)")
    // With the map's point-of-interest filter leaving cafés out, none is listed.
    h.send(.character("\u{1B}"))
    h.viewer.map.pointOfInterestFilter = PointOfInterestFilter(excluding: [.cafe])
    h.send(.character("/"))
    h.type("cafe")
    #expect(!h.text.contains("(cafe, monaco)"), "\(h.text)")
  }
}

/// The whole path: `termmap get --name` stores and indexes a region, and the viewer in a
/// terminal finds its street with `/`.
@Suite("stored region search, end to end", .serialized)
struct RegionSearchE2ETests {
  @Test("get --name monaco, then / Boulevard Albrt 1er ↵ in the viewer: the map is there")
  func endToEnd() throws {
    let tmux = try Tmux()
    let home = tmux.file("data")
    let archive = tmux.file("monaco-planet.pmtiles")
    try MonacoArchive.write(to: archive)
    let get = try Tmux.spawn(
      [
        "/usr/bin/env", "XDG_DATA_HOME=\(home)", Tmux.termmap, "get", "--bbox",
        "7.40,43.72,7.45,43.76", "--from", archive, "--name", "monaco",
      ], stdout: tmux.file("get.out"))
    let said = (try? String(contentsOfFile: tmux.file("get.out"), encoding: .utf8)) ?? ""
    try #require(get == 0, "\(said)")
    #expect(said.contains("indexed "), "\(said)")
    try tmux.start(
      "XDG_DATA_HOME=\(home) \(Tmux.termmap) --center 46.05,14.5 --zoom 9; sleep 60")
    let (up, first) = try tmux.waitFor(timeout: 60) {
      $0.last { !$0.isEmpty }?.hasPrefix("46.05") ?? false
    }
    try #require(up, "\(first.joined(separator: "\n"))")
    try tmux.type("/")
    try tmux.type("Boulevard Albrt 1er")
    let (listed, list) = try tmux.waitFor(timeout: 60) {
      $0.joined().contains("Boulevard Albert 1er (street, monaco)")
    }
    try #require(listed, "\(list.joined(separator: "\n"))")
    try tmux.sendKeys("Enter")
    // The view goes there, names what it found, and draws the region's own tiles: names of
    // Monaco's streets and places are on the map.
    let (drawn, screen) = try tmux.waitFor(timeout: 120) { s in
      let status = s.last { !$0.isEmpty } ?? ""
      let map = s.dropLast().joined()
      return status.contains("Boulevard Albert 1er (street, monaco)")
        && ["Avenue", "Rue ", "Casino", "Port", "Place"].contains { map.contains($0) }
    }
    #expect(drawn, "\(screen.joined(separator: "\n"))")
    // A small pan: the status line gives the centre, in Monaco.
    try tmux.sendKeys("Right")
    let (there, moved) = try tmux.waitFor(timeout: 120) { s in
      (s.last { !$0.isEmpty } ?? "").hasPrefix("43.73")
    }
    #expect(there, "\(moved.joined(separator: "\n"))")
  }
}
