import DotRaster
import Foundation
import LiveLocation
import MapGeometry
import Synchronization
import TermMapKit

/// The live position in the viewer (`--follow`): a location provider reading on its own
/// thread, its events handed to the main loop through an inbox, the breadcrumb track, the
/// optional GPX recording, and the status-line fields.
@MainActor
final class LiveSession {
  let provider: any LocationProvider
  let recorder: GPXRecorder?
  let inbox = LocationInbox()
  let breadcrumb = Breadcrumb(title: "live track")
  var lastFix: LocationFix?
  /// When the last fix arrived (the viewer's clock).
  var lastFixTime: Date?
  /// The source said it has no fix, or failed, since the last fix.
  var lost = false
  var problem: String?
  var ended = false
  var satellitesInView: Int?
  /// The fix age shown in the status line, in whole seconds (a change redraws).
  var shownAge = -1
  /// The first fix places the view when nothing else did.
  var placed = false
  /// Fixes received.
  var fixes = 0

  init(provider: any LocationProvider, recorder: GPXRecorder?) {
    self.provider = provider
    self.recorder = recorder
  }
}

/// Events from the provider's thread, drained by the main loop.
final class LocationInbox: Sendable {
  private let events = Mutex<[LocationEvent]>([])
  func post(_ e: LocationEvent) { events.withLock { $0.append(e) } }
  func drain() -> [LocationEvent] {
    events.withLock { e in
      defer { e.removeAll() }
      return e
    }
  }
}

/// A failure to locate the user, as the delegate hears it.
public struct LocationFailure: Error, CustomStringConvertible {
  public let description: String
}

extension Viewer {
  /// Follows a location source: shows the user's location in `.follow` mode, draws the
  /// breadcrumb track, and records it to GPX when a recorder is given. Call before `run`.
  public func followLocation(_ provider: any LocationProvider, recorder: GPXRecorder?) {
    live = LiveSession(provider: provider, recorder: recorder)
  }

  /// Starts the provider (from `start`).
  func startLocation() {
    guard let s = live else { return }
    map.addOverlay(s.breadcrumb, level: .aboveLabels)
    map.showsUserLocation = true
    map.setUserTrackingMode(.follow, animated: false)
    let inbox = s.inbox
    let flag = displayRequested
    s.provider.start { event in
      inbox.post(event)
      flag.set()
    }
  }

  /// Stops the provider (when the viewer ends).
  func stopLocation() {
    live?.provider.stop()
  }

  /// Takes the provider's events; true when the frame must be drawn again (a fix, a change of
  /// state, or the fix age ticking over a second).
  func receiveLocation(now: Date) -> Bool {
    guard let s = live else { return false }
    let events = s.inbox.drain()
    var changed = !events.isEmpty
    for event in events {
      switch event {
      case .fix(let f): receive(f, s, now: now)
      case .noFix(let sats):
        s.satellitesInView = sats ?? s.satellitesInView
        if !s.lost {
          s.lost = true
          s.breadcrumb.startNewPiece()
          s.recorder?.newSegment()
          map.failToLocateUser(LocationFailure(description: "\(s.provider.name): no fix"))
        }
      case .failed(let text):
        s.problem = text
        if !s.lost {
          s.lost = true
          s.breadcrumb.startNewPiece()
          s.recorder?.newSegment()
        }
        map.failToLocateUser(LocationFailure(description: text))
      case .restarted(let text):
        s.breadcrumb.startNewPiece()
        s.recorder?.newSegment()
        show(text, seconds: 3)
      case .ended:
        s.ended = true
      }
    }
    if let t = s.lastFixTime {
      let age = Int(now.timeIntervalSince(t))
      if age != s.shownAge {
        s.shownAge = age
        changed = true
      }
    }
    return changed
  }

  private func receive(_ f: LocationFix, _ s: LiveSession, now: Date) {
    s.lastFix = f
    s.lastFixTime = now
    s.shownAge = 0
    s.lost = false
    s.problem = nil
    s.fixes += 1
    s.satellitesInView = f.satellitesInView ?? s.satellitesInView
    if !s.placed {
      s.placed = true
      // Nothing placed the view (no position given, no files): the first fix does, at street
      // level.
      if options.center == nil && options.bbox == nil && options.files.isEmpty {
        let z = options.zoom ?? 16
        let scale = ZoomMath.zoomScale(forZoomLevel: z)
        let w = map.widthInDots / scale
        let h = map.heightInDots / scale
        let p = MapPoint(f.coordinate)
        map.setVisibleMapRect(
          MapRect(x: p.x - w / 2, y: p.y - h / 2, width: w, height: h), animated: false)
      }
    }
    if let rect = s.breadcrumb.add(f.coordinate),
      let r = map.renderer(for: s.breadcrumb) as? BreadcrumbRenderer
    {
      r.invalidate(segment: rect)
    }
    s.recorder?.append(f)
    map.updateUserLocation(
      Location(
        coordinate: f.coordinate, altitude: f.altitude, horizontalAccuracy: f.horizontalAccuracy,
        course: f.course, speed: f.speed, timestamp: f.timestamp ?? now))
  }

  /// `f`: none → follow → follow with heading → none.
  func cycleTrackingMode() {
    map.setUserTrackingMode(map.userTrackingMode.next, animated: false)
  }

  /// The status-line fields of the live position: the mode, the fix quality, satellites,
  /// speed, course and the age of the last fix; a lost fix or a failing source is said.
  func locationStatusParts(now: Date) -> [String] {
    guard let s = live else { return [] }
    var parts: [String] = []
    switch map.userTrackingMode {
    case .none: break
    case .follow: parts.append("follow")
    case .followWithHeading: parts.append("follow+heading")
    }
    let age = s.lastFixTime.map { max(Int(now.timeIntervalSince($0)), 0) }
    let stale = (age ?? 0) >= Viewer.staleFixSeconds
    if let f = s.lastFix, !s.lost && !stale {
      parts.append(f.quality.rawValue)
      if let u = f.satellitesUsed {
        parts.append("\(u)\(s.satellitesInView.map { "/\($0)" } ?? "") sats")
      } else if let n = s.satellitesInView {
        parts.append("\(n) sats in view")
      }
      if let v = f.speed { parts.append(String(format: "%.1f km/h", v * 3.6)) }
      if let c = f.course, (f.speed ?? 1) >= UserLocation.stillSpeed {
        parts.append(String(format: "%03.0f°", c))
      }
      parts.append("\(age ?? 0) s")
    } else {
      var text = "NO FIX"
      if let a = age { text += " (last \(a) s ago)" }
      if let n = s.satellitesInView, s.problem == nil { text += " · \(n) sats in view" }
      parts.append(text)
      if let p = s.problem { parts.append(p) }
    }
    if s.ended { parts.append("input ended") }
    let malformed = s.provider.statistics.malformed
    if malformed > 0 { parts.append("\(malformed) bad") }
    return parts
  }

  /// A fix older than this (seconds) counts as lost.
  static let staleFixSeconds = 10

  // MARK: Delegate: the user's location, logged for tests

  public func mapViewWillStartLocatingUser(_ mapView: MapView) {
    log("locate-start")
  }

  public func mapViewDidStopLocatingUser(_ mapView: MapView) {
    log("locate-stop")
  }

  public func mapView(_ mapView: MapView, didUpdate userLocation: UserLocation) {
    let c = userLocation.coordinate
    log(String(format: "user-location %.6f,%.6f", c.latitude, c.longitude))
  }

  public func mapView(_ mapView: MapView, didFailToLocateUserWithError error: any Error) {
    log("locate-fail \(error)")
  }

  public func mapView(_ mapView: MapView, didChange mode: UserTrackingMode, animated: Bool) {
    log("mode \(mode)")
  }
}
