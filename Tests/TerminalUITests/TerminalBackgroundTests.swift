import Foundation
import MapTiles
import Testing

@testable import TerminalUI

@Suite("The theme from the terminal's background")
struct TerminalBackgroundTests {
  @Test("OSC 11 replies: 1 to 4 hex digits a component, ended by ST or BEL")
  func replies() throws {
    let white = try #require(
      TerminalBackground.color(inReply: Array("\u{1B}]11;rgb:ffff/ffff/ffff\u{1B}\\".utf8)))
    #expect(white.r == 1 && white.g == 1 && white.b == 1)
    let tmux = try #require(
      TerminalBackground.color(
        inReply: Array("\u{1B}]11;rgb:f0f0/f0f0/e0e0\u{1B}\\\u{1B}[?1;2c".utf8)))
    #expect(abs(tmux.b - 0xe0e0 / 65535.0) < 1e-9)
    let short = try #require(
      TerminalBackground.color(inReply: Array("\u{1B}]11;rgb:1/2/3\u{07}".utf8)))
    #expect(abs(short.g - 2 / 15.0) < 1e-9)
    #expect(TerminalBackground.color(inReply: Array("\u{1B}[?1;2c".utf8)) == nil)
    #expect(TerminalBackground.color(inReply: Array("\u{1B}]11;rgb:12/34\u{07}".utf8)) == nil)
    #expect(TerminalBackground.color(inReply: Array("\u{1B}]11;rgb:zz/00/00\u{07}".utf8)) == nil)
  }

  @Test(
    "luminance decides: black, Solarized dark and #333 are dark; white, #ddd, Solarized light light"
  )
  func luminance() {
    func v(_ hex: Int) -> BasemapStyle.Variant {
      TerminalBackground.variant(
        red: Double(hex >> 16) / 255, green: Double((hex >> 8) & 0xFF) / 255,
        blue: Double(hex & 0xFF) / 255)
    }
    for dark in [0x000000, 0x002b36, 0x333333, 0x1e1e1e] { #expect(v(dark) == .dark) }
    for light in [0xffffff, 0xdddddd, 0xfdf6e3, 0xf0f0e0] { #expect(v(light) == .light) }
  }

  @Test("COLORFGBG: background 0-6 or 8 dark, 7 or 9-15 light; anything else says nothing")
  func colorFGBG() {
    #expect(TerminalBackground.variant(colorFGBG: "15;0") == .dark)
    #expect(TerminalBackground.variant(colorFGBG: "0;15") == .light)
    #expect(TerminalBackground.variant(colorFGBG: "0;7") == .light)
    #expect(TerminalBackground.variant(colorFGBG: "7;8") == .dark)
    #expect(TerminalBackground.variant(colorFGBG: "0;default;15") == .light)
    #expect(TerminalBackground.variant(colorFGBG: "15;default") == nil)
    #expect(TerminalBackground.variant(colorFGBG: "0;16") == nil)
  }

  @Test("NO_COLOR first (the terminal not asked), then the terminal's answer, then COLORFGBG")
  func order() {
    var asked = 0
    let light: () -> BasemapStyle.Variant? = {
      asked += 1
      return .light
    }
    #expect(TerminalBackground.theme(environment: ["NO_COLOR": ""], answer: light) == .mono)
    #expect(asked == 0)
    #expect(TerminalBackground.theme(environment: ["COLORFGBG": "15;0"], answer: light) == .light)
    #expect(TerminalBackground.theme(environment: ["COLORFGBG": "0;15"]) { nil } == .light)
    #expect(TerminalBackground.theme(environment: [:]) { nil } == .dark)
  }

  @Test("the device attributes' answer ends the wait")
  func attributes() {
    #expect(TerminalBackground.answeredAttributes(Array("x\u{1B}[?62;22c".utf8)))
    #expect(!TerminalBackground.answeredAttributes(Array("\u{1B}[?62;22".utf8)))
    #expect(!TerminalBackground.answeredAttributes(Array("\u{1B}]11;rgb:0/0/0\u{07}".utf8)))
  }
}
