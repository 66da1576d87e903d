import Foundation
import Synchronization

/// The targets of one or more sources, shared between the readers (each on its own thread)
/// and the map: readers apply their updates a batch at a time under a lock, and the map takes
/// what changed once per frame (`LiveLayer.synchronize()`), so a source sending a million
/// updates a second costs the map only the targets that moved since the last frame, and
/// memory is bounded by the number of targets.
public final class LiveFeed: Sendable {
  struct State {
    var store: TargetStore
    var sources: [Int: SourceState] = [:]
  }
  struct SourceState {
    var name: String
    var statistics = LiveStatistics()
    var problem: String?
    var ended = false
  }
  private let state: Mutex<State>
  private let wake = Mutex<(@Sendable () -> Void)?>(nil)
  /// The feed's clock, in seconds (monotonic unless a test gives its own).
  public let clock: @Sendable () -> Double

  /// A feed over a store (its limits, trail length and time-to-live settings).
  public init(
    store: TargetStore = TargetStore(), clock: @escaping @Sendable () -> Double = LiveFeed.uptime
  ) {
    state = Mutex(State(store: store))
    self.clock = clock
  }

  /// Seconds since boot (CLOCK_MONOTONIC).
  @Sendable public static func uptime() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
  }

  /// Called (on the reader's thread) whenever updates arrive: a viewer wakes its loop.
  public func setChangeHandler(_ handler: (@Sendable () -> Void)?) {
    wake.withLock { $0 = handler }
  }

  /// Registers a source by number and name (its statistics start at zero).
  public func register(source: Int, name: String) {
    state.withLock { $0.sources[source] = SourceState(name: name) }
  }

  /// Applies a reader's updates, read now, with its statistics so far.
  public func ingest(_ updates: [LiveUpdate], source: Int, statistics: LiveStatistics) {
    let now = clock()
    state.withLock { s in
      s.store.apply(updates, now: now)
      s.sources[source, default: SourceState(name: "source \(source)")].statistics = statistics
      if !updates.isEmpty { s.sources[source]?.problem = nil }
    }
    if !updates.isEmpty { wake.withLock { $0 }?() }
  }

  /// Applies updates directly (a program feeding targets itself).
  public func apply(_ updates: [LiveUpdate]) {
    let now = clock()
    state.withLock { $0.store.apply(updates, now: now) }
    wake.withLock { $0 }?()
  }

  /// Says what is wrong with a source (nil: nothing).
  public func report(source: Int, problem: String?) {
    state.withLock { $0.sources[source]?.problem = problem }
    wake.withLock { $0 }?()
  }

  /// Says a source reached its end (a file or standard input read whole).
  public func reportEnded(source: Int) {
    state.withLock { $0.sources[source]?.ended = true }
    wake.withLock { $0 }?()
  }

  /// Works on the store under the lock.
  public func withStore<R>(_ body: (inout TargetStore) -> R) -> R {
    state.withLock { body(&$0.store) }
  }

  /// Every source's statistics added up, with the targets the store dropped.
  public var statistics: LiveStatistics {
    state.withLock { s in
      var total = LiveStatistics()
      for k in s.sources.keys.sorted() { total.add(s.sources[k]!.statistics) }
      total.droppedTargets += s.store.droppedTargets
      return total
    }
  }

  /// The sources' names (as registered: a path, a URL, `-`), in their order.
  public var sourceNames: [String] {
    state.withLock { s in s.sources.keys.sorted().map { s.sources[$0]!.name } }
  }

  /// The problems of the sources that have one, each as one line.
  public var problems: [String] {
    state.withLock { s in s.sources.keys.sorted().compactMap { s.sources[$0]!.problem } }
  }

  /// Whether every registered source has reached its end.
  public var allEnded: Bool {
    state.withLock { s in !s.sources.isEmpty && s.sources.values.allSatisfy(\.ended) }
  }
}
