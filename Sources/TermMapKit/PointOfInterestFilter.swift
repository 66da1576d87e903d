/// A kind of point of interest (MKPointOfInterestCategory): the class the map's tiles give a
/// named place — `cafe`, `museum`, `pharmacy` — as the tile schema spells it (OpenMapTiles'
/// `class`, Protomaps' `kind`, Shortbread's `amenity`, `shop`, `tourism`, … value).
public struct PointOfInterestCategory: RawRepresentable, Hashable, Sendable,
  ExpressibleByStringLiteral, CustomStringConvertible
{
  /// The class as the tiles spell it.
  public let rawValue: String

  /// A category from the tiles' spelling.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// A category from a string literal (`"cafe"`).
  public init(stringLiteral value: String) { rawValue = value }

  /// The class as the tiles spell it.
  public var description: String { rawValue }

  /// Cafés.
  public static let cafe: Self = "cafe"
  /// Restaurants.
  public static let restaurant: Self = "restaurant"
  /// Bars.
  public static let bar: Self = "bar"
  /// Museums.
  public static let museum: Self = "museum"
  /// Pharmacies.
  public static let pharmacy: Self = "pharmacy"
  /// Hospitals.
  public static let hospital: Self = "hospital"
  /// Schools.
  public static let school: Self = "school"
  /// Car parks.
  public static let parking: Self = "parking"
  /// Banks.
  public static let bank: Self = "bank"
  /// Fuel stations.
  public static let fuel: Self = "fuel"
  /// Parks.
  public static let park: Self = "park"
}

/// Which points of interest the map names (MKPointOfInterestFilter): only some categories,
/// or all but some. Names that are not points of interest (places, streets, water) always
/// show; a map without a filter names every point of interest.
public struct PointOfInterestFilter: Sendable, Equatable {
  let categories: Set<PointOfInterestCategory>
  let including: Bool

  /// Names only points of interest of these categories.
  public init(including categories: [PointOfInterestCategory]) {
    self.categories = Set(categories)
    including = true
  }

  /// Names every point of interest except those of these categories.
  public init(excluding categories: [PointOfInterestCategory]) {
    self.categories = Set(categories)
    including = false
  }

  /// Names every point of interest.
  public static let includingAll = PointOfInterestFilter(excluding: [])
  /// Names no point of interest.
  public static let excludingAll = PointOfInterestFilter(including: [])

  /// Whether points of interest of a category are named.
  public func includes(_ category: PointOfInterestCategory) -> Bool {
    categories.contains(category) == including
  }

  /// Whether a label shows: a label with no category is not a point of interest and shows.
  public func includes(_ label: MapLabel) -> Bool {
    label.category.map { includes($0) } ?? true
  }
}
