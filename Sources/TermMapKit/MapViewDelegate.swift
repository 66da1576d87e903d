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

  /// Tile loads began (none were in flight before).
  func mapViewWillStartLoadingMap(_ mapView: MapView)
  /// Every tile load ended, none failed.
  func mapViewDidFinishLoadingMap(_ mapView: MapView)
  /// Every tile load ended and one failed (the first error).
  func mapViewDidFailLoadingMap(_ mapView: MapView, withError error: any Error)
  /// A frame that draws tiles is about to be made.
  func mapViewWillStartRenderingMap(_ mapView: MapView)
  /// The frame is made; `fullyRendered` is false while tiles still wait for data.
  func mapViewDidFinishRenderingMap(_ mapView: MapView, fullyRendered: Bool)

  /// The view for an annotation coming on screen; nil gives the standard marker.
  func mapView(_ mapView: MapView, viewFor annotation: any Annotation) -> AnnotationView?
  /// Views were made for annotations that came on screen.
  func mapView(_ mapView: MapView, didAdd views: [AnnotationView])
  /// A view was selected.
  func mapView(_ mapView: MapView, didSelect view: AnnotationView)
  /// A view was deselected.
  func mapView(_ mapView: MapView, didDeselect view: AnnotationView)
  /// An annotation was selected (after `didSelect` of its view).
  func mapView(_ mapView: MapView, didSelect annotation: any Annotation)
  /// An annotation was deselected (after `didDeselect` of its view).
  func mapView(_ mapView: MapView, didDeselect annotation: any Annotation)
  /// The control at a callout's side was tapped.
  func mapView(
    _ mapView: MapView, annotationView view: AnnotationView,
    calloutAccessoryControlTapped control: CalloutAccessory)

  /// The cluster annotation for views that collided and share a clustering identifier; it
  /// must hold exactly `memberAnnotations`. The standard one is
  /// `ClusterAnnotation(memberAnnotations:)`.
  func mapView(
    _ mapView: MapView, clusterAnnotationForMemberAnnotations memberAnnotations: [any Annotation]
  ) -> ClusterAnnotation
  /// A view's drag moved from one stage to the next (`AnnotationView.DragState`).
  func mapView(
    _ mapView: MapView, annotationView view: AnnotationView,
    didChange newState: AnnotationView.DragState, fromOldState oldState: AnnotationView.DragState)

  /// The renderer for an overlay, asked when the overlay first meets the visible area.
  func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer
  /// Renderers were made for overlays that met the visible area.
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
  /// Does nothing.
  public func mapViewWillStartLoadingMap(_ mapView: MapView) {}
  /// Does nothing.
  public func mapViewDidFinishLoadingMap(_ mapView: MapView) {}
  /// Does nothing.
  public func mapViewDidFailLoadingMap(_ mapView: MapView, withError error: any Error) {}
  /// Does nothing.
  public func mapViewWillStartRenderingMap(_ mapView: MapView) {}
  /// Does nothing.
  public func mapViewDidFinishRenderingMap(_ mapView: MapView, fullyRendered: Bool) {}
  public func mapView(_ mapView: MapView, viewFor annotation: any Annotation) -> AnnotationView? {
    nil
  }
  /// Does nothing.
  public func mapView(_ mapView: MapView, didAdd views: [AnnotationView]) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didSelect view: AnnotationView) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didDeselect view: AnnotationView) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didSelect annotation: any Annotation) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didDeselect annotation: any Annotation) {}
  /// Does nothing.
  public func mapView(
    _ mapView: MapView, annotationView view: AnnotationView,
    calloutAccessoryControlTapped control: CalloutAccessory
  ) {}
  /// The standard cluster: `ClusterAnnotation(memberAnnotations:)`.
  public func mapView(
    _ mapView: MapView, clusterAnnotationForMemberAnnotations memberAnnotations: [any Annotation]
  ) -> ClusterAnnotation {
    ClusterAnnotation(memberAnnotations: memberAnnotations)
  }
  /// Does nothing.
  public func mapView(
    _ mapView: MapView, annotationView view: AnnotationView,
    didChange newState: AnnotationView.DragState, fromOldState oldState: AnnotationView.DragState
  ) {}
  public func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
    MapView.defaultRenderer(for: overlay)
  }
  /// Does nothing.
  public func mapView(_ mapView: MapView, didAdd renderers: [OverlayRenderer]) {}
  /// Does nothing.
  public func mapViewWillStartLocatingUser(_ mapView: MapView) {}
  /// Does nothing.
  public func mapViewDidStopLocatingUser(_ mapView: MapView) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didUpdate userLocation: UserLocation) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didFailToLocateUserWithError error: any Error) {}
  /// Does nothing.
  public func mapView(_ mapView: MapView, didChange mode: UserTrackingMode, animated: Bool) {}
}
