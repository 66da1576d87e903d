import Foundation
import RasterTiles
import Testing

/// Progressive JPEGs and the scan limit (issue 20): a valid file can repeat full-precision AC
/// scans as often as it likes, and libjpeg walks every block of the image in each one.
@Suite("Progressive JPEG: the scan limit")
struct ProgressiveScanTests {
  /// Bits into entropy-coded bytes: padded with 1 bits, 0xFF stuffed with 0x00.
  struct BitWriter {
    var bytes = [UInt8]()
    var current: UInt32 = 0
    var count = 0

    mutating func put(_ value: UInt32, bits n: Int) {
      for i in stride(from: n - 1, through: 0, by: -1) {
        current = current << 1 | (value >> UInt32(i) & 1)
        count += 1
        if count == 8 { flushByte() }
      }
    }

    private mutating func flushByte() {
      let b = UInt8(current & 0xFF)
      bytes.append(b)
      if b == 0xFF { bytes.append(0) }
      current = 0
      count = 0
    }

    mutating func finish() -> [UInt8] {
      while count != 0 { put(1, bits: 1) }
      return bytes
    }
  }

  static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
    let length = body.count + 2
    return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + body
  }

  /// A grey progressive JPEG (SOF2) of `size`×`size` pixels (a multiple of 8):
  /// a DC scan, then `acScans` scans of the AC band 1…63 at full precision, each one
  /// end-of-band run over every block (about 30 bytes for a 4096 px image). Every scan is
  /// one libjpeg accepts without a warning; the image is uniform grey 128. Also returns where
  /// each scan's header ends.
  static func progressive(size: Int, acScans: Int) -> (data: Data, scanEnds: [Int]) {
    var out: [UInt8] = [0xFF, 0xD8]
    out += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
    out += segment(
      0xC2,
      [
        8, UInt8(size >> 8), UInt8(size & 0xFF), UInt8(size >> 8), UInt8(size & 0xFF), 1, 1, 0x11,
        0,
      ])
    // DC table 0: one code, "0", for difference category 0.
    out += segment(0xC4, [0x00, 1] + [UInt8](repeating: 0, count: 15) + [0x00])
    // AC table 0: EOB0 … EOB14 (a run of 2^r + r bits) with the 4-bit codes 0 … 14.
    out += segment(
      0xC4,
      [0x10, 0, 0, 0, 15] + [UInt8](repeating: 0, count: 12) + (0...14).map { UInt8($0 << 4) })
    let blocks = (size / 8) * (size / 8)
    var scanEnds = [Int]()
    out += segment(0xDA, [1, 1, 0x00, 0, 0, 0x00])
    scanEnds.append(out.count)
    out += [UInt8](repeating: 0, count: blocks / 8)
    var bits = BitWriter()
    var left = blocks
    while left > 0 {
      let r = min(14, Int.bitWidth - 1 - left.leadingZeroBitCount)
      let run = min(left, (1 << (r + 1)) - 1)
      bits.put(UInt32(r), bits: 4)
      bits.put(UInt32(run - (1 << r)), bits: r)
      left -= run
    }
    let acData = bits.finish()
    let acHeader = segment(0xDA, [1, 1, 0x00, 1, 63, 0x00])
    out.reserveCapacity(out.count + acScans * (acHeader.count + acData.count) + 2)
    for _ in 0..<acScans {
      out += acHeader
      scanEnds.append(out.count)
      out += acData
    }
    out += [0xFF, 0xD9]
    return (Data(out), scanEnds)
  }

  @Test("150,000 scans: refused as corrupt at the 101st, naming where it starts")
  func tooManyScans() throws {
    // At 8ab8a51 this file decoded, after about 200 s of CPU (1,000 scans: 1.4 s in djpeg).
    let (data, ends) = Self.progressive(size: 4096, acScans: 149_999)
    #expect(ends.count == 150_000)
    #expect(data.count < 6_000_000)
    let error = DecodeErrorTests.error(data)
    #expect(
      error
        == .corrupt(
          .jpeg,
          "progressive JPEG with more than 100 scans (scan 101 starts before byte \(ends[100]))"
        ))
    #expect(
      error?.description
        == "corrupt JPEG image: progressive JPEG with more than 100 scans (scan 101 starts before byte \(ends[100]))"
    )
  }

  @Test("Up to 100 scans decode; 101 do not")
  func limitIsOneHundred() throws {
    for (scans, size) in [(12, 256), (100, 256), (100, 1024)] {
      let (data, ends) = Self.progressive(size: size, acScans: scans - 1)
      #expect(ends.count == scans)
      let image = try RasterImage.decode(data)
      #expect(image.width == size && image.height == size)
      #expect(image[size / 2, size / 2] == RGBA(r: 128, g: 128, b: 128, a: 255))
    }
    let (data, _) = Self.progressive(size: 256, acScans: 100)
    guard case .corrupt(.jpeg, let message) = DecodeErrorTests.error(data) else {
      Issue.record("101 scans decoded")
      return
    }
    #expect(message.hasPrefix("progressive JPEG with more than 100 scans (scan 101"))
  }

  @Test("A real progressive tile (10 scans, jpegtran -progressive) decodes like its baseline")
  func realProgressiveTile() throws {
    let progressive = try Fixture.data("monaco-z16-34119-23895-progressive.jpg")
    let bytes = [UInt8](progressive)
    #expect(bytes.contains(0xC2))
    let scans = (0..<bytes.count - 1).filter { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xDA }
    #expect(scans.count == 10)
    let image = try RasterImage.decode(progressive)
    let baseline = try RasterImage.decode(try Fixture.data("monaco-z16-34119-23895.jpg"))
    #expect(image.width == 256 && image.height == 256)
    // jpegtran rewrites the same coefficients: the pixels are the baseline file's.
    #expect(image.pixels == baseline.pixels)
  }
}
