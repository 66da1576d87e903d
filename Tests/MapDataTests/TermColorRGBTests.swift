import DotRaster
import Testing

@testable import MapData

@Suite struct TermColorRGBTests {
  @Test func exactPaletteColoursMapToThemselves() {
    for index in 16...255 {
      let (r, g, b) = TermColor(UInt8(index)).rgb
      let nearest = TermColor(nearestTo: r, g: g, b: b)
      #expect(nearest.rgb == (r, g, b) ? true : false, "index \(index)")
    }
    #expect(TermColor(nearestTo: 255, g: 0, b: 0) == .cube(5, 0, 0))
    #expect(TermColor(nearestTo: 0, g: 0, b: 0) == .cube(0, 0, 0))
    #expect(TermColor(nearestTo: 128, g: 128, b: 128) == TermColor(244))
    #expect(TermColor(nearestTo: 300, g: -5, b: 0) == .cube(5, 0, 0))
  }

  @Test func cssAndKMLColours() {
    #expect(ColorText.css("#f00") == .cube(5, 0, 0))
    #expect(ColorText.css("FF0000") == .cube(5, 0, 0))
    #expect(ColorText.css(" red ") == .cube(5, 0, 0))
    #expect(ColorText.css("#12345") == nil)
    #expect(ColorText.css("#gg0000") == nil)
    #expect(ColorText.css("-12") == nil)
    let kml = ColorText.kml("7f00ff00")
    #expect(kml?.0 == .cube(0, 5, 0))
    #expect(abs((kml?.1 ?? 0) - 127.0 / 255) < 1e-12)
    #expect(ColorText.kml("ff00ff") == nil)
  }
}
