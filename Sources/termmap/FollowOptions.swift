import ArgumentParser
import Foundation
import LiveLocation
import TerminalUI

/// The viewer's live-position options: `--follow SOURCE` and `--record OUT.gpx`.
struct LiveOptions: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Follow a live position: gpsd[://HOST:PORT], a serial device with NMEA 0183, - (NMEA on standard input) or a growing NMEA, GPX or CSV file.",
      valueName: "SOURCE"),
    completion: .file())
  var follow: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Record the followed track to a GPX file, written as it goes (valid even if killed or the disk fills). A file that is there must be a termmap recording: a track is added to it.",
      valueName: "OUT.gpx"),
    completion: .file(extensions: ["gpx"]))
  var record: String?

  /// The provider and the recorder the options ask for (nil, nil without --follow). Errors are
  /// one line (`UsageError`).
  @MainActor
  func make() throws -> ((any LocationProvider)?, GPXRecorder?) {
    guard let source = follow else {
      if record != nil { throw UsageError("--record needs --follow SOURCE") }
      return (nil, nil)
    }
    guard !source.isEmpty else { throw UsageError("--follow: expected a source") }
    if let r = record, r.isEmpty || r == "-" {
      throw UsageError("--record: expected a file name")
    }
    let provider = try Self.provider(source)
    var recorder: GPXRecorder?
    if let path = record {
      // A file size limit makes a write fail (EFBIG, said by the recorder), not end termmap.
      signal(SIGXFSZ, SIG_IGN)
      do {
        recorder = try GPXRecorder(path: path)
      } catch {
        throw UsageError("--record: \(error)")
      }
    }
    return (provider, recorder)
  }

  /// Standard input (`-`) is moved to another descriptor and the terminal takes its place, so
  /// keys still reach the viewer.
  static func provider(_ source: String) throws -> any LocationProvider {
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
}
