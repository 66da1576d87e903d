import Foundation
import MapGeometry

/// Turns a stream of NMEA 0183 bytes into location events: splits lines, verifies and parses
/// sentences (malformed ones are counted and skipped, never fatal), and assembles the sentences
/// of one epoch (one time of day) into one fix.
///
/// An epoch ends when a position sentence with another time arrives, or as soon as it holds
/// every kind of position sentence (GGA, RMC, GLL) the previous epoch had, so a fix is not a
/// second late. GSA, GSV and VTG carry no time and join the epoch in progress.
public struct NMEADecoder: Sendable {
  /// Where the input comes from, for problems ("log.nmea").
  public let sourceName: String
  public private(set) var statistics = SourceStatistics()
  /// Lines read so far (for line numbers in problems).
  public private(set) var lineNumber = 0

  private var line: [UInt8] = []
  private var overlong = false
  private var epoch: Epoch?
  private var learnedKinds: Set<Kind> = []
  private var date: (Int, Int, Int)?
  private var satellitesInView: Int?
  private var gsvPending: Int?
  private var fixType: Int?

  enum Kind: Hashable, Sendable { case gga, rmc, gll }

  struct Epoch: Sendable {
    var time: Double
    var kinds: Set<Kind> = []
    var emitted = false
    var coordinate: Coordinate?
    var valid = false
    var ggaQuality: Int?
    var rmcMode: Character?
    var altitude: Double?
    var speedKnots: Double?
    var course: Double?
    var hdop: Double?
    var satellitesUsed: Int?
  }

  public init(sourceName: String) {
    self.sourceName = sourceName
  }

  /// Feeds bytes; returns the events they complete.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [LocationEvent] {
    var events: [LocationEvent] = []
    for b in bytes {
      if b == 10 {
        lineNumber += 1
        if overlong {
          problem("line too long")
        } else if !line.isEmpty && !(line.count == 1 && line[0] == 13) {
          take(line, &events)
        }
        line.removeAll(keepingCapacity: true)
        overlong = false
      } else if !overlong {
        line.append(b)
        if line.count > NMEASentence.maximumLength + 2 {
          overlong = true
          line.removeAll(keepingCapacity: true)
        }
      }
    }
    return events
  }

  /// The input ended: a last unterminated line is taken, and the epoch in progress is closed.
  public mutating func finish() -> [LocationEvent] {
    var events: [LocationEvent] = []
    if !line.isEmpty || overlong {
      lineNumber += 1
      if overlong { problem("line too long") } else { take(line, &events) }
      line.removeAll()
      overlong = false
    }
    if let e = epoch, !e.emitted { events.append(event(for: e)) }
    epoch = nil
    return events
  }

  /// Closes the epoch in progress now (the input has gone quiet), without forgetting it: later
  /// sentences of the same time join it without a second fix.
  public mutating func flushEpoch() -> [LocationEvent] {
    guard var e = epoch, !e.emitted else { return [] }
    e.emitted = true
    epoch = e
    return [event(for: e)]
  }

  /// Forgets the epoch in progress and partial lines (after a file was truncated).
  public mutating func reset() {
    line.removeAll()
    overlong = false
    epoch = nil
    learnedKinds = []
    lineNumber = 0
  }

  private mutating func problem(_ text: String) {
    statistics.malformed += 1
    statistics.lastProblem = SafeText.clean("\(sourceName):\(lineNumber): \(text)")
  }

  private mutating func take(_ bytes: [UInt8], _ events: inout [LocationEvent]) {
    let s: NMEASentence
    do {
      s = try NMEASentence.parse(bytes)
    } catch {
      problem(error.description)
      return
    }
    statistics.accepted += 1
    switch s {
    case .gga(let g):
      position(.gga, time: g.time, &events) { e in
        e.ggaQuality = g.quality
        if g.quality > 0, let c = g.coordinate {
          e.coordinate = c
          e.valid = true
        }
        e.altitude = g.altitude ?? e.altitude
        e.hdop = g.hdop ?? e.hdop
        e.satellitesUsed = g.satellitesUsed ?? e.satellitesUsed
      }
    case .rmc(let r):
      if let d = r.date { date = d }
      position(.rmc, time: r.time, &events) { e in
        e.rmcMode = r.mode
        if r.valid, let c = r.coordinate {
          e.coordinate = e.coordinate ?? c
          e.valid = true
        }
        if r.valid {
          e.speedKnots = r.speedKnots ?? e.speedKnots
          e.course = r.course ?? e.course
        }
      }
    case .gll(let g):
      position(.gll, time: g.time, &events) { e in
        if g.valid, let c = g.coordinate {
          e.coordinate = e.coordinate ?? c
          e.valid = true
        }
      }
    case .vtg(let v):
      guard v.valid, var e = epoch, !e.emitted else { return }
      e.course = e.course ?? v.course
      e.speedKnots = e.speedKnots ?? v.speedKnots ?? v.speedKmh.map { $0 / 1.852 }
      epoch = e
    case .gsa(let g):
      fixType = g.fixType
      if var e = epoch, !e.emitted {
        e.hdop = g.hdop ?? e.hdop
        if e.satellitesUsed == nil && !g.satellites.isEmpty {
          e.satellitesUsed = g.satellites.count
        }
        epoch = e
      }
    case .gsv(let g):
      if g.messageNumber == 1 { gsvPending = g.satellitesInView }
      if g.messageNumber == g.messageCount { satellitesInView = gsvPending ?? g.satellitesInView }
    case .other:
      break
    }
  }

  /// A position sentence of a kind at a time: closes the epoch before it when the time
  /// changed, updates the current one, and closes it when it is complete.
  private mutating func position(
    _ kind: Kind, time: Double?, _ events: inout [LocationEvent], _ update: (inout Epoch) -> Void
  ) {
    let t = time ?? epoch?.time ?? -1
    if let e = epoch, e.time != t {
      if !e.emitted { events.append(event(for: e)) }
      learnedKinds = e.kinds
      epoch = nil
    }
    var e = epoch ?? Epoch(time: t)
    e.kinds.insert(kind)
    update(&e)
    if !e.emitted && !learnedKinds.isEmpty && e.kinds.isSuperset(of: learnedKinds) {
      events.append(event(for: e))
      e.emitted = true
    }
    epoch = e
  }

  private mutating func event(for e: Epoch) -> LocationEvent {
    guard e.valid, let c = e.coordinate else {
      return .noFix(satellitesInView: satellitesInView)
    }
    var quality: FixQuality
    switch e.ggaQuality {
    case 2?: quality = .dgps
    case 4?, 5?: quality = .rtk
    case 6?: quality = .estimated
    case 7?, 8?: quality = .simulated
    default:
      switch e.rmcMode {
      case "D"?: quality = .dgps
      case "E"?: quality = .estimated
      case "R"?, "F"?: quality = .rtk
      case "S"?, "M"?: quality = .simulated
      default: quality = fixType == 2 ? .fix2D : .fix3D
      }
    }
    if quality == .fix3D && e.altitude == nil && fixType != 3 { quality = .fix2D }
    var timestamp: Date?
    if let d = date, e.time >= 0 {
      var comps = DateComponents()
      comps.timeZone = TimeZone(identifier: "UTC")
      comps.year = d.2
      comps.month = d.1
      comps.day = d.0
      var calendar = Calendar(identifier: .gregorian)
      calendar.timeZone = TimeZone(identifier: "UTC")!
      timestamp = calendar.date(from: comps).map { $0.addingTimeInterval(e.time) }
    }
    statistics.fixes += 1
    return .fix(
      LocationFix(
        coordinate: c, altitude: e.altitude,
        horizontalAccuracy: e.hdop.map { $0 * LocationFix.rangeError }, course: e.course,
        speed: e.speedKnots.map { $0 * 1852 / 3600 }, timestamp: timestamp, quality: quality,
        satellitesUsed: e.satellitesUsed, satellitesInView: satellitesInView, hdop: e.hdop))
  }
}
