import Foundation
import MapGeometry
import TermMapKit
import TileData

/// A tile overlay whose tiles come from a `TileSource` (an MBTiles or PMTiles file, a z/x/y
/// directory, an HTTP(S) template): zoom range, bounds, attribution and title are the
/// source's, `loadTile(at:result:)` asks the source without blocking, and network sources hear
/// where the map is looking (nearest tiles first, the rest cancelled).
///
/// Vector sources are drawn by a `VectorTileRenderer` with `style` (the renderer made by
/// `makeDefaultRenderer()`); a source's own TMS rows are the source's business, so paths are
/// always XYZ here.
public final class SourceTileOverlay: TileOverlay, @unchecked Sendable {
  /// The tiles.
  public let source: any TileSource
  /// How vector tiles are drawn.
  public let style: BasemapStyle

  /// - Parameters:
  ///   - source: where the tiles come from.
  ///   - style: how vector tiles are drawn.
  ///   - replacesMapContent: whether the tiles are the map's content (they then hide map
  ///     content lower in the stack inside the source's bounds).
  public init(source: any TileSource, style: BasemapStyle = .dark, replacesMapContent: Bool = true)
  {
    self.source = source
    self.style = style
    super.init(urlTemplate: nil)
    minimumZ = source.minZoom
    maximumZ = source.maxZoom
    if let b = source.bounds, !b.isNull { boundingMapRect = b }
    attribution = source.attribution
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
    VectorTileRenderer(overlay: self, style: style)
  }
}
