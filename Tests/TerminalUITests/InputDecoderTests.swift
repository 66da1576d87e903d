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
