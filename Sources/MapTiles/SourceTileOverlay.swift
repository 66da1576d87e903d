import Foundation
import MapGeometry
import Synchronization
import TermMapKit
import TileData

/// A tile overlay whose tiles come from a `TileSource` (an MBTiles or PMTiles file, a z/x/y
/// directory, an HTTP(S) template): zoom range, bounds, attribution and title are the
/// source's, `loadTile(at:result:)` asks the source without blocking, and network sources hear
/// where the map is looking (nearest tiles first, the rest cancelled).
///
/// Raster sources (PNG, JPEG) are drawn by a `RasterTileRenderer` (`rasterMode`); vector
/// sources by a `VectorTileRenderer` with `style` (the renderer made by
/// `makeDefaultRenderer()`); a source's own TMS rows are the source's business, so paths are
/// always XYZ here.
public final class SourceTileOverlay: TileOverlay, @unchecked Sendable {
  /// The tiles.
  public let source: any TileSource
  /// How vector tiles are drawn (for an overlay made with `init(source:variant:…)` whose
  /// source does not list its layers: the OpenMapTiles style until the renderer has seen a
  /// tile; see `VectorTileRenderer.style`).
  public let style: BasemapStyle
  /// The schema read from the source's `vectorLayers` (nil: a fixed style was given, or the
  /// metadata did not tell).
  public let schema: VectorSchema?
  /// Dark or light, when the style follows the tiles' schema; nil for a fixed style.
  public let variant: BasemapStyle.Variant?
  /// How raster tiles (PNG, JPEG) are shown: braille dots or half blocks.
  public var rasterMode: RasterMode {
    get { raster.withLock { $0.mode } }
    set { raster.withLock { $0.mode = newValue } }
  }
  /// Whether raster colours go out as 24-bit (the terminal announced truecolor) or as the
  /// nearest of the 256-colour palette.
  public var rasterTrueColor: Bool {
    get { raster.withLock { $0.trueColor } }
    set { raster.withLock { $0.trueColor = newValue } }
  }
  private let raster = Mutex((mode: RasterMode.dots, trueColor: false))
  /// The language of vector tiles' labels (see `VectorTileRenderer.language`), given to the
  /// renderers made from now on; nil: the style's own names.
  public var language: String? {
    get { labelLanguage.withLock { $0 } }
    set { labelLanguage.withLock { $0 = newValue } }
  }
  private let labelLanguage = Mutex<String?>(nil)
  /// Makes the renderer instead of the source's format and `style` (a style document's
  /// source: see `StyleMapLayers`).
  private let rendererMaker: (@Sendable (SourceTileOverlay) -> OverlayRenderer)?

  /// - Parameters:
  ///   - source: where the tiles come from.
  ///   - style: how vector tiles are drawn.
  ///   - replacesMapContent: whether the tiles are the map's content (they then hide map
  ///     content lower in the stack inside the source's bounds).
  public convenience init(
    source: any TileSource, style: BasemapStyle = .dark, replacesMapContent: Bool = true
  ) {
    self.init(
      source: source, style: style, schema: nil, variant: nil,
      replacesMapContent: replacesMapContent, renderer: nil)
  }

  /// An overlay whose renderer `makeRenderer` makes (each time the map asks for one), for
  /// tiles drawn another way than the schemas' built-in styles: a MapLibre style document's
  /// layers (`StyleMapLayers`).
  public convenience init(
    source: any TileSource, replacesMapContent: Bool = true,
    renderer makeRenderer: @escaping @Sendable (SourceTileOverlay) -> OverlayRenderer
  ) {
    self.init(
      source: source, style: .dark, schema: nil, variant: nil,
      replacesMapContent: replacesMapContent, renderer: makeRenderer)
  }

  /// An overlay drawn with the style of its tiles' schema (OpenMapTiles, Shortbread or
  /// Protomaps): found from the source's `vectorLayers` (TileJSON or MBTiles metadata) or,
  /// when the metadata lists none or does not tell, by the renderer from the layer names of
  /// the first tile it decodes.
  ///
  /// ```swift
  /// let overlay = SourceTileOverlay(source: try MBTilesSource(path: path), variant: .dark)
  /// ```
  public convenience init(
    source: any TileSource, variant: BasemapStyle.Variant, replacesMapContent: Bool = true
  ) {
    let schema = VectorSchema.detect(layerNames: source.vectorLayers)
    self.init(
      source: source, style: BasemapStyle.forSchema(schema ?? .openMapTiles, variant: variant),
      schema: schema, variant: variant, replacesMapContent: replacesMapContent, renderer: nil)
  }

  private init(
    source: any TileSource, style: BasemapStyle, schema: VectorSchema?,
    variant: BasemapStyle.Variant?, replacesMapContent: Bool,
    renderer: (@Sendable (SourceTileOverlay) -> OverlayRenderer)?
  ) {
    self.source = source
    rendererMaker = renderer
    self.style = style
    self.schema = schema
    self.variant = variant
    super.init(urlTemplate: nil)
    minimumZ = source.minZoom
    maximumZ = source.maxZoom
    if let b = source.bounds, !b.isNull { boundingMapRect = b }
    // Credits are often HTML (TileJSON, PMTiles metadata): shown as plain text.
    attribution =
      source.attribution.contains("<") || source.attribution.contains("&")
      ? HTMLText.plain(source.attribution) : source.attribution
    title = source.name
    canReplaceMapContent = replacesMapContent
  }

  public override func url(forTilePath path: TileOverlayPath) -> URL {
    URL(string: "tile:\(path.z)/\(path.x)/\(path.y)")!
  }

  public override func loadTile(
    at path: TileOverlayPath, result: @escaping @Sendable (Data?, (any Error)?) -> Void
  ) {
    source.loadTile(TileID(z: path.z, x: path.x, y: path.y)) { r in
      switch r {
      case .success(let data): result(data, nil)
      case .failure(let error): result(nil, error)
      }
    }
  }

  public override func loadingDidChange(focus: MapPoint, wanted: Set<TileOverlayPath>) {
    guard let scheduler = source as? any TileRequestScheduling else { return }
    scheduler.focus = focus
    let keep = Set(
      wanted.flatMap { p in
        // Ancestors stand in and are loaded on the way: keep those too.
        (max(minimumZ, 0)...max(p.z, minimumZ)).map { z in
          let a = p.ancestor(atZoom: z)
          return TileID(z: a.z, x: a.x, y: a.y)
        }
      })
    scheduler.cancelAll(except: keep)
  }

  public override func makeDefaultRenderer() -> OverlayRenderer {
    if let rendererMaker { return rendererMaker(self) }
    if !source.format.isVector {
      return RasterTileRenderer(overlay: self, mode: rasterMode, trueColor: rasterTrueColor)
    }
    let renderer =
      if let variant, schema == nil {
        VectorTileRenderer(overlay: self, detectingSchema: variant)
      } else {
        VectorTileRenderer(overlay: self, style: style)
      }
    renderer.language = language
    return renderer
  }
}
