import DotRaster
import MapGeometry
import Synchronization

/// A map-rect tile of one overlay at one zoom scale: column i and row j of the dot grid cut
/// into `TileGrid.size`-dot squares.
struct TileKey: Hashable {
  let overlay: ObjectIdentifier
  let scaleBits: UInt64
  let i: Int32
  let j: Int32
}

/// How the world is cut into overlay tiles.
enum TileGrid {
  /// Tile edge in dots (a whole number of cells both ways).
  static let size = 128
  /// All of a tile's dots, in its own dots.
  static let whole = DotRect(minX: 0, minY: 0, maxX: size, maxY: size)

  static func mapRect(i: Int, j: Int, zoomScale: Double) -> MapRect {
    let s = Double(size) / zoomScale
    return MapRect(x: Double(i) * s, y: Double(j) * s, width: s, height: s).intersection(.world)
  }
}

/// A drawn overlay tile: its dots, and the same summed up per cell (what the compositor
/// stacks when the tile sits on whole cells and nothing above cuts into it). When the last
/// copy of a drawn tile goes, its dot canvas goes back to `TileCanvasPool` for the next tile.
struct DrawnTile: Equatable {
  /// The dots, held by an object that hands them to the pool when it goes.
  private let storage: PooledDots
  /// The cells of the part of the tile that was drawn (all of it, or the cells that meet the
  /// area it was drawn in), from cell (`cellColumn`, `cellRow`) of the tile; their text runs
  /// are anchored on the dot grid of these cells. (Made, looked at and cleared for the drawn
  /// part only: a new view draws half a tile's dots or less.)
  let cells: CellCanvas
  /// The tile's cell column where `cells` begins.
  let cellColumn: Int
  /// The tile's cell row where `cells` begins.
  let cellRow: Int
  /// The tile's dots.
  var dots: DotCanvas { storage.canvas }

  /// A tile drawn in `area` of its dots (nil: all) with the text drawn on it (carried by its
  /// cells), or nil when it has neither a dot nor text there (the canvas then goes back to
  /// the pool at once). The dots must all lie in `area` (the clip the tile was drawn with).
  /// The dots may hold `pending` draws (`DrawingContext.takeCanvasUnsettled()`): the cells
  /// are summed without settling them, and they are settled when the dots are first read
  /// (only tiles cut by map content above, or off the cell grid, are stacked from their dots).
  init?(
    _ dots: DotCanvas, pending: PendingInks = PendingInks(), text: [TextRun] = [],
    drawnIn area: DotRect?
  ) {
    let whole = DotRect(minX: 0, minY: 0, maxX: dots.width, maxY: dots.height)
    var (cells, column, row) = CellCanvas.cropped(dots, pending: pending, to: area ?? whole)
    if !text.isEmpty {
      cells.addText(
        text, atX: -column * CellGeometry.dotsWide, y: -row * CellGeometry.dotsHigh, layerBase: 0)
    }
    guard !cells.isBlank || !cells.textRuns.isEmpty else {
      TileCanvasPool.shared.give(dots, inked: cells, column: column, row: row)
      return nil
    }
    storage = PooledDots(dots, pending: pending, inked: cells, column: column, row: row)
    self.cells = cells
    cellColumn = column
    cellRow = row
  }

  /// Where `cells` (and its text) sit on the tile's dot grid.
  var cellOrigin: (x: Int, y: Int) {
    (cellColumn * CellGeometry.dotsWide, cellRow * CellGeometry.dotsHigh)
  }

  static func == (a: DrawnTile, b: DrawnTile) -> Bool {
    a.cells == b.cells && a.cellColumn == b.cellColumn && a.cellRow == b.cellRow
      && a.dots == b.dots
  }
}

/// A drawn tile's dot canvas, given back to `TileCanvasPool` when the last drawn tile holding
/// it goes; its pending draws are settled when its dots are first read.
///
/// `Sendable`: the canvas and its pending draws are values behind a lock, `inked` an
/// immutable value.
private final class PooledDots: Sendable {
  private let held: Mutex<(canvas: DotCanvas, pending: PendingInks)>
  /// The canvas summed up per cell, from cell (`column`, `row`) (which cells the pool clears
  /// when it is used again).
  let inked: CellCanvas
  let column: Int
  let row: Int
  init(_ canvas: DotCanvas, pending: PendingInks, inked: CellCanvas, column: Int, row: Int) {
    held = Mutex((canvas, pending))
    self.inked = inked
    self.column = column
    self.row = row
  }
  /// The dots, settled.
  var canvas: DotCanvas {
    held.withLock { h in
      if !h.pending.isEmpty {
        h.pending.settle(&h.canvas)
        h.pending = PendingInks()
      }
      return h.canvas
    }
  }
  // (Settled or not: the pool clears the inked cells, and pending inks are ink.)
  deinit {
    TileCanvasPool.shared.give(held.withLock { $0.canvas }, inked: inked, column: column, row: row)
  }
}

/// Tile canvases used again: a tile drawn takes a canvas that a dropped tile gave back, and
/// clears only the cells that held ink (a new canvas of `TileGrid.size` dots square is cleared
/// whole: 64 KB per tile). At most `capacity` canvases wait here (2 MB: a 300 × 100 view's
/// map tiles, about 30, each drawn again from the pool). A canvas someone else still holds a
/// copy of is copied on its first write, as any array is, so the pool never changes a copy in
/// use.
final class TileCanvasPool: Sendable {
  static let shared = TileCanvasPool()
  static let capacity = 32
  private let canvases = Mutex<[(canvas: DotCanvas, inked: CellCanvas, column: Int, row: Int)]>(
    [])

  /// A blank canvas of `TileGrid.size` × `TileGrid.size` dots.
  func take() -> DotCanvas {
    guard let (pooled, inked, column, row) = canvases.withLock({ $0.popLast() }) else {
      return DotCanvas(width: TileGrid.size, height: TileGrid.size)
    }
    var canvas = pooled
    canvas.clearInkedCells(of: inked, column: column, row: row)
    return canvas
  }

  /// Takes back a tile's canvas, `inked` being its cells from cell (`column`, `row`) (all its
  /// dots lie in them); canvases of another size are not kept. A colour plane is cleared with
  /// the dots and kept (`DotCanvas.clearInkedCells`).
  func give(_ canvas: DotCanvas, inked: CellCanvas, column: Int = 0, row: Int = 0) {
    guard canvas.width == TileGrid.size && canvas.height == TileGrid.size,
      column >= 0, row >= 0,
      (column + inked.columns) * CellGeometry.dotsWide <= canvas.width,
      (row + inked.rows) * CellGeometry.dotsHigh <= canvas.height
    else { return }
    canvases.withLock {
      if $0.count < Self.capacity { $0.append((canvas, inked, column, row)) }
    }
  }
}

/// Drawn overlay tiles, reused while panning and dropped where renderers ask for a redraw;
/// bounded, least recently used first out. At most `capacity` tiles (and a quarter more before
/// the oldest go): 1,024 map tiles of 128 dots square (64 KB of dots each, 64 MB in all) are
/// the 4,096 tiles of 64 dots the cache held before, the same map area and bytes.
struct TileCache {
  enum Entry {
    /// Drawn where `area` says (the tile's own dots: all of them, or the part that showed
    /// when it was drawn); nil when the tile holds no dots there.
    case drawn(DrawnTile?, area: DotRect)
    /// `canDraw` said no; not asked again until the renderer invalidates the tile.
    case waiting
  }

  private var entries: [TileKey: (entry: Entry, used: UInt64)] = [:]
  private var clock: UInt64 = 0
  var capacity = 1024

  var count: Int { entries.count }

  mutating func lookup(_ key: TileKey) -> Entry? {
    guard var e = entries[key] else { return nil }
    clock += 1
    e.used = clock
    entries[key] = e
    return e.entry
  }

  mutating func store(_ entry: Entry, for key: TileKey) {
    clock += 1
    entries[key] = (entry, clock)
    if entries.count > capacity + capacity / 4 { evict() }
  }

  private mutating func evict() {
    let keep = entries.sorted { $0.value.used > $1.value.used }.prefix(capacity)
    entries = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
  }

  mutating func removeAll(of overlay: ObjectIdentifier) {
    entries = entries.filter { $0.key.overlay != overlay }
  }

  mutating func removeAll() { entries.removeAll() }

  /// Drops an overlay's tiles that meet `rect` (at one zoom scale, or all when nil).
  mutating func invalidate(_ overlay: ObjectIdentifier, rect: MapRect?, zoomScale: Double?) {
    let bits = zoomScale?.bitPattern
    entries = entries.filter { key, _ in
      guard key.overlay == overlay else { return true }
      if let b = bits, key.scaleBits != b { return true }
      guard let r = rect else { return false }
      let s = Double(bitPattern: key.scaleBits)
      let tile = TileGrid.mapRect(i: Int(key.i), j: Int(key.j), zoomScale: s)
      let w = MapSize.world.width
      return
        !(tile.intersects(r) || tile.intersects(r.offsetBy(dx: w, dy: 0))
        || tile.intersects(r.offsetBy(dx: -w, dy: 0)))
    }
  }
}
