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
  /// Bytes dropped since the line became too long (or was last counted).
  private var skipped = 0
  private var epoch: Epoch?
  private var learnedKinds: Set<Kind> = []
  /// The latest date (RMC or ZDA) and the time of day it was given with.
  private var date: (day: Int, month: Int, year: Int, time: Double)?
  private var satellitesInView: Int?
  private var gsvPending: Int?
  private var fixType: Int?

  enum Kind: Hashable, Sendable { case gga, rmc, gll, gns }

  struct Epoch: Sendable {
    var time: Double
    var kinds: Set<Kind> = []
    var emitted = false
    var coordinate: Coordinate?
    var valid = false
    var ggaQuality: Int?
    var rmcMode: Character?
    var gnsModes: String?
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
  ///
  /// A line longer than a sentence can be is counted as malformed when it grows past the
  /// limit, and again for every further `maximumLength + 2` bytes without a line end: noise
  /// (a receiver at another baud rate, a binary protocol) keeps the count moving.
  public mutating func feed(_ bytes: some Sequence<UInt8>) -> [LocationEvent] {
    var events: [LocationEvent] = []
    let limit = NMEASentence.maximumLength + 2
    for b in bytes {
      if b == 10 {
        lineNumber += 1
        if !overlong && line.contains(where: { !NMEASentence.isTrailingSpace($0) }) {
          take(line, &events)
        }
        line.removeAll(keepingCapacity: true)
        overlong = false
        skipped = 0
      } else if overlong {
        skipped += 1
        if skipped == limit {
          problem("line too long", line: lineNumber + 1)
          skipped = 0
        }
      } else {
        line.append(b)
        if line.count > limit {
          problem("line too long", line: lineNumber + 1)
          overlong = true
          skipped = 0
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
      if !overlong && line.contains(where: { !NMEASentence.isTrailingSpace($0) }) {
        take(line, &events)
      }
      line.removeAll()
      overlong = false
      skipped = 0
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
    skipped = 0
    epoch = nil
    learnedKinds = []
    lineNumber = 0
  }

  private mutating func problem(_ text: String, line: Int? = nil) {
    statistics.malformed += 1
    statistics.lastProblem = SafeText.clean("\(sourceName):\(line ?? lineNumber): \(text)")
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
      if let d = r.date { date = (d.0, d.1, d.2, r.time ?? epoch?.time ?? 0) }
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
    case .gns(let g):
      position(.gns, time: g.time, &events) { e in
        e.gnsModes = g.modes
        if g.valid, let c = g.coordinate {
          e.coordinate = e.coordinate ?? c
          e.valid = true
        }
        e.altitude = e.altitude ?? g.altitude
        e.hdop = e.hdop ?? g.hdop
        e.satellitesUsed = e.satellitesUsed ?? g.satellitesUsed
      }
    case .zda(let z):
      // The date (receivers without RMC send it here); it also dates the epoch in progress,
      // which is still open when ZDA follows the position sentences of the first epoch.
      if let d = z.date { date = (d.0, d.1, d.2, z.time ?? epoch?.time ?? 0) }
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
      switch e.rmcMode ?? Self.mode(gns: e.gnsModes) {
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
      // The date was given at another time of day: an epoch more than twelve hours before
      // it is past midnight (the date is a day old), more than twelve hours after it before.
      var day = Self.days(year: d.year, month: d.month, day: d.day)
      if e.time < d.time - 43_200 { day += 1 }
      if e.time > d.time + 43_200 { day -= 1 }
      timestamp = Date(timeIntervalSince1970: Double(day * 86_400) + e.time)
    }
    statistics.fixes += 1
    return .fix(
      LocationFix(
        coordinate: c, altitude: e.altitude,
        horizontalAccuracy: e.hdop.map { $0 * LocationFix.rangeError }, course: e.course,
        speed: e.speedKnots.map { $0 * 1852 / 3600 }, timestamp: timestamp, quality: quality,
        satellitesUsed: e.satellitesUsed, satellitesInView: satellitesInView, hdop: e.hdop))
  }

  /// One letter for GNS's modes (one per constellation): the best of them.
  static func mode(gns: String?) -> Character? {
    guard let m = gns else { return nil }
    for c in "RFPDAEMS" where m.contains(c) { return c == "P" ? "D" : c }
    return nil
  }

  /// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
  static func days(year y: Int, month m: Int, day d: Int) -> Int {
    let yy = m <= 2 ? y - 1 : y
    let era = (yy >= 0 ? yy : yy - 399) / 400
    let yoe = yy - era * 400
    let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }
}
