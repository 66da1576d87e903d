import Foundation
import MapGeometry

/// The user's location on the map (MKMapView's user-location part): `showsUserLocation`,
/// `userLocation`, `userTrackingMode`, `isUserLocationVisible`, and the delegate calls in
/// MapKit's order. The map has no location manager of its own: the host hands it locations
/// (`updateUserLocation`) and failures (`failToLocateUser`) from a provider.
extension MapView {
  /// Whether the map shows (and follows the updates of) the user's location. Turning it on
  /// sends `mapViewWillStartLocatingUser`; off sends `mapViewDidStopLocatingUser` (and ends
  /// tracking).
  public var showsUserLocation: Bool {
    get { userLocationState.shows }
    set {
      guard newValue != userLocationState.shows else { return }
      userLocationState.shows = newValue
      let u = userLocationState.userLocation
      if newValue {
        u.isUpdating = true
        addOverlay(userLocationState.accuracy, level: .aboveLabels)
        if u.location != nil { putUserLocationOnMap() }
        delegate?.mapViewWillStartLocatingUser(self)
      } else {
        u.isUpdating = false
        if userLocationState.mode != .none { setUserTrackingMode(.none, animated: false) }
        if userLocationState.onMap {
          removeAnnotation(u)
          userLocationState.onMap = false
        }
        removeOverlay(userLocationState.accuracy)
        delegate?.mapViewDidStopLocatingUser(self)
      }
    }
  }

  /// The annotation of the user's position (always the same object).
  public var userLocation: UserLocation { userLocationState.userLocation }

  /// True when the user's location is known, shown, and inside the visible area.
  public var isUserLocationVisible: Bool {
    guard userLocationState.shows, userLocationState.onMap, userLocation.location != nil else {
      return false
    }
    let p = MapPoint(userLocation.coordinate)
    let v = visibleMapRect
    let w = MapSize.world.width
    return [0, -w, w].contains { v.contains(MapPoint(x: p.x + $0, y: p.y)) }
  }

  /// How the map follows the user's location. Setting a following mode turns
  /// `showsUserLocation` on (as MapKit does) and brings the position on screen.
  public var userTrackingMode: UserTrackingMode {
    get { userLocationState.mode }
    set { setUserTrackingMode(newValue, animated: false) }
  }

  /// Changes the tracking mode: the delegate hears `didChange mode` once, then, when a
  /// location is known and the mode follows, the map moves to it (one will/did pair).
  public func setUserTrackingMode(_ mode: UserTrackingMode, animated: Bool) {
    guard mode != userLocationState.mode else { return }
    if mode != .none && !showsUserLocation { showsUserLocation = true }
    userLocationState.mode = mode
    delegate?.mapView(self, didChange: mode, animated: animated)
    if mode != .none, userLocation.location != nil, !isInteracting {
      followUserLocation(animated: animated, always: true)
    }
  }

  /// A new location from the provider (the location manager's update). While the map shows
  /// the user's location: the annotation moves, the accuracy circle follows,
  /// `didUpdate userLocation` is sent, and then, when tracking and the position is leaving
  /// the middle of the screen, the map moves (one will/did pair).
  public func updateUserLocation(_ location: Location) {
    guard userLocationState.shows else { return }
    let u = userLocationState.userLocation
    u.location = location
    putUserLocationOnMap()
    let changed = userLocationState.accuracy.update(
      center: location.coordinate, radiusMeters: location.horizontalAccuracy)
    if !changed.isNull, let r = renderer(for: userLocationState.accuracy) {
      r.setNeedsDisplay(changed.insetBy(dx: -2 / zoomScale, dy: -2 / zoomScale))
    }
    delegate?.mapView(self, didUpdate: u)
    if userLocationState.mode != .none && !isInteracting && !isAnimating {
      followUserLocation(animated: false, always: false)
    }
  }

  /// The provider could not locate the user (gone, no fix): the delegate is told. The last
  /// location stays on the map.
  public func failToLocateUser(_ error: any Error) {
    guard userLocationState.shows else { return }
    delegate?.mapView(self, didFailToLocateUserWithError: error)
  }

  func putUserLocationOnMap() {
    let u = userLocationState.userLocation
    if userLocationState.onMap {
      annotationDidMove(u)
    } else {
      addAnnotation(u)
      userLocationState.onMap = true
    }
    (annotationViews.visible[ObjectIdentifier(u)] as? UserLocationView)?.refresh()
    setNeedsDisplay()
  }

  /// Keeps the position on screen with the fewest moves: nothing while it is inside the middle
  /// half of the screen; else one move that puts it in the centre (with `.followWithHeading`,
  /// a quarter of the screen behind the centre along the course, so the way ahead shows).
  func followUserLocation(animated: Bool, always: Bool) {
    guard let l = userLocation.location else { return }
    let p = MapPoint(l.coordinate)
    let v = visibleMapRect
    let margin = MapView.followMargin
    let inner = v.insetBy(dx: v.width * margin, dy: v.height * margin)
    let w = MapSize.world.width
    let inside = [0, -w, w].contains { inner.contains(MapPoint(x: p.x + $0, y: p.y)) }
    if inside && !always { return }
    var target = p
    if userLocationState.mode == .followWithHeading, let h = userLocation.heading {
      let a = h * .pi / 180
      target = MapPoint(
        x: p.x + sin(a) * v.width * margin, y: p.y - cos(a) * v.height * margin)
    }
    change(to: target, zoom: zoomLevel, animated: animated)
  }

  /// The share of the screen on each side outside the middle where a followed position may
  /// go before the map moves (and how far ahead `.followWithHeading` looks).
  static let followMargin = 0.25

  /// A pan by hand ends tracking (MapKit's behaviour); the delegate hears the mode change.
  func userPannedDuringTracking() {
    guard userLocationState.mode != .none else { return }
    setUserTrackingMode(.none, animated: false)
  }
}
