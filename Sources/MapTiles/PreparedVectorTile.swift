import DotRaster
import Synchronization
import TileData

/// The pieces a decoded vector tile is sorted out into for drawing (`PreparedStyledTile`): for
/// each layer of the style, the features it draws, with their boxes, parts and the zoom they
/// show from, and their lines cut into chunks. Drawing a map tile then walks flat lists (a box
/// test and a zoom compare per feature) instead of matching every feature's properties again
/// for each of the dozens of map tiles a vector tile covers and at each zoom step.
final class PreparedVectorTile: Sendable {
  /// One feature a layer draws.
  struct Item: Sendable {
    let box: TileBox
    let parts: Range<Int32>
    /// The zoom level the feature shows from (its layer's `minzoom`).
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

  /// The features of one layer of the style (or one group of them that paint alike), in tile
  /// order.
  struct RuleItems: Sendable {
    /// Index of the layer in `StyledDrawPlan.layers`.
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
}

extension TileBox {
  /// Whether two boxes share a point (edges included).
  @inline(__always) func meets(_ o: TileBox) -> Bool {
    minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
  }
}
