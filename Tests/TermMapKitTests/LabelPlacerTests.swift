import Foundation
import MapGeometry
import Testing

@testable import DotRaster
@testable import TermMapKit

/// `LabelPlacer.place(_:into:)` reads labels through their buffer, takes the first position's
/// cell as worked out with the label, tests and marks the taken cells a word at a time and
/// copies a label's cells made with it (`CellRun`); it must place
/// what the plain rules place: a label at a time by priority, each position tried in turn by
/// `LabelPosition.cell(column:row:width:)`, cells written by `CellBuffer.put` of the text.
@Suite("Label placement: the placer against the plain rules")
struct LabelPlacerTests {
  /// The placer as it was written before (array subscripts, positions worked out per frame,
  /// text put as a string).
  static func plainPlace(
    _ labels: [MapLabel], viewport: Viewport, taken start: [Bool], into cells: inout CellBuffer
  ) -> Int {
    var taken = start
    let cols = viewport.columns
    func spans(_ s: Int, _ row: Int, _ width: Int, _ marker: (column: Int, row: Int)?)
      -> (text: Range<Int>, marker: Int?)
    {
      if let m = marker, m.row == row {
        return (max(min(s, m.column) - 1, 0)..<min(max(s + width, m.column + 1) + 1, cols), nil)
      }
      return (max(s - 1, 0)..<min(s + width + 1, cols), marker?.column)
    }
    func fits(_ s: Int, _ row: Int, _ width: Int, _ marker: (column: Int, row: Int)?) -> Bool {
      guard s >= 0, s + width <= cols, row >= 0, row < viewport.rows else { return false }
      if let m = marker, m.row == row, m.column >= s, m.column < s + width { return false }
      let (text, mc) = spans(s, row, width, marker)
      for c in text where taken[row * cols + c] { return false }
      if let c = mc, let m = marker, taken[m.row * cols + c] { return false }
      return true
    }
    let order = labels.indices.sorted {
      labels[$0].priority != labels[$1].priority
        ? labels[$0].priority > labels[$1].priority : $0 < $1
    }
    var placed = 0
    for i in order {
      let label = labels[i]
      guard let cell = viewport.cell(for: label.point) else { continue }
      let shown = CellBuffer.truncated(
        String(label.text.unicodeScalars.filter(CellBuffer.isPrintable).map(Character.init)),
        width: LabelPlacer.maximumLength)
      let width = CellBuffer.displayWidth(of: shown)
      let marker = label.marker == nil ? nil : cell
      var at: (column: Int, row: Int)?
      if label.positions.isEmpty {
        var s = label.marker != nil ? cell.column + 2 : cell.column - width / 2
        if label.marker != nil && s + width > cols { s = cell.column - 1 - width }
        if fits(s, cell.row, width, marker) { at = (s, cell.row) }
      } else {
        for p in label.positions {
          let c = p.cell(column: cell.column, row: cell.row, width: width)
          if fits(c.column, c.row, width, marker) {
            at = c
            break
          }
        }
      }
      guard let at else { continue }
      let (text, mc) = spans(at.column, at.row, width, marker)
      for c in text { taken[at.row * cols + c] = true }
      if let c = mc, let m = marker { taken[m.row * cols + c] = true }
      if let m = label.marker {
        cells[cell.column, cell.row] = Cell(glyph: m.glyph, foreground: m.color, bold: true)
        if at.row == cell.row {
          let gap =
            at.column > cell.column
            ? (cell.column + 1)..<at.column : (at.column + width)..<cell.column
          for col in gap { cells[col, cell.row] = .blank }
        }
      }
      cells.put(shown, column: at.column, row: at.row, foreground: label.color, bold: label.bold)
      placed += 1
    }
    return placed
  }

  @Test("random labels, positions, markers and taken cells: the same cells and count")
  func matchesPlainRules() {
    var rng = SystemRandomNumberGenerator()
    let w = MapSize.world.width
    let center = MapPoint(x: w * 0.5683, y: w * 0.2860)
    let texts = [
      "Helsinki", "Kauppatori – Salutorget", "日本語", "e\u{301}x", "A", "", "Töölö",
      "Mannerheimintie Mannerheimvägen Helsinki", "\u{1B}[2Jbad", "Café 🍔",
    ]
    let anchors = LabelAnchor.allCases
    for trial in 0..<60 {
      let vp = Viewport(
        center: center, zoomScale: pow(2, 15) * 256 / w, columns: 40 + trial % 7, rows: 12)
      let r = vp.mapRect
      var labels: [MapLabel] = []
      for n in 0..<80 {
        var positions: [LabelPosition] = []
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
          positions.append(
            LabelPosition(
              anchor: anchors.randomElement(using: &rng)!,
              columns: Double(Int.random(in: -4...4, using: &rng)) / 2,
              rows: Double(Int.random(in: -2...2, using: &rng)) / 2))
        }
        if n % 17 == 0 { positions.append(LabelPosition(anchor: .left, columns: 1e7)) }
        labels.append(
          MapLabel(
            text: texts.randomElement(using: &rng)!,
            point: MapPoint(
              x: Double.random(in: (r.minX - r.width / 4)...(r.maxX + r.width / 4), using: &rng)
                + (n % 23 == 0 ? w : 0),
              y: Double.random(in: (r.minY - r.height / 4)...(r.maxY + r.height / 4), using: &rng)),
            priority: trial % 2 == 0 ? Double(100 - n) : Double(Int.random(in: 0...5, using: &rng)),
            color: n % 2 == 0 ? TermColor(UInt8(n % 256)) : TermColor(red: n, green: 80, blue: 200),
            bold: n % 3 == 0,
            marker: n % 5 == 0 ? ("●", .red) : nil, positions: positions))
      }
      var taken = [Bool](repeating: false, count: vp.columns * vp.rows)
      for i in taken.indices where Int.random(in: 0..<10, using: &rng) == 0 { taken[i] = true }
      var a = CellBuffer(columns: vp.columns, rows: vp.rows)
      var b = a
      var placer = LabelPlacer(viewport: vp, taken: taken)
      let placed = placer.place(labels, into: &a)
      let expected = Self.plainPlace(labels, viewport: vp, taken: taken, into: &b)
      #expect(placed == expected, "trial \(trial)")
      #expect(a == b, "trial \(trial)")
      #expect(a.mayHoldWideGlyphs == b.mayHoldWideGlyphs, "trial \(trial)")
      #expect(placed > 0)
    }
  }

  @Test("a list placed again, or changed after it was placed, is placed by the plain rules")
  func listPlacedAgain() {
    let w = MapSize.world.width
    let center = MapPoint(x: w * 0.5683, y: w * 0.2860)
    let vp = Viewport(center: center, zoomScale: pow(2, 15) * 256 / w, columns: 50, rows: 14)
    let r = vp.mapRect
    let names = ["Kallio", "Töölö", "Punavuori", "Kamppi", "日本", "Ullanlinna", "Eira"]
    var labels: [MapLabel] = []
    for n in 0..<120 {
      labels.append(
        MapLabel(
          text: names[n % names.count],
          point: MapPoint(
            x: r.minX + r.width * Double((n * 37) % 101) / 100,
            y: r.minY + r.height * Double((n * 53) % 97) / 96),
          priority: Double(200 - n), color: TermColor(UInt8(n % 256)), bold: n % 4 == 0,
          marker: n % 9 == 0 ? ("●", .red) : nil,
          positions: n % 3 == 0 ? [LabelPosition(anchor: .top, rows: 0.5)] : []))
    }
    let taken = [Bool](repeating: false, count: vp.columns * vp.rows)
    func check(_ list: [MapLabel], _ what: String) {
      var a = CellBuffer(columns: vp.columns, rows: vp.rows)
      var b = a
      var placer = LabelPlacer(viewport: vp, taken: taken)
      let placed = placer.place(list, into: &a)
      #expect(placed == Self.plainPlace(list, viewport: vp, taken: taken, into: &b), "\(what)")
      #expect(a == b, "\(what)")
      #expect(placed > 0, "\(what)")
    }
    check(labels, "first")
    check(labels, "again")
    // Out of order now (the array is copied on the change while the placer holds it).
    labels[60].priority = 1000
    labels[7].priority = -1
    check(labels, "changed")
    check(labels, "changed, again")
    labels.sort { $0.priority > $1.priority }
    check(labels, "sorted")
    check(labels, "sorted, again")
    labels[3].color = .brightYellow
    labels[4].bold.toggle()
    labels[5].text = "Kaivopuisto"
    check(labels, "restyled")
  }

  @Test("a label's first offset follows its text and positions when they change")
  func offsetFollowsChanges() {
    var label = MapLabel(
      text: "Esplanadi", point: MapPoint(x: 0, y: 0), priority: 1, color: .white,
      positions: [LabelPosition(anchor: .right, columns: -1.5, rows: 0.5)])
    func check(_ l: MapLabel) {
      let width = l.shown.width
      let expected = l.positions.first?.cell(column: 0, row: 0, width: width)
      #expect(l.firstOffset.map { Int($0.columns) } == expected?.column)
      #expect(l.firstOffset.map { Int($0.rows) } == expected?.row)
      #expect(width == CellBuffer.displayWidth(of: CellBuffer.truncated(l.text, width: 30)))
    }
    check(label)
    label.text = "Pohjoisesplanadi Norra esplanaden"
    check(label)
    label.positions = [LabelPosition(anchor: .bottomLeft, columns: 2, rows: -1)]
    check(label)
    label.positions = []
    #expect(label.firstOffset == nil)
    label.text = "日本"
    #expect(label.shown.width == 4)
  }
}
