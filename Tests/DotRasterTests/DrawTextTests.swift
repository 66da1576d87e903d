import Testing

@testable import DotRaster

@Suite("Text in a drawing context")
struct DrawTextTests {
  /// A 20 × 3-cell canvas's frame after drawing with `body`.
  func frame(_ body: (DrawingContext) -> Void) -> [String] {
    let context = DrawingContext(canvas: DotCanvas(columns: 20, rows: 3))
    body(context)
    var cells = CellCanvas(context.takeCanvas())
    cells.addText(context.textRuns, atX: 0, y: 0, layerBase: 0)
    var buffer = CellBuffer(columns: 20, rows: 3)
    cells.paint(into: &buffer, charset: .braille)
    return buffer.lines
  }

  @Test("text is aligned on its point's cell, sanitised, and cut to 30 columns")
  func alignment() {
    let lines = frame { c in
      c.drawText("left", at: Point2D(x: 10.5, y: 1), alignment: .left)
      c.drawText("mid", at: Point2D(x: 20.5, y: 5))
      c.drawText("ri\u{1B}[31mght", at: Point2D(x: 30.5, y: 9), alignment: .right)
    }
    #expect(lines[0] == "     left           ")
    #expect(lines[1] == "         mid        ")
    #expect(lines[2] == "       ri[31mght    ")
    let long = DrawingContext(canvas: DotCanvas(columns: 80, rows: 1))
    long.drawText(String(repeating: "a", count: 50), at: Point2D(x: 80, y: 0))
    #expect(long.textRuns.first?.width == DrawingContext.maximumTextLength)
    #expect(long.textRuns.first?.text.hasSuffix("…") == true)
  }

  @Test("text whose point is outside the clip is not kept; nor without a colour")
  func clipped() {
    let context = DrawingContext(canvas: DotCanvas(columns: 20, rows: 3))
    context.clip(to: Rect2D(x: 0, y: 0, width: 20, height: 12))
    context.drawText("in", at: Point2D(x: 19.5, y: 3))
    context.drawText("out", at: Point2D(x: 20.5, y: 3))
    context.strokeColor = nil
    context.drawText("none", at: Point2D(x: 4, y: 3))
    #expect(context.textRuns.map(\.text) == ["in"])
  }

  @Test(
    "ink of a higher layer hides the characters of its cells; text runs off the edge are left out")
  func layers() {
    let lines = frame { c in
      c.drawText("abc", at: Point2D(x: 4, y: 1), alignment: .left)
      c.withCanvas { $0[6, 1] = Ink(layer: DrawingContext.markLayer + 1, color: .red) }
      c.drawText("edge", at: Point2D(x: 38, y: 1), alignment: .left)
    }
    #expect(lines[0] == "  a⠂c               ")
  }
}
