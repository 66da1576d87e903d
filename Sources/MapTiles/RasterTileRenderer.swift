import DotRaster
import Foundation
import MapGeometry
import RasterTiles
import Synchronization
import TermMapKit

/// A decoded raster tile (PNG or JPEG), as a tile overlay renderer caches it.
public struct RasterTileContent: TileContent {
  /// The decoded picture.
  public let image: RasterImage
  /// A decoded tile.
  public init(_ image: RasterImage) { self.image = image }
  public var byteCount: Int { image.pixels.count }
}

/// How a raster tile is shown in a terminal.
public enum RasterMode: String, Sendable, CaseIterable {
  /// Braille dots: dark pixels (lines, labels, shapes) become dots, each cell in the mean colour
  /// of its pixels. Keeps the picture's lines; the default (docs/raster.md says why).
  case dots
  /// Half blocks: each cell two colour samples (`▀`, foreground above, background below);
  /// a picture rather than a drawing, for photos and shaded maps.
  case blocks
}

/// Draws a tile overlay of raster tiles (PNG or JPEG, e.g. OpenStreetMap's): one tile pixel
/// per dot (a 512-pixel "@2x" tile one zoom down), as braille dots or as half-block cells.
///
/// Loading, caching, stand-ins and loading events are `TileOverlayRenderer`'s.
///
/// `@unchecked Sendable`: `mode` and `options` are immutable; the rest is the superclass's.
public final class RasterTileRenderer: TileOverlayRenderer, CellLayerRendering,
  @unchecked Sendable
{
  /// Dots or half blocks.
  public let mode: RasterMode
  /// How pictures become dots.
  public let options: RasterDotOptions

  /// A renderer for a raster tile overlay, drawing in `mode` with palette or 24-bit colour.
  public init(
    overlay: TileOverlay, mode: RasterMode = .dots, trueColor: Bool = false,
    retryInterval: TimeInterval = 30
  ) {
    self.mode = mode
    options = RasterDotOptions(trueColor: trueColor)
    super.init(tileOverlay: overlay, retryInterval: retryInterval)
  }

  public override func decodeTile(_ data: Data, at path: TileOverlayPath) throws -> any TileContent
  {
    RasterTileContent(try RasterImage.decode(data))
  }

  /// Where a tile's image goes on a grid (dots, or cells when `unit` is a cell), clipped to
  /// `clip`: the mapping of the visible part of the image, or nil when none is visible.
  /// `origin` is the grid position of map point (0, 0) in units; `perMapPoint` units per map
  /// point across and down.
  static func mapping(
    image: RasterImage, tile: MapRect, originX: Double, originY: Double, perMapPointX: Double,
    perMapPointY: Double, clip: DotRect
  ) -> RasterMapping? {
    let x0 = originX + tile.minX * perMapPointX
    let y0 = originY + tile.minY * perMapPointY
    let w = tile.width * perMapPointX
    let h = tile.height * perMapPointY
    guard w > 0, h > 0 else { return nil }
    let cx0 = max(Int(x0.rounded(.down)), clip.minX)
    let cy0 = max(Int(y0.rounded(.down)), clip.minY)
    let cx1 = min(Int((x0 + w).rounded(.up)), clip.maxX)
    let cy1 = min(Int((y0 + h).rounded(.up)), clip.maxY)
    guard cx0 < cx1, cy0 < cy1 else { return nil }
    let sx = Double(image.width) / w
    let sy = Double(image.height) / h
    // The source rect of those units, kept inside the image.
    let sx0 = max(0, (Double(cx0) - x0) * sx)
    let sy0 = max(0, (Double(cy0) - y0) * sy)
    let sx1 = min(Double(image.width), (Double(cx1) - x0) * sx)
    let sy1 = min(Double(image.height), (Double(cy1) - y0) * sy)
    guard sx1 > sx0, sy1 > sy0 else { return nil }
    return RasterMapping(
      sourceX: sx0, sourceY: sy0, sourceWidth: sx1 - sx0, sourceHeight: sy1 - sy0, x: cx0,
      y: cy0, width: cx1 - cx0, height: cy1 - cy0)
  }

  public override func drawTile(
    _ content: any TileContent, at path: TileOverlayPath, in mapRect: MapRect, zoomScale: Double,
    context: DrawingContext
  ) {
    guard mode == .dots, let r = content as? RasterTileContent else { return }
    Self.drawDots(
      r.image, at: path, origin: tileOverlay.boundingMapRect.origin, options: options,
      in: context)
  }

  /// Draws the part of tile `path`'s picture inside the context's clip as braille dots
  /// (`origin`: the map point at the context's (0, 0)).
  static func drawDots(
    _ image: RasterImage, at path: TileOverlayPath, origin: MapPoint, options: RasterDotOptions,
    in context: DrawingContext
  ) {
    let m = context.transform
    guard
      let mapping = Self.mapping(
        image: image, tile: path.mapRect, originX: m.translateX - origin.x * m.scaleX,
        originY: m.translateY - origin.y * m.scaleY, perMapPointX: m.scaleX,
        perMapPointY: m.scaleY, clip: context.clipBounds)
    else { return }
    context.withCanvas { canvas in
      image.drawDots(into: &canvas, mapping: mapping, options: options)
    }
  }

  /// A raster tile drawn as half blocks at one zoom scale: its cells on the world's cell grid
  /// (a frame's cells line up with that grid, so a tile's cells are the same in every frame at
  /// that zoom and are drawn once, then copied).
  struct CellTile {
    let column: Int
    let row: Int
    let cells: CellBuffer
  }

  struct CellTileKey: Hashable {
    let path: TileOverlayPath
    let scaleBits: UInt64
  }

  let cellTiles = Mutex<[CellTileKey: CellTile]>([:])

  /// The half-block cells of a tile's image at a zoom scale, made once and kept (the tiles of
  /// the last zoom scale only).
  func cellTile(_ path: TileOverlayPath, _ image: RasterImage, zoomScale: Double) -> CellTile? {
    let key = CellTileKey(path: path, scaleBits: zoomScale.bitPattern)
    if let t = cellTiles.withLock({ $0[key] }) { return t }
    let cw = Double(CellGeometry.dotsWide)
    let ch = Double(CellGeometry.dotsHigh)
    let r = path.mapRect
    let c0 = Int((r.minX * zoomScale / cw).rounded(.down))
    let r0 = Int((r.minY * zoomScale / ch).rounded(.down))
    let c1 = Int((r.maxX * zoomScale / cw).rounded(.up))
    let r1 = Int((r.maxY * zoomScale / ch).rounded(.up))
    guard c1 > c0, r1 > r0, (c1 - c0) * (r1 - r0) <= 1 << 22 else { return nil }
    var cells = CellBuffer(columns: c1 - c0, rows: r1 - r0)
    guard
      let mapping = Self.mapping(
        image: image, tile: r, originX: -Double(c0), originY: -Double(r0),
        perMapPointX: zoomScale / cw, perMapPointY: zoomScale / ch,
        clip: DotRect(minX: 0, minY: 0, maxX: c1 - c0, maxY: r1 - r0))
    else { return nil }
    image.drawHalfBlocks(
      into: &cells, mapping: mapping, charset: .braille, trueColor: options.trueColor)
    let tile = CellTile(column: c0, row: r0, cells: cells)
    cellTiles.withLock { tiles in
      if tiles.keys.contains(where: { $0.scaleBits != key.scaleBits }) || tiles.count > 512 {
        tiles.removeAll()
      }
      tiles[key] = tile
    }
    return tile
  }

  /// Half blocks: the cached tiles (or stand-ins) that cover the viewport, as cells.
  public func drawCells(into cells: inout CellBuffer, viewport vp: Viewport) {
    guard mode == .blocks else { return }
    let tz = tileZoom(forZoomScale: vp.zoomScale)
    let bounds = tileOverlay.boundingMapRect
    let cw = CellGeometry.dotsWide
    let ch = CellGeometry.dotsHigh
    for shift in vp.worldCopies {
      let visible = vp.mapRect.offsetBy(dx: -shift, dy: 0)
      // This copy of the world's cell (0, 0) on the screen.
      let copyColumn = (Int((shift * vp.zoomScale).rounded()) - vp.originX) / cw
      let copyRow = -vp.originY / ch
      var drawn = Set<TileOverlayPath>()
      // Ancestors (stand-ins, overzoom) first, so more detailed tiles are copied over them.
      var tiles: [(path: TileOverlayPath, image: RasterImage)] = []
      for path in TileOverlayPath.tiles(covering: visible.intersection(bounds), zoom: tz) {
        guard let t = bestCachedTile(for: path), drawn.insert(t.path).inserted,
          let r = t.content as? RasterTileContent
        else { continue }
        tiles.append((t.path, r.image))
      }
      tiles.sort { $0.path.z < $1.path.z }
      for (path, image) in tiles {
        guard let t = cellTile(path, image, zoomScale: vp.zoomScale) else { continue }
        cells.copy(t.cells, toColumn: copyColumn + t.column, row: copyRow + t.row)
      }
    }
  }
}
