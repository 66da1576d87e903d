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

  @Test("2-bit palette PNG with a tRNS entry")
  func palette() throws {
    let im = try Fixture.image("palette.png")
    #expect(im.width == 4 && im.height == 2)
    let entries = [
      RGBA(r: 255, g: 0, b: 0), RGBA(r: 0, g: 255, b: 0), RGBA(r: 0, g: 0, b: 255),
      RGBA(r: 10, g: 20, b: 30, a: 128),
    ]
    for x in 0..<4 {
      #expect(im[x, 0] == entries[x])
      #expect(im[x, 1] == entries[3 - x])
    }
  }

  @Test("8-bit RGBA PNG keeps straight alpha")
  func rgba() throws {
    let im = try Fixture.image("rgba.png")
    #expect(im[0, 0] == RGBA(r: 255, g: 0, b: 0, a: 255))
    #expect(im[1, 0] == RGBA(r: 0, g: 255, b: 0, a: 128))
    #expect(im[0, 1].a == 0)
    #expect(im[1, 1] == RGBA(r: 200, g: 100, b: 50, a: 255))
  }

  @Test("16-bit RGB PNG is reduced to 8 bits")
  func rgb16() throws {
    let im = try Fixture.image("rgb16.png")
    #expect(im.width == 2 && im.height == 1)
    // 8-bit value = round(v × 255 / 65535), as sRGB (no gAMA chunk, no linear-light change).
    #expect(im[0, 0] == RGBA(r: 0x12, g: 0x80, b: 0xFF))
    #expect(im[1, 0] == RGBA(r: 0x00, g: 0x01, b: 0xFE))
  }

  @Test("JPEG blocks decode to their colours (within JPEG's error)")
  func jpeg() throws {
    let im = try Fixture.image("blocks.jpg")
    #expect(im.width == 32 && im.height == 16)
    func close(_ p: RGBA, _ r: Int, _ g: Int, _ b: Int) -> Bool {
      abs(Int(p.r) - r) <= 4 && abs(Int(p.g) - g) <= 4 && abs(Int(p.b) - b) <= 4 && p.a == 255
    }
    // Away from the blocks' shared edge, where chroma upsampling blends them.
    for (x, y) in [(0, 0), (7, 7), (12, 15), (3, 12)] {
      #expect(close(im[x, y], 200, 40, 40), "\(im[x, y])")
    }
    for (x, y) in [(20, 0), (24, 8), (31, 15)] {
      #expect(close(im[x, y], 128, 128, 128), "\(im[x, y])")
    }
  }

  @Test("The map fixtures decode at their sizes")
  func mapTiles() throws {
    for name in Fixture.mapTiles {
      let im = try Fixture.image(name)
      let size = name.contains("@2x") ? 512 : 256
      #expect(im.width == size && im.height == size, "\(name)")
    }
  }
}
