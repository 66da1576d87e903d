import DotRaster
import Synchronization
import TileData

/// A decoded vector tile sorted out for one style, once: for each drawing rule, the features it
/// draws, with their boxes, parts and the zoom they show from. Drawing a map tile then walks
/// flat lists (a box test and a zoom compare per feature) instead of matching every feature's
/// properties by name again for each of the dozens of map tiles a vector tile covers and at
/// each zoom step. Immutable once made.
final class PreparedVectorTile: Sendable {
  /// One feature a rule draws.
  struct Item: Sendable {
    let box: TileBox
    let parts: Range<Int32>
    /// The zoom level the feature shows from (its rule's, or a property's such as Protomaps'
    /// `min_zoom`, whichever is higher).
    let minZoom: Double
    let polygon: Bool
    /// The pieces of its lines (or outlines) in `RuleItems.chunks`.
    let chunks: Range<Int32>
  }

  /// A piece of a line or of a polygon's outline: at most `Chunk.maximumVertices` vertices in a
  /// row (each piece starts where the last ended), with its own box, so a map tile strokes only
  /// the pieces near it rather than whole roads and coastlines. A ring's piece list ends back
  /// at its first vertex.
  struct Chunk: Sendable {
    static let maximumVertices = 16
    let box: TileBox
    /// Its vertices in `RuleItems.points`.
    let start: Int32
    let count: Int32
    /// How far along its line the piece starts, in tile units (keeps dashes in step).
    let lengthBefore: Float
    let minZoom: Float
    /// An outline: segments along the tile's cut edges are not stroked.
    let outline: Bool
  }

  /// The features of one rule of the style, in tile order.
  struct RuleItems: Sendable {
    /// Index of the rule in `BasemapStyle.rules`.
    let rule: Int
    let layer: VectorLayer
    let items: [Item]
    /// The union of the items' boxes.
    let box: TileBox
    let chunks: [Chunk]
    let points: [TilePoint]
    /// The chunks by where they are, for rules drawn all chunks at once.
    let grid: ChunkGrid
  }

  /// The chunks of a rule sorted into an 8 × 8 grid over their union box, so a map tile
  /// looks only at the chunks in the bins it meets (a map tile covers a few of a vector
  /// tile's bins). Each chunk is listed in every bin it meets and given once per query, from
  /// the first bin of the query it is in.
  struct ChunkGrid: Sendable {
    static let side: Int32 = 8
    let originX: Int32
    let originY: Int32
    /// A bin's width and height in tile units (at least 1).
    let binWidth: Int32
    let binHeight: Int32
    /// `indices[starts[b]..<starts[b + 1]]`: the chunks in bin b (row-major), in order.
    let starts: [Int32]
    let indices: [Int32]
    /// Each chunk's first bin, column and row.
    let firstBinX: [UInt8]
    let firstBinY: [UInt8]

    init(_ chunks: [Chunk]) {
      var box = TileBox.empty
      for c in chunks { box.formUnion(c.box) }
      let side = Self.side
      if box.isEmpty { box = TileBox(minX: 0, minY: 0, maxX: 0, maxY: 0) }
      originX = box.minX
      originY = box.minY
      binWidth = Swift.max(1, Int32((Int64(box.maxX) - Int64(box.minX)) / Int64(side) + 1))
      binHeight = Swift.max(1, Int32((Int64(box.maxY) - Int64(box.minY)) / Int64(side) + 1))
      var counts = [Int32](repeating: 0, count: Int(side * side) + 1)
      for c in chunks {
        let (x0, y0, x1, y1) = Self.bins(c.box, originX, originY, binWidth, binHeight)
        for by in y0...y1 { for bx in x0...x1 { counts[Int(by * side + bx) + 1] += 1 } }
      }
      for b in 1..<counts.count { counts[b] += counts[b - 1] }
      var fill = counts
      var indices = [Int32](repeating: 0, count: Int(counts.last!))
      var firstX = [UInt8](repeating: 0, count: chunks.count)
      var firstY = [UInt8](repeating: 0, count: chunks.count)
      for (n, c) in chunks.enumerated() {
        let (x0, y0, x1, y1) = Self.bins(c.box, originX, originY, binWidth, binHeight)
        firstX[n] = UInt8(x0)
        firstY[n] = UInt8(y0)
        for by in y0...y1 {
          for bx in x0...x1 {
            let b = Int(by * side + bx)
            indices[Int(fill[b])] = Int32(n)
            fill[b] += 1
          }
        }
      }
      starts = counts
      self.indices = indices
      firstBinX = firstX
      firstBinY = firstY
    }

    /// The bins (clamped to the grid) a box covers.
    @inline(__always) static func bins(
      _ b: TileBox, _ ox: Int32, _ oy: Int32, _ bw: Int32, _ bh: Int32
    ) -> (Int32, Int32, Int32, Int32) {
      @inline(__always) func bin(_ v: Int32, _ o: Int32, _ size: Int32) -> Int32 {
        let k = (Int64(v) - Int64(o)) / Int64(size)
        return Int32(Swift.min(Swift.max(k, 0), Int64(side - 1)))
      }
      return (bin(b.minX, ox, bw), bin(b.minY, oy, bh), bin(b.maxX, ox, bw), bin(b.maxY, oy, bh))
    }

    /// Calls `body` once with the index of every chunk in a bin that `box` meets (a chunk
    /// whose own box misses `box` may be among them), in no particular order.
    @inline(__always) func forEachChunk(near box: TileBox, _ body: (Int) -> Void) {
      let side = Self.side
      let (qx0, qy0, qx1, qy1) = Self.bins(box, originX, originY, binWidth, binHeight)
      starts.withUnsafeBufferPointer { starts in
        indices.withUnsafeBufferPointer { indices in
          firstBinX.withUnsafeBufferPointer { fx in
            firstBinY.withUnsafeBufferPointer { fy in
              for by in qy0...qy1 {
                for bx in qx0...qx1 {
                  let b = Int(by * side + bx)
                  for k in Int(starts[b])..<Int(starts[b + 1]) {
                    let n = Int(indices[k])
                    // Once: from the first bin of this query that the chunk is in.
                    if Swift.max(Int32(fx[n]), qx0) == bx && Swift.max(Int32(fy[n]), qy0) == by {
                      body(n)
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }

  let styleName: String
  let rules: [RuleItems]

  init(tile: DecodedTile, style: BasemapStyle) {
    styleName = style.name
    var out: [RuleItems] = []
    for (index, rule) in style.rules.enumerated() {
      guard rule.fill != nil || rule.stroke != nil, let layer = tile.layer(named: rule.layer)
      else { continue }
      let keyIndex = rule.key.flatMap { layer.keyIndex(of: $0) }
      if rule.key != nil && !rule.values.isEmpty && keyIndex == nil { continue }
      let levelIndex = rule.maxLevel.flatMap { layer.keyIndex(of: $0.key) }
      let fromIndex = rule.minZoomKey.flatMap { layer.keyIndex(of: $0) }
      var items: [Item] = []
      var box = TileBox.empty
      var chunks: [Chunk] = []
      var chunkPoints: [TilePoint] = []
      for feature in layer {
        let polygon: Bool
        switch feature.type {
        case .polygon: polygon = true
        case .lineString:
          guard rule.stroke != nil else { continue }
          polygon = false
        default: continue
        }
        if let k = keyIndex, !rule.values.isEmpty {
          guard let v = feature.value(forKeyIndex: k)?.stringValue, rule.values.contains(v) else {
            continue
          }
        }
        if let (_, limit) = rule.maxLevel {
          guard let k = levelIndex, let level = feature.value(forKeyIndex: k)?.doubleValue,
            level <= limit
          else { continue }
        }
        var from = rule.minZoom
        if let k = fromIndex, let z = feature.value(forKeyIndex: k)?.doubleValue {
          from = Swift.max(from, z)
        }
        let b = feature.boundingBox
        guard !b.isEmpty else { continue }
        let parts = feature.partIndices
        let firstChunk = Int32(chunks.count)
        if rule.stroke != nil {
          layer.withFlatGeometry { points, offsets in
            for p in parts {
              Self.cut(
                points[Int(offsets[p])..<Int(offsets[p + 1])], ring: polygon, minZoom: from,
                into: &chunks, points: &chunkPoints)
            }
          }
        }
        items.append(
          Item(
            box: b, parts: Int32(parts.lowerBound)..<Int32(parts.upperBound), minZoom: from,
            polygon: polygon, chunks: firstChunk..<Int32(chunks.count)))
        box.formUnion(b)
      }
      if !items.isEmpty {
        out.append(
          RuleItems(
            rule: index, layer: layer, items: items, box: box, chunks: chunks,
            points: chunkPoints, grid: ChunkGrid(chunks)))
      }
    }
    rules = out
  }

  /// Cuts one part (a line, or a ring that closes back on its first vertex) into chunks.
  static func cut(
    _ part: Slice<UnsafeBufferPointer<TilePoint>>, ring: Bool, minZoom: Double,
    into chunks: inout [Chunk], points: inout [TilePoint]
  ) {
    guard let first = part.first else { return }
    var vertices = Array(part)
    if ring && vertices.count > 2 { vertices.append(first) }
    var length = 0.0
    var start = 0
    repeat {
      let end = min(start + Chunk.maximumVertices, vertices.count)
      var box = TileBox.empty
      let base = Int32(points.count)
      for v in vertices[start..<end] {
        box.formUnion(v)
        points.append(v)
      }
      chunks.append(
        Chunk(
          box: box, start: base, count: Int32(end - start), lengthBefore: Float(length),
          minZoom: Float(minZoom), outline: ring))
      for k in start..<(end - 1) {
        let dx = Double(vertices[k + 1].x - vertices[k].x)
        let dy = Double(vertices[k + 1].y - vertices[k].y)
        length += (dx * dx + dy * dy).squareRoot()
      }
      // The next piece starts at this one's last vertex.
      start = end - 1
    } while start < vertices.count - 1
  }

  /// Approximate memory held, in bytes.
  var byteCount: Int {
    rules.reduce(64) {
      $0 + 64 + $1.items.count * MemoryLayout<Item>.stride + $1.chunks.count
        * MemoryLayout<Chunk>.stride + $1.points.count * MemoryLayout<TilePoint>.stride
        + ($1.grid.starts.count + $1.grid.indices.count) * 4 + $1.grid.firstBinX.count * 2
    }
  }
}

/// The prepared forms of a decoded tile, made on first use (usually one: one style).
final class PreparedTileCache: Sendable {
  private let slot = Mutex<PreparedVectorTile?>(nil)

  /// The tile prepared for `style`, made now if it was not (or was for another style).
  func prepared(_ tile: DecodedTile, for style: BasemapStyle) -> PreparedVectorTile {
    if let p = slot.withLock({ $0 }), p.styleName == style.name { return p }
    let made = PreparedVectorTile(tile: tile, style: style)
    slot.withLock { $0 = made }
    return made
  }
}

extension TileBox {
  /// Whether two boxes share a point (edges included).
  @inline(__always) func meets(_ o: TileBox) -> Bool {
    minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
  }
}
