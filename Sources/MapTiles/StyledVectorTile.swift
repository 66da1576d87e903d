import DotRaster
import MapStyle
import Synchronization
import TileData

extension TermColor {
  /// A style colour as a 24-bit terminal colour (its alpha left out: renderers turn opacity
  /// into dot density). It carries its nearest xterm-256 colour, and that its nearest of the
  /// 16 basic ones, for terminals without truecolor.
  public init(_ color: StyleColor) {
    let c = color.rgba8
    self.init(red: Int(c.r), green: Int(c.g), blue: Int(c.b))
  }

  /// A style colour as a terminal colour, in a document whose colours may be xterm palette
  /// entries (`StyleDocument.usesXtermColors`: the root `metadata` has `"termmap:colors":
  /// "xterm"`, as termmap's built-in styles do): there a colour whose RGB is exactly an xterm
  /// palette entry's is that palette colour (sent as its index, so the 16 basic ones follow
  /// the terminal's theme; a basic colour wins over a cube or grey entry of the same RGB), and
  /// any other colour is 24-bit as `init(_:)` makes it.
  public init(_ color: StyleColor, xterm: Bool) {
    guard xterm else {
      self.init(color)
      return
    }
    let c = color.rgba8
    if let index = Self.xtermIndex[Int(c.r) << 16 | Int(c.g) << 8 | Int(c.b)] {
      self.init(index)
    } else {
      self.init(color)
    }
  }

  /// The palette index of each xterm palette RGB (the lowest index where two share one).
  static let xtermIndex: [Int: UInt8] = {
    var out: [Int: UInt8] = [:]
    for i in (0...255).reversed() {
      let (r, g, b) = TermColor(UInt8(i)).rgb
      out[r << 16 | g << 8 | b] = UInt8(i)
    }
    return out
  }()
}

extension StyleDocument {
  /// Whether the document's colours are xterm palette entries where they match one exactly
  /// (root `metadata` `"termmap:colors": "xterm"`; see `TermColor.init(_:xterm:)`).
  public var usesXtermColors: Bool {
    guard case .object(let root) = json, case .object(let meta)? = root["metadata"],
      case .string("xterm")? = meta["termmap:colors"]
    else { return false }
    return true
  }
}

/// The drawable layers of a style document for one vector source, compiled for
/// `StyledVectorTileRenderer`: each `fill`, `line`, `circle` and `fill-extrusion` layer of the
/// source with its filter and the paint properties the renderer reads. Immutable but for the
/// memo of its layers' paint at the last zoom; its identity
/// keys the prepared tiles.
final class StyledDrawPlan: Sendable {
  /// How a layer's features are drawn.
  enum Shape: Sendable { case fill, line, circle }

  /// The paint properties the renderer reads, by role.
  enum Role: Int, CaseIterable {
    case color, opacity, outlineColor, pattern, width, dash, radius, gapWidth, offset
  }

  /// One drawable layer.
  struct Layer: Sendable {
    let id: String
    let shape: Shape
    /// A fill-extrusion drawn as a fill (outlined in its own colour: walls).
    let extrusion: Bool
    /// Whether the layer sets its colour (a pattern fill without one is drawn grey).
    let setsColor: Bool
    /// The fill's dot texture from the layer's `termmap:fill-pattern` metadata (nil: chosen
    /// by the fill's contrast with the background).
    let fillPattern: DotPattern?
    /// Whether colours that are exactly an xterm palette entry are that palette colour
    /// (`StyleDocument.usesXtermColors`).
    let xterm: Bool
    let sourceLayer: String
    /// `minzoom`; a layer from zoom 0 (the default) has no lower limit, as in MapLibre where
    /// no zoom is below 0 (termmap's map zooms out past 0 in a small terminal).
    let minzoom: Double
    let maxzoom: Double
    let filter: StyleExpression?
    /// The property in each role (`Role.rawValue`), nil when the layer type has none.
    let properties: [StyleExpression?]
    /// The roles whose value depends on the feature.
    let featureRoles: [Int]
    /// The zooms each feature-dependent role is evaluated at when grouping features: the
    /// stops of its zoom curve (two features equal at every stop are equal at every zoom).
    let groupingZooms: [[Double]]
  }

  let document: StyleDocument
  let sourceID: String
  let layers: [Layer]
  /// A layer's `termmap:fill-pattern` metadata: an integer 0–255 (braille dot bits, as
  /// `DotPattern(bits:)`) or one of `solid`, `sparse`, `checker`, `hatch`; nil when the
  /// layer has none (or another value).
  static func fillPattern(metadata layer: StyleLayer) -> DotPattern? {
    guard case .object(let meta)? = layer.json["metadata"], let value = meta["termmap:fill-pattern"]
    else { return nil }
    switch value {
    case .number(let n) where n >= 0 && n <= 255 && n == n.rounded():
      return DotPattern(bits: UInt8(n))
    case .string("solid"): return .solid
    case .string("sparse"): return .sparse
    case .string("checker"): return .checker
    case .string("hatch"): return .hatch
    default: return nil
    }
  }

  /// The colour fills stand out from: the ground's (`groundLayerNames`), else the style's first
  /// visible `background` layer's; nil when it has neither.
  let background: StyleExpression?
  /// What is not drawn, and why.
  let notes: [String]

  init(document: StyleDocument, sourceID: String) {
    self.document = document
    self.sourceID = sourceID
    var layers: [Layer] = []
    var notes: [String] = []
    let xterm = document.usesXtermColors
    // The ground: see `groundLayerNames`. Its colour is the background fills stand out from.
    let firstDrawn = document.layers.first {
      [.fill, .line, .circle, .fillExtrusion].contains($0.kind) && $0.visibility == .visible
    }
    var ground: StyleExpression?
    if let g = firstDrawn, g.kind == .fill, g.source == sourceID,
      let sourceLayer = g.sourceLayer, Self.groundLayerNames.contains(sourceLayer),
      !(g.filter?.readsProperties ?? false), g.paint["fill-pattern"] == nil,
      let color = g.property("fill-color"), color.isFeatureConstant
    {
      ground = color
      notes.append(
        "\(g.id): the ground (every feature of \(sourceLayer)): drawn as the background, "
          + "the colour other fills stand out from")
    }
    for layer in document.layers {
      if ground != nil && layer.id == firstDrawn?.id { continue }
      let names: [String?]
      let shape: Shape
      switch layer.kind {
      case .fill:
        shape = .fill
        names = [
          "fill-color", "fill-opacity", "fill-outline-color", "fill-pattern", nil, nil, nil, nil,
          nil,
        ]
      case .fillExtrusion:
        shape = .fill
        names = [
          "fill-extrusion-color", "fill-extrusion-opacity", nil, "fill-extrusion-pattern", nil,
          nil, nil, nil, nil,
        ]
      case .line:
        shape = .line
        names = [
          "line-color", "line-opacity", nil, nil, "line-width", "line-dasharray", nil,
          "line-gap-width", "line-offset",
        ]
      case .circle:
        shape = .circle
        names = [
          "circle-color", "circle-opacity", nil, nil, nil, nil, "circle-radius", nil, nil,
        ]
      case .symbol:
        continue  // labels: StyledVectorTileRenderer.symbolLayers
      case .background, .raster, .heatmap, .hillshade:
        if layer.source == nil || layer.source == sourceID {
          notes.append("\(layer.id): \(layer.kind.rawValue) layers are not drawn by termmap")
        }
        continue
      }
      guard layer.source == sourceID, let sourceLayer = layer.sourceLayer,
        layer.visibility == .visible
      else { continue }
      let properties = names.map { $0.flatMap { layer.property($0) } }
      let featureRoles = properties.indices.filter {
        properties[$0].map { !$0.isFeatureConstant } ?? false
      }
      layers.append(
        Layer(
          id: layer.id, shape: shape, extrusion: layer.kind == .fillExtrusion,
          setsColor: names[0].map { layer.paint[$0] != nil } ?? false,
          fillPattern: shape == .fill ? Self.fillPattern(metadata: layer) : nil, xterm: xterm,
          sourceLayer: sourceLayer, minzoom: layer.minzoom > 0 ? layer.minzoom : -.infinity,
          maxzoom: layer.maxzoom,
          filter: layer.filter, properties: properties, featureRoles: featureRoles,
          groupingZooms: featureRoles.map { properties[$0]?.zoomStops ?? [0] }))
    }
    self.layers = layers
    self.notes = notes
    background =
      ground
      ?? document.layers.first { $0.kind == .background && $0.visibility == .visible }?
      .property("background-color")
  }

  /// Source layers that are the ground itself: Protomaps' `earth`, every piece of land. A
  /// style's first drawn layer, a fill of one of these that does not pick features by their
  /// properties, in one colour, is not drawn: a terminal's background is the ground, and a
  /// texture over all land would bury what is drawn on it. Its colour is then the background
  /// the other fills stand out from (`fillPattern(contrast:)`).
  static let groundLayerNames: Set<String> = ["earth"]

  /// The paint of each layer whose paint does not depend on the feature, at the zoom last
  /// asked for (shared by every tile: worked out once per zoom, not once per tile).
  private let layerPaints = Mutex<(zoomBits: UInt64, paints: [Paint?])?>(nil)

  /// The paint of every feature-constant layer at `zoom` (nil for the others and for layers
  /// not drawn at this zoom's paint).
  func layerPaints(zoom: Double) -> [Paint?] {
    if let memo = layerPaints.withLock({ $0 }), memo.zoomBits == zoom.bitPattern {
      return memo.paints
    }
    let background = backgroundColor(zoom: zoom)
    let paints = layers.map {
      $0.featureRoles.isEmpty
        ? Self.paint($0, zoom: zoom, feature: nil, background: background) : nil
    }
    layerPaints.withLock { $0 = (zoom.bitPattern, paints) }
    return paints
  }

  /// The background colour at `zoom`, nil when the style has none.
  func backgroundColor(zoom: Double) -> StyleColor? {
    if case .color(let c)? = try? background?.evaluate(zoom: zoom) { return c }
    return nil
  }

  // MARK: Paint

  /// A group's paint resolved for a zoom: the drawing state for all its features.
  struct Paint: Sendable {
    var fill: TermColor?
    var pattern: DotPattern = .solid
    var stroke: TermColor?
    /// Line width (or a circle's diameter) in dots.
    var width: Double = 1
    /// Dash lengths in dots (empty: solid).
    var dash: [Double] = []
    /// A line's `line-offset` in dots, positive to the right of its direction
    /// (StyledLineOffset.swift).
    var offset: Double = 0
    /// How far each of a line's two sides around its `line-gap-width` is from its middle, in
    /// dots (0: one line).
    var gapOffset: Double = 0
  }

  /// A fill's dot pattern for how much it stands out from the style's background (nil: too
  /// little to show): `contrast` is the fill's opacity times the largest difference of a
  /// colour component from the background's (0 to 1). A dot in a terminal is full contrast
  /// against the terminal's background whatever its colour, so the style's subtle tints (land
  /// use a shade off the page colour) are left out, faint fills get one dot in eight and
  /// strong ones (water) two. Never solid: whole braille blocks would bury the lines and
  /// names drawn over them.
  static func fillPattern(contrast: Double) -> DotPattern? {
    if contrast < 0.08 { return nil }
    if contrast < 0.2 { return .sparse }
    return quarter
  }

  /// The largest difference of a colour component (straight, 0 to 1) between two colours.
  static func difference(_ a: StyleColor, _ b: StyleColor) -> Double {
    let x = a.straight
    let y = b.straight
    return max(abs(x.r - y.r), abs(x.g - y.g), abs(x.b - y.b))
  }

  /// Two dots in eight, apart: the texture of an opaque fill.
  static let quarter = DotPattern(
    bits: CellGeometry.brailleBit(dx: 0, dy: 1) | CellGeometry.brailleBit(dx: 1, dy: 3))

  /// MapLibre pixels to dots for line widths and circle radii: a dot spans two MapLibre
  /// pixels of ground at the same zoom, and lines are drawn at half their ground width (a
  /// quarter of their pixels), rounded, at least one dot.
  static func dots(pixels: Double) -> Double { max(1, wholeDots(pixels: pixels)) }

  /// MapLibre pixels to whole dots at the scale of `dots(pixels:)`, zero and negative values
  /// kept (offsets).
  static func wholeDots(pixels: Double) -> Double { (pixels / 4).rounded() }

  /// The paint of `layer` at `zoom` for `feature` (nil: feature-constant properties only).
  ///
  /// - Parameter background: the style's background colour at `zoom` (nil: the style has no
  ///   background layer; fills then stand out by their opacity alone).
  static func paint(
    _ layer: Layer, zoom: Double, feature: (any StyleFeature)?, background: StyleColor? = nil
  ) -> Paint? {
    func value(_ role: Role) -> StyleValue? {
      guard let e = layer.properties[role.rawValue] else { return nil }
      // An evaluation error gives the property's default, as in MapLibre.
      return (try? e.evaluate(zoom: zoom, feature: feature))
    }
    func color(_ role: Role) -> StyleColor? {
      if case .color(let c)? = value(role) { return c }
      return nil
    }
    let opacity = value(.opacity)?.numberValue ?? 1
    var p = Paint()
    guard let c = color(.color) else { return nil }
    let alpha = opacity * c.a
    let termColor = TermColor(c, xterm: layer.xterm)
    switch layer.shape {
    case .fill:
      if let pattern = layer.fillPattern {
        // The texture the style gives (termmap's built-in styles).
        guard alpha >= 0.08 else { return nil }
        p.pattern = pattern
      } else if case .string(let name)? = value(.pattern), !name.isEmpty {
        // An image pattern: a hatch, in the fill colour.
        guard opacity >= 0.1 else { return nil }
        p.pattern = .hatch
        p.fill = layer.setsColor ? termColor : TermColor(red: 128, green: 128, blue: 128)
        return p
      } else {
        let contrast = alpha * (background.map { difference(c, $0) } ?? 1)
        guard let pattern = fillPattern(contrast: contrast) else {
          // A tint: outlined polygons (buildings) keep their outline.
          guard let outline = color(.outlineColor) ?? (layer.extrusion ? c : nil),
            outline.a * opacity >= 0.1
          else { return nil }
          p.stroke = TermColor(outline, xterm: layer.xterm)
          return p
        }
        p.pattern = pattern
      }
      p.fill = termColor
      if let outline = color(.outlineColor), outline.a * opacity >= 0.1 {
        p.stroke = TermColor(outline, xterm: layer.xterm)
      } else if layer.extrusion {
        p.stroke = termColor
      }
    case .line:
      guard alpha >= 0.1 else { return nil }
      let px = value(.width)?.numberValue ?? 1
      guard px > 0 else { return nil }
      p.stroke = termColor
      p.width = dots(pixels: px)
      if case .array(let a)? = value(.dash) {
        // In line widths, as MapLibre; at least one dot each.
        let lengths = a.compactMap(\.numberValue).map { max(1, ($0 * p.width).rounded()) }
        if lengths.count >= 2 && lengths.count % 2 == 0 { p.dash = lengths }
      }
      if p.dash.isEmpty && alpha < 0.5 {
        // A faint line: every other dot.
        p.dash = [1, 1]
      }
      p.setOffsets(
        offsetPixels: value(.offset)?.numberValue ?? 0,
        gapPixels: value(.gapWidth)?.numberValue ?? 0, widthPixels: px)
    case .circle:
      guard alpha >= 0.1 else { return nil }
      let r = value(.radius)?.numberValue ?? 5
      guard r > 0 else { return nil }
      p.stroke = termColor
      p.width = max(1, (r / 2).rounded())
    }
    return p
  }
}

/// A vector tile feature as a style expression reads it: property slots of the document's
/// `PropertyKeys` mapped once per tile layer to the layer's key indexes (an array read, no
/// hashing of key strings per feature). One adapter is reused for every feature.
final class StyledTileFeature: StyleFeature {
  var layer: VectorLayer
  /// For each slot, the layer's key index (-1: the layer has no such key).
  var slots: [Int32]
  var index = 0

  init(layer: VectorLayer, keys: PropertyKeys) {
    self.layer = layer
    slots = Self.slots(layer, keys)
  }

  static func slots(_ layer: VectorLayer, _ keys: PropertyKeys) -> [Int32] {
    keys.names.map { layer.keyIndex(of: $0).map(Int32.init) ?? -1 }
  }

  static func styleValue(_ v: PropertyValue) -> StyleValue {
    switch v {
    case .string(let s): return .string(s)
    case .int(let i): return .number(Double(i))
    case .uint(let u): return .number(Double(u))
    case .double(let d): return .number(d)
    case .bool(let b): return .boolean(b)
    }
  }

  func value(slot: Int) -> StyleValue? {
    let k = slots[slot]
    guard k >= 0, let v = layer[index].value(forKeyIndex: Int(k)) else { return nil }
    return Self.styleValue(v)
  }

  func value(forKey key: String) -> StyleValue? {
    layer[index].value(for: key).map(Self.styleValue)
  }

  var properties: StyleObject {
    var entries: [(String, StyleValue)] = []
    layer[index].forEachProperty { entries.append(($0, Self.styleValue($1))) }
    return StyleObject(entries)
  }

  var geometryType: String? {
    switch layer[index].type {
    case .point: return "Point"
    case .lineString: return "LineString"
    case .polygon: return "Polygon"
    }
  }

  var id: StyleValue { layer[index].id.map { .number(Double($0)) } ?? .null }
}

/// A decoded vector tile sorted out for a `StyledDrawPlan`, once: for each drawable layer, its
/// features that pass the filter, grouped by the values of their feature-dependent paint
/// properties (so a group is drawn with one drawing state). Immutable but for the paint of
/// its groups, resolved once per zoom.
final class PreparedStyledTile: Sendable {
  /// One group: a layer's features that paint alike.
  struct Group: Sendable {
    /// Index of the layer in `StyledDrawPlan.layers`; `items.rule` is the same.
    let layer: Int
    let items: PreparedVectorTile.RuleItems
    /// A feature of the group, to evaluate feature-dependent properties with at a zoom.
    let representative: Int
    let slots: [Int32]
  }

  let plan: StyledDrawPlan
  let groups: [Group]
  /// For each group of a `line` layer, the later line groups that stroke every feature of
  /// it, of the same source layer and from the same `minzoom` (so the same pieces): drawn
  /// solid and as wide in dots, one of them inks every dot the group would (a casing under
  /// its road), and the group is not drawn (`covered(_:paints:zoom:)`).
  let coveringGroups: [[Int]]
  private let drawnMemo = Mutex<(scaleBits: UInt64, paints: [StyledDrawPlan.Paint?])?>(nil)

  /// Sorts out `tile`; filters are evaluated at `zoom`.
  init(tile: DecodedTile, plan: StyledDrawPlan, zoom: Double) {
    self.plan = plan
    var groups: [Group] = []
    let keys = plan.document.keys
    for (li, layer) in plan.layers.enumerated() {
      guard let source = tile.layer(named: layer.sourceLayer) else { continue }
      let feature = StyledTileFeature(layer: source, keys: keys)
      let filter = layer.filter?.specialized(zoom: zoom)
      // Per group: its key (the feature-dependent values at their grouping zooms), first
      // feature, items and chunks.
      var keysOfGroups: [[StyleValue]] = []
      var firsts: [Int] = []
      var builders: [GroupBuilder] = []
      let strokes = layer.shape == .line || layer.properties[2] != nil || layer.extrusion
      for i in source.indices {
        let f = source[i]
        let polygon: Bool
        switch (f.type, layer.shape) {
        case (.polygon, .fill), (.polygon, .line): polygon = true
        case (.lineString, .line), (.point, .circle): polygon = false
        default: continue
        }
        feature.index = i
        if let filter {
          guard case .boolean(true)? = try? filter.evaluate(zoom: zoom, feature: feature) else {
            continue
          }
        }
        var key: [StyleValue] = []
        for (n, role) in layer.featureRoles.enumerated() {
          let e = layer.properties[role]!
          for z in layer.groupingZooms[n] {
            key.append((try? e.evaluate(zoom: z, feature: feature)) ?? .null)
          }
        }
        let g: Int
        if let found = keysOfGroups.firstIndex(of: key) {
          g = found
        } else {
          g = keysOfGroups.count
          keysOfGroups.append(key)
          firsts.append(i)
          builders.append(GroupBuilder())
        }
        builders[g].add(
          f, polygon: polygon, strokes: strokes, minZoom: layer.minzoom, layer: source)
      }
      for (g, b) in builders.enumerated() where !b.items.isEmpty {
        groups.append(
          Group(
            layer: li,
            items: PreparedVectorTile.RuleItems(
              rule: li, layer: source, items: b.items, box: b.box, chunks: b.chunks,
              points: b.points, grid: PreparedVectorTile.ChunkGrid(b.chunks),
              bands: PreparedVectorTile.ItemBands(b.items, box: b.box)),
            representative: firsts[g], slots: feature.slots))
      }
    }
    self.groups = groups
    coveringGroups = Self.coveringGroups(groups, plan: plan)
  }

  static func coveringGroups(_ groups: [Group], plan: StyledDrawPlan) -> [[Int]] {
    groups.indices.map { g in
      let a = plan.layers[groups[g].layer]
      guard a.shape == .line else { return [] }
      return groups.indices.filter { h in
        let b = plan.layers[groups[h].layer]
        return h > g && groups[h].layer != groups[g].layer && b.shape == .line
          && b.sourceLayer == a.sourceLayer && b.minzoom == a.minzoom
          && groups[h].items.layer === groups[g].items.layer
          && Self.features(of: groups[g], areAmong: groups[h])
      }
    }
  }

  /// Whether every feature of `a` is one of `b` (both in tile order; a feature is known by
  /// its parts).
  static func features(of a: Group, areAmong b: Group) -> Bool {
    var j = 0
    let bi = b.items.items
    for item in a.items.items {
      while j < bi.count && bi[j].parts.lowerBound < item.parts.lowerBound { j += 1 }
      guard j < bi.count && bi[j].parts == item.parts else { return false }
      j += 1
    }
    return true
  }

  /// Whether group `g`, drawn with `paints[g]` at `zoom`, inks only dots that a later group
  /// inks too (`coveringGroups`): both solid, as wide in dots, the later one drawn at `zoom`.
  /// Its dots would all be drawn over, so it is left out: the same dots and colours.
  func covered(_ g: Int, paints: [StyledDrawPlan.Paint?], zoom: Double) -> Bool {
    guard let p = paints[g], p.dash.isEmpty, !coveringGroups[g].isEmpty else { return false }
    for h in coveringGroups[g] {
      let layer = plan.layers[groups[h].layer]
      guard zoom >= layer.minzoom && zoom < layer.maxzoom, let q = paints[h], q.stroke != nil,
        q.dash.isEmpty, q.width == p.width
      else { continue }
      return true
    }
    return false
  }

  /// Collects a group's items and the chunks of their lines, as `PreparedVectorTile` does.
  struct GroupBuilder {
    var items: [PreparedVectorTile.Item] = []
    var box = TileBox.empty
    var chunks: [PreparedVectorTile.Chunk] = []
    var points: [TilePoint] = []

    mutating func add(
      _ f: VectorFeature, polygon: Bool, strokes: Bool, minZoom: Double, layer: VectorLayer
    ) {
      let b = f.boundingBox
      guard !b.isEmpty else { return }
      let parts = f.partIndices
      let firstChunk = Int32(chunks.count)
      if strokes {
        layer.withFlatGeometry { flat, offsets in
          for p in parts {
            PreparedVectorTile.cut(
              flat[Int(offsets[p])..<Int(offsets[p + 1])], ring: polygon, minZoom: minZoom,
              into: &chunks, points: &points)
          }
        }
      }
      items.append(
        PreparedVectorTile.Item(
          box: b, parts: Int32(parts.lowerBound)..<Int32(parts.upperBound), minZoom: minZoom,
          polygon: polygon, chunks: firstChunk..<Int32(chunks.count)))
      box.formUnion(b)
    }
  }

  /// The paint of each group drawn at `zoomScale`, whose zoom level is `zoom` (a function of
  /// it), worked out once per zoom scale: nil for a group not drawn (its layer's zoom range
  /// leaves it out, or `covered(_:paints:zoom:)`), and each `dash` divided by `zoomScale`,
  /// the lengths the drawing context takes. A map tile's frames then test no group's zoom
  /// range or cover, nor make its dashes, again.
  func drawnPaints(zoomScale: Double, zoom: Double) -> [StyledDrawPlan.Paint?] {
    if let memo = drawnMemo.withLock({ $0 }), memo.scaleBits == zoomScale.bitPattern {
      return memo.paints
    }
    let all = paints(zoom: zoom)
    var drawn = all
    for g in groups.indices {
      let layer = plan.layers[groups[g].layer]
      guard zoom >= layer.minzoom && zoom < layer.maxzoom, var paint = all[g],
        coveringGroups[g].isEmpty || !covered(g, paints: all, zoom: zoom)
      else {
        drawn[g] = nil
        continue
      }
      if !paint.dash.isEmpty {
        paint.dash = paint.dash.map { $0 / zoomScale }
        drawn[g] = paint
      }
    }
    drawnMemo.withLock { $0 = (zoomScale.bitPattern, drawn) }
    return drawn
  }

  /// The paint of each group at `zoom` (nil: not drawn); `drawnPaints(zoomScale:zoom:)`
  /// keeps what it draws with.
  func paints(zoom: Double) -> [StyledDrawPlan.Paint?] {
    var out: [StyledDrawPlan.Paint?] = []
    out.reserveCapacity(groups.count)
    var feature: StyledTileFeature?
    let background = plan.backgroundColor(zoom: zoom)
    let layerPaints = plan.layerPaints(zoom: zoom)
    for g in groups {
      let layer = plan.layers[g.layer]
      guard !layer.featureRoles.isEmpty else {
        out.append(layerPaints[g.layer])
        continue
      }
      let f = feature ?? StyledTileFeature(layer: g.items.layer, keys: PropertyKeys())
      f.layer = g.items.layer
      f.slots = g.slots
      f.index = g.representative
      feature = f
      out.append(StyledDrawPlan.paint(layer, zoom: zoom, feature: f, background: background))
    }
    return out
  }
}

/// The styled form of a decoded tile, made on first use for the plan it is drawn with.
final class StyledTileCache: Sendable {
  private let slot = Mutex<PreparedStyledTile?>(nil)

  func prepared(_ tile: DecodedTile, for plan: StyledDrawPlan, zoom: Double) -> PreparedStyledTile {
    if let p = slot.withLock({ $0 }), p.plan === plan { return p }
    let made = PreparedStyledTile(tile: tile, plan: plan, zoom: zoom)
    slot.withLock { $0 = made }
    return made
  }
}
