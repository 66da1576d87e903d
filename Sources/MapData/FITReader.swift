import Foundation
import MapGeometry
import TermMapKit

/// Reads Garmin FIT files (the Flexible and Interoperable Data Transfer protocol: a 12 or 14
/// byte file header, definition and data messages, a CRC-16 at the end), in chunks.
///
/// - A definition message says, for one of 16 local message types, which global message its
///   data messages carry, their byte order and their fields (number, size, base type), and the
///   sizes of developer fields, which are skipped. A normal header starts a definition or a
///   data message; a compressed timestamp header starts a data message whose time is the last
///   timestamp seen with its low 5 bits replaced (rolling over forwards).
/// - `record` messages (global 20) with a position become the points of one track: position in
///   semicircles, `enhanced_altitude` or `altitude`, `enhanced_speed` or `speed`, heart rate,
///   cadence and the timestamp (seconds since 1989-12-31T00:00:00Z). Fields holding their base
///   type's invalid value are missing values. Records without a position (indoor rides,
///   the time before a fix) are not drawn.
/// - The header's CRC (when not zero) and the file's CRC are checked; chained FIT files (one
///   after another in one file) are read in turn. The track is named by the course name (a
///   `course` message) or the sport of the `session` and the first time.
/// - Structural problems (a bad header, a data message without a definition, a message past
///   the data, a truncated file, a CRC that does not match) are errors with their byte offset;
///   a position outside the globe skips its record with a warning.
struct FITReader {
  let source: ByteSource
  var builder: ContentBuilder
  private let input: FITInput

  init(source: ByteSource) {
    self.source = source
    builder = ContentBuilder(path: source.path)
    input = FITInput(source: source)
  }

  /// Seconds from 1970-01-01 to the FIT epoch, 1989-12-31T00:00:00Z.
  static let epoch = 631_065_600.0

  /// One field of a definition: where it is in the message and how it is read.
  struct Field {
    var offset: Int
    var size: Int
    var baseType: UInt8
  }

  /// What a definition says about the data messages of one local type.
  struct Definition {
    var global: UInt16
    var bigEndian: Bool
    var size: Int
    var timestamp: Field?
    // record (20)
    var latitude: Field?
    var longitude: Field?
    var altitude: Field?
    var enhancedAltitude: Field?
    var speed: Field?
    var enhancedSpeed: Field?
    var heartRate: Field?
    var cadence: Field?
    // course (31) name, session (18) sport
    var text: Field?
  }

  mutating func read() throws(DataFileError) -> MapContent {
    var series = TrackSeries()
    var sport: String?
    var courseName: String?
    var files = 0
    while try input.available(1) {
      if files > 0 {
        // Bytes after a FIT file are another FIT file, or are ignored.
        guard try input.available(12), FormatDetection.isFIT(input.peek(12)) else {
          let rest = try input.skipRest()
          builder.problems.ignore(
            DataFileError(
              path: source.path, byteOffset: input.offset - rest,
              message: "ignored \(rest) bytes after the end of the FIT data"))
          break
        }
      }
      files += 1
      try readFile(into: &series, sport: &sport, course: &courseName)
    }
    if !series.isEmpty {
      var title = courseName
      if title == nil {
        let first = series.times.first { !$0.isNaN }
        let parts = [sport, first.map { Formatting.time($0) }].compactMap { $0 }
        title = parts.isEmpty ? nil : parts.joined(separator: " · ")
      }
      builder.tracks = 1
      builder.segments = 1
      builder.addTrack(title: title, segments: [series.measured(kind: .trackSegment, title: title)])
    } else if builder.problems.first == nil {
      builder.notes.append(
        DataFileError(
          path: source.path, message: "the file has no record messages with a position"
        ).description)
    }
    return try builder.build(format: .fit)
  }

  // MARK: One FIT file

  private mutating func readFile(
    into series: inout TrackSeries, sport: inout String?, course: inout String?
  ) throws(DataFileError) {
    let start = input.offset
    input.startCRC()
    guard try input.available(12) else {
      throw DataFileError(
        path: source.path, byteOffset: start,
        message: "the file ends inside the FIT header (it may be truncated)")
    }
    let head = input.peek(12)
    let headerSize = Int(head[0])
    guard FormatDetection.isFIT(head) else {
      throw DataFileError(
        path: source.path, byteOffset: start,
        message: "expected a FIT header (size 12 or 14, \".FIT\" at byte 8)")
    }
    let dataSize =
      Int(head[4]) | Int(head[5]) << 8 | Int(head[6]) << 16 | Int(head[7]) << 24
    if headerSize == 14 {
      guard try input.available(14) else {
        throw DataFileError(
          path: source.path, byteOffset: start,
          message: "the file ends inside the FIT header (it may be truncated)")
      }
      let h = input.peek(14)
      let stored = UInt16(h[12]) | UInt16(h[13]) << 8
      if stored != 0 {
        let computed = FITCRC.compute(h[0..<12])
        if computed != stored {
          throw DataFileError(
            path: source.path, byteOffset: start + 12,
            message: String(
              format: "the header's CRC is 0x%04X but its bytes give 0x%04X (the file is damaged)",
              stored, computed))
        }
      }
    }
    input.consume(headerSize)
    let dataEnd = start + headerSize + dataSize
    var definitions = [Definition?](repeating: nil, count: 16)
    var lastTimestamp: UInt32 = 0
    var haveTimestamp = false

    while input.offset < dataEnd {
      let at = input.offset
      guard try input.available(1) else { throw truncated(at: at, dataEnd: dataEnd) }
      let header = input.byte(0)
      if header & 0x80 == 0 && header & 0x40 != 0 {
        // Definition message.
        let developer = header & 0x20 != 0
        let local = Int(header & 0x0F)
        guard try input.available(6) else { throw truncated(at: at, dataEnd: dataEnd) }
        let architecture = input.byte(2)
        guard architecture <= 1 else {
          throw DataFileError(
            path: source.path, byteOffset: at + 2,
            message: "a definition message's architecture is \(architecture) (0 little-endian "
              + "or 1 big-endian)")
        }
        let bigEndian = architecture == 1
        let global =
          bigEndian
          ? UInt16(input.byte(3)) << 8 | UInt16(input.byte(4))
          : UInt16(input.byte(3)) | UInt16(input.byte(4)) << 8
        let count = Int(input.byte(5))
        var length = 6 + count * 3
        guard try input.available(length + (developer ? 1 : 0)) else {
          throw truncated(at: at, dataEnd: dataEnd)
        }
        var developerCount = 0
        if developer {
          developerCount = Int(input.byte(length))
          length += 1 + developerCount * 3
          guard try input.available(length) else { throw truncated(at: at, dataEnd: dataEnd) }
        }
        guard at + length <= dataEnd else { throw pastData(at: at, dataEnd: dataEnd) }
        var d = Definition(global: global, bigEndian: bigEndian, size: 0)
        var offset = 0
        for k in 0..<count {
          let number = input.byte(6 + k * 3)
          let size = Int(input.byte(7 + k * 3))
          let baseType = input.byte(8 + k * 3)
          let f = Field(offset: offset, size: size, baseType: baseType)
          offset += size
          if number == 253 { d.timestamp = Self.fits(f, 4) }
          switch (global, number) {
          case (20, 0): d.latitude = Self.fits(f, 4)
          case (20, 1): d.longitude = Self.fits(f, 4)
          case (20, 2): d.altitude = Self.fits(f, 2)
          case (20, 3): d.heartRate = Self.fits(f, 1)
          case (20, 4): d.cadence = Self.fits(f, 1)
          case (20, 6): d.speed = Self.fits(f, 2)
          case (20, 73): d.enhancedSpeed = Self.fits(f, 4)
          case (20, 78): d.enhancedAltitude = Self.fits(f, 4)
          case (31, 5): d.text = size > 0 ? f : nil
          case (18, 5): d.text = Self.fits(f, 1)
          default: break
          }
        }
        let fieldsEnd = 6 + count * 3 + 1
        for k in 0..<developerCount { offset += Int(input.byte(fieldsEnd + k * 3 + 1)) }
        d.size = offset
        definitions[local] = d
        input.consume(length)
        continue
      }
      // Data message, with a normal or a compressed timestamp header.
      let compressed = header & 0x80 != 0
      let local = compressed ? Int((header >> 5) & 0x03) : Int(header & 0x0F)
      guard let d = definitions[local] else {
        throw DataFileError(
          path: source.path, byteOffset: at,
          message: "a data message of local type \(local) has no definition before it")
      }
      guard at + 1 + d.size <= dataEnd else { throw pastData(at: at, dataEnd: dataEnd) }
      guard try input.available(1 + d.size) else { throw truncated(at: at, dataEnd: dataEnd) }
      if compressed {
        let offset = UInt32(header & 0x1F)
        var t = (lastTimestamp & ~0x1F) | offset
        if offset < lastTimestamp & 0x1F { t &+= 0x20 }
        lastTimestamp = t
      }
      let body = 1
      if let f = d.timestamp, let t = input.unsigned(body + f.offset, 4, d.bigEndian),
        t != 0xFFFF_FFFF
      {
        lastTimestamp = UInt32(t)
        haveTimestamp = true
      } else if compressed {
        haveTimestamp = true
      }
      switch d.global {
      case 20:
        record(d, at: at, time: haveTimestamp ? Double(lastTimestamp) + Self.epoch : .nan, &series)
      case 31:
        if course == nil, let f = d.text { course = input.string(body + f.offset, f.size) }
      case 18:
        if sport == nil, let f = d.text, let v = input.unsigned(body + f.offset, 1, false) {
          sport = Self.sports[Int(v)]
        }
      default: break
      }
      input.consume(1 + d.size)
    }
    // The file CRC.
    let crc = input.finishCRC()
    guard try input.available(2) else {
      throw DataFileError(
        path: source.path, byteOffset: input.offset,
        message: "the file ends before its CRC (it may be truncated)")
    }
    let stored = UInt16(input.byte(0)) | UInt16(input.byte(1)) << 8
    if stored != crc {
      throw DataFileError(
        path: source.path, byteOffset: input.offset,
        message: String(
          format: "the file's CRC is 0x%04X but its contents give 0x%04X (the file is damaged)",
          stored, crc))
    }
    input.consume(2)
  }

  /// A record message's point, when it has a position.
  private mutating func record(
    _ d: Definition, at: Int, time: Double, _ series: inout TrackSeries
  ) {
    guard let la = d.latitude, let lo = d.longitude,
      let lat = input.signed32(1 + la.offset, d.bigEndian),
      let lon = input.signed32(1 + lo.offset, d.bigEndian)
    else { return }
    let latitude = Double(lat) * (180.0 / 2_147_483_648.0)
    let longitude = Double(lon) * (180.0 / 2_147_483_648.0)
    guard abs(latitude) <= 90, abs(longitude) <= 180 else {
      builder.problems.skip(
        "record", "records",
        DataFileError(
          path: source.path, byteOffset: at,
          message: String(
            format: "the position %.6f, %.6f is outside the globe", latitude, longitude)))
      return
    }
    var elevation = Double.nan
    if let f = d.enhancedAltitude, let v = input.unsigned(1 + f.offset, 4, d.bigEndian),
      v != 0xFFFF_FFFF
    {
      elevation = Double(v) / 5 - 500
    } else if let f = d.altitude, let v = input.unsigned(1 + f.offset, 2, d.bigEndian),
      v != 0xFFFF
    {
      elevation = Double(v) / 5 - 500
    }
    var speed = Double.nan
    if let f = d.enhancedSpeed, let v = input.unsigned(1 + f.offset, 4, d.bigEndian),
      v != 0xFFFF_FFFF
    {
      speed = Double(v) / 1000
    } else if let f = d.speed, let v = input.unsigned(1 + f.offset, 2, d.bigEndian), v != 0xFFFF {
      speed = Double(v) / 1000
    }
    var heartRate = Double.nan
    if let f = d.heartRate, let v = input.unsigned(1 + f.offset, 1, false), v != 0xFF {
      heartRate = Double(v)
    }
    var cadence = Double.nan
    if let f = d.cadence, let v = input.unsigned(1 + f.offset, 1, false), v != 0xFF {
      cadence = Double(v)
    }
    series.append(
      Coordinate(latitude: latitude, longitude: longitude), elevation: elevation, time: time,
      speed: speed, heartRate: heartRate, cadence: cadence)
  }

  /// The field when its size is the one its meaning needs (arrays and odd sizes are not read).
  private static func fits(_ f: Field, _ size: Int) -> Field? { f.size == size ? f : nil }

  private func truncated(at: Int, dataEnd: Int) -> DataFileError {
    DataFileError(
      path: source.path, byteOffset: at,
      message: "the file ends inside a message (the header says the data ends at byte "
        + "\(dataEnd); the file may be truncated)")
  }

  private func pastData(at: Int, dataEnd: Int) -> DataFileError {
    DataFileError(
      path: source.path, byteOffset: at,
      message: "a message runs past the end of the data at byte \(dataEnd) (the file is damaged)")
  }

  /// Names of the FIT profile's `sport` values.
  static let sports: [Int: String] = [
    0: "generic", 1: "running", 2: "cycling", 3: "transition", 4: "fitness equipment",
    5: "swimming", 6: "basketball", 7: "soccer", 8: "tennis", 9: "american football",
    10: "training", 11: "walking", 12: "cross country skiing", 13: "alpine skiing",
    14: "snowboarding", 15: "rowing", 16: "mountaineering", 17: "hiking", 18: "multisport",
    19: "paddling", 20: "flying", 21: "e-biking", 22: "motorcycling", 23: "boating",
    24: "driving", 25: "golf", 26: "hang gliding", 27: "horseback riding", 28: "hunting",
    29: "fishing", 30: "inline skating", 31: "rock climbing", 32: "sailing", 33: "ice skating",
    34: "sky diving", 35: "snowshoeing", 36: "snowmobiling", 37: "stand up paddleboarding",
    38: "surfing", 39: "wakeboarding", 40: "water skiing", 41: "kayaking", 42: "rafting",
    43: "windsurfing", 44: "kitesurfing", 45: "tactical", 46: "jumpmaster", 47: "boxing",
    48: "floor climbing",
  ]
}

/// The FIT CRC-16 (polynomial 0xA001, reflected, initial value 0), a byte at a time.
enum FITCRC {
  static let table: [UInt16] = (0..<256).map { (b: Int) -> UInt16 in
    var crc: UInt16 = 0
    let nibble: [UInt16] = [
      0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
      0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
    ]
    let byte = UInt16(b)
    var tmp = nibble[Int(crc & 0xF)]
    crc = (crc >> 4) & 0x0FFF
    crc = crc ^ tmp ^ nibble[Int(byte & 0xF)]
    tmp = nibble[Int(crc & 0xF)]
    crc = (crc >> 4) & 0x0FFF
    crc = crc ^ tmp ^ nibble[Int((byte >> 4) & 0xF)]
    return crc
  }

  @inline(__always) static func update(_ crc: UInt16, _ byte: UInt8) -> UInt16 {
    (crc >> 8) ^ table[Int((crc ^ UInt16(byte)) & 0xFF)]
  }

  static func compute(_ bytes: some Sequence<UInt8>) -> UInt16 {
    var crc: UInt16 = 0
    for b in bytes { crc = update(crc, b) }
    return crc
  }
}

/// The bytes of a FIT file in a buffer refilled from the source, with the CRC of what has
/// been consumed.
final class FITInput {
  let source: ByteSource
  private var buffer: UnsafeMutablePointer<UInt8>
  private let capacity = 1 << 20
  /// Valid bytes in the buffer and the index of the next one.
  private var end = 0
  private var position = 0
  /// The file offset of buffer[0].
  private var base = 0
  private var ended = false
  /// Bytes before this index are in `crc`.
  private var crcMark = 0
  private var crc: UInt16 = 0

  init(source: ByteSource) {
    self.source = source
    buffer = .allocate(capacity: capacity)
  }

  deinit { buffer.deallocate() }

  /// The file offset of the next byte.
  var offset: Int { base + position }

  /// Whether `count` bytes can be read from the current position (refilling if needed).
  func available(_ count: Int) throws(DataFileError) -> Bool {
    if end - position >= count { return true }
    while end - position < count && !ended {
      if position > 0 {
        updateCRC(to: position)
        let keep = end - position
        if keep > 0 { buffer.update(from: buffer + position, count: keep) }
        base += position
        crcMark -= position
        end = keep
        position = 0
      }
      let n = try source.read(into: buffer + end, count: capacity - end)
      if n == 0 { ended = true } else { end += n }
      if end == capacity { break }
    }
    return end - position >= count
  }

  @inline(__always) func byte(_ k: Int) -> UInt8 { buffer[position + k] }

  func peek(_ count: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: buffer + position, count: count))
  }

  func consume(_ count: Int) { position += count }

  /// Skips everything left; how many bytes that was.
  func skipRest() throws(DataFileError) -> Int {
    var total = 0
    while try available(1) {
      total += end - position
      position = end
    }
    return total
  }

  func startCRC() {
    crc = 0
    crcMark = position
  }

  func finishCRC() -> UInt16 {
    updateCRC(to: position)
    return crc
  }

  private func updateCRC(to index: Int) {
    var c = crc
    var k = crcMark
    while k < index {
      c = FITCRC.update(c, buffer[k])
      k += 1
    }
    crc = c
    crcMark = max(crcMark, index)
  }

  /// An unsigned integer of `size` bytes at `k` from the current position.
  @inline(__always) func unsigned(_ k: Int, _ size: Int, _ bigEndian: Bool) -> UInt64? {
    let p = buffer + position + k
    switch size {
    case 1: return UInt64(p[0])
    case 2:
      return bigEndian ? UInt64(p[0]) << 8 | UInt64(p[1]) : UInt64(p[0]) | UInt64(p[1]) << 8
    case 4:
      let v =
        bigEndian
        ? UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
        : UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16 | UInt32(p[3]) << 24
      return UInt64(v)
    default: return nil
    }
  }

  /// A sint32 at `k`; nil for its invalid value 0x7FFFFFFF.
  @inline(__always) func signed32(_ k: Int, _ bigEndian: Bool) -> Int32? {
    guard let u = unsigned(k, 4, bigEndian) else { return nil }
    let v = Int32(bitPattern: UInt32(u))
    return v == Int32.max ? nil : v
  }

  /// A NUL-terminated UTF-8 string field, sanitized; nil when empty.
  func string(_ k: Int, _ size: Int) -> String? {
    let bytes = UnsafeBufferPointer(start: buffer + position + k, count: size)
    let used = bytes.prefix { $0 != 0 }
    let s = TextSanitizer.clean(String(decoding: used, as: UTF8.self))
    return s.isEmpty ? nil : Formatting.shown(s, limit: 60)
  }
}
