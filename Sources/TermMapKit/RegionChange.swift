import DotRaster
import Foundation
import MapGeometry

/// An animated move of the camera, stepped one frame at a time by the host's loop.
struct RegionAnimation {
  let from: (center: MapPoint, zoom: Double)
  let to: (center: MapPoint, zoom: Double)
  let frames: Int
  var frame = 0

  /// The camera at a step, eased in and out; the centre moves along the shorter way round.
  func camera(at step: Int) -> (MapPoint, Double) {
    let t = Double(step) / Double(frames)
    let e = t * t * (3 - 2 * t)
    let w = MapSize.world.width
    var dx = to.center.x - from.center.x
    if dx > w / 2 { dx -= w }
    if dx < -w / 2 { dx += w }
    let x = from.center.x + dx * e
    let y = from.center.y + (to.center.y - from.center.y) * e
    let z = from.zoom + (to.zoom - from.zoom) * e
    return (MapPoint(x: x, y: y), z)
  }
}

extension MapView {
  /// Frames an animated change takes.
  public static let animationFrames = 6

  /// One programmatic change: will → visible-region change(s) → did.
  func change(to center: MapPoint, zoom: Double, animated: Bool) {
    // An animated change that arrives during an animation continues it toward the new target,
    // so a burst of presses is one change: one will, one did.
    if animated, let a = animation {
      let target = a.to
      let z = zoom + (center == centerPoint ? target.zoom - zoomLevel : 0)
      let c = center == centerPoint ? target.center : center
      animation = RegionAnimation(
        from: (centerPoint, zoomLevel),
        to: (c, min(max(z, zoomRange.lowerBound), zoomRange.upperBound)),
        frames: Self.animationFrames)
      _ = advanceAnimation()
      return
    }
    finishChanges()
    if animated {
      animation = RegionAnimation(
        from: (centerPoint, zoomLevel), to: (center, zoom), frames: Self.animationFrames)
      changeInProgress = (true, false)
      delegate?.mapView(self, regionWillChangeAnimated: true)
      _ = advanceAnimation()
    } else {
      changeInProgress = (false, false)
      delegate?.mapView(self, regionWillChangeAnimated: false)
      applyCamera(center: center, zoom: zoom, notify: true)
      changeInProgress = nil
      delegate?.mapView(self, regionDidChangeAnimated: false)
    }
  }

  /// True while an animated change has frames to go.
  public var isAnimating: Bool { animation != nil }

  /// True between the start and the end of a region change of any kind.
  public var isChangingRegion: Bool { changeInProgress != nil }

  /// Moves an animation on by one frame; returns true while frames remain. The last frame
  /// sends `regionDidChange(animated: true)`.
  @discardableResult
  public func advanceAnimation() -> Bool {
    guard var a = animation else { return false }
    a.frame += 1
    let (c, z) = a.camera(at: a.frame)
    applyCamera(
      center: a.frame >= a.frames ? a.to.center : c, zoom: a.frame >= a.frames ? a.to.zoom : z,
      notify: true)
    if a.frame >= a.frames {
      animation = nil
      changeInProgress = nil
      delegate?.mapView(self, regionDidChangeAnimated: true)
      return false
    }
    animation = a
    return true
  }

  /// Waits until the programmatic change in progress has settled (`regionDidChange` sent),
  /// stepping its animation a frame every `frameInterval` seconds as a host's loop would (a
  /// host that steps it too only shortens the wait). Returns at once when nothing animates.
  public func settle(frameInterval: Duration = .milliseconds(16)) async {
    while animation != nil {
      try? await Task.sleep(for: frameInterval)
      if animation != nil { advanceAnimation() }
    }
  }

  /// Shows a region and returns when the change has settled (animated: after its frames).
  public func setRegion(_ region: CoordinateRegion, animated: Bool) async {
    // The synchronous form (a synchronous closure picks it).
    { self.setRegion(region, animated: animated) }()
    await settle()
  }

  /// Moves the centre and returns when the change has settled.
  public func setCenter(_ coordinate: Coordinate, animated: Bool) async {
    { self.setCenter(coordinate, animated: animated) }()
    await settle()
  }

  /// Sets the zoom level and returns when the change has settled.
  public func setZoomLevel(_ zoom: Double, animated: Bool) async {
    { self.setZoomLevel(zoom, animated: animated) }()
    await settle()
  }

  /// Shows a map rect and returns when the change has settled.
  public func setVisibleMapRect(
    _ rect: MapRect, edgePadding: EdgeInsets = .zero, animated: Bool
  ) async {
    { self.setVisibleMapRect(rect, edgePadding: edgePadding, animated: animated) }()
    await settle()
  }

  /// Ends any change in progress at once: an animation jumps to its end, a user gesture ends.
  public func finishChanges() {
    if let a = animation {
      animation = nil
      applyCamera(center: a.to.center, zoom: a.to.zoom, notify: true)
      changeInProgress = nil
      delegate?.mapView(self, regionDidChangeAnimated: true)
    } else if changeInProgress?.byUser == true {
      endUserInteraction()
    }
  }

  // MARK: User gestures

  /// A gesture (a key press, a burst of presses, a drag) starts: `regionWillChange` is sent
  /// once, however many moves follow, until `endUserInteraction`.
  public func beginUserInteraction() {
    if changeInProgress?.byUser == true { return }
    finishChanges()
    changeInProgress = (false, true)
    delegate?.mapView(self, regionWillChangeAnimated: false)
  }

  /// The gesture settled: `regionDidChange` is sent.
  public func endUserInteraction() {
    guard changeInProgress?.byUser == true else { return }
    changeInProgress = nil
    delegate?.mapView(self, regionDidChangeAnimated: false)
  }

  /// True while a user gesture is open.
  public var isInteracting: Bool { changeInProgress?.byUser == true }

  /// Pans by whole dots as part of a gesture (ignored when scrolling is disabled).
  public func pan(byDotsX dx: Double, y dy: Double) {
    guard isScrollEnabled else { return }
    let opened = !isInteracting
    if opened { beginUserInteraction() }
    // A pan by hand ends user tracking (MapView+UserLocation).
    userPannedDuringTracking()
    applyCamera(
      center: MapPoint(x: centerPoint.x + dx / zoomScale, y: centerPoint.y + dy / zoomScale),
      zoom: zoomLevel, notify: true)
    if opened { endUserInteraction() }
  }

  /// Zooms by a number of levels keeping the map point under a screen dot in place (the centre
  /// when nil), as part of a gesture (ignored when zooming is disabled).
  public func zoom(byLevels levels: Double, aboutDot anchor: Point2D? = nil) {
    guard isZoomEnabled else { return }
    let opened = !isInteracting
    if opened { beginUserInteraction() }
    let newZoom = min(max(zoomLevel + levels, zoomRange.lowerBound), zoomRange.upperBound)
    if let a = anchor {
      let vp = viewport
      let fixed = vp.mapPoint(forDot: a)
      let k = zoomScale / ZoomMath.zoomScale(forZoomLevel: newZoom)
      let c = MapPoint(
        x: fixed.x + (centerPoint.x - fixed.x) * k, y: fixed.y + (centerPoint.y - fixed.y) * k)
      applyCamera(center: c, zoom: newZoom, notify: true)
    } else {
      applyCamera(center: centerPoint, zoom: newZoom, notify: true)
    }
    if opened { endUserInteraction() }
  }
}
