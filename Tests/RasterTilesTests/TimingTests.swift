import DotRaster
import Foundation
import Testing

@Suite("Timing (prints figures)")
struct ZZVectorTiming {
  @Test("vector path: composite, paint, diff, ANSI")
  func vectorPath() {
    var tile = DotCanvas(width: 64, height: 64)
    for y in 0..<64 {
      for x in 0..<64 where (x * 7 + y * 3) % 5 == 0 {
        tile[x, y] = Ink(layer: 2, color: TermColor(UInt8((x + y) % 200 + 16)))
      }
    }
    let clock = ContinuousClock()
    var best = [Duration](repeating: .seconds(100), count: 4)
    var sink = 0
    for _ in 0..<30 {
      var canvas = DotCanvas(columns: 200, rows: 60)
      var t0 = clock.now
      for ty in stride(from: 0, to: 240, by: 64) {
        for tx in stride(from: 0, to: 400, by: 64) {
          canvas.composite(tile, atX: tx, y: ty, layerBase: 3)
        }
      }
      var t1 = clock.now
      best[0] = min(best[0], t1 - t0)
      t0 = clock.now
      let cells = canvas.cells(charset: .braille)
      t1 = clock.now
      best[1] = min(best[1], t1 - t0)
      var other = cells
      other[5, 5] = Cell(glyph: "x")
      t0 = clock.now
      sink &+= cells.changes(from: other).count + cells.changes(from: nil).count
      t1 = clock.now
      best[2] = min(best[2], t1 - t0)
      t0 = clock.now
      sink &+= cells.ansiLines(colors: .palette256).count
      t1 = clock.now
      best[3] = min(best[3], t1 - t0)
    }
    print(
      "VECTOR-TIMING composite \(best[0]) paint \(best[1]) diff \(best[2]) ansi \(best[3]) stride \(MemoryLayout<Cell>.stride) \(sink)"
    )
  }
}
