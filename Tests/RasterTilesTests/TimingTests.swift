import DotRaster
import Foundation
import RasterTiles
import Testing

/// Prints figures for docs/raster.md; asserts nothing about time. Runs only with
/// `TERMMAP_TIMING=1` (in debug builds it would only slow the suite down), alone and in
/// release for meaningful numbers:
/// `TERMMAP_TIMING=1 swift test -c release -Xswiftc -enable-testing --filter
/// RasterTilesTests.TimingTests`.
@Suite(
  "Timing (prints figures)",
  .enabled(if: ProcessInfo.processInfo.environment["TERMMAP_TIMING"] == "1"))
struct TimingTests {
  /// The best of `rounds` runs of `body`, in milliseconds.
  static func best(_ rounds: Int = 20, _ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    var best = Duration.seconds(1000)
    for _ in 0..<rounds {
      let t0 = clock.now
      try body()
      best = min(best, clock.now - t0)
    }
    let (s, atto) = best.components
    return Double(s) * 1000 + Double(atto) / 1e15
  }

  static func ms(_ v: Double) -> String { String(format: "%.3f ms", v) }

  @Test("Raster tiles: decode, dots, half blocks, cells and ANSI")
  func raster() throws {
    for name in Fixture.mapTiles {
      let data = try Fixture.data(name)
      let im = try RasterImage.decode(data)
      let decode = try Self.best { _ = try RasterImage.decode(data) }
      var line = "RASTER-TIMING \(name): decode \(Self.ms(decode))"
      for method in RasterDotMethod.allCases {
        let t = Self.best {
          var c = DotCanvas(width: 256, height: 256)
          im.drawDots(
            into: &c, mapping: .whole(im, x: 0, y: 0, width: 256, height: 256),
            options: RasterDotOptions(method: method))
        }
        line += ", \(method.rawValue) 256² dots \(Self.ms(t))"
      }
      let down = Self.best {
        var c = DotCanvas(width: 128, height: 128)
        im.drawDots(into: &c, mapping: .whole(im, x: 0, y: 0, width: 128, height: 128))
      }
      line += ", hybrid 128² dots \(Self.ms(down))"
      let half = Self.best {
        var b = CellBuffer(columns: 128, rows: 64)
        im.drawHalfBlocks(into: &b, mapping: .whole(im, x: 0, y: 0, width: 128, height: 64))
      }
      line += ", half blocks 128×64 cells \(Self.ms(half))"
      print(line)
    }
    let im = try Fixture.image(Fixture.mapTiles[0])
    var canvas = DotCanvas(width: 256, height: 256)
    im.drawDots(into: &canvas, mapping: .whole(im, x: 0, y: 0, width: 256, height: 256))
    let cells = Self.best { _ = canvas.cells(charset: .braille) }
    let buffer = canvas.cells(charset: .braille)
    let ansi256 = Self.best { _ = buffer.ansiLines(colors: .palette256) }
    let ansi24 = Self.best { _ = buffer.ansiLines(colors: .truecolor) }
    let bytes256 = buffer.ansiLines(colors: .palette256).reduce(0) { $0 + $1.utf8.count }
    let bytes24 = buffer.ansiLines(colors: .truecolor).reduce(0) { $0 + $1.utf8.count }
    print(
      "RASTER-TIMING 128×64 cells of braille: cells \(Self.ms(cells)), ANSI 256 \(Self.ms(ansi256)) "
        + "(\(bytes256) bytes), ANSI truecolor \(Self.ms(ansi24)) (\(bytes24) bytes)")
  }

  @Test("Vector path: composite, paint, diff, ANSI (canvases without 24-bit colour)")
  func vectorPath() {
    var tile = DotCanvas(width: 64, height: 64)
    for y in 0..<64 {
      for x in 0..<64 where (x * 7 + y * 3) % 5 == 0 {
        tile[x, y] = Ink(layer: 2, color: TermColor(UInt8((x + y) % 200 + 16)))
      }
    }
    var canvas = DotCanvas(columns: 200, rows: 60)
    let composite = Self.best(30) {
      canvas = DotCanvas(columns: 200, rows: 60)
      for ty in stride(from: 0, to: 240, by: 64) {
        for tx in stride(from: 0, to: 400, by: 64) {
          canvas.composite(tile, atX: tx, y: ty, layerBase: 3)
        }
      }
    }
    let paint = Self.best(30) { _ = canvas.cells(charset: .braille) }
    let cells = canvas.cells(charset: .braille)
    var other = cells
    other[5, 5] = Cell(glyph: "x")
    let diff = Self.best(30) {
      _ = cells.changes(from: other).count + cells.changes(from: nil).count
    }
    let ansi = Self.best(30) { _ = cells.ansiLines(colors: .palette256) }
    print(
      "VECTOR-TIMING 200×60 cells: composite \(Self.ms(composite)), paint \(Self.ms(paint)), "
        + "diff \(Self.ms(diff)), ANSI \(Self.ms(ansi)), Cell stride \(MemoryLayout<Cell>.stride)")
  }
}
