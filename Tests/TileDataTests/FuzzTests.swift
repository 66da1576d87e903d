import Foundation
import RegionFixtures
import Testing

@testable import TileData

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9e37_79b9_7f4a_7c15
    var z = state
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}

/// Decoder and inflater on hostile input: random bytes, truncations and corruptions of the
/// real tiles. Every case must end with a tile or a thrown error (a trap or an endless loop
/// fails the run); decoded results are walked completely.
@Suite struct FuzzTests {
  /// Decodes and touches everything; returns whether it decoded.
  @discardableResult
  func exercise(_ bytes: Data) -> Bool {
    do {
      let tile = try VectorTileDecoder.decode(bytes)
      var sum = 0
      var boxesHold = true
      for layer in tile.layers {
        for f in layer {
          f.forEachProperty { k, v in sum &+= k.utf8.count &+ v.description.utf8.count }
          let box = f.boundingBox
          for i in 0..<f.partCount {
            for p in f.part(i).points {
              sum &+= Int(p.x) &+ Int(p.y)
              boxesHold = boxesHold && box.contains(p)
            }
          }
          sum &+= f.polygons.count
        }
      }
      #expect(boxesHold)
      return sum != 42 || true
    } catch {
      #expect(!error.description.isEmpty)
      return false
    }
  }

  @Test func randomBytes() {
    var rng = SplitMix64(seed: 0x7e11_da7a)
    var decoded = 0
    for _ in 0..<5000 {
      let n = Int.random(in: 0...600, using: &rng)
      let bytes = Data((0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) })
      if exercise(bytes) { decoded += 1 }
    }
    #expect(decoded > 0, "the empty input at least decodes")
  }

  /// Random bytes shaped like a tile: a layer message wrapped around random content, so the
  /// fuzz reaches feature and geometry decoding.
  @Test func randomLayers() {
    var rng = SplitMix64(seed: 42)
    var decoded = 0
    for _ in 0..<3000 {
      var feature = ProtoWriter()
      feature.varintField(3, UInt64.random(in: 0...4, using: &rng))
      let g = (0..<Int.random(in: 0...40, using: &rng)).map { _ in
        UInt32.random(in: 0...40, using: &rng)
      }
      feature.packedField(4, g)
      if Bool.random(using: &rng) { feature.packedField(2, [0, 0]) }
      var layer = ProtoWriter()
      layer.stringField(1, "fuzz")
      layer.varintField(15, 2)
      layer.bytesField(2, feature.bytes)
      layer.stringField(3, "k")
      layer.bytesField(4, TestValue.int(1).encoded)
      var tile = ProtoWriter()
      tile.bytesField(3, layer.bytes)
      if exercise(Data(tile.bytes)) { decoded += 1 }
    }
    #expect(decoded > 100)
    #expect(decoded < 3000)
  }

  @Test(arguments: Repo.expectedTiles)
  func truncationsAndCorruptionsOfRealTiles(_ name: String) throws {
    let stored = try Repo.storedTile(name)
    let raw = try Inflate.decompress(stored)
    var rng = SplitMix64(seed: UInt64(name.utf8.count) &* 7919)
    let bytes = [UInt8](raw)

    // Truncations: the first 64 lengths, then random ones.
    var lengths = Array(0..<min(64, bytes.count))
    lengths += (0..<300).map { _ in Int.random(in: 0..<bytes.count, using: &rng) }
    var decodedPrefixes = 0
    for n in lengths where exercise(Data(bytes[0..<n])) { decodedPrefixes += 1 }
    #expect(decodedPrefixes >= 1, "the empty prefix decodes")

    // Single-byte corruptions, then bursts of random bytes.
    for k in 0..<600 {
      var b = bytes
      if k < 400 {
        b[Int.random(in: 0..<b.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
      } else {
        let at = Int.random(in: 0..<b.count, using: &rng)
        for j in at..<min(b.count, at + Int.random(in: 1...16, using: &rng)) {
          b[j] = UInt8.random(in: 0...255, using: &rng)
        }
      }
      exercise(Data(b))
    }

    // Truncated and corrupted gzip: inflate must throw (or, for corruption zlib cannot see
    // before the checksum, still end).
    let gz = [UInt8](stored)
    for _ in 0..<200 {
      let n = Int.random(in: 0..<gz.count, using: &rng)
      #expect(throws: InflateError.self) { try Inflate.decompress(Data(gz[0..<n])) }
    }
    for _ in 0..<200 {
      var b = gz
      b[Int.random(in: 10..<b.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
      _ = try? VectorTileDecoder.decodeCompressed(Data(b))
    }
  }
}
