import Testing

@testable import DotRaster

@Suite("Cell buffers: text, escapes, diffs and ANSI output")
struct CellBufferTests {
  static let esc = "\u{1B}"

  /// The text left when every SGR sequence (ESC [ digits and semicolons m) is taken out.
  static func withoutSGR(_ s: String) -> String {
    s.replacing(try! Regex("\u{1B}\\[[0-9;]*m"), with: "")
  }

  @Test("put writes text from a cell, clipped at the edges and by maxWidth")
  func putClips() {
    var b = CellBuffer(columns: 6, rows: 2)
    #expect(b.put("abcdefgh", column: 3, row: 0) == 3)
    b.put("xyz", column: -1, row: 1)
    #expect(b.lines == ["   abc", "yz    "])
    b.put("12345", column: 0, row: 1, maxWidth: 2)
    #expect(b.lines[1] == "12    ")
    #expect(b.put("q", column: 0, row: 2) == 0)
    #expect(b.put("q", column: 0, row: -1) == 0)
    #expect(b.lines.allSatisfy { $0.unicodeScalars.count == 6 })
  }

  /// What `put` writes, cell by cell through the subscript (the rule it keeps: printable
  /// scalars, combining marks skipped, a wide glyph and its second cell, never half of one).
  static func putBySubscript(
    _ b: inout CellBuffer, _ text: String, column: Int, row: Int, foreground: TermColor?,
    bold: Bool, maxWidth: Int?
  ) -> Int {
    guard row >= 0 && row < b.rows else { return 0 }
    let limit = min(b.columns, column + (maxWidth ?? b.columns))
    var c = column
    for raw in text.unicodeScalars {
      if c >= limit { break }
      let scalar = CellBuffer.isPrintable(raw) ? raw : "?"
      let width = CellBuffer.displayWidth(of: scalar)
      if width == 0 { continue }
      if width == 2 && c + 1 >= limit { break }
      let cell = Cell(glyph: scalar, foreground: foreground, bold: bold)
      if c >= 0 { b[c, row] = cell }
      if width == 2 && c + 1 >= 0 {
        var second = cell
        second.glyph = Cell.continuation.glyph
        b[c + 1, row] = second
      }
      c += width
    }
    return c - column
  }

  @Test("put writes the cells of a cell-by-cell write: wide glyphs, marks, clipping")
  func putMatchesCellByCell() {
    let texts = [
      "Helsinki", "Café Aalto", "e\u{301}x", "日本語テキスト", "a日b", "\u{1B}[2J\u{202E}",
      "Habibi 🍔 Deli", "╔═╗⠿", "Ôn\u{200B}am", "",
      // UTF-8 of two, three and four bytes: Finnish names, a dash, C1 controls and bidi
      // isolates written as more than one byte, a combining mark of two bytes.
      "Töölöntori", "Kauppatori – Salutorget", "5 €", "a\u{85}b\u{9F}c", "x\u{2066}y\u{2069}",
      "\u{1F600}z\u{10FFFD}", "A\u{308}\u{303}B", "\u{7F}\u{A0}\u{2FF}\u{300}",
    ]
    for text in texts {
      for column in [-3, -1, 0, 2, 7] {
        for maxWidth in [nil, 1, 2, 3, 5] as [Int?] {
          var a = CellBuffer(columns: 9, rows: 2)
          var b = a
          let used = a.put(
            text, column: column, row: 1, foreground: .yellow, bold: true, maxWidth: maxWidth)
          let expected = Self.putBySubscript(
            &b, text, column: column, row: 1, foreground: .yellow, bold: true,
            maxWidth: maxWidth)
          #expect(used == expected, "\(text) at \(column), \(String(describing: maxWidth))")
          #expect(a == b, "\(text) at \(column), \(String(describing: maxWidth))")
          #expect(a.mayHoldWideGlyphs == b.mayHoldWideGlyphs, "\(text) at \(column)")
        }
      }
    }
  }

  @Test("A measured text (CellText, CellRun) is put as its string is: width, wide glyphs, clipping")
  func measuredTextMatchesString() {
    let texts = [
      "Helsinki", "Café Aalto", "e\u{301}x", "日本語テキスト", "a日b", "\u{1B}[2J\u{202E}",
      "Habibi 🍔 Deli", "╔═╗⠿", "Ôn\u{200B}am", "", "Kauppatori – Salutorget…",
      "\u{1F600}z\u{10FFFD}", "A\u{308}\u{303}B", "\u{7F}\u{A0}\u{2FF}\u{300}", "x\u{2066}y",
    ]
    for text in texts {
      let measured = CellText(text)
      if text.unicodeScalars.allSatisfy(CellBuffer.isPrintable) {
        #expect(measured.width == CellBuffer.displayWidth(of: text), "\(text)")
      }
      for column in [-5, -3, -1, 0, 1, 2, 4, 7, 8, 9, 12] {
        for row in [-1, 0, 1, 2] {
          for bold in [false, true] {
            var a = CellBuffer(columns: 9, rows: 2)
            var b = a
            let used = a.put(measured, column: column, row: row, foreground: .yellow, bold: bold)
            let expected = b.put(text, column: column, row: row, foreground: .yellow, bold: bold)
            #expect(used == expected, "\(text) at \(column), \(row)")
            #expect(a == b, "\(text) at \(column), \(row)")
            #expect(a.mayHoldWideGlyphs == b.mayHoldWideGlyphs, "\(text) at \(column)")
            // The same text as a run of cells in its colours.
            var c = CellBuffer(columns: 9, rows: 2)
            let run = CellRun(measured, foreground: .yellow, bold: bold)
            #expect(run.width == measured.width)
            let usedRun = c.withTextWriter { $0.put(run, column: column, row: row) }
            #expect(usedRun == expected, "run: \(text) at \(column), \(row)")
            #expect(c == b, "run: \(text) at \(column), \(row)")
            #expect(c.mayHoldWideGlyphs == b.mayHoldWideGlyphs, "run: \(text) at \(column)")
          }
        }
      }
    }
    // No colour, on a wider screen.
    var a = CellBuffer(columns: 40, rows: 1)
    var b = a
    a.put(CellText("Töölöntori 日本"), column: 3, row: 0)
    b.put("Töölöntori 日本", column: 3, row: 0)
    #expect(a == b)
    var c = CellBuffer(columns: 40, rows: 1)
    _ = c.withTextWriter { $0.put(CellRun(CellText("Töölöntori 日本")), column: 3, row: 0) }
    #expect(c == b)
  }

  @Test("A run of 1 to 40 cells is copied whole (16 bytes at a time), nothing around it written")
  func runCopiesEveryLength() {
    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
    for n in 1...40 {
      let text = String(letters[0..<n])
      for column in [0, 1, 3, 48 - n] {
        for bold in [false, true] {
          var a = CellBuffer(columns: 48, rows: 3)
          // Cells around the run hold something, to show they are left as they were.
          for r in 0..<3 { a.put(String(repeating: "·", count: 48), column: 0, row: r) }
          var b = a
          let used = a.withTextWriter {
            $0.put(CellRun(CellText(text), foreground: .green, bold: bold), column: column, row: 1)
          }
          b.put(text, column: column, row: 1, foreground: .green, bold: bold)
          #expect(used == n)
          #expect(a == b, "\(n) cells at \(column)")
        }
      }
    }
  }

  @Test("put turns ESC, other C0/C1 controls and bidi overrides into '?'")
  func putStripsControls() {
    var b = CellBuffer(columns: 16, rows: 1)
    b.put("a\u{1B}[2Jb\u{07}c\u{9B}d\u{202E}e\u{7F}\n", column: 0, row: 0)
    #expect(b.lines == ["a?[2Jb?c?d?e??  "])
    for v: UInt32 in [0x00, 0x09, 0x0A, 0x0D, 0x1B, 0x7F, 0x80, 0x9B, 0x9F, 0x202A, 0x2066] {
      #expect(!CellBuffer.isPrintable(Unicode.Scalar(v)!), "U+\(String(v, radix: 16))")
    }
    for v: UInt32 in [0x20, 0x41, 0xA0, 0xE9, 0x2800, 0x28FF, 0x2500, 0x1F600] {
      #expect(CellBuffer.isPrintable(Unicode.Scalar(v)!), "U+\(String(v, radix: 16))")
    }
  }

  @Test("No ESC reaches lines or ansiLines except the SGR sequences themselves")
  func noEscapeInOutput() {
    var b = CellBuffer(columns: 20, rows: 2)
    b.put("title\u{1B}[2J\u{1B}]0;pwned\u{07}", column: 0, row: 0, foreground: .red, bold: true)
    b.put("\u{9B}2J\u{1B}c", column: 2, row: 1, background: .blue)
    for line in b.lines {
      #expect(!line.unicodeScalars.contains("\u{1B}"))
      #expect(!line.unicodeScalars.contains("\u{9B}"))
    }
    for depth in [ColorDepth.palette256, .basic16, .none] {
      for line in b.ansiLines(colors: depth) {
        #expect(!line.contains(Self.esc + "[2J"))
        let rest = Self.withoutSGR(line)
        #expect(!rest.unicodeScalars.contains("\u{1B}"), "\(depth): \(rest.debugDescription)")
        #expect(!rest.unicodeScalars.contains("\u{9B}"))
      }
    }
    #expect(Self.withoutSGR(b.ansiLines(colors: .palette256)[0]) == b.lines[0])
  }

  @Test("ansiLines(.palette256): one SGR per style run, reset at each line's end")
  func ansi256() {
    var b = CellBuffer(columns: 4, rows: 2)
    b.put("ab", column: 0, row: 0, foreground: TermColor(196))
    b.put("c", column: 2, row: 0, foreground: TermColor(196), background: TermColor(21), bold: true)
    b.put("r", column: 1, row: 1, reverse: true)
    let e = Self.esc
    #expect(
      b.ansiLines(colors: .palette256) == [
        "\(e)[0;38;5;196mab\(e)[0;1;38;5;196;48;5;21mc\(e)[0m \(e)[0m",
        "\(e)[0m \(e)[0;7mr\(e)[0m  \(e)[0m",
      ])
    #expect(
      b.ansiLines(colors: .basic16)[0] == "\(e)[0;91mab\(e)[0;1;91;44mc\(e)[0m \(e)[0m")
  }

  @Test("ansiLines(.none) sends no colour codes, only emphasis")
  func ansiNoColour() {
    var b = CellBuffer(columns: 3, rows: 1)
    b.put("ab", column: 0, row: 0, foreground: .red, background: .blue, bold: true)
    let e = Self.esc
    #expect(b.ansiLines(colors: .none) == ["\(e)[0;1mab\(e)[0m \(e)[0m"])
  }

  @Test("Basic colours: the nearest of the 16 for palette colours")
  func basic16() {
    #expect(TermColor(196).basic16 == .brightRed)
    #expect(TermColor.cube(0, 0, 5).basic16 == .blue)
    #expect(TermColor(232).basic16 == .black)
    #expect(TermColor(255).basic16 == .white)
    #expect(TermColor.cube(5, 5, 5).basic16 == .brightWhite)
    #expect(TermColor.green.basic16 == .green)
    #expect(TermColor.cube(9, -3, 2) == TermColor.cube(5, 0, 2))
  }

  @Test("changes(from:) reports each run of changed cells, style changes included")
  func changes() {
    let old = CellBuffer(columns: 10, rows: 3)
    var new = old
    new.put("xyz", column: 2, row: 1)
    new.put("q", column: 7, row: 1)
    new[9, 1] = Cell(glyph: "w")
    new[0, 2] = Cell(glyph: " ", foreground: .red)
    let runs = new.changes(from: old)
    let summary = runs.map {
      "\($0.row):\($0.column):\(String(String.UnicodeScalarView($0.cells.map(\.glyph))))"
    }
    #expect(summary == ["1:2:xyz", "1:7:q", "1:9:w", "2:0: "])
    #expect(runs[3].cells.first?.foreground == .red)
    #expect(new.changes(from: new).isEmpty)
    // Applying the runs to the old frame gives the new one.
    var patched = old
    for r in runs {
      for (k, cell) in r.cells.enumerated() { patched[r.column + k, r.row] = cell }
    }
    #expect(patched == new)
  }

  @Test("changes(from:) with no old frame, or one of another size, is every row whole")
  func changesWhole() {
    var b = CellBuffer(columns: 4, rows: 2)
    b.put("ab", column: 1, row: 0)
    for old in [nil, CellBuffer(columns: 5, rows: 2)] as [CellBuffer?] {
      let runs = b.changes(from: old)
      #expect(runs.map(\.row) == [0, 1])
      #expect(runs.allSatisfy { $0.column == 0 && $0.cells.count == 4 })
    }
  }
}

@Suite("Charsets")
struct CharsetTests {
  func bits(_ dots: [(Int, Int)]) -> UInt8 {
    dots.reduce(0) { $0 | CellGeometry.brailleBit(dx: $1.0, dy: $1.1) }
  }

  @Test("Block charset folds 2 × 4 dots into 2 × 2 quadrants")
  func block() {
    #expect(Charset.block.glyph(forDots: 0) == " ")
    #expect(Charset.block.glyph(forDots: 0xFF) == "█")
    #expect(Charset.block.glyph(forDots: bits([(0, 0)])) == "▘")
    #expect(Charset.block.glyph(forDots: bits([(1, 1)])) == "▝")
    #expect(Charset.block.glyph(forDots: bits([(0, 3)])) == "▖")
    #expect(Charset.block.glyph(forDots: bits([(1, 2)])) == "▗")
    #expect(Charset.block.glyph(forDots: CellGeometry.rowMasks[0]) == "▀")
    #expect(Charset.block.glyph(forDots: CellGeometry.rowMasks[3]) == "▄")
    #expect(Charset.block.glyph(forDots: CellGeometry.columnMasks[0]) == "▌")
    #expect(Charset.block.glyph(forDots: CellGeometry.columnMasks[1]) == "▐")
    #expect(Charset.block.glyph(forDots: bits([(0, 0), (1, 3)])) == "▚")
    #expect(Charset.block.glyph(forDots: bits([(1, 0), (0, 3)])) == "▞")
  }

  @Test("ASCII charset guesses lines and marks from where the dots sit")
  func ascii() {
    #expect(Charset.ascii.glyph(forDots: 0) == " ")
    #expect(Charset.ascii.glyph(forDots: 0xFF) == "#")
    #expect(Charset.ascii.glyph(forDots: bits([(0, 0)])) == "'")
    #expect(Charset.ascii.glyph(forDots: bits([(1, 3)])) == ".")
    #expect(Charset.ascii.glyph(forDots: CellGeometry.rowMasks[0]) == "-")
    #expect(Charset.ascii.glyph(forDots: CellGeometry.rowMasks[1]) == "-")
    #expect(Charset.ascii.glyph(forDots: CellGeometry.rowMasks[3]) == "_")
    #expect(Charset.ascii.glyph(forDots: CellGeometry.columnMasks[0]) == "|")
    #expect(Charset.ascii.glyph(forDots: CellGeometry.columnMasks[1]) == "|")
    #expect(Charset.ascii.glyph(forDots: bits([(0, 0), (0, 1), (1, 2), (1, 3)])) == "\\")
    #expect(Charset.ascii.glyph(forDots: bits([(1, 0), (1, 1), (0, 2), (0, 3)])) == "/")
    // Every pattern maps to printable ASCII.
    for b in 0...255 {
      let g = Charset.ascii.glyph(forDots: UInt8(b))
      #expect(g.isASCII && g.value >= 0x20 && g.value < 0x7F)
    }
  }

  @Test("A canvas renders through each charset")
  func canvasThroughCharsets() {
    var canvas = DotCanvas(columns: 3, rows: 1)
    for x in 0..<6 { canvas.plot(x: x, y: 0, ink: Ink(layer: 1, color: .white)) }
    #expect(canvas.cells(charset: .braille).lines == ["⠉⠉⠉"])
    #expect(canvas.cells(charset: .block).lines == ["▀▀▀"])
    #expect(canvas.cells(charset: .ascii).lines == ["---"])
  }
}

@Suite("Text cut to a width")
struct TruncationTests {
  @Test("whole when it fits; else cut at a word break and ended with …, in terminal columns")
  func truncated() {
    #expect(CellBuffer.truncated("Monaco", width: 10) == "Monaco")
    #expect(
      CellBuffer.truncated("Sydney Central Business District", width: 30)
        == "Sydney Central Business…")
    #expect(
      CellBuffer.truncated("Grande nudo di adolescenti", width: 24) == "Grande nudo di…")
    #expect(CellBuffer.truncated("Supercalifragilistic", width: 8) == "Superca…")
    #expect(CellBuffer.truncated("東京都庁第一本庁舎", width: 7) == "東京都…")
    #expect(CellBuffer.truncated("abc", width: 1) == "…")
    for w in 1...20 {
      #expect(CellBuffer.displayWidth(of: CellBuffer.truncated("東京 Tower and more", width: w)) <= w)
    }
  }
}
