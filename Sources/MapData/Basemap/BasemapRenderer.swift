import DotRaster
import Foundation
import MapGeometry
import Synchronization
import TermMapKit
import TileData

/// Draws vector tiles for a map-rect tile: for each area, the most detailed source that has
/// data there (a city's own tiles over the world's), feature by feature as the style says.
///
/// Tiles load in the background (MKTileOverlay's pattern): `canDraw(_:zoomScale:)` starts one
/// load per missing vector tile and answers false while nothing can stand in for it; when a
/// load ends the renderer calls `setNeedsDisplay(_:)` for that tile's rect, so only the map
/// tiles it covers are drawn again, and reports the load with `reportLoading`. Meanwhile a
/// cached ancestor (scaled up) or cached children stand in. A load that failed is not retried
/// for `retryInterval` seconds; the area is drawn with whatever else is cached.
///
/// `Sendable`: the providers are thread-safe (their caches are behind locks), the style and
/// source list are immutable and the load book is behind a mutex.
public final class BasemapRenderer: OverlayRenderer, @unchecked Sendable {
  /// Sources from least to most detailed.
  public let providers: [VectorTileProvider]
  public let style: BasemapStyle
  /// Seconds before a tile whose load failed is asked for again.
  public let retryInterval: TimeInterval

  /// A vector tile of one provider.
  struct LoadKey: Hashable {
    let provider: Int
    let tile: TileID
  }

  struct LoadBook {
    var inFlight = Set<LoadKey>()
    var failedAt: [LoadKey: Date] = [:]
    /// Loads started, for tests and figures.
    var started = 0
  }

  let book = Mutex(LoadBook())

  public init(
    overlay: BasemapOverlay, providers: [VectorTileProvider], style: BasemapStyle,
    retryInterval: TimeInterval = 30
  ) {
    self.providers = providers
    self.style = style
    self.retryInterval = retryInterval
    super.init(overlay: overlay)
  }

  /// The zoom of the vector tiles used for a map zoom level: one level below it, since a
  /// braille dot is coarser than the pixel tiles are made for.
  static func tileZoom(for zoomLevel: Double) -> Int {
    max(0, Int((zoomLevel - 0.5).rounded(.down)))
  }

  /// Tile ids of zoom `z` that meet a rect (inside the world).
  static func tiles(covering rect: MapRect, zoom z: Int) -> [TileID] {
    let r = rect.intersection(.world)
    guard !r.isNull, z >= 0 else { return [] }
    let n = 1 << z
    let s = MapSize.world.width / Double(n)
    let x0 = max(0, Int((r.minX / s).rounded(.down)))
    let x1 = min(n - 1, Int(((r.maxX - 1e-6) / s).rounded(.down)))
    let y0 = max(0, Int((r.minY / s).rounded(.down)))
    let y1 = min(n - 1, Int(((r.maxY - 1e-6) / s).rounded(.down)))
    guard x0 <= x1, y0 <= y1 else { return [] }
    var out: [TileID] = []
    for y in y0...y1 { for x in x0...x1 { out.append(TileID(z: z, x: x, y: y)) } }
    return out
  }

  // MARK: Finding and loading tiles

  /// What is known about a requested vector tile.
  struct Resolution {
    /// The tile to draw: the best one, or while `complete` is false a cached stand-in.
    var tile: AvailableTile?
    /// True when nothing better is on its way (all needed tiles are cached, missing or failed).
    var complete: Bool
    /// Tiles to load (at most one: the best not yet cached).
    var loads: [LoadKey]
  }

  /// Looks for the tile `id` in the caches: from the most detailed source that covers it, the
  /// tile or (above the source's maxZoom, or where it is missing) its deepest ancestor, as
  /// `VectorTileProvider.bestAvailable` does, but without loading. The first tile on that path
  /// not cached yet is the one to load; the search goes on in the caches only, for a stand-in.
  /// A source whose tile failed is skipped (its ancestors are not loaded).
  func resolve(_ id: TileID, now: Date = Date()) -> Resolution {
    var loads: [LoadKey] = []
    var pending = false
    let failed = book.withLock { $0.failedAt }
    for index in providers.indices.reversed() {
      let p = providers[index]
      let source = p.source
      guard id.z >= source.minZoom, id.z >= 0, id.z <= 30 else { continue }
      let n = 1 << id.z
      guard id.x >= 0, id.x < n, id.y >= 0, id.y < n else { continue }
      var blocked = false
      var z = min(id.z, source.maxZoom)
      while z >= source.minZoom {
        let candidate = TileID(z: z, x: id.x >> (id.z - z), y: id.y >> (id.z - z))
        z -= 1
        guard source.covers(candidate) else { continue }
        switch p.cachedEntry(candidate) {
        case .tile(let t)?:
          return Resolution(
            tile: AvailableTile(tile: t, sourceID: candidate, requestedID: id),
            complete: !pending, loads: loads)
        case .missing?:
          continue
        case .failed?:
          blocked = true
        case nil:
          if pending || blocked { continue }
          let key = LoadKey(provider: index, tile: candidate)
          if let at = failed[key], now.timeIntervalSince(at) < retryInterval {
            blocked = true
            continue
          }
          loads.append(key)
          pending = true
        }
      }
    }
    return Resolution(tile: nil, complete: !pending, loads: loads)
  }

  /// Cached children (one zoom deeper) of the first source that has any, to stand in for `id`.
  func cachedChildren(of id: TileID) -> [AvailableTile] {
    guard id.z < 30 else { return [] }
    for p in providers.reversed() {
      var found: [AvailableTile] = []
      for dy in 0...1 {
        for dx in 0...1 {
          let c = TileID(z: id.z + 1, x: id.x * 2 + dx, y: id.y * 2 + dy)
          guard p.source.covers(c), case .tile(let t)? = p.cachedEntry(c) else { continue }
          found.append(AvailableTile(tile: t, sourceID: c, requestedID: c))
        }
      }
      if !found.isEmpty { return found }
    }
    return []
  }

  /// The cached tile to draw for `id` (the best one or a stand-in), for labels.
  func cachedTile(_ id: TileID) -> AvailableTile? {
    resolve(id).tile
  }

  /// Starts a background load unless one is in flight for the same tile.
  func startLoad(_ key: LoadKey) {
    let isNew = book.withLock { b -> Bool in
      guard b.inFlight.insert(key).inserted else { return false }
      b.started += 1
      return true
    }
    guard isNew else { return }
    reportLoading(.started)
    let rect = key.tile.mapRect
    providers[key.provider].loadTile(key.tile) { [self] result in
      var failure: (any Error)?
      book.withLock { b in
        b.inFlight.remove(key)
        if case .failure(let error) = result, !(error is CancellationError) {
          // Source errors are not cached by the provider: remember them here for a while.
          // (A tile that failed to decode is cached by the provider as failed.)
          if providers[key.provider].cachedEntry(key.tile) == nil {
            let now = Date()
            b.failedAt = b.failedAt.filter { now.timeIntervalSince($0.value) < retryInterval }
            b.failedAt[key] = now
          }
          failure = error
        }
      }
      // Redraw the map tiles this tile covers (waiting ones are asked again, stand-ins are
      // replaced), then say the load ended.
      setNeedsDisplay(rect)
      if let failure {
        reportLoading(.failed(failure))
      } else {
        reportLoading(.finished)
      }
    }
  }

  /// Loads started so far (each tile once while in flight).
  public var loadsStarted: Int { book.withLock { $0.started } }

  /// Tiles being loaded now, by source index.
  var tilesInFlight: Set<LoadKey> { book.withLock { $0.inFlight } }

  /// Tells network sources where the view is: queued tiles nearest `focus` go first, and loads
  /// that no longer meet `visible` (or are more detailed than the tile zoom `z` needs) are
  /// cancelled. Called once per frame with the view's rects (one per copy of the world).
  func viewDidChange(visible: [MapRect], tileZoom z: Int, focus: MapPoint) {
    let inFlight = tilesInFlight
    for (index, p) in providers.enumerated() {
      guard let scheduler = p.source as? any TileRequestScheduling else { continue }
      scheduler.focus = focus
      let needed = min(z, p.source.maxZoom)
      for key in inFlight where key.provider == index {
        let r = key.tile.mapRect
        if key.tile.z > needed || !visible.contains(where: { $0.intersects(r) }) {
          scheduler.cancel(key.tile)
        }
      }
    }
  }

  // MARK: MKOverlayRenderer

  /// True when every vector tile the rect needs is cached (or known to be missing or failed),
  /// or when something cached can stand in meanwhile; starts loading what is missing.
  public override func canDraw(_ mapRect: MapRect, zoomScale: Double) -> Bool {
    let tz = Self.tileZoom(for: ZoomMath.zoomLevel(forZoomScale: zoomScale))
    var drawable = true
    let now = Date()
    for id in Self.tiles(covering: mapRect, zoom: tz) {
      let r = resolve(id, now: now)
      for key in r.loads { startLoad(key) }
      if r.tile == nil && !r.complete && cachedChildren(of: id).isEmpty { drawable = false }
    }
    return drawable
  }

  /// Draws the cached tiles for the rect (the best ones, or stand-ins while they load).
  public override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let zoom = ZoomMath.zoomLevel(forZoomScale: zoomScale)
    let tz = Self.tileZoom(for: zoom)
    var drawn = Set<TileID>()
    let now = Date()
    for id in Self.tiles(covering: mapRect, zoom: tz) {
      let r = resolve(id, now: now)
      let tiles = r.tile.map { [$0] } ?? (r.complete ? [] : cachedChildren(of: id))
      for t in tiles where drawn.insert(t.sourceID).inserted {
        draw(t, in: mapRect, zoom: zoom, zoomScale: zoomScale, context: context)
      }
    }
  }

  func draw(
    _ t: AvailableTile, in mapRect: MapRect, zoom: Double, zoomScale: Double,
    context: DrawingContext
  ) {
    let tile = t.tile
    for rule in style.rules where zoom >= rule.minZoom && zoom < rule.maxZoom {
      guard let layer = tile.layer(named: rule.layer) else { continue }
      let transform = layer.transform(for: t.sourceID)
      let reach = (rule.lineWidth / 2 + 1) / zoomScale
      let box = transform.tileBox(covering: mapRect.insetBy(dx: -reach, dy: -reach))
      let keyIndex = rule.key.flatMap { layer.keyIndex(of: $0) }
      if rule.key != nil && !rule.values.isEmpty && keyIndex == nil { continue }
      context.fillColor = rule.fill
      context.fillPattern = rule.fillPattern
      context.strokeColor = rule.stroke
      context.lineWidth = rule.lineWidth / zoomScale
      context.setLineDash(phase: 0, lengths: rule.dash.map { $0 / zoomScale })
      for feature in layer.features(intersecting: box) {
        if let k = keyIndex, !rule.values.isEmpty {
          guard let v = feature.value(forKeyIndex: k)?.stringValue, rule.values.contains(v) else {
            continue
          }
        }
        if let (key, limit) = rule.maxLevel {
          guard let level = feature.value(for: key)?.doubleValue, level <= limit else { continue }
        }
        switch feature.type {
        case .polygon:
          if rule.fill != nil {
            addParts(feature, transform, closed: true, context)
            context.fillPath()
          }
          if rule.stroke != nil {
            addParts(feature, transform, closed: true, context)
            context.strokePath()
          }
        case .lineString:
          if rule.stroke != nil {
            addParts(feature, transform, closed: false, context)
            context.strokePath()
          }
        default:
          continue
        }
      }
    }
  }

  /// Adds a feature's parts to the path, keeping only what can show in the context's clip:
  /// a run of vertices that all lie beyond one edge of the clip becomes its first and last
  /// vertex (for a fill, the run and that chord form a loop wholly outside the clip, so the
  /// even-odd parity inside it is unchanged), and inside the clip a vertex closer than half a
  /// dot to the last one kept is dropped.
  private func addParts(
    _ f: VectorFeature, _ t: TileTransform, closed: Bool, _ context: DrawingContext
  ) {
    let m = context.transform
    let clip = context.clipBounds
    let margin = 2.0
    let x0 = Double(clip.minX) - margin
    let y0 = Double(clip.minY) - margin
    let x1 = Double(clip.maxX) + margin
    let y1 = Double(clip.maxY) + margin
    // Dots per tile unit, and the tile's origin in dots.
    let sx = t.scale * m.scaleX
    let sy = t.scale * m.scaleY
    let ox = t.rect.origin.x * m.scaleX + m.translateX
    let oy = t.rect.origin.y * m.scaleY + m.translateY
    for part in f.parts {
      guard !part.points.isEmpty else { continue }
      var started = false
      var lastCode = -1
      var lastX = 0.0
      var lastY = 0.0
      var pending: (Double, Double)? = nil
      func emit(_ x: Double, _ y: Double) {
        let p = Point2D(x: (x - m.translateX) / m.scaleX, y: (y - m.translateY) / m.scaleY)
        if started { context.addLine(to: p) } else { context.move(to: p) }
        started = true
        lastX = x
        lastY = y
      }
      for q in part.points {
        let x = ox + Double(q.x) * sx
        let y = oy + Double(q.y) * sy
        let code = (x < x0 ? 1 : 0) | (x > x1 ? 2 : 0) | (y < y0 ? 4 : 0) | (y > y1 ? 8 : 0)
        if code != 0 && lastCode >= 0 && code & lastCode != 0 {
          // Still beyond the same edge: hold the point, the run's end is what matters.
          pending = (x, y)
          lastCode &= code
          continue
        }
        if let (px, py) = pending {
          emit(px, py)
          pending = nil
        }
        if code == 0 && started && lastCode == 0 {
          let dx = x - lastX
          let dy = y - lastY
          if dx * dx + dy * dy < 0.25 { continue }
        }
        emit(x, y)
        lastCode = code
      }
      if let (px, py) = pending { emit(px, py) }
      if closed { context.closePath() }
    }
  }
}
