import Foundation
import RasterTiles
import Testing

/// A small deterministic generator (SplitMix64), so the fuzz loop is the same on every run.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

@Suite("Decoding errors: truncated, corrupt, oversized, unsupported")
struct DecodeErrorTests {
  /// The error `decode` throws, or nil when it succeeds.
  static func error(_ data: Data, maxDimension: Int = RasterImage.defaultMaxDimension)
    -> RasterDecodingError?
  {
    do {
      _ = try RasterImage.decode(data, maxDimension: maxDimension)
      return nil
    } catch {
      return error
    }
  }

  /// A PNG of the given size whose image data is a stub: a signature, an IHDR, a short IDAT
  /// and an IEND, all with valid CRCs (libpng reads up to the first IDAT before it reports the
  /// size).
  static func pngHeader(width: UInt32, height: UInt32) -> Data {
    var ihdr = Data()
    for v in [width, height] { withUnsafeBytes(of: v.bigEndian) { ihdr.append(contentsOf: $0) } }
    ihdr.append(contentsOf: [8, 6, 0, 0, 0])
    var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    png.append(chunk("IHDR", ihdr))
    png.append(chunk("IDAT", Data([0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])))
    png.append(chunk("IEND", Data()))
    return png
  }

  static func chunk(_ kind: String, _ body: Data) -> Data {
    var out = Data()
    withUnsafeBytes(of: UInt32(body.count).bigEndian) { out.append(contentsOf: $0) }
    let typed = Data(kind.utf8) + body
    out.append(typed)
    withUnsafeBytes(of: crc32(typed).bigEndian) { out.append(contentsOf: $0) }
    return out
  }

  static func crc32(_ data: Data) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for byte in data {
      c ^= UInt32(byte)
      for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    }
    return ~c
  }

  @Test("Unknown, empty, WebP and GIF data give clear errors")
  func unsupported() {
    #expect(Self.error(Data()) == .unrecognized)
    #expect(Self.error(Data("hello, world".utf8)) == .unrecognized)
    let webp = Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)
    #expect(Self.error(webp) == .unsupported(.webp))
    #expect(Self.error(webp)?.description == "WEBP images are not supported")
    #expect(Self.error(Data("GIF89a".utf8)) == .unsupported(.gif))
  }

  @Test("Oversized images are refused from the header")
  func oversized() throws {
    let big = Self.pngHeader(width: 5000, height: 16)
    #expect(Self.error(big) == .tooLarge(width: 5000, height: 16, limit: 4096))
    #expect(
      Self.error(big)?.description == "image of 5000×16 pixels is larger than 4096×4096")
    let geometry = try Fixture.data("geometry.png")
    #expect(
      Self.error(geometry, maxDimension: 100) == .tooLarge(width: 256, height: 256, limit: 100))
    // A JPEG whose frame header says 5000 lines: patch SOF0's height.
    var jpeg = try Fixture.data("blocks.jpg")
    let bytes = [UInt8](jpeg)
    let sof = try #require(
      (0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
    jpeg[sof + 5] = 0x13
    jpeg[sof + 6] = 0x88
    #expect(Self.error(jpeg) == .tooLarge(width: 32, height: 5000, limit: 4096))
    let tile = try Fixture.data("monaco-z16-34119-23895.jpg")
    #expect(Self.error(tile, maxDimension: 255) == .tooLarge(width: 256, height: 256, limit: 255))
  }

  @Test("Truncated PNG and JPEG are corrupt, with one-line messages")
  func truncated() throws {
    for name in ["monaco-z16-34119-23895.png", "monaco-z16-34119-23895.jpg", "geometry.png"] {
      let data = try Fixture.data(name)
      for cut in [data.count / 2, data.count - 20, 40] {
        let e = try #require(Self.error(data.prefix(cut)), "\(name) cut at \(cut)")
        guard case .corrupt = e else {
          Issue.record("\(name) cut at \(cut): \(e)")
          continue
        }
        #expect(!e.description.contains("\n"))
        #expect(e.description.hasPrefix("corrupt "))
      }
    }
  }

  @Test("A flipped byte in PNG image data is caught by its checksum")
  func corruptPNG() throws {
    var data = try Fixture.data("geometry.png")
    data[60] ^= 0x55
    let e = try #require(Self.error(data))
    guard case .corrupt(.png, let message) = e else {
      Issue.record("\(e)")
      return
    }
    #expect(!message.isEmpty)
  }

  @Test("Seeded fuzz: 3000 mutations of PNG and JPEG fixtures never crash")
  func fuzz() throws {
    var rng = SplitMix64(state: 0x7E57_AB1E)
    let seeds = try ["geometry.png", "palette.png", "rgba.png", "rgb16.png", "blocks.jpg"].map {
      try Fixture.data($0)
    }
    let tileJPEG = try Fixture.data("monaco-z16-34119-23895.jpg")
    var decoded = 0
    var refused = 0
    for round in 0..<3000 {
      var data = round % 20 == 19 ? tileJPEG : seeds[Int(rng.next() % UInt64(seeds.count))]
      let edits = 1 + Int(rng.next() % 4)
      for _ in 0..<edits {
        guard !data.isEmpty else { break }
        let at = data.startIndex + Int(rng.next() % UInt64(data.count))
        switch rng.next() % 5 {
        case 0: data[at] ^= UInt8(truncatingIfNeeded: 1 << (rng.next() % 8))
        case 1: data[at] = UInt8(truncatingIfNeeded: rng.next())
        case 2: data = data.prefix(upTo: at)
        case 3: data.insert(UInt8(truncatingIfNeeded: rng.next()), at: at)
        default:
          data.replaceSubrange(at..<min(at + 4, data.endIndex), with: [0xFF, 0xFF, 0xFF, 0x7F])
        }
      }
      do {
        let im = try RasterImage.decode(data, maxDimension: 1024)
        #expect(im.pixels.count == im.width * im.height * 4)
        decoded += 1
      } catch {
        #expect(!error.description.contains("\n"))
        refused += 1
      }
    }
    #expect(decoded + refused == 3000)
    print("fuzz: \(decoded) decoded, \(refused) refused")
  }
}

/// FuzzPNG's finding (issue 20): a chunk that claims more bytes than the tile holds.
@Suite("PNG chunk lengths")
struct PNGChunkLengthTests {
  @Test("A 44-byte PNG whose zTXt claims 1.9 GB is refused at once, naming the chunk and byte")
  func zTXtLengthPastTheEnd() throws {
    // At 8ab8a51 libpng took 1.9 GB and 10 s on it before failing (ASan build of the fuzzer).
    let data = try Fixture.data("ztxt-length-past-end.png")
    #expect(data.count == 44)
    let e = try #require(DecodeErrorTests.error(data))
    #expect(
      e.description
        == "corrupt PNG image: chunk zTXt at byte 33 claims 1933723988 bytes, but 3 are left")
  }

  @Test("Truncated headers and lengths are caught before libpng; complete files are not")
  func chunkWalk() throws {
    let png = try Fixture.data("geometry.png")
    // Cut inside the second chunk's header, and one byte short of the last chunk.
    #expect(
      DecodeErrorTests.error(png.prefix(40))?.description
        == "corrupt PNG image: the data ends inside the chunk header at byte 33")
    #expect(
      DecodeErrorTests.error(png.prefix(png.count - 1))?.description
        == "corrupt PNG image: the data ends inside the CRC of chunk IEND at byte \(png.count - 12)"
    )
    // Bytes after IEND are not looked at; every fixture still decodes.
    #expect(try RasterImage.decode(png + Data([1, 2, 3])).width == 256)
    for name in ["grey.png", "palette.png", "rgba.png", "rgb16.png", "monaco-z16-34119-23895.png"] {
      #expect(throws: Never.self) { try RasterImage.decode(try Fixture.data(name)) }
    }
  }
}
