import Foundation
import MapGeometry
import MapStyle
import TermMapKit
import TileData

/// A style document that could not be used: where it came from and why, as one line.
public struct StyleLoadError: Error, CustomStringConvertible, Equatable {
  /// The file or URL of the style (or of the source that failed).
  public let location: String
  /// What is wrong.
  public let message: String

  /// An error for `location`.
  public init(location: String, message: String) {
    self.location = location
    self.message = message
  }

  /// "`location`: `message`", with control characters replaced (`SafeText.clean`).
  public var description: String {
    SafeText.clean(location) + ": " + SafeText.clean(message)
  }
}

/// A MapLibre style document read from a file or an http(s) URL, with where it came from
/// (relative URLs in it are resolved against that).
///
/// ```swift
/// let style = try LoadedStyle.load("liberty.json")
/// let layers = try StyleMapLayers(style: style)
/// ```
public struct LoadedStyle: Sendable {
  /// The document, compiled.
  public let document: StyleDocument
  /// The file path or http(s) URL it was read from.
  public let location: String

  /// The largest style document read: 16 MiB (OpenFreeMap's liberty is 46 kB, large
  /// published styles a few hundred).
  public static let maxBytes = 16 << 20

  /// A document read elsewhere, with the location its relative URLs are resolved against.
  public init(document: StyleDocument, location: String) {
    self.document = document
    self.location = location
  }

  /// Reads and compiles the style at `location`: a file path, a `file://` URL or an http(s)
  /// URL (through the project's bounded HTTP client: at most `maxBytes`, each request at
  /// most `timeout` seconds).
  ///
  /// - Throws: `StyleLoadError` naming the location: a missing or unreadable file, a network
  ///   failure or an HTTP error status, a document over the size limit, JSON that is not a
  ///   style (the `StyleDocumentError`'s words).
  public static func load(_ location: String, timeout: TimeInterval = 10) throws(StyleLoadError)
    -> LoadedStyle
  {
    let (data, where_) = try StyleFetch.read(location, limit: maxBytes, timeout: timeout)
    return try parse(data, location: where_)
  }

  /// Compiles a document's bytes (`location` names it in errors).
  public static func parse(_ data: Data, location: String) throws(StyleLoadError) -> LoadedStyle {
    do {
      return LoadedStyle(document: try StyleDocument(data: data), location: location)
    } catch {
      throw StyleLoadError(location: location, message: "not a style: \(error.description)")
    }
  }

  /// The document's diagnostics (layers skipped, properties ignored) as lines for a user,
  /// control characters replaced.
  public var warnings: [String] {
    document.diagnostics.map { SafeText.clean($0.description) }
  }

  /// Whether JSON bytes look like a style document rather than a TileJSON: an object with
  /// `layers` and `sources` (TileJSON has `tiles` and neither of those).
  public static func looksLikeStyle(_ data: Data) -> Bool {
    guard
      let object = try? JSONSerialization.jsonObject(with: data.prefix(maxBytes))
        as? [String: Any]
    else { return false }
    return object["layers"] is [Any] && object["sources"] is [String: Any]
  }
}

/// What a `--tiles` document is: a TileJSON or a whole style (`--tiles
/// https://…/styles/liberty`), told apart by content.
public enum TileDocument: Sendable {
  /// A TileJSON document.
  case tileJSON(TileJSON)
  /// A MapLibre style document.
  case style(LoadedStyle)

  /// Reads the document at `location` (a file or an http(s) URL) and tells which it is.
  /// Errors are one line naming the location, as `TileJSON.load` gives them.
  public static func load(_ location: String, timeout: TimeInterval = 10) throws -> TileDocument {
    let (data, where_) = try StyleFetch.read(
      location, limit: LoadedStyle.maxBytes, timeout: timeout, what: "document")
    if LoadedStyle.looksLikeStyle(data) {
      return .style(try LoadedStyle.parse(data, location: where_))
    }
    guard data.count <= TileJSON.maxBytes else {
      throw TileSourceError.readFailed(
        path: location, message: "TileJSON larger than \(TileJSON.maxBytes) bytes")
    }
    return .tileJSON(try TileJSON(data: data, location: location))
  }
}

/// Reading style documents and resolving the URLs in them.
enum StyleFetch {
  /// The bytes at a file path, `file://` URL or http(s) URL, at most `limit`, and the location
  /// as used (a `file://` URL becomes its path).
  static func read(
    _ location: String, limit: Int, timeout: TimeInterval, what: String = "style"
  ) throws(StyleLoadError) -> (Data, String) {
    if isHTTP(location) {
      guard let url = URL(string: location), url.host != nil else {
        throw StyleLoadError(location: location, message: "not a valid URL")
      }
      let client = BoundedHTTPClient(timeout: timeout, maxConnections: 1)
      var request = BoundedHTTPClient.Request(url: url.absoluteString)
      request.headers = [("Accept", "application/json")]
      let reply: BoundedHTTPClient.Reply
      do {
        reply = try client.fetch(request, limits: .init(ok: limit, partial: limit))
      } catch let failure as BoundedHTTPClient.Failure {
        if case .tooLarge(let status, let limit) = failure, status == 200 || status == 206 {
          throw StyleLoadError(location: location, message: "\(what) larger than \(limit) bytes")
        }
        if case .tooLarge(let status, _) = failure {
          throw StyleLoadError(
            location: location, message: "HTTP \(status) \(HTTPResponseHead.reason(status))")
        }
        throw StyleLoadError(location: location, message: failure.message(timeout: timeout))
      } catch {
        throw StyleLoadError(location: location, message: "\(error)")
      }
      let code = reply.response.statusCode
      guard code == 200 else {
        throw StyleLoadError(
          location: location, message: "HTTP \(code) \(HTTPResponseHead.reason(code))")
      }
      return (reply.body, location)
    }
    let path = filePath(location)
    do {
      guard let data = try BoundedFile.read(path, limit: limit) else {
        throw StyleLoadError(location: path, message: "no such file")
      }
      return (data, path)
    } catch let e as StyleLoadError {
      throw e
    } catch let e as BoundedFileError {
      throw StyleLoadError(location: path, message: e.message)
    } catch {
      throw StyleLoadError(location: path, message: "\(error)")
    }
  }

  static func isHTTP(_ s: String) -> Bool {
    let l = s.prefix(8).lowercased()
    return l.hasPrefix("http://") || l.hasPrefix("https://")
  }

  /// A `file://` URL's path (percent escapes decoded); anything else unchanged.
  static func filePath(_ s: String) -> String {
    guard s.lowercased().hasPrefix("file://") else { return s }
    var rest = String(s.dropFirst("file://".count))
    if rest.lowercased().hasPrefix("localhost/") { rest.removeFirst("localhost".count) }
    return rest.removingPercentEncoding ?? rest
  }

  /// `reference` (a URL, a URL template with `{z}`, or a path) resolved against `base` (the
  /// style's URL or file): absolute references unchanged; relative ones against an http(s)
  /// base as a browser does (`//host`, `/path`, `../x`), against a file base from its folder.
  static func resolve(_ reference: String, against base: String) -> String {
    if reference.range(of: "://") != nil { return reference }
    if isHTTP(base) {
      // Braces are not URL characters: escaped for Foundation's resolution and put back.
      let escaped = reference.replacingOccurrences(of: "{", with: "%7B")
        .replacingOccurrences(of: "}", with: "%7D")
      guard let b = URL(string: base), let r = URL(string: escaped, relativeTo: b) else {
        return reference
      }
      return r.absoluteString.replacingOccurrences(of: "%7B", with: "{")
        .replacingOccurrences(of: "%7D", with: "}")
    }
    if reference.hasPrefix("/") { return reference }
    let folder = (filePath(base) as NSString).deletingLastPathComponent
    return ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(reference)
  }
}

/// How a style's layers of one source are drawn: given the overlay of the source's tiles, the
/// style document (holding just the layers this overlay draws, plus the rest of the style)
/// and the source's id, a renderer. `StyleMapLayers` calls it for vector sources.
public typealias StyleRendererFactory =
  @Sendable (_ overlay: SourceTileOverlay, _ document: StyleDocument, _ sourceID: String) ->
  OverlayRenderer

/// One tile overlay of a style: a source's tiles drawn with a run of the style's layers.
public struct StyleMapLayer: @unchecked Sendable {
  /// What the source's tiles are.
  public enum Kind: String, Sendable {
    /// Mapbox Vector Tiles, drawn by the style's fill, line, circle and symbol layers.
    case vector
    /// Pictures, drawn by the style's raster layers.
    case raster
  }

  /// The style's id of the source.
  public let sourceID: String
  /// The overlay to add to a map (its renderer draws `layers`).
  public let overlay: SourceTileOverlay
  /// Vector or raster.
  public let kind: Kind
  /// The ids of the style's layers this overlay draws, in the style's order.
  public let layerIDs: [String]
  /// The style document this overlay's renderer draws (the whole style, or, when the
  /// source's layers are split by other sources' layers, the style with only this run's
  /// layers).
  public let document: StyleDocument
}

/// A style's sources as tile overlays in draw order: what `--style FILE|URL` adds to the map.
///
/// Sources are `vector` and `raster` ones, with `url` (a TileJSON, a PMTiles archive as
/// `pmtiles://https://…` or `pmtiles://PATH`, or a local MBTiles, PMTiles or tile folder) or
/// `tiles` (URL templates with `scheme`, `minzoom`, `maxzoom`, `bounds`, `attribution`); relative
/// URLs are resolved against the style's location. Other sources (GeoJSON, images, raster-dem)
/// are left out with a note.
///
/// Layers are grouped into runs of consecutive layers of one source: one overlay per run, so
/// a style that puts a raster source between two groups of vector layers draws in its order.
/// Symbol layers (labels, drawn above all map content anyway) and layers termmap does not draw
/// do not split a run: they join their source's run. A style whose layers of each source are
/// together (nearly all published ones) gets one overlay per source.
public struct StyleMapLayers: @unchecked Sendable {
  /// The style.
  public let style: LoadedStyle
  /// The overlays, bottom first.
  public let layers: [StyleMapLayer]
  /// Sources not used and why, one line each (`sources.dem: raster-dem sources are not drawn`),
  /// then the document's diagnostics.
  public let notes: [String]

  /// The vector source `--tiles` data stands for: the one most layers read (the first such
  /// in the document).
  public var mainVectorSourceID: String? { Self.mainVectorSource(of: style.document) }

  /// The default renderer of vector sources: a `StyledVectorTileRenderer` drawing the
  /// source's layers of the document.
  public static let styledRenderer: StyleRendererFactory = { overlay, document, sourceID in
    let r = StyledVectorTileRenderer(overlay: overlay, document: document, sourceID: sourceID)
    r.language = overlay.language
    return r
  }

  /// A renderer of vector sources that ignores the style: `VectorTileRenderer` with the
  /// built-in style of the tiles' schema in `variant`.
  public static func schemaRenderer(variant: BasemapStyle.Variant) -> StyleRendererFactory {
    { overlay, _, _ in
      let r = VectorTileRenderer(overlay: overlay, detectingSchema: variant)
      r.language = overlay.language
      return r
    }
  }

  /// Opens every source the style's layers read and makes their overlays.
  ///
  /// - Parameters:
  ///   - style: the style.
  ///   - timeout: seconds per HTTP request (TileJSON, PMTiles directories, tiles).
  ///   - cacheHome: the disk cache home for HTTP tiles (nil: `$XDG_CACHE_HOME`, `~/.cache`).
  ///   - renderer: makes the renderer of each vector overlay.
  ///   - rasterTrueColor: raster sources' dots in 24-bit colour (else the nearest of 256).
  /// - Throws: `StyleLoadError` when no source could be opened (each failure is in `notes`
  ///   when others could).
  public init(
    style: LoadedStyle, timeout: TimeInterval = 10, cacheHome: URL? = nil,
    renderer: @escaping StyleRendererFactory = StyleMapLayers.styledRenderer,
    rasterTrueColor: Bool = false
  ) throws(StyleLoadError) {
    self.style = style
    let doc = style.document
    var notes: [String] = []
    var opened: [String: any TileSource] = [:]
    var failures: [String] = []
    let used = Set(doc.layers.compactMap(\.source))
    for id in doc.sourceIDs where used.contains(id) {
      guard let s = doc.sources[id] else { continue }
      guard s.kind == .vector || s.kind == .raster else {
        notes.append("sources.\(SafeText.clean(id)): \(s.kind.rawValue) sources are not drawn")
        continue
      }
      do {
        opened[id] = try Self.open(s, base: style.location, timeout: timeout, cacheHome: cacheHome)
      } catch {
        let line = "sources.\(SafeText.clean(id)): \(SafeText.clean("\(error)"))"
        notes.append(line)
        failures.append(line)
      }
    }
    if opened.isEmpty {
      throw StyleLoadError(
        location: style.location,
        message: failures.first.map { "no source could be opened (\($0))" }
          ?? "the style has no vector or raster source that a layer reads")
    }
    var out: [StyleMapLayer] = []
    for run in Self.runs(doc, sources: Set(opened.keys)) {
      guard let source = opened[run.source], let s = doc.sources[run.source] else { continue }
      let runDoc =
        run.wholeSource ? doc : Self.subdocument(doc, layerIDs: run.layerIDs) ?? doc
      let kind: StyleMapLayer.Kind = s.kind == .raster ? .raster : .vector
      let sourceID = run.source
      let overlay: SourceTileOverlay
      if kind == .raster {
        let layer = run.layerIDs.lazy.compactMap { runDoc.layer(id: $0) }
          .first { $0.kind == .raster }
        overlay = SourceTileOverlay(source: source, replacesMapContent: out.isEmpty) { o in
          StyleRasterTileRenderer(overlay: o, layer: layer, trueColor: rasterTrueColor)
        }
      } else {
        overlay = SourceTileOverlay(source: source, replacesMapContent: out.isEmpty) { o in
          renderer(o, runDoc, sourceID)
        }
      }
      Self.applySourceSettings(s, to: overlay)
      overlay.title = sourceID
      out.append(
        StyleMapLayer(
          sourceID: sourceID, overlay: overlay, kind: kind, layerIDs: run.layerIDs,
          document: runDoc))
    }
    layers = out
    self.notes = notes + style.warnings
  }

  /// The style applied to `--tiles` data: `source`'s tiles drawn with the layers of the
  /// style's main vector source (`mainVectorSourceID`), matched by `source-layer`. The
  /// style's other sources are not used (a note says so).
  ///
  /// - Throws: `StyleLoadError` when the style has no vector source.
  public init(
    style: LoadedStyle, data source: any TileSource,
    renderer: @escaping StyleRendererFactory = StyleMapLayers.styledRenderer
  ) throws(StyleLoadError) {
    self.style = style
    let doc = style.document
    guard let main = Self.mainVectorSource(of: doc) else {
      throw StyleLoadError(
        location: style.location, message: "the style has no vector layers to draw tiles with")
    }
    var notes: [String] = []
    for id in doc.sourceIDs where id != main && doc.layers.contains(where: { $0.source == id }) {
      notes.append("sources.\(SafeText.clean(id)): not used (--tiles gives the data)")
    }
    let overlay = SourceTileOverlay(source: source) { o in renderer(o, doc, main) }
    layers = [
      StyleMapLayer(
        sourceID: main, overlay: overlay, kind: .vector,
        layerIDs: doc.layers(source: main).map(\.id), document: doc)
    ]
    self.notes = notes + style.warnings
  }

  // MARK: Sources

  static func mainVectorSource(of doc: StyleDocument) -> String? {
    var best: (id: String, count: Int)?
    for id in doc.sourceIDs where doc.sources[id]?.kind == .vector {
      let n = doc.layers.lazy.filter { $0.source == id }.count
      if n > 0 && n > (best?.count ?? 0) { best = (id, n) }
    }
    return best?.id
  }

  /// Opens a style source's tiles.
  static func open(
    _ s: StyleSource, base: String, timeout: TimeInterval, cacheHome: URL?
  ) throws -> any TileSource {
    let agent = "termmap (terminal map viewer)"
    if let url = s.url {
      if url.lowercased().hasPrefix("pmtiles://") {
        let target = StyleFetch.resolve(String(url.dropFirst("pmtiles://".count)), against: base)
        if StyleFetch.isHTTP(target) {
          guard let u = URL(string: target), u.host != nil else {
            throw TileSourceError.readFailed(path: target, message: "not a valid URL")
          }
          return try PMTilesSource(url: u, timeout: timeout, userAgent: agent)
        }
        return try PMTilesSource(path: StyleFetch.filePath(target))
      }
      let target = StyleFetch.resolve(url, against: base)
      if StyleFetch.isHTTP(target) {
        var path = target
        if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) {
          path = String(path[..<q])
        }
        if path.lowercased().hasSuffix(".pmtiles"), let u = URL(string: target) {
          return try PMTilesSource(url: u, timeout: timeout, userAgent: agent)
        }
        return try TileJSON.load(target, timeout: timeout).makeSource(
          cacheHome: cacheHome, timeout: timeout)
      }
      guard !target.contains("://") || target.lowercased().hasPrefix("file://") else {
        throw TileSourceError.readFailed(
          path: target, message: "unsupported URL (expected http(s), pmtiles:// or a file)")
      }
      return try TileSourceSpec.open(
        StyleFetch.filePath(target), cacheHome: cacheHome, timeout: timeout)
    }
    guard let first = s.tiles.first else {
      throw TileSourceError.readFailed(path: s.id, message: "neither url nor tiles")
    }
    var template = StyleFetch.resolve(first, against: base)
    if s.scheme == .tms && !template.contains("{-y}") {
      template = template.replacingOccurrences(of: "{y}", with: "{-y}")
    }
    let bounds = mapRect(s.bounds)
    let minZoom = max(0, min(30, Int(s.minzoom)))
    let maxZoom = max(minZoom, min(30, Int(s.maxzoom)))
    if StyleFetch.isHTTP(template) {
      return try HTTPTileSource(
        template: template, minZoom: minZoom, maxZoom: maxZoom,
        format: s.kind == .vector ? .pbf : nil, sniffsFormat: s.kind == .raster, bounds: bounds,
        attribution: s.attribution.map(HTMLText.plain) ?? "", cacheHome: cacheHome,
        timeout: timeout, userAgent: agent, name: s.id)
    }
    // A local template: a tile folder laid out as {z}/{x}/{y}.ext.
    let path = StyleFetch.filePath(template)
    for (y, scheme) in [("{y}", TileScheme.xyz), ("{-y}", TileScheme.tms)] {
      let tail = "/{z}/{x}/\(y)."
      if let r = path.range(of: tail) {
        let ext = String(path[r.upperBound...])
        return try DirectoryTileSource(
          root: String(path[..<r.lowerBound]), fileExtension: ext, scheme: scheme)
      }
    }
    throw TileSourceError.readFailed(
      path: template, message: "a local tile template must end in {z}/{x}/{y}.EXT")
  }

  /// The style source's own settings over what its TileJSON or archive says: zooms written in
  /// the style, bounds, attribution.
  static func applySourceSettings(_ s: StyleSource, to overlay: SourceTileOverlay) {
    if s.json["minzoom"] != nil { overlay.minimumZ = max(0, Int(s.minzoom)) }
    if s.json["maxzoom"] != nil { overlay.maximumZ = max(overlay.minimumZ, Int(s.maxzoom)) }
    if s.json["bounds"] != nil, let b = mapRect(s.bounds) { overlay.boundingMapRect = b }
    if let a = s.attribution, !a.isEmpty {
      overlay.attribution = a.contains("<") || a.contains("&") ? HTMLText.plain(a) : a
    }
  }

  /// West, south, east, north in degrees as a map rect; nil for the whole world or nonsense.
  static func mapRect(_ b: [Double]) -> MapRect? {
    guard b.count == 4, b.allSatisfy(\.isFinite), b[0] < b[2], b[1] < b[3] else { return nil }
    if b[0] <= -180 && b[2] >= 180 && b[1] <= -85 && b[3] >= 85 { return nil }
    let nw = MapPoint(Coordinate(latitude: min(b[3], 85.0511), longitude: max(b[0], -180)))
    let se = MapPoint(Coordinate(latitude: max(b[1], -85.0511), longitude: min(b[2], 180)))
    return MapRect(x: nw.x, y: nw.y, width: se.x - nw.x, height: se.y - nw.y)
  }

  // MARK: Runs of layers

  struct Run {
    var source: String
    var layerIDs: [String]
    /// The source has this run only: the renderer gets the whole document.
    var wholeSource = false
  }

  /// Consecutive layers of one source, in the style's order. Symbol layers and layers
  /// termmap does not draw join their source's latest run instead of starting one.
  static func runs(_ doc: StyleDocument, sources: Set<String>) -> [Run] {
    var runs: [Run] = []
    var latest: [String: Int] = [:]
    for layer in doc.layers {
      guard let s = layer.source, sources.contains(s) else { continue }
      let splits: Bool
      switch layer.kind {
      case .fill, .line, .circle, .fillExtrusion, .raster: splits = true
      default: splits = false
      }
      if let last = runs.last, last.source == s {
        runs[runs.count - 1].layerIDs.append(layer.id)
      } else if !splits, let i = latest[s] {
        runs[i].layerIDs.append(layer.id)
      } else {
        runs.append(Run(source: s, layerIDs: [layer.id]))
        latest[s] = runs.count - 1
      }
    }
    var count: [String: Int] = [:]
    for r in runs { count[r.source, default: 0] += 1 }
    for i in runs.indices where count[runs[i].source] == 1 { runs[i].wholeSource = true }
    return runs
  }

  /// The document with only the layers `layerIDs` (compiled again; nil if that fails).
  static func subdocument(_ doc: StyleDocument, layerIDs: [String]) -> StyleDocument? {
    guard case .object(var root) = doc.json else { return nil }
    let keep = Set(layerIDs)
    root["layers"] = .array(
      doc.layers.filter { keep.contains($0.id) }.map { StyleValue.object($0.json) })
    return try? StyleDocument(json: .object(root))
  }
}
