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
    /// The items by where they are, for the loops over a map tile's items.
    let bands: ItemBands
  }

  /// The items of a rule by where they lie: for each of 8 column bands and 8 row bands over
  /// the union of their boxes, a bit for each item whose box reaches the band (an item with a
  /// box that is not one, least beyond greatest, has its bit in every band). An item whose
  /// box meets a map tile's shares a point with it, and the column and row bands of that point
  /// are among those the tile's box reaches (a box's bands are its corners' bins,
  /// `ChunkGrid.bins`, which grow with the corners), so the items in a column band and in a
  /// row band the tile's box reaches include every item that meets it: a map tile's loop
  /// over them, in order, finds the items a loop over all finds, testing a few (a vector
  /// tile's buildings lie all over it, and a map tile covers a corner).
  struct ItemBands: Sendable {
    static let side: Int32 = 8
    let originX: Int32
    let originY: Int32
    /// A band's width and height in tile units (at least 1).
    let bandWidth: Int32
    let bandHeight: Int32
    /// Words of bits a band: item n is bit n % 64 of word n / 64.
    let words: Int
    /// The column bands' bits, then the row bands', `words` each.
    let bits: [UInt64]

    init(_ items: [Item], box: TileBox) {
      let side = Self.side
      let box = box.isEmpty ? TileBox(minX: 0, minY: 0, maxX: 0, maxY: 0) : box
      originX = box.minX
      originY = box.minY
      bandWidth = Swift.max(1, Int32((Int64(box.maxX) - Int64(box.minX)) / Int64(side) + 1))
      bandHeight = Swift.max(1, Int32((Int64(box.maxY) - Int64(box.minY)) / Int64(side) + 1))
      let words = (items.count + 63) / 64
      self.words = words
      var bits = [UInt64](repeating: 0, count: 2 * Int(side) * words)
      for (n, item) in items.enumerated() {
        let (w, bit) = (n / 64, UInt64(1) << UInt64(n % 64))
        var (x0, y0, x1, y1) = ChunkGrid.bins(item.box, originX, originY, bandWidth, bandHeight)
        if item.box.minX > item.box.maxX || item.box.minY > item.box.maxY {
          (x0, y0, x1, y1) = (0, 0, side - 1, side - 1)
        }
        for b in x0...x1 { bits[Int(b) * words + w] |= bit }
        for b in y0...y1 { bits[Int(side + b) * words + w] |= bit }
      }
      self.bits = bits
    }

    /// Calls `body` with the index of every item in a column band and in a row band that
    /// `box` reaches (every item whose box meets `box` among them), in order, each once.
    @inline(__always) func forEachItem(near box: TileBox, _ body: (Int) -> Void) {
      let (qx0, qy0, qx1, qy1) = ChunkGrid.bins(box, originX, originY, bandWidth, bandHeight)
      let (words, rows) = (self.words, Int(Self.side) * self.words)
      bits.withUnsafeBufferPointer { bits in
        for w in 0..<words {
          var x: UInt64 = 0
          var b = Int(qx0)
          while b <= Int(qx1) {
            x |= bits[b &* words &+ w]
            b &+= 1
          }
          var y: UInt64 = 0
          b = Int(qy0)
          while b <= Int(qy1) {
            y |= bits[rows &+ b &* words &+ w]
            b &+= 1
          }
          var c = x & y
          while c != 0 {
            body(w &* 64 &+ c.trailingZeroBitCount)
            c &= c &- 1
          }
        }
      }
    }
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
