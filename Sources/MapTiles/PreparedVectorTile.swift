import DotRaster
import Synchronization
import TileData

/// A decoded vector tile sorted out for one style, once: for each drawing rule, the features it
/// draws, with their boxes, parts and the zoom they show from. Drawing a map tile then walks
/// flat lists (a box test and a zoom compare per feature) instead of matching every feature's
/// properties by name again for each of the dozens of map tiles a vector tile covers and at
/// each zoom step. Immutable once made.
final class PreparedVectorTile: Sendable {
  /// One feature a rule draws.
  struct Item: Sendable {
    let box: TileBox
    let parts: Range<Int32>
    /// The zoom level the feature shows from (its rule's, or a property's such as Protomaps'
    /// `min_zoom`, whichever is higher).
    let minZoom: Double
    let polygon: Bool
  }

  /// The features of one rule of the style, in tile order.
  struct RuleItems: Sendable {
    /// Index of the rule in `BasemapStyle.rules`.
    let rule: Int
    let layer: VectorLayer
    let items: [Item]
    /// The union of the items' boxes.
    let box: TileBox
  }

  let styleName: String
  let rules: [RuleItems]

  init(tile: DecodedTile, style: BasemapStyle) {
    styleName = style.name
    var out: [RuleItems] = []
    for (index, rule) in style.rules.enumerated() {
      guard rule.fill != nil || rule.stroke != nil, let layer = tile.layer(named: rule.layer)
      else { continue }
      let keyIndex = rule.key.flatMap { layer.keyIndex(of: $0) }
      if rule.key != nil && !rule.values.isEmpty && keyIndex == nil { continue }
      let levelIndex = rule.maxLevel.flatMap { layer.keyIndex(of: $0.key) }
      let fromIndex = rule.minZoomKey.flatMap { layer.keyIndex(of: $0) }
      var items: [Item] = []
      var box = TileBox.empty
      for feature in layer {
        let polygon: Bool
        switch feature.type {
        case .polygon: polygon = true
        case .lineString:
          guard rule.stroke != nil else { continue }
          polygon = false
        default: continue
        }
        if let k = keyIndex, !rule.values.isEmpty {
          guard let v = feature.value(forKeyIndex: k)?.stringValue, rule.values.contains(v) else {
            continue
          }
        }
        if let (_, limit) = rule.maxLevel {
          guard let k = levelIndex, let level = feature.value(forKeyIndex: k)?.doubleValue,
            level <= limit
          else { continue }
        }
        var from = rule.minZoom
        if let k = fromIndex, let z = feature.value(forKeyIndex: k)?.doubleValue {
          from = Swift.max(from, z)
        }
        let b = feature.boundingBox
        guard !b.isEmpty else { continue }
        let parts = feature.partIndices
        items.append(
          Item(
            box: b, parts: Int32(parts.lowerBound)..<Int32(parts.upperBound), minZoom: from,
            polygon: polygon))
        box.formUnion(b)
      }
      if !items.isEmpty {
        out.append(RuleItems(rule: index, layer: layer, items: items, box: box))
      }
    }
    rules = out
  }

  /// Approximate memory held, in bytes.
  var byteCount: Int {
    rules.reduce(64) { $0 + 64 + $1.items.count * MemoryLayout<Item>.stride }
  }
}

/// The prepared forms of a decoded tile, made on first use (usually one: one style).
final class PreparedTileCache: Sendable {
  private let slot = Mutex<PreparedVectorTile?>(nil)

  /// The tile prepared for `style`, made now if it was not (or was for another style).
  func prepared(_ tile: DecodedTile, for style: BasemapStyle) -> PreparedVectorTile {
    if let p = slot.withLock({ $0 }), p.styleName == style.name { return p }
    let made = PreparedVectorTile(tile: tile, style: style)
    slot.withLock { $0 = made }
    return made
  }
}

extension TileBox {
  /// Whether two boxes share a point (edges included).
  @inline(__always) func meets(_ o: TileBox) -> Bool {
    minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
  }
}
