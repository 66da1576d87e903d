import Testing

@testable import DotRaster

/// A dot position, for comparing sets of inked dots.
struct Dot: Hashable, CustomStringConvertible {
  let x: Int
  let y: Int
  init(_ x: Int, _ y: Int) {
    self.x = x
    self.y = y
  }
  var description: String { "(\(x),\(y))" }
}

extension DotCanvas {
  /// Every inked dot.
  var inkedDots: Set<Dot> {
    var out = Set<Dot>()
    for y in 0..<height {
      for x in 0..<width where !self[x, y].isEmpty { out.insert(Dot(x, y)) }
    }
    return out
  }

  /// How many dots are inked.
  var inkedCount: Int { dots.filter { !$0.isEmpty }.count }
}

/// A fresh context on a blank canvas, stroking white one dot wide.
func makeContext(width: Int, height: Int) -> DrawingContext {
  let c = DrawingContext(canvas: DotCanvas(width: width, height: height))
  c.strokeColor = .white
  c.lineWidth = 1
  return c
}

/// The dots a horizontal run covers.
func row(_ y: Int, _ xs: some Sequence<Int>) -> Set<Dot> { Set(xs.map { Dot($0, y) }) }

/// The dots a vertical run covers.
func column(_ x: Int, _ ys: some Sequence<Int>) -> Set<Dot> { Set(ys.map { Dot(x, $0) }) }
