import MapTiles

// The place search moved to MapTiles (where `LocalSearch` uses it); these names keep the
// viewer's code and its tests as they were.

/// The place-name search (`MapTiles.Gazetteer`).
public typealias Gazetteer = MapTiles.Gazetteer
/// A place or a region's name found by the search (`MapTiles.Place`).
public typealias Place = MapTiles.Place
