@testable import DotRaster

/// A model terminal that interprets exactly the sequences `TerminalWriter` may send: text
/// (UTF-8, wide glyphs over two cells, automatic margins that wrap late), CR, CUP, CUU, CUD,
/// CUF, CUB, SGR, DCH, ICH, DECSTBM, SU, SD, ED 2 and EL 0. Erasing fills with the current
/// background (as `bce` terminals do). Anything else, and anything that would wrap or scroll
/// the screen, is recorded as a problem.
struct ScreenModel {
  let columns: Int
  let rows: Int
  private(set) var cells: [Cell]
  private(set) var problems: [String] = []
  private var row = 0
  private var column = 0
  private var pendingWrap = false
  private var style = Cell.blank
  private var top = 0
  private var bottom: Int

  /// A screen full of `filler` (so a full repaint must clear it).
  init(columns: Int, rows: Int, filler: Cell = Cell(glyph: "#", foreground: .red)) {
    self.columns = columns
    self.rows = rows
    cells = Array(repeating: filler, count: columns * rows)
    bottom = rows - 1
  }

  subscript(column: Int, row: Int) -> Cell { cells[row * columns + column] }

  /// The cell a frame's cell becomes on a terminal with `colors`.
  static func expected(_ cell: Cell, colors: ColorDepth) -> Cell {
    var c = cell
    switch colors {
    case .truecolor: break
    case .palette256: c = cell.paletteOnly
    case .basic16:
      c.foreground = cell.foreground.map { $0.paletteOnlyColor.basic16 }
      c.background = cell.background.map { $0.paletteOnlyColor.basic16 }
    case .none:
      c.foreground = nil
      c.background = nil
    }
    return c
  }

  /// Differences from `frame` as shown on a terminal with `colors`: "(column,row): got/want".
  func differences(from frame: CellBuffer, colors: ColorDepth, limit: Int = 5) -> [String] {
    var out: [String] = []
    for r in 0..<rows {
      for c in 0..<columns {
        let want = ScreenModel.expected(frame[c, r], colors: colors)
        if self[c, r] != want {
          out.append("(\(c),\(r)): got \(describe(self[c, r])) want \(describe(want))")
          if out.count >= limit { return out }
        }
      }
    }
    return out
  }

  private func describe(_ c: Cell) -> String {
    let g = c.isContinuation ? "<cont>" : "\"\(String(c.glyph))\""
    return
      "\(g) fg \(c.foreground.map(\.description) ?? "-") bg \(c.background.map(\.description) ?? "-")"
      + (c.bold ? " bold" : "") + (c.reverse ? " reverse" : "")
  }

  // MARK: Interpreting

  mutating func feed(_ bytes: [UInt8]) {
    var i = 0
    while i < bytes.count {
      let b = bytes[i]
      if b == 0x1B {
        guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") else {
          problems.append("ESC not followed by [ at byte \(i)")
          return
        }
        var j = i + 2
        var params = ""
        while j < bytes.count, (0x30...0x3F).contains(bytes[j]) {
          params.append(Character(Unicode.Scalar(bytes[j])))
          j += 1
        }
        guard j < bytes.count else {
          problems.append("unterminated CSI")
          return
        }
        csi(params, final: Character(Unicode.Scalar(bytes[j])))
        i = j + 1
      } else if b == 0x0D {
        column = 0
        pendingWrap = false
        i += 1
      } else if b < 0x20 || b == 0x7F {
        problems.append("control byte \(b)")
        i += 1
      } else {
        let length = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
        guard i + length <= bytes.count,
          let s = String(bytes: bytes[i..<(i + length)], encoding: .utf8)?.unicodeScalars.first
        else {
          problems.append("bad UTF-8 at \(i)")
          return
        }
        if (0x80...0x9F).contains(s.value) { problems.append("C1 control \(s.value)") }
        printGlyph(s)
        i += length
      }
    }
  }

  private mutating func csi(_ params: String, final: Character) {
    let numbers = params.split(separator: ";", omittingEmptySubsequences: false).map {
      Int($0) ?? 0
    }
    let n = max(numbers.first ?? 1, 1)
    let isPrivate = params.contains("?")
    if isPrivate { problems.append("private mode \(params)\(final)") }
    switch final {
    case "H":
      row = min(max((numbers.first ?? 1), 1), rows) - 1
      column = min(max((numbers.count > 1 ? numbers[1] : 1), 1), columns) - 1
    case "A": row = max(row - n, 0)
    case "B": row = min(row + n, rows - 1)
    case "C": column = min(column + n, columns - 1)
    case "D": column = max(column - n, 0)
    case "m": sgr(numbers)
    case "P": deleteCharacters(n)
    case "@": insertCharacters(n)
    case "r":
      let t = max(numbers.first ?? 1, 1)
      let b = numbers.count > 1 && numbers[1] > 0 ? numbers[1] : rows
      if params.isEmpty {
        top = 0
        bottom = rows - 1
      } else if t < b && b <= rows {
        top = t - 1
        bottom = b - 1
      } else {
        problems.append("bad region \(params)")
      }
      row = 0
      column = 0
    case "S": scrollUp(n)
    case "T": scrollDown(n)
    case "J":
      if numbers.first == 2 {
        for i in cells.indices { cells[i] = erased }
      } else {
        problems.append("ED \(params)")
      }
    case "K":
      if !(numbers.first == 0 || params.isEmpty) { problems.append("EL \(params)") }
      breakWideGlyph(at: column)
      for c in column..<columns { cells[row * columns + c] = erased }
    default:
      problems.append("unknown CSI \(params)\(final)")
    }
    pendingWrap = false
  }

  private var erased: Cell {
    var c = Cell.blank
    c.background = style.background
    return c
  }

  private mutating func sgr(_ numbers: [Int]) {
    var i = 0
    let codes = numbers.isEmpty ? [0] : numbers
    while i < codes.count {
      let code = codes[i]
      switch code {
      case 0: style = .blank
      case 1: style.bold = true
      case 22: style.bold = false
      case 7: style.reverse = true
      case 27: style.reverse = false
      case 30...37: style.foreground = TermColor(UInt8(code - 30))
      case 90...97: style.foreground = TermColor(UInt8(code - 90 + 8))
      case 39: style.foreground = nil
      case 40...47: style.background = TermColor(UInt8(code - 40))
      case 100...107: style.background = TermColor(UInt8(code - 100 + 8))
      case 49: style.background = nil
      case 38, 48:
        var color: TermColor?
        if i + 2 < codes.count && codes[i + 1] == 5 {
          color = TermColor(UInt8(codes[i + 2]))
          i += 2
        } else if i + 4 < codes.count && codes[i + 1] == 2 {
          color = TermColor(red: codes[i + 2], green: codes[i + 3], blue: codes[i + 4])
          i += 4
        } else {
          problems.append("bad colour in SGR \(codes)")
        }
        if code == 38 { style.foreground = color } else { style.background = color }
      default: problems.append("unknown SGR \(code)")
      }
      i += 1
    }
  }

  private mutating func printGlyph(_ s: Unicode.Scalar) {
    let width = CellBuffer.displayWidth(of: s)
    if width == 0 { problems.append("zero-width glyph U+\(String(s.value, radix: 16))") }
    if pendingWrap {
      problems.append("text written after the last column (the terminal would wrap)")
      return
    }
    if width == 2 && column == columns - 1 {
      problems.append("wide glyph in the last column (the terminal would wrap)")
      return
    }
    breakWideGlyph(at: column)
    if width == 2 { breakWideGlyph(at: column + 1) }
    var cell = style
    cell.glyph = s
    cells[row * columns + column] = cell
    if width == 2 {
      var second = style
      second.glyph = Cell.continuation.glyph
      cells[row * columns + column + 1] = second
    }
    column += width
    if column >= columns {
      column = columns - 1
      pendingWrap = true
    }
  }

  /// Overwriting half of a wide glyph blanks its other half (as xterm and tmux do).
  private mutating func breakWideGlyph(at c: Int) {
    guard c < columns else { return }
    let i = row * columns + c
    if cells[i].isContinuation && c > 0 { cells[i - 1] = .blank }
    if !cells[i].isContinuation && c + 1 < columns && cells[i + 1].isContinuation {
      cells[i + 1] = .blank
    }
  }

  private mutating func deleteCharacters(_ n: Int) {
    let base = row * columns
    for c in column..<columns {
      cells[base + c] = c + n < columns ? cells[base + c + n] : erased
    }
    if cells[base + column].isContinuation { cells[base + column] = .blank }
  }

  private mutating func insertCharacters(_ n: Int) {
    let base = row * columns
    for c in stride(from: columns - 1, through: column, by: -1) {
      cells[base + c] = c - n >= column ? cells[base + c - n] : erased
    }
    let last = cells[base + columns - 1]
    if !last.isContinuation && CellBuffer.displayWidth(of: last.glyph) == 2 {
      cells[base + columns - 1] = .blank
    }
  }

  private mutating func scrollUp(_ n: Int) {
    for r in top...bottom {
      for c in 0..<columns {
        cells[r * columns + c] = r + n <= bottom ? cells[(r + n) * columns + c] : erased
      }
    }
  }

  private mutating func scrollDown(_ n: Int) {
    for r in stride(from: bottom, through: top, by: -1) {
      for c in 0..<columns {
        cells[r * columns + c] = r - n >= top ? cells[(r - n) * columns + c] : erased
      }
    }
  }

  /// True when the scroll region is the whole screen again.
  var regionReset: Bool { top == 0 && bottom == rows - 1 }
}

extension TermColor {
  /// The colour as a palette colour (a 24-bit colour's nearest).
  var paletteOnlyColor: TermColor { TermColor(index) }
}
