import Foundation

/// What the kernel says of the tests' processes and loopback connections (`/proc`): the
/// events a test waits for when the program itself says nothing (a server that has finished
/// with its connections, a process that has nothing left to do).
public enum KernelState {
  /// A TCP connection on 127.0.0.1 as `/proc/net/tcp` lists it.
  public struct Connection: Sendable {
    public let localPort: UInt16
    public let remotePort: UInt16
    /// The state's number: 01 established, 03 SYN received, 08 close-wait, 0A listening…
    public let state: Int
    /// Bytes sent and not yet acknowledged (sent by this end, not yet read by the other end
    /// past its window), and bytes received and not yet read by this end's program.
    public let sendQueue: Int
    public let receiveQueue: Int
  }

  /// The IPv4 TCP connections on 127.0.0.1 (both ends of each, the listening sockets too).
  public static func loopbackConnections() -> [Connection] {
    guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else {
      return []
    }
    // "  sl  local_address rem_address   st tx_queue:rx_queue …"
    return table.split(separator: "\n").dropFirst().compactMap { line in
      let f = line.split(separator: " ")
      guard f.count > 4 else { return nil }
      let local = f[1].split(separator: ":")
      let remote = f[2].split(separator: ":")
      let queues = f[4].split(separator: ":")
      guard local.count == 2, remote.count == 2, queues.count == 2, local[0] == "0100007F",
        let lp = UInt16(local[1], radix: 16), let rp = UInt16(remote[1], radix: 16),
        let st = Int(f[3], radix: 16), let tx = Int(queues[0], radix: 16),
        let rx = Int(queues[1], radix: 16)
      else { return nil }
      return Connection(
        localPort: lp, remotePort: rp, state: st, sendQueue: tx, receiveQueue: rx)
    }
  }

  /// Connections to a server on `port` whose server side is still open: established,
  /// half-open (SYN received) or closed by the client only (close-wait); connections queued
  /// for `accept` are among them.
  public static func openServerConnections(port: UInt16) -> Int {
    loopbackConnections().filter {
      $0.localPort == port && [0x01, 0x03, 0x08].contains($0.state)
    }.count
  }

  /// Whether bytes wait on a connection to or from `port`, in either end's queues.
  public static func bytesWaiting(port: UInt16) -> Bool {
    loopbackConnections().contains {
      ($0.localPort == port || $0.remotePort == port) && $0.state != 0x0A
        && ($0.sendQueue > 0 || $0.receiveQueue > 0)
    }
  }

  /// Whether a thread of process `pid` is running, waiting for a core, or in an
  /// uninterruptible wait (a disk read): state R or D in `/proc/PID/task/TID/stat`. A process
  /// whose threads all sleep (S) is waiting for input or a timer; one that is starved of a
  /// core on a loaded machine is R, not idle.
  public static func isBusy(_ pid: pid_t) -> Bool {
    let tasks = "/proc/\(pid)/task"
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else {
      return false
    }
    return threads.contains { tid in
      guard let stat = try? String(contentsOfFile: "\(tasks)/\(tid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      // "TID (name) S …": the state follows the name, which may hold spaces and brackets.
      let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
      return state == "R" || state == "D"
    }
  }

  /// Seconds thread `thread` of process `pid` (its main thread by default) has spent on a
  /// core and waiting for one (runnable, not running) since it started, from
  /// `/proc/PID/task/TID/schedstat`; nil once it is gone.
  ///
  /// Wall time less the waiting is a time a loaded machine does not stretch: what a program
  /// took to answer, however long it queued for a core meanwhile.
  public static func schedule(_ pid: pid_t, thread: pid_t? = nil) -> (
    running: Double, waiting: Double
  )? {
    let path = "/proc/\(pid)/task/\(thread ?? pid)/schedstat"
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
    let f = text.split(separator: " ").compactMap {
      Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    guard f.count >= 2 else { return nil }
    return (f[0] / 1e9, f[1] / 1e9)
  }

  /// Whether process `pid` has ended: gone, or a zombie its parent has not reaped yet.
  public static func hasExited(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return true }
    let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
    return state == "Z" || state == "X"
  }

  /// The seconds each thread of process `pid` has waited for a core so far (`schedule`'s
  /// `waiting`), by thread id; empty once the process is gone.
  public static func waitingByThread(_ pid: pid_t) -> [pid_t: Double] {
    let tasks = "/proc/\(pid)/task"
    guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else {
      return [:]
    }
    var out: [pid_t: Double] = [:]
    for name in threads {
      if let tid = pid_t(name), let s = schedule(pid, thread: tid) { out[tid] = s.waiting }
    }
    return out
  }

  /// Seconds the calling thread has waited for a core so far (`/proc/thread-self/schedstat`).
  public static func waitingOfThisThread() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/thread-self/schedstat", encoding: .utf8)
    else { return 0 }
    let f = text.split(separator: " ")
    return f.count >= 2 ? (Double(f[1]) ?? 0) / 1e9 : 0
  }
}
