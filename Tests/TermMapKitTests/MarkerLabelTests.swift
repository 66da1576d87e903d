import DotRaster
import Testing

@testable import TermMapKit

/// Marker labels are measured and cut by bytes when they are ASCII; the result must be what
/// the general, per-scalar functions give.
@Suite("Marker label fitting")
struct MarkerLabelTests {
  static let labels = [
    "", "A", "Place 61098", "Place 61098 +12", "Saint-Louis", "Basel/Bâle", "Zürich HB",
    "Rue de la Paix, Paris", "a-b-c-d-e-f", "  spaced  out  ", "end,", "東京駅", "x\ty",
    "trailing - ", "one/two/three/four", "Ωmega", "emoji 🚲 stand",
  ]

  @Test("widths and cuts are those of CellBuffer.displayWidth and CellBuffer.truncated")
  func sameAsCellBuffer() {
    var cut = 0
    for text in Self.labels {
      #expect(FrameComposer.labelWidth(text) == CellBuffer.displayWidth(of: text), "\(text)")
      for width in 0...24 {
        let fitted = FrameComposer.truncatedLabel(text, width: width)
        #expect(fitted == CellBuffer.truncated(text, width: width), "\(text) in \(width)")
        #expect(
          FrameComposer.labelWidth(fitted) == CellBuffer.displayWidth(of: fitted),
          "\(fitted)")
        if fitted != text { cut += 1 }
      }
    }
    // Most of them were cut somewhere (so the comparison covers the cutting).
    #expect(cut > 100)
  }

  @Test("labels are written into cells as CellBuffer.put writes them")
  func putSameAsCellBuffer() {
    let texts =
      Self.labels + [
        "cut…", "e\u{301}cole", "tab\u{7}bell", "zero\u{200B}width", "rtl\u{202E}x", "ＡＢＣ",
      ]
    var differing = 0
    for text in texts {
      // Columns that put it at the left edge, inside, and across the right edge (a wide glyph
      // there is left out whole).
      for column in [0, 3, 12, 16, 17] {
        for bold in [false, true] {
          var expected = CellBuffer(columns: 20, rows: 2)
          var cells = expected
          expected.put(text, column: column, row: 1, foreground: .white, bold: bold)
          FrameComposer.put(
            text, column: column, row: 1, foreground: .white, bold: bold, into: &cells)
          #expect(cells == expected, "\(text) at \(column)")
          if cells != CellBuffer(columns: 20, rows: 2) { differing += 1 }
        }
      }
    }
    // Nearly every case wrote something (the comparison is not between empty buffers).
    #expect(differing > texts.count * 8)
  }

  @Test("placed labels (name and +N drawn apart) are the joined text, as put draws it")
  func placedLabelsDrawTheirText() {
    let composer = FrameComposer()
    let names: [String?] = [nil, "", "Place 61098", "Zürich HB", "東京駅", "Rue de la Paix, Paris"]
    var markers: [MarkerPlacement] = []
    var k = 0
    // Rows of markers at varied gaps, so labels fit, are cut, or give way to "+N" or nothing.
    for row in 0..<12 {
      var column = 0
      while column < 70 {
        let label = names[k % names.count]
        let others = [0, 3, 12, 1, 250][k % 5]
        markers.append(
          MarkerPlacement(
            column: column, row: row, glyph: "●", asciiGlyph: "@", color: .brightYellow,
            label: label, displayedLabel: MapSnapshotter.displayedLabel(label, others: others),
            others: others, z: 500))
        column += 3 + (k * 7) % 19
        k += 1
      }
    }
    let labels = composer.markerLabels(markers, columns: 80)
    var drawn = CellBuffer(columns: 80, rows: 12)
    _ = composer.drawMarkers(markers, labels: labels, into: &drawn)
    var expected = CellBuffer(columns: 80, rows: 12)
    for m in markers {
      expected[m.column, m.row] = Cell(glyph: "●", foreground: .brightYellow, bold: true)
    }
    var counts = 0
    var cut = 0
    for l in labels {
      #expect(l.width == CellBuffer.displayWidth(of: l.text), "\(l.text)")
      expected[l.column - 1, l.row] = Cell(glyph: " ")
      expected.put(l.text, column: l.column, row: l.row, foreground: .white)
      if l.count > 0 { counts += 1 }
      if l.text.contains("…") { cut += 1 }
    }
    #expect(drawn == expected)
    // Labels with and without a count, and cut ones, were compared.
    #expect(
      counts > 15 && labels.count - counts > 5 && cut > 5, "\(labels.count) \(counts) \(cut)")
  }

  @Test("a label of no width by a marker in the last column is left out, not claimed past the row")
  func labelOfNoWidthAtTheRightEdge() {
    let composer = FrameComposer()
    func marker(_ column: Int, _ row: Int, _ label: String) -> MarkerPlacement {
      MarkerPlacement(
        column: column, row: row, glyph: "●", asciiGlyph: "@", color: .brightYellow,
        label: label, displayedLabel: MapSnapshotter.displayedLabel(label, others: 0),
        others: 0, z: 500)
    }
    // Combining marks alone take no column; one such label's marker stands in the last row's
    // last column (its cells were claimed one past the end of the flags: a crash).
    let markers = [
      marker(3, 0, "Harbour"), marker(76, 1, "\u{301}"), marker(79, 1, "\u{301}\u{301}"),
    ]
    let labels = composer.markerLabels(markers, columns: 80)
    #expect(labels.map(\.name) == ["\u{301}", "Harbour"])
    #expect(labels.map(\.column) == [78, 5])
    var drawn = CellBuffer(columns: 80, rows: 2)
    #expect(composer.drawMarkers(markers, labels: labels, into: &drawn) == 3)
    for m in markers {
      #expect(drawn[m.column, m.row].glyph == "●", "the marker at \(m.column), \(m.row)")
    }
  }

  @Test("markers side by side: a label starts after them, and every glyph shows")
  func labelAfterNeighbouringMarkers() {
    let composer = FrameComposer()
    func marker(_ column: Int, _ row: Int, _ label: String?, _ z: Float) -> MarkerPlacement {
      MarkerPlacement(
        column: column, row: row, glyph: "●", asciiGlyph: "@", color: .brightYellow,
        label: label, displayedLabel: MapSnapshotter.displayedLabel(label, others: 0),
        others: 0, z: z)
    }
    // A named marker with an unnamed one (the user's position, say) right after it; two more
    // named side by side further on, the right one placed first (highest z); one in the last
    // column but one, with a marker in the last column. (Labels are placed from the end of the
    // list: the highest z first.)
    let markers = [
      marker(10, 0, nil, 1), marker(9, 0, "Cais do Sodré", 2),
      marker(30, 0, "Left", 3), marker(31, 0, "Right", 6),
      marker(78, 0, "Edge", 4), marker(79, 0, nil, 5),
    ]
    let sorted = markers.sorted { $0.z < $1.z }
    let labels = composer.markerLabels(sorted, columns: 80)
    // "Right" takes the cells after its marker; "Left" would start after the marker beside
    // it, in the space before "Right": no room, left out. "Edge" has no cell left.
    #expect(labels.map(\.name) == ["Right", "Cais do Sodré"])
    #expect(labels.map(\.column) == [33, 12])
    var drawn = CellBuffer(columns: 80, rows: 1)
    #expect(composer.drawMarkers(sorted, labels: labels, into: &drawn) == 6)
    for m in markers {
      #expect(drawn[m.column, m.row].glyph == "●", "the marker at \(m.column), \(m.row)")
    }
    let text = String(String.UnicodeScalarView((0..<80).map { drawn[$0, 0].glyph }))
    #expect(text.contains("●● Cais do Sodré"), "\(text)")
    #expect(text.contains("●● Right"), "\(text)")
  }
}
