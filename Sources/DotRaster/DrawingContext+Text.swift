/// Where a run of text sits against the point it is drawn at.
public enum TextAlignment: Sendable, Equatable {
  /// The text begins in the point's cell.
  case left
  /// The text is centred on the point's cell (as the map's labels are).
  case center
  /// The text ends in the point's cell.
  case right
}

/// A short text a renderer drew, in whole cells: sanitised, cut to
/// `DrawingContext.maximumTextLength` columns, anchored at the dot of the point it was drawn
/// at.
///
/// Text occupies whole cells, so a canvas keeps it beside its dots rather than in them; the
/// cell compositor (`CellCanvas`) carries it along with the dots and writes it over them when
/// the canvas becomes glyphs.
public struct TextRun: Sendable, Equatable {
  /// The text as cells show it (printable, cut to the maximum length).
  public let text: String
  /// Its width in columns.
  public let width: Int
  /// The dot the text was drawn at, on its canvas's dot grid.
  public var anchorX: Int
  /// The dot row the text was drawn at.
  public var anchorY: Int
  /// The first column relative to the anchor's cell (0, minus half the width, or minus the
  /// width less one).
  public let columnOffset: Int
  /// The text's colour.
  public let color: TermColor
  /// Whether the text is bold.
  public let bold: Bool
  /// The ink layer the text lies on: ink of a higher layer in a cell hides the text's
  /// character there.
  public var layer: UInt32

  /// The cell column of the anchor.
  public var anchorColumn: Int { Self.floorDiv(anchorX, CellGeometry.dotsWide) }
  /// The cell row of the anchor (the text's row).
  public var row: Int { Self.floorDiv(anchorY, CellGeometry.dotsHigh) }
  /// The text's first column.
  public var column: Int { anchorColumn + columnOffset }

  static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
}

extension DrawingContext {
  /// Longest text `drawText` draws, in columns (longer text ends in "…"); the same as the
  /// map's labels.
  public static let maximumTextLength = 30

  /// Draws a short text at a user-space point, in whole cells on the point's cell row: it
  /// begins in, is centred on, or ends in the point's cell (`alignment`). The text is
  /// sanitised (control characters and bidi overrides dropped) and cut to
  /// ``maximumTextLength`` columns. It lies on ``markLayer``, above the context's fills and
  /// strokes; in a cell, ink of a higher layer hides its character there.
  ///
  /// The text belongs to the tile holding its point: it is kept only when the point's dot is
  /// inside the clip, so a renderer drawing tile by tile may draw the same text in every tile
  /// it touches and it shows once, whole, even where it reaches into the next tile. Colour:
  /// `color`, else the stroke colour; with neither, nothing is drawn.
  public func drawText(
    _ text: String, at point: Point2D, color: TermColor? = nil,
    alignment: TextAlignment = .center, bold: Bool = false
  ) {
    guard let c = color ?? state.strokeColor else { return }
    let d = state.transform.apply(point)
    guard d.x.isFinite, d.y.isFinite, abs(d.x) < 1e9, abs(d.y) < 1e9 else { return }
    let x = Int(d.x.rounded(.down))
    let y = Int(d.y.rounded(.down))
    let clip = state.clip
    guard x >= clip.minX && x < clip.maxX && y >= clip.minY && y < clip.maxY else { return }
    let shown = CellBuffer.truncated(
      String(String.UnicodeScalarView(text.unicodeScalars.filter(CellBuffer.isPrintable))),
      width: Self.maximumTextLength)
    let width = CellBuffer.displayWidth(of: shown)
    guard width > 0 else { return }
    let offset: Int
    switch alignment {
    case .left: offset = 0
    case .center: offset = -(width / 2)
    case .right: offset = 1 - width
    }
    textRuns.append(
      TextRun(
        text: shown, width: width, anchorX: x, anchorY: y, columnOffset: offset, color: c,
        bold: bold, layer: Self.markLayer))
  }
}
