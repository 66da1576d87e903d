/// Well-formed UTF-8 (RFC 3629, Unicode table 3-7), for readers that check bytes themselves.
enum UTF8Lead {
  /// For a lead byte of 0x80 or more: the sequence's length and the allowed range of its second
  /// byte (narrower after E0, ED, F0 and F4, which rules out overlong forms, surrogates and
  /// code points past U+10FFFF). Nil for a byte that cannot start a sequence.
  @inline(__always)
  static func sequence(startingWith c: UInt8) -> (length: Int, lo: UInt8, hi: UInt8)? {
    switch c {
    case 0xC2...0xDF: return (2, 0x80, 0xBF)
    case 0xE0: return (3, 0xA0, 0xBF)
    case 0xE1...0xEC, 0xEE...0xEF: return (3, 0x80, 0xBF)
    case 0xED: return (3, 0x80, 0x9F)
    case 0xF0: return (4, 0x90, 0xBF)
    case 0xF1...0xF3: return (4, 0x80, 0xBF)
    case 0xF4: return (4, 0x80, 0x8F)
    default: return nil
    }
  }
}
