import DotRaster
import Foundation
import RasterTiles
import Testing

@Suite("Decoding PNG and JPEG")
struct DecodeTests {
  @Test("8-bit grey PNG")
  func grey() throws {
    let im = try Fixture.image("grey.png")
    #expect(im.width == 3 && im.height == 1)
    #expect(im[0, 0] == RGBA(r: 0, g: 0, b: 0))
    #expect(im[1, 0] == RGBA(r: 128, g: 128, b: 128))
    #expect(im[2, 0] == RGBA(r: 255, g: 255, b: 255))
  }
}
