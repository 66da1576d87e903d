import Testing

@testable import TerminalUI

@Suite("the input decoder (a terminal read without ncurses)")
struct InputDecoderTests {
  func decode(_ text: String) -> [InputEvent] {
    var d = InputDecoder()
    return d.decode(Array(text.utf8)) + d.flush()
  }

  @Test("characters as ncurses gives them, control characters included")
  func characters() {
    #expect(
      decode("a+\r\u{7F}") == [
        .character("a"), .character("+"), .character("\r"), .character("\u{7F}"),
      ])
    #expect(decode("é→") == [.character("é"), .character("→")])
  }

  @Test("arrows in both cursor modes, shift arrows, back-tab")
  func keys() {
    #expect(
      decode("\u{1B}[A\u{1B}OB\u{1B}[C\u{1B}[D") == [
        .key(.up), .key(.down), .key(.right), .key(.left),
      ])
    #expect(
      decode("\u{1B}[1;2A\u{1B}[1;2D\u{1B}[Z") == [
        .key(.shiftUp), .key(.shiftLeft), .key(.backTab),
      ])
    // Keys the viewer has no use for are dropped whole (F5, PgUp, Ctrl-arrow).
    #expect(decode("\u{1B}[15~\u{1B}[5~\u{1B}[1;5Cx") == [.character("x")])
  }

  @Test("SGR mouse reports: press, drag, release, wheel; 1-based to 0-based")
  func mouse() {
    #expect(
      decode("\u{1B}[<0;10;5M\u{1B}[<32;12;6M\u{1B}[<0;12;6m\u{1B}[<64;1;1M\u{1B}[<65;1;1M") == [
        .mouse(MouseEvent(column: 9, row: 4, action: .press)),
        .mouse(MouseEvent(column: 11, row: 5, action: .motion)),
        .mouse(MouseEvent(column: 11, row: 5, action: .release)),
        .mouse(MouseEvent(column: 0, row: 0, action: .wheelUp)),
        .mouse(MouseEvent(column: 0, row: 0, action: .wheelDown)),
      ])
  }

  @Test("a sequence or character split between reads is joined; a lone Esc waits for flush")
  func split() {
    var d = InputDecoder()
    #expect(d.decode([0x1B]) == [])
    #expect(d.hasPending)
    #expect(d.decode(Array("[A".utf8)) == [.key(.up)])
    #expect(d.decode([0xC3]) == [])
    #expect(d.decode([0xA9]) == [.character("é")])
    #expect(d.decode([0x1B]) == [])
    #expect(d.flush() == [.character("\u{1B}")])
    #expect(!d.hasPending)
    // Esc then a letter (Alt-x) is Esc and x.
    #expect(decode("\u{1B}x") == [.character("\u{1B}"), .character("x")])
  }

  @Test("bounded: an endless sequence is dropped, bad UTF-8 skipped")
  func bounded() {
    var d = InputDecoder()
    let endless = [0x1B, UInt8(ascii: "[")] + [UInt8](repeating: UInt8(ascii: "1"), count: 100)
    let events = d.decode(endless)
    #expect(!d.hasPending || d.pending.count <= InputDecoder.maxSequence)
    #expect(events.first == .character("\u{1B}"))
    #expect(
      decode("\u{FF}\u{FE}a".unicodeScalars.map { String($0) }.joined()).last == .character("a"))
    var e = InputDecoder()
    #expect(e.decode([0xFF, 0x80, UInt8(ascii: "b")]) == [.character("b")])
  }
}

extension InputDecoderTests {
  @Test("any bytes: the same events whole or cut anywhere, at most 32 bytes held")
  func cutAnywhere() {
    // Bytes a terminal sends, mixed at random with anything (a fixed seed: the same runs).
    let alphabet: [UInt8] =
      [
        0x1B, 0x1B, 0x1B, UInt8(ascii: "["), UInt8(ascii: "["), UInt8(ascii: "<"),
        UInt8(ascii: "O"),
      ]
      + Array("0123456789;;MmABCDZ~x ".utf8) + [0xC3, 0xA9, 0xE2, 0x86, 0x92, 0xF0, 0xFF, 0x80]
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
      seed ^= seed << 13
      seed ^= seed >> 7
      seed ^= seed << 17
      return seed
    }
    for _ in 0..<2000 {
      let n = Int(next() % 80)
      let bytes = (0..<n).map { _ in
        next() % 4 == 0
          ? UInt8(truncatingIfNeeded: next()) : alphabet[Int(next() % UInt64(alphabet.count))]
      }
      var whole = InputDecoder()
      let a = whole.decode(bytes) + whole.flush()
      var cut = InputDecoder()
      var b: [InputEvent] = []
      var k = 0
      while k < bytes.count {
        let m = min(bytes.count - k, 1 + Int(next() % 5))
        b += cut.decode(Array(bytes[k..<(k + m)]))
        #expect(cut.pending.count <= InputDecoder.maxSequence)
        k += m
      }
      b += cut.flush()
      #expect(a == b, "\(bytes)")
      if a != b { return }
    }
  }
}
