import DotRaster
import Foundation
import MapGeometry
import TermMapKit
import TileData

/// The whole world, as the basemap's overlay (its renderer draws vector tiles).
public final class BasemapOverlay: Overlay {
  public let boundingMapRect = MapRect.world
  public let title: String? = "basemap"
  public init() {}
}

/// Draws vector tiles for a map-rect tile: for each area, the most detailed source that has
/// data there (a city's own tiles over the world's), feature by feature as the style says.
///
/// `Sendable`: the providers are thread-safe (their caches are behind locks) and the style and
/// source list are immutable.
public final class BasemapRenderer: OverlayRenderer, @unchecked Sendable {
  /// Sources from least to most detailed.
  public let providers: [VectorTileProvider]
  public let style: BasemapStyle

  public init(overlay: BasemapOverlay, providers: [VectorTileProvider], style: BasemapStyle) {
    self.providers = providers
    self.style = style
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

  /// The best tile for `id`: from the most detailed source that covers it, else the next.
  func available(_ id: TileID, cachedOnly: Bool) -> AvailableTile? {
    // A source answers only inside its zoom range and bounds; the last (most detailed) first.
    for p in providers.reversed() {
      if let t = cachedOnly ? p.bestCached(for: id) : p.bestAvailable(for: id) { return t }
    }
    return nil
  }

  public override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let zoom = ZoomMath.zoomLevel(forZoomScale: zoomScale)
    let tz = Self.tileZoom(for: zoom)
    var drawn = Set<TileID>()
    for id in Self.tiles(covering: mapRect, zoom: tz) {
      guard let t = available(id, cachedOnly: false), drawn.insert(t.sourceID).inserted else {
        continue
      }
      draw(t, in: mapRect, zoom: zoom, zoomScale: zoomScale, context: context)
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

/// The offline basemap: land and water, borders, roads and buildings from vector tiles, and
/// place names placed in cells around the markers and the callout.
@MainActor
public final class VectorBasemap: BasemapLayer {
  public let overlay: any Overlay
  public let renderer: OverlayRenderer
  let basemapRenderer: BasemapRenderer
  public let attribution: [String]
  let style: BasemapStyle

  public init(sources: [any TileSource], style: BasemapStyle = .dark) throws {
    let o = BasemapOverlay()
    let providers = try sources.map { try VectorTileProvider(source: $0) }
    let r = BasemapRenderer(overlay: o, providers: providers, style: style)
    overlay = o
    renderer = r
    basemapRenderer = r
    self.style = style
    var lines: [String] = []
    for s in sources {
      for part in s.attribution.split(separator: ";") {
        let line = part.trimmingCharacters(in: .whitespaces)
        if !line.isEmpty && !lines.contains(line) { lines.append(line) }
      }
    }
    attribution = lines
  }

  /// The basemap that ships in Data/: the world, with Monaco's streets over it.
  public static func standard(dataDirectory dir: URL, style: BasemapStyle = .dark) throws
    -> VectorBasemap
  {
    var sources: [any TileSource] = [
      try MBTilesSource(path: dir.appendingPathComponent("world.mbtiles").path)
    ]
    for city in ["monaco.mbtiles"] {
      let path = dir.appendingPathComponent(city).path
      if FileManager.default.fileExists(atPath: path) {
        sources.append(try MBTilesSource(path: path))
      }
    }
    return try VectorBasemap(sources: sources, style: style)
  }

  /// A short credit for a status line.
  public var shortAttribution: String {
    attribution.map { line in
      if line.contains("OpenStreetMap") { return "© OpenStreetMap" }
      if line.contains("Natural Earth") { return "Natural Earth" }
      if line.contains("GeoNames") { return "GeoNames" }
      return line
    }.joined(separator: " · ")
  }

  public func drawLabels(_ viewport: Viewport, into cells: inout CellBuffer, reserved: Set<Int>) {
    var placer = LabelPlacer(viewport: viewport, reserved: reserved, style: style)
    let zoom = ZoomMath.zoomLevel(forZoomScale: viewport.zoomScale)
    let tz = BasemapRenderer.tileZoom(for: zoom)
    let visible = viewport.mapRect
    var seen = Set<TileID>()
    for shift in viewport.worldCopies {
      let r = visible.offsetBy(dx: -shift, dy: 0)
      for id in BasemapRenderer.tiles(covering: r, zoom: tz) {
        guard let t = basemapRenderer.available(id, cachedOnly: true),
          seen.insert(t.sourceID).inserted
        else {
          continue
        }
        placer.collect(from: t, zoom: zoom, shift: shift)
      }
    }
    placer.place(into: &cells)
  }
}
