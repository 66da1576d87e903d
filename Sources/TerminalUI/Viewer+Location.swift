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
  /// The recording, written on a thread of its own from a bounded queue.
  let writer: RecordingWriter?
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
  /// Fixes the inbox dropped (a source faster than the screen): the newest are shown.
  var dropped = 0
  /// Why the recording stopped (shown in the status line and at exit).
  var recordingFailure: String?
  /// Bad input as the status line shows it: the count, its rate over the last seconds, and
  /// samples of (time, bad, accepted) taken twice a second.
  var shownBad = 0
  var badRate = 0
  var badWithoutGood = false
  var badSamples: [(time: Date, bad: Int, accepted: Int)] = []

  init(provider: any LocationProvider, recorder: GPXRecorder?) {
    self.provider = provider
    writer = recorder.map { RecordingWriter(recorder: $0) }
  }
}

/// Events from the provider's thread, taken by the main loop a bounded number at a time. At
/// most `capacity` are held: past that the oldest is dropped (a dropped fix is counted; a
/// dropped loss of fix or restart still starts a new piece of the track).
final class LocationInbox: Sendable {
  struct State {
    var events: [LocationEvent] = []
    var head = 0
    var dropped = 0
    var gap = false
  }
  private let state = Mutex(State())
  let capacity: Int

  init(capacity: Int = 4096) { self.capacity = capacity }

  func post(_ e: LocationEvent) {
    state.withLock { s in
      if s.events.count - s.head >= capacity {
        if case .fix = s.events[s.head] { s.dropped += 1 } else { s.gap = true }
        s.head += 1
        if s.head >= capacity {
          s.events.removeFirst(s.head)
          s.head = 0
        }
      }
      s.events.append(e)
    }
  }

  /// Up to `limit` of the oldest events; how many fixes were dropped since the last call, and
  /// whether a dropped event broke the track; whether more are waiting.
  func take(_ limit: Int) -> (events: [LocationEvent], dropped: Int, gap: Bool, more: Bool) {
    state.withLock { s in
      let end = min(s.events.count, s.head + limit)
      let taken = Array(s.events[s.head..<end])
      s.head = end
      let more = s.head < s.events.count
      if !more {
        s.events.removeAll(keepingCapacity: s.events.count <= 1024)
        s.head = 0
      } else if s.head >= capacity {
        s.events.removeFirst(s.head)
        s.head = 0
      }
      defer {
        s.dropped = 0
        s.gap = false
      }
      return (taken, s.dropped, s.gap, more)
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
    let writer = s.writer
    let flag = displayRequested
    s.provider.start { event in
      // Every fix is recorded (the writer's queue slows the source down when the disk is
      // slower); the screen takes what it can.
      switch event {
      case .fix(let f): writer?.put(.fix(f))
      case .noFix, .failed, .restarted: writer?.put(.gap)
      case .ended: break
      }
      inbox.post(event)
      flag.set()
    }
  }

  /// Stops the provider and finishes the recording (when the viewer ends, after the terminal
  /// is restored): what is queued is written, for up to two seconds.
  func stopLocation() {
    guard let s = live else { return }
    if let w = s.writer {
      w.close(timeout: 2)
      s.recordingFailure = w.recorder.failure
    }
    s.provider.stop()
  }

  /// Lines for standard error when the viewer has ended: a recording that stopped early.
  public var exitProblems: [String] {
    guard let s = live, let w = s.writer else { return [] }
    var lines: [String] = []
    if let f = w.recorder.failure { lines.append("--record: \(f)") }
    let lost = w.notWritten
    if lost > 0 {
      lines.append(
        "--record: \(SafeText.clean(w.recorder.path)): \(lost) fix\(lost == 1 ? " was" : "es were") not written"
      )
    }
    return lines
  }

  /// The time one turn of the main loop spends on location events (seconds), taken in
  /// batches of `locationBatch`: a flooding source cannot delay the keys.
  static let locationBudget = 0.02
  static let locationBatch = 64

  /// Takes the provider's events (for at most `locationBudget`); true when the frame must be
  /// drawn again (a fix, a change of state, the fix age ticking over a second, the bad count).
  func receiveLocation(now: Date) -> Bool {
    guard let s = live else { return false }
    let start = DispatchTime.now().uptimeNanoseconds
    var changed = false
    while true {
      let (events, dropped, gap, more) = s.inbox.take(Viewer.locationBatch)
      locationPending = more
      if !events.isEmpty || dropped > 0 { changed = true }
      s.dropped += dropped
      if gap { s.breadcrumb.startNewPiece() }
      for event in events { receive(event, s, now: now) }
      let spent = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      if !more || spent >= Viewer.locationBudget { break }
    }
    if s.recordingFailure == nil, let f = s.writer?.recorder.failure {
      s.recordingFailure = f
      log("record-stopped \(f)")
      changed = true
    }
    if sampleBadInput(s, now: now) { changed = true }
    if let t = s.lastFixTime {
      let age = Int(now.timeIntervalSince(t))
      if age != s.shownAge {
        s.shownAge = age
        changed = true
      }
    }
    return changed
  }

  private func receive(_ event: LocationEvent, _ s: LiveSession, now: Date) {
    switch event {
    case .fix(let f): receive(f, s, now: now)
    case .noFix(let sats):
      s.satellitesInView = sats ?? s.satellitesInView
      if !s.lost {
        s.lost = true
        s.breadcrumb.startNewPiece()
        map.failToLocateUser(LocationFailure(description: "\(s.provider.name): no fix"))
      }
    case .failed(let text):
      s.problem = text
      if !s.lost {
        s.lost = true
        s.breadcrumb.startNewPiece()
      }
      map.failToLocateUser(LocationFailure(description: text))
    case .restarted(let text):
      s.breadcrumb.startNewPiece()
      show(text, seconds: 3)
    case .ended:
      s.ended = true
    }
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
    // First, so a narrow status line still shows it.
    if s.recordingFailure != nil {
      parts.append("RECORDING STOPPED: \(s.writer?.recorder.failureCause ?? "a write failed")")
    }
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
    if s.shownBad > 0 {
      var text = "\(s.shownBad) bad"
      if s.badRate > 0 { text += " (\(s.badRate)/s)" }
      parts.append(text)
      // A serial line (or a stream) that brings only noise: the usual causes.
      if s.badRate > 0 && s.badWithoutGood && s.provider is NMEAStreamProvider {
        parts.append("wrong baud rate? not NMEA?")
      }
    }
    if s.dropped > 0 { parts.append("\(s.dropped) fixes not drawn (too fast)") }
    return parts
  }

  /// Reads the source's counts twice a second: the bad count, its rate over the last three
  /// seconds, and whether anything good came in that time. True when the status line changes.
  func sampleBadInput(_ s: LiveSession, now: Date) -> Bool {
    if let last = s.badSamples.last, now.timeIntervalSince(last.time) < 0.5 { return false }
    let stats = s.provider.statistics
    s.badSamples.append((now, stats.malformed, stats.accepted))
    while let first = s.badSamples.first, now.timeIntervalSince(first.time) > 3 {
      s.badSamples.removeFirst()
    }
    let first = s.badSamples[0]
    let span = now.timeIntervalSince(first.time)
    let rate = span > 0 ? Int((Double(stats.malformed - first.bad) / span).rounded()) : 0
    let withoutGood = stats.accepted == first.accepted
    defer {
      s.shownBad = stats.malformed
      s.badRate = rate
      s.badWithoutGood = withoutGood
    }
    return stats.malformed != s.shownBad || rate != s.badRate || withoutGood != s.badWithoutGood
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
