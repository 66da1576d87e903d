import Foundation
import Synchronization

/// What every provider shares: a stop flag, its statistics, and the thread that reads.
final class ProviderCore: Sendable {
  private let stopped = Atomic<Bool>(false)
  private let stats = Mutex(SourceStatistics())
  private let finished = Mutex<Bool>(true)

  var isStopped: Bool { stopped.load(ordering: .relaxed) }

  var statistics: SourceStatistics { stats.withLock { $0 } }

  func update(_ body: (inout SourceStatistics) -> Void) {
    stats.withLock { body(&$0) }
  }

  func set(_ s: SourceStatistics) { stats.withLock { $0 = s } }

  /// Runs `body` on a new thread until it returns or `stop` is called.
  func start(name: String, _ body: @escaping @Sendable () -> Void) {
    stopped.store(false, ordering: .relaxed)
    finished.withLock { $0 = false }
    let t = Thread { [self] in
      body()
      finished.withLock { $0 = true }
    }
    t.name = name
    t.start()
  }

  /// Asks the thread to stop and waits (up to two seconds) until it has.
  func stop() {
    stopped.store(true, ordering: .relaxed)
    for _ in 0..<200 {
      if finished.withLock({ $0 }) { return }
      usleep(10_000)
    }
  }

  /// Sleeps up to `seconds`, waking early when stopped; false when stopped.
  func sleep(_ seconds: Double) -> Bool {
    var left = seconds
    while left > 0 {
      if isStopped { return false }
      usleep(UInt32(min(left, 0.05) * 1_000_000))
      left -= 0.05
    }
    return !isStopped
  }

  /// Waits until `fd` is readable, the timeout passes (false, false) or the provider stops.
  /// Returns (readable, stopped).
  func waitReadable(_ fd: Int32, milliseconds: Int32) -> (Bool, Bool) {
    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    let r = poll(&p, 1, milliseconds)
    if isStopped { return (false, true) }
    return (r > 0, false)
  }
}

/// Reads what is available from a descriptor (after poll said so).
/// Returns the bytes, or nil at end of file or on error (errno set).
func readChunk(_ fd: Int32, max: Int = 16_384) -> [UInt8]? {
  var buffer = [UInt8](repeating: 0, count: max)
  while true {
    let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, max) }
    if n > 0 { return Array(buffer[0..<n]) }
    if n < 0 && errno == EINTR { continue }
    if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return [] }
    return nil
  }
}

/// The text of the current errno.
func errnoText() -> String { String(cString: strerror(errno)) }
