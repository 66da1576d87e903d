import Foundation

@testable import MapData

/// Writes FIT files byte by byte as the FIT protocol lays them out, for tests of what the
/// sample files do not have (compressed timestamps, developer fields, big-endian messages).
struct FITWriter {
  var data: [UInt8] = []
  var headerSize = 14

  struct FieldDef {
    var number: UInt8
    var size: UInt8
    var baseType: UInt8
  }

  mutating func definition(
    local: UInt8, global: UInt16, bigEndian: Bool = false, fields: [FieldDef],
    developer: [(number: UInt8, size: UInt8, index: UInt8)] = []
  ) {
    data.append(0x40 | (developer.isEmpty ? 0 : 0x20) | local)
    data.append(0)
    data.append(bigEndian ? 1 : 0)
    data +=
      bigEndian
      ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
    data.append(UInt8(fields.count))
    for f in fields { data += [f.number, f.size, f.baseType] }
    if !developer.isEmpty {
      data.append(UInt8(developer.count))
      for d in developer { data += [d.number, d.size, d.index] }
    }
  }

  /// A data message with a normal header; `body` is the fields' bytes in definition order.
  mutating func message(local: UInt8, _ body: [UInt8]) {
    data.append(local)
    data += body
  }

  /// A data message with a compressed timestamp header.
  mutating func compressed(local: UInt8, offset: UInt8, _ body: [UInt8]) {
    data.append(0x80 | (local << 5) | (offset & 0x1F))
    data += body
  }

  static func le32(_ v: Int64) -> [UInt8] {
    let u = UInt32(truncatingIfNeeded: v)
    return [UInt8(u & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u >> 16 & 0xFF), UInt8(u >> 24)]
  }
  static func be32(_ v: Int64) -> [UInt8] { le32(v).reversed() }
  static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }

  /// Semicircles of a degree value.
  static func semicircles(_ degrees: Double) -> Int64 {
    Int64((degrees * 2_147_483_648.0 / 180).rounded())
  }

  /// The whole file: header, messages, CRC.
  func file() -> [UInt8] {
    var out: [UInt8] = [UInt8(headerSize), 0x20]
    out += Self.le16(2132)
    out += Self.le32(Int64(data.count))
    out += Array(".FIT".utf8)
    if headerSize == 14 { out += Self.le16(Int(FITCRC.compute(out))) }
    out += data
    out += Self.le16(Int(FITCRC.compute(out)))
    return out
  }
}

/// A FIT file rewritten with a 12-byte header (no header CRC) and its file CRC recomputed.
func withTwelveByteHeader(_ fit: [UInt8]) -> [UInt8] {
  precondition(fit[0] == 14)
  var out = Array(fit[0..<12])
  out[0] = 12
  out += fit[14..<(fit.count - 2)]
  out += FITWriter.le16(Int(FITCRC.compute(out)))
  return out
}
