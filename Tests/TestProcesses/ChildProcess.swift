import CNcursesw
import Foundation
import Synchronization

/// Programs the tests start (tmux, gpsfake, termmap): stdin and stderr on /dev/null, stdout
/// on /dev/null or a file, none of the test runner's other descriptors, and the signal mask
/// reset with default signal actions. (The test runner blocks signals; a child inherits that,
/// and gpsfake then never feeds its daemon nor stops on SIGTERM.)
public enum ChildProcess {
  /// Starts a program (looked up in PATH unless the path is given); its process id.
  /// `environment` adds to (or replaces) variables of the test runner's; `stderr` names a file
  /// for the program's standard error (default /dev/null).
  public static func spawn(
    _ arguments: [String], stdout: String? = nil, stderr: String? = nil,
    environment: [String: String] = [:]
  ) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(
      &actions, 1, stdout ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(
      &actions, 2, stderr ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    termmap_spawn_addclosefrom(&actions, 3)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var defaults = sigset_t()
    sigfillset(&defaults)
    sigdelset(&defaults, SIGKILL)
    sigdelset(&defaults, SIGSTOP)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
    argv.append(nil)
    defer { for p in argv { free(p) } }
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    var envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") }
    envp.append(nil)
    defer { for p in envp { free(p) } }
    var pid: pid_t = 0
    let r = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
    guard r == 0 else { throw SpawnError(arguments[0], code: r) }
    return pid
  }

  /// Waits for a started program; its exit status.
  @discardableResult
  public static func wait(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status >> 8) & 0xFF
  }

  /// Waits for a started program; its exit status and its peak resident memory in KiB (from
  /// the kernel's accounting of that one child: `wait4`'s `ru_maxrss`).
  public static func waitMeasured(_ pid: pid_t) -> (status: Int32, maxResidentKiB: Int) {
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    return ((status >> 8) & 0xFF, Int(usage.ru_maxrss))
  }

  /// Runs a program to its end; its exit status.
  @discardableResult
  public static func run(_ arguments: [String], stdout: String? = nil) throws -> Int32 {
    wait(try spawn(arguments, stdout: stdout))
  }

  /// SIGTERM, and SIGKILL if the program is still there after 20 seconds; waits for it.
  public static func stop(_ pid: pid_t) {
    kill(pid, SIGTERM)
    var status: Int32 = 0
    for _ in 0..<400 {
      if waitpid(pid, &status, WNOHANG) == pid { return }
      usleep(50_000)
    }
    kill(pid, SIGKILL)
    waitpid(pid, &status, 0)
  }

  /// The ports `freeLoopbackPort()` has handed out in this test process.
  private static let handedOut = Mutex<Set<UInt16>>([])

  /// A loopback TCP port that is free now (bound to port 0, then released) and that no earlier
  /// call in this process returned: the kernel may give a released port to the next bind to
  /// port 0, and two tests running side by side would then start their servers on one port
  /// (one fails to listen, and its client talks to the other's server: a gpsd replaying
  /// another log, seen in CI).
  public static func freeLoopbackPort() -> UInt16 {
    for _ in 0..<1000 {
      let port = anyFreeLoopbackPort()
      if handedOut.withLock({ $0.insert(port).inserted }) { return port }
    }
    return anyFreeLoopbackPort()
  }

  private static func anyFreeLoopbackPort() -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_addr.s_addr = inet_addr("127.0.0.1")
    a.sin_port = 0
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &a) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
    }
    _ = withUnsafeMutablePointer(to: &a) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
    }
    return UInt16(bigEndian: a.sin_port)
  }

  /// A socket connected to 127.0.0.1:`port`, or -1 when nothing accepts there.
  /// `receiveBuffer`: SO_RCVBUF set before connecting (the window the peer may fill).
  public static func connectLoopback(port: UInt16, receiveBuffer: Int32? = nil) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    if var size = receiveBuffer {
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_addr.s_addr = inet_addr("127.0.0.1")
    a.sin_port = port.bigEndian
    let r = withUnsafePointer(to: &a) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard r == 0 else {
      close(fd)
      return -1
    }
    return fd
  }
}

/// A program that could not be started.
public struct SpawnError: Error, CustomStringConvertible {
  public let description: String
  init(_ program: String, code: Int32) {
    description = "cannot start \(program): \(String(cString: strerror(code)))"
  }
  init(description: String) { self.description = description }
  static func message(_ text: String) -> SpawnError { SpawnError(description: text) }
}
