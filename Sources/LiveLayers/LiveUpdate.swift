import MapGeometry

/// What a target is: it decides the marker's glyph and the default time-to-live.
public enum TargetKind: String, Sendable, Equatable, CaseIterable {
  /// An aircraft (dump1090/readsb `aircraft.json`, or a feature whose `kind` says so).
  case aircraft
  /// A vessel (gpsd AIS reports, or a feature whose `kind` says so).
  case vessel
  /// Anything else: a GeoJSON feature or a CSV row.
  case feature
}

/// The geometry a message gives a target.
public enum LiveGeometry: Sendable, Equatable {
  /// A position.
  case point(Coordinate)
  /// Lines (a LineString is one, a MultiLineString several).
  case lines([[Coordinate]])
  /// Polygons, each its outer ring then its holes (a Polygon is one, a MultiPolygon several).
  case polygons([[[Coordinate]]])
  /// `"geometry": null`: the target is removed.
  case removed
  /// The message gives no geometry (a vessel's name, an aircraft not yet placed): the
  /// target keeps the one it has, and its properties are merged.
  case unchanged
}

/// One message about one target, as a source's reader decoded it.
public struct LiveUpdate: Sendable, Equatable {
  /// The target's id: the feature's `id`, the aircraft's hex, the vessel's MMSI.
  public var id: String
  /// What the target is.
  public var kind: TargetKind
  /// Its new geometry.
  public var geometry: LiveGeometry
  /// Properties to merge into the target's.
  public var properties: [LiveProperty]
  /// How many seconds before it was read the message was current (aircraft.json's
  /// `seen_pos`); 0 for now.
  public var age: Double

  /// An update.
  public init(
    id: String, kind: TargetKind = .feature, geometry: LiveGeometry,
    properties: [LiveProperty] = [], age: Double = 0
  ) {
    self.id = id
    self.kind = kind
    self.geometry = geometry
    self.properties = properties
    self.age = age
  }
}

/// What a reader counted: what it took, and what it refused and why.
public struct LiveStatistics: Sendable, Equatable {
  /// Messages decoded into updates.
  public var accepted = 0
  /// Lines (or documents) that could not be read, were too long, or whose coordinates were
  /// refused: skipped, never fatal.
  public var malformed = 0
  /// Lines over the length limit (counted in `malformed` too).
  public var overlong = 0
  /// Targets dropped because there were more than the limit (the least recently updated go).
  public var droppedTargets = 0
  /// The last problem, for the status line.
  public var lastProblem: String?

  /// Counts of nothing.
  public init() {}

  /// Adds another reader's counts.
  public mutating func add(_ o: LiveStatistics) {
    accepted += o.accepted
    malformed += o.malformed
    overlong += o.overlong
    droppedTargets += o.droppedTargets
    if let p = o.lastProblem { lastProblem = p }
  }
}
