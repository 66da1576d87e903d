import Testing

@testable import MapData

@Suite struct TextSanitizerTests {
  @Test func plainTextIsUnchanged() {
    #expect(TextSanitizer.clean("Rossio") == "Rossio")
    #expect(TextSanitizer.clean("Café A Brasileira — 1905") == "Café A Brasileira — 1905")
    #expect(TextSanitizer.clean("") == "")
  }

  @Test func escapeSequencesLoseTheirEscape() {
    #expect(TextSanitizer.clean("\u{1B}[2JHello") == "[2JHello")
    #expect(TextSanitizer.clean("a\u{1B}]0;title\u{07}b") == "a]0;titleb")
    #expect(TextSanitizer.clean("x\u{9B}31my") == "x31my")
  }

  @Test func bidiControlsAreRemoved() {
    #expect(TextSanitizer.clean("invoice\u{202E}fdp.exe") == "invoicefdp.exe")
    let all = "\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}"
    #expect(TextSanitizer.clean("a\(all)b") == "ab")
  }

  @Test func whitespaceControlsBecomeSpacesAndEndsAreTrimmed() {
    #expect(
      TextSanitizer.clean("  one\ttwo\nthree\r\nfour\r\rfive  ") == "one two three four  five")
    #expect(TextSanitizer.clean("\n\t x \u{85}") == "x")
    #expect(TextSanitizer.clean("a\u{2028}b") == "a b")
  }

  @Test func otherControlsAreRemoved() {
    #expect(TextSanitizer.clean("a\u{0}b\u{7F}c\u{80}d\u{9F}e\u{8}") == "abcde")
  }

  @Test func resultHasNoControlCharacters() {
    var everything = ""
    for value in 0..<0xA0 { everything.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
    let clean = TextSanitizer.clean(everything)
    #expect(!clean.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    #expect(clean.hasPrefix("!\"#"))
  }
}
