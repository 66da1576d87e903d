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
  static let size = 64
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
  let cells: CellCanvas
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
    var cells = CellCanvas(dots, pending: pending, within: area)
    if !text.isEmpty { cells.addText(text, atX: 0, y: 0, layerBase: 0) }
    guard !cells.isBlank || !cells.textRuns.isEmpty else {
      TileCanvasPool.shared.give(dots, inked: cells)
      return nil
    }
    storage = PooledDots(dots, pending: pending, inked: cells)
    self.cells = cells
  }

  static func == (a: DrawnTile, b: DrawnTile) -> Bool {
    a.cells == b.cells && a.dots == b.dots
  }
}

/// A drawn tile's dot canvas, given back to `TileCanvasPool` when the last drawn tile holding
/// it goes; its pending draws are settled when its dots are first read.
///
/// `Sendable`: the canvas and its pending draws are values behind a lock, `inked` an
/// immutable value.
private final class PooledDots: Sendable {
  private let held: Mutex<(canvas: DotCanvas, pending: PendingInks)>
  /// The canvas summed up per cell (which cells the pool clears when it is used again).
  let inked: CellCanvas
  init(_ canvas: DotCanvas, pending: PendingInks, inked: CellCanvas) {
    held = Mutex((canvas, pending))
    self.inked = inked
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
  deinit { TileCanvasPool.shared.give(held.withLock { $0.canvas }, inked: inked) }
}

/// Tile canvases used again: a tile drawn takes a canvas that a dropped tile gave back, and
/// clears only the cells that held ink (a new canvas of `TileGrid.size` dots square is cleared
/// whole: 16 KB per tile, a tenth of a redrawn frame's instructions). At most `capacity`
/// canvases wait here. A canvas someone else still holds a copy of is copied on its first
/// write, as any array is, so the pool never changes a copy in use.
final class TileCanvasPool: Sendable {
  static let shared = TileCanvasPool()
  static let capacity = 64
  private let canvases = Mutex<[(canvas: DotCanvas, inked: CellCanvas)]>([])

  /// A blank canvas of `TileGrid.size` × `TileGrid.size` dots.
  func take() -> DotCanvas {
    guard let (pooled, inked) = canvases.withLock({ $0.popLast() }) else {
      return DotCanvas(width: TileGrid.size, height: TileGrid.size)
    }
    var canvas = pooled
    canvas.clearInkedCells(of: inked)
    return canvas
  }

  /// Takes back a tile's canvas, `inked` being its cells (all its dots lie in them); canvases
  /// of another size are not kept. A colour plane is cleared with the dots and kept
  /// (`DotCanvas.clearInkedCells`).
  func give(_ canvas: DotCanvas, inked: CellCanvas) {
    guard canvas.width == TileGrid.size && canvas.height == TileGrid.size,
      inked.columns * CellGeometry.dotsWide == canvas.width,
      inked.rows * CellGeometry.dotsHigh == canvas.height
    else { return }
    canvases.withLock {
      if $0.count < Self.capacity { $0.append((canvas, inked)) }
    }
  }
}

/// Drawn overlay tiles, reused while panning and dropped where renderers ask for a redraw;
/// bounded, least recently used first out.
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
  var capacity = 4096

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
