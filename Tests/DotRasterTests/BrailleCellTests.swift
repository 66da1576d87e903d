import Foundation
import Testing

@testable import DotRaster

@Suite("Braille cells and CellGeometry")
struct BrailleCellTests {
  @Test("A cell is 2 dots wide and 4 dots high")
  func cellGeometryConstants() {
    #expect(CellGeometry.dotsWide == 2)
    #expect(CellGeometry.dotsHigh == 4)
    #expect(CellGeometry.dotsPerCell == 8)
    let canvas = DotCanvas(columns: 3, rows: 5)
    #expect(canvas.width == 6)
    #expect(canvas.height == 20)
    #expect(canvas.cells(charset: .braille).columns == 3)
    #expect(canvas.cells(charset: .braille).rows == 5)
  }

  @Test("Braille bits follow Unicode's dot numbering 1-2-3 / 4-5-6 / 7-8")
  func brailleBitLayout() {
    // (dx, dy) → bit, from the Unicode braille block: dots 1,2,3 down the left, 4,5,6 down the
    // right, 7 bottom left, 8 bottom right.
    let expected: [(dx: Int, dy: Int, bit: UInt8)] = [
      (0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08),
      (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80),
    ]
    for e in expected {
      #expect(CellGeometry.brailleBit(dx: e.dx, dy: e.dy) == e.bit, "dot (\(e.dx), \(e.dy))")
      var canvas = DotCanvas(columns: 1, rows: 1)
      canvas.plot(x: e.dx, y: e.dy, ink: Ink(layer: 1, color: .white))
      let glyph = canvas.cells(charset: .braille)[0, 0].glyph
      #expect(glyph == Unicode.Scalar(0x2800 + UInt32(e.bit))!, "dot (\(e.dx), \(e.dy))")
    }
    #expect(CellGeometry.rowMasks == [0x09, 0x12, 0x24, 0xC0])
    #expect(CellGeometry.columnMasks == [0x47, 0xB8])
  }

  @Test("Every one of the 256 dot patterns becomes U+2800 + its bits")
  func everyBraillePattern() {
    var canvas = DotCanvas(columns: 256, rows: 1)
    for bits in 0..<256 {
      for dy in 0..<4 {
        for dx in 0..<2 where UInt8(bits) & CellGeometry.brailleBit(dx: dx, dy: dy) != 0 {
          canvas.plot(x: bits * 2 + dx, y: dy, ink: Ink(layer: 1, color: .green))
        }
      }
    }
    let cells = canvas.cells(charset: .braille)
    for bits in 1..<256 {
      #expect(cells[bits, 0].glyph.value == 0x2800 + UInt32(bits))
      #expect(cells[bits, 0].foreground == .green)
    }
    // A blank cell is left as a space with no colour, not U+2800.
    #expect(cells[0, 0] == .blank)
  }

  @Test("A dot lands in the cell of its column / 2 and row / 4")
  func dotToCell() {
    var canvas = DotCanvas(columns: 3, rows: 2)
    canvas.plot(x: 3, y: 5, ink: Ink(layer: 1, color: .red))
    let cells = canvas.cells(charset: .braille)
    for r in 0..<2 {
      for c in 0..<3 {
        if c == 1 && r == 1 {
          #expect(cells[c, r].glyph == Unicode.Scalar(0x2800 + 0x10)!)
        } else {
          #expect(cells[c, r] == .blank)
        }
      }
    }
    // Dots off the canvas are ignored.
    canvas.plot(x: -1, y: 0, ink: Ink(layer: 1, color: .red))
    canvas.plot(x: 6, y: 0, ink: Ink(layer: 1, color: .red))
    canvas.plot(x: 0, y: 8, ink: Ink(layer: 1, color: .red))
    #expect(canvas.inkedCount == 1)
  }

  /// The 2 and the 4 of the braille cell are written once, in CellGeometry. A source line of
  /// DotRaster or TermMapKit that speaks of dots, cells, rows or columns and multiplies by 2 or
  /// 4, divides by 4, or counts to 2 or 4, without going through CellGeometry, is restating the
  /// cell's shape. (Halving, `/ 2`, is left alone: it is how centres are found.)
  @Test("CellGeometry is the only place that states the 2 and the 4")
  func noHiddenCellGeometry() throws {
    let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
    let literal = [#"\*\s*[24]\b"#, #"\b[24]\s*\*"#, #"/\s*4\b"#, #"\.\.[<.]\s*[24]\b"#].map {
      try! Regex($0)
    }
    let geometryWord = try Regex(
      #"(?i)\b(dots?\w*|cells?\w*|columns?|rows?|col|row|d[xy]|braille\w*)\b"#)
    var offenders: [String] = []
    var scanned = 0
    for module in ["DotRaster", "TermMapKit"] {
      let dir = sources.appendingPathComponent(module)
      let files = try FileManager.default.contentsOfDirectory(atPath: dir.path)
      for name in files where name.hasSuffix(".swift") && name != "CellGeometry.swift" {
        scanned += 1
        let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        {
          let code = String(line.split(separator: "//", maxSplits: 1).first ?? "")
          if code.contains("CellGeometry.") { continue }
          if literal.contains(where: { code.contains($0) }) && code.contains(geometryWord) {
            offenders.append("\(module)/\(name):\(n + 1): \(line)")
          }
        }
      }
    }
    #expect(scanned > 10)
    #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
  }
}
