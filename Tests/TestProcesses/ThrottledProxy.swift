import Foundation
import Synchronization

/// A TCP proxy on a free loopback port in front of a server on another that forwards at most
/// `bytesPerSecond` each way: a slow link (125,000 bytes/s is 1 Mbit/s). Like a real link it
/// holds little in flight: its side towards the server has a small receive buffer, so what
/// the link cannot carry yet waits in the server's own send buffer, where the server can see
/// it. It counts the bytes the server sent through it, and when the last of them went.
public final class ThrottledProxy: Sendable {
  public let port: UInt16
  private let listener: Int32
  private let bytesPerSecond: Double
  private let target: UInt16
  private let state = Mutex(
    (forwarded: 0, last: Date.distantPast, open: Set<Int32>(), stopped: false))

  /// Listens on 127.0.0.1 and forwards to 127.0.0.1:`target`.
  public init(to target: UInt16, bytesPerSecond: Int) throws {
    self.bytesPerSecond = Double(bytesPerSecond)
    self.target = target
    (listener, port) = try LoopbackListener.open(backlog: 16)
    let accepting = Thread { [self] in self.acceptLoop(target: target) }
    accepting.start()
  }

  deinit { stop() }

  /// Bytes the server has sent through the proxy so far, and when the last of them went.
  public var forwarded: (bytes: Int, last: Date) {
    state.withLock { ($0.forwarded, $0.last) }
  }

  /// Waits until the server has been seen idle for `quiet` seconds: nothing forwarded, no
  /// byte waiting between the server and the proxy, and `server` (its process) asleep, every
  /// thread waiting for input or a timer. The bytes forwarded by then (as they are after
  /// `timeout` seconds, a failure bound).
  ///
  /// Only what was seen counts: a look that finds the server wanting a core (a thread
  /// running or runnable: on a loaded machine it may wait long for one, mid-frame) or bytes
  /// on their way adds nothing to the quiet, and neither does time this thread was kept from
  /// looking (at most 50 ms a look is counted). A plain 1.5 s of silence was no sign of a
  /// finished view under load: the server, starved, was still drawing it.
  public func waitForQuiet(_ quiet: Double, timeout: Double, server: pid_t) -> Int {
    let end = Date().addingTimeInterval(timeout)
    var bytes = forwarded.bytes
    var seen = 0.0
    var look = Date()
    while Date() < end {
      usleep(20_000)
      let now = Date()
      let step = min(now.timeIntervalSince(look), 0.05)
      look = now
      let latest = forwarded.bytes
      if latest != bytes {
        bytes = latest
        seen = 0
      } else if !KernelState.isBusy(server) && !KernelState.bytesWaiting(port: target) {
        seen += step
        if seen >= quiet { return bytes }
      }
    }
    return forwarded.bytes
  }

  /// Stops listening and closes every connection.
  public func stop() {
    let open = state.withLock { s -> Set<Int32> in
      guard !s.stopped else { return [] }
      s.stopped = true
      return s.open
    }
    shutdown(listener, Int32(SHUT_RDWR))
    for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
  }

  private func acceptLoop(target: UInt16) {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        close(listener)
        return
      }
      // 4 KB asked (the kernel doubles it): a few KB in flight, as on a slow line.
      let server = ChildProcess.connectLoopback(port: target, receiveBuffer: 4096)
      guard server >= 0, !state.withLock({ $0.stopped }) else {
        close(client)
        if server >= 0 { close(server) }
        continue
      }
      state.withLock {
        $0.open.insert(client)
        $0.open.insert(server)
      }
      let up = Thread { [self] in self.pump(from: client, to: server, counted: false) }
      let down = Thread { [self] in self.pump(from: server, to: client, counted: true) }
      up.start()
      down.start()
    }
  }

  /// Copies at the rate, 1,250 bytes (10 ms) at a time, until either side closes; the second
  /// pump of a pair to finish closes the descriptors.
  private func pump(from source: Int32, to sink: Int32, counted: Bool) {
    var buffer = [UInt8](repeating: 0, count: Int(bytesPerSecond / 100))
    var due = Date()
    loop: while true {
      let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
      if n <= 0 { break }
      // After a quiet spell the link starts afresh (at most 10 ms of credit).
      due = max(due, Date().addingTimeInterval(-0.01))
      var sent = 0
      while sent < n {
        let w = buffer.withUnsafeBytes { write(sink, $0.baseAddress! + sent, n - sent) }
        if w <= 0 { break loop }
        sent += w
      }
      if counted {
        state.withLock {
          $0.forwarded += n
          $0.last = Date()
        }
      }
      due = due.addingTimeInterval(Double(n) / bytesPerSecond)
      let wait = due.timeIntervalSinceNow
      if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
    }
    shutdown(source, Int32(SHUT_RDWR))
    shutdown(sink, Int32(SHUT_RDWR))
    let last = state.withLock { s -> Bool in
      if s.open.contains(source) || s.open.contains(sink) {
        s.open.remove(source)
        s.open.remove(sink)
        return false
      }
      return true
    }
    if last {
      close(source)
      close(sink)
    }
  }
}
