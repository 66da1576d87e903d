import Foundation
import MapTiles

/// The map's theme from what the terminal says of its background: `NO_COLOR` asks for
/// `mono`; else the terminal's answer to an OSC 11 query (its background colour, dark or
/// light by luminance); else `COLORFGBG`; else `dark`. A `--style` or the config file's
/// `[style]` is taken before all of these (by the caller).
public enum TerminalBackground {
  /// The theme for an environment: `mono` under `NO_COLOR` (set, whatever its value),
  /// else `answer()` (the OSC 11 query; not called under `NO_COLOR`), else `COLORFGBG`,
  /// else `dark`.
  public static func theme(
    environment: [String: String], answer: () -> BasemapStyle.Variant?
  ) -> BasemapStyle.Variant {
    if environment["NO_COLOR"] != nil { return .mono }
    if let v = answer() { return v }
    if let v = environment["COLORFGBG"].flatMap(variant(colorFGBG:)) { return v }
    return .dark
  }

  /// `COLORFGBG` (`fg;bg`, or `fg;default;bg` as rxvt writes it): a background of palette
  /// colour 0–6 or 8 is dark, 7 or 9–15 light; nil when the last field is no such number.
  public static func variant(colorFGBG text: String) -> BasemapStyle.Variant? {
    guard let last = text.split(separator: ";").last, let bg = Int(last), (0...15).contains(bg)
    else { return nil }
    return bg == 7 || bg >= 9 ? .light : .dark
  }

  /// The background colour in an OSC 11 reply (`ESC ] 11 ; rgb:RRRR/GGGG/BBBB` ended by
  /// `ESC \` or BEL; 1 to 4 hex digits a component), components 0–1; nil when `bytes` hold
  /// no such reply.
  public static func color(inReply bytes: [UInt8]) -> (r: Double, g: Double, b: Double)? {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let start = text.range(of: "\u{1B}]11;rgb:") else { return nil }
    let rest = text[start.upperBound...]
    let end = rest.firstIndex { $0 == "\u{1B}" || $0 == "\u{07}" } ?? rest.endIndex
    let parts = rest[..<end].split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 3 else { return nil }
    var c: [Double] = []
    for p in parts {
      guard (1...4).contains(p.count), let v = UInt32(p, radix: 16) else { return nil }
      c.append(Double(v) / Double((1 << (4 * p.count)) - 1))
    }
    return (c[0], c[1], c[2])
  }

  /// Dark or light by a colour's relative luminance (sRGB, as WCAG computes it): below 0.18
  /// (the luminance of mid-grey, #767676) is dark.
  public static func variant(red r: Double, green g: Double, blue b: Double)
    -> BasemapStyle.Variant
  {
    func linear(_ c: Double) -> Double {
      c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    let y = 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)
    return y < 0.18 ? .dark : .light
  }

  /// Asks the terminal (`/dev/tty`) for its background colour: OSC 11 followed by a
  /// primary device attributes query (`ESC [ c`, which every terminal answers), read with
  /// echo off until that answer or `timeout` seconds. A terminal that ignores OSC 11 answers
  /// only the second: nothing is then waited for, and nothing is echoed or left in the input
  /// (on a time-out the input is flushed, so a late answer cannot turn into keys). nil: no
  /// terminal, not in the terminal's foreground, or no OSC 11 answer. The wait ends at the
  /// device attributes' answer, so `timeout` is spent only by a terminal that answers
  /// nothing, or by a link slower than it: a second, so that over SSH with a long round trip
  /// the answers still come within it (terminal-colorsaurus waits as long for the same
  /// reason) instead of after the flush, where they would reach the shell as typed text.
  public static func query(timeout: Double = 1.0) -> BasemapStyle.Variant? {
    let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    // Only from the foreground: a background job changing the terminal's modes would be
    // stopped (SIGTTOU), and its answer read by the foreground's program.
    guard tcgetpgrp(fd) == getpgrp() else { return nil }
    var saved = termios()
    guard tcgetattr(fd, &saved) == 0 else { return nil }
    var raw = saved
    raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
    guard tcsetattr(fd, TCSANOW, &raw) == 0 else { return nil }
    let reply = exchange(fd: fd, timeout: timeout)
    if !reply.complete { tcflush(fd, TCIFLUSH) }
    _ = tcsetattr(fd, TCSANOW, &saved)
    guard let c = color(inReply: reply.bytes) else { return nil }
    return variant(red: c.r, green: c.g, blue: c.b)
  }

  /// Writes the two queries and reads until the device attributes' answer (`ESC [ ? … c`).
  static func exchange(fd: Int32, timeout: Double) -> (bytes: [UInt8], complete: Bool) {
    let ask = Array("\u{1B}]11;?\u{1B}\\\u{1B}[c".utf8)
    let written = ask.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    guard written == ask.count else { return ([], false) }
    var bytes: [UInt8] = []
    let deadline = Date().addingTimeInterval(timeout)
    var buffer = [UInt8](repeating: 0, count: 256)
    while bytes.count < 4096 {
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return (bytes, false) }
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, Int32(max(1, left * 1000))) > 0 else { continue }
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      guard n > 0 else { return (bytes, false) }
      bytes += buffer[0..<n]
      if answeredAttributes(bytes) { return (bytes, true) }
    }
    return (bytes, false)
  }

  /// Whether `bytes` hold a primary device attributes answer: `ESC [ ?`, digits and `;`,
  /// then `c`.
  static func answeredAttributes(_ bytes: [UInt8]) -> Bool {
    var i = 0
    while i + 2 < bytes.count {
      if bytes[i] == 0x1B && bytes[i + 1] == UInt8(ascii: "[") && bytes[i + 2] == UInt8(ascii: "?")
      {
        var j = i + 3
        while j < bytes.count, bytes[j] == UInt8(ascii: ";") || (0x30...0x39).contains(bytes[j]) {
          j += 1
        }
        if j < bytes.count && bytes[j] == UInt8(ascii: "c") { return true }
      }
      i += 1
    }
    return false
  }
}
