import Foundation
import Synchronization

/// A TCP proxy on a free loopback port in front of a server on another: it forwards both ways
/// until the server has sent `cutAfter` bytes through it in all, then closes every connection
/// and every new one at once — a line that goes down in the middle of a download. `restore()`
/// lets connections through again.
public final class CuttingProxy: Sendable {
  public let port: UInt16
  private let listener: Int32
  private let state: Mutex<(cutAfter: Int?, forwarded: Int, open: Set<Int32>, stopped: Bool)>

  /// Listens on 127.0.0.1 and forwards to 127.0.0.1:`target`.
  public init(to target: UInt16, cutAfter: Int?) throws {
    state = Mutex((cutAfter, 0, [], false))
    (listener, port) = try LoopbackListener.open(backlog: 64)
    let accepting = Thread { [self] in self.acceptLoop(target: target) }
    accepting.start()
  }

  deinit { stop() }

  /// Bytes the server has sent through the proxy so far.
  public var forwarded: Int { state.withLock { $0.forwarded } }

  /// Lets connections through again, with no limit.
  public func restore() { state.withLock { $0.cutAfter = nil } }

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

  private var isCut: Bool {
    state.withLock { s in s.cutAfter.map { s.forwarded >= $0 } ?? false }
  }

  private func acceptLoop(target: UInt16) {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        close(listener)
        return
      }
      if isCut || state.withLock({ $0.stopped }) {
        close(client)
        continue
      }
      let server = ChildProcess.connectLoopback(port: target)
      guard server >= 0 else {
        close(client)
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

  /// Copies until either side closes (or the cut), then shuts both down; the second pump of a
  /// pair to finish closes the descriptors.
  private func pump(from source: Int32, to sink: Int32, counted: Bool) {
    var buffer = [UInt8](repeating: 0, count: 4096)
    loop: while true {
      var allowed = buffer.count
      if counted {
        let left = state.withLock { s in s.cutAfter.map { max($0 - s.forwarded, 0) } }
        if let left {
          if left == 0 { break loop }
          allowed = min(allowed, left)
        }
      }
      let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, allowed) }
      if n <= 0 { break }
      var sent = 0
      while sent < n {
        let w = buffer.withUnsafeBytes { write(sink, $0.baseAddress! + sent, n - sent) }
        if w <= 0 { break loop }
        sent += w
      }
      if counted {
        let cut = state.withLock { s -> Bool in
          s.forwarded += n
          return s.cutAfter.map { s.forwarded >= $0 } ?? false
        }
        if cut { break }
      }
    }
    shutdown(source, Int32(SHUT_RDWR))
    shutdown(sink, Int32(SHUT_RDWR))
    let last = state.withLock { s -> Bool in
      // The first pump to end marks its pair; the second closes both.
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
