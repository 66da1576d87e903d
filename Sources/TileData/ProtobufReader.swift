/// Protobuf wire types (groups, 3 and 4, are deprecated and rejected).
enum WireType: Int {
  case varint = 0
  case fixed64 = 1
  case lengthDelimited = 2
  case fixed32 = 5
}

/// A cursor over protobuf bytes in [position, end). Every read checks bounds and throws
/// `VectorTileError` instead of reading past the end; every read advances, so loops over it end.
struct ProtobufReader {
  let bytes: UnsafePointer<UInt8>
  private(set) var position: Int
  let end: Int

  init(bytes: UnsafePointer<UInt8>, start: Int, end: Int) {
    self.bytes = bytes
    self.position = start
    self.end = end
  }

  init(bytes: UnsafePointer<UInt8>, range: Range<Int>) {
    self.init(bytes: bytes, start: range.lowerBound, end: range.upperBound)
  }

  var isAtEnd: Bool { position >= end }

  @inline(__always)
  mutating func varint() throws(VectorTileError) -> UInt64 {
    // Fast path: one byte.
    if position < end {
      let b = bytes[position]
      if b < 0x80 {
        position += 1
        return UInt64(b)
      }
    }
    return try varintSlow()
  }

  private mutating func varintSlow() throws(VectorTileError) -> UInt64 {
    let start = position
    var result: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard position < end else { throw VectorTileError(.truncated("a varint"), offset: start) }
      let b = bytes[position]
      position += 1
      if shift == 63 && b > 1 { throw VectorTileError(.malformedVarint, offset: start) }
      result |= UInt64(b & 0x7f) << shift
      if b < 0x80 { return result }
      shift += 7
      if shift > 63 { throw VectorTileError(.malformedVarint, offset: start) }
    }
  }

  /// A varint that must fit 32 bits (packed uint32 fields).
  @inline(__always)
  mutating func uint32(what: StaticString) throws(VectorTileError) -> UInt32 {
    if position < end {
      let b = bytes[position]
      if b < 0x80 {
        position += 1
        return UInt32(b)
      }
    }
    return try uint32Slow(what: what)
  }

  private mutating func uint32Slow(what: StaticString) throws(VectorTileError) -> UInt32 {
    let start = position
    let v = try varint()
    guard let u = UInt32(exactly: v) else {
      throw VectorTileError(.above32Bits(what: "\(what)", value: v), offset: start)
    }
    return u
  }

  /// A field key: field number and wire type.
  mutating func fieldKey() throws(VectorTileError) -> (field: Int, wire: WireType) {
    let start = position
    let key = try varint()
    let field = key >> 3
    guard field > 0, field <= 0x1fff_ffff, let wire = WireType(rawValue: Int(key & 7)) else {
      throw VectorTileError(.invalidFieldKey(field: field, wireType: Int(key & 7)), offset: start)
    }
    return (Int(field), wire)
  }

  /// A length prefix and the byte range it covers (which is skipped).
  mutating func lengthDelimited() throws(VectorTileError) -> Range<Int> {
    let start = position
    let length = try varint()
    guard length <= UInt64(end - position) else {
      throw VectorTileError(
        .truncated("a field of \(length) bytes (\(end - position) left)"), offset: start)
    }
    let r = position..<(position + Int(length))
    position = r.upperBound
    return r
  }

  mutating func fixed32() throws(VectorTileError) -> UInt32 {
    guard end - position >= 4 else {
      throw VectorTileError(.truncated("a fixed32"), offset: position)
    }
    var v: UInt32 = 0
    for k in 0..<4 { v |= UInt32(bytes[position + k]) << (8 * UInt32(k)) }
    position += 4
    return v
  }

  mutating func fixed64() throws(VectorTileError) -> UInt64 {
    guard end - position >= 8 else {
      throw VectorTileError(.truncated("a fixed64"), offset: position)
    }
    var v: UInt64 = 0
    for k in 0..<8 { v |= UInt64(bytes[position + k]) << (8 * UInt64(k)) }
    position += 8
    return v
  }

  /// Skips a field's payload.
  mutating func skip(_ wire: WireType) throws(VectorTileError) {
    switch wire {
    case .varint: _ = try varint()
    case .fixed64: _ = try fixed64()
    case .lengthDelimited: _ = try lengthDelimited()
    case .fixed32: _ = try fixed32()
    }
  }

  /// The UTF-8 string in a byte range (invalid sequences become U+FFFD).
  func string(_ r: Range<Int>) -> String {
    String(
      decoding: UnsafeBufferPointer(start: bytes + r.lowerBound, count: r.count), as: UTF8.self)
  }
}
