import Foundation

/// What a map view tells its owner (MKMapViewDelegate). Every method is optional and is called
/// on the main actor.
@MainActor
public protocol MapViewDelegate: AnyObject {
  /// A region change starts (once per change).
  func mapView(_ mapView: MapView, regionWillChangeAnimated animated: Bool)
  /// The visible region moved (possibly many times during one change; keep it cheap).
  func mapViewDidChangeVisibleRegion(_ mapView: MapView)
  /// A region change settled (once per change).
  func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool)

  func mapViewWillStartLoadingMap(_ mapView: MapView)
  func mapViewDidFinishLoadingMap(_ mapView: MapView)
  func mapViewDidFailLoadingMap(_ mapView: MapView, withError error: any Error)
  func mapViewWillStartRenderingMap(_ mapView: MapView)
  func mapViewDidFinishRenderingMap(_ mapView: MapView, fullyRendered: Bool)

  /// The view for an annotation coming on screen; nil gives the standard marker.
  func mapView(_ mapView: MapView, viewFor annotation: any Annotation) -> AnnotationView?
  func mapView(_ mapView: MapView, didAdd views: [AnnotationView])
  func mapView(_ mapView: MapView, didSelect view: AnnotationView)
  func mapView(_ mapView: MapView, didDeselect view: AnnotationView)
  func mapView(
    _ mapView: MapView, annotationView view: AnnotationView,
    calloutAccessoryControlTapped control: CalloutAccessory)

  /// The renderer for an overlay, asked when the overlay first meets the visible area.
  func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer
  func mapView(_ mapView: MapView, didAdd renderers: [OverlayRenderer])

  // User location (MKMapViewDelegate's "Tracking the User Location").
  /// `showsUserLocation` became true.
  func mapViewWillStartLocatingUser(_ mapView: MapView)
  /// `showsUserLocation` became false.
  func mapViewDidStopLocatingUser(_ mapView: MapView)
  /// A new location of the user arrived (before the map follows it).
  func mapView(_ mapView: MapView, didUpdate userLocation: UserLocation)
  /// Locating the user failed (the source is gone or has no fix).
  func mapView(_ mapView: MapView, didFailToLocateUserWithError error: any Error)
  /// The tracking mode changed (by the program, a key, or a pan by hand).
  func mapView(_ mapView: MapView, didChange mode: UserTrackingMode, animated: Bool)
}

extension MapViewDelegate {
  public func mapView(_ mapView: MapView, regionWillChangeAnimated animated: Bool) {}
  public func mapViewDidChangeVisibleRegion(_ mapView: MapView) {}
  public func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool) {}
  public func mapViewWillStartLoadingMap(_ mapView: MapView) {}
  public func mapViewDidFinishLoadingMap(_ mapView: MapView) {}
  public func mapViewDidFailLoadingMap(_ mapView: MapView, withError error: any Error) {}
  public func mapViewWillStartRenderingMap(_ mapView: MapView) {}
  public func mapViewDidFinishRenderingMap(_ mapView: MapView, fullyRendered: Bool) {}
  public func mapView(_ mapView: MapView, viewFor annotation: any Annotation) -> AnnotationView? {
    nil
  }
  public func mapView(_ mapView: MapView, didAdd views: [AnnotationView]) {}
  public func mapView(_ mapView: MapView, didSelect view: AnnotationView) {}
  public func mapView(_ mapView: MapView, didDeselect view: AnnotationView) {}
  public func mapView(
    _ mapView: MapView, annotationView view: AnnotationView,
    calloutAccessoryControlTapped control: CalloutAccessory
  ) {}
  public func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
    MapView.defaultRenderer(for: overlay)
  }
  public func mapView(_ mapView: MapView, didAdd renderers: [OverlayRenderer]) {}
  public func mapViewWillStartLocatingUser(_ mapView: MapView) {}
  public func mapViewDidStopLocatingUser(_ mapView: MapView) {}
  public func mapView(_ mapView: MapView, didUpdate userLocation: UserLocation) {}
  public func mapView(_ mapView: MapView, didFailToLocateUserWithError error: any Error) {}
  public func mapView(_ mapView: MapView, didChange mode: UserTrackingMode, animated: Bool) {}
}
