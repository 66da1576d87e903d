import CNcursesw
import DotRaster
import Foundation

/// Frame output without ncurses: on terminals that take ECMA-48 sequences (as terminfo tells),
/// frames are written by a `TerminalWriter` straight to the terminal, which shifts rows
/// sideways (DCH, ICH) and scrolls regions where ncurses would rewrite them. ncurses still
/// reads the keys and the mouse, handles resizes and sets up and restores the terminal; its
/// window is never written, so its refreshes (`wget_wch` refreshes a touched window) have
/// nothing to send.
extension Screen {
  /// What the terminal described by terminfo can do for a `TerminalWriter`, or nil when its
  /// cursor addressing is not the ANSI one (ncurses then writes the frames).
  /// `TERMMAP_OUTPUT=ncurses` keeps ncurses for output whatever the terminal.
  static func writerFeatures(colors: ColorDepth, environment: [String: String])
    -> TerminalWriter.Features?
  {
    if environment["TERMMAP_OUTPUT"] == "ncurses" { return nil }
    guard capability("cup") == "\u{1B}[%i%p1%d;%p2%dH",
      capability("el") == "\u{1B}[K",
      // Automatic margins that wrap late: the last column can be written without a scroll.
      tigetflag("am") == 1, tigetflag("xenl") == 1
    else { return nil }
    let shifts =
      capability("dch") == "\u{1B}[%p1%dP" && capability("ich") == "\u{1B}[%p1%d@"
    let scrolls =
      capability("csr") == "\u{1B}[%i%p1%d;%p2%dr" && capability("indn") == "\u{1B}[%p1%dS"
      && capability("rin") == "\u{1B}[%p1%dT"
    return TerminalWriter.Features(colors: colors, shiftsRows: shifts, scrollsRegions: scrolls)
  }

  /// A terminfo string capability of the current terminal (nil when it has none).
  static func capability(_ name: String) -> String? {
    guard let p = tigetstr(name), Int(bitPattern: p) != -1 else { return nil }
    return String(cString: p)
  }

  /// Writes all of `bytes` to the terminal (fd 1), waiting while it is busy; stops when the
  /// terminal has gone.
  static func writeAll(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { buffer in
      guard var p = buffer.baseAddress else { return }
      var left = buffer.count
      while left > 0 {
        let n = write(1, p, left)
        if n > 0 {
          p += n
          left -= n
        } else if n < 0 && errno == EINTR {
          continue
        } else if n < 0 && errno == EAGAIN {
          var fd = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
          _ = poll(&fd, 1, 100)
        } else {
          return
        }
      }
    }
  }
}
