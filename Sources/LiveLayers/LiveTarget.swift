import DotRaster
import MapData
import MapGeometry
import Synchronization
import TermMapKit

/// A live target on the map: an annotation whose coordinate, heading, properties and
/// staleness change in place as messages arrive (a `LiveLayer` sets them and tells the map
/// with `MapView.annotationsDidMove(_:)`); its standard view is a `LiveTargetView`.
///
/// It is `Sendable` (checked: its fields live in a `Mutex`), as `PointAnnotation` is.
public final class LiveTarget: MovableAnnotation, DefaultAnnotationViewProviding,
  GeoJSONFeatureProviding,
  Sendable
{
  /// The target's id (a feature's `id`, an aircraft's hex, a vessel's MMSI).
  public let id: String
  private let fields: Mutex<TargetState>
  /// What the marker shows, worked out once per state (a frame reads it for every target on
  /// screen).
  private let shown: Mutex<Display>

  struct Display {
    var title: String
    var heading: Double?
    var symbol: (glyph: Character, ascii: Character?)?
    var color: TermColor?
    var kind: TargetKind
    var isStale: Bool

    /// Grey while stale, else `marker-color`, else the kind's colour.
    var drawnColor: TermColor {
      isStale ? .brightBlack : color ?? LiveTargetView.color(for: kind)
    }
  }

  /// The clustering identifier its view takes (nil: its marker never joins a cluster).
  public let clusteringIdentifier: String?

  /// A target in a state; its view joins clusters named `clusteringIdentifier` where markers
  /// are dense.
  public init(_ state: TargetState, clusteringIdentifier: String? = LiveTargetView.clusters) {
    id = state.id
    self.clusteringIdentifier = clusteringIdentifier
    fields = Mutex(state)
    shown = Mutex(Self.display(of: state))
  }

  /// The target's state as the store last gave it.
  public var state: TargetState {
    get { fields.withLock { $0 } }
    set { update(newValue) }
  }

  /// Takes a new state; true when what the marker shows changed with it.
  ///
  /// What the marker shows depends on the properties, the kind and staleness, not the
  /// position: a target that only moved (most updates) keeps it, and its view need not be
  /// prepared again (`LiveLayer` moves it with `redisplaying` false).
  ///
  /// A target that only moved takes its new position, time and trail, and keeps its id and
  /// properties as they are (the store's properties are then the very array it holds): no
  /// copy of the whole state.
  @discardableResult
  func update(_ newValue: TargetState) -> Bool {
    let same = fields.withLock { s in
      let same =
        s.kind == newValue.kind && s.isStale == newValue.isStale
        && s.properties == newValue.properties
      if same && s.id == newValue.id {
        s.geometry = newValue.geometry
        s.lastSeen = newValue.lastSeen
        s.timeToLive = newValue.timeToLive
        s.trail = newValue.trail
      } else {
        s = newValue
      }
      return same
    }
    if !same {
      let d = Self.display(of: newValue)
      shown.withLock { $0 = d }
    }
    return !same
  }

  /// `update(_:)` from a state where the store keeps it (`TargetStore.takeChangedSlots(_:)`),
  /// read field by field: the state is not copied as a whole (passing `pointee` on made a copy
  /// of every field, its id and arrays retained and released, for each moved target).
  /// The pointer must be valid during the call.
  @discardableResult
  func update(from state: UnsafePointer<TargetState>) -> Bool {
    let same = fields.withLock { s in
      let same =
        s.kind == state.pointee.kind && s.isStale == state.pointee.isStale
        && s.properties == state.pointee.properties
      if same && s.id == state.pointee.id {
        s.geometry = state.pointee.geometry
        s.lastSeen = state.pointee.lastSeen
        s.timeToLive = state.pointee.timeToLive
        // (Without trails, both empty: not assigned, which was a retain and a release.)
        if !(s.trail.isEmpty && state.pointee.trail.isEmpty) { s.trail = state.pointee.trail }
      } else {
        s = state.pointee
      }
      return same
    }
    if !same {
      let d = Self.display(of: state.pointee)
      shown.withLock { $0 = d }
    }
    return !same
  }

  var display: Display { shown.withLock { $0 } }

  static func display(of s: TargetState) -> Display {
    var title = SafeText.clean(s.id)
    for key in ["title", "name", "flight", "shipname", "callsign"] {
      if let t = s.properties.first(where: { $0.key == key })?.value.textValue {
        let clean = SafeText.clean(t)
        if !clean.isEmpty {
          title = clean
          break
        }
      }
    }
    var heading: Double?
    for key in ["heading", "course", "track"] {
      if let v = s.properties.first(where: { $0.key == key })?.value.numberValue, v.isFinite,
        v >= -360, v <= 720
      {
        heading = (v.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(
          dividingBy: 360)
        break
      }
    }
    var symbol: (glyph: Character, ascii: Character?)?
    if let t = s.properties.first(where: { $0.key == "marker-symbol" })?.value.textValue {
      symbol = MarkerSymbol.glyphs(for: t)
    }
    var color: TermColor?
    if case .string(let c)? = s.properties.first(where: { $0.key == "marker-color" })?.value {
      color = FeatureStyle.trueColor(css: c)
    }
    return Display(
      title: title, heading: heading, symbol: symbol, color: color, kind: s.kind,
      isStale: s.isStale)
  }

  /// Where it is (its last position; for a line or a polygon, its first point).
  public var coordinate: Coordinate {
    get {
      fields.withLock { s in
        switch s.geometry {
        case .point(let c): return c
        case .lines(let l): return l.first?.first ?? Coordinate(latitude: 0, longitude: 0)
        case .polygons(let p): return p.first?.first?.first ?? Coordinate(latitude: 0, longitude: 0)
        case .removed, .unchanged: return Coordinate(latitude: 0, longitude: 0)
        }
      }
    }
    set { fields.withLock { $0.geometry = .point(newValue) } }
  }

  /// What it is.
  public var kind: TargetKind { display.kind }

  /// Whether it is drawn stale (silent for its time-to-live).
  public var isStale: Bool { display.isStale }

  /// A property's value.
  public func property(_ key: String) -> LiveValue? {
    fields.withLock { s in s.properties.first { $0.key == key }?.value }
  }

  /// The direction it moves or points, in degrees clockwise from north: `heading`, else
  /// `course`, else `track` (nil when none is a number).
  public var heading: Double? { display.heading }

  /// The label: `title`, `name`, `flight` (an aircraft's call sign), `shipname` (a vessel's
  /// name, before its call sign), `callsign`, else the id.
  public var title: String? { display.title }

  /// The kind and how long since it was heard of is not known here; the callout's second
  /// line is the kind and the id.
  public var subtitle: String? { "\(kind.rawValue) \(SafeText.clean(id))" }

  /// Every property, one line each (`key: value`).
  public var detailLines: [String] {
    fields.withLock { s in
      s.properties.map { p in
        let line = "\(SafeText.clean(p.key)): \(p.value.displayText)"
        return line.count > 120 ? String(line.prefix(119)) + "…" : line
      }
    }
  }

  /// `marker-color` (simplestyle: `#rgb`, `#rrggbb` or a CSS colour name) as a 24-bit
  /// terminal colour (sent as its nearest xterm-256 or basic colour where the terminal has
  /// no more).
  public var markerColor: TermColor? { display.color }

  /// The colour its marker and its trail are drawn in: grey while stale, else `marker-color`,
  /// else its kind's (`LiveTargetView.color(for:)`).
  var drawnColor: TermColor { display.drawnColor }

  /// The glyph `marker-symbol` asks for: a Maki icon name's (`MarkerSymbol.maki`), or its one
  /// character; nil when it names nothing drawn (the kind's glyph is).
  public var markerSymbol: Character? { display.symbol?.glyph }

  /// The target as one line of GeoJSON: a Feature with its id, its geometry and every
  /// property (what `termmap pick` prints).
  public var geoJSONFeature: String {
    let s = state
    var out = "{\"type\":\"Feature\",\"id\":\(JSONText.quoted(s.id)),\"geometry\":"
    func position(_ c: Coordinate) -> String {
      "[\(JSONText.number(c.longitude)),\(JSONText.number(c.latitude))]"
    }
    func list(_ cs: [Coordinate]) -> String { "[" + cs.map(position).joined(separator: ",") + "]" }
    switch s.geometry {
    case .point(let c): out += "{\"type\":\"Point\",\"coordinates\":\(position(c))}"
    case .lines(let l) where l.count == 1:
      out += "{\"type\":\"LineString\",\"coordinates\":\(list(l[0]))}"
    case .lines(let l):
      out +=
        "{\"type\":\"MultiLineString\",\"coordinates\":[\(l.map(list).joined(separator: ","))]}"
    case .polygons(let p) where p.count == 1:
      out +=
        "{\"type\":\"Polygon\",\"coordinates\":[\(p[0].map(list).joined(separator: ","))]}"
    case .polygons(let p):
      let polys = p.map { "[" + $0.map(list).joined(separator: ",") + "]" }
      out += "{\"type\":\"MultiPolygon\",\"coordinates\":[\(polys.joined(separator: ","))]}"
    case .removed, .unchanged: out += "null"
    }
    out += ",\"properties\":{"
    out += s.properties.map { "\(JSONText.quoted($0.key)):\($0.value.jsonText)" }.joined(
      separator: ",")
    out += "}}"
    return out
  }

  /// A `LiveTargetView`.
  @MainActor public func makeDefaultAnnotationView() -> AnnotationView {
    LiveTargetView(annotation: self, reuseIdentifier: nil)
  }
}

/// A live target's marker: a glyph by kind pointing in one of eight directions by its
/// heading (aircraft `↑↗→↘↓↙←↖`, vessels `▲◥▶◢▼◣◀◤`, other features `●` or, with a heading,
/// the arrows), or its `marker-symbol` (a Maki icon name's glyph, `MarkerSymbol`, or one
/// character); its `marker-color`; its title as the label; grey while stale.
@MainActor
public final class LiveTargetView: MarkerAnnotationView {
  /// The clustering identifier live targets share by default.
  nonisolated public static let clusters = "termmap.live-targets"

  static let arrows: [Character] = ["↑", "↗", "→", "↘", "↓", "↙", "←", "↖"]
  static let ships: [Character] = ["▲", "◥", "▶", "◢", "▼", "◣", "◀", "◤"]
  static let asciiArrows: [Character] = ["^", "/", ">", "\\", "v", "/", "<", "\\"]

  /// The eighth of the compass a heading points to (0 north, 1 north-east, … 7 north-west).
  public static func octant(_ heading: Double) -> Int {
    Int(((heading + 22.5) / 45).rounded(.down)) & 7
  }

  /// The glyph and its ASCII stand-in for a kind and heading.
  public static func glyphs(kind: TargetKind, heading: Double?) -> (Character, Character) {
    guard let h = heading else {
      switch kind {
      case .aircraft: return ("✈", "A")
      case .vessel: return ("◆", "V")
      case .feature: return ("●", "@")
      }
    }
    let o = octant(h)
    return (kind == .vessel ? ships[o] : arrows[o], asciiArrows[o])
  }

  /// A target's view; it joins the clusters its target names where markers are dense.
  public required init(annotation: (any Annotation)?, reuseIdentifier: String?) {
    super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
    clusteringIdentifier = (annotation as? LiveTarget)?.clusteringIdentifier
  }

  public override func prepareForDisplay() {
    super.prepareForDisplay()
    guard let t = annotation as? LiveTarget else { return }
    let d = t.display
    let (g, a) = Self.glyphs(kind: d.kind, heading: d.heading)
    if let symbol = d.symbol {
      glyph = symbol.glyph
      asciiGlyph = symbol.ascii ?? a
    } else {
      glyph = g
      asciiGlyph = a
    }
    color = d.drawnColor
  }

  /// The colour of a kind's markers without `marker-color`.
  nonisolated public static func color(for kind: TargetKind) -> TermColor {
    switch kind {
    case .aircraft: return .brightCyan
    case .vessel: return .brightGreen
    case .feature: return .brightYellow
    }
  }
}
