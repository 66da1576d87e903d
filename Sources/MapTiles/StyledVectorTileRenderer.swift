import DotRaster
import Foundation
import MapGeometry
import MapStyle
import Synchronization
import TermMapKit
import TileData

/// Draws a tile overlay of Mapbox Vector Tiles as a MapLibre style document says, for one of
/// its vector sources: the source's `fill`, `line`, `circle` and `fill-extrusion` layers in the
/// style's order, each from its `minzoom` to below its `maxzoom`, when visible, with its
/// `filter` and paint.
///
/// A tile is sorted out once (on first draw): for each layer, the features its filter passes
/// (evaluated at the map zoom the tile is drawn around: one above the tile's), grouped by the
/// values of their feature-dependent paint properties. Paint is resolved per group once per
/// map zoom, so drawing sets one state per group. How paint becomes dots and colours
/// (opacity as dot density, widths in dots, colours in truecolor or the nearest of 256 or 16)
/// is in docs/styles.md, "Drawing a style".
///
/// `symbol` layers are not drawn here: they are the map's labels (`labels(for:)`, made by
/// `StyleLabels`). `background`, `raster`, `heatmap` and `hillshade`
/// layers are skipped, each with a line in `notes`.
///
/// termmap's built-in styles are style documents drawn the same way, by the superclass
/// (`VectorTileRenderer` with a `BasemapStyle`).
///
/// `@unchecked Sendable`: the plan is immutable (a `Sendable` class); the rest is the
/// superclass's.
public final class StyledVectorTileRenderer: VectorTileRenderer, @unchecked Sendable {
  /// The style document drawn.
  public var document: StyleDocument { plan.document }
  /// The id of the style's source this overlay's tiles are.
  public var sourceID: String { plan.sourceID }
  /// The ids of the layers drawn, in the style's order.
  public var drawnLayerIDs: [String] { plan.layers.map(\.id) }
  /// The style's `symbol` layers of this source, in order, for the label code.
  public let symbolLayers: [StyleLayer]
  /// The labels of `symbolLayers` for the last language asked (made on first use).
  let labelSet = Mutex<StyleLabels?>(nil)
  /// Layers not drawn, one line each (`background: background layers are not drawn by
  /// termmap`).
  public var notes: [String] { plan.notes }

  /// A renderer drawing `overlay`'s vector tiles with `document`'s layers of source
  /// `sourceID` (layers of other sources are left out).
  public init(
    overlay: TileOverlay, document: StyleDocument, sourceID: String,
    retryInterval: TimeInterval = 30, inflateLimit: Int = Inflate.defaultLimit
  ) {
    symbolLayers = document.layers.filter { $0.kind == .symbol && $0.source == sourceID }
    super.init(
      overlay: overlay, plan: StyledDrawPlan(document: document, sourceID: sourceID),
      retryInterval: retryInterval, inflateLimit: inflateLimit)
  }

  /// The labels of the style's `symbol` layers (`StyleLabels`), in the renderer's `language`.
  public override func labels(for viewport: Viewport) -> [MapLabel] {
    labels(for: viewport, from: styleLabels)
  }
}

extension VectorTileRenderer {
  /// Draws a vector tile's features into a map tile with the layers of `plan`.
  func drawStyled(
    _ content: any TileContent, at path: TileOverlayPath, in mapRect: MapRect, zoomScale: Double,
    context: DrawingContext, plan: StyledDrawPlan
  ) {
    guard let v = content as? VectorTileContent else { return }
    let zoom = ZoomMath.zoomLevel(forZoomScale: zoomScale)
    let id = TileID(z: path.z, x: path.x, y: path.y)
    let bounds = tileOverlay.boundingMapRect
    let prepared = v.styled.prepared(v.tile, for: plan, zoom: Double(path.z) + 1)
    // (The groups out of their layer's zoom range, and casings whose dots the road drawn over
    // them covers, have no paint here.)
    let paints = prepared.drawnPaints(zoomScale: zoomScale, zoom: zoom)
    prepared.groups.withUnsafeBufferPointer { groups in
      plan.layers.withUnsafeBufferPointer { layers in
        withUnsafeTemporaryAllocation(of: TileBoxMemo.Entry.self, capacity: TileBoxMemo.capacity) {
          var memo = TileBoxMemo(
            entries: $0, id: id, mapRect: mapRect, zoomScale: zoomScale, bounds: bounds)
          for g in groups.indices {
            guard let paint = paints[g] else { continue }
            let layer = layers.baseAddress! + groups[g].layer
            draw(
              groups.baseAddress! + g, layer.pointee.shape, paint, mapRect: mapRect, zoom: zoom,
              zoomScale: zoomScale, bounds: bounds, context: context, memo: &memo)
          }
        }
      }
    }
  }

  /// Draws one group's features into a map tile.
  private func draw(
    _ group: UnsafePointer<PreparedStyledTile.Group>, _ shape: StyledDrawPlan.Shape,
    _ paint: StyledDrawPlan.Paint, mapRect: MapRect, zoom: Double, zoomScale: Double,
    bounds: MapRect, context: DrawingContext, memo: inout TileBoxMemo
  ) {
    let layer = group.pointee.items.layer
    let box = memo.box(extent: layer.extent, lineWidth: paint.width + 2 * paint.offsetReach)
    guard box.intersects(group.pointee.items.box) else { return }
    let (transform, cut) = memo.transform(extent: layer.extent)
    context.fillColor = paint.fill
    context.fillPattern = paint.pattern
    context.strokeColor = paint.stroke
    context.lineWidth = paint.width / zoomScale
    // (The paint's dashes are divided by the zoom scale already: `drawnPaints`.)
    let dashed = !paint.dash.isEmpty
    context.setLineDash(phase: 0, lengths: paint.dash)
    let placement = DotPlacement(transform, context, origin: bounds.origin)
    let z = Float(zoom)
    group.pointee.items.chunks.withUnsafeBufferPointer { chunks in
      group.pointee.items.points.withUnsafeBufferPointer { chunkPoints in
        switch shape {
        case .fill:
          layer.withFlatGeometry { points, offsets in
            group.pointee.items.items.withUnsafeBufferPointer { items in
              let fills = paint.fill != nil
              if paint.stroke != nil && context.isPathEmpty {
                drawOutlined(
                  items, bands: group.pointee.items.bands, fills: fills, points: points,
                  offsets: offsets, chunks: chunks,
                  chunkPoints: chunkPoints, box: box, placement: placement, cut: cut,
                  dashed: dashed, context: context)
                return
              }
              // (The items in the bands `box` reaches, in order, as `drawOutlined` visits
              // them: those that meet it among them.)
              group.pointee.items.bands.forEachItem(near: box) { i in
                // (`meets`: an item's box holds its vertices and `box` met the group's, so
                // neither is empty; only the box is read, not the item copied, for the many
                // items away from this map tile.)
                guard items[i].box.meets(box) else { return }
                let item = items[i]
                if fills {
                  let geometry = FlatParts(points: points, offsets: offsets, parts: item.parts)
                  if context.isPathEmpty {
                    // The edges straight from the tile's points, without a path.
                    context.fillDotRings { addFillParts(geometry, placement, &$0) }
                  } else {
                    context.withDotPath { addParts(geometry, placement, &$0) }
                    context.fillPath()
                  }
                }
                guard paint.stroke != nil else { return }
                context.strokeDotLines(within: placement.dotBox(item.box)) { sink in
                  for c in item.chunks where chunks[Int(c)].box.intersects(box) {
                    addChunk(
                      chunks[Int(c)], chunkPoints, placement, cut: cut, dashed: dashed, &sink)
                  }
                }
              }
            }
          }
        case .line:
          if paint.isOffset {
            strokeOffsetLines(
              group, paint, chunks: chunks, points: chunkPoints, box: box, placement: placement,
              cut: cut, dashed: dashed, zoom: z, context: context)
            return
          }
          // The pieces' union first: a 24-bit colour is settled there only (most groups
          // reach a small part of a map tile), and a group with no piece here costs no stroke.
          // The pieces found are kept, in order, so the grid is walked once.
          withUnsafeTemporaryAllocation(of: Int32.self, capacity: chunks.count) { found in
            var reach = TileBox.empty
            var count = 0
            group.pointee.items.grid.forEachChunk(near: box) { n in
              let c = chunks[n]
              // (`meets`: neither box is empty, a chunk's holds its vertices and `box` met
              // the group's.)
              if c.minZoom <= z && c.box.meets(box) {
                reach.formUnion(c.box)
                found[count] = Int32(truncatingIfNeeded: n)
                count += 1
              }
            }
            guard count > 0 else { return }
            context.strokeDotLines(within: placement.dotBox(reach)) { sink in
              for i in 0..<count {
                addChunk(
                  chunks[Int(found[i])], chunkPoints, placement, cut: cut, dashed: dashed, &sink)
              }
            }
          }
        case .circle:
          layer.withFlatGeometry { points, offsets in
            context.strokeDotLines { sink in
              for item in group.pointee.items.items where item.box.intersects(box) {
                for p in item.parts {
                  for k in Int(offsets[Int(p)])..<Int(offsets[Int(p) + 1]) {
                    let x = placement.ox + Double(points[k].x) * placement.sx
                    let y = placement.oy + Double(points[k].y) * placement.sy
                    guard placement.code(x, y) == 0 else { continue }
                    sink.move(x: x, y: y, dashOffset: 0)
                    sink.line(x: x + 0.01, y: y)
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}

extension VectorTileRenderer {
  /// Draws a group's outlined polygons (buildings) that meet `box` (looked for among the
  /// items `bands` finds near it, in order): each one's fill (with
  /// `fills`) and then its outline over it, before the next one's, in one batch
  /// (`DrawingContext.withFillsAndOutlines(_:)`: the dots of a `fillDotRings` and a
  /// `strokeDotLines(within:_:)` each, with their set-up made once). Out of line, so the
  /// group loop of `drawStyled` keeps its code.
  @inline(never) fileprivate func drawOutlined(
    _ items: UnsafeBufferPointer<PreparedVectorTile.Item>, bands: PreparedVectorTile.ItemBands,
    fills: Bool,
    points: UnsafeBufferPointer<TilePoint>, offsets: UnsafeBufferPointer<Int32>,
    chunks: UnsafeBufferPointer<PreparedVectorTile.Chunk>,
    chunkPoints: UnsafeBufferPointer<TilePoint>, box: TileBox, placement: DotPlacement,
    cut: CutEdges, dashed: Bool, context: DrawingContext
  ) {
    context.withFillsAndOutlines { batch in
      // (The items in the bands `box` reaches, in order: those that meet it among them.)
      bands.forEachItem(near: box) { i in
        // (`meets`: as in `draw`'s loop.)
        guard items[i].box.meets(box) else { return }
        let item = items[i]
        if fills {
          let geometry = FlatParts(points: points, offsets: offsets, parts: item.parts)
          batch.fill { addFillParts(geometry, placement, &$0) }
        }
        batch.outline(within: placement.dotBox(item.box)) { sink in
          for c in item.chunks where chunks[Int(c)].box.intersects(box) {
            addChunk(chunks[Int(c)], chunkPoints, placement, cut: cut, dashed: dashed, &sink)
          }
        }
      }
    }
  }
}

extension VectorTileRenderer.DotPlacement {
  /// The dot-space box of a tile box: every vertex in `b` lands in it (what
  /// `DrawingContext.strokeDotLines(within:_:)` settles a 24-bit colour in).
  @inline(__always) func dotBox(_ b: TileBox) -> Rect2D {
    let xa = ox + Double(b.minX) * sx
    let xb = ox + Double(b.maxX) * sx
    let ya = oy + Double(b.minY) * sy
    let yb = oy + Double(b.maxY) * sy
    return Rect2D(x: min(xa, xb), y: min(ya, yb), width: abs(xb - xa), height: abs(yb - ya))
  }
}
