import DotRaster
import Foundation
import MapGeometry
import Synchronization

/// A position report handed to the map (CLLocation's role): metres, metres per second and
/// degrees clockwise from true north; nil where the source did not say.
public struct Location: Sendable, Equatable {
  /// Where the user is.
  public var coordinate: Coordinate
  /// Metres above mean sea level.
  public var altitude: Double?
  /// The radius of uncertainty in metres.
  public var horizontalAccuracy: Double?
  /// Degrees clockwise from true north.
  public var course: Double?
  /// Metres per second over ground.
  public var speed: Double?
  /// When the position was taken.
  public var timestamp: Date

  /// A location; what the source did not say is nil.
  public init(
    coordinate: Coordinate, altitude: Double? = nil, horizontalAccuracy: Double? = nil,
    course: Double? = nil, speed: Double? = nil, timestamp: Date = Date()
  ) {
    self.coordinate = coordinate
    self.altitude = altitude
    self.horizontalAccuracy = horizontalAccuracy
    self.course = course
    self.speed = speed
    self.timestamp = timestamp
  }
}

/// How the map follows the user's location (MKUserTrackingMode).
public enum UserTrackingMode: Int, Sendable, CaseIterable, CustomStringConvertible {
  /// The map does not move by itself.
  case none = 0
  /// The map keeps the position on screen.
  case follow = 1
  /// The map keeps the position on screen with room ahead of it along the course (a terminal
  /// cannot rotate the map; the marker shows the heading).
  case followWithHeading = 2

  /// The mode's name, as MapKit spells it.
  public var description: String {
    switch self {
    case .none: return "none"
    case .follow: return "follow"
    case .followWithHeading: return "followWithHeading"
    }
  }

  /// The next mode in the cycle none → follow → follow with heading → none.
  public var next: UserTrackingMode {
    UserTrackingMode(rawValue: (rawValue + 1) % 3) ?? .none
  }
}

/// The annotation for the user's position (MKUserLocation). The map owns one; it is on the
/// map (in `annotations`) while `showsUserLocation` is true and a location has arrived.
public final class UserLocation: DefaultAnnotationViewProviding {
  /// The latest location, nil until the first one.
  public internal(set) var location: Location?
  /// True while the map is locating the user (`showsUserLocation`).
  public internal(set) var isUpdating = false
  /// The callout's title.
  public var title: String? = "My Location"
  /// The callout's subtitle.
  public var subtitle: String?

  init() {}

  /// The position's own marker (`UserLocationView`), unless the delegate gives a view.
  public func makeDefaultAnnotationView() -> AnnotationView {
    UserLocationView(annotation: self, reuseIdentifier: nil)
  }

  /// The latest location's coordinate (0, 0 before the first).
  public var coordinate: Coordinate {
    location?.coordinate ?? Coordinate(latitude: 0, longitude: 0)
  }

  /// The direction of travel, when moving.
  public var heading: Double? {
    guard let l = location, let c = l.course else { return nil }
    if let s = l.speed, s < UserLocation.stillSpeed { return nil }
    return c
  }

  /// Below this speed (m/s), a course is noise and no heading is shown.
  public static let stillSpeed = 0.3

  /// The callout's lines: accuracy, speed, course and elevation.
  public var detailLines: [String] {
    guard let l = location else { return [] }
    var lines: [String] = []
    if let a = l.horizontalAccuracy { lines.append(String(format: "accuracy ±%.0f m", a)) }
    if let s = l.speed { lines.append(String(format: "speed %.1f km/h", s * 3.6)) }
    if let c = heading { lines.append(String(format: "course %.0f°", c)) }
    if let e = l.altitude { lines.append(String(format: "elevation %.0f m", e)) }
    return lines
  }
}

/// The user location's marker: an arrow pointing along the heading, or a dot when still
/// (MKUserLocationView). It is never hidden by other markers.
public final class UserLocationView: AnnotationView {
  /// A view for the user location (cyan, never hidden by collisions).
  public required init(annotation: (any Annotation)?, reuseIdentifier: String?) {
    super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
    color = .brightCyan
    displayPriority = .required
    zPriority = 900
    collisionMode = .none
    refresh()
  }

  /// Takes the glyph from the heading before the view shows.
  public override func prepareForDisplay() {
    super.prepareForDisplay()
    refresh()
  }

  /// Takes the glyph from the annotation's heading.
  public func refresh() {
    let heading = (annotation as? UserLocation)?.heading
    (glyph, asciiGlyph) = UserLocationView.glyphs(heading: heading)
  }

  /// The marker for a heading: one of eight arrows, or a dot without one.
  public nonisolated static func glyphs(heading: Double?) -> (Character, Character) {
    guard let h = heading, h.isFinite else { return ("◉", "@") }
    let arrows: [(Character, Character)] = [
      ("↑", "^"), ("↗", "/"), ("→", ">"), ("↘", "\\"), ("↓", "v"), ("↙", "/"), ("←", "<"),
      ("↖", "\\"),
    ]
    var k = Int((h / 45).rounded()) % 8
    if k < 0 { k += 8 }
    return arrows[k]
  }
}

/// The map's user-location state, kept in the map view.
@MainActor
struct UserLocationState {
  var shows = false
  var mode = UserTrackingMode.none
  let userLocation = UserLocation()
  var onMap = false
  let accuracy = AccuracyCircle()
}

/// The accuracy circle around the user's position: an overlay the map adds while it shows
/// the user's location. Its one circle changes with every fix, so it lives behind a mutex and
/// its bounding rect is the world; each change redraws only the tiles of the old and the new
/// circle.
public final class AccuracyCircle: Overlay, DefaultRendering {
  struct State: Sendable {
    var center: MapPoint
    var radius: Double
    var rect: MapRect {
      MapRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius)
    }
  }
  let state = Mutex<State?>(nil)

  /// The world: the circle moves, and a bounding rect must never change.
  public var boundingMapRect: MapRect { .world }
  /// "accuracy".
  public var title: String? { "accuracy" }
  /// None: a decoration of the user's location, not content to fit the view to.
  public var contentBounds: MapRect { .null }

  /// Whether the circle as it is now meets a rect.
  public func intersects(_ mapRect: MapRect) -> Bool {
    guard let s = state.withLock({ $0 }) else { return false }
    return s.rect.insetBy(dx: -1, dy: -1).intersects(mapRect)
  }

  /// Moves the circle; returns the map rect to redraw (old and new circles).
  func update(center: Coordinate?, radiusMeters: Double?) -> MapRect {
    let new: State? = center.flatMap { c in
      radiusMeters.flatMap { r in
        r.isFinite && r > 0
          ? State(
            center: MapPoint(c), radius: r * Mercator.mapPointsPerMeter(atLatitude: c.latitude))
          : nil
      }
    }
    let old = state.withLock { s in
      defer { s = new }
      return s
    }
    return (old?.rect ?? .null).union(new?.rect ?? .null)
  }

  /// An `AccuracyCircleRenderer`.
  public func makeDefaultRenderer() -> OverlayRenderer { AccuracyCircleRenderer(overlay: self) }
}

/// Draws the accuracy circle as a dotted ring (only when it is at least two dots across).
public final class AccuracyCircleRenderer: OverlayRenderer, @unchecked Sendable {
  /// Strokes the circle as it is now, dotted, when it is at least two dots across.
  public override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    guard let circle = overlay as? AccuracyCircle, let s = circle.state.withLock({ $0 }),
      s.radius * zoomScale >= 2
    else { return }
    context.strokeColor = .cyan
    context.lineWidth = 1 / zoomScale
    context.setLineDash(phase: 0, lengths: [1 / zoomScale, 2 / zoomScale])
    context.addEllipse(in: rect(for: s.rect))
    context.strokePath()
  }

  /// Two dots: the ring's stroke reaches past the circle.
  public override func tileMargin(zoomScale: Double) -> Double { 2 / zoomScale }
}
