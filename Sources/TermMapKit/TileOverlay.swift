import Dispatch
import Foundation
import MapGeometry
import Synchronization

/// The address of one tile of a `TileOverlay` (MKTileOverlayPath).
///
/// `x` and `y` count from the upper left (XYZ) unless the overlay's `isGeometryFlipped` is set,
/// in which case the paths handed to `url(forTilePath:)` and `loadTile(at:result:)` count `y`
/// from the bottom (TMS), as MapKit does.
public struct TileOverlayPath: Hashable, Sendable, CustomStringConvertible {
  /// The tile's column (0 at the west edge).
  public var x: Int
  /// The tile's row (0 at the north edge, or the south one for TMS paths).
  public var y: Int
  /// The zoom level.
  public var z: Int
  /// Pixels per point of the screen; always 1 on a dot raster.
  public var contentScaleFactor: Double

  /// A tile path.
  public init(x: Int, y: Int, z: Int, contentScaleFactor: Double = 1) {
    self.x = x
    self.y = y
    self.z = z
    self.contentScaleFactor = contentScaleFactor
  }

  /// Whether x and y lie on the grid of zoom z.
  public var isValid: Bool {
    guard z >= 0, z <= 30 else { return false }
    let n = 1 << z
    return x >= 0 && x < n && y >= 0 && y < n
  }

  /// The map rect the tile covers (x, y in XYZ order): (x·s, y·s, s, s) with s = W / 2^z.
  public var mapRect: MapRect {
    let s = MapSize.world.width / Double(1 << max(0, min(z, 30)))
    return MapRect(x: Double(x) * s, y: Double(y) * s, width: s, height: s)
  }

  /// The tile of zoom `level` (≤ z) holding this one.
  public func ancestor(atZoom level: Int) -> TileOverlayPath {
    let d = max(0, z - level)
    return TileOverlayPath(x: x >> d, y: y >> d, z: z - d, contentScaleFactor: contentScaleFactor)
  }

  /// The four tiles one zoom deeper.
  public var children: [TileOverlayPath] {
    [(0, 0), (1, 0), (0, 1), (1, 1)].map {
      TileOverlayPath(x: 2 * x + $0.0, y: 2 * y + $0.1, z: z + 1)
    }
  }

  /// The same tile counted the other way up (XYZ ↔ TMS).
  public var flipped: TileOverlayPath {
    TileOverlayPath(
      x: x, y: (1 << max(0, min(z, 30))) - 1 - y, z: z, contentScaleFactor: contentScaleFactor)
  }

  public var description: String { "\(z)/\(x)/\(y)" }

  /// The tiles of zoom `z` that meet a rect (inside the world), row by row.
  public static func tiles(covering rect: MapRect, zoom z: Int) -> [TileOverlayPath] {
    let r = rect.intersection(.world)
    guard !r.isNull, z >= 0, z <= 30 else { return [] }
    let n = 1 << z
    let s = MapSize.world.width / Double(n)
    let x0 = max(0, Int((r.minX / s).rounded(.down)))
    let x1 = min(n - 1, Int(((r.maxX - 1e-6) / s).rounded(.down)))
    let y0 = max(0, Int((r.minY / s).rounded(.down)))
    let y1 = min(n - 1, Int(((r.maxY - 1e-6) / s).rounded(.down)))
    guard x0 <= x1, y0 <= y1 else { return [] }
    var out: [TileOverlayPath] = []
    out.reserveCapacity((x1 - x0 + 1) * (y1 - y0 + 1))
    for y in y0...y1 { for x in x0...x1 { out.append(TileOverlayPath(x: x, y: y, z: z)) } }
    return out
  }
}

/// Fetches the bytes behind a tile URL for `TileOverlay`'s default `loadTile(at:result:)`
/// (the kit itself reads `file:` URLs; network loaders live in modules that link networking:
/// `MapTiles`' `HTTPTileLoader`, which `import TermMap` makes every overlay's default for
/// `http(s)` templates, see `TileOverlay.defaults`).
public protocol TileURLLoader: Sendable {
  /// Loads `url`; `nil` data means "no tile there". May call back on any thread. The default
  /// fails with `TileOverlayError.unsupportedScheme` (a loader that needs the tile's path
  /// implements `loadTile(at:path:result:)` only).
  func loadTile(at url: URL, result: @escaping @Sendable (Data?, (any Error)?) -> Void)

  /// Loads the tile at `path` from `url` (what `TileOverlay` calls): a loader that caches or
  /// queues by tile implements this one. The default calls `loadTile(at:result:)`.
  func loadTile(
    at url: URL, path: TileOverlayPath, result: @escaping @Sendable (Data?, (any Error)?) -> Void)

  /// Where the map is looking (its overlay's `loadingDidChange(focus:wanted:)`): a network
  /// loader fetches the tiles nearest `focus` first and may drop queued ones not in `wanted`.
  /// The default does nothing.
  func loadingDidChange(focus: MapPoint, wanted: Set<TileOverlayPath>)
}

extension TileURLLoader {
  /// Fails: this loader needs the tile's path (`loadTile(at:path:result:)`).
  public func loadTile(at url: URL, result: @escaping @Sendable (Data?, (any Error)?) -> Void) {
    result(nil, TileOverlayError.unsupportedScheme(url.scheme ?? "?"))
  }

  /// Calls `loadTile(at:result:)`.
  public func loadTile(
    at url: URL, path: TileOverlayPath, result: @escaping @Sendable (Data?, (any Error)?) -> Void
  ) {
    loadTile(at: url, result: result)
  }

  /// Does nothing.
  public func loadingDidChange(focus: MapPoint, wanted: Set<TileOverlayPath>) {}
}

/// What a module with networking and image decoding gives every `TileOverlay` that was not
/// told otherwise: a loader for `http(s)` templates and the renderer that draws whatever the
/// tiles turn out to be. The map model alone (`TermMapCore`) has none: it reads `file:` URLs
/// and draws the content it knows (`TileDots`). Linking `MapTiles` (as `import TermMap` does)
/// installs its `StandardTileSupport`; see `TileOverlay.defaults`.
public protocol TileOverlayDefaults: Sendable {
  /// The loader for an overlay's URLs when it was given none (nil: `file:` URLs only).
  func makeLoader(for overlay: TileOverlay) -> (any TileURLLoader)?
  /// The renderer `TileOverlay.makeDefaultRenderer()` returns (nil: a `TileOverlayRenderer`).
  func makeRenderer(for overlay: TileOverlay) -> TileOverlayRenderer?
}

/// Announces a module's `TileOverlayDefaults` to the kit without the kit depending on that
/// module: a module conforms `TileOverlay` to this protocol, and the kit finds the
/// conformance at run time when the module is linked into the program. (`MapTiles` does; so
/// `import TermMap` is all a program needs for `TileOverlay(urlTemplate: "https://…")`.)
public protocol TileOverlayDefaultsAnnouncing {
  /// The defaults to install.
  static var announcedTileOverlayDefaults: any TileOverlayDefaults { get }
}

/// Errors of `TileOverlay`'s own loading.
public enum TileOverlayError: Error, CustomStringConvertible, Equatable {
  /// The overlay has neither a URL template nor an overridden `loadTile(at:result:)`.
  case noTemplate
  /// No loader for the URL's scheme (set `TileOverlay.loader`).
  case unsupportedScheme(String)
  /// A tile file could not be read.
  case readFailed(path: String, message: String)

  public var description: String {
    switch self {
    case .noTemplate: return "tile overlay has no URL template"
    case .unsupportedScheme(let s): return "no loader for \(s): URLs"
    case .readFailed(let p, let m): return "\(p): \(m)"
    }
  }
}

/// A layer of map tiles laid over the map (MKTileOverlay): raster or vector tiles addressed by
/// z/x/y, loaded asynchronously by `loadTile(at:result:)` and drawn by a
/// `TileOverlayRenderer`.
///
/// With `import TermMap`, `TileOverlay(urlTemplate:)` loads `http(s)` templates through the
/// project's HTTP client with its disk cache and draws PNG, JPEG and vector tiles, whichever
/// the bytes are (`TileOverlay.defaults`). Subclass and override `loadTile(at:result:)` for
/// tiles that come from anywhere else than a URL, `loadTileContent(at:result:)` for tiles
/// made in code (answer `TileDots`, say: one subclass is a generated layer), or
/// `url(forTilePath:)` for URLs a template cannot describe. Properties may be set from any
/// thread; set them before adding the overlay to a map.
///
/// `@unchecked Sendable`: `urlTemplate` and `loader` are immutable, the default loader is made
/// once behind a mutex, and every mutable property lives in `config`, behind a mutex;
/// subclasses must keep to the same rule.
open class TileOverlay: Overlay, DefaultRendering, @unchecked Sendable {
  struct Config {
    var tileSize = 256
    var minimumZ = 0
    var maximumZ = 21
    var isGeometryFlipped = false
    var canReplaceMapContent = false
    var boundingMapRect = MapRect.world
    var attribution = ""
    var title: String?
    var subdomains = ["a", "b", "c"]
    var sharedContent: SharedTileContent?
  }

  /// The URL template (`{x}`, `{y}`, `{z}`, `{scale}`, `{s}`), or nil when the subclass loads
  /// tiles itself.
  public let urlTemplate: String?
  /// Loads non-`file:` URLs made from the template, as given to `init(urlTemplate:loader:)`
  /// (nil: the `defaults`' loader, if any, made when the first tile loads).
  public let loader: (any TileURLLoader)?
  let config = Mutex(Config())
  /// The defaults' loader, made once when first needed (nil inside: it had none).
  private let defaultLoader = Mutex<(any TileURLLoader)??>(nil)

  /// Largest tile file the default loader reads.
  public static let maximumTileBytes = 16 << 20

  /// An overlay of tiles at a URL template (`{x} {y} {z} {scale} {s}`), loaded through
  /// `loader` for schemes other than `file:` (by default the `defaults`' loader: with
  /// `import TermMap`, HTTP(S) with a disk cache).
  public init(urlTemplate: String?, loader: (any TileURLLoader)? = nil) {
    self.urlTemplate = urlTemplate
    self.loader = loader
  }

  /// The tiles' edge in pixels (256 by default; 512 for "@2x" tiles, drawn one zoom down).
  public var tileSize: Int {
    get { config.withLock { $0.tileSize } }
    set { config.withLock { $0.tileSize = max(1, newValue) } }
  }
  /// The lowest zoom with tiles; no tile is asked for below it.
  public var minimumZ: Int {
    get { config.withLock { $0.minimumZ } }
    set { config.withLock { $0.minimumZ = max(0, newValue) } }
  }
  /// The highest zoom with tiles; above it the deepest tile is drawn scaled up.
  public var maximumZ: Int {
    get { config.withLock { $0.maximumZ } }
    set { config.withLock { $0.maximumZ = min(30, newValue) } }
  }
  /// True when tile rows count from the bottom (TMS) rather than the top (XYZ).
  public var isGeometryFlipped: Bool {
    get { config.withLock { $0.isGeometryFlipped } }
    set { config.withLock { $0.isGeometryFlipped = newValue } }
  }
  /// True when the tiles are opaque map content: map content lower in the stack is not drawn
  /// where this overlay has tiles (inside its `boundingMapRect`, from `minimumZ` on).
  public var canReplaceMapContent: Bool {
    get { config.withLock { $0.canReplaceMapContent } }
    set { config.withLock { $0.canReplaceMapContent = newValue } }
  }
  /// The area with tiles (the world unless set; set it before adding the overlay).
  public var boundingMapRect: MapRect {
    get { config.withLock { $0.boundingMapRect } }
    set { config.withLock { $0.boundingMapRect = newValue } }
  }
  /// None: tiles are a layer of the map, not content on it (the view is not fitted to them).
  open var contentBounds: MapRect { .null }
  /// Credit for the tiles' data, shown while the overlay is on screen.
  public var attribution: String {
    get { config.withLock { $0.attribution } }
    set { config.withLock { $0.attribution = newValue } }
  }
  /// A name for lists and messages.
  public var title: String? {
    get { config.withLock { $0.title } }
    set { config.withLock { $0.title = newValue } }
  }
  /// Values for `{s}` in the template (one chosen per tile, always the same for a tile).
  public var subdomains: [String] {
    get { config.withLock { $0.subdomains } }
    set { config.withLock { $0.subdomains = newValue } }
  }

  /// Decoded tiles shared by every renderer of this overlay (nil, the default: each renderer
  /// loads and decodes its own). Set it when several maps show the overlay, as the sessions of
  /// `termmap serve` do: a tile one map loaded is drawn by the next without a second load.
  public var sharedContent: SharedTileContent? {
    get { config.withLock { $0.sharedContent } }
    set { config.withLock { $0.sharedContent = newValue } }
  }

  /// The URL of a tile: the template with `{x}`, `{y}`, `{z}`, `{scale}` and `{s}` filled in.
  /// A template without a scheme is a file path.
  open func url(forTilePath path: TileOverlayPath) -> URL {
    let template = urlTemplate ?? ""
    let subs = subdomains
    var s = template.replacingOccurrences(of: "{x}", with: String(path.x))
      .replacingOccurrences(of: "{y}", with: String(path.y))
      .replacingOccurrences(of: "{z}", with: String(path.z))
      .replacingOccurrences(of: "{scale}", with: String(Int(path.contentScaleFactor)))
    if !subs.isEmpty {
      s = s.replacingOccurrences(of: "{s}", with: subs[abs(path.x + path.y) % subs.count])
    }
    if s.contains("://") || s.hasPrefix("file:"), let url = URL(string: s) { return url }
    return URL(fileURLWithPath: s)
  }

  /// Loads a tile's bytes and calls `result` once, on any thread: data, or nil data and nil
  /// error when there is no tile there, or an error. The default reads the template's URL:
  /// `file:` URLs directly (a missing file is no tile), other schemes through `loader` (or
  /// the `defaults`' loader).
  open func loadTile(
    at path: TileOverlayPath, result: @escaping @Sendable (Data?, (any Error)?) -> Void
  ) {
    guard urlTemplate != nil else {
      result(nil, TileOverlayError.noTemplate)
      return
    }
    let url = url(forTilePath: path)
    if url.isFileURL {
      DispatchQueue.global(qos: .userInitiated).async {
        do {
          result(try Self.readTileFile(url.path), nil)
        } catch {
          result(nil, error)
        }
      }
    } else if let loader = urlLoader {
      loader.loadTile(at: url, path: path, result: result)
    } else {
      result(nil, TileOverlayError.unsupportedScheme(url.scheme ?? "?"))
    }
  }

  /// Loads a tile as content to draw and calls `result` once, on any thread: content, or nil
  /// and nil when there is no tile there, or an error. This is what the renderer asks.
  ///
  /// Override it for tiles made in code: answer decoded content (`TileDots`, which every
  /// `TileOverlayRenderer` draws; with `import TermMap` also a picture, `RasterTileContent`,
  /// or vector features, `VectorTileContent`), and the default renderer draws it: a
  /// generated layer is one subclass. The default asks `loadTile(at:result:)` for bytes and
  /// answers them as `TileBytes`, which the renderer decodes (`TileOverlayRenderer.decodeTile`).
  open func loadTileContent(
    at path: TileOverlayPath, result: @escaping @Sendable ((any TileContent)?, (any Error)?) -> Void
  ) {
    loadTile(at: path) { data, error in result(data.map(TileBytes.init), error) }
  }

  /// The renderer the `defaults` make (with `import TermMap`: one that draws PNG, JPEG and
  /// vector tiles, told apart by their bytes, and `TileDots`), else a `TileOverlayRenderer`
  /// (which draws `TileDots`); subclasses may return a renderer of their own.
  open func makeDefaultRenderer() -> OverlayRenderer {
    Self.defaults?.makeRenderer(for: self) ?? TileOverlayRenderer(tileOverlay: self)
  }

  /// Where the map is looking: the renderer tells the overlay once per frame which tiles it
  /// still wants (nearest `focus` first). The default tells its loader (a network loader
  /// reorders its queue and cancels the rest).
  open func loadingDidChange(focus: MapPoint, wanted: Set<TileOverlayPath>) {
    guard urlTemplate != nil, let loader = loaderIfMade else { return }
    loader.loadingDidChange(focus: focus, wanted: wanted)
  }

  /// `loader`, else the `defaults`' loader (made once, on first use).
  var urlLoader: (any TileURLLoader)? {
    if let loader { return loader }
    if let made = defaultLoader.withLock({ $0 }) { return made }
    let made = Self.defaults?.makeLoader(for: self)
    return defaultLoader.withLock { slot in
      if let earlier = slot { return earlier }
      slot = .some(made)
      return made
    }
  }

  /// `loader`, or the defaults' loader if one was made already.
  private var loaderIfMade: (any TileURLLoader)? {
    loader ?? defaultLoader.withLock { $0 ?? nil }
  }

  // MARK: Defaults

  private static let installed = Mutex<(any TileOverlayDefaults)?>(announcedDefaults())

  /// What overlays use when they were given no loader or renderer: by default those a linked
  /// module announces (`TileOverlayDefaultsAnnouncing`; with `import TermMap`, `MapTiles`'
  /// `StandardTileSupport`: HTTP(S) through the project's client with the disk cache under
  /// `$XDG_CACHE_HOME/termmap/tiles`, and a renderer that tells PNG, JPEG and vector tiles
  /// apart by their bytes), else nil. Set it to install others (a loader of your own for
  /// `TermMapCore`), or nil for the kit's alone, before making the overlays it is for.
  public static var defaults: (any TileOverlayDefaults)? {
    get { installed.withLock { $0 } }
    set { installed.withLock { $0 = newValue } }
  }

  /// The defaults a linked module announces: a conformance of `TileOverlay` to
  /// `TileOverlayDefaultsAnnouncing`, found at run time (the kit does not import the module).
  private static func announcedDefaults() -> (any TileOverlayDefaults)? {
    let type: Any.Type = TileOverlay.self
    return (type as? any TileOverlayDefaultsAnnouncing.Type)?.announcedTileOverlayDefaults
  }

  /// Reads a tile file: a regular file no larger than `maximumTileBytes` (`BoundedFile`); nil
  /// when it is absent.
  static func readTileFile(_ path: String) throws -> Data? {
    do {
      return try BoundedFile.read(path, limit: maximumTileBytes)
    } catch {
      throw TileOverlayError.readFailed(path: error.path, message: error.message)
    }
  }

}
