import DotRaster

/// A marker's place on screen this frame, with what is drawn there: a value, so the frame's
/// cells can be made off the main actor (views are main-actor objects). Nothing in it but its
/// label holds a reference, so a copy retains one string at most.
struct MarkerPlacement: Sendable {
  let column: Int
  let row: Int
  /// The marker's glyph as drawn (`drawnScalar`), and whether it is wide
  /// (`CellBuffer.notesWideGlyph`).
  let glyph: Unicode.Scalar
  let glyphWide: Bool
  /// The same for the glyph drawn when the screen shows ASCII only.
  let asciiGlyph: Unicode.Scalar
  let asciiGlyphWide: Bool
  let color: TermColor
  let isSelected: Bool
  /// The view's own label (without the count).
  let label: String?
  /// The columns `label` takes (`FrameComposer.labelWidth`; 0 without one).
  let labelWidth: Int
  /// Annotations counted in the `+N`.
  let others: Int
  /// The z priority it is drawn with (selected or not).
  let z: Float

  /// The label as drawn (`label` and `+N`), built on demand: labels are placed and drawn from
  /// `label`, `labelWidth` and `others` without building it.
  var displayedLabel: String { MapSnapshotter.displayedLabel(label, others: others) }

  /// Whether there is a label to draw (a name or a count).
  var hasLabel: Bool { others > 0 || !(label?.isEmpty ?? true) }

  /// The columns `displayedLabel` takes.
  var displayedLabelWidth: Int {
    guard others > 0 else { return labelWidth }
    return labelWidth + (label?.isEmpty ?? true ? 1 : 2) + MapView.decimalDigits(others)
  }

  /// The scalar a marker glyph is drawn as: its first, or "?" for one that is not printable
  /// (a control character would reach the terminal as is).
  static func drawnScalar(_ glyph: Character) -> Unicode.Scalar {
    let first = glyph.unicodeScalars.first ?? "*"
    return CellBuffer.isPrintable(first) ? first : "?"
  }

  /// A view's placement, from what the map read of it (`MapView.markerPlacement`). Not
  /// isolated: it takes values only.
  init(
    column: Int, row: Int, glyph: Unicode.Scalar, glyphWide: Bool, asciiGlyph: Unicode.Scalar,
    asciiGlyphWide: Bool, color: TermColor, isSelected: Bool, label: String?, labelWidth: Int,
    others: Int, z: Float
  ) {
    self.column = column
    self.row = row
    self.glyph = glyph
    self.glyphWide = glyphWide
    self.asciiGlyph = asciiGlyph
    self.asciiGlyphWide = asciiGlyphWide
    self.color = color
    self.isSelected = isSelected
    self.label = label
    self.labelWidth = labelWidth
    self.others = others
    self.z = z
  }

  /// A placement with its label and the count of others; `displayedLabel` must be the two as
  /// `MapSnapshotter.displayedLabel` joins them (it is not kept: labels are drawn from the
  /// parts).
  init(
    column: Int, row: Int, glyph: Character, asciiGlyph: Character, color: TermColor,
    label: String?, displayedLabel: String, others: Int, z: Float
  ) {
    assert(displayedLabel == MapSnapshotter.displayedLabel(label, others: others))
    self.column = column
    self.row = row
    self.glyph = Self.drawnScalar(glyph)
    self.glyphWide = CellBuffer.notesWideGlyph(self.glyph)
    self.asciiGlyph = Self.drawnScalar(asciiGlyph)
    self.asciiGlyphWide = CellBuffer.notesWideGlyph(self.asciiGlyph)
    self.color = color
    self.isSelected = false
    self.label = label
    self.labelWidth = label.map { FrameComposer.labelWidth($0) } ?? 0
    self.others = others
    self.z = z
  }

  /// `drawingOrder` as a value, with the place in a list to break ties by.
  struct OrderKey: Comparable {
    let z: Float
    let row: Int
    let column: Int
    let index: Int
    static func < (a: OrderKey, b: OrderKey) -> Bool {
      (a.z, a.row, a.column, a.index) < (b.z, b.row, b.column, b.index)
    }
  }

  /// Lowest z first, then by row and column.
  static func drawingOrder(_ a: MarkerPlacement, _ b: MarkerPlacement) -> Bool {
    if a.z != b.z { return a.z < b.z }
    if a.row != b.row { return a.row < b.row }
    return a.column < b.column
  }
}

/// The callout of the selected marker: a bordered box beside the marker with the title, the
/// subtitle and detail lines, wrapped, kept on screen and never over its marker.
struct CalloutBox {
  var column: Int
  var row: Int
  var width: Int
  var height: Int
  var lines: [(text: String, bold: Bool)]
  var accessory: String?
  var color: TermColor

  /// Widest text a callout line may take.
  static let maximumTextWidth = 44

  func cellIndices(columns: Int) -> [Int] {
    var out: [Int] = []
    for r in row..<(row + height) {
      for c in column..<(column + width) { out.append(r * columns + c) }
    }
    return out
  }

  func draw(into cells: inout CellBuffer, charset: Charset) {
    let ascii = charset == .ascii
    let h: Unicode.Scalar = ascii ? "-" : "─"
    let v: Unicode.Scalar = ascii ? "|" : "│"
    let corners: [Unicode.Scalar] = ascii ? ["+", "+", "+", "+"] : ["┌", "┐", "└", "┘"]
    let border = TermColor.brightWhite
    for c in column..<(column + width) {
      let glyph: Unicode.Scalar =
        c == column ? corners[0] : c == column + width - 1 ? corners[1] : h
      cells[c, row] = Cell(glyph: glyph, foreground: border, background: .black)
      let bottom: Unicode.Scalar =
        c == column ? corners[2] : c == column + width - 1 ? corners[3] : h
      cells[c, row + height - 1] = Cell(glyph: bottom, foreground: border, background: .black)
    }
    for (k, line) in lines.enumerated() {
      let r = row + 1 + k
      cells[column, r] = Cell(glyph: v, foreground: border, background: .black)
      cells[column + width - 1, r] = Cell(glyph: v, foreground: border, background: .black)
      for c in (column + 1)..<(column + width - 1) {
        cells[c, r] = Cell(glyph: " ", background: .black)
      }
      cells.put(
        line.text, column: column + 2, row: r, foreground: line.bold ? color : .white,
        background: .black, bold: line.bold, maxWidth: width - 4)
    }
    if let a = accessory, !lines.isEmpty {
      cells.put(
        a, column: column + width - 3, row: row + 1, foreground: .brightCyan, background: .black,
        bold: true)
    }
  }

  /// Breaks text into lines no wider than `width`, at spaces where it can.
  static func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var out: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var line = ""
      for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
        var w = String(word)
        // Widths in terminal columns: a wide glyph takes two.
        while CellBuffer.displayWidth(of: w) > width {
          if !line.isEmpty {
            out.append(line)
            line = ""
          }
          var head = CellBuffer.prefix(of: w, width: width)
          if head.isEmpty { head = String(w.prefix(1)) }
          out.append(head)
          w = String(w.dropFirst(head.count))
        }
        if line.isEmpty {
          line = w
        } else if CellBuffer.displayWidth(of: line) + 1 + CellBuffer.displayWidth(of: w) <= width {
          line += " " + w
        } else {
          out.append(line)
          line = w
        }
      }
      out.append(line)
    }
    while out.last == "" { out.removeLast() }
    return out
  }
}

extension MapView {
  /// Where each shown marker goes, lowest z first.
  func markerPlacements(_ vp: Viewport) -> [MarkerPlacement] {
    // Each view's z is read once, into its placement (not in every comparison of the sort).
    var out: [MarkerPlacement] = []
    // The views in the order the layout found them, each with its annotation's point as the
    // layout found it.
    // Then the clusters' views, which stand where their first member's view stood.
    // (Without the members of clusters, hidden, when the layout listed the others.)
    let shown = annotationViews.shown
    if annotationViews.factsValid && annotationViews.facts.count == shown.count {
      // The views hidden are passed over by their facts (each view's `isHidden`), without
      // reaching the view.
      let facts = annotationViews.facts
      // Room for the views that show, at once: grown append by append, thousands of
      // placements (each holding strings) were copied a dozen times a frame.
      var showing = annotationViews.clusterViews.count
      if let places = annotationViews.unclustered {
        for p in places where !facts[Int(p)].hidden { showing += 1 }
      } else {
        for f in facts where !f.hidden { showing += 1 }
      }
      out.reserveCapacity(showing)
      if let places = annotationViews.unclustered {
        for p in places where !facts[Int(p)].hidden {
          if let m = markerPlacement(shown[Int(p)], vp) { out.append(m) }
        }
      } else {
        for n in facts.indices where !facts[n].hidden {
          if let m = markerPlacement(shown[n], vp) { out.append(m) }
        }
      }
    } else {
      for v in annotationViews.unclustered.map({ $0.map { shown[Int($0)] } }) ?? shown
      where !v.isHidden {
        if let m = markerPlacement(v, vp) { out.append(m) }
      }
    }
    for v in annotationViews.clusterViews where !v.isHidden {
      if let m = markerPlacement(v, vp) { out.append(m) }
    }
    // The keys sorted, not the placements (which hold strings, so every move of one in a sort
    // costs retains and releases): `drawingOrder`, ties kept in the order found, as the
    // stable sort of the placements themselves gave.
    // (Keys compared by their own `<`: a closure written here would be main-actor isolated,
    // and checked to be on the main actor at every comparison.)
    if out.count > 64 {
      // One z for all (the usual case: thousands of markers of one kind): the order is by
      // cell, ties in the order found, so the placements are counted into their cells and
      // read out in the cells' order, not sorted by comparisons.
      let z = out[0].z
      var oneZ = true
      for m in out where m.z != z {
        oneZ = false
        break
      }
      if oneZ {
        let columns = vp.columns
        var start = [Int32](repeating: 0, count: columns * vp.rows + 1)
        for m in out { start[m.row * columns + m.column + 1] += 1 }
        for c in 1..<start.count { start[c] += start[c - 1] }
        var order = [Int32](repeating: 0, count: out.count)
        for (n, m) in out.enumerated() {
          let c = m.row * columns + m.column
          order[Int(start[c])] = Int32(n)
          start[c] += 1
        }
        // (A loop, not `map` with a closure: a closure written here is main-actor isolated
        // and checked to be on the main actor for every placement.)
        var sorted: [MarkerPlacement] = []
        sorted.reserveCapacity(out.count)
        for n in order { sorted.append(out[Int(n)]) }
        return sorted
      }
    }
    var keys: [MarkerPlacement.OrderKey] = []
    keys.reserveCapacity(out.count)
    for (n, m) in out.enumerated() {
      keys.append(.init(z: m.z, row: m.row, column: m.column, index: n))
    }
    keys.sort()
    var sorted: [MarkerPlacement] = []
    sorted.reserveCapacity(out.count)
    for k in keys { sorted.append(out[k.index]) }
    return sorted
  }

  /// Where a view's marker goes, if on screen. (A method, not a function nested in
  /// `markerPlacements`: 1.5 % fewer instructions in `markerPlacements` at 300 × 100.)
  @inline(__always)
  private func markerPlacement(_ v: AnnotationView, _ vp: Viewport) -> MarkerPlacement? {
    guard v.layoutSlot >= 0, let c = vp.cell(for: v.layoutPoint) else { return nil }
    let offset = v.centerOffset
    let col = c.column + offset.columns
    let row = c.row + offset.rows
    guard col >= 0 && row >= 0 && col < vp.columns && row < vp.rows else { return nil }
    Self.readGlyphs(v)
    let selected = v.isSelected
    let labelWidth = Self.measuredLabelWidth(v)
    return MarkerPlacement(
      column: col, row: row, glyph: v.drawnGlyph, glyphWide: v.drawnGlyphWide,
      asciiGlyph: v.drawnAsciiGlyph, asciiGlyphWide: v.drawnAsciiGlyphWide, color: v.color,
      isSelected: selected, label: v.measuredLabel, labelWidth: labelWidth,
      others: v.representedCount - 1 + v.collidedCount,
      z: selected ? v.selectedZPriority : v.zPriority)
  }

  /// Reads a view's `glyph` and `asciiGlyph` into what the frame draws of them
  /// (`AnnotationView.drawnGlyph` and the rest) when they were set since they were last read:
  /// the strings are read once per change, not for every marker every frame.
  @inline(__always)
  static func readGlyphs(_ v: AnnotationView) {
    guard v.glyphsSet else { return }
    v.glyphsSet = false
    let glyph = MarkerPlacement.drawnScalar(v.glyph)
    let ascii = MarkerPlacement.drawnScalar(v.asciiGlyph)
    v.drawnGlyph = glyph
    v.drawnGlyphWide = CellBuffer.notesWideGlyph(glyph)
    v.drawnAsciiGlyph = ascii
    v.drawnAsciiGlyphWide = CellBuffer.notesWideGlyph(ascii)
  }

}

/// A marker's label as placed: its first cell, the name (perhaps cut, perhaps empty) and the
/// count shown after it as "+N" (0: none), and the columns it takes.
struct MarkerLabel {
  let row: Int
  let column: Int
  let name: String
  let count: Int
  let width: Int
  let selected: Bool

  /// The text drawn: the name, a space when both show, and "+N".
  var text: String { MapSnapshotter.displayedLabel(name.isEmpty ? nil : name, others: count) }
}

extension FrameComposer {
  /// Where marker labels go: each starts a cell right of its marker and runs up to a cell short
  /// of the next marker or label (cut with "…" to fit, and never more than 24 columns), the
  /// selected marker's first, then by z priority; a label with less than four columns of room
  /// (or its own width, when shorter) is left out. Marker glyphs are never covered: when other
  /// markers stand right after a marker (side by side), its label starts a cell after them.
  func markerLabels(_ markers: [MarkerPlacement], columns: Int) -> [MarkerLabel] {
    // Cells taken, as flags (markers and labels stay inside the rows of the markers and the
    // columns of the screen).
    // The placements read where the array keeps them: a placement copied out (by `for m in
    // markers`) was an outlined copy and destroy, and a retain and release of its label, for
    // each marker and loop (thousands a frame). Safe: the pointer is used only inside the
    // closure, to read, and the array is not changed meanwhile.
    markers.withUnsafeBufferPointer { ms in
      var rows = 0
      for k in ms.indices where ms[k].row >= rows { rows = ms[k].row + 1 }
      // (A marker's cell holds 1, a label's cells 2.)
      var taken = [UInt8](repeating: 0, count: rows * columns)
      for k in ms.indices { taken[ms[k].row * columns + ms[k].column] = 1 }
      var out: [MarkerLabel] = []
      // (Room for a label a marker at once: grown append by append, the list was copied a dozen
      // times a frame, each label's string retained and released.)
      out.reserveCapacity(markers.count)
      for k in ms.indices.reversed() {
        let m = ms.baseAddress! + k
        // A label starting past the screen's right edge (its marker in the last column) is left
        // out: only one of no width (combining marks alone) passes the room tests below, and its
        // cells would be claimed past the row (past the flags, in the last row).
        guard m.pointee.hasLabel else { continue }
        // The cell before a label is drawn as a space: when markers stand right after this one,
        // the label starts after them, so that every glyph shows. (A label's cells there mean
        // no room: it is left out below.)
        let row = m.pointee.row * columns
        var start = m.pointee.column + 2
        while start - 1 < columns, taken[row + start - 1] == 1 { start += 1 }
        guard start <= columns else { continue }
        var width = m.pointee.displayedLabelWidth
        // The free cells after the marker are counted only as far as the label and the free
        // cell after it need (they are not when the label fits; when it does not, the count
        // stopped short of that and is the room there is).
        let needed = min(24, width + 1)
        var room = 0
        while start + room < columns, room < needed, taken[row + start + room] == 0 { room += 1 }
        let fits = room == needed && needed < 24
        // Keep a free cell before whatever comes next.
        if !fits && start + room < columns && room < 24 { room -= 1 }
        // The count matters more than the name: "name… +N", else "+N" alone; with too little
        // room for a readable piece the marker shows alone. (The count, "+N", is ASCII.)
        let others = m.pointee.others
        let countWidth = others > 0 ? 1 + MapView.decimalDigits(others) : 0
        let name: String
        var count = others
        if fits || width <= room {
          name = m.pointee.label ?? ""
        } else if others > 0, let label = m.pointee.label, !label.isEmpty,
          room - countWidth - 1 >= 4
        {
          name = Self.truncatedLabel(label, width: room - countWidth - 1)
          width = Self.labelWidth(name) + 1 + countWidth
        } else if others > 0 {
          guard countWidth <= room else { continue }
          name = ""
          width = countWidth
        } else {
          guard room >= 4 else { continue }
          // No count: the text is the label alone.
          name = Self.truncatedLabel(m.pointee.label ?? "", width: room)
          width = Self.labelWidth(name)
          count = 0
        }
        for c in (start - 1)..<(start + width) { taken[row + c] = 2 }
        out.append(
          MarkerLabel(
            row: m.pointee.row, column: start, name: name, count: count, width: width,
            selected: m.pointee.isSelected))
      }
      return out
    }
  }

  /// `CellBuffer.displayWidth(of:)`, counted by bytes for ASCII text (every scalar below
  /// U+0300 takes one column), as most marker labels are.
  /// Other text is summed scalar by scalar as `displayWidth` sums it, with `scalarWidth`.
  static func labelWidth(_ text: String) -> Int {
    // The bytes in place (a small string's are copied to the stack), not through the UTF-8
    // view's iterator.
    var copy = text
    let ascii = copy.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } }
    guard !ascii else { return text.utf8.count }
    var width = 0
    for s in text.unicodeScalars { width += scalarWidth(s) }
    return width
  }

  /// `CellBuffer.displayWidth(of:)` of a scalar, without its general-category look-up for the
  /// scalars below U+0300 and for "…" (U+2026, which cut labels end with), all one column.
  @inline(__always)
  static func scalarWidth(_ s: Unicode.Scalar) -> Int {
    s.value < 0x300 || s.value == 0x2026 ? 1 : CellBuffer.displayWidth(of: s)
  }

  /// `CellBuffer.truncated(_:width:)`, on bytes for printable ASCII text (one character, one
  /// column, one byte), with the same cut.
  static func truncatedLabel(_ text: String, width: Int) -> String {
    let bytes = Array(text.utf8)
    guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
      return CellBuffer.truncated(text, width: width)
    }
    guard bytes.count > width else { return text }
    guard width > 1 else { return width == 1 ? "…" : "" }
    var cut = bytes[..<(width - 1)]
    // The last word break that keeps at least half, as `truncated` cuts.
    if let space = cut.lastIndex(where: { $0 == 0x20 || $0 == 0x2D || $0 == 0x2F }),
      space >= cut.count / 2
    {
      cut = cut[..<space]
    }
    while let last = cut.last, last == 0x20 || last == 0x2C || last == 0x2D { cut.removeLast() }
    return String(decoding: cut, as: UTF8.self) + "…"
  }

  /// Draws markers and their labels (as `markerLabels` placed them); returns how many markers
  /// were drawn.
  func drawMarkers(
    _ markers: [MarkerPlacement], labels: [MarkerLabel], into cells: inout CellBuffer
  ) -> Int {
    // Each glyph as drawn ("?" for a control character, which would reach the terminal as
    // is) and whether it is wide were found when the view's glyphs were set.
    let ascii = charset == .ascii
    for m in markers {
      let scalar = ascii ? m.asciiGlyph : m.glyph
      cells.set(
        Cell(glyph: scalar, foreground: m.color, bold: true, reverse: m.isSelected),
        column: m.column, row: m.row, wide: ascii ? m.asciiGlyphWide : m.glyphWide)
    }
    // The labels read where the array keeps them (`for l in labels` copied each out: a retain
    // and a release of its name, thousands a frame). Safe: the pointer is used only inside the
    // closure, to read, and `labels` is not changed meanwhile.
    labels.withUnsafeBufferPointer { ls in
      for k in ls.indices {
        let l = ls.baseAddress! + k
        let (row, column, selected, count) = (
          l.pointee.row, l.pointee.column, l.pointee.selected, l.pointee.count
        )
        // The cell between a marker and its label is the label's: a space, not map dots.
        cells[column - 1, row] = Cell(glyph: " ")
        let foreground: TermColor = selected ? .brightWhite : .white
        let end = Self.put(
          l.pointee.name, column: column, row: row, foreground: foreground, bold: selected,
          into: &cells)
        if count > 0, let end {
          // " +N" (or "+N" alone), written as put would write the joined text.
          var c = end
          if !l.pointee.name.isEmpty {
            c = Self.putASCII(0x20, column: c, row: row, foreground, selected, &cells)
          }
          c = Self.putASCII(0x2B, column: c, row: row, foreground, selected, &cells)
          // The digits, most significant first (no buffer per label).
          var unit = 1
          while unit <= count / 10 { unit *= 10 }
          while unit > 0 {
            let digit = UInt8(0x30 + count / unit % 10)
            c = Self.putASCII(digit, column: c, row: row, foreground, selected, &cells)
            unit /= 10
          }
        }
      }
    }
    return markers.count
  }

  /// `CellBuffer.put(_:column:row:foreground:bold:)` (the same cells), measuring scalars with
  /// `scalarWidth`: a label's scalars are nearly all below U+0300. Returns the column after the
  /// text, or nil when it stopped short (at the right edge, or off the rows).
  @discardableResult
  static func put(
    _ text: String, column: Int, row: Int, foreground: TermColor, bold: Bool,
    into cells: inout CellBuffer
  ) -> Int? {
    guard row >= 0 && row < cells.rows else { return nil }
    let limit = cells.columns
    // Printable ASCII (most labels) written as one run of cells, its bytes in place.
    var bytes = text
    var written: Int?? = .none
    bytes.withUTF8 { utf8 in
      guard utf8.allSatisfy({ $0 &- 0x20 < 0x5F }) else { return }
      cells.setASCII(utf8, column: column, row: row, foreground: foreground, bold: bold)
      // (Stopped short, as the loop below stops, at a character at or past the edge.)
      written = .some(utf8.isEmpty || column + utf8.count <= limit ? column + utf8.count : nil)
    }
    if case .some(let end) = written { return end }
    var c = column
    for raw in text.unicodeScalars {
      if c >= limit { return nil }
      let scalar = CellBuffer.isPrintable(raw) ? raw : "?"
      let width = scalarWidth(scalar)
      if width == 0 { continue }  // combining marks have no cell of their own
      if width == 2 && c + 1 >= limit { return nil }  // never half a wide glyph
      let cell = Cell(glyph: scalar, foreground: foreground, bold: bold)
      if c >= 0 { cells[c, row] = cell }
      if width == 2 {
        var second = cell
        second.glyph = Cell.continuation.glyph
        if c + 1 >= 0 { cells[c + 1, row] = second }
      }
      c += width
    }
    return c
  }

  /// One printable ASCII character as `put` writes it (clipped at the right edge); returns the
  /// next column.
  static func putASCII(
    _ byte: UInt8, column c: Int, row: Int, _ foreground: TermColor, _ bold: Bool,
    _ cells: inout CellBuffer
  ) -> Int {
    guard c < cells.columns else { return c }
    if c >= 0 {
      cells[c, row] = Cell(glyph: Unicode.Scalar(byte), foreground: foreground, bold: bold)
    }
    return c + 1
  }

}

extension MapView {
  /// The callout of the selected view, placed for this viewport (nil when none shows).
  func calloutLayout(_ vp: Viewport) -> CalloutBox? {
    guard isCalloutVisible, let s = annotationViews.selected,
      let v = annotationViews.visible[ObjectIdentifier(s)],
      let c = vp.cell(for: annotationIndex.point(of: s) ?? v.layoutPoint)
    else { return nil }
    let mc = c.column + v.centerOffset.columns
    let mr = c.row + v.centerOffset.rows
    let textWidth = min(CalloutBox.maximumTextWidth, vp.columns - 6)
    guard textWidth >= 4, vp.rows >= 3 else { return nil }
    var lines: [(String, Bool)] = []
    for t in CalloutBox.wrap(
      s.title ?? "", width: textWidth - (v.rightCalloutAccessory == nil ? 0 : 2))
    {
      lines.append((t, true))
    }
    if let sub = s.subtitle, !sub.isEmpty {
      for t in CalloutBox.wrap(sub, width: textWidth) { lines.append((t, false)) }
    }
    for d in s.detailLines where !d.isEmpty {
      for t in CalloutBox.wrap(d, width: textWidth) { lines.append((t, false)) }
    }
    let used = lines.map { CellBuffer.displayWidth(of: $0.0) }.max() ?? 0
    let width = min(max(used, 4) + 4 + (v.rightCalloutAccessory == nil ? 0 : 2), vp.columns)
    var box = CalloutBox(
      column: 0, row: 0, width: width, height: 0, lines: [],
      accessory: v.rightCalloutAccessory?.symbol,
      color: v.color)
    let maxLines = vp.rows - 2
    let offset = v.calloutOffset
    if mc + 2 + width <= vp.columns || mc - 1 - width >= 0 {
      // Beside the marker: right if it fits, else left; rows kept on screen.
      box.lines = Array(lines.prefix(maxLines))
      box.height = box.lines.count + 2
      box.column = mc + 2 + width <= vp.columns ? mc + 2 : mc - 1 - width
      box.row = min(max(mr - 1 + offset.rows, 0), vp.rows - box.height)
      box.column = min(max(box.column + offset.columns, 0), vp.columns - width)
      if box.column <= mc && mc < box.column + width {
        box.column = mc + 2 + width <= vp.columns ? mc + 2 : mc - 1 - width
      }
    } else {
      // Too narrow beside it: below the marker if there is more room there, else above.
      let below = vp.rows - mr - 1
      let above = mr
      let room = max(below, above)
      guard room >= 3 else { return nil }
      box.lines = Array(lines.prefix(room - 2))
      box.height = box.lines.count + 2
      box.row = below >= above ? mr + 1 : mr - box.height
      box.column = min(max(mc - width / 2, 0), vp.columns - width)
    }
    return box
  }
}
