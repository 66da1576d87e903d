import Foundation

/// A minimal protobuf writer for hand-made tiles (tests of decoders, filters and indexes).
public struct ProtoWriter {
  /// The message so far.
  public var bytes: [UInt8] = []

  /// An empty message.
  public init() {}

  public mutating func varint(_ v: UInt64) {
    var v = v
    while v >= 0x80 {
      bytes.append(UInt8(v & 0x7f) | 0x80)
      v >>= 7
    }
    bytes.append(UInt8(v))
  }
  public mutating func key(_ field: Int, _ wire: Int) { varint(UInt64(field << 3 | wire)) }
  public mutating func varintField(_ field: Int, _ v: UInt64) {
    key(field, 0)
    varint(v)
  }
  public mutating func bytesField(_ field: Int, _ b: [UInt8]) {
    key(field, 2)
    varint(UInt64(b.count))
    bytes += b
  }
  public mutating func stringField(_ field: Int, _ s: String) { bytesField(field, Array(s.utf8)) }
  public mutating func packedField(_ field: Int, _ values: [UInt32]) {
    var inner = ProtoWriter()
    for v in values { inner.varint(UInt64(v)) }
    bytesField(field, inner.bytes)
  }
  public mutating func fixed32Field(_ field: Int, _ v: UInt32) {
    key(field, 5)
    for k in 0..<4 { bytes.append(UInt8((v >> (8 * UInt32(k))) & 0xff)) }
  }
  public mutating func fixed64Field(_ field: Int, _ v: UInt64) {
    key(field, 1)
    for k in 0..<8 { bytes.append(UInt8((v >> (8 * UInt64(k))) & 0xff)) }
  }
}
