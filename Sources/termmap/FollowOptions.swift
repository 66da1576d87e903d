import Foundation
import LiveLocation
import TerminalUI

/// The live-position options of the viewer, `--follow SOURCE` and `--record FILE.gpx`, taken
/// out of the arguments before the other options are parsed (kept apart so they move easily
/// to the argument parser).
struct FollowOptions {
  var source: String?
  var record: String?

  /// Takes `--follow` and `--record` (with their values) out of `arguments`.
  static func extract(_ arguments: [String]) throws -> (FollowOptions, [String]) {
    var options = FollowOptions()
    var rest: [String] = []
    var i = 0
    while i < arguments.count {
      let a = arguments[i]
      if a == "--" {
        rest += arguments[i...]
        break
      }
      let name = a.split(separator: "=", maxSplits: 1).first.map(String.init) ?? a
      guard name == "--follow" || name == "--record" else {
        rest.append(a)
        i += 1
        continue
      }
      var value: String
      if a.contains("=") {
        value = String(a.split(separator: "=", maxSplits: 1)[1])
      } else {
        guard i + 1 < arguments.count else { throw UsageError("\(name): expected a value") }
        value = arguments[i + 1]
        i += 1
      }
      i += 1
      guard !value.isEmpty else { throw UsageError("\(name): expected a value") }
      if name == "--follow" {
        guard options.source == nil else { throw UsageError("--follow: given twice") }
        options.source = value
      } else {
        guard options.record == nil else { throw UsageError("--record: given twice") }
        value = value == "-" ? "" : value
        guard !value.isEmpty else { throw UsageError("--record: expected a file name") }
        options.record = value
      }
    }
    if options.record != nil && options.source == nil {
      throw UsageError("--record needs --follow SOURCE")
    }
    return (options, rest)
  }

  /// Starts following on the viewer: the provider, and the recorder when asked for. Standard
  /// input (`-`) is moved to another descriptor and the terminal takes its place, so keys still
  /// reach the viewer.
  @MainActor
  static func makeProvider(_ source: String) throws -> any LocationProvider {
    if source == "-" {
      guard isatty(0) == 0 else {
        throw UsageError("--follow -: standard input is a terminal, not NMEA")
      }
      let moved = dup(0)
      let tty = open("/dev/tty", O_RDWR)
      guard moved >= 0, tty >= 0 else {
        throw UsageError("--follow -: no terminal (/dev/tty) for the keys")
      }
      dup2(tty, 0)
      close(tty)
      _ = fcntl(moved, F_SETFD, FD_CLOEXEC)
      return NMEAStreamProvider(fileDescriptor: moved, name: "standard input")
    }
    do {
      return try LocationSource.provider(for: source)
    } catch {
      throw UsageError("--follow: \(error)")
    }
  }

  static func makeRecorder(_ path: String?) throws -> GPXRecorder? {
    guard let path else { return nil }
    do {
      return try GPXRecorder(path: path)
    } catch {
      throw UsageError("--record: \(error)")
    }
  }
}
