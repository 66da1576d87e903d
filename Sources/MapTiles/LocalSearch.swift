import Foundation
import MapGeometry
import TermMapKit

/// A place found by a ``LocalSearch`` (MKMapItem): a town from the gazetteer, or a name from a
/// stored region (a street, a suburb, a café, a bay).
public struct MapItem: Sendable, Equatable {
  /// The place as the gazetteer holds it.
  public let place: Place
  /// How far it is from the centre of the request's region, in metres (nil without a region).
  public let distance: Double?
  /// Whether it lies inside the request's region.
  public let isInRegion: Bool

  /// Its name.
  public var name: String { place.name }
  /// Where it is.
  public var coordinate: Coordinate { place.coordinate }
  /// "Paris, France", or "Café de Paris (cafe, monaco)".
  public var label: String { place.label }
  /// For a point of interest of a stored region: its class (`cafe`, `museum`), which a
  /// `PointOfInterestFilter` matches; nil for anything else.
  public var pointOfInterestCategory: PointOfInterestCategory? {
    place.category == .poi ? place.kind.map(PointOfInterestCategory.init(rawValue:)) : nil
  }
}

/// A search for places by name over the gazetteer and the names of stored regions
/// (MKLocalSearch): a ``Request`` with a query and, optionally, a region to look in; a
/// ``Response`` with the items found, the best matches first.
///
/// Matching is the viewer's `/` search (``Gazetteer``): without regard to case, accents or
/// abbreviations, exact names before names that start with the query before names with a word
/// that does; alternate names and other scripts count; a typo or two is forgiven when nothing
/// else matches; "name, country" narrows by country. A query that is a kind of place of the
/// stored regions ("cafe", "pharmacy", "street") also finds every name of that kind, after
/// names starting with it. Among equal matches, items inside the region come first; then the
/// more populous, then the nearer the region's centre (so the cafés of a region come nearest
/// first, and a town the size of Paris before a hamlet of the same name).
public struct LocalSearch: Sendable {
  /// What to look for (MKLocalSearch.Request).
  public struct Request: Sendable {
    /// The text to look for: a name, part of one, or a kind of place.
    public var naturalLanguageQuery: String
    /// Where to look first (nil: anywhere, by population).
    public var region: CoordinateRegion?
    /// Which kinds of result (all by default).
    public var resultTypes: ResultTypes = .all
    /// Which points of interest may be found (nil: all).
    public var pointOfInterestFilter: PointOfInterestFilter?
    /// At most this many items.
    public var limit = 25

    /// A request for a query, optionally near a region.
    public init(naturalLanguageQuery: String, region: CoordinateRegion? = nil) {
      self.naturalLanguageQuery = naturalLanguageQuery
      self.region = region
    }
  }

  /// Kinds of result (MKLocalSearch.ResultType).
  public struct ResultTypes: OptionSet, Sendable {
    /// The option bits.
    public let rawValue: Int
    /// Options from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Towns and cities of the gazetteer, and the places (suburbs, villages) of stored regions.
    public static let places = ResultTypes(rawValue: 1)
    /// Streets of stored regions.
    public static let streets = ResultTypes(rawValue: 2)
    /// Points of interest of stored regions.
    public static let pointsOfInterest = ResultTypes(rawValue: 4)
    /// Seas, lakes and rivers of stored regions.
    public static let water = ResultTypes(rawValue: 8)
    /// Every kind.
    public static let all: ResultTypes = [.places, .streets, .pointsOfInterest, .water]
  }

  /// What a search found (MKLocalSearch.Response).
  public struct Response: Sendable {
    /// The items, the best first.
    public let mapItems: [MapItem]
    /// A region holding every item (the request's region, or none, when nothing was found).
    public let boundingRegion: CoordinateRegion?
  }

  /// Why a search found nothing.
  public enum Error: Swift.Error, Equatable, CustomStringConvertible {
    /// No place matches the query (MKError.placemarkNotFound).
    case placemarkNotFound(query: String)

    /// "no place matches "xyz"".
    public var description: String {
      switch self {
      case .placemarkNotFound(let q): "no place matches \"\(SafeText.clean(q))\""
      }
    }
  }

  /// The request searched.
  public let request: Request
  /// The names searched.
  public let gazetteer: Gazetteer

  /// A search of `gazetteer` (its places and the stored regions' names it was made with).
  public init(request: Request, gazetteer: Gazetteer) {
    self.request = request
    self.gazetteer = gazetteer
  }

  /// Searches off the caller's actor; throws ``Error/placemarkNotFound(query:)`` when nothing
  /// matches (as MKLocalSearch's `start()`).
  public func start() async throws -> Response {
    let response = await Task.detached { [self] in results() }.value
    if response.mapItems.isEmpty {
      throw Error.placemarkNotFound(query: request.naturalLanguageQuery)
    }
    return response
  }

  /// Searches now, on this thread (a few milliseconds: what the viewer's `/` does per key).
  public func results() -> Response {
    let r = request
    var scored = gazetteer.scoredMatches(r.naturalLanguageQuery)
    // A kind of place ("cafe", "cafes", "pharmacy"): every name of that kind, ranked just after
    // names that start with the query.
    let kind = Gazetteer.foldedKey(r.naturalLanguageQuery.trimmingCharacters(in: .whitespaces))
    if kind.count >= 3 {
      let singular = kind.hasSuffix("s") ? String(kind.dropLast()) : kind
      var matched = Set(scored.map(\.index))
      for key in Set([kind, singular]) {
        for i in gazetteer.placesByKind[key] ?? [] where matched.insert(Int(i)).inserted {
          scored.append((3, Int(i)))
        }
      }
    }
    let places = gazetteer.places
    let region = r.region
    let bounds = region.map(Self.bounds)
    var items: [(score: UInt8, item: MapItem, index: Int)] = []
    for (score, i) in scored {
      let p = places[i]
      guard r.resultTypes.contains(Self.type(of: p)) else { continue }
      if let filter = r.pointOfInterestFilter, p.category == .poi,
        !filter.includes(PointOfInterestCategory(rawValue: p.kind ?? ""))
      {
        continue
      }
      let inside = bounds.map { b in Self.contains(b, p.coordinate) } ?? false
      let distance = region.map { Geodesic.distance($0.center, p.coordinate) }
      items.append(
        (score, MapItem(place: p, distance: distance, isInRegion: inside), i))
    }
    items.sort { a, b in
      if a.score != b.score { return a.score < b.score }
      if a.item.isInRegion != b.item.isInRegion { return a.item.isInRegion }
      if a.item.place.population != b.item.place.population {
        return a.item.place.population > b.item.place.population
      }
      if let da = a.item.distance, let db = b.item.distance, da != db { return da < db }
      let (oa, ob) = (gazetteer.categoryOrder(a.index), gazetteer.categoryOrder(b.index))
      return oa != ob ? oa < ob : a.index < b.index
    }
    let found = items.prefix(max(r.limit, 0)).map(\.item)
    return Response(mapItems: Array(found), boundingRegion: Self.boundingRegion(found) ?? region)
  }

  /// The result type of a place.
  static func type(of p: Place) -> ResultTypes {
    switch p.category {
    case nil, .place?: .places
    case .street?: .streets
    case .poi?: .pointsOfInterest
    case .water?: .water
    }
  }

  /// A region's south, west, north and east edges (the east past 180 across the antimeridian).
  static func bounds(_ r: CoordinateRegion) -> (s: Double, w: Double, n: Double, e: Double) {
    (
      r.center.latitude - r.span.latitudeDelta / 2, r.center.longitude - r.span.longitudeDelta / 2,
      r.center.latitude + r.span.latitudeDelta / 2, r.center.longitude + r.span.longitudeDelta / 2
    )
  }

  static func contains(_ b: (s: Double, w: Double, n: Double, e: Double), _ c: Coordinate) -> Bool {
    guard c.latitude >= b.s && c.latitude <= b.n else { return false }
    for lon in [c.longitude, c.longitude + 360, c.longitude - 360] where lon >= b.w && lon <= b.e {
      return true
    }
    return false
  }

  /// The smallest region holding every item (nil for none).
  static func boundingRegion(_ items: [MapItem]) -> CoordinateRegion? {
    guard let first = items.first else { return nil }
    var (s, w, n, e) = (
      first.coordinate.latitude, first.coordinate.longitude, first.coordinate.latitude,
      first.coordinate.longitude
    )
    for item in items.dropFirst() {
      s = min(s, item.coordinate.latitude)
      n = max(n, item.coordinate.latitude)
      w = min(w, item.coordinate.longitude)
      e = max(e, item.coordinate.longitude)
    }
    return CoordinateRegion(
      center: Coordinate(latitude: (s + n) / 2, longitude: (w + e) / 2),
      span: CoordinateSpan(latitudeDelta: n - s, longitudeDelta: e - w))
  }
}
