import Foundation
import LoopbackHTTPServer
import RegionFixtures
import Testing

@testable import TileData

/// Repository files, found from this source file (repo root = three levels up).
enum Repo {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let data = root.appendingPathComponent("Data")
  static let expected = data.appendingPathComponent("tools/expected")
  /// The offline world as MBTiles: made from `Data/world.pmtiles` on first use.
  static var worldMBTiles: String { WorldMBTiles.path }
  static var monacoMBTiles: String { data.appendingPathComponent("monaco.mbtiles").path }

  /// The stored (gzip) bytes of an expected tile, e.g. "world-0-0-0".
  static func storedTile(_ name: String) throws -> Data {
    try Data(contentsOf: expected.appendingPathComponent(name + ".mvt.gz"))
  }

  /// The expectation JSON beside it.
  static func expectation(_ name: String) throws -> [String: Any] {
    let data = try Data(contentsOf: expected.appendingPathComponent(name + ".json"))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  static let expectedTiles = ["world-0-0-0", "world-6-33-23", "monaco-14-8529-5973"]
}

/// A fresh temporary directory, removed by the caller with `cleanUp`.
struct TemporaryDirectory {
  let url: URL
  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tiledata-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
  var path: String { url.path }
  func file(_ name: String) -> URL { url.appendingPathComponent(name) }
  func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

/// Values of a hand-made layer.
enum TestValue {
  case string(String), float(Float), double(Double), int(Int64), uint(UInt64), sint(Int64), bool(
    Bool)

  var encoded: [UInt8] {
    var w = ProtoWriter()
    switch self {
    case .string(let s): w.stringField(1, s)
    case .float(let f): w.fixed32Field(2, f.bitPattern)
    case .double(let d): w.fixed64Field(3, d.bitPattern)
    case .int(let i): w.varintField(4, UInt64(bitPattern: i))
    case .uint(let u): w.varintField(5, u)
    case .sint(let s): w.varintField(6, UInt64(bitPattern: (s << 1) ^ (s >> 63)))
    case .bool(let b): w.varintField(7, b ? 1 : 0)
    }
    return w.bytes
  }
}

struct TestFeature {
  var id: UInt64? = nil
  var tags: [UInt32] = []
  var type: UInt64? = 1
  var geometry: [UInt32] = []

  var encoded: [UInt8] {
    var w = ProtoWriter()
    if let id { w.varintField(1, id) }
    if !tags.isEmpty { w.packedField(2, tags) }
    if let type { w.varintField(3, type) }
    w.packedField(4, geometry)
    return w.bytes
  }
}

struct TestLayer {
  var name: String? = "test"
  var version: UInt64? = 2
  var extent: UInt64? = nil
  var keys: [String] = []
  var values: [TestValue] = []
  var features: [TestFeature] = []

  var encoded: [UInt8] {
    var w = ProtoWriter()
    if let version { w.varintField(15, version) }
    if let name { w.stringField(1, name) }
    for f in features { w.bytesField(2, f.encoded) }
    for k in keys { w.stringField(3, k) }
    for v in values { w.bytesField(4, v.encoded) }
    if let extent { w.varintField(5, extent) }
    return w.bytes
  }
}

func encodeTile(_ layers: [TestLayer]) -> Data {
  var w = ProtoWriter()
  for l in layers { w.bytesField(3, l.encoded) }
  return Data(w.bytes)
}

/// Zig-zag encodes a geometry parameter.
func zz(_ v: Int32) -> UInt32 { UInt32(bitPattern: (v << 1) ^ (v >> 31)) }
/// A command integer.
func cmd(_ id: UInt32, _ count: UInt32) -> UInt32 { (id & 7) | (count << 3) }

/// Decodes a one-layer hand-made tile and returns the layer.
func decodeSingleLayer(_ layer: TestLayer) throws -> VectorLayer {
  let tile = try VectorTileDecoder.decode(encodeTile([layer]))
  return try #require(tile.layers.first)
}

/// The description of the error thrown by `body`, or nil.
func errorText(_ body: () throws -> Void) -> String? {
  do {
    try body()
    return nil
  } catch {
    return String(describing: error)
  }
}
