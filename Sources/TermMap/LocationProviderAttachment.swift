import Foundation
import LiveLocation
import Synchronization
import TermMapKit

extension LocationFix {
  /// The fix as the map takes it (`MapView.updateUserLocation`); a fix without a time is
  /// stamped now.
  public var location: Location {
    Location(
      coordinate: coordinate, altitude: altitude, horizontalAccuracy: horizontalAccuracy,
      course: course, speed: speed, timestamp: timestamp ?? Date())
  }
}

/// Why a location source could not locate the user (its own words, sanitised), as
/// `mapView(_:didFailToLocateUserWithError:)` hears it.
public struct LocationSourceError: Error, CustomStringConvertible, Equatable {
  /// What the source said.
  public let description: String
}

/// The providers attached to maps, by map (main actor only).
@MainActor
private var attachments: [ObjectIdentifier: Attachment] = [:]

@MainActor
private final class Attachment {
  weak var map: MapView?
  let provider: any LocationProvider
  init(map: MapView, provider: any LocationProvider) {
    self.map = map
    self.provider = provider
  }
}

extension MapView {
  /// The source of the user's location, attached in one line
  /// (`map.locationProvider = GPSDProvider(host: "127.0.0.1")`): it starts, the map shows
  /// the user's location, and every fix reaches `updateUserLocation` on the main actor in the
  /// order it came (a failure reaches `failToLocateUser`). Setting another stops the previous
  /// one; nil stops it and hides the location.
  public var locationProvider: (any LocationProvider)? {
    get { attachments[ObjectIdentifier(self)]?.provider }
    set {
      let key = ObjectIdentifier(self)
      attachments.removeValue(forKey: key)?.provider.stop()
      // Maps gone since: their providers stop too.
      for (k, a) in attachments where a.map == nil {
        a.provider.stop()
        attachments.removeValue(forKey: k)
      }
      guard let provider = newValue else {
        showsUserLocation = false
        return
      }
      let attachment = Attachment(map: self, provider: provider)
      attachments[key] = attachment
      showsUserLocation = true
      // One inbox, drained in order on the main actor: the provider's thread never waits.
      let inbox = LocationEventInbox()
      provider.start { event in
        guard inbox.put(event) else { return }
        Task { @MainActor [weak attachment] in
          for event in inbox.drain() {
            guard let map = attachment?.map, attachment?.provider === provider else { return }
            switch event {
            case .fix(let fix): map.updateUserLocation(fix.location)
            case .failed(let why): map.failToLocateUser(LocationSourceError(description: why))
            case .noFix, .restarted, .ended: break
            }
          }
        }
      }
    }
  }
}

/// Events from a provider's thread for the main actor, in order; `put` is true when a drain
/// must be scheduled (the inbox was empty). Bounded: while the main actor is busy, at most
/// `limit` events wait, the oldest dropped first (the latest position is what matters).
private final class LocationEventInbox: Sendable {
  static let limit = 1024
  private let events = Mutex<[LocationEvent]>([])

  func put(_ e: LocationEvent) -> Bool {
    events.withLock { list in
      list.append(e)
      if list.count > Self.limit { list.removeFirst(list.count - Self.limit) }
      return list.count == 1
    }
  }

  func drain() -> [LocationEvent] {
    events.withLock { list in
      let out = list
      list = []
      return out
    }
  }
}
