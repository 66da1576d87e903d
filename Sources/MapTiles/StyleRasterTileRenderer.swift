import DotRaster
import Foundation
import MapGeometry
import MapStyle
import RasterTiles
import TermMapKit

/// Draws a style's `raster` layer: the source's pictures as braille dots, as
/// `RasterTileRenderer` draws them, from the layer's `minzoom` to below its `maxzoom`, when
/// visible, with `raster-opacity` as dot density (the ink and paper levels scaled by it: at
/// 0.5 only pixels half as dark as before become dots; at 0 nothing is drawn).
///
/// `@unchecked Sendable`: every stored property is immutable; the rest is the superclass's.
public final class StyleRasterTileRenderer: TileOverlayRenderer, @unchecked Sendable {
  /// The style layer drawn (nil: the source's pictures as they are).
  public let layer: StyleLayer?
  /// How pictures become dots at full opacity.
  public let options: RasterDotOptions

  /// A renderer of `overlay`'s pictures for `layer`, in palette or 24-bit colour.
  public init(
    overlay: TileOverlay, layer: StyleLayer?, trueColor: Bool = false,
    retryInterval: TimeInterval = 30
  ) {
    self.layer = layer
    options = RasterDotOptions(trueColor: trueColor)
    super.init(tileOverlay: overlay, retryInterval: retryInterval)
  }

  /// `raster-opacity` at `zoom`, 0 to 1 (1 without a layer; 0 where the layer is hidden).
  public func opacity(atZoom zoom: Double) -> Double {
    guard let layer else { return 1 }
    guard layer.isVisible(atZoom: zoom) else { return 0 }
    guard let e = layer.property("raster-opacity"),
      let v = try? e.evaluate(zoom: zoom).numberValue, v.isFinite
    else { return 1 }
    return min(1, max(0, v))
  }

  public override func decodeTile(_ data: Data, at path: TileOverlayPath) throws -> any TileContent
  {
    RasterTileContent(try RasterImage.decode(data))
  }

  public override func drawTile(
    _ content: any TileContent, at path: TileOverlayPath, in mapRect: MapRect, zoomScale: Double,
    context: DrawingContext
  ) {
    guard let r = content as? RasterTileContent else { return }
    let opacity = opacity(atZoom: ZoomMath.zoomLevel(forZoomScale: zoomScale))
    guard opacity > 0 else { return }
    var o = options
    if opacity < 1 {
      let f = Float(opacity)
      o.paperLevel = o.inkLevel * f + (o.paperLevel - o.inkLevel) * f
      o.inkLevel *= f
    }
    RasterTileRenderer.drawDots(
      r.image, at: path, origin: tileOverlay.boundingMapRect.origin, options: o, in: context)
  }
}
