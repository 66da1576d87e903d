/// Turns the bytes a terminal sends (xterm's keys and SGR mouse reports, UTF-8 text) into the
/// viewer's input events, for fronts that read a terminal without ncurses (a session over
/// SSH). Characters, control characters included, come as ncurses gives them (`\r`, `\u{7F}`,
/// `\u{1B}`), so the viewer sees the same events from either front.
///
/// Bounded: a sequence that runs past 32 bytes without ending is no sequence (the Esc key, then
/// the rest as typed), and an incomplete character or sequence at the end of a read waits for
/// the next (at most 32 bytes are kept). The events never depend on how the bytes were cut.
/// A lone Esc at the end of a read could be the start of a sequence split by the network: it is
/// kept until the next read or `flush()`, which a front calls when nothing more came for a
/// moment.
public struct InputDecoder: Sendable {
  var pending: [UInt8] = []
  static let maxSequence = 32

  /// A decoder with nothing pending.
  public init() {}

  /// Whether bytes are waiting for the rest of their character or sequence.
  public var hasPending: Bool { !pending.isEmpty }

  /// The events in `bytes` (with what was pending before them).
  public mutating func decode(_ bytes: [UInt8]) -> [InputEvent] {
    let input = pending + bytes
    pending = []
    var events: [InputEvent] = []
    var i = 0
    while i < input.count {
      let b = input[i]
      if b == 0x1B {
        switch sequence(input, at: i) {
        case .incomplete:
          pending = Array(input[i...])
          return events
        case .event(let event, let length):
          if let event { events.append(event) }
          i += length
        case .escape:
          events.append(.character("\u{1B}"))
          i += 1
        }
        continue
      }
      if b < 0x80 {
        events.append(.character(Character(Unicode.Scalar(b))))
        i += 1
        continue
      }
      // UTF-8: a whole character, or wait for its rest; a bad byte is dropped.
      let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0
      guard length > 0, b < 0xF5 else {
        i += 1
        continue
      }
      if input.count - i < length {
        pending = Array(input[i...])
        return events
      }
      if let s = String(validating: input[i..<(i + length)], as: UTF8.self), let c = s.first {
        events.append(.character(c))
        i += length
      } else {
        i += 1
      }
    }
    return events
  }

  /// What is pending, as typed (a lone Esc is the Esc key); called when no more bytes came.
  public mutating func flush() -> [InputEvent] {
    defer { pending = [] }
    guard let first = pending.first else { return [] }
    if first == 0x1B {
      // Esc, then whatever followed it as typed characters.
      var rest = InputDecoder()
      return [.character("\u{1B}")] + rest.decode(Array(pending.dropFirst()))
        + rest.flush()
    }
    return []
  }

  enum Parsed {
    case incomplete
    /// A complete sequence of `length` bytes (nil: one the viewer has no use for).
    case event(InputEvent?, length: Int)
    /// Esc followed by something that starts no sequence.
    case escape
  }

  /// The sequence starting with the Esc at `i`.
  func sequence(_ s: [UInt8], at i: Int) -> Parsed {
    guard i + 1 < s.count else { return .incomplete }
    let introducer = s[i + 1]
    if introducer == UInt8(ascii: "O") {  // SS3: arrows in application mode
      guard i + 2 < s.count else { return .incomplete }
      let key: Key? =
        switch s[i + 2] {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "M"): .enter
        default: nil
        }
      return .event(key.map { .key($0) }, length: 3)
    }
    guard introducer == UInt8(ascii: "[") else { return .escape }
    // CSI: parameter bytes 0x30–0x3F, intermediates 0x20–0x2F, a final byte 0x40–0x7E.
    var j = i + 2
    while j < s.count, j - i < Self.maxSequence, s[j] >= 0x20, s[j] <= 0x3F { j += 1 }
    // Too long to be a key or a mouse report: the Esc key, then the rest as typed (decided
    // within the first 32 bytes, so the answer never depends on how the input was cut).
    if j - i >= Self.maxSequence { return .escape }
    guard j < s.count else { return .incomplete }
    let final = s[j]
    guard final >= 0x40, final <= 0x7E else { return .event(nil, length: j - i) }
    let parameters = String(decoding: s[(i + 2)..<j], as: UTF8.self)
    return .event(Self.csi(parameters, final), length: j + 1 - i)
  }

  static func csi(_ parameters: String, _ final: UInt8) -> InputEvent? {
    if parameters.hasPrefix("<"), final == UInt8(ascii: "M") || final == UInt8(ascii: "m") {
      let n = parameters.dropFirst().split(separator: ";").map { Int($0) }
      guard n.count == 3, let b = n[0], let x = n[1], let y = n[2], x >= 1, y >= 1 else {
        return nil
      }
      let action: MouseEvent.Action
      if b & 64 != 0 {
        guard b & 3 <= 1 else { return nil }  // sideways wheels
        action = b & 1 == 0 ? .wheelUp : .wheelDown
      } else if b & 32 != 0 {
        action = .motion
      } else if b & 3 == 0 {
        action = final == UInt8(ascii: "M") ? .press : .release
      } else {
        return nil  // other buttons
      }
      return .mouse(MouseEvent(column: min(x, 10_000) - 1, row: min(y, 10_000) - 1, action: action))
    }
    let shifted = parameters == "1;2"
    let plain = parameters.isEmpty || parameters == "1"
    guard plain || shifted else { return nil }
    let key: Key? =
      switch final {
      case UInt8(ascii: "A"): shifted ? .shiftUp : .up
      case UInt8(ascii: "B"): shifted ? .shiftDown : .down
      case UInt8(ascii: "C"): shifted ? .shiftRight : .right
      case UInt8(ascii: "D"): shifted ? .shiftLeft : .left
      case UInt8(ascii: "Z"): .backTab
      default: nil
      }
    return key.map { .key($0) }
  }
}
