import Testing

@testable import DotRaster

/// A small deterministic generator, so every failing case can be run again.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(_ seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Map-like frames: braille in runs of a few colours, blanks, labels (some of them CJK, two
/// columns a glyph), a status line on the last row.
enum FrameMaker {
  static let colours: [TermColor?] = [
    nil, .cube(1, 2, 4), .cube(3, 3, 3), TermColor(240), .brightYellow,
    TermColor(red: 200, green: 120, blue: 40),
  ]
  static let labels = ["Rautatientori", "東京タワー", "Kamppi", "Töölö", "한강", "Senaatintori"]

  static func mapCell(_ rng: inout SplitMix) -> Cell {
    if rng.next() % 4 == 0 { return .blank }
    let glyph = Unicode.Scalar(0x2800 + UInt32(rng.next() % 256))!
    let fg = colours[Int(rng.next() % UInt64(colours.count))]
    let bg: TermColor? = rng.next() % 10 == 0 ? TermColor(17) : nil
    return Cell(glyph: glyph, foreground: fg, background: bg, bold: rng.next() % 20 == 0)
  }

  static func frame(columns: Int, rows: Int, _ rng: inout SplitMix, status: String = "status")
    -> CellBuffer
  {
    var f = CellBuffer(columns: columns, rows: rows)
    // Runs of similar cells, as tiles have.
    for r in 0..<rows - 1 {
      var c = 0
      while c < columns {
        let cell = mapCell(&rng)
        let run = 1 + Int(rng.next() % 6)
        for i in 0..<run where c + i < columns {
          var x = cell
          if x.glyph != " " { x.glyph = Unicode.Scalar(0x2800 + UInt32(rng.next() % 256))! }
          f[c + i, r] = x
        }
        c += run
      }
    }
    for _ in 0..<max(1, rows / 4) { addLabel(&f, &rng) }
    putStatus(&f, status)
    f.repairWideGlyphs()
    return f
  }

  static func addLabel(_ f: inout CellBuffer, _ rng: inout SplitMix) {
    guard f.rows > 1 else { return }
    let label = labels[Int(rng.next() % UInt64(labels.count))]
    let r = Int(rng.next() % UInt64(f.rows - 1))
    let c = Int(rng.next() % UInt64(f.columns))
    f.put(label, column: c, row: r, foreground: .brightWhite, bold: rng.next() % 2 == 0)
  }

  static func putStatus(_ f: inout CellBuffer, _ text: String) {
    let r = f.rows - 1
    for c in 0..<f.columns { f[c, r] = Cell(glyph: " ", reverse: true) }
    f.put(text, column: 0, row: r, reverse: true)
    // The bottom-right cell is written too.
    f.put("█", column: f.columns - 1, row: r, foreground: .green)
  }

  /// The map rows moved by (dx, dy) cells (positive dx: the picture moves left, as after a
  /// pan to the east), new cells where nothing was; the status line stays.
  static func shifted(
    _ f: CellBuffer, dx: Int, dy: Int, _ rng: inout SplitMix, status: String = "status"
  ) -> CellBuffer {
    var g = CellBuffer(columns: f.columns, rows: f.rows)
    for r in 0..<f.rows - 1 {
      for c in 0..<f.columns {
        let sc = c + dx
        let sr = r + dy
        if sc >= 0 && sc < f.columns && sr >= 0 && sr < f.rows - 1 {
          g[c, r] = f[sc, sr]
        } else {
          g[c, r] = mapCell(&rng)
        }
      }
    }
    putStatus(&g, status)
    g.repairWideGlyphs()
    return g
  }
}

@Suite("TerminalWriter: frames as terminal bytes, by difference")
struct TerminalWriterTests {
  static let depths: [ColorDepth] = [.palette256, .truecolor, .basic16, .none]

  /// Writes `frames` in order onto a model terminal that starts full of junk, checking after
  /// each that it shows the frame and that nothing wrapped, scrolled or went unrecognised.
  func play(
    _ frames: [CellBuffer], features: TerminalWriter.Features, _ context: String
  ) -> [Int] {
    var writer = TerminalWriter(features: features)
    var model = ScreenModel(columns: frames[0].columns, rows: frames[0].rows)
    var sizes: [Int] = []
    for (i, f) in frames.enumerated() {
      let bytes = writer.update(to: f)
      sizes.append(bytes.count)
      model.feed(bytes)
      let diff = model.differences(from: f, colors: features.colors)
      #expect(diff.isEmpty, "\(context), frame \(i): \(diff)")
      #expect(model.problems.isEmpty, "\(context), frame \(i): \(model.problems.prefix(3))")
      #expect(model.regionReset, "\(context), frame \(i): scroll region left set")
      if !diff.isEmpty || !model.problems.isEmpty { break }
    }
    return sizes
  }

  @Test("random frame pairs: the model terminal shows frame B after A's bytes and B's")
  func randomPairs() {
    for seed in 0..<160 {
      var rng = SplitMix(UInt64(seed))
      let cols = 8 + Int(rng.next() % 90)
      let rows = 3 + Int(rng.next() % 30)
      let a = FrameMaker.frame(columns: cols, rows: rows, &rng)
      var b: CellBuffer
      let kind = seed % 8
      switch kind {
      case 0: b = FrameMaker.frame(columns: cols, rows: rows, &rng)
      case 1: b = FrameMaker.shifted(a, dx: 1 + Int(rng.next() % UInt64(cols / 2)), dy: 0, &rng)
      case 2: b = FrameMaker.shifted(a, dx: -1 - Int(rng.next() % UInt64(cols / 2)), dy: 0, &rng)
      case 3: b = FrameMaker.shifted(a, dx: 0, dy: 1 + Int(rng.next() % UInt64(rows)), &rng)
      case 4: b = FrameMaker.shifted(a, dx: 0, dy: -1 - Int(rng.next() % UInt64(rows)), &rng)
      case 5:
        b = FrameMaker.shifted(
          a, dx: Int(rng.next() % 7) - 3, dy: Int(rng.next() % 5) - 2, &rng, status: "moved")
      case 6:
        // Colours and emphasis changed, glyphs kept.
        b = a
        for r in 0..<rows - 1 {
          for c in 0..<cols where rng.next() % 3 == 0 && !b[c, r].isContinuation {
            b[c, r].foreground = FrameMaker.colours[Int(rng.next() % 6)]
            b[c, r].reverse = rng.next() % 2 == 0
            // A wide glyph's second cell has its style.
            if c + 1 < cols && b[c + 1, r].isContinuation {
              b[c + 1, r] = b[c, r]
              b[c + 1, r].glyph = Cell.continuation.glyph
            }
          }
        }
      default:
        // A shift plus labels that moved on their own.
        b = FrameMaker.shifted(a, dx: 2 * (Int(rng.next() % 9) - 4), dy: 0, &rng)
        for _ in 0..<3 { FrameMaker.addLabel(&b, &rng) }
      }
      b.repairWideGlyphs()
      let depth = Self.depths[seed % Self.depths.count]
      for features in [
        TerminalWriter.Features(colors: depth),
        TerminalWriter.Features(colors: depth, shiftsRows: false, scrollsRegions: false),
        TerminalWriter.Features(colors: depth, shiftsRows: true, scrollsRegions: false),
      ] {
        _ = play(
          [a, b, a], features: features,
          "seed \(seed) kind \(kind) \(cols)x\(rows) \(depth) \(features)")
      }
    }
  }

  @Test("a sequence of pans, zooms and resizes stays right frame after frame")
  func longSequence() {
    var rng = SplitMix(42)
    var frames: [CellBuffer] = [FrameMaker.frame(columns: 60, rows: 20, &rng)]
    for step in 0..<40 {
      let last = frames[frames.count - 1]
      switch step % 5 {
      case 0: frames.append(FrameMaker.shifted(last, dx: 7, dy: 0, &rng))
      case 1: frames.append(FrameMaker.shifted(last, dx: 0, dy: -3, &rng))
      case 2: frames.append(FrameMaker.shifted(last, dx: -8, dy: 0, &rng, status: "z12"))
      case 3: frames.append(FrameMaker.frame(columns: 60, rows: 20, &rng))
      default: frames.append(FrameMaker.shifted(last, dx: 3, dy: 2, &rng))
      }
    }
    _ = play(frames, features: TerminalWriter.Features(colors: .palette256), "sequence")
    // A resize: the writer clears and writes the new size whole.
    var writer = TerminalWriter(features: TerminalWriter.Features(colors: .palette256))
    writer.update(to: frames[0])
    let bigger = FrameMaker.frame(columns: 70, rows: 22, &rng)
    var model = ScreenModel(columns: 70, rows: 22)
    model.feed(writer.update(to: bigger))
    #expect(writer.lastPlan.fullRepaint)
    #expect(model.differences(from: bigger, colors: .palette256).isEmpty)
  }

  @Test("wide glyphs cut by a shift of one column are written again whole")
  func wideGlyphsAtTheEdges() {
    var a = CellBuffer(columns: 24, rows: 3)
    for r in 0..<2 {
      a.put("東京タワー東京タワー東京", column: 0, row: r, foreground: .red)
      a.put("x", column: 23, row: r)
    }
    FrameMaker.putStatus(&a, "s")
    a.repairWideGlyphs()
    var rng = SplitMix(7)
    for dx in [-3, -1, 1, 3] {
      let b = FrameMaker.shifted(a, dx: dx, dy: 0, &rng)
      for depth in Self.depths {
        _ = play([a, b, a], features: TerminalWriter.Features(colors: depth), "dx \(dx) \(depth)")
      }
    }
  }

  @Test("a one-step horizontal pan at 160×48 costs well under 40 % of a full repaint")
  func horizontalPanBytes() {
    var rng = SplitMix(160)
    let a = FrameMaker.frame(columns: 160, rows: 49, &rng)
    for dx in [20, -20, 2] {
      let b = FrameMaker.shifted(a, dx: dx, dy: 0, &rng)
      var writer = TerminalWriter(features: TerminalWriter.Features(colors: .palette256))
      let full = writer.update(to: a).count
      let pan = writer.update(to: b).count
      #expect(writer.lastPlan.shiftedRows >= 40, "\(writer.lastPlan)")
      #expect(writer.lastPlan.shift == dx)
      #expect(Double(pan) <= 0.4 * Double(full), "dx \(dx): \(pan) of \(full) bytes")
      var model = ScreenModel(columns: 160, rows: 49)
      model.feed(TerminalWriter.bytes(from: nil, to: a, features: writer.features))
      model.feed(writer.bytes)
      #expect(model.differences(from: b, colors: .palette256).isEmpty)
      // Without DCH and ICH the same pan is nearly a full repaint.
      let plain = TerminalWriter.bytes(
        from: a, to: b, features: TerminalWriter.Features(colors: .palette256, shiftsRows: false))
      #expect(Double(plain.count) > 0.8 * Double(full), "\(plain.count) of \(full)")
    }
  }

  @Test("a vertical pan scrolls the map rows in a region and keeps the status line")
  func verticalPan() {
    var rng = SplitMix(48)
    let a = FrameMaker.frame(columns: 160, rows: 49, &rng)
    for dy in [6, -6] {
      let b = FrameMaker.shifted(a, dx: 0, dy: dy, &rng)
      var writer = TerminalWriter(features: TerminalWriter.Features(colors: .palette256))
      let full = writer.update(to: a).count
      let pan = writer.update(to: b)
      #expect(writer.lastPlan.scrolledRows == dy)
      #expect(Double(pan.count) <= 0.4 * Double(full), "\(pan.count) of \(full)")
      let text = String(decoding: pan, as: UTF8.self)
      #expect(
        text.hasPrefix("\u{1B}[1;48r\u{1B}[6\(dy > 0 ? "S" : "T")\u{1B}[r"), "\(text.prefix(20))")
    }
  }

  @Test("an unchanged frame writes nothing; a changed cell writes a move, a style and a glyph")
  func minimalOutput() {
    var rng = SplitMix(1)
    let a = FrameMaker.frame(columns: 40, rows: 10, &rng)
    var writer = TerminalWriter(features: TerminalWriter.Features(colors: .palette256))
    writer.update(to: a)
    #expect(writer.update(to: a).isEmpty)
    var b = a
    b[10, 3] = Cell(glyph: "⣿", foreground: TermColor(196))
    let bytes = String(decoding: writer.update(to: b), as: UTF8.self)
    #expect(bytes == "\u{1B}[4;11H\u{1B}[38;5;196m⣿\u{1B}[0m")
    // Next to it, the same style: only the glyph after a short move.
    var c = b
    c[12, 3] = Cell(glyph: "⣀", foreground: TermColor(196))
    c[13, 3] = Cell(glyph: "⣀", foreground: TermColor(196))
    let more = String(decoding: writer.update(to: c), as: UTF8.self)
    #expect(more == "\u{1B}[4;13H\u{1B}[38;5;196m⣀⣀\u{1B}[0m")
  }

  @Test("half glyphs in a frame that was not mended are written as spaces")
  func halfGlyphs() {
    var a = CellBuffer(columns: 12, rows: 2)
    a.put("東京タワー", column: 0, row: 0)
    a[2, 0] = Cell(glyph: "x")  // 京 loses its first half
    a[0, 1] = Cell.continuation  // a second half alone
    a[11, 1] = Cell(glyph: "東")  // a first half at the edge
    var writer = TerminalWriter(features: TerminalWriter.Features(colors: .palette256))
    var model = ScreenModel(columns: 12, rows: 2)
    model.feed(writer.update(to: a))
    var b = a
    b[5, 0] = Cell(glyph: "y")
    model.feed(writer.update(to: b))
    #expect(model.problems.isEmpty, "\(model.problems)")
    var mended = b
    mended.repairWideGlyphs()
    #expect(model.differences(from: mended, colors: .palette256).isEmpty)
  }

  @Test("control characters in cells never reach the terminal")
  func controlCharacters() {
    var a = CellBuffer(columns: 10, rows: 2)
    a[0, 0] = Cell(glyph: "\u{1B}")
    a[1, 0] = Cell(glyph: "\u{9B}")
    a[2, 0] = Cell(glyph: "\u{202E}")
    a[3, 0] = Cell(glyph: "\u{7}")
    let bytes = TerminalWriter.bytes(
      from: nil, to: a, features: TerminalWriter.Features(colors: .palette256))
    var model = ScreenModel(columns: 10, rows: 2)
    model.feed(bytes)
    #expect(model.problems.isEmpty, "\(model.problems)")
    #expect((0..<4).allSatisfy { model[$0, 0].glyph == "?" })
    // Only the writer's own escapes: each ESC starts a CSI.
    for (i, b) in bytes.enumerated() where b == 0x1B { #expect(bytes[i + 1] == UInt8(ascii: "[")) }
  }
}
