import DotRaster
import Foundation
import MapGeometry
import MapStyle
import Synchronization
import TermMapKit
import TileData

/// The map labels of a style document's `symbol` layers for one vector source: what MapLibre
/// would print, as termmap's `MapLabel`s.
///
/// Made once for a document, a source and a label language; then `labels(in:id:zoom:)` gives
/// a decoded tile's labels at a map zoom. For each symbol layer of the source that has a
/// `text-field` (icon-only layers are left out), shown at the zoom (`minzoom`, `maxzoom`,
/// `visibility`), each feature its `filter` passes becomes a label:
///
/// - the text: `text-field` evaluated (legacy `{token}` strings converted as MapLibre converts
///   them, `format` sections joined, numbers as JavaScript prints them, lines joined by a
///   space), with `text-transform` applied; an empty text gives no label. A layer whose
///   `metadata` has `"termmap:narrow-first": true` and whose `text-field` is a `coalesce`
///   takes the first non-empty argument whose characters are all below U+2E80 (no wide CJK
///   glyphs), else the first non-empty one;
/// - the colour: `text-color` as a terminal colour (`TermColor.init(_:xterm:)`: a palette
///   colour where the document is marked `termmap:colors` `xterm`; a label whose `text-color`
///   alpha times `text-opacity` is below 0.1 is not shown); bold when a font of `text-font`
///   (or of the first `format` section) has "Bold" in its name;
/// - the marker: where the feature has a non-empty `icon-image` beside its text (not a
///   shield's icon behind a centred text, see `marker(layout:metadata:)`), a glyph at the
///   point: the layer's `termmap:icon` metadata, else "•", in `icon-color` (else the text's
///   colour);
/// - where the text stands: `text-anchor`, `text-offset`, `text-radial-offset` and
///   `text-variable-anchor` as positions in cells (`positions(anchor:offset:radialOffset:variableAnchor:)`);
///   none for a centred text (with a marker, the text then starts two cells right of it);
/// - the priority: the layer's place in the style (MapLibre places symbol layers from the top
///   of the style down, so a layer above wins), then `symbol-sort-key` ascending, then the
///   larger `text-size` (see `priority(rank:sortKey:size:)`);
/// - the point: a point feature's first point, a line's middle vertex (the longest part's, as
///   street names always were), a polygon's representative point; `symbol-placement: line`
///   or `line-center` labels lines and polygons only;
/// - the category (for `MapView.pointOfInterestFilter`): for layers of the `poi`/`pois`
///   source layers, the first of `class`, `subclass`, `kind` (and Shortbread's `amenity`,
///   `shop`, `tourism`, `leisure`, `historic`) the feature has.
///
/// With a `language`, every `text-field` reads names in it first (`StyleTextField.localized`;
/// a narrow-first layer tries `name:CODE`, `name_CODE` first, whatever their script).
/// Expressions are specialized once per zoom; feature properties are read through the
/// document's property slots mapped to each tile layer's key indexes.
public final class StyleLabels: Sendable {
  /// The properties a label reads besides its text, by role.
  enum Role: Int, CaseIterable {
    case color, opacity, font, size, sortKey, transform, placement, icon, iconColor, iconOpacity
    case anchor, offset, radialOffset, variableAnchor
    var name: String {
      switch self {
      case .color: return "text-color"
      case .opacity: return "text-opacity"
      case .font: return "text-font"
      case .size: return "text-size"
      case .sortKey: return "symbol-sort-key"
      case .transform: return "text-transform"
      case .placement: return "symbol-placement"
      case .icon: return "icon-image"
      case .iconColor: return "icon-color"
      case .iconOpacity: return "icon-opacity"
      case .anchor: return "text-anchor"
      case .offset: return "text-offset"
      case .radialOffset: return "text-radial-offset"
      case .variableAnchor: return "text-variable-anchor"
      }
    }

    /// The layer's expression for the role: what it sets, else the specification's default;
    /// `icon-color` only when set (a marker is otherwise in the text's colour), and
    /// `text-radial-offset` too (with `text-variable-anchor`, setting it at all replaces
    /// `text-offset`, as in MapLibre).
    func expression(in layer: StyleLayer) -> StyleExpression? {
      switch self {
      case .iconColor: return layer.paint[name]
      case .icon, .radialOffset, .variableAnchor: return layer.layout[name]
      default: return layer.property(name)
      }
    }
  }

  /// Where a layer's labels read their text: `text-field` as one expression, or (with
  /// `termmap:narrow-first`) the arguments of its `coalesce` one by one.
  struct TextSource: Sendable {
    /// Tried first, the first non-empty taken whatever its script: the label language's
    /// names, for a narrow-first layer (others have the language inside `candidates`).
    let preferred: [StyleExpression]
    /// The `text-field`, or a narrow-first layer's `coalesce` arguments in order.
    let candidates: [StyleExpression]
    /// Whether the first non-empty candidate all below U+2E80 wins over an earlier one.
    let narrowFirst: Bool

    func specialized(zoom: Double) -> TextSource {
      TextSource(
        preferred: preferred.map { $0.specialized(zoom: zoom) },
        candidates: candidates.map { $0.specialized(zoom: zoom) }, narrowFirst: narrowFirst)
    }

    /// A constant empty text: the layer names nothing.
    var isConstantEmpty: Bool {
      preferred.isEmpty
        && candidates.allSatisfy { e in
          e.constantValue.map { StyleLabels.text(of: $0)?.isEmpty ?? true } ?? false
        }
    }

    /// The feature's text: the value and its text, nil when there is none (or it is empty).
    func text(zoom: Double, feature: StyledTileFeature) -> (StyleValue, String)? {
      for e in preferred {
        if let v = try? e.evaluate(zoom: zoom, feature: feature), let t = StyleLabels.text(of: v),
          !t.isEmpty
        {
          return (v, t)
        }
      }
      var first: (StyleValue, String)?
      for e in candidates {
        guard let v = try? e.evaluate(zoom: zoom, feature: feature),
          let t = StyleLabels.text(of: v), !t.isEmpty
        else { continue }
        if !narrowFirst || StyleLabels.isNarrow(t) { return (v, t) }
        if first == nil { first = (v, t) }
      }
      return first
    }
  }

  /// Whether every character of a text is below U+2E80 (no CJK: a wide glyph takes two
  /// cells and crowds the map), as `termmap:narrow-first` prefers.
  static func isNarrow(_ text: String) -> Bool {
    // U+2E80 is E2 BA 80 in UTF-8: a text without a lead byte above E2, or E2 followed by
    // BA or more, is all below it.
    var it = text.utf8.makeIterator()
    while let b = it.next() {
      if b < 0xE2 { continue }
      if b > 0xE2 { return false }
      guard let next = it.next(), next < 0xBA else { return false }
    }
    return true
  }

  /// One symbol layer with text.
  struct Layer: Sendable {
    let id: String
    let sourceLayer: String
    let minzoom: Double
    let maxzoom: Double
    let filter: StyleExpression?
    let text: TextSource
    /// By `Role.rawValue`; nil: the layer has no value and the property no default.
    let properties: [StyleExpression?]
    /// The layer's place among the document's symbol layers (0: the lowest).
    let rank: Int
    /// Whether the layer names points of interest (its labels get a category).
    let pointsOfInterest: Bool
    /// The glyph of a label's marker where the feature has a non-empty `icon-image` (nil: the
    /// layer's labels have none: no `icon-image`, or an icon behind the text, a shield).
    let marker: Unicode.Scalar?

    func isShown(atZoom zoom: Double) -> Bool { zoom >= minzoom && zoom < maxzoom }
  }

  /// The id of the document's source whose tiles are labelled.
  public let sourceID: String
  /// The label language (a code such as `fi` or `zh-Hant`), nil for the style's own names.
  public let language: String?
  /// Symbol layers left out, one line each (`poi-icons: no text-field`, a `text-field` that
  /// does not compile).
  public let notes: [String]
  let layers: [Layer]
  /// The document's keys, and those the rewritten text fields read.
  let keys: PropertyKeys
  /// Whether colours that are exactly an xterm palette entry are that entry
  /// (`StyleDocument.usesXtermColors`).
  let xterm: Bool
  /// Tells label sets apart in the renderer's label caches.
  let serial: Int
  private static let serials = Atomic<Int>(0)

  /// The ids of the symbol layers labelled, in the style's order.
  public var layerIDs: [String] { layers.map(\.id) }

  /// The labels of `document`'s symbol layers that read source `sourceID`, names in
  /// `language` first where the tiles have them (nil or empty: the style's own names).
  public init(document: StyleDocument, sourceID: String, language: String? = nil) {
    self.sourceID = sourceID
    let language = language.flatMap { $0.isEmpty ? nil : $0 }
    self.language = language
    var keys = document.keys
    var layers: [Layer] = []
    var notes: [String] = []
    var rank = 0
    let spec = StyleProperties.spec(of: "text-field")
    func compile(_ value: StyleValue, _ keys: inout PropertyKeys) throws(ExpressionCompileError)
      -> StyleExpression
    {
      try StyleExpression(
        propertyValue: value, type: spec?.type ?? .formatted, interpolated: false, keys: &keys)
    }
    for layer in document.layers where layer.kind == .symbol {
      defer { rank += 1 }
      guard layer.source == sourceID, let sourceLayer = layer.sourceLayer,
        layer.visibility == .visible
      else { continue }
      guard case .object(let layout)? = layer.json["layout"], var field = layout["text-field"]
      else {
        notes.append("\(layer.id): no text-field")
        continue
      }
      let metadata = layer.json["metadata"]?.objectValue ?? StyleObject()
      field = StyleTextField.convertingTokens(field)
      let text: TextSource
      do {
        if case .boolean(true)? = metadata["termmap:narrow-first"], case .array(let a) = field,
          a.first == .string("coalesce"), a.count > 1
        {
          let preferred = language.map { Self.languageKeys($0, field) } ?? []
          text = TextSource(
            preferred: try preferred.map { try compile(.array(["get", .string($0)]), &keys) },
            candidates: try a.dropFirst().map { try compile($0, &keys) }, narrowFirst: true)
        } else {
          if let language { field = StyleTextField.localized(field, to: language) }
          text = TextSource(
            preferred: [], candidates: [try compile(field, &keys)], narrowFirst: false)
        }
      } catch {
        notes.append("\(layer.id): text-field: \(error)")
        continue
      }
      // A constant empty text names nothing.
      if text.isConstantEmpty { continue }
      layers.append(
        Layer(
          id: layer.id, sourceLayer: sourceLayer, minzoom: layer.minzoom, maxzoom: layer.maxzoom,
          filter: layer.filter, text: text,
          properties: Role.allCases.map { $0.expression(in: layer) }, rank: rank,
          pointsOfInterest: sourceLayer == "poi" || sourceLayer == "pois",
          marker: Self.marker(layout: layout, metadata: metadata)))
    }
    self.layers = layers
    self.notes = notes
    self.keys = keys
    xterm = document.usesXtermColors
    serial = Self.serials.add(1, ordering: .relaxed).newValue
  }

  /// The names a narrow-first layer tries first for a label language, whatever their
  /// script: `name:CODE`, `name_CODE`, and `pgf:name:CODE` when the field reads Protomaps'
  /// `pgf:name`; then the same for the language alone when the code has a script or region
  /// (`StyleTextField.languageKeys`, each `name_CODE` followed by its `pgf:name:CODE`).
  static func languageKeys(_ code: String, _ field: StyleValue) -> [String] {
    let keys = StyleTextField.languageKeys(code)
    guard field.jsonText.contains("\"pgf:name\"") else { return keys }
    return keys.flatMap { k in k.hasPrefix("name_") ? [k, "pgf:name:" + k.dropFirst(5)] : [k] }
  }

  /// The glyph a layer's labels are marked with where a feature has an icon: the layer's
  /// `termmap:icon` metadata (its first character), else "•". nil when the layer has no
  /// `icon-image`, or when its icon is behind the text rather than beside it: `icon-text-fit`
  /// other than `none`, or the text centred on the icon (`text-anchor` `center`, no
  /// `text-offset`, `text-radial-offset` or `text-variable-anchor`), as a road shield's
  /// number is, unless `termmap:icon` says otherwise.
  static func marker(layout: StyleObject, metadata: StyleObject) -> Unicode.Scalar? {
    guard let image = layout["icon-image"], image != .string("") else { return nil }
    if let fit = layout["icon-text-fit"], fit != .string("none") { return nil }
    if case .string(let g)? = metadata["termmap:icon"], let glyph = g.unicodeScalars.first {
      return glyph
    }
    let centred =
      (layout["text-anchor"] ?? .string("center")) == .string("center")
      && (layout["text-offset"] ?? [0, 0]) == [0, 0]
      && (layout["text-radial-offset"] ?? 0) == 0 && layout["text-variable-anchor"] == nil
    return centred ? nil : "•"
  }

  // MARK: Where the text stands

  /// Cells per em across: a terminal's glyph is one cell wide, and a glyph of the fonts maps
  /// use (Noto Sans, Open Sans) advances about 0.55 em on average, so an em is about 1.8 of
  /// them. (Protomaps' points of interest, their text 1.1 em beside the icon, then start two
  /// cells right of the icon's, one cell apart, as `• Name`; two columns an em would leave
  /// two.)
  static let emColumns = 1.8
  /// Rows per em down: a line of text is one row, and about one em (MapLibre's default line
  /// height is 1.2 em). With `emColumns`, an em is about as wide as tall, as a terminal cell is
  /// about twice as tall as wide.
  static let emRows = 1.0

  /// Where a label's text may stand against its point (`MapLabel.positions`), from
  /// `text-anchor`, `text-offset`, `text-radial-offset` and `text-variable-anchor` as MapLibre
  /// combines them, offsets in ems turned into cells (`emColumns`, `emRows`): the text measures
  /// in its own glyphs, so an em is the same in cells whatever `text-size` says.
  ///
  /// With variable anchors, one position per anchor in order, each offset by the radial
  /// offset in the anchor's direction when the layer sets one, else by `text-offset`'s
  /// magnitudes turned away from the anchor (MapLibre's rule). Otherwise the one anchor, offset
  /// by a non-zero radial offset or else `text-offset`. Empty for a text centred on its point
  /// (the default).
  static func positions(
    anchor: StyleValue?, offset: StyleValue?, radialOffset: StyleValue?,
    variableAnchor: StyleValue?
  ) -> [LabelPosition] {
    var ox = 0.0
    var oy = 0.0
    if case .array(let a)? = offset, a.count == 2, let x = a[0].numberValue,
      let y = a[1].numberValue, x.isFinite, y.isFinite
    {
      (ox, oy) = (x, y)
    }
    let radial = radialOffset?.numberValue.flatMap { $0.isFinite ? $0 : nil }
    func position(_ a: LabelAnchor, _ x: Double, _ y: Double) -> LabelPosition {
      LabelPosition(anchor: a, columns: x * emColumns, rows: y * emRows)
    }
    if case .array(let list)? = variableAnchor {
      let anchors = list.compactMap { $0.stringValue.flatMap(LabelAnchor.init(rawValue:)) }
      if !anchors.isEmpty {
        return anchors.map { a in
          if let r = radial {
            let (x, y) = radialShift(a, r)
            return position(a, x, y)
          }
          // Away from the anchor: right of a text anchored left, below one anchored top.
          return position(
            a, (0.5 - a.horizontal) * 2 * abs(ox), (0.5 - a.vertical) * 2 * abs(oy))
        }
      }
    }
    let a = anchor?.stringValue.flatMap(LabelAnchor.init(rawValue:)) ?? .center
    if let r = radial, r != 0 {
      let (x, y) = radialShift(a, r)
      return [position(a, x, y)]
    }
    if a == .center && ox == 0 && oy == 0 { return [] }
    return [position(a, ox, oy)]
  }

  /// A radial offset `r` (ems) in the direction of anchor `a`, as MapLibre's
  /// `fromRadialOffset` (without its baseline shift, which a cell row has no room for): along
  /// an axis for a side, `r`/√2 on both for a corner; negative `r` is 0.
  static func radialShift(_ a: LabelAnchor, _ r: Double) -> (Double, Double) {
    let r = max(r, 0)
    let corner = r / 2.0.squareRoot()
    switch a {
    case .center: return (0, 0)
    case .left: return (r, 0)
    case .right: return (-r, 0)
    case .top: return (0, r)
    case .bottom: return (0, -r)
    case .topLeft: return (corner, corner)
    case .topRight: return (-corner, corner)
    case .bottomLeft: return (corner, -corner)
    case .bottomRight: return (-corner, -corner)
    }
  }

  // MARK: Priority

  /// A label's priority (higher is placed first): MapLibre places the symbol layers from the
  /// top of the style down, and within a layer the features by `symbol-sort-key` ascending; a
  /// terminal prints every text at one size, so among equal sort keys the larger `text-size`
  /// goes first. As one number: `rank` × 2³¹ + (−sort key, within ±2²⁰) × 1024 + text size
  /// (0…1023) — exact in a double for up to a million layers.
  static func priority(rank: Int, sortKey: Double?, size: Double) -> Double {
    let key = min(max(-(sortKey ?? 0), -1_048_576), 1_048_576)
    let s = min(max(size.isFinite ? size : 0, 0), 1023)
    return Double(rank) * 2_147_483_648 + key * 1024 + s
  }

  // MARK: Collecting

  /// A layer's properties at one zoom: constant ones evaluated, the others specialized.
  struct AtZoom {
    let layer: Int
    let filter: StyleExpression?
    let text: TextSource
    /// By role: the value (nil when the property has none), or the expression per feature.
    let constants: [StyleValue?]
    let perFeature: [StyleExpression?]
  }

  /// The layers shown at `zoom`, specialized for it (kept for the last zoom asked).
  private let zoomMemo = Mutex<(zoomBits: UInt64, layers: [AtZoom])?>(nil)

  func layers(atZoom zoom: Double) -> [AtZoom] {
    if let m = zoomMemo.withLock({ $0 }), m.zoomBits == zoom.bitPattern { return m.layers }
    var out: [AtZoom] = []
    for (i, layer) in layers.enumerated() where layer.isShown(atZoom: zoom) {
      var constants: [StyleValue?] = []
      var perFeature: [StyleExpression?] = []
      for e in layer.properties {
        guard let e else {
          constants.append(nil)
          perFeature.append(nil)
          continue
        }
        let s = e.specialized(zoom: zoom)
        if s.isFeatureConstant {
          // An evaluation error gives the property's default, as in MapLibre (nil here).
          constants.append(try? s.evaluate(zoom: zoom))
          perFeature.append(nil)
        } else {
          constants.append(nil)
          perFeature.append(s)
        }
      }
      out.append(
        AtZoom(
          layer: i, filter: layer.filter?.specialized(zoom: zoom),
          text: layer.text.specialized(zoom: zoom), constants: constants,
          perFeature: perFeature))
    }
    zoomMemo.withLock { $0 = (zoom.bitPattern, out) }
    return out
  }

  /// The properties that hold a point of interest's class, in order of preference.
  static let categoryKeys = [
    "class", "subclass", "kind", "amenity", "shop", "tourism", "leisure", "historic",
  ]

  /// A decoded tile's labels at map zoom `zoom`, the top layer's first (the order MapLibre
  /// places layers in; among labels of equal priority the first made is placed first), each
  /// layer's in the tile's order of features (`bounds`: labels outside are left out, as the
  /// overlay's bounds).
  public func labels(
    in tile: DecodedTile, id: TileID, zoom: Double, bounds: MapRect = .world
  ) -> [MapLabel] {
    tileLabels(tile, id: id, zoom: zoom, bounds: bounds).labels
  }

  /// A tile's labels with the keys a frame merges them by: the source layer and the text (each
  /// name once per source layer across tiles, the most important, as the built-in styles
  /// always merged them: a town and a suburb of one name, or a street whose parts are named by
  /// two layers of different classes, show once).
  func tileLabels(_ tile: DecodedTile, id: TileID, zoom: Double, bounds: MapRect)
    -> VectorTileRenderer.TileLabels
  {
    var out = VectorTileRenderer.TileLabels()
    var adapter: StyledTileFeature?
    // Top layer first: a frame's merge keeps, among equal priorities, the name seen first.
    for at in layers(atZoom: zoom).reversed() {
      let layer = layers[at.layer]
      guard let source = tile.layer(named: layer.sourceLayer), !source.isEmpty else { continue }
      let feature: StyledTileFeature
      if let a = adapter {
        a.layer = source
        a.slots = StyledTileFeature.slots(source, keys)
        feature = a
      } else {
        feature = StyledTileFeature(layer: source, keys: keys)
        adapter = feature
      }
      let transform = source.transform(for: id)
      let categoryIndexes =
        layer.pointsOfInterest ? Self.categoryKeys.compactMap { source.keyIndex(of: $0) } : []
      // What does not depend on the feature, worked out once per layer.
      let constantBold =
        at.perFeature[Role.font.rawValue] == nil
        ? Self.isBold(at.constants[Role.font.rawValue]) : nil
      let constantPriority =
        at.perFeature[Role.sortKey.rawValue] == nil && at.perFeature[Role.size.rawValue] == nil
        ? Self.priority(
          rank: layer.rank, sortKey: at.constants[Role.sortKey.rawValue]?.numberValue,
          size: at.constants[Role.size.rawValue]?.numberValue ?? 16) : nil
      let placeRoles: [Role] = [.anchor, .offset, .radialOffset, .variableAnchor]
      let constantPositions =
        placeRoles.allSatisfy { at.perFeature[$0.rawValue] == nil }
        ? Self.positions(
          anchor: at.constants[Role.anchor.rawValue], offset: at.constants[Role.offset.rawValue],
          radialOffset: at.constants[Role.radialOffset.rawValue],
          variableAnchor: at.constants[Role.variableAnchor.rawValue]) : nil
      // The last colours converted (a layer's labels mostly share one).
      var lastColor: StyleColor?
      var lastTermColor = TermColor.white
      var lastIconColor: StyleColor?
      var lastIconTermColor = TermColor.white
      for i in source.indices {
        feature.index = i
        if let filter = at.filter {
          guard case .boolean(true)? = try? filter.evaluate(zoom: zoom, feature: feature) else {
            continue
          }
        }
        func value(_ role: Role) -> StyleValue? {
          if let e = at.perFeature[role.rawValue] {
            return try? e.evaluate(zoom: zoom, feature: feature)
          }
          return at.constants[role.rawValue]
        }
        let f = source[i]
        var alongLine = false
        if case .string(let placement)? = value(.placement),
          placement == "line" || placement == "line-center"
        {
          if f.type == .point { continue }
          alongLine = true
        }
        guard let (evaluated, name) = at.text.text(zoom: zoom, feature: feature) else { continue }
        var text = name
        if case .string(let t)? = value(.transform) {
          if t == "uppercase" {
            text = text.uppercased()
          } else if t == "lowercase" {
            text = text.lowercased()
          }
        }
        let opacity = value(.opacity)?.numberValue ?? 1
        var color = StyleColor(red: 0, green: 0, blue: 0)
        if case .color(let c)? = value(.color) { color = c }
        var bold = constantBold ?? Self.isBold(value(.font))
        if case .formatted(let ft) = evaluated,
          let first = ft.sections.first(where: { !$0.text.isEmpty })
        {
          if let c = first.textColor { color = c }
          if let stack = first.fontStack, stack.contains("Bold") { bold = true }
        }
        guard color.a * opacity >= 0.1 else { continue }
        guard let p = Self.anchor(f, transform), bounds.contains(p) else { continue }
        let category = categoryIndexes.lazy.compactMap { f.value(forKeyIndex: $0)?.stringValue }
          .first { !$0.isEmpty }
        let priority =
          constantPriority
          ?? Self.priority(
            rank: layer.rank, sortKey: value(.sortKey)?.numberValue,
            size: value(.size)?.numberValue ?? 16)
        if color != lastColor {
          lastColor = color
          lastTermColor = TermColor(color, xterm: xterm)
        }
        // A dot beside the text where the feature has an icon (a place's, a shop's).
        var marker: (glyph: Unicode.Scalar, color: TermColor)?
        if let glyph = layer.marker, !alongLine, case .string(let image)? = value(.icon),
          !image.isEmpty
        {
          var iconColor = color
          if case .color(let c)? = value(.iconColor) { iconColor = c }
          if iconColor.a * (value(.iconOpacity)?.numberValue ?? 1) >= 0.1 {
            if iconColor != lastIconColor {
              lastIconColor = iconColor
              lastIconTermColor = TermColor(iconColor, xterm: xterm)
            }
            marker = (glyph, lastIconTermColor)
          }
        }
        // Along a line the name is centred where it is (termmap does not bend names).
        let positions =
          alongLine
          ? []
          : constantPositions
            ?? Self.positions(
              anchor: value(.anchor), offset: value(.offset), radialOffset: value(.radialOffset),
              variableAnchor: value(.variableAnchor))
        out.names.append(VectorTileRenderer.LabelName(layer.sourceLayer + "/" + text))
        out.labels.append(
          MapLabel(
            text: text, point: p, priority: priority, color: lastTermColor, bold: bold,
            marker: marker, category: category.map(PointOfInterestCategory.init(rawValue:)),
            positions: positions))
      }
    }
    return out
  }

  /// A label's text from `text-field`'s value: a string, formatted sections joined, a number
  /// as JavaScript prints it; lines joined by a space, ends trimmed. nil for null.
  static func text(of value: StyleValue) -> String? {
    let raw: String
    switch value {
    case .string(let s): raw = s
    case .formatted(let f): raw = f.sections.count == 1 ? f.sections[0].text : f.plainText
    case .null: return nil
    case .number, .boolean: raw = value.jsonText
    default: return nil
    }
    // Most texts are one line with nothing to trim.
    let utf8 = raw.utf8
    guard let first = utf8.first, let last = utf8.last else { return raw }
    if !isSpace(first) && !isSpace(last) && !utf8.contains(where: { $0 == 10 || $0 == 13 }) {
      return raw
    }
    return raw.split(whereSeparator: \.isNewline).map(trimmed).filter { !$0.isEmpty }
      .joined(separator: " ")
  }

  /// A line without the spaces and tabs at its ends.
  static func trimmed(_ s: Substring) -> Substring {
    var a = s.startIndex
    var b = s.endIndex
    while a < b, s[a] == " " || s[a] == "\t" { a = s.index(after: a) }
    while b > a, s[s.index(before: b)] == " " || s[s.index(before: b)] == "\t" {
      b = s.index(before: b)
    }
    return s[a..<b]
  }

  static func isSpace(_ u: UInt8) -> Bool { u == 32 || u == 9 || u == 10 || u == 13 }

  /// Whether a `text-font` stack names a bold font.
  static func isBold(_ fonts: StyleValue?) -> Bool {
    guard case .array(let a)? = fonts else { return false }
    return a.contains { $0.stringValue?.contains("Bold") ?? false }
  }

  /// Where a feature's label goes: a point's first point, a line's middle vertex, a
  /// polygon's representative point.
  static func anchor(_ f: VectorFeature, _ t: TileTransform) -> MapPoint? {
    switch f.type {
    case .point, .lineString: return VectorTileRenderer.anchor(f, t)
    case .polygon: return representativePoint(f).map { t.mapPoint(x: $0.x, y: $0.y) }
    }
  }

  /// A point inside a polygon feature, in tile units: on the horizontal line through the
  /// middle of its largest exterior ring's bounds, the middle of the widest stretch inside the
  /// polygon (its holes left out). Cheaper than MapLibre's pole of inaccessibility and inside
  /// all the same.
  static func representativePoint(_ f: VectorFeature) -> (x: Double, y: Double)? {
    let parts = f.parts
    var best: Range<Int>?
    var bestArea: Int64 = 0
    for polygon in f.polygons {
      let area = abs(parts[polygon.lowerBound].doubleSignedArea)
      if best == nil || area > bestArea {
        best = polygon
        bestArea = area
      }
    }
    guard let polygon = best, let outer = parts[polygon.lowerBound].points.first else {
      return nil
    }
    var minY = Double(outer.y)
    var maxY = minY
    for q in parts[polygon.lowerBound].points {
      minY = min(minY, Double(q.y))
      maxY = max(maxY, Double(q.y))
    }
    // Half a unit off the grid, so no vertex lies on the line.
    let y = ((minY + maxY) / 2).rounded(.down) + 0.5
    var xs: [Double] = []
    for r in polygon {
      let pts = parts[r].points
      guard var a = pts.last else { continue }
      for b in pts {
        let (ay, by) = (Double(a.y), Double(b.y))
        if (ay < y) != (by < y) {
          xs.append(Double(a.x) + (y - ay) / (by - ay) * Double(b.x - a.x))
        }
        a = b
      }
    }
    xs.sort()
    var widest: (Double, Double)?
    var k = 0
    while k + 1 < xs.count {
      if widest == nil || xs[k + 1] - xs[k] > widest!.1 - widest!.0 { widest = (xs[k], xs[k + 1]) }
      k += 2
    }
    guard let w = widest else { return (Double(outer.x), Double(outer.y)) }
    return ((w.0 + w.1) / 2, y)
  }
}

extension VectorTileRenderer {
  /// The labels of the viewport from a style document's symbol layers, merged across tiles
  /// and cached as `labels(for:)` does with a `BasemapStyle`: each tile's labels once per
  /// tile and zoom, the last answer kept for a pan within the same tiles.
  public func labels(for viewport: Viewport, from styleLabels: StyleLabels) -> [MapLabel] {
    let key = "style#\(styleLabels.serial)"
    let bounds = tileOverlay.boundingMapRect
    return mergedLabels(for: viewport, styleKey: key) { tile, path, zoom in
      cachedTileLabels(at: path, zoom: zoom, styleKey: key) {
        styleLabels.tileLabels(
          tile, id: TileID(z: path.z, x: path.x, y: path.y), zoom: zoom, bounds: bounds)
      }
    }
  }
}

extension StyledVectorTileRenderer {
  /// The labels of the style's symbol layers in the renderer's `language`, compiled again
  /// when the language changes.
  var styleLabels: StyleLabels {
    let language = self.language
    return labelSet.withLock { set in
      if let s = set, s.language == language.flatMap({ $0.isEmpty ? nil : $0 }) { return s }
      let made = StyleLabels(document: document, sourceID: sourceID, language: language)
      set = made
      return made
    }
  }
}
