import Foundation
import MapGeometry
import RegionFixtures
import Testing

@testable import TileData

/// The decoder on hand-made tiles: the spec's geometry examples, value types, defaults and
/// every kind of malformed input it reports.
@Suite struct DecoderTests {
  func geometryLayer(type: UInt64, _ geometry: [UInt32]) -> TestLayer {
    TestLayer(features: [TestFeature(type: type, geometry: geometry)])
  }

  @Test func emptyInputIsAnEmptyTile() throws {
    let tile = try VectorTileDecoder.decode(Data())
    #expect(tile.layers.isEmpty)
    #expect(tile.featureCount == 0)
  }

  @Test func specPoint() throws {
    // 4.3.5.1: [9 50 34] is the point (25, 17).
    let layer = try decodeSingleLayer(geometryLayer(type: 1, [9, 50, 34]))
    let f = layer[0]
    #expect(f.type == .point)
    #expect(f.partCount == 1)
    #expect(Array(f.part(0).points) == [TilePoint(x: 25, y: 17)])
    #expect(f.boundingBox == TileBox(minX: 25, minY: 17, maxX: 25, maxY: 17))
    #expect(layer.extent == 4096, "default extent")
    #expect(f.id == nil)
  }

  @Test func specMultiPoint() throws {
    // 4.3.5.2: [17 10 14 3 9] is (5, 7) and (3, 2), one part each.
    let f = try decodeSingleLayer(geometryLayer(type: 1, [17, 10, 14, 3, 9]))[0]
    #expect(f.parts.map { Array($0.points) } == [[TilePoint(x: 5, y: 7)], [TilePoint(x: 3, y: 2)]])
    #expect(f.parts.allSatisfy { $0.kind == .point })
  }

  @Test func specLineAndMultiLine() throws {
    let line = try decodeSingleLayer(geometryLayer(type: 2, [9, 4, 4, 18, 0, 16, 16, 0]))[0]
    #expect(line.type == .lineString)
    #expect(
      line.parts.map { Array($0.points) } == [
        [.init(x: 2, y: 2), .init(x: 2, y: 10), .init(x: 10, y: 10)]
      ])
    let multi = try decodeSingleLayer(
      geometryLayer(type: 2, [9, 4, 4, 18, 0, 16, 16, 0, 9, 17, 17, 10, 4, 8]))[0]
    #expect(
      multi.parts.map { Array($0.points) } == [
        [.init(x: 2, y: 2), .init(x: 2, y: 10), .init(x: 10, y: 10)],
        [.init(x: 1, y: 1), .init(x: 3, y: 5)],
      ])
    #expect(multi.parts.allSatisfy { $0.kind == .line })
    #expect(multi.boundingBox == TileBox(minX: 1, minY: 1, maxX: 10, maxY: 10))
  }

  @Test func specPolygon() throws {
    // 4.3.5.5: [9 6 12 18 10 12 24 44 15].
    let f = try decodeSingleLayer(geometryLayer(type: 3, [9, 6, 12, 18, 10, 12, 24, 44, 15]))[0]
    #expect(f.type == .polygon)
    #expect(f.partCount == 1)
    #expect(f.part(0).kind == .exteriorRing)
    #expect(
      Array(f.part(0).points) == [.init(x: 3, y: 6), .init(x: 8, y: 12), .init(x: 20, y: 34)])
    #expect(f.polygons == [0..<1])
  }

  @Test func specMultiPolygonWithHole() throws {
    // 4.3.5.6.
    let g: [UInt32] = [
      9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15,
      9, 22, 2, 26, 18, 0, 0, 18, 17, 0, 15,
      9, 4, 13, 26, 0, 8, 8, 0, 0, 7, 15,
    ]
    let f = try decodeSingleLayer(geometryLayer(type: 3, g))[0]
    #expect(f.parts.map(\.kind) == [.exteriorRing, .exteriorRing, .interiorRing])
    #expect(f.polygons == [0..<1, 1..<3])
    #expect(
      Array(f.part(2).points) == [
        .init(x: 13, y: 13), .init(x: 13, y: 17), .init(x: 17, y: 17), .init(x: 17, y: 13),
      ])
    #expect(f.part(0).doubleSignedArea == 200)
    #expect(f.part(2).doubleSignedArea == -32)
    #expect(f.boundingBox == TileBox(minX: 0, minY: 0, maxX: 20, maxY: 20))
  }

  @Test func reversedWindingFallsBackToTheFirstRing() throws {
    // Counter-clockwise outer ring (negative area), then a clockwise hole: a tile breaking the
    // winding rule (or a version 1 tile) still yields one polygon with one hole.
    let g: [UInt32] = [
      9, 0, 0, 26, 0, 20, 20, 0, 0, 19, 15,  // (0,0) (0,10) (10,10) (10,0): counter-clockwise
      9, 4, 5, 26, 4, 0, 0, 4, 3, 0, 15,  // (2,2) (4,2) (4,4) (2,4): clockwise
    ]
    let f = try decodeSingleLayer(geometryLayer(type: 3, g))[0]
    #expect(f.parts.map(\.kind) == [.exteriorRing, .interiorRing])
    #expect(f.polygons == [0..<2])
  }

  @Test func degenerateRingsAndRepeatedClosingPointsAreDropped() throws {
    let g: [UInt32] = [
      9, 0, 0, 34, 20, 0, 0, 20, 19, 0, 0, 19, 15,  // square with its first point repeated
      9, 2, 2, 18, 2, 0, 2, 0, 15,  // zero area (collinear): dropped
    ]
    let f = try decodeSingleLayer(geometryLayer(type: 3, g))[0]
    #expect(f.partCount == 1)
    #expect(f.part(0).points.count == 4)
  }

  @Test func valuesAndProperties() throws {
    let layer = TestLayer(
      name: "v", version: 2, extent: 512,
      keys: ["s", "f", "d", "i", "u", "z", "b", "neg"],
      values: [
        .string("Monaco"), .float(1.5), .double(-2.25), .int(-7), .uint(1 << 40), .sint(-3),
        .bool(true), .int(Int64.min),
      ],
      features: [
        TestFeature(
          id: 42, tags: [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7], type: 1,
          geometry: [9, 2, 2])
      ])
    let l = try decodeSingleLayer(layer)
    #expect(l.extent == 512)
    let f = l[0]
    #expect(f.id == 42)
    #expect(f["s"] == .string("Monaco"))
    #expect(f["f"] == .double(1.5))
    #expect(f["d"] == .double(-2.25))
    #expect(f["i"] == .int(-7))
    #expect(f["u"] == .uint(1 << 40))
    #expect(f["z"] == .int(-3))
    #expect(f["b"] == .bool(true))
    #expect(f["neg"] == .int(Int64.min))
    #expect(f["missing"] == nil)
    #expect(f.propertyCount == 8)
    #expect(f.properties.count == 8)
    #expect(f["s"]?.stringValue == "Monaco")
    #expect(f["u"]?.intValue == 1 << 40)
    #expect(f["f"]?.doubleValue == 1.5)
    let k = try #require(l.keyIndex(of: "i"))
    #expect(f.value(forKeyIndex: k) == .int(-7))
  }

  @Test func unknownGeometryTypesAreSkipped() throws {
    let layer = TestLayer(features: [
      TestFeature(type: 0, geometry: [9, 2, 2]), TestFeature(type: nil, geometry: [9, 2, 2]),
      TestFeature(type: 9, geometry: [9, 2, 2]), TestFeature(type: 1, geometry: [9, 4, 4]),
    ])
    let l = try decodeSingleLayer(layer)
    #expect(l.count == 1)
    #expect(l.skippedFeatureCount == 3)
    #expect(Array(l[0].part(0).points) == [TilePoint(x: 2, y: 2)])
  }

  @Test func layerFilterAndUnknownFieldsAndVersion1() throws {
    var a = TestLayer(name: "a", version: 1, features: [TestFeature(type: 1, geometry: [9, 2, 2])])
    a.keys = ["k"]
    let b = TestLayer(name: "b", features: [TestFeature(type: 1, geometry: [9, 2, 2])])
    var w = ProtoWriter()
    w.bytesField(3, a.encoded)
    w.varintField(7, 99)  // unknown tile field
    w.fixed64Field(20, 1)
    w.bytesField(3, b.encoded)
    let all = try VectorTileDecoder.decode(Data(w.bytes))
    #expect(all.layerNames == ["a", "b"])
    #expect(all.layer(named: "a")?.version == 1)
    let onlyB = try VectorTileDecoder.decode(Data(w.bytes), layers: ["b"])
    #expect(onlyB.layerNames == ["b"])
  }

  @Test func unpackedRepeatedFieldsAreAccepted() throws {
    // Protobuf parsers must accept repeated scalars written one by one.
    var f = ProtoWriter()
    f.varintField(3, 2)
    for v: UInt64 in [9, 4, 4, 10, 0, 16] { f.varintField(4, v) }
    f.varintField(2, 0)
    f.varintField(2, 0)
    var l = ProtoWriter()
    l.varintField(15, 2)
    l.stringField(1, "u")
    l.bytesField(2, f.bytes)
    l.stringField(3, "key")
    l.bytesField(4, TestValue.string("x").encoded)
    var t = ProtoWriter()
    t.bytesField(3, l.bytes)
    let layer = try #require(try VectorTileDecoder.decode(Data(t.bytes)).layers.first)
    #expect(Array(layer[0].part(0).points) == [.init(x: 2, y: 2), .init(x: 2, y: 10)])
    #expect(layer[0]["key"] == .string("x"))
  }

  @Test func splitPackedGeometryIsJoined() throws {
    // Two packed geometry fields concatenate (protobuf merges repeated fields).
    var f = ProtoWriter()
    f.varintField(3, 2)
    f.packedField(4, [9, 4, 4])
    f.packedField(4, [18, 0, 16, 16, 0])
    var l = ProtoWriter()
    l.stringField(1, "split")
    l.bytesField(2, f.bytes)
    var t = ProtoWriter()
    t.bytesField(3, l.bytes)
    let layer = try #require(try VectorTileDecoder.decode(Data(t.bytes)).layers.first)
    #expect(
      Array(layer[0].part(0).points) == [
        .init(x: 2, y: 2), .init(x: 2, y: 10), .init(x: 10, y: 10),
      ])
  }

  @Test func transformToMapPoints() throws {
    let id = TileID(z: 6, x: 33, y: 23)
    let t = TileTransform(tile: id, extent: 4096)
    let r = id.mapRect
    #expect(t.mapPoint(TilePoint(x: 0, y: 0)) == r.origin)
    #expect(t.mapPoint(TilePoint(x: 4096, y: 4096)) == MapPoint(x: r.maxX, y: r.maxY))
    let mid = t.mapPoint(TilePoint(x: 2048, y: 1024))
    #expect(mid.x == r.minX + r.width / 2)
    #expect(mid.y == r.minY + r.height / 4)
    let back = t.tileCoordinates(mid)
    #expect(back.x == 2048 && back.y == 1024)
    let box = TileBox(minX: -64, minY: 0, maxX: 4160, maxY: 2048)
    let mr = t.mapRect(box)
    #expect(mr.minX < r.minX && mr.maxX > r.maxX && mr.minY == r.minY && mr.midY < r.midY)
    #expect(t.tileBox(covering: r) == TileBox(minX: 0, minY: 0, maxX: 4096, maxY: 4096))
    #expect(t.mapRect(.empty).isNull)
  }

  // MARK: malformed input

  @Test func malformedInputGivesDescriptiveErrors() throws {
    func failure(_ layer: TestLayer) -> String? {
      errorText { _ = try VectorTileDecoder.decode(encodeTile([layer])) }
    }
    func geometryFailure(_ type: UInt64, _ g: [UInt32]) -> String? {
      failure(geometryLayer(type: type, g))
    }
    #expect(failure(TestLayer(name: nil))?.contains("layer has no name") == true)
    #expect(failure(TestLayer(version: 3))?.contains("unsupported layer version 3") == true)
    #expect(failure(TestLayer(extent: 0))?.contains("invalid extent 0") == true)
    var oddTags = geometryLayer(type: 1, [9, 2, 2])
    oddTags.keys = ["a"]
    oddTags.values = [.bool(true)]
    oddTags.features[0].tags = [0, 0, 0]
    #expect(failure(oddTags)?.contains("odd number of tags (3)") == true)
    oddTags.features[0].tags = [1, 0]
    #expect(failure(oddTags)?.contains("tag refers to key 1 but the layer has 1") == true)
    oddTags.features[0].tags = [0, 5]
    #expect(failure(oddTags)?.contains("tag refers to value 5") == true)

    #expect(
      geometryFailure(1, [9, 2])?.contains("MoveTo with count 1 ends inside point 1") == true
    )
    #expect(
      geometryFailure(2, [9, 2, 2, 42, 2, 2])?.contains(
        "LineTo with count 5 ends after 1 of its points")
        == true)
    #expect(
      geometryFailure(2, [9, 2, 2, cmd(2, (1 << 29) - 1), 2])?.contains("ends inside point 1")
        == true)
    #expect(geometryFailure(2, [10, 2, 2])?.contains("LineTo without a MoveTo") == true)
    #expect(
      geometryFailure(1, [9, 2, 2, 10, 2, 2])?.contains("LineTo in a point geometry") == true)
    #expect(
      geometryFailure(2, [9, 2, 2, 10, 2, 2, 15])?.contains("ClosePath in a linestring") == true)
    #expect(geometryFailure(3, [15])?.contains("ClosePath without an open ring") == true)
    #expect(
      geometryFailure(3, [9, 0, 0, 26, 2, 0, 0, 2, 1, 0, 23])?.contains("ClosePath with count 2")
        == true)
    #expect(
      geometryFailure(2, [17, 2, 2, 2, 2])?.contains("MoveTo in a linestring must have count 1")
        == true)
    #expect(geometryFailure(1, [1])?.contains("MoveTo with count 0") == true)
    #expect(geometryFailure(1, [12, 0, 0])?.contains("unknown command 4") == true)
    // Two moves of 2^31 - 1 leave the 32-bit range: no longer an error for the tile (the
    // feature is dropped, `featuresPast32BitsAreDroppedAlone`).
    #expect(geometryFailure(1, [17, 0xffff_fffe, 0, 0xffff_fffe, 0]) == nil)

    let e = failure(geometryLayer(type: 2, [10, 2, 2])) ?? ""
    #expect(e.contains("layer \"test\""))
    #expect(e.contains("feature 0"))

    var values = geometryLayer(type: 1, [9, 2, 2])
    values.keys = ["a"]
    var emptyValue = ProtoWriter()
    emptyValue.varintField(9, 1)  // no known field
    var l = ProtoWriter()
    l.stringField(1, "x")
    l.bytesField(4, emptyValue.bytes)
    var t = ProtoWriter()
    t.bytesField(3, l.bytes)
    #expect(
      errorText { _ = try VectorTileDecoder.decode(Data(t.bytes)) }?.contains(
        "value 0 has no field set") == true)
  }

  /// mvt-fixtures 049 and 050: a line whose x (049) or y (050) passes 2^31 - 1. Until
  /// 8ab8a51 the whole tile was refused, every layer; now that feature alone is left out.
  @Test func featuresPast32BitsAreDroppedAlone() throws {
    var roads = TestLayer(name: "roads", version: 2)
    roads.keys = ["name"]
    roads.values = [.string("Main Street"), .string("Overflow Road")]
    roads.features = [
      TestFeature(id: 1, tags: [0, 0], type: 2, geometry: [9, 4, 4, 18, 0, 16, 16, 0]),
      // 049: x = 2^31 - 1, then a LineTo of +1.
      TestFeature(id: 2, tags: [0, 1], type: 2, geometry: [9, 4_294_967_294, 0, 10, 2, 2]),
      // 050: y = -2^31, then a LineTo of -1.
      TestFeature(id: 3, type: 2, geometry: [9, 0, 4_294_967_295, 10, 1, 1]),
      // A polygon whose second ring leaves the range after its first was stored.
      TestFeature(
        id: 4, type: 3,
        geometry: [
          9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15, 9, 4_294_967_294, 0, 26, 2, 0, 0, 2, 1, 0, 15,
        ]),
      TestFeature(id: 5, type: 1, geometry: [9, 50, 34]),
    ]
    var water = TestLayer(name: "water")
    water.features = [
      TestFeature(id: 9, type: 3, geometry: [9, 0, 0, 26, 20, 0, 0, 20, 19, 0, 15])
    ]
    let tile = try VectorTileDecoder.decode(encodeTile([roads, water]))
    #expect(tile.layers.map(\.name) == ["roads", "water"])
    let kept = try #require(tile.layer(named: "roads"))
    #expect(kept.map(\.id) == [1, 5])
    #expect(kept.skippedFeatureCount == 3)
    #expect(kept[0]["name"]?.stringValue == "Main Street")
    #expect(
      Array(kept[0].part(0).points) == [.init(x: 2, y: 2), .init(x: 2, y: 10), .init(x: 10, y: 10)])
    #expect(Array(kept[1].part(0).points) == [.init(x: 25, y: 17)])
    #expect(kept.boundingBox == TileBox(minX: 2, minY: 2, maxX: 25, maxY: 17))
    #expect(tile.layer(named: "water")?.count == 1)
  }

  /// mvt-fixtures 061: a ClosePath in a line of a version 1 layer (old mapbox-gl-native
  /// offline tiles) is accepted, as docs/tiles.md says of version 1; in version 2 it is not.
  @Test func closePathEndsALineInVersionOneLayers() throws {
    let geometry: [UInt32] = [9, 4, 4, 18, 0, 16, 16, 0, 7]
    let old = try decodeSingleLayer(
      TestLayer(version: 1, features: [TestFeature(id: 1, type: 2, geometry: geometry)]))
    #expect(old.version == 1)
    #expect(
      old[0].parts.map { Array($0.points) } == [
        [.init(x: 2, y: 2), .init(x: 2, y: 10), .init(x: 10, y: 10), .init(x: 2, y: 2)]
      ])
    #expect(old[0].part(0).kind == .line)
    // A line may go on after its ClosePath (the cursor stays where the last LineTo left it).
    let onward = try decodeSingleLayer(
      TestLayer(
        version: 1,
        features: [TestFeature(type: 2, geometry: geometry + [10, 2, 0, 9, 2, 2, 10, 4, 4])]))
    #expect(
      onward[0].parts.map { Array($0.points) } == [
        [
          .init(x: 2, y: 2), .init(x: 2, y: 10), .init(x: 10, y: 10), .init(x: 2, y: 2),
          .init(x: 11, y: 10),
        ],
        [.init(x: 12, y: 11), .init(x: 14, y: 13)],
      ])
    func failure(version: UInt64, _ g: [UInt32]) -> String? {
      errorText {
        _ = try VectorTileDecoder.decode(
          encodeTile([TestLayer(version: version, features: [TestFeature(type: 2, geometry: g)])]))
      }
    }
    #expect(failure(version: 2, geometry)?.contains("ClosePath in a linestring geometry") == true)
    #expect(failure(version: 1, [7])?.contains("ClosePath without an open line") == true)
    // Version 1 reads a ClosePath of count 0 (as 061 writes it) or 1, not 2.
    #expect(failure(version: 1, [9, 4, 4, 18, 0, 16, 16, 0, 15]) == nil)
    #expect(
      failure(version: 1, [9, 4, 4, 18, 0, 16, 16, 0, 23])?.contains("ClosePath with count 2")
        == true)
    #expect(
      failure(version: 2, [9, 4, 4, 18, 0, 16, 16, 0, 15])?.contains("ClosePath in a linestring")
        == true)
  }

  @Test func integersAbove32BitsAreRejected() {
    var f = ProtoWriter()
    f.varintField(3, 1)
    f.varintField(2, 1 << 32)
    var l = ProtoWriter()
    l.stringField(1, "big")
    l.bytesField(2, f.bytes)
    var t = ProtoWriter()
    t.bytesField(3, l.bytes)
    #expect(
      errorText { _ = try VectorTileDecoder.decode(Data(t.bytes)) }?.hasSuffix(
        "a tag is 4294967296, above 32 bits") == true)
  }

  @Test func malformedProtobufGivesDescriptiveErrors() {
    func failure(_ bytes: [UInt8]) -> String? {
      errorText { _ = try VectorTileDecoder.decode(Data(bytes)) }
    }
    #expect(failure([0x1a, 0x05, 0x0a])?.contains("data ends inside a field of 5 bytes") == true)
    #expect(failure([0x1a])?.contains("data ends inside a varint") == true)
    #expect(failure([0x80, 0x80])?.contains("data ends inside a varint") == true)
    #expect(failure(Array(repeating: 0xff, count: 11))?.contains("malformed varint") == true)
    #expect(failure([0x00])?.contains("invalid field key (field 0") == true)
    #expect(failure([0x1b])?.contains("wire type 3") == true)
    #expect(failure([0x18, 0x01])?.contains("Tile.layers must be a message") == true)
    #expect(failure([0x1a, 0x02, 0x08, 0x01])?.contains("not the type Layer declares") == true)
    #expect(failure([0x0d, 0x01, 0x02])?.contains("data ends inside a fixed32") == true)
  }
}
