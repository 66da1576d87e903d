import Foundation
import MapGeometry

/// Why a Mapbox Vector Tile could not be decoded, with where it happened.
public struct VectorTileError: Error, Equatable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Equatable, Sendable {
    /// The data ends inside a field (what was being read).
    case truncated(String)
    /// A varint longer than 10 bytes or above 64 bits.
    case malformedVarint
    /// A tile of 2 GiB or more (offsets are kept in 32 bits).
    case tileTooLarge(bytes: Int)
    /// A 32-bit field (tag, geometry integer) with a larger value.
    case above32Bits(what: String, value: UInt64)
    /// A field number 0, or a wire type that is not 0, 1, 2 or 5.
    case invalidFieldKey(field: UInt64, wireType: Int)
    /// A known field encoded with the wrong wire type.
    case unexpectedWireType(field: Int, wireType: Int, message: String)
    /// A layer without a name.
    case missingLayerName
    /// A layer version other than 1 or 2.
    case unsupportedVersion(UInt64)
    /// A layer extent of 0 or above 2^31 − 1.
    case invalidExtent(UInt64)
    /// A value message with none of its seven fields.
    case emptyValue(index: Int)
    /// A tags list with an odd number of entries.
    case oddTagCount(Int)
    /// A tag index past the end of the layer's keys or values.
    case tagOutOfRange(kind: String, index: UInt64, count: Int)
    /// A geometry command stream that breaks the spec (message says how).
    case geometry(String)
    /// A cursor position outside the 32-bit range. Not thrown by `decode`: such a feature is
    /// left out (and counted in `VectorLayer.skippedFeatureCount`), the rest of the tile kept.
    case coordinateOutOfRange
  }

  /// What went wrong.
  public var reason: Reason
  /// Byte offset in the (uncompressed) tile where the problem was found.
  public var offset: Int?
  /// The layer being decoded, when known.
  public var layer: String?
  /// The feature's index in its layer message, when known.
  public var feature: Int?

  /// An error with where it happened: a byte offset, a layer, a feature.
  public init(_ reason: Reason, offset: Int? = nil, layer: String? = nil, feature: Int? = nil) {
    self.reason = reason
    self.offset = offset
    self.layer = layer
    self.feature = feature
  }

  public var description: String {
    var where_ = [String]()
    if let layer { where_.append("layer \"\(SafeText.clean(String(layer.prefix(100))))\"") }
    if let feature { where_.append("feature \(feature)") }
    if let offset { where_.append("byte \(offset)") }
    let prefix =
      "invalid vector tile" + (where_.isEmpty ? "" : " (" + where_.joined(separator: ", ") + ")")
    return prefix + ": " + reasonText
  }

  private var reasonText: String {
    switch reason {
    case .truncated(let what): return "data ends inside \(what)"
    case .malformedVarint: return "malformed varint (more than 64 bits)"
    case .tileTooLarge(let n): return "\(n) bytes is too large for a tile"
    case .above32Bits(let what, let v): return "\(what) is \(v), above 32 bits"
    case .invalidFieldKey(let f, let w): return "invalid field key (field \(f), wire type \(w))"
    case .unexpectedWireType(let f, let w, let m): return "field \(f) has wire type \(w); \(m)"
    case .missingLayerName: return "layer has no name"
    case .unsupportedVersion(let v): return "unsupported layer version \(v) (expected 1 or 2)"
    case .invalidExtent(let e): return "invalid extent \(e)"
    case .emptyValue(let i): return "value \(i) has no field set"
    case .oddTagCount(let n): return "odd number of tags (\(n))"
    case .tagOutOfRange(let kind, let i, let n):
      return "tag refers to \(kind) \(i) but the layer has \(n)"
    case .geometry(let m): return "geometry: \(m)"
    case .coordinateOutOfRange: return "geometry: coordinate outside the 32-bit range"
    }
  }
}

/// Decodes Mapbox Vector Tiles (spec 2.1; version 1 layers are accepted too) from protobuf bytes,
/// read by hand: no generated code, no reflection.
public enum VectorTileDecoder {
  /// Decodes an uncompressed MVT. `layers`, when given, limits decoding to those layer names
  /// (the others are skipped without decoding their features).
  public static func decode(_ data: Data, layers: Set<String>? = nil) throws(VectorTileError)
    -> DecodedTile
  {
    let result: Result<DecodedTile, VectorTileError> = data.withUnsafeBytes { raw in
      do throws(VectorTileError) {
        return .success(try decode(raw, layers: layers))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Inflates (when gzip/zlib) and decodes. Inflate errors are rethrown as `InflateError`.
  public static func decodeCompressed(
    _ data: Data, layers: Set<String>? = nil, inflateLimit: Int = Inflate.defaultLimit
  ) throws -> DecodedTile {
    try decode(Inflate.decompressIfNeeded(data, limit: inflateLimit), layers: layers)
  }

  static func decode(_ raw: UnsafeRawBufferPointer, layers wanted: Set<String>?)
    throws(VectorTileError)
    -> DecodedTile
  {
    guard let base = raw.baseAddress, raw.count > 0 else {
      return DecodedTile(layers: [], encodedByteCount: 0)
    }
    // Offsets are kept in 32 bits; no real tile comes near this.
    guard raw.count < Int(Int32.max) else { throw VectorTileError(.tileTooLarge(bytes: raw.count)) }
    let bytes = base.assumingMemoryBound(to: UInt8.self)
    var reader = ProtobufReader(bytes: bytes, start: 0, end: raw.count)
    var layers = [VectorLayer]()
    var scratch = LayerScratch()
    while !reader.isAtEnd {
      let (field, wire) = try reader.fieldKey()
      if field == 3 {
        guard wire == .lengthDelimited else {
          throw VectorTileError(
            .unexpectedWireType(
              field: 3, wireType: wire.rawValue, message: "Tile.layers must be a message"),
            offset: reader.position)
        }
        let range = try reader.lengthDelimited()
        if let layer = try decodeLayer(
          bytes: bytes, range: range, wanted: wanted, scratch: &scratch)
        {
          layers.append(layer)
        }
      } else {
        try reader.skip(wire)
      }
    }
    return DecodedTile(layers: layers, encodedByteCount: raw.count)
  }

  /// Reusable buffers for decoding features.
  struct LayerScratch {
    var geometry = [UInt32]()
  }

  private static func decodeLayer(
    bytes: UnsafePointer<UInt8>, range: Range<Int>, wanted: Set<String>?,
    scratch: inout LayerScratch
  ) throws(VectorTileError) -> VectorLayer? {
    var reader = ProtobufReader(bytes: bytes, start: range.lowerBound, end: range.upperBound)
    var name: String?
    var version: UInt64 = 1
    var extent: UInt64 = 4096
    var keys = [String]()
    var valueRanges = [Range<Int>]()
    var featureRanges = [Range<Int>]()
    do throws(VectorTileError) {
      while !reader.isAtEnd {
        let keyOffset = reader.position
        let (field, wire) = try reader.fieldKey()
        switch (field, wire) {
        case (1, .lengthDelimited):
          name = reader.string(try reader.lengthDelimited())
        case (2, .lengthDelimited):
          featureRanges.append(try reader.lengthDelimited())
        case (3, .lengthDelimited):
          keys.append(reader.string(try reader.lengthDelimited()))
        case (4, .lengthDelimited):
          valueRanges.append(try reader.lengthDelimited())
        case (5, .varint):
          extent = try reader.varint()
        case (15, .varint):
          version = try reader.varint()
        case (1...5, _), (15, _):
          throw VectorTileError(
            .unexpectedWireType(
              field: field, wireType: wire.rawValue, message: "not the type Layer declares"),
            offset: keyOffset)
        default:
          try reader.skip(wire)
        }
      }
      guard let name else { throw VectorTileError(.missingLayerName, offset: range.lowerBound) }
      if let wanted, !wanted.contains(name) { return nil }
      guard version == 1 || version == 2 else {
        throw VectorTileError(.unsupportedVersion(version), offset: range.lowerBound, layer: name)
      }
      guard extent > 0 && extent <= UInt64(Int32.max) else {
        throw VectorTileError(.invalidExtent(extent), offset: range.lowerBound, layer: name)
      }
      var values = [PropertyValue]()
      values.reserveCapacity(valueRanges.count)
      for (i, r) in valueRanges.enumerated() {
        values.append(try decodeValue(bytes: bytes, range: r, index: i))
      }
      var builder = LayerBuilder(
        keyCount: keys.count, valueCount: values.count, version: Int(version))
      builder.reserve(
        features: featureRanges.count, bytes: featureRanges.reduce(0) { $0 + $1.count })
      for (i, r) in featureRanges.enumerated() {
        do throws(VectorTileError) {
          try builder.addFeature(bytes: bytes, range: r, scratch: &scratch)
        } catch {
          var e = error
          e.feature = i
          throw e
        }
      }
      return VectorLayer(
        name: name, version: Int(version), extent: Int(extent), keys: keys, values: values,
        records: builder.records, tags: builder.tags, points: builder.points,
        partOffsets: builder.partOffsets, partKinds: builder.partKinds,
        skippedFeatureCount: builder.skipped)
    } catch {
      var e = error
      if e.layer == nil { e.layer = name }
      throw e
    }
  }

  private static func decodeValue(bytes: UnsafePointer<UInt8>, range: Range<Int>, index: Int)
    throws(VectorTileError) -> PropertyValue
  {
    var reader = ProtobufReader(bytes: bytes, start: range.lowerBound, end: range.upperBound)
    var value: PropertyValue?
    while !reader.isAtEnd {
      let keyOffset = reader.position
      let (field, wire) = try reader.fieldKey()
      switch (field, wire) {
      case (1, .lengthDelimited): value = .string(reader.string(try reader.lengthDelimited()))
      case (2, .fixed32): value = .double(Double(Float(bitPattern: try reader.fixed32())))
      case (3, .fixed64): value = .double(Double(bitPattern: try reader.fixed64()))
      case (4, .varint): value = .int(Int64(bitPattern: try reader.varint()))
      case (5, .varint): value = .uint(try reader.varint())
      case (6, .varint):
        let v = try reader.varint()
        value = .int(Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1))
      case (7, .varint): value = .bool(try reader.varint() != 0)
      case (1...7, _):
        throw VectorTileError(
          .unexpectedWireType(
            field: field, wireType: wire.rawValue, message: "not the type Value declares"),
          offset: keyOffset)
      default: try reader.skip(wire)
      }
    }
    guard let value else {
      throw VectorTileError(.emptyValue(index: index), offset: range.lowerBound)
    }
    return value
  }
}

/// Accumulates one layer's features into flat arrays.
struct LayerBuilder {
  let keyCount: Int
  let valueCount: Int
  /// The layer's version: in version 1 a ClosePath may end a line (spec 1.0.1 did not forbid it).
  let version: Int
  var records = [FeatureRecord]()
  var tags = [UInt32]()
  var points = [TilePoint]()
  var partOffsets: [Int32] = [0]
  var partKinds = [PartKind]()
  var skipped = 0

  init(keyCount: Int, valueCount: Int, version: Int = 2) {
    self.keyCount = keyCount
    self.valueCount = valueCount
    self.version = version
  }

  mutating func reserve(features: Int, bytes: Int) {
    records.reserveCapacity(features)
    // A point costs at least 2 bytes of geometry; in real tiles about 3-4 with commands and tags.
    points.reserveCapacity(bytes / 3)
  }

  mutating func addFeature(
    bytes: UnsafePointer<UInt8>, range: Range<Int>, scratch: inout VectorTileDecoder.LayerScratch
  )
    throws(VectorTileError)
  {
    var reader = ProtobufReader(bytes: bytes, start: range.lowerBound, end: range.upperBound)
    var id: UInt64 = 0
    var hasID = false
    var type: UInt64 = 0
    let tagStart = tags.count
    // The geometry is decoded straight from its packed bytes once the type is known (it may come
    // after the geometry). Unpacked or split geometry (legal protobuf, rare) goes through
    // `scratch`.
    var geometryRange: Range<Int>?
    var useScratch = false
    scratch.geometry.removeAll(keepingCapacity: true)
    while !reader.isAtEnd {
      let keyOffset = reader.position
      let (field, wire) = try reader.fieldKey()
      switch (field, wire) {
      case (1, .varint):
        id = try reader.varint()
        hasID = true
      case (2, .lengthDelimited):
        var packed = ProtobufReader(bytes: bytes, range: try reader.lengthDelimited())
        while !packed.isAtEnd { tags.append(try packed.uint32(what: "a tag")) }
      case (2, .varint):
        tags.append(try reader.uint32(what: "a tag"))
      case (3, .varint):
        type = try reader.varint()
      case (4, .lengthDelimited):
        let r = try reader.lengthDelimited()
        if geometryRange == nil && !useScratch {
          geometryRange = r
        } else {
          if let first = geometryRange {
            try Self.appendPacked(bytes: bytes, range: first, to: &scratch.geometry)
            geometryRange = nil
          }
          useScratch = true
          try Self.appendPacked(bytes: bytes, range: r, to: &scratch.geometry)
        }
      case (4, .varint):
        if let first = geometryRange {
          try Self.appendPacked(bytes: bytes, range: first, to: &scratch.geometry)
          geometryRange = nil
        }
        useScratch = true
        scratch.geometry.append(try reader.uint32(what: "a geometry integer"))
      case (1...4, _):
        throw VectorTileError(
          .unexpectedWireType(
            field: field, wireType: wire.rawValue, message: "not the type Feature declares"),
          offset: keyOffset)
      default:
        try reader.skip(wire)
      }
    }
    let tagCount = tags.count - tagStart
    guard tagCount % 2 == 0 else {
      throw VectorTileError(.oddTagCount(tagCount), offset: range.lowerBound)
    }
    var i = tagStart
    while i < tags.count {
      if Int(tags[i]) >= keyCount {
        throw VectorTileError(
          .tagOutOfRange(kind: "key", index: UInt64(tags[i]), count: keyCount),
          offset: range.lowerBound)
      }
      if Int(tags[i + 1]) >= valueCount {
        throw VectorTileError(
          .tagOutOfRange(kind: "value", index: UInt64(tags[i + 1]), count: valueCount),
          offset: range.lowerBound)
      }
      i += 2
    }
    guard type >= 1 && type <= 3, let geometryType = GeometryType(rawValue: UInt8(type)) else {
      // UNKNOWN (0) or a type this spec does not define: decoders may ignore these.
      tags.removeSubrange(tagStart...)
      skipped += 1
      return
    }
    let partStart = partKinds.count
    let pointStart = points.count
    let offsetStart = partOffsets.count
    var box = TileBox.empty
    do throws(VectorTileError) {
      if useScratch {
        var source = ArrayIntegers(values: scratch.geometry)
        try decodeGeometry(&source, type: geometryType, box: &box)
      } else {
        var source = PackedIntegers(
          reader: ProtobufReader(
            bytes: bytes, range: geometryRange ?? range.upperBound..<range.upperBound))
        try decodeGeometry(&source, type: geometryType, box: &box)
      }
    } catch {
      if error.reason == .coordinateOutOfRange {
        // A coordinate past 32 bits (mvt-fixtures 049, 050) is this feature's problem only: it
        // is dropped with what it had added, and the rest of the layer and tile are kept.
        points.removeSubrange(pointStart...)
        partOffsets.removeSubrange(offsetStart...)
        partKinds.removeSubrange(partStart...)
        tags.removeSubrange(tagStart...)
        skipped += 1
        return
      }
      var e = error
      if e.offset == nil { e.offset = range.lowerBound }
      throw e
    }
    records.append(
      FeatureRecord(
        id: id, box: box, tagStart: Int32(tagStart), tagCount: Int32(tagCount / 2),
        partStart: Int32(partStart), partCount: Int32(partKinds.count - partStart),
        type: geometryType, hasID: hasID))
  }

  /// Appends a packed field's integers.
  static func appendPacked(bytes: UnsafePointer<UInt8>, range: Range<Int>, to out: inout [UInt32])
    throws(VectorTileError)
  {
    var packed = ProtobufReader(bytes: bytes, range: range)
    while !packed.isAtEnd { out.append(try packed.uint32(what: "a geometry integer")) }
  }

  /// Runs the command stream (MoveTo 1, LineTo 2, ClosePath 7; zig-zag deltas from a cursor
  /// that starts at 0,0 and carries over between parts).
  mutating func decodeGeometry<Source: GeometryIntegers>(
    _ g: inout Source, type: GeometryType, box: inout TileBox
  ) throws(VectorTileError) {
    var cx: Int64 = 0
    var cy: Int64 = 0
    var partOpen = false  // a line or ring has been started and not yet finished
    let firstPart = partKinds.count

    @inline(__always) func zigzag(_ v: UInt32) -> Int64 {
      Int64(Int32(bitPattern: (v >> 1) ^ (0 &- (v & 1))))
    }

    while !g.isAtEnd {
      let command = try g.next()
      let id = command & 7
      let count = Int(command >> 3)
      switch id {
      case 1, 2:
        let name = id == 1 ? "MoveTo" : "LineTo"
        if id == 1 {
          guard count > 0 else { throw VectorTileError(.geometry("MoveTo with count 0")) }
          if type != .point && count != 1 {
            throw VectorTileError(.geometry("MoveTo in a \(type) must have count 1, not \(count)"))
          }
        } else {
          if type == .point { throw VectorTileError(.geometry("LineTo in a point geometry")) }
          if !partOpen { throw VectorTileError(.geometry("LineTo without a MoveTo before it")) }
        }
        // Each pair needs at least 2 more bytes or integers: a hostile count stops at the end.
        for k in 0..<count {
          guard !g.isAtEnd else {
            throw VectorTileError(
              .geometry("\(name) with count \(count) ends after \(k) of its points"))
          }
          cx += zigzag(try g.next())
          guard !g.isAtEnd else {
            throw VectorTileError(
              .geometry("\(name) with count \(count) ends inside point \(k + 1)"))
          }
          cy += zigzag(try g.next())
          guard let x = Int32(exactly: cx), let y = Int32(exactly: cy) else {
            throw VectorTileError(.coordinateOutOfRange)
          }
          let p = TilePoint(x: x, y: y)
          if id == 1 {
            if partOpen { finishPart(type: type) }
            points.append(p)
            if type == .point {
              partKinds.append(.point)
              partOffsets.append(Int32(points.count))
            } else {
              partOpen = true
            }
          } else {
            points.append(p)
          }
        }
      case 7:
        // Version 1 layers may close a line (mvt-fixtures 061, as written by old encoders):
        // it goes back to its first point, as vector-tile-js reads it, and stays open.
        let closesLine = type == .lineString && version == 1
        guard type == .polygon || closesLine else {
          throw VectorTileError(.geometry("ClosePath in a \(type) geometry"))
        }
        // Spec 1.0.1 gave ClosePath no count: fixture 061 writes 0, read as one.
        guard count == 1 || (count == 0 && version == 1) else {
          throw VectorTileError(.geometry("ClosePath with count \(count), not 1"))
        }
        guard partOpen else {
          throw VectorTileError(
            .geometry("ClosePath without an open \(closesLine ? "line" : "ring")"))
        }
        if closesLine {
          points.append(points[Int(partOffsets[partOffsets.count - 1])])
        } else {
          finishPart(type: type)
          partOpen = false
        }
      default:
        throw VectorTileError(.geometry("unknown command \(id) (count \(count))"))
      }
    }
    if partOpen { finishPart(type: type) }

    // Compute the box of what was kept.
    let pStart = Int(partOffsets[firstPart])
    for k in pStart..<points.count { box.formUnion(points[k]) }

    // Spec: rings with positive area are exterior. A first ring with negative area breaks the
    // spec (or is a version 1 tile, which had no winding rule): then take the first ring's
    // winding as the exterior one, as other decoders do.
    if type == .polygon, firstPart < partKinds.count, partKinds[firstPart] == .interiorRing {
      for k in firstPart..<partKinds.count {
        partKinds[k] = partKinds[k] == .interiorRing ? .exteriorRing : .interiorRing
      }
    }
  }

  /// Ends the open line or ring (its points are the tail of `points` after the last offset).
  /// Degenerate parts are dropped: lines with fewer than 2 points, rings with zero area.
  private mutating func finishPart(type: GeometryType) {
    let start = Int(partOffsets[partOffsets.count - 1])
    switch type {
    case .point:
      return
    case .lineString:
      if points.count - start < 2 {
        points.removeSubrange(start...)
        return
      }
      partKinds.append(.line)
    case .polygon:
      // A ring that repeats its first point at the end: drop the repeat (rings are stored open).
      if points.count - start >= 2, points[start] == points[points.count - 1] {
        points.removeLast()
      }
      let area = TileGeometryMath.doubleSignedArea(points[start...])
      if area == 0 {
        points.removeSubrange(start...)
        return
      }
      partKinds.append(area > 0 ? .exteriorRing : .interiorRing)
    }
    partOffsets.append(Int32(points.count))
  }
}

/// The geometry's integers, read one at a time.
protocol GeometryIntegers {
  var isAtEnd: Bool { get }
  mutating func next() throws(VectorTileError) -> UInt32
}

/// Integers straight from a packed field's bytes.
struct PackedIntegers: GeometryIntegers {
  var reader: ProtobufReader
  var isAtEnd: Bool { reader.isAtEnd }
  @inline(__always) mutating func next() throws(VectorTileError) -> UInt32 {
    try reader.uint32(what: "a geometry integer")
  }
}

/// Integers collected in an array (unpacked or split geometry fields).
struct ArrayIntegers: GeometryIntegers {
  let values: [UInt32]
  var index = 0
  init(values: [UInt32]) { self.values = values }
  var isAtEnd: Bool { index >= values.count }
  @inline(__always) mutating func next() throws(VectorTileError) -> UInt32 {
    defer { index += 1 }
    return values[index]
  }
}
