import DotRaster
import Foundation
import Synchronization

/// A step of a renderer's background tile load, reported with `OverlayRenderer.reportLoading`.
public enum LoadingEvent: Sendable {
  /// A load began.
  case started
  /// A load ended with data, with no data there, or was cancelled.
  case finished
  /// A load ended with an error (the tile is drawn without its data).
  case failed(any Error)
}

/// A renderer's loads as the map view last saw them (kept behind the renderer's mutex).
struct LoadingState {
  /// Loads in flight now.
  var inFlight = 0
  /// `inFlight` when the map view last looked.
  var acknowledged = 0
  /// A load started since the map view last looked.
  var startedSinceLook = false
  /// The first error of the current loading burst.
  var error: (any Error)?
}

extension OverlayRenderer {
  /// Records a background load's progress; callable from any thread. The map view turns these
  /// into `mapViewWillStartLoadingMap` / `mapViewDidFinishLoadingMap` /
  /// `mapViewDidFailLoadingMap` on the main actor (at the next frame or
  /// `MapView.processLoadingEvents()`). Every `.started` must be followed by one `.finished` or
  /// `.failed`.
  public func reportLoading(_ event: LoadingEvent) {
    let handler = shared.withLock { s -> (@Sendable () -> Void)? in
      switch event {
      case .started:
        s.loading.inFlight += 1
        s.loading.startedSinceLook = true
      case .finished:
        s.loading.inFlight = max(0, s.loading.inFlight - 1)
      case .failed(let error):
        s.loading.inFlight = max(0, s.loading.inFlight - 1)
        if s.loading.error == nil { s.loading.error = error }
      }
      return s.onNeedsDisplay
    }
    // Ending loads wake the host's loop so the delegate hears about them.
    if case .started = event { return }
    handler?()
  }

  /// Loads this renderer has in flight.
  public var loadsInFlight: Int { shared.withLock { $0.loading.inFlight } }

  /// What happened since the last look: loads in flight then and now, whether one started,
  /// and the burst's first error. Marks the state as seen.
  func lookAtLoading() -> (before: Int, now: Int, started: Bool, error: (any Error)?) {
    shared.withLock { s in
      let look = (
        s.loading.acknowledged, s.loading.inFlight, s.loading.startedSinceLook, s.loading.error
      )
      s.loading.acknowledged = s.loading.inFlight
      s.loading.startedSinceLook = false
      return look
    }
  }

  /// True when `setNeedsDisplay` asked for a redraw the map view has not done yet.
  var hasPendingInvalidations: Bool { shared.withLock { !$0.invalidations.isEmpty } }

  func clearLoadingError() {
    shared.withLock { $0.loading.error = nil }
  }
}

extension MapView {
  /// The renderers that may load tiles.
  var loadingRenderers: [OverlayRenderer] { Array(overlayStore.renderers.values) }

  /// True while a renderer has tile loads in flight.
  public var isLoadingMap: Bool { loadingRenderers.contains { $0.loadsInFlight > 0 } }

  /// Tells the delegate about tile loads the renderers reported: `mapViewWillStartLoadingMap`
  /// when loads begin (none were in flight), then, when none are left,
  /// `mapViewDidFinishLoadingMap`, or `mapViewDidFailLoadingMap` with the first error if a load
  /// failed. `renderFrame` calls it; a host's loop may call it between frames too.
  public func processLoadingEvents() {
    let renderers = loadingRenderers
    var before = 0
    var now = 0
    var started = false
    var error: (any Error)?
    for r in renderers {
      let look = r.lookAtLoading()
      before += look.before
      now += look.now
      started = started || look.started
      if error == nil { error = look.error }
    }
    if before == 0 && started { delegate?.mapViewWillStartLoadingMap(self) }
    if now == 0 && (before > 0 || started) {
      for r in renderers { r.clearLoadingError() }
      if let error {
        delegate?.mapViewDidFailLoadingMap(self, withError: error)
      } else {
        delegate?.mapViewDidFinishLoadingMap(self)
      }
    }
  }

  /// Draws frames until nothing is waiting for tiles, for a one-shot render (an animated
  /// change still running is first finished at its target): the first frame
  /// starts the loads, and each time loaded tiles ask for a redraw the frame is drawn again,
  /// until no tile waits, no load is in flight and no redraw is pending, or `timeout` seconds
  /// pass. A tile whose load failed counts as done (the frame draws without it; the delegate
  /// hears `mapViewDidFailLoadingMap`). `complete` is false when the time ran out.
  public func renderCompleteFrame(timeout: TimeInterval = 15) -> (
    frame: CellBuffer, statistics: FrameStatistics, complete: Bool
  ) {
    // An animated change still running is drawn at its target: a one-shot frame is of where
    // the map is going, never of an animation's first step (regionDidChange is sent first).
    if isAnimating { finishChanges() }
    let deadline = Date().addingTimeInterval(timeout)
    var (frame, statistics) = renderFrameWithStatistics()
    while true {
      // Loads ask for their redraw before they count as ended, so once none is in flight
      // every redraw they need is already pending.
      let loading = isLoadingMap
      let pending = loadingRenderers.contains { $0.hasPendingInvalidations }
      if !loading && !pending && statistics.tilesWaiting == 0 {
        processLoadingEvents()
        return (frame, statistics, true)
      }
      if Date() >= deadline {
        processLoadingEvents()
        return (frame, statistics, false)
      }
      if pending {
        (frame, statistics) = renderFrameWithStatistics()
      } else {
        processLoadingEvents()
        usleep(1000)
      }
    }
  }
}
