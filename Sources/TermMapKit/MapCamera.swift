import Foundation
import MapGeometry

/// Where the map looks from, as a value (MKMapCamera): the centre and how far the eye is from
/// it. A terminal map is seen straight down and north up, so `heading` and `pitch` are kept
/// but not drawn. The distance and the zoom level are two ways of saying the same thing for a
/// given screen: the eye sees the screen's height of ground under a vertical field of view of
/// `fieldOfView` degrees.
public struct MapCamera: Sendable, Equatable {
  /// The vertical field of view, in degrees, that turns a distance into the ground seen (30,
  /// as MapKit's camera).
  public static let fieldOfView = 30.0

  /// The point looked at.
  public var centerCoordinate: Coordinate
  /// The eye's distance from the centre, in metres (MKMapCamera's `centerCoordinateDistance`).
  public var centerCoordinateDistance: Double
  /// Degrees clockwise from north (not drawn: the map is north up).
  public var heading: Double
  /// Degrees from straight down (not drawn: the map is seen from above).
  public var pitch: Double

  /// A camera looking at `center` from `distance` metres.
  public init(
    lookingAtCenter center: Coordinate, fromDistance distance: Double, pitch: Double = 0,
    heading: Double = 0
  ) {
    centerCoordinate = center
    centerCoordinateDistance = distance
    self.pitch = pitch
    self.heading = heading
  }

  /// The ground a screen `heightInDots` tall shows at this distance, in metres.
  var visibleHeightMeters: Double {
    2 * centerCoordinateDistance * tan(Self.fieldOfView / 2 * .pi / 180)
  }
}

extension MapView {
  /// The camera of the view as it is now (the distance at which the screen's height of ground
  /// fills `MapCamera.fieldOfView`). Setting it moves the view at once; see `setCamera`.
  public var camera: MapCamera {
    get {
      let c = centerCoordinate
      let meters =
        heightInDots / zoomScale * Mercator.metersPerMapPoint(atLatitude: c.latitude)
      return MapCamera(
        lookingAtCenter: c,
        fromDistance: meters / (2 * tan(MapCamera.fieldOfView / 2 * .pi / 180)))
    }
    set { setCamera(newValue, animated: false) }
  }

  /// Moves to a camera: its centre, and the zoom level at which the screen's height shows
  /// the ground its distance sees (within the zoom range); heading and pitch are not drawn.
  public func setCamera(_ camera: MapCamera, animated: Bool) {
    let meters = camera.visibleHeightMeters
    guard meters > 0, meters.isFinite else { return }
    let points = meters / Mercator.metersPerMapPoint(atLatitude: camera.centerCoordinate.latitude)
    let scale = heightInDots / points
    let zoom = min(
      max(ZoomMath.zoomLevel(forZoomScale: scale), zoomRange.lowerBound), zoomRange.upperBound)
    change(to: MapPoint(camera.centerCoordinate), zoom: zoom, animated: animated)
  }
}

extension MapView {
  /// Moves to a camera and returns when the change has settled.
  public func setCamera(_ camera: MapCamera, animated: Bool) async {
    { self.setCamera(camera, animated: animated) }()
    await settle()
  }
}
