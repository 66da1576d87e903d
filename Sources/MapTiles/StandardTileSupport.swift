import DotRaster
import Foundation
import MapGeometry
import RasterTiles
import Synchronization
import TermMapKit
import TileData

/// What `import TermMap` gives every `TileOverlay` that was told nothing else (the kit's
/// `TileOverlay.defaults`): `http(s)` templates load through the project's HTTP client with
/// its disk cache (`HTTPTileLoader`), and tiles are drawn by an `AutomaticTileRenderer`,
/// which tells PNG, JPEG and vector tiles apart by their bytes.
///
/// The map model (`TermMapKit`, the `TermMapCore` product) has no networking and no image
/// libraries; this module announces these defaults to it when it is linked into a program
/// (`TileOverlayDefaultsAnnouncing`), so nothing has to be called. Set
/// `TileOverlay.defaults` to another value (say, with another cache folder) before making
/// overlays to change them.
public struct StandardTileSupport: TileOverlayDefaults {
  /// The XDG cache home the disk cache lives under (`<home>/termmap/tiles/<template hash>`);
  /// nil: `$XDG_CACHE_HOME`, else `~/.cache`.
  public var cacheHome: URL?
  /// False keeps nothing on disk.
  public var diskCache: Bool
  /// The longest wait for one tile, in seconds.
  public var timeout: TimeInterval
  /// Dark or light, for vector tiles (the style follows the tiles' schema).
  public var variant: BasemapStyle.Variant

  /// The defaults: the disk cache in the XDG cache home, 10-second time-outs, the dark
  /// styles.
  public init(
    cacheHome: URL? = nil, diskCache: Bool = true, timeout: TimeInterval = 10,
    variant: BasemapStyle.Variant = .dark
  ) {
    self.cacheHome = cacheHome
    self.diskCache = diskCache
    self.timeout = timeout
    self.variant = variant
  }

  /// An `HTTPTileLoader` for an `http(s)` template (one that always fails with the reason
  /// when the template is not one it can use); nil for other templates.
  public func makeLoader(for overlay: TileOverlay) -> (any TileURLLoader)? {
    guard let template = overlay.urlTemplate, HTTPTileSource.isTemplate(template) else {
      return nil
    }
    do {
      return try HTTPTileLoader(
        urlTemplate: template, subdomains: overlay.subdomains, cacheHome: cacheHome,
        diskCache: diskCache, timeout: timeout)
    } catch {
      return FailingTileLoader(error: error)
    }
  }

  /// An `AutomaticTileRenderer` with the `variant`'s styles.
  public func makeRenderer(for overlay: TileOverlay) -> TileOverlayRenderer? {
    AutomaticTileRenderer(overlay: overlay, variant: variant)
  }
}

// The kit finds this conformance at run time in every program that links this module.
extension TileOverlay: TileOverlayDefaultsAnnouncing {
  /// `StandardTileSupport()`.
  public static var announcedTileOverlayDefaults: any TileOverlayDefaults {
    StandardTileSupport()
  }
}

/// A loader whose every load fails with one error (a template the HTTP client cannot use).
struct FailingTileLoader: TileURLLoader {
  let error: any Error
  func loadTile(at url: URL, result: @escaping @Sendable (Data?, (any Error)?) -> Void) {
    result(nil, error)
  }
}

/// Loads a `TileOverlay`'s `http(s)` tiles through an `HTTPTileSource`: libcurl
/// (`BoundedHTTPClient`), the disk cache under the XDG cache home keyed by the template,
/// revalidation, bounded bodies, the nearest tiles first and unwanted ones cancelled. Bodies
/// are kept when they are any tile (PNG, JPEG, WebP or vector; `HTTPTileSource.sniffsFormat`);
/// 404 and 410 mean no tile there.
public final class HTTPTileLoader: TileURLLoader {
  /// The source that fetches and caches (its `statistics` count requests and disk hits).
  public let source: HTTPTileSource

  /// A loader for a tile overlay's template (`{scale}` is 1 on a dot raster).
  ///
  /// - Parameters:
  ///   - urlTemplate: an `http(s)` template with `{z}`, `{x}` and `{y}`.
  ///   - subdomains: the values of `{s}`.
  ///   - cacheHome: the XDG cache home (nil: `$XDG_CACHE_HOME`, else `~/.cache`).
  ///   - diskCache: false keeps nothing on disk.
  ///   - timeout: the longest wait for one tile, in seconds.
  public init(
    urlTemplate: String, subdomains: [String] = [], cacheHome: URL? = nil,
    diskCache: Bool = true, timeout: TimeInterval = 10
  ) throws {
    source = try HTTPTileSource(
      template: urlTemplate.replacingOccurrences(of: "{scale}", with: "1"),
      subdomains: subdomains.isEmpty ? nil : subdomains, minZoom: 0, maxZoom: 30,
      sniffsFormat: true, cacheHome: cacheHome, diskCache: diskCache, timeout: timeout)
  }

  /// Loads `url` as tile `path` (cached under the path).
  public func loadTile(
    at url: URL, path: TileOverlayPath, result: @escaping @Sendable (Data?, (any Error)?) -> Void
  ) {
    source.loadTile(TileID(z: path.z, x: path.x, y: path.y), from: url) { r in
      switch r {
      case .success(let data): result(data, nil)
      case .failure(let error): result(nil, error)
      }
    }
  }

  /// Fetches the tiles nearest `focus` first and cancels those neither wanted nor on the way
  /// to one (ancestors stand in while tiles load).
  public func loadingDidChange(focus: MapPoint, wanted: Set<TileOverlayPath>) {
    source.focus = focus
    var keep = Set<TileID>()
    for p in wanted {
      for z in 0...max(0, p.z) {
        let a = p.ancestor(atZoom: z)
        keep.insert(TileID(z: a.z, x: a.x, y: a.y))
      }
    }
    source.cancelAll(except: keep)
  }
}

/// Draws a tile overlay whatever its tiles are, told apart by their bytes (PNG and JPEG
/// signatures; anything else, gzip-compressed or not, is taken for a Mapbox Vector Tile):
/// pictures as braille dots (as `RasterTileRenderer` does), vector tiles with the style of
/// their schema (as `VectorTileRenderer` with `detectingSchema:` does, labels included), and
/// content an overlay answers itself (`TileDots`, `RasterTileContent`, `VectorTileContent`).
/// What `TileOverlay.makeDefaultRenderer()` returns with `import TermMap`.
///
/// The tile zoom follows the tiles: one picture pixel per dot, vector tiles one zoom below
/// the map's. Until a tile has come, the template's extension tells (`.png`, `.jpg`,
/// `.webp`: pictures; `.pbf`, `.mvt`: vector), else pictures are assumed; when the first tile
/// says otherwise, the overlay is drawn again at the right zoom.
///
/// `@unchecked Sendable`: `rasterOptions` is immutable and the kind of tiles seen is behind a
/// mutex; the rest is the superclasses'.
public final class AutomaticTileRenderer: VectorTileRenderer, @unchecked Sendable {
  /// What an overlay's tiles are.
  public enum TileKind: Sendable, Equatable {
    /// Pictures (PNG, JPEG) or dots: one tile pixel per dot.
    case raster
    /// Vector tiles: drawn one zoom below the map's.
    case vector
  }

  /// How pictures become dots.
  public let rasterOptions: RasterDotOptions
  private let kind: Mutex<TileKind?>

  /// The kind of tiles seen so far (or told by the template's extension); nil before either.
  public var tileKind: TileKind? { kind.withLock { $0 } }

  /// A renderer for any tile overlay, drawing vector tiles with the `variant`'s style of their
  /// schema and pictures in palette or 24-bit colour.
  public init(
    overlay: TileOverlay, variant: BasemapStyle.Variant = .dark, trueColor: Bool = false,
    retryInterval: TimeInterval = 30
  ) {
    rasterOptions = RasterDotOptions(trueColor: trueColor)
    kind = Mutex(overlay.urlTemplate.flatMap(Self.kind(ofTemplate:)))
    super.init(overlay: overlay, detectingSchema: variant, retryInterval: retryInterval)
  }

  /// The kind a template's file extension names, if any.
  static func kind(ofTemplate template: String) -> TileKind? {
    var path = template
    if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<q]) }
    guard let last = path.split(separator: "/").last, let dot = last.lastIndex(of: ".") else {
      return nil
    }
    let format = TileFormat(name: String(last[last.index(after: dot)...]))
    return format.map { $0.isVector ? .vector : .raster }
  }

  /// Records the kind of a tile that came; the overlay is drawn again when that changes the
  /// tile zoom.
  private func saw(_ seen: TileKind) {
    let changed = kind.withLock { k -> Bool in
      defer { k = seen }
      return (k ?? .raster) != seen
    }
    if changed { setNeedsDisplay() }
  }

  public override func tileZoom(forZoomScale zoomScale: Double) -> Int {
    if tileKind == .vector { return super.tileZoom(forZoomScale: zoomScale) }
    // One tile pixel per dot (512-pixel tiles one zoom down), as `TileOverlayRenderer`.
    let level = ZoomMath.zoomLevel(forZoomScale: zoomScale)
    return max(0, Int((level - log2(Double(tileOverlay.tileSize) / 256)).rounded()))
  }

  public override func decodeTile(_ data: Data, at path: TileOverlayPath) throws -> any TileContent
  {
    if RasterImageFormat(sniffing: data) != nil {
      let content = RasterTileContent(try RasterImage.decode(data))
      saw(.raster)
      return content
    }
    let content = try super.decodeTile(data, at: path)
    saw(.vector)
    return content
  }

  public override func drawTile(
    _ content: any TileContent, at path: TileOverlayPath, in mapRect: MapRect, zoomScale: Double,
    context: DrawingContext
  ) {
    let origin = tileOverlay.boundingMapRect.origin
    switch content {
    case let picture as RasterTileContent:
      RasterTileRenderer.drawDots(
        picture.image, at: path, origin: origin, options: rasterOptions, in: context)
    case let dots as TileDots:
      dots.draw(at: path, origin: origin, in: context)
    case let vector as VectorTileContent:
      // Content an overlay answered itself was not decoded here: its kind and schema are
      // learnt now.
      if detectedSchema == nil { detectSchema(in: vector.tile) }
      if tileKind != .vector { saw(.vector) }
      super.drawTile(content, at: path, in: mapRect, zoomScale: zoomScale, context: context)
    default:
      break
    }
  }
}
