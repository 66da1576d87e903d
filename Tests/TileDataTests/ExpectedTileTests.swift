import Foundation
import MapGeometry
import Testing

@testable import TileData

/// The three real tiles in Data/tools/expected, compared with their decoding by
/// mapbox-vector-tile 2.2.0 (y_coord_down=True, geojson=False): every layer, feature, property
/// and coordinate.
@Suite struct ExpectedTileTests {
  @Test(arguments: Repo.expectedTiles)
  func decodesLikeTheReferenceDecoder(_ name: String) throws {
    let stored = try Repo.storedTile(name)
    let json = try Repo.expectation(name)
    #expect(stored.count == json["stored_bytes"] as? Int)
    #expect(Inflate.compression(of: stored) == .gzip)
    let raw = try Inflate.decompress(stored)
    #expect(raw.count == json["mvt_bytes"] as? Int)
    let tile = try VectorTileDecoder.decode(raw)

    let layers = try #require(json["layers"] as? [String: Any])
    #expect(Set(tile.layerNames) == Set(layers.keys), "layer names")
    #expect(tile.layers.count == layers.count, "no repeated layer")
    for (layerName, value) in layers {
      let expected = try #require(value as? [String: Any])
      let layer = try #require(tile.layer(named: layerName), "layer \(layerName)")
      #expect(layer.extent == expected["extent"] as? Int)
      #expect(layer.version == expected["version"] as? Int)
      #expect(layer.skippedFeatureCount == 0)
      let features = try #require(expected["features"] as? [[String: Any]])
      #expect(layer.count == features.count, "\(name) \(layerName): feature count")
      for (i, f) in features.enumerated() where i < layer.count {
        try compare(layer[i], with: f, context: "\(name) \(layerName)#\(i)")
      }
      // Not vacuous: as many points as the reference has (its rings repeat the first point).
      let referencePoints = features.reduce(0) { n, f in
        n + coordinatePairs((f["geometry"] as? [String: Any])?["coordinates"] ?? [])
      }
      let closingPoints = layer.reduce(0) { n, f in
        n + f.parts.filter { $0.kind == .exteriorRing || $0.kind == .interiorRing }.count
      }
      #expect(layer.pointCount + closingPoints == referencePoints, "\(name) \(layerName): points")
      #expect(referencePoints > 0)
    }
  }

  /// Number of [x, y] pairs in nested GeoJSON-like coordinates.
  func coordinatePairs(_ any: Any) -> Int {
    guard let list = any as? [Any] else { return 0 }
    if list.count == 2, list.allSatisfy({ $0 is NSNumber }) { return 1 }
    return list.reduce(0) { $0 + coordinatePairs($1) }
  }

  /// The counts docs/data.md gives for the three tiles.
  @Test func featureCountsMatchTheDocs() throws {
    let counts: [String: [String: Int]] = [
      "world-0-0-0": ["boundary": 331, "coastline": 134, "place": 197, "water": 15],
      "world-6-33-23": [
        "boundary": 90, "coastline": 13, "landuse": 32, "place": 172, "water": 1, "waterway": 1,
      ],
      "monaco-14-8529-5973": [
        "boundary": 1, "building": 117, "housenumber": 36, "landcover": 19, "landuse": 3,
        "place": 1, "poi": 117, "transportation": 180, "transportation_name": 180, "water": 8,
        "water_name": 1, "waterway": 1,
      ],
    ]
    for (name, expected) in counts {
      let tile = try VectorTileDecoder.decodeCompressed(Repo.storedTile(name))
      var got = [String: Int]()
      for l in tile.layers { got[l.name] = l.count }
      #expect(got == expected, "\(name)")
    }
  }

  /// Every polygon of the real tiles starts with an exterior ring (positive area, clockwise with
  /// y down), so none needed the reversed-winding fallback; boxes hold all points.
  @Test(arguments: Repo.expectedTiles)
  func ringsAndBoxes(_ name: String) throws {
    let tile = try VectorTileDecoder.decodeCompressed(Repo.storedTile(name))
    var exteriors = 0
    var interiors = 0
    for layer in tile.layers {
      for feature in layer {
        var box = TileBox.empty
        for p in feature.allPoints { box.formUnion(p) }
        #expect(box == feature.boundingBox)
        #expect(layer.boundingBox.intersects(feature.boundingBox))
        guard feature.type == .polygon else { continue }
        for (k, part) in feature.parts.enumerated() {
          if k == 0 { #expect(part.kind == .exteriorRing) }
          if part.kind == .exteriorRing {
            exteriors += 1
            #expect(part.doubleSignedArea > 0)
          } else {
            interiors += 1
            #expect(part.doubleSignedArea < 0)
          }
        }
      }
    }
    #expect(exteriors > 0)
    if name == "world-0-0-0" { #expect(interiors > 0, "the ocean has holes (land)") }
  }

  // MARK: comparison

  func compare(_ feature: VectorFeature, with f: [String: Any], context: String) throws {
    // id 0 stands for "no id" in the reference output.
    let id = (f["id"] as? NSNumber)?.uint64Value ?? 0
    #expect((feature.id ?? 0) == id, "\(context): id")
    #expect(Int(feature.type.rawValue) == f["type"] as? Int, "\(context): type")

    let props = try #require(f["properties"] as? [String: Any])
    let ours = feature.properties
    #expect(Set(ours.keys) == Set(props.keys), "\(context): property keys")
    for (k, v) in props {
      guard let mine = ours[k] else { continue }
      #expect(matches(mine, v), "\(context): property \(k): \(mine) vs \(v)")
    }

    let geometry = try #require(f["geometry"] as? [String: Any])
    let kind = try #require(geometry["type"] as? String)
    let coordinates = try #require(geometry["coordinates"])
    switch kind {
    case "Point":
      #expect(feature.type == .point)
      #expect(pointsOf(feature) == [try point(coordinates)], "\(context)")
    case "MultiPoint":
      #expect(feature.type == .point)
      #expect(pointsOf(feature) == (try line(coordinates)), "\(context)")
      #expect(feature.partCount > 1)
    case "LineString":
      #expect(feature.type == .lineString)
      #expect(linesOf(feature) == [try line(coordinates)], "\(context)")
    case "MultiLineString":
      #expect(feature.type == .lineString)
      let lines = try #require(coordinates as? [Any]).map(line)
      #expect(linesOf(feature) == lines, "\(context)")
    case "Polygon":
      #expect(feature.type == .polygon)
      let rings = try #require(coordinates as? [Any]).map(line)
      #expect(polygonsOf(feature) == [rings], "\(context)")
    case "MultiPolygon":
      #expect(feature.type == .polygon)
      let polygons = try #require(coordinates as? [Any]).map { p in
        try #require(p as? [Any]).map(line)
      }
      #expect(polygonsOf(feature) == polygons, "\(context)")
      #expect(feature.polygons.count > 1)
    default:
      Issue.record("\(context): unexpected geometry type \(kind)")
    }
  }

  func matches(_ value: PropertyValue, _ json: Any) -> Bool {
    switch value {
    case .string(let s): return (json as? String) == s
    case .int(let i):
      guard !(json is String), let n = json as? NSNumber else { return false }
      return n.int64Value == i
    case .uint(let u):
      guard !(json is String), let n = json as? NSNumber else { return false }
      return n.uint64Value == u
    case .double(let d):
      guard !(json is String), let n = json as? NSNumber else { return false }
      // Foundation's JSON parser may miss the last bit of a 17-digit decimal (tilemaker
      // writes MVT floats, which the reference prints as doubles with 17 digits).
      return n.doubleValue == d || abs(n.doubleValue - d) <= abs(d) * 4 * Double.ulpOfOne
    case .bool(let b):
      guard !(json is String), let n = json as? NSNumber else { return false }
      return n.boolValue == b
    }
  }

  func point(_ any: Any) throws -> TilePoint {
    let xy = try #require(any as? [NSNumber])
    try #require(xy.count == 2)
    return TilePoint(x: xy[0].int32Value, y: xy[1].int32Value)
  }

  func line(_ any: Any) throws -> [TilePoint] {
    try #require(any as? [Any]).map(point)
  }

  func pointsOf(_ f: VectorFeature) -> [TilePoint] {
    f.parts.flatMap { part in
      #expect(part.kind == .point)
      return Array(part.points)
    }
  }

  func linesOf(_ f: VectorFeature) -> [[TilePoint]] {
    f.parts.map { part in
      #expect(part.kind == .line)
      return Array(part.points)
    }
  }

  /// Polygons as the reference writes them: rings closed by repeating the first point.
  func polygonsOf(_ f: VectorFeature) -> [[[TilePoint]]] {
    f.polygons.map { range in
      range.map { i in
        let part = f.part(i)
        #expect(part.kind == (i == range.lowerBound ? .exteriorRing : .interiorRing))
        var ring = Array(part.points)
        if let first = ring.first { ring.append(first) }
        return ring
      }
    }
  }
}
