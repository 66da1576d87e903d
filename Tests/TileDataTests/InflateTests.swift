import Foundation
import Testing

@testable import TileData

@Suite struct InflateTests {
  @Test func sniffsCompression() throws {
    #expect(Inflate.compression(of: try Repo.storedTile("world-0-0-0")) == .gzip)
    #expect(Inflate.compression(of: Data([0x78, 0x9c, 0x03, 0x00])) == .zlib)
    #expect(Inflate.compression(of: Data([0x1a, 0x05])) == .none)
    #expect(Inflate.compression(of: Data([0x1f])) == .none)
    #expect(Inflate.compression(of: Data()) == .none)
  }

  @Test func rawDataPassesThrough() throws {
    let raw = try Inflate.decompress(try Repo.storedTile("world-6-33-23"))
    #expect(try Inflate.decompressIfNeeded(raw) == raw)
  }

  @Test func inflatesGzipAndZlib() throws {
    // "hello hello hello" compressed by Python's zlib.compress and gzip.compress(mtime=0).
    let zlib: [UInt8] = [
      0x78, 0x9c, 0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x57, 0xc8, 0x40, 0x90, 0x00, 0x3a, 0x2e, 0x06,
      0x7d,
    ]
    let gzip: [UInt8] = [
      0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xcb, 0x48, 0xcd, 0xc9, 0xc9,
      0x57,
      0xc8, 0x40, 0x90, 0x00, 0x80, 0x88, 0xf9, 0xe5, 0x11, 0x00, 0x00, 0x00,
    ]
    let hello = Data("hello hello hello".utf8)
    #expect(try Inflate.decompress(Data(zlib)) == hello)
    #expect(try Inflate.decompress(Data(gzip)) == hello)
    // Concatenated gzip members are one gzip file.
    #expect(try Inflate.decompress(Data(gzip + gzip)) == hello + hello)
    // A Data slice that does not start at index 0.
    let padded = Data([0, 0] + gzip)
    #expect(try Inflate.decompressIfNeeded(padded[2...]) == hello)
  }

  @Test func truncatedGzipIsReported() throws {
    let stored = try Repo.storedTile("world-0-0-0")
    #expect(throws: InflateError.truncated(inputBytes: 1000)) {
      try Inflate.decompress(stored.prefix(1000))
    }
    #expect(throws: InflateError.truncated(inputBytes: stored.count - 4)) {
      try Inflate.decompress(stored.prefix(stored.count - 4))
    }
    let message = errorText { _ = try VectorTileDecoder.decodeCompressed(stored.prefix(500)) }
    #expect(message == "compressed data ends early (after 500 bytes)")
  }

  @Test func corruptGzipIsReported() throws {
    var bytes = [UInt8](try Repo.storedTile("world-0-0-0"))
    bytes[bytes.count - 6] ^= 0xff  // inside the CRC-32
    let e = errorText { _ = try Inflate.decompress(Data(bytes)) }
    #expect(e == "corrupt compressed data: incorrect data check")
    let header = errorText {
      _ = try Inflate.decompress(Data([0x1f, 0x8b, 0x07, 0, 0, 0, 0, 0, 0, 0, 0]))
    }
    #expect(header?.hasPrefix("corrupt compressed data:") == true)
  }

  @Test func sizeLimit() throws {
    let stored = try Repo.storedTile("world-0-0-0")
    #expect(throws: InflateError.tooLarge(limit: 10_000)) {
      try Inflate.decompress(stored, limit: 10_000)
    }
    #expect(try Inflate.decompress(stored, limit: 42_352).count == 42_352, "exactly at the limit")
    #expect(throws: InflateError.tooLarge(limit: 42_351)) {
      try Inflate.decompress(stored, limit: 42_351)
    }
  }
}
