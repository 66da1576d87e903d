import DotRaster
import Foundation
import MapGeometry
import Synchronization

/// A decoded tile a `TileOverlayRenderer` keeps in its cache and draws from.
public protocol TileContent: Sendable {
  /// Roughly the memory the content holds, for the cache's bound.
  var byteCount: Int { get }
}

/// Undecoded tile bytes: what `TileOverlay.loadTileContent(at:result:)` answers by default
/// (the renderer decodes them with `decodeTile`), and what the base `TileOverlayRenderer`'s
/// `decodeTile` keeps (bytes are not drawn).
public struct TileBytes: TileContent {
  /// The bytes.
  public let data: Data
  /// Bytes kept as they came.
  public init(_ data: Data) { self.data = data }
  public var byteCount: Int { data.count }
}

/// A tile made of dots: a grid of coloured points over the tile's square (256 × 256 by
/// default, one per pixel of a 256-pixel tile), drawn by every `TileOverlayRenderer`. What a
/// generated layer answers from `TileOverlay.loadTileContent(at:result:)`: a heat map, a grid,
/// a mask. Points are sampled to the dots on screen (the nearest point for each dot).
public struct TileDots: TileContent, Equatable {
  /// Points across the tile.
  public let width: Int
  /// Points down the tile.
  public let height: Int
  /// Per point, row by row.
  private var points: [TermColor?]

  /// An empty tile of `width` × `height` points (at least 1 × 1).
  public init(width: Int = 256, height: Int = 256) {
    self.width = max(1, width)
    self.height = max(1, height)
    points = Array(repeating: nil, count: self.width * self.height)
  }

  /// The colour of the point at column `x`, row `y` (0, 0 at the tile's north-west corner),
  /// nil where there is none; setting nil clears it. Points outside the tile are ignored.
  public subscript(x: Int, y: Int) -> TermColor? {
    get {
      guard x >= 0, y >= 0, x < width, y < height else { return nil }
      return points[y * width + x]
    }
    set {
      guard x >= 0, y >= 0, x < width, y < height else { return }
      points[y * width + x] = newValue
    }
  }

  /// The number of points set.
  public var count: Int { points.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

  public var byteCount: Int { points.count * 8 }

  /// Draws the points of tile `path` that fall in the context's clip, one dot per dot on
  /// screen (the nearest point), on the fill layer. `origin` is the map point at the context's
  /// (0, 0) (the overlay's `boundingMapRect.origin`).
  public func draw(at path: TileOverlayPath, origin: MapPoint, in context: DrawingContext) {
    let m = context.transform
    guard m.scaleX > 0, m.scaleY > 0 else { return }
    let tile = path.mapRect
    // Screen dots of the tile's corners.
    let x0 = m.translateX + (tile.minX - origin.x) * m.scaleX
    let y0 = m.translateY + (tile.minY - origin.y) * m.scaleY
    let w = tile.width * m.scaleX
    let h = tile.height * m.scaleY
    let clip = context.clipBounds
    let cx0 = max(clip.minX, Int(x0.rounded(.down)))
    let cy0 = max(clip.minY, Int(y0.rounded(.down)))
    let cx1 = min(clip.maxX, Int((x0 + w).rounded(.up)))
    let cy1 = min(clip.maxY, Int((y0 + h).rounded(.up)))
    guard cx0 < cx1, cy0 < cy1 else { return }
    let (sx, sy) = (Double(width) / w, Double(height) / h)
    let layer = DrawingContext.fillLayer
    context.withCanvas { canvas in
      for y in cy0..<cy1 {
        let py = Int(((Double(y) + 0.5 - y0) * sy).rounded(.down))
        guard py >= 0, py < height else { continue }
        for x in cx0..<cx1 {
          let px = Int(((Double(x) + 0.5 - x0) * sx).rounded(.down))
          guard px >= 0, px < width else { continue }
          if let color = points[py * width + px] {
            canvas.plot(x: x, y: y, layer: layer, color: color)
          }
        }
      }
    }
  }
}

/// Draws a `TileOverlay` (MKTileOverlayRenderer): loads tiles in the background and draws the
/// cached ones.
///
/// - `canDraw(_:zoomScale:)` starts one load per missing tile (through the overlay's
///   `loadTile(at:result:)`) and answers false while nothing can stand in for it. When a load
///   ends, the bytes are decoded (`decodeTile`), cached, and `setNeedsDisplay(_:)` is called
///   for that tile's rect, so only the map tiles it covers are drawn again. Loads are reported
///   with `reportLoading`, so the map's delegate hears will-start/did-finish/did-fail loading.
/// - Meanwhile a cached ancestor (scaled up) or cached children stand in. Above `maximumZ`,
///   or where the overlay has no tile, the deepest ancestor is drawn scaled up.
/// - A load that failed is not retried for `retryInterval` seconds; a tile that failed to
///   decode is not asked for again until `reloadData()`.
/// - Decoded tiles are kept in a cache bounded by `cacheLimit` bytes, least recently used out.
///
/// Tiles come from the overlay's `loadTileContent(at:result:)`: bytes are decoded
/// (`decodeTile`), decoded content is kept as it came. A tile whose load or decoding failed,
/// or that has nothing to draw where the overlay has bounds, counts in
/// `failedTileCount(in:zoomScale:)`, so the frame is not fully rendered.
///
/// This class draws `TileDots`; subclasses say how bytes become content (`decodeTile`) and
/// how content is drawn (`drawTile`), and may choose the tile zoom
/// (`tileZoom(forZoomScale:)`).
///
/// `@unchecked Sendable`: the overlay is thread-safe, and the cache and load book live behind
/// one mutex (`store`); subclasses must keep their own state immutable or locked.
open class TileOverlayRenderer: OverlayRenderer, @unchecked Sendable {
  /// The overlay drawn.
  public let tileOverlay: TileOverlay
  /// Seconds before a tile whose load failed is asked for again.
  public let retryInterval: TimeInterval
  /// Bytes of decoded content kept.
  public let cacheLimit: Int

  enum Entry {
    case content(any TileContent)
    /// The overlay has no tile there.
    case missing
    /// The bytes could not be decoded.
    case undecodable
  }

  /// A cache entry: what is known of a tile, when it was last used, the bytes it holds.
  struct Cached {
    var entry: Entry
    var used: UInt64
    var bytes: Int

    /// Marks the entry used at `clock` and gives what is known.
    @inline(__always) mutating func touch(_ clock: UInt64) -> Entry {
      used = clock
      return entry
    }
  }

  struct Store {
    var entries: [TileOverlayPath: Cached] = [:]
    var bytes = 0
    var clock: UInt64 = 0
    var inFlight = Set<TileOverlayPath>()
    var failedAt: [TileOverlayPath: Date] = [:]
    var generation = 0
    var started = 0
  }

  let store = Mutex(Store())

  /// A renderer for a tile overlay, retrying failed tiles after `retryInterval` seconds and
  /// keeping at most `cacheLimit` bytes of decoded tiles.
  public init(
    tileOverlay: TileOverlay, retryInterval: TimeInterval = 30, cacheLimit: Int = 64 << 20
  ) {
    self.tileOverlay = tileOverlay
    self.retryInterval = retryInterval
    self.cacheLimit = cacheLimit
    super.init(overlay: tileOverlay)
  }

  // MARK: For subclasses

  /// The tile zoom drawn at a zoom scale: one tile pixel per dot (a 256-pixel tile at zoom z
  /// is 256 dots wide when the map's zoom level is z), so 512-pixel tiles come one zoom down.
  open func tileZoom(forZoomScale zoomScale: Double) -> Int {
    let level = ZoomMath.zoomLevel(forZoomScale: zoomScale)
    let size = Double(tileOverlay.tileSize)
    return max(0, Int((level - log2(size / 256)).rounded()))
  }

  /// Turns loaded bytes into content to cache and draw. The default keeps the bytes.
  open func decodeTile(_ data: Data, at path: TileOverlayPath) throws -> any TileContent {
    TileBytes(data)
  }

  /// Draws the part of a tile's content inside `mapRect` (content of tile `path`, which may be
  /// an ancestor or a child of the tiles the rect needs). The context is set up as for
  /// `draw(_:zoomScale:in:)`. The default draws `TileDots` and nothing else.
  open func drawTile(
    _ content: any TileContent, at path: TileOverlayPath, in mapRect: MapRect, zoomScale: Double,
    context: DrawingContext
  ) {
    if let dots = content as? TileDots {
      dots.draw(at: path, origin: tileOverlay.boundingMapRect.origin, in: context)
    }
  }

  /// Content another map's renderer of the same class decoded, taken from the overlay's
  /// `TileOverlay.sharedContent` instead of loading the tile; called before it is cached and
  /// drawn. The default does nothing; a renderer that learns from the tiles it decodes (the
  /// schema of vector tiles, say) looks at the content here too.
  open func didAdoptSharedContent(_ content: any TileContent, at path: TileOverlayPath) {}

  /// Ink layers the drawing uses (one per style rule, say).
  open override var inkLayerCount: UInt32 { 4 }

  // MARK: Cache

  /// The cached content of a tile, if any.
  public func cachedContent(at path: TileOverlayPath) -> (any TileContent)? {
    store.withLock { s in
      if case .content(let c)? = s.entries[path]?.entry { return c }
      return nil
    }
  }

  /// Drops every cached tile and redraws (MKTileOverlayRenderer.reloadData).
  public func reloadData() {
    store.withLock { s in
      s.entries.removeAll()
      s.bytes = 0
      s.failedAt.removeAll()
      s.generation += 1
      s.inFlight.removeAll()
    }
    setNeedsDisplay()
  }

  /// Loads started so far (each tile once while in flight).
  public var loadsStarted: Int { store.withLock { $0.started } }

  /// Tiles being loaded now.
  public var tilesInFlight: Set<TileOverlayPath> { store.withLock { $0.inFlight } }

  /// Counts `reloadData()` calls: content cached by a subclass (e.g. labels per tile) is stale
  /// when this has moved on.
  public var contentGeneration: Int { store.withLock { $0.generation } }

  /// Decoded bytes held in the cache.
  public var cachedBytes: Int { store.withLock { $0.bytes } }

  func entry(_ path: TileOverlayPath) -> Entry? {
    store.withLock { s in
      // One look-up: the entry is marked used in place.
      let clock = s.clock + 1
      guard let e = s.entries[path]?.touch(clock) else { return nil }
      s.clock = clock
      return e
    }
  }

  func put(_ entry: Entry, for path: TileOverlayPath, generation: Int) {
    let bytes: Int
    if case .content(let c) = entry { bytes = max(c.byteCount, 64) } else { bytes = 64 }
    store.withLock { s in
      guard s.generation == generation else { return }
      s.clock += 1
      if let old = s.entries[path] { s.bytes -= old.bytes }
      s.entries[path] = Cached(entry: entry, used: s.clock, bytes: bytes)
      s.bytes += bytes
      if s.bytes > cacheLimit {
        // Evict the least recently used until three quarters of the limit are left.
        let order = s.entries.sorted { $0.value.used < $1.value.used }
        for (key, value) in order where s.bytes > cacheLimit * 3 / 4 {
          s.entries.removeValue(forKey: key)
          s.bytes -= value.bytes
        }
      }
    }
  }

  // MARK: Finding and loading tiles

  /// What is known about a tile the map needs.
  struct Resolution {
    /// The tile to draw: the best one or, while `complete` is false, a cached stand-in.
    var drawn: (path: TileOverlayPath, content: any TileContent)?
    /// True when nothing better is on its way (all needed tiles are cached, missing or failed).
    var complete: Bool
    /// The tile to load (the best not yet cached), if any.
    var load: TileOverlayPath? = nil
    /// True when a tile on the way failed to load or decode (what is drawn, if anything, is
    /// a coarser stand-in).
    var failed = false
  }

  /// Looks for tile `path` in the cache: the tile or (above `maximumZ`, or where the overlay
  /// has none) its deepest ancestor. The first tile on that path not cached yet is the one to
  /// load; the search goes on in the cache only, for a stand-in.
  func resolve(_ path: TileOverlayPath, now: Date) -> Resolution {
    let (minZ, maxZ) = (tileOverlay.minimumZ, tileOverlay.maximumZ)
    guard path.isValid, path.z >= minZ else { return Resolution(drawn: nil, complete: true) }
    let bounds = tileOverlay.boundingMapRect
    var load: TileOverlayPath?
    var blocked = false
    var z = min(path.z, maxZ)
    while z >= minZ {
      let candidate = path.ancestor(atZoom: z)
      z -= 1
      guard bounds.intersects(candidate.mapRect) else { continue }
      switch entry(candidate) {
      case .content(let c)?:
        return Resolution(
          drawn: (candidate, c), complete: load == nil, load: load, failed: blocked)
      case .missing?:
        continue
      case .undecodable?:
        blocked = true
      case nil:
        if load != nil || blocked { continue }
        if let at = store.withLock({ $0.failedAt[candidate] }),
          now.timeIntervalSince(at) < retryInterval
        {
          blocked = true
          continue
        }
        load = candidate
      }
    }
    return Resolution(drawn: nil, complete: load == nil, load: load, failed: blocked)
  }

  /// Cached children (one zoom deeper) that can stand in for `path`.
  func cachedChildren(of path: TileOverlayPath) -> [(
    path: TileOverlayPath, content: any TileContent
  )] {
    guard path.z < min(30, tileOverlay.maximumZ) else { return [] }
    return path.children.compactMap { c in
      if case .content(let content)? = entry(c) { return (c, content) }
      return nil
    }
  }

  /// The content to draw for a tile the map needs: the best cached tile or a stand-in.
  public func bestCachedTile(for path: TileOverlayPath) -> (
    path: TileOverlayPath, content: any TileContent
  )? {
    resolve(path, now: Date()).drawn
  }

  /// Starts a background load unless one is in flight for the same tile.
  func startLoad(_ path: TileOverlayPath) {
    let shared = tileOverlay.sharedContent
    let sharedKey = SharedTileContent.Key(renderer: ObjectIdentifier(type(of: self)), path: path)
    // Another map's renderer of this kind decoded it already: no load, no decode.
    if let shared, let content = shared.content(for: sharedKey) {
      didAdoptSharedContent(content, at: path)
      put(.content(content), for: path, generation: contentGeneration)
      setNeedsDisplay(path.mapRect)
      return
    }
    let generation = store.withLock { s -> Int? in
      // The caller found the tile neither cached nor failed, but a load of it may have ended
      // since (on another thread: its end caches the tile, or books the failure, before it
      // leaves the in-flight set). Looked at again with the booking, under the lock that end
      // takes, such a tile is not loaded a second time.
      if s.entries[path] != nil { return nil }
      if let at = s.failedAt[path], Date().timeIntervalSince(at) < retryInterval { return nil }
      guard s.inFlight.insert(path).inserted else { return nil }
      s.started += 1
      return s.generation
    }
    guard let generation else { return }
    reportLoading(.started)
    let asked = tileOverlay.isGeometryFlipped ? path.flipped : path
    tileOverlay.loadTileContent(at: asked) { [self] content, error in
      var failure = error
      if failure == nil {
        if let content {
          do {
            // Bytes are decoded; content decoded by the overlay is kept as it came.
            let decoded =
              try (content as? TileBytes).map { try decodeTile($0.data, at: path) } ?? content
            put(.content(decoded), for: path, generation: generation)
            shared?.put(decoded, for: sharedKey)
          } catch {
            put(.undecodable, for: path, generation: generation)
            failure = error
          }
        } else {
          put(.missing, for: path, generation: generation)
        }
      }
      store.withLock { s in
        guard s.generation == generation else { return }
        s.inFlight.remove(path)
        if let e = error, !(e is CancellationError) {
          let now = Date()
          s.failedAt = s.failedAt.filter { now.timeIntervalSince($0.value) < retryInterval }
          s.failedAt[path] = now
        }
      }
      if failure is CancellationError { failure = nil }
      // Redraw the map tiles this tile covers (waiting ones are asked again, stand-ins are
      // replaced), then say the load ended.
      setNeedsDisplay(path.mapRect)
      if let failure {
        reportLoading(.failed(failure))
      } else {
        reportLoading(.finished)
      }
    }
  }

  /// Once per frame: tells the overlay which tiles the view wants (nearest the centre first)
  /// so that queued network requests are reordered and the rest cancelled.
  open override func visibleAreaDidChange(_ visible: [MapRect], zoomScale: Double, focus: MapPoint)
  {
    let z = min(tileZoom(forZoomScale: zoomScale), tileOverlay.maximumZ)
    var wanted = Set<TileOverlayPath>()
    for r in visible {
      for p in TileOverlayPath.tiles(covering: r, zoom: z) {
        wanted.insert(tileOverlay.isGeometryFlipped ? p.flipped : p)
      }
    }
    tileOverlay.loadingDidChange(focus: focus, wanted: wanted)
  }

  /// The tiles the rects need (at the tile zoom of `zoomScale`) that failed: their load or
  /// decoding failed (even where a coarser tile stands in), or nothing can be drawn and
  /// nothing is on its way though the overlay has bounds there (no tile down to `minimumZ`).
  open override func failedTileCount(in mapRects: [MapRect], zoomScale: Double) -> Int {
    let tz = min(tileZoom(forZoomScale: zoomScale), tileOverlay.maximumZ)
    guard tz >= tileOverlay.minimumZ else { return 0 }
    let bounds = tileOverlay.boundingMapRect
    let now = Date()
    var failed = Set<TileOverlayPath>()
    for rect in mapRects {
      for path in TileOverlayPath.tiles(covering: rect.intersection(bounds), zoom: tz) {
        let r = resolve(path, now: now)
        if r.failed || (r.drawn == nil && r.complete && r.load == nil) { failed.insert(path) }
      }
    }
    return failed.count
  }

  // MARK: MKOverlayRenderer

  /// Whether this overlay hides map content beneath it at a zoom scale: when it can replace
  /// map content and has tiles at that zoom.
  open override func replacesMapContent(zoomScale: Double) -> Bool {
    tileOverlay.canReplaceMapContent && tileZoom(forZoomScale: zoomScale) >= tileOverlay.minimumZ
  }

  /// False when a tile the rect needs has nothing to draw and nothing on its way (it failed,
  /// or the overlay has no tile there down to `minimumZ`).
  open override func coversMapContent(_ mapRect: MapRect, zoomScale: Double) -> Bool {
    let tz = tileZoom(forZoomScale: zoomScale)
    let now = Date()
    for path in TileOverlayPath.tiles(covering: mapRect, zoom: tz) {
      let r = resolve(path, now: now)
      if r.drawn == nil && r.complete { return false }
    }
    return true
  }

  /// True when every tile the rect needs is cached (or known missing or failed), or something
  /// cached can stand in meanwhile; starts loading what is missing.
  open override func canDraw(_ mapRect: MapRect, zoomScale: Double) -> Bool {
    let tz = tileZoom(forZoomScale: zoomScale)
    var drawable = true
    let now = Date()
    for path in TileOverlayPath.tiles(covering: mapRect, zoom: tz) {
      let r = resolve(path, now: now)
      if let load = r.load { startLoad(load) }
      if r.drawn == nil && !r.complete && cachedChildren(of: path).isEmpty { drawable = false }
    }
    return drawable
  }

  /// Draws the cached tiles for the rect (the best ones, or stand-ins while they load),
  /// clipped to the overlay's bounds.
  open override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let tz = tileZoom(forZoomScale: zoomScale)
    let bounds = tileOverlay.boundingMapRect
    let clipped = !bounds.contains(mapRect)
    if clipped {
      context.saveGState()
      context.clip(to: rect(for: bounds))
    }
    // The tiles drawn (a map tile meets a few: a list is cheaper than a set).
    var drawn: [TileOverlayPath] = []
    let now = Date()
    for path in TileOverlayPath.tiles(covering: mapRect, zoom: tz) {
      let r = resolve(path, now: now)
      if let t = r.drawn {
        if !drawn.contains(t.path) {
          drawn.append(t.path)
          drawTile(t.content, at: t.path, in: mapRect, zoomScale: zoomScale, context: context)
        }
        continue
      }
      guard !r.complete else { continue }
      for t in cachedChildren(of: path) where !drawn.contains(t.path) {
        drawn.append(t.path)
        drawTile(t.content, at: t.path, in: mapRect, zoomScale: zoomScale, context: context)
      }
    }
    if clipped { context.restoreGState() }
  }
}
