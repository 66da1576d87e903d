import Foundation
import Synchronization

/// The signal that asked the viewer to stop (0 while none did).
let stopSignal = Atomic<Int32>(0)

/// Set when the process was continued (SIGCONT, after Ctrl-Z and `fg`): the terminal then
/// shows the shell's screen, and the next frame must be drawn whole.
let continuedSignal = Atomic<Bool>(false)

/// The terminal's settings before the viewer started, for the crash handler. Written once
/// before any handler is installed; only read afterwards.
nonisolated(unsafe) private var savedTermios = termios()
nonisolated(unsafe) private var haveSavedTermios = false

/// Puts the terminal back from a signal handler: only async-signal-safe calls.
private func restoreFromSignal() {
  // Leave mouse tracking and the alternate screen, reset colours, show the cursor.
  let reset = "\u{1B}[?1002l\u{1B}[?1000l\u{1B}[?1006l\u{1B}[0m\u{1B}[?1049l\u{1B}[?25h\r\n"
  _ = reset.withCString { write(1, $0, strlen($0)) }
  if haveSavedTermios { _ = tcsetattr(0, TCSANOW, &savedTermios) }
}

private let stopHandler: @convention(c) (Int32) -> Void = { signal in
  stopSignal.store(signal, ordering: .relaxed)
}

private let continueHandler: @convention(c) (Int32) -> Void = { _ in
  continuedSignal.store(true, ordering: .relaxed)
}

/// The handlers that were there before (Swift's backtracer), to chain to after restoring.
nonisolated(unsafe) private var previousActions: [sigaction] = Array(
  repeating: sigaction(), count: 65)

private let crashHandler: @convention(c) (Int32) -> Void = { signal in
  restoreFromSignal()
  if signal >= 0 && signal < 65 {
    _ = sigaction(signal, &previousActions[Int(signal)], nil)
  } else {
    Glibc.signal(signal, SIG_DFL)
  }
  raise(signal)
}

/// Makes sure the terminal is given back on `q`, Ctrl-C, SIGTERM, SIGHUP and on a crash.
public enum TerminalGuard {
  /// Saves the terminal's settings and installs the handlers. Stop signals only set a flag, so
  /// the main loop ends and restores in order; fatal signals restore at once and re-raise.
  public static func install() {
    if tcgetattr(0, &savedTermios) == 0 { haveSavedTermios = true }
    for s in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = stopHandler
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      sigaction(s, &action, nil)
    }
    for s in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP] {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = crashHandler
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      sigaction(s, &action, &previousActions[Int(s)])
    }
    // Back from Ctrl-Z: ncurses' own SIGTSTP handler restores its screen, but frames written
    // past it (`TerminalWriter`) only send changes, so the loop repaints everything.
    var action = sigaction()
    action.__sigaction_handler.sa_handler = continueHandler
    sigemptyset(&action.sa_mask)
    action.sa_flags = SA_RESTART
    sigaction(SIGCONT, &action, nil)
    // A closed terminal must not kill the process before it can tidy up; nor may a file size
    // limit reached by the recording (the write fails with EFBIG, and the recorder says so).
    signal(SIGPIPE, SIG_IGN)
    signal(SIGXFSZ, SIG_IGN)
  }

  /// True once after the process was continued (SIGCONT) since the last call.
  public static func takeContinued() -> Bool {
    continuedSignal.exchange(false, ordering: .relaxed)
  }

  /// Runs this program again with Swift's crash report set not to wait for a key, so a crash
  /// can never leave the viewer hanging. Returns only when that was already so (or exec failed).
  public static func ensureNonInteractiveBacktraces() {
    guard ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] == nil else { return }
    setenv("SWIFT_BACKTRACE", "interactive=no", 1)
    var argv: [UnsafeMutablePointer<CChar>?] = CommandLine.arguments.map { strdup($0) }
    argv.append(nil)
    // Exec the resolved path (not /proc/self/exe) so the process keeps its name.
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return }
    execv(buffer, argv)
  }

  /// The stop signal received, if any.
  public static var pendingStop: Int32? {
    let s = stopSignal.load(ordering: .relaxed)
    return s == 0 ? nil : s
  }

  /// Restores the settings saved at install (after ncurses has ended).
  public static func restoreSettings() {
    if haveSavedTermios { _ = tcsetattr(0, TCSANOW, &savedTermios) }
  }
}
