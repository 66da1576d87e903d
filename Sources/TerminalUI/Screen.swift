import CNcursesw
import DotRaster
import Foundation
import MapGeometry
import Synchronization

/// Why the terminal could not be used.
public struct TerminalError: Error, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}

/// Bytes this process has passed to write(2) so far (Linux /proc/self/io "wchar").
func processBytesWritten() -> Int {
  guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return 0 }
  for line in text.split(separator: "\n") where line.hasPrefix("wchar:") {
    return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? 0
  }
  return 0
}

/// Text for a terminal without a UTF-8 locale: accents are dropped ("Malmö" becomes "Malmo"),
/// the arrows, dots, dashes, quotes and box lines of the viewer's own text get ASCII stand-ins
/// ("←→" becomes "<>", " · " becomes " | ", "├──┤" becomes "+--+"), anything else that is not
/// ASCII becomes "?" (a wide glyph "??").
public enum ASCIIFolding {
  /// The ASCII stand-in for one character.
  public static func fold(_ g: Unicode.Scalar) -> Unicode.Scalar {
    if g.isASCII { return g }
    if let s = standIn(g) { return s }
    let folded = String(g).folding(options: .diacriticInsensitive, locale: nil).unicodeScalars
    return folded.count == 1 && folded.first!.isASCII ? folded.first! : "?"
  }

  /// Stand-ins for symbols (one cell each, so a frame keeps its layout).
  static func standIn(_ g: Unicode.Scalar) -> Unicode.Scalar? {
    switch g.value {
    case 0x2190, 0x21D0, 0x25C2, 0x25C0, 0x2039, 0x00AB: return "<"  // ← ⇐ ◂ ◀ ‹ «
    case 0x2192, 0x21D2, 0x25B8, 0x25B6, 0x203A, 0x00BB: return ">"  // → ⇒ ▸ ▶ › »
    case 0x2191, 0x25B4, 0x25B2: return "^"  // ↑ ▴ ▲
    case 0x2193, 0x25BE, 0x25BC: return "v"  // ↓ ▾ ▼
    case 0x2194, 0x2195: return "-"  // ↔ ↕
    case 0x00B7, 0x2022, 0x2219, 0x22C5: return "|"  // · • ∙ ⋅ (separators)
    case 0x2026: return "."  // …
    case 0x2010...0x2015, 0x2212: return "-"  // dashes, minus
    case 0x2018, 0x2019, 0x201A, 0x2032: return "'"
    case 0x201C, 0x201D, 0x201E, 0x2033: return "\""
    case 0x00B0: return "o"  // degrees
    case 0x00D7: return "x"
    case 0x00B1: return "+"
    case 0x2248: return "~"
    case 0x25C6, 0x25C7, 0x25CF, 0x25CB, 0x2605, 0x2606: return "*"  // ◆ ◇ ● ○ ★ ☆
    case 0x2316, 0x2295, 0x271B: return "+"  // ⌖ ⊕ ✛
    case 0x258F, 0x2595, 0x2502, 0x2503, 0x2551: return "|"  // ▏ ▕ │ ┃ ║
    case 0x2500, 0x2501, 0x2550, 0x2574...0x257F: return "-"  // ─ ━ ═ half lines
    case 0x2500...0x257F: return "+"  // corners, tees, crosses
    default: return nil
    }
  }

  /// A line of text folded to ASCII.
  public static func fold(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for g in text.unicodeScalars {
      let w = CellBuffer.displayWidth(of: g)
      if w == 0 && !g.isASCII { continue }
      let a = fold(g)
      out.append(a)
      if w == 2 { out.append(a) }
    }
    return String(out)
  }

  /// A frame folded to ASCII, cell by cell (a wide glyph's second cell too).
  public static func fold(
    _ original: CellBuffer, cache: inout [Unicode.Scalar: Unicode.Scalar]
  ) -> CellBuffer {
    var frame = original
    for r in 0..<frame.rows {
      for c in 0..<frame.columns {
        let g = frame[c, r].glyph
        if frame[c, r].isContinuation {
          frame[c, r].glyph = "?"
          continue
        }
        guard !g.isASCII else { continue }
        if let a = cache[g] {
          frame[c, r].glyph = a
        } else {
          let a = fold(g)
          cache[g] = a
          frame[c, r].glyph = a
        }
      }
    }
    return frame
  }
}

/// Whether the locale asks for UTF-8: the first of LC_ALL, LC_CTYPE and LANG that is set and not
/// empty decides (as setlocale does); its codeset (after the ".") must be UTF-8.
public func localeIsUTF8(environment: [String: String]) -> Bool {
  let name = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first {
    !$0.isEmpty
  }
  guard let name, let dot = name.firstIndex(of: ".") else { return false }
  let codeset = name[name.index(after: dot)...].prefix { $0 != "@" }.lowercased()
  return codeset == "utf-8" || codeset == "utf8"
}

/// Sets the program's locale from the environment; true when it is a UTF-8 one. When the
/// environment asks for UTF-8 but that locale is not installed, the C library's C.UTF-8 stands
/// in for character handling (the terminal still expects UTF-8).
@discardableResult
public func adoptLocale(environment: [String: String] = ProcessInfo.processInfo.environment)
  -> Bool
{
  setlocale(LC_ALL, "")
  guard localeIsUTF8(environment: environment) else { return false }
  if String(cString: termmap_codeset()) != "UTF-8" { setlocale(LC_CTYPE, "C.UTF-8") }
  return true
}

/// The ncursesw screen: draws frames by their difference from the last one, reads keys and the
/// mouse. On terminals with ANSI cursor addressing the frames go out through a `TerminalWriter`
/// (see Screen+ANSI.swift); elsewhere ncurses writes them. All calls happen on the main actor
/// (ncurses is not thread-safe).
@MainActor
public final class Screen: TerminalBackend {
  let screen: OpaquePointer
  let window: UnsafeMutablePointer<WINDOW>
  public private(set) var columns: Int
  public private(set) var rows: Int
  /// How many colours the terminal has (`none` when it has none or NO_COLOR is set).
  public let colorDepth: ColorDepth
  /// Whether braille can be shown (a UTF-8 locale).
  public let unicode: Bool
  private var pairs: [UInt32: Int16] = [:]
  private var nextPair: Int32 = 1
  private let maxPairs: Int32
  private var previous: CellBuffer?
  private var ended = false
  /// Writes the frames when the terminal takes ANSI sequences (nil: ncurses writes them).
  private var writer: TerminalWriter?
  /// Whether frames bypass ncurses (written by a `TerminalWriter`).
  public var writesDirectly: Bool { writer != nil }

  /// Takes over the terminal. Throws when stdin or stdout is not a terminal or TERM is unknown.
  /// `unicode`: draw Unicode (braille, block) even when the locale is not UTF-8, because the
  /// user asked for it (`--charset`).
  public init(
    noColor: Bool = ProcessInfo.processInfo.environment["NO_COLOR"] != nil, unicode: Bool = false
  ) throws {
    guard isatty(0) == 1, isatty(1) == 1 else {
      throw TerminalError("the viewer needs a terminal; use `termmap render` to print a frame")
    }
    var utf8 = adoptLocale()
    if !utf8 && unicode { utf8 = setlocale(LC_CTYPE, "C.UTF-8") != nil }
    self.unicode = utf8
    guard let out = fdopen(1, "w") else {
      throw TerminalError("cannot open the terminal for writing")
    }
    guard let s = newterm(nil, out, fdopen(0, "r")) else {
      let term = ProcessInfo.processInfo.environment["TERM"] ?? "(unset)"
      throw TerminalError("unknown terminal type TERM=\(term)")
    }
    guard termmap_can_address_cursor() != 0 else {
      endwin()
      delscreen(s)
      let term = SafeText.clean(ProcessInfo.processInfo.environment["TERM"] ?? "(unset)")
      throw TerminalError(
        "the viewer needs a terminal that can move its cursor, and TERM=\(term) cannot; "
          + "use `termmap render` to print a frame")
    }
    screen = s
    guard let w = newwin(0, 0, 0, 0) else {
      endwin()
      throw TerminalError("cannot create a window")
    }
    window = w
    cbreak()
    noecho()
    nonl()
    keypad(w, true)
    curs_set(0)
    set_escdelay(25)
    wtimeout(w, 30)
    var depth = ColorDepth.none
    var maxP: Int32 = 0
    if !noColor && has_colors() && start_color() == OK {
      use_default_colors()
      depth = termmap_colors() >= 256 ? .palette256 : .basic16
      maxP = min(Int32(termmap_color_pairs()), 32767)
    }
    colorDepth = depth
    maxPairs = maxP
    columns = Int(getmaxx(w))
    rows = Int(getmaxy(w))
    enableMouse()
    if let features = Screen.writerFeatures(
      colors: depth, environment: ProcessInfo.processInfo.environment)
    {
      writer = TerminalWriter(features: features)
      // ncurses clears the screen once and sends what it has queued; its window then stays
      // untouched, so later refreshes send nothing.
      wnoutrefresh(w)
      doupdate()
    }
  }

  func enableMouse() {
    mouseinterval(0)
    _ = mousemask(termmap_all_mouse_events(), nil)
    // Button-motion tracking, so drags report positions (ncurses only asks for presses).
    Screen.writeRaw("\u{1B}[?1002h")
  }

  /// Writes bytes straight to the terminal (for modes ncurses does not set).
  static func writeRaw(_ s: String) {
    _ = s.withCString { write(1, $0, strlen($0)) }
  }

  /// Count the bytes each frame writes (reads /proc/self/io around every draw).
  public var measuresBytes = false
  /// Bytes the last frame wrote to the terminal (when `measuresBytes` is on).
  public private(set) var lastFrameBytes = 0

  /// Takes the new size after a resize. ncurses has already resized the terminal when it
  /// reports KEY_RESIZE (calling resizeterm again would queue another KEY_RESIZE, forever);
  /// only our window follows.
  public func refreshSize() {
    let r = termmap_lines()
    let c = termmap_columns()
    if r > 0 && c > 0 { wresize(window, r, c) }
    columns = Int(getmaxx(window))
    rows = Int(getmaxy(window))
    previous = nil
    wclear(window)
    if writer != nil {
      // ncurses clears the resized screen now, not at the next key read (after the new frame).
      writer?.reset()
      wnoutrefresh(window)
      doupdate()
    }
  }

  private func pair(_ fg: TermColor?, _ bg: TermColor?) -> Int16 {
    guard colorDepth != .none, fg != nil || bg != nil else { return 0 }
    let f = fg.map { colorDepth == .basic16 ? $0.basic16 : $0 }
    let b = bg.map { colorDepth == .basic16 ? $0.basic16 : $0 }
    let key =
      UInt32(f.map { Int($0.index) + 1 } ?? 0) << 16 | UInt32(b.map { Int($0.index) + 1 } ?? 0)
    if let p = pairs[key] { return p }
    guard nextPair < maxPairs else { return 0 }
    let p = Int16(nextPair)
    init_pair(p, f.map { Int16($0.index) } ?? -1, b.map { Int16($0.index) } ?? -1)
    nextPair += 1
    pairs[key] = p
    return p
  }

  /// Draws a frame, writing only the cells that changed since the last one.
  public func draw(_ original: CellBuffer) {
    var frame = original
    frame.repairWideGlyphs()
    if !unicode { frame = asciiOnly(frame) }
    if let bytes = writer?.update(to: frame) {
      Screen.writeAll(bytes)
      if measuresBytes { lastFrameBytes = bytes.count }
      return
    }
    let before = measuresBytes ? processBytesWritten() : 0
    defer { if measuresBytes { lastFrameBytes = processBytesWritten() - before } }
    let changes = frame.changes(from: previous)
    var wch = [wchar_t](repeating: 0, count: 2)
    var cc = cchar_t()
    for change in changes {
      wmove(window, Int32(change.row), Int32(change.column))
      var column = change.column
      for cell in change.cells {
        // A wide glyph's second cell: the terminal already moved past it.
        if cell.isContinuation {
          column += 1
          wmove(window, Int32(change.row), Int32(column))
          continue
        }
        // The last cell of the screen is written with insertion so the terminal does not scroll.
        wch[0] = wchar_t(bitPattern: cell.glyph.value)
        var attrs = termmap_a_normal()
        if cell.bold { attrs |= termmap_a_bold() }
        if cell.reverse { attrs |= termmap_a_reverse() }
        setcchar(&cc, wch, attrs, pair(cell.foreground, cell.background), nil)
        if change.row == frame.rows - 1 && column == frame.columns - 1 {
          wins_wch(window, &cc)
        } else {
          wadd_wch(window, &cc)
        }
        column += 1
      }
    }
    wnoutrefresh(window)
    doupdate()
    previous = frame
  }

  /// Without a UTF-8 locale the terminal cannot show other characters.
  private func asciiOnly(_ original: CellBuffer) -> CellBuffer {
    ASCIIFolding.fold(original, cache: &asciiCache)
  }
  private var asciiCache: [Unicode.Scalar: Unicode.Scalar] = [:]

  /// Forgets the last frame, so the next one is drawn whole.
  public func invalidate() {
    previous = nil
    if writer != nil {
      writer?.reset()
    } else {
      wclear(window)
    }
  }

  /// Back from Ctrl-Z and `fg`: ncurses has put its own modes back (its SIGTSTP handler), but
  /// not the mouse's button-motion tracking, and the terminal shows the shell's screen: clear
  /// it and forget the last frame, so the next is drawn whole.
  public func resume() {
    enableMouse()
    previous = nil
    if writer != nil {
      writer?.reset()
      Screen.writeRaw("\u{1B}[0m\u{1B}[H\u{1B}[2J")
    } else {
      clearok(window, true)
      wclear(window)
    }
  }

  /// Waits up to `milliseconds` for input (0: only what is already there).
  public func nextEvent(timeout milliseconds: Int32) -> InputEvent? {
    wtimeout(window, milliseconds)
    var ch: wint_t = 0
    let r = wget_wch(window, &ch)
    if r == ERR { return nil }
    if r == KEY_CODE_YES {
      let code = Int32(ch)
      if code == KEY_RESIZE { return .resize }
      if code == KEY_MOUSE {
        var ev = MEVENT()
        guard getmouse(&ev) == OK else { return nil }
        return .mouse(MouseEvent(column: Int(ev.x), row: Int(ev.y), action: action(ev.bstate)))
      }
      return Screen.key(code).map { .key($0) }
    }
    guard let scalar = Unicode.Scalar(UInt32(ch)) else { return nil }
    return .character(Character(scalar))
  }

  /// Gives the terminal back: leaves the alternate screen, shows the cursor, stops the mouse.
  public func end() {
    guard !ended else { return }
    ended = true
    // ncurses last left the cursor at the top left: put it back there, so endwin's moves
    // start from where ncurses believes the cursor is.
    if writer != nil { Screen.writeRaw("\u{1B}[0m\u{1B}[H") }
    Screen.writeRaw("\u{1B}[?1002l")
    _ = mousemask(0, nil)
    curs_set(1)
    endwin()
    delscreen(screen)
  }
}

extension Screen {
  /// The viewer's key for an ncurses key code (nil for keys it does not use).
  static func key(_ code: Int32) -> Key? {
    switch code {
    case KEY_LEFT: .left
    case KEY_RIGHT: .right
    case KEY_UP: .up
    case KEY_DOWN: .down
    case KEY_SLEFT: .shiftLeft
    case KEY_SRIGHT: .shiftRight
    case KEY_SR: .shiftUp
    case KEY_SF: .shiftDown
    case KEY_BTAB: .backTab
    case KEY_ENTER: .enter
    case KEY_BACKSPACE: .backspace
    default: nil
    }
  }

  /// What an ncurses mouse report means (1002 mode reports motion without button bits).
  func action(_ s: mmask_t) -> MouseEvent.Action {
    if s & termmap_button4_pressed() != 0 { return .wheelUp }
    if s & termmap_button5_pressed() != 0 { return .wheelDown }
    if s & termmap_button1_pressed() != 0 { return .press }
    if s & termmap_button1_released() != 0 { return .release }
    if s & termmap_button1_clicked() != 0 { return .click }
    return .motion
  }
}
