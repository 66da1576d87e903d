import Foundation
import TermMap
import Testing

/// The gazetteer's places (Data/places.tsv.gz) and the names of a small stored region of
/// Helsinki, as `termmap get` indexes them.
enum HelsinkiNames {
  static let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Data")

  static let region = RegionNames(
    region: "helsinki",
    entries: [
      .init(
        name: "Café Regatta", category: .poi, kind: "cafe",
        coordinate: Coordinate(latitude: 60.1836, longitude: 24.9123)),
      .init(
        name: "Café Ursula", category: .poi, kind: "cafe",
        coordinate: Coordinate(latitude: 60.1557, longitude: 24.9560)),
      .init(
        name: "Cafe Engel", category: .poi, kind: "cafe",
        coordinate: Coordinate(latitude: 60.1700, longitude: 24.9522)),
      .init(
        name: "Fazer", category: .poi, kind: "cafe",
        coordinate: Coordinate(latitude: 60.1686, longitude: 24.9440)),
      .init(
        name: "Ateneum", category: .poi, kind: "museum",
        coordinate: Coordinate(latitude: 60.1700, longitude: 24.9440)),
      .init(
        name: "Mannerheimintie", otherNames: ["Mannerheimvägen"], category: .street,
        kind: "street", coordinate: Coordinate(latitude: 60.1720, longitude: 24.9380)),
    ])

  static let gazetteer: Gazetteer? = try? Gazetteer(directory: data, regions: [region])

  /// Around the Senate Square, 10 km across.
  static let senateSquare = CoordinateRegion(
    center: Coordinate(latitude: 60.1695, longitude: 24.9525),
    latitudinalMeters: 10_000, longitudinalMeters: 10_000)
}

/// The cafés of the stored regions in and around a region, nearest its centre first (the
/// article "Finding places" quotes this).
func cafes(near region: CoordinateRegion, in gazetteer: Gazetteer) -> [MapItem] {
  var request = LocalSearch.Request(naturalLanguageQuery: "cafe", region: region)
  request.resultTypes = .pointsOfInterest
  return LocalSearch(request: request, gazetteer: gazetteer).results().mapItems
}

@Suite("Local search over the gazetteer and stored regions")
struct LocalSearchTests {
  @Test(
    "a region's names: the best matches first, nearest the region's centre first among equals; a kind finds its places"
  )
  func nearestFirst() throws {
    let gazetteer = try #require(HelsinkiNames.gazetteer)
    let request = LocalSearch.Request(
      naturalLanguageQuery: "cafe", region: HelsinkiNames.senateSquare)
    let response = LocalSearch(request: request, gazetteer: gazetteer).results()
    let names = response.mapItems.map(\.name)
    // Names starting with "cafe": in the region nearest first, then elsewhere (a Brazilian
    // town); after them the café whose name does not say so.
    #expect(Array(names.prefix(4)) == ["Cafe Engel", "Café Ursula", "Café Regatta", "Cafelândia"])
    let distances = response.mapItems.prefix(3).compactMap(\.distance)
    #expect(distances == distances.sorted() && distances.count == 3)
    #expect(response.mapItems.prefix(3).allSatisfy { $0.isInRegion })
    #expect(response.mapItems.dropFirst(3).first?.isInRegion == false)
    let fazer = try #require(names.firstIndex(of: "Fazer"))
    #expect(fazer > 3)
    #expect(response.mapItems.first?.pointOfInterestCategory == .cafe)
    #expect(response.mapItems.first?.label == "Cafe Engel (cafe, helsinki)")
    #expect(!names.contains("Ateneum"))
    // Points of interest only: no town.
    let found = cafes(near: HelsinkiNames.senateSquare, in: gazetteer).map(\.name)
    #expect(found == ["Cafe Engel", "Café Ursula", "Café Regatta", "Fazer"])
  }

  @Test("towns of the gazetteer, with their country; an alternate name finds a street")
  func placesAndStreets() throws {
    let gazetteer = try #require(HelsinkiNames.gazetteer)
    let towns = LocalSearch(
      request: .init(naturalLanguageQuery: "helsinki"), gazetteer: gazetteer
    ).results()
    #expect(towns.mapItems.first?.label == "Helsinki, Finland")
    #expect(towns.mapItems.first?.place.population ?? 0 > 500_000)
    #expect(towns.mapItems.first?.distance == nil)
    var streets = LocalSearch.Request(naturalLanguageQuery: "mannerheimvägen")
    streets.resultTypes = .streets
    let found = LocalSearch(request: streets, gazetteer: gazetteer).results()
    #expect(found.mapItems.map(\.label) == ["Mannerheimintie (street, helsinki)"])
  }

  @Test("a point-of-interest filter and the result types leave out what they exclude")
  func filters() throws {
    let gazetteer = try #require(HelsinkiNames.gazetteer)
    var request = LocalSearch.Request(
      naturalLanguageQuery: "a", region: HelsinkiNames.senateSquare)
    request.naturalLanguageQuery = "ateneum"
    #expect(
      LocalSearch(request: request, gazetteer: gazetteer).results().mapItems.map(\.name) == [
        "Ateneum"
      ])
    request.pointOfInterestFilter = PointOfInterestFilter(excluding: [.museum])
    #expect(LocalSearch(request: request, gazetteer: gazetteer).results().mapItems.isEmpty)
    request.naturalLanguageQuery = "cafe"
    request.pointOfInterestFilter = PointOfInterestFilter(including: [.museum])
    let noCafes = LocalSearch(request: request, gazetteer: gazetteer).results()
    #expect(!noCafes.mapItems.contains { $0.pointOfInterestCategory == .cafe })
  }

  @Test("start() searches off the caller's actor, and says when nothing matches")
  func asynchronous() async throws {
    let gazetteer = try #require(HelsinkiNames.gazetteer)
    let found = try await LocalSearch(
      request: .init(naturalLanguageQuery: "Kallio", region: HelsinkiNames.senateSquare),
      gazetteer: gazetteer
    ).start()
    #expect(found.mapItems.first?.name == "Kallio")
    // The bounding region holds every item.
    let region = try #require(found.boundingRegion)
    for item in found.mapItems {
      #expect(
        abs(item.coordinate.latitude - region.center.latitude) <= region.span.latitudeDelta / 2
          + 1e-9)
      #expect(
        abs(item.coordinate.longitude - region.center.longitude) <= region.span.longitudeDelta / 2
          + 1e-9)
    }
    await #expect(throws: LocalSearch.Error.placemarkNotFound(query: "qqxqqzz")) {
      try await LocalSearch(request: .init(naturalLanguageQuery: "qqxqqzz"), gazetteer: gazetteer)
        .start()
    }
  }
}
