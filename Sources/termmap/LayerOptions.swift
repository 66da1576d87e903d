import ArgumentParser
import Foundation
import LiveLayers
import MapGeometry
import TermMapKit
import TerminalUI

/// Live layers: `--layer SOURCE` (repeatable), `--every`, `--ttl`, `--max-targets`, `--trail`
/// (view and render).
struct LayerOptions: ParsableArguments {
  @Option(
    parsing: .unconditionalSingleValue,
    help: ArgumentHelp(
      "Draw moving targets from a source (repeatable): - (standard input), a file (followed as it grows), a FIFO, tcp://HOST:PORT, http(s)://URL (polled) or gpsd://HOST[:PORT] (AIS). GeoJSON lines, FeatureCollections or RFC 8142 sequences, CSV with id,lat,lon, dump1090's aircraft.json or gpsd's AIS reports.",
      valueName: "SOURCE"),
    completion: .file())
  var layer: [String] = []

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Seconds between fetches of an http(s) --layer (default 1).", valueName: "SECONDS"))
  var every: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "A target silent this long is drawn stale, and removed after twice that (default: aircraft 60, vessels 600, other features never; a ttl property wins).",
      valueName: "SECONDS"))
  var ttl: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Keep at most N targets; past that the least recently updated are dropped (default 100000).",
      valueName: "N"))
  var maxTargets: String?

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Draw each target's trail of its last N positions (default 0, at most 10000).",
      valueName: "N"))
  var trail: String?

  /// Moves standard input to another descriptor and puts the terminal in its place (the
  /// viewer reads keys from descriptor 0); returns the moved descriptor.
  static func moveStandardInput() throws -> Int32 {
    guard isatty(0) == 0 else {
      throw UsageError("--layer -: standard input is a terminal, not a stream of targets")
    }
    let moved = dup(0)
    let tty = open("/dev/tty", O_RDWR)
    guard moved >= 0, tty >= 0 else {
      throw UsageError("--layer -: no terminal (/dev/tty) for the keys")
    }
    dup2(tty, 0)
    close(tty)
    _ = fcntl(moved, F_SETFD, FD_CLOEXEC)
    return moved
  }

  /// The checked settings.
  struct Parsed {
    var sources: [LiveSourceSpec] = []
    var interval = 1.0
    var store = TargetStore()
  }

  /// The sources and settings; each bad value is one line (`UsageError`).
  func parse() throws -> Parsed {
    var p = Parsed()
    for l in layer {
      do {
        p.sources.append(try LiveSourceSpec.parse(l))
      } catch {
        throw UsageError(error.description)
      }
    }
    if p.sources.filter({ $0 == .standardInput }).count > 1 {
      throw UsageError("--layer -: standard input can be read only once")
    }
    if let v = every {
      let n = try ArgumentValues.number(v, "--every")
      guard n >= 0.1 && n <= 86_400 else {
        throw UsageError("--every: expected 0.1...86400 seconds")
      }
      p.interval = n
    }
    var ttlSeconds: Double?
    if let v = ttl {
      let n = try ArgumentValues.number(v, "--ttl")
      guard n > 0 && n <= 31_536_000 else {
        throw UsageError("--ttl: expected a number of seconds above 0")
      }
      ttlSeconds = n
    }
    var maximum = 100_000
    if let v = maxTargets {
      guard let n = Int(v), n >= 1, n <= 10_000_000 else {
        throw UsageError(
          "--max-targets: expected a whole number 1...10000000, found \"\(SafeText.clean(v))\"")
      }
      maximum = n
    }
    var trailLength = 0
    if let v = trail {
      guard let n = Int(v), n >= 0, n <= 10_000 else {
        throw UsageError(
          "--trail: expected a whole number 0...10000, found \"\(SafeText.clean(v))\"")
      }
      trailLength = n
    }
    if p.sources.isEmpty && (every != nil || ttl != nil || maxTargets != nil || trail != nil) {
      throw UsageError("--every, --ttl, --max-targets and --trail need --layer SOURCE")
    }
    p.store = TargetStore(
      maximumTargets: maximum, trailLength: trailLength, timeToLive: TimeToLive(fixed: ttlSeconds))
    return p
  }
}

/// The live layers of one run: the feed, its readers and the layer on the map.
@MainActor
final class LiveLayerRun {
  let feed: LiveFeed
  let readers: [LiveSourceReader]
  let layer: LiveLayer

  /// Readers for the sources; `follows`: files are followed (the viewer) or read once
  /// (`render`). `standardInput` replaces descriptor 0 for `-`.
  init(_ p: LayerOptions.Parsed, follows: Bool, standardInput: Int32? = nil) {
    let feed = LiveFeed(store: p.store)
    self.feed = feed
    readers = p.sources.enumerated().map { n, spec in
      LiveSourceReader(
        spec: spec, feed: feed, index: n, follows: follows, interval: p.interval,
        fileDescriptor: spec == .standardInput ? standardInput : nil)
    }
    layer = LiveLayer(feed: feed)
  }

  func start() { for r in readers { r.start() } }
  func stop() { for r in readers { r.stop() } }

  /// For `render`: reads the sources that end to their end and the others for `wait`
  /// seconds (both at most `wait` when a stream is among them), then stops the readers.
  func readForRender(wait: Double) {
    start()
    let streams = readers.contains { !$0.spec.hasEnd }
    let deadline = Date().addingTimeInterval(wait)
    while Date() < deadline {
      if !streams && feed.allEnded { break }
      usleep(20_000)
    }
    stop()
  }

  /// The lines for standard error after reading: each source's problem, and the messages
  /// skipped.
  var report: [String] {
    var lines = feed.problems.map { "termmap: \($0)" }
    let s = feed.statistics
    if s.malformed > 0 {
      var line =
        "termmap: --layer: \(s.malformed) bad message\(s.malformed == 1 ? "" : "s") skipped"
      if let p = s.lastProblem { line += " (last: \(p))" }
      lines.append(line)
    }
    if s.droppedTargets > 0 {
      lines.append(
        "termmap: --layer: \(s.droppedTargets) target\(s.droppedTargets == 1 ? "" : "s") dropped (over --max-targets)"
      )
    }
    return lines
  }
}
