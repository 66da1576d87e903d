import Foundation
import MapGeometry

/// A feature property value. MVT's seven value types fold into five: `int` and `sint` become
/// `.int`, `float` widens to `.double`.
public enum PropertyValue: Hashable, Sendable, CustomStringConvertible {
  /// A string.
  case string(String)
  /// A signed integer (`int_value` or `sint_value`).
  case int(Int64)
  /// An unsigned integer.
  case uint(UInt64)
  /// A float or double.
  case double(Double)
  /// A boolean.
  case bool(Bool)

  /// The value as a string, if it is one.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The value as a Double for any numeric case (nil for strings and booleans).
  public var doubleValue: Double? {
    switch self {
    case .int(let v): return Double(v)
    case .uint(let v): return Double(v)
    case .double(let v): return v
    case .string, .bool: return nil
    }
  }

  /// The value as an Int when it is an integer that fits (or a double with an integral value).
  public var intValue: Int? {
    switch self {
    case .int(let v): return Int(exactly: v)
    case .uint(let v): return Int(exactly: v)
    case .double(let v): return Int(exactly: v)
    case .string, .bool: return nil
    }
  }

  /// The value as a boolean, if it is one.
  public var boolValue: Bool? {
    if case .bool(let b) = self { return b }
    return nil
  }

  public var description: String {
    switch self {
    case .string(let s): return s
    case .int(let v): return String(v)
    case .uint(let v): return String(v)
    case .double(let v): return String(v)
    case .bool(let b): return b ? "true" : "false"
    }
  }
}

/// One decoded feature, as stored in its layer (internal, compact).
@usableFromInline struct FeatureRecord: Sendable {
  @usableFromInline var id: UInt64
  @usableFromInline var box: TileBox
  @usableFromInline var tagStart: Int32
  @usableFromInline var tagCount: Int32  // pairs
  @usableFromInline var partStart: Int32
  @usableFromInline var partCount: Int32
  @usableFromInline var type: GeometryType
  @usableFromInline var hasID: Bool
}

/// A decoded layer: its features' geometry in flat arrays (points, part offsets, part kinds), its
/// key and value tables, and one record per feature with its bounding box. Immutable and
/// shareable across threads. A collection of `VectorFeature` views.
public final class VectorLayer: Sendable, RandomAccessCollection {
  /// The layer's name.
  public let name: String
  /// The MVT version of the layer (1 or 2).
  public let version: Int
  /// Tile units per tile side (4096 by default).
  public let extent: Int
  /// The layer's key table.
  public let keys: [String]
  /// The layer's value table.
  public let values: [PropertyValue]
  /// Features the decoder left out: those of UNKNOWN (or unrecognised) geometry type, and
  /// those with a coordinate outside the 32-bit range.
  public let skippedFeatureCount: Int
  /// The union of the features' boxes.
  public let boundingBox: TileBox

  @usableFromInline let records: [FeatureRecord]
  @usableFromInline let tags: [UInt32]
  @usableFromInline let points: [TilePoint]
  /// Start of each part in `points`, plus the end of the last one (parts + 1 entries).
  @usableFromInline let partOffsets: [Int32]
  @usableFromInline let partKinds: [PartKind]
  private let keyIndex: [String: Int]

  init(
    name: String, version: Int, extent: Int, keys: [String], values: [PropertyValue],
    records: [FeatureRecord], tags: [UInt32], points: [TilePoint], partOffsets: [Int32],
    partKinds: [PartKind], skippedFeatureCount: Int
  ) {
    self.name = name
    self.version = version
    self.extent = extent
    self.keys = keys
    self.values = values
    self.records = records
    self.tags = tags
    self.points = points
    self.partOffsets = partOffsets
    self.partKinds = partKinds
    self.skippedFeatureCount = skippedFeatureCount
    var index = [String: Int](minimumCapacity: keys.count)
    for (i, k) in keys.enumerated() where index[k] == nil { index[k] = i }
    self.keyIndex = index
    var box = TileBox.empty
    for r in records { box.formUnion(r.box) }
    self.boundingBox = box
  }

  public var startIndex: Int { 0 }
  public var endIndex: Int { records.count }
  public subscript(position: Int) -> VectorFeature { VectorFeature(layer: self, index: position) }

  /// Total points in the layer's geometry.
  public var pointCount: Int { points.count }
  /// Total parts (points, lines, rings) in the layer's geometry.
  public var partCount: Int { partKinds.count }

  /// The index of a key in `keys`, for fast repeated lookups with `VectorFeature.value(forKeyIndex:)`.
  public func keyIndex(of key: String) -> Int? { keyIndex[key] }

  /// Features whose bounding box meets `box`.
  public func features(intersecting box: TileBox) -> [VectorFeature] {
    var out = [VectorFeature]()
    for i in records.indices where records[i].box.intersects(box) {
      out.append(VectorFeature(layer: self, index: i))
    }
    return out
  }

  /// The layer's geometry as flat buffers: every point, and where each part starts in them
  /// (`partOffsets[p] ..< partOffsets[p + 1]` are part `p`'s points; a feature's parts are
  /// `VectorFeature.partIndices`). For renderers that walk many features without a view per part.
  @inlinable public func withFlatGeometry<R>(
    _ body: (_ points: UnsafeBufferPointer<TilePoint>, _ partOffsets: UnsafeBufferPointer<Int32>)
      throws -> R
  ) rethrows -> R {
    try points.withUnsafeBufferPointer { p in
      try partOffsets.withUnsafeBufferPointer { o in try body(p, o) }
    }
  }

  /// The transform from this layer's tile coordinates to map points for tile `id`.
  public func transform(for id: TileID) -> TileTransform { TileTransform(tile: id, extent: extent) }

  /// Approximate memory held, in bytes.
  var approximateByteCount: Int {
    var n = 256 + name.utf8.count
    n += records.capacity * MemoryLayout<FeatureRecord>.stride
    n += tags.capacity * 4 + points.capacity * 8 + partOffsets.capacity * 4 + partKinds.capacity
    n += keys.reduce(0) { $0 + 32 + $1.utf8.count } * 2
    n += values.reduce(0) { s, v in
      if case .string(let str) = v { return s + 48 + str.utf8.count }
      return s + 32
    }
    return n
  }
}

/// A feature of a decoded layer: a cheap view (the layer and an index).
public struct VectorFeature: Sendable {
  /// The layer the feature belongs to.
  public let layer: VectorLayer
  /// The feature's position in its layer.
  public let index: Int

  @inlinable init(layer: VectorLayer, index: Int) {
    self.layer = layer
    self.index = index
  }

  @inlinable var record: FeatureRecord { layer.records[index] }

  /// The feature id, or nil when the tile gives none.
  public var id: UInt64? { record.hasID ? record.id : nil }
  /// Point, line string or polygon.
  public var type: GeometryType { record.type }
  /// The box of all the feature's points in tile coordinates (empty when it has none).
  public var boundingBox: TileBox { record.box }

  // MARK: properties

  /// Number of key/value pairs.
  public var propertyCount: Int { Int(record.tagCount) }

  /// The value for `key`, or nil.
  public func value(for key: String) -> PropertyValue? {
    guard let k = layer.keyIndex(of: key) else { return nil }
    return value(forKeyIndex: k)
  }

  /// The value for a key index from `VectorLayer.keyIndex(of:)`.
  public func value(forKeyIndex k: Int) -> PropertyValue? {
    let r = record
    var i = Int(r.tagStart)
    let end = i + 2 * Int(r.tagCount)
    let key = UInt32(truncatingIfNeeded: k)
    while i < end {
      if layer.tags[i] == key { return layer.values[Int(layer.tags[i + 1])] }
      i += 2
    }
    return nil
  }

  /// The value of a property, by key.
  public subscript(key: String) -> PropertyValue? { value(for: key) }

  /// Calls `body` with each key and value in tile order.
  public func forEachProperty(_ body: (String, PropertyValue) throws -> Void) rethrows {
    let r = record
    var i = Int(r.tagStart)
    let end = i + 2 * Int(r.tagCount)
    while i < end {
      try body(layer.keys[Int(layer.tags[i])], layer.values[Int(layer.tags[i + 1])])
      i += 2
    }
  }

  /// All properties as a dictionary (when a key repeats, the last value wins).
  public var properties: [String: PropertyValue] {
    var d = [String: PropertyValue](minimumCapacity: propertyCount)
    forEachProperty { d[$0] = $1 }
    return d
  }

  // MARK: geometry

  /// The feature's parts as indices into the layer's part offsets (see
  /// `VectorLayer.withFlatGeometry`).
  public var partIndices: Range<Int> {
    let r = record
    return Int(r.partStart)..<Int(r.partStart + r.partCount)
  }

  /// Number of parts: points of a multipoint, lines of a multilinestring, rings of polygons.
  public var partCount: Int { Int(record.partCount) }

  /// Part `i` (0 ..< partCount).
  public func part(_ i: Int) -> GeometryPart {
    precondition(i >= 0 && i < partCount, "part index out of range")
    let p = Int(record.partStart) + i
    let a = Int(layer.partOffsets[p])
    let b = Int(layer.partOffsets[p + 1])
    return GeometryPart(kind: layer.partKinds[p], points: layer.points[a..<b])
  }

  /// The parts in order.
  public var parts: [GeometryPart] { (0..<partCount).map(part) }

  /// All points of all parts, in order (parts are stored one after another).
  public var allPoints: ArraySlice<TilePoint> {
    let r = record
    let a = Int(layer.partOffsets[Int(r.partStart)])
    let b = Int(layer.partOffsets[Int(r.partStart + r.partCount)])
    return layer.points[a..<b]
  }

  /// For polygon features: the part ranges of each polygon (an exterior ring and its holes).
  public var polygons: [Range<Int>] {
    guard type == .polygon else { return [] }
    var out = [Range<Int>]()
    let base = Int(record.partStart)
    var start = 0
    for i in 0..<partCount where i > 0 && layer.partKinds[base + i] == .exteriorRing {
      out.append(start..<i)
      start = i
    }
    if partCount > 0 { out.append(start..<partCount) }
    return out
  }

  /// The feature's points as map points of tile `id`, part by part.
  public func mapParts(in id: TileID) -> [(kind: PartKind, points: [MapPoint])] {
    let t = layer.transform(for: id)
    return parts.map { part in (part.kind, part.points.map(t.mapPoint)) }
  }
}

/// A decoded vector tile: its layers, indexed by name.
public struct DecodedTile: Sendable {
  /// Layers in tile order.
  public let layers: [VectorLayer]
  private let index: [String: Int]
  /// Size of the (uncompressed) MVT the tile was decoded from.
  public let encodedByteCount: Int
  /// Approximate memory held by the decoded tile, for cache accounting.
  public let approximateByteCount: Int

  init(layers: [VectorLayer], encodedByteCount: Int) {
    self.layers = layers
    var index = [String: Int](minimumCapacity: layers.count)
    for (i, l) in layers.enumerated() where index[l.name] == nil { index[l.name] = i }
    self.index = index
    self.encodedByteCount = encodedByteCount
    self.approximateByteCount = layers.reduce(128) { $0 + $1.approximateByteCount }
  }

  /// The layer with this name (the first one if a malformed tile repeats a name).
  public func layer(named name: String) -> VectorLayer? { index[name].map { layers[$0] } }
  /// The layer with a name, if the tile has it.
  public subscript(layer name: String) -> VectorLayer? { layer(named: name) }
  /// The names of the tile's layers, in order.
  public var layerNames: [String] { layers.map(\.name) }
  /// Total features in all layers.
  public var featureCount: Int { layers.reduce(0) { $0 + $1.count } }
}
