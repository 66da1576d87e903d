import Foundation
import MapGeometry

/// What a live source sends, told from its first bytes.
public enum LiveFormat: String, Sendable, Equatable {
  /// GeoJSON: one Feature (or FeatureCollection) per line, a FeatureCollection document, or
  /// RFC 8142 text sequences (each text after an RS, 0x1E).
  case geoJSON = "GeoJSON"
  /// CSV with a header naming `lat` and `lon` columns.
  case csv = "CSV"
  /// dump1090 / readsb `aircraft.json`.
  case aircraftJSON = "aircraft.json"
  /// gpsd's JSON reports (its `AIS` class).
  case gpsd = "gpsd JSON"
}

/// Turns a source's bytes, in pieces of any size, into updates: recognises the format from
/// the first bytes, cuts the stream into messages (lines; RS-separated texts; whole JSON
/// documents when the first one spans lines, as aircraft.json and pretty-printed
/// FeatureCollections do) and decodes each. Bad messages are counted and skipped, never
/// fatal; a line over `maximumLineLength` is dropped (a document may be up to
/// `maximumDocumentLength`), so memory stays bounded whatever comes.
public struct LiveDecoder: Sendable {
  /// The longest line (or RFC 8142 text) taken, in bytes: 1 MiB.
  public static let maximumLineLength = 1 << 20
  /// The longest JSON document taken when a source sends documents (aircraft.json): 64 MiB.
  public static let maximumDocumentLength = 64 << 20

  /// The format, once the first bytes (CSV) or the first message (JSON) told it.
  public private(set) var format: LiveFormat?
  /// Why the source cannot be read (its first bytes are no known format); nil while it can.
  public private(set) var failure: String?
  /// What was taken and refused so far.
  public private(set) var statistics = LiveStatistics()
  /// The source's name, for messages.
  public let sourceName: String

  enum Framing { case lines, records, documents }
  private var framing: Framing?
  private var pending: [UInt8] = []
  private var skipping = false
  private var csv: CSVTargets?
  private var serial = 0
  private var messages = 0
  // Document framing.
  private var depth = 0
  private var inString = false
  private var escape = false
  private var garbage = false

  /// A decoder for a source called `sourceName` in messages.
  public init(sourceName: String) {
    self.sourceName = sourceName
  }

  /// Decodes what `bytes` complete; the rest waits for the next call.
  public mutating func feed(_ bytes: [UInt8], into out: inout [LiveUpdate]) {
    bytes.withUnsafeBufferPointer { feed($0, into: &out) }
  }

  /// Decodes what `bytes` complete; the rest waits for the next call.
  public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [LiveUpdate]) {
    guard failure == nil, bytes.count > 0 else { return }
    if framing == nil {
      pending.append(contentsOf: bytes)
      detect(final: false)
      guard framing != nil else { return }
      let held = pending
      pending = []
      held.withUnsafeBufferPointer { process($0, into: &out) }
      return
    }
    process(bytes, into: &out)
  }

  /// The end of the input: a last line without its newline is decoded.
  public mutating func finish(into out: inout [LiveUpdate]) {
    if framing == nil {
      detect(final: true)
      guard framing != nil else { return }
      let held = pending
      pending = []
      held.withUnsafeBufferPointer { process($0, into: &out) }
    }
    switch framing {
    case .lines?:
      if !pending.isEmpty && !skipping {
        let line = pending
        pending = []
        line.withUnsafeBufferPointer { message($0, into: &out) }
      }
    case .records?, .documents?:
      if !pending.isEmpty && !skipping { refuse("the input ended inside a JSON text") }
    case nil: break
    }
    pending = []
    skipping = false
    depth = 0
    inString = false
    escape = false
  }

  /// Decodes one whole body (an HTTP response): as `feed` then `finish`, keeping the format.
  public mutating func decodeDocument(_ bytes: [UInt8], into out: inout [LiveUpdate]) {
    feed(bytes, into: &out)
    finish(into: &out)
    if format == .csv {
      // Each body has its header again.
      framing = nil
      csv = nil
    }
  }

  // MARK: Detection

  private mutating func detect(final: Bool) {
    var start = 0
    if pending.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    while start < pending.count,
      pending[start] == 0x20 || pending[start] == 0x0A || pending[start] == 0x0D
        || pending[start] == 0x09
    {
      start += 1
    }
    guard start < pending.count else {
      if pending.count > Self.maximumLineLength { pending.removeAll() }
      return
    }
    let first = pending[start]
    let newline = pending[start...].firstIndex(of: 0x0A)
    if first == 0x1E {
      framing = .records
      return
    }
    if first == 0x7B || first == 0x5B {
      guard let nl = newline else {
        if final || pending.count > Self.maximumLineLength {
          framing = final ? .lines : .documents
        }
        return
      }
      // The first line one whole JSON value: a line per message; else whole documents.
      framing = Self.balanced(pending[start..<nl]) ? .lines : .documents
      return
    }
    guard let nl = newline ?? (final ? pending.count : nil) else {
      if pending.count > Self.maximumLineLength {
        failure = "\(sourceName): the first line is over 1 MiB: not a live layer"
      }
      return
    }
    var header = pending[start..<nl]
    if header.last == 0x0D { header = header.dropLast() }
    guard let c = CSVTargets(header: header) else {
      failure =
        "\(sourceName): not GeoJSON, CSV with lat and lon columns, aircraft.json or gpsd JSON"
      return
    }
    csv = c
    format = .csv
    framing = .lines
    pending.removeSubrange(0...min(nl, pending.count - 1))
  }

  /// Which JSON format a first text is.
  private func content(_ bytes: ArraySlice<UInt8>) -> LiveFormat {
    func has(_ word: String) -> Bool {
      let w = Array(word.utf8)
      guard bytes.count >= w.count, let first = w.first else { return false }
      var i = bytes.startIndex
      let last = bytes.endIndex - w.count
      while i <= last {
        if bytes[i] == first && bytes[i..<i + w.count].elementsEqual(w) { return true }
        i += 1
      }
      return false
    }
    if has("\"class\"") { return .gpsd }
    if has("\"aircraft\"") && !has("\"Feature") { return .aircraftJSON }
    return .geoJSON
  }

  /// Whether a line holds one whole JSON value (its brackets close).
  static func balanced(_ line: ArraySlice<UInt8>) -> Bool {
    var depth = 0
    var inString = false
    var escape = false
    for c in line {
      if inString {
        if escape {
          escape = false
        } else if c == 0x5C {
          escape = true
        } else if c == 0x22 {
          inString = false
        }
        continue
      }
      switch c {
      case 0x22: inString = true
      case 0x7B, 0x5B: depth += 1
      case 0x7D, 0x5D: depth -= 1
      default: break
      }
    }
    return depth <= 0 && !inString
  }

  // MARK: Framing

  private mutating func process(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [LiveUpdate]) {
    switch framing {
    case .lines?: lines(bytes, into: &out)
    case .records?: documents(bytes, limit: Self.maximumLineLength, into: &out)
    case .documents?: documents(bytes, limit: Self.maximumDocumentLength, into: &out)
    case nil: break
    }
  }

  private mutating func lines(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [LiveUpdate]) {
    let base = bytes.baseAddress!
    var start = 0
    while start < bytes.count {
      guard let hit = memchr(base + start, 0x0A, bytes.count - start) else {
        // No newline: the rest waits (or is dropped when the line is too long).
        if skipping { return }
        let rest = bytes.count - start
        if pending.count + rest > Self.maximumLineLength {
          pending.removeAll()
          skipping = true
          messages += 1
          statistics.overlong += 1
          refuse("a line over 1 MiB was dropped")
          return
        }
        pending.append(contentsOf: UnsafeBufferPointer(start: base + start, count: rest))
        return
      }
      let end = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
      if skipping {
        skipping = false
        pending.removeAll(keepingCapacity: true)
      } else if pending.count + (end - start) > Self.maximumLineLength {
        pending.removeAll()
        messages += 1
        statistics.overlong += 1
        refuse("a line over 1 MiB was dropped")
      } else if pending.isEmpty {
        message(UnsafeBufferPointer(start: base + start, count: end - start), into: &out)
      } else {
        pending.append(contentsOf: UnsafeBufferPointer(start: base + start, count: end - start))
        let line = pending
        pending.removeAll(keepingCapacity: true)
        line.withUnsafeBufferPointer { message($0, into: &out) }
      }
      start = end + 1
    }
  }

  private mutating func documents(
    _ bytes: UnsafeBufferPointer<UInt8>, limit: Int, into out: inout [LiveUpdate]
  ) {
    var valueStart = depth > 0 ? 0 : -1
    var i = 0
    while i < bytes.count {
      let c = bytes[i]
      if depth == 0 {
        if c == 0x7B || c == 0x5B {
          depth = 1
          valueStart = i
          garbage = false
        } else if c == 0x1E || c == 0x20 || c == 0x0A || c == 0x0D || c == 0x09 {
          if c == 0x1E && skipping { skipping = false }
        } else if !garbage {
          garbage = true
          messages += 1
          refuse("text outside a JSON value")
        }
        i += 1
        continue
      }
      if c == 0x1E {
        // A new text begins (RS cannot be in JSON text, not even in a string): the one in
        // progress was cut short.
        depth = 0
        inString = false
        escape = false
        pending.removeAll(keepingCapacity: true)
        messages += 1
        refuse("a JSON text cut short by the next")
        skipping = false
        valueStart = -1
        i += 1
        continue
      }
      if inString {
        if escape {
          escape = false
        } else if c == 0x5C {
          escape = true
        } else if c == 0x22 {
          inString = false
        }
      } else if c == 0x22 {
        inString = true
      } else if c == 0x7B || c == 0x5B {
        depth += 1
      } else if c == 0x7D || c == 0x5D {
        depth -= 1
      }
      i += 1
      if depth == 0 {
        let from = max(valueStart, 0)
        let piece = UnsafeBufferPointer(start: bytes.baseAddress! + from, count: i - from)
        if skipping {
          skipping = false
        } else if pending.count + piece.count > limit {
          pending.removeAll()
          messages += 1
          statistics.overlong += 1
          refuse("a JSON text over \(limit >> 20) MiB was dropped")
        } else if pending.isEmpty {
          message(piece, into: &out)
        } else {
          pending.append(contentsOf: piece)
          let doc = pending
          pending.removeAll(keepingCapacity: true)
          doc.withUnsafeBufferPointer { message($0, into: &out) }
        }
        valueStart = -1
      }
    }
    if depth > 0 && !skipping {
      let from = max(valueStart, 0)
      if pending.count + (bytes.count - from) > limit {
        pending.removeAll()
        skipping = true
        messages += 1
        statistics.overlong += 1
        refuse("a JSON text over \(limit >> 20) MiB was dropped")
      } else {
        pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[from...]))
      }
    }
  }

  // MARK: Messages

  private mutating func refuse(_ why: String) {
    statistics.malformed += 1
    statistics.lastProblem = "\(sourceName): message \(messages): \(why)"
  }

  /// Decodes one message (a line, a text or a document).
  private mutating func message(_ text: UnsafeBufferPointer<UInt8>, into out: inout [LiveUpdate]) {
    var t = text
    while let last = t.last, last == 0x0D || last == 0x20 || last == 0x09 {
      t = UnsafeBufferPointer(rebasing: t.dropLast())
    }
    var k = 0
    while k < t.count, t[k] == 0x20 || t[k] == 0x09 || t[k] == 0x1E { k += 1 }
    guard k < t.count else { return }
    if k > 0 { t = UnsafeBufferPointer(rebasing: t[k...]) }
    messages += 1
    // A JSON format is told by its first message (a gpsd report has a class, aircraft.json an
    // aircraft list).
    if format == nil { format = content(ArraySlice(t.prefix(65_536))) }
    do throws(LiveMessageError) {
      switch format {
      case .geoJSON?:
        try GeoJSONFeatures.decode(t, serial: &serial, into: &out)
      case .csv?:
        out.append(try csv!.decode(ArraySlice(t), row: messages))
      case .aircraftJSON?:
        var s = JSONScanner(t)
        guard let root = s.node(), s.peek() == nil else { throw LiveMessageError("malformed JSON") }
        try AircraftJSON.decode(root, into: &out)
      case .gpsd?:
        var s = JSONScanner(t)
        guard let root = s.node(), s.peek() == nil else { throw LiveMessageError("malformed JSON") }
        try GPSDAIS.decode(root, into: &out)
      case nil: return
      }
      statistics.accepted += 1
    } catch {
      refuse(error.reason)
    }
  }
}
