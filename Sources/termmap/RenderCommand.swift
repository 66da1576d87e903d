import DotRaster
import Foundation
import LiveLayers
import MapData
import MapGeometry
import MapTiles
import TermMapKit
import TerminalUI
import TileData

/// `termmap render`: one frame to stdout, for scripts and tests.
@MainActor
struct RenderCommand {
  enum ColorMode: String { case auto, always, never }

  var center: Coordinate?
  var zoom: Double?
  var bbox: [Double]?
  var columns = 80
  var rows = 24
  var colorMode = ColorMode.auto
  var charset = Charset.braille
  var charsetGiven = false
  var basemap = true
  var tiles: [String] = []
  /// The theme: from --style or the config's [style] (`themeGiven`), else from the terminal
  /// (`resolveTheme(queryTerminal:)`).
  var theme = BasemapStyle.Variant.dark
  var themeGiven = false
  /// The labels' language: --lang, else the config's [style] lang, else the locale's
  /// (`resolveTheme`); nil: the style's own names.
  var language: String?
  var languageGiven = false
  /// The offline map's style: the theme's OpenMapTiles style in the label language. What it
  /// draws from zoom 0 (water, coastlines, borders) is drawn below zoom 0 too, where the
  /// whole world fits a small terminal: a layer from zoom 0 has no lower limit.
  var style: BasemapStyle {
    BasemapStyle.forSchema(.openMapTiles, variant: theme).localized(to: language)
  }
  /// `--style FILE|URL` (or the config's `[style] name`): a MapLibre style document.
  var styleDocument: LoadedStyle?
  /// What the style document's overlays said when made (sources not used, layers skipped).
  let styleNotes = StyleNotes()
  var rasterMode = RasterMode.dots
  var status = false
  /// Seconds to wait for tiles (render's --wait).
  var waitSeconds = 15.0
  var files: [String] = []
  /// Live layers (`--layer`).
  var layers = LayerOptions.Parsed()
  /// Seconds to read a `--layer` stream (render's --wait, else 3).
  var layerWaitSeconds = 3.0
  /// Viewer-only settings (accepted when `viewer` is true).
  var keepRoutes = false
  var settleMilliseconds = 150

  /// The settings shared by the viewer and `render`, checked: each bad value is one line.
  init(
    position: PositionOptions, map: MapOptions, tiles tileOptions: TileOptions, files: [String]
  ) throws {
    center = try position.coordinate()
    zoom = try position.zoomLevel()
    bbox = try map.bbox.map(ArgumentValues.bbox)
    if let v = map.charset {
      charset = try ArgumentValues.choice(v, "--charset", ["braille", "block", "ascii"])
      charsetGiven = true
    }
    var styleGiven = false
    if let v = map.style {
      if let t = BasemapStyle.Variant(rawValue: v) {
        theme = t
        themeGiven = true
      } else {
        styleDocument = try Self.loadStyle(v)
      }
      styleGiven = true
    }
    if let v = map.lang {
      guard LabelLanguage.isValid(v) else {
        throw UsageError(
          "--lang: expected a language code such as en, fi or zh-Hant, found \"\(SafeText.clean(v))\""
        )
      }
      language = v
      languageGiven = true
    }
    // The config file's [style]: what --style and --lang did not say.
    if !styleGiven || !languageGiven {
      let settings: StyleSettings
      do {
        settings = try TileSourceCatalog.styleSettings(
          configPath: TileSourceCatalog.defaultConfigPath())
      } catch {
        throw UsageError("config: \(error)")
      }
      if !styleGiven, let t = settings.theme {
        theme = t
        themeGiven = true
      }
      if !styleGiven, let d = settings.document {
        do {
          styleDocument = try LoadedStyle.load(d)
        } catch {
          throw UsageError("config: [style] name: \(error)")
        }
      }
      if !languageGiven, let l = settings.language {
        language = l
        languageGiven = true
      }
    }
    basemap = !map.noBasemap
    for t in tileOptions.tiles { try RenderCommand.checkScheme(t) }
    tiles = tileOptions.tiles
    if let v = tileOptions.raster {
      rasterMode = try ArgumentValues.choice(v, "--raster", ["dots", "blocks"])
    }
    self.files = files
    // --center alone keeps the zoom a fit gives (10 with nothing to fit); --zoom alone keeps
    // the fit's centre.
    if bbox != nil && (center != nil || zoom != nil) {
      throw UsageError("--bbox cannot be combined with --center/--zoom")
    }
  }

  /// `termmap render`'s options.
  init(_ c: Termmap.Render) throws {
    try self.init(position: c.position, map: c.map, tiles: c.tiles, files: c.input.files)
    if let v = c.size { (columns, rows) = try ArgumentValues.size(v) }
    if let v = c.color {
      colorMode = try ArgumentValues.choice(v, "--color", ["auto", "always", "never"])
    }
    status = c.status
    if let w = c.wait {
      let v = try ArgumentValues.number(w, "--wait")
      guard v >= 0 && v <= 3600 else { throw UsageError("--wait: expected 0...3600 seconds") }
      waitSeconds = v
      layerWaitSeconds = v
    }
    layers = try c.layers.parse()
  }

  /// The viewer's options.
  init(_ c: some ViewerCommandLine) throws {
    try self.init(position: c.position, map: c.map, tiles: c.tiles, files: c.input.files)
    keepRoutes = c.keepRoutes
    layers = try c.layers.parse()
    if let s = c.settle {
      let v = try ArgumentValues.number(s, "--settle")
      guard v >= 0 && v <= 5000 else {
        throw UsageError("--settle: expected 0...5000 milliseconds")
      }
      settleMilliseconds = Int(v)
    }
  }

  /// `--style STYLE` that is not a theme: a style document's file or http(s) URL, read and
  /// compiled now (each problem one line); a bare word that names no file is a misspelt theme.
  static func loadStyle(_ v: String) throws -> LoadedStyle {
    if TileSourceCatalog.isName(v) && !FileManager.default.fileExists(atPath: v) {
      throw UsageError(
        "--style: expected dark, light, mono, a style file or an http(s) URL, found \"\(SafeText.clean(v))\""
      )
    }
    do {
      return try LoadedStyle.load(v)
    } catch {
      throw UsageError("--style: \(error)")
    }
  }

  /// A --tiles value that is a URL of another scheme than http(s) ("ftp://…") is refused here,
  /// with its scheme named, instead of being looked for as a file.
  static func checkScheme(_ t: String) throws {
    guard let scheme = TileSourceSpec.unsupportedScheme(t) else { return }
    throw UsageError(
      "--tiles: \(t): unsupported URL scheme \"\(scheme)\" (expected http:// or https://, a file or a source name)"
    )
  }

  /// What --style, --lang and the config did not set: the theme from the terminal
  /// (`TerminalBackground.theme`: NO_COLOR, the OSC 11 answer when `queryTerminal`,
  /// COLORFGBG, else dark) and the language from the locale.
  mutating func resolveTheme(queryTerminal: Bool) {
    let environment = ProcessInfo.processInfo.environment
    if !themeGiven {
      theme = TerminalBackground.theme(environment: environment) {
        queryTerminal ? TerminalBackground.query() : nil
      }
    }
    if !languageGiven { language = LabelLanguage.fromLocale(environment) }
  }

  mutating func run() throws -> Int32 {
    // The terminal is asked for its background only when the frame goes to it.
    resolveTheme(queryTerminal: isatty(0) == 1 && isatty(1) == 1 && colorMode != .never)
    var contents: [MapContent] = []
    var failed = false
    // Every file is tried: each one that fails is one line on stderr.
    for f in files {
      do {
        contents.append(try MapContentLoader.load(path: f, progress: LoadProgress.reporter(for: f)))
        LoadProgress.clear()
      } catch {
        LoadProgress.clear()
        FileHandle.standardError.write(Data("\(error.description)\n".utf8))
        failed = true
      }
    }
    if failed { return 2 }
    // Live layers: files and standard input read to their end, streams for --wait seconds.
    var live: LiveLayerRun?
    if !layers.sources.isEmpty {
      let run = LiveLayerRun(layers, follows: false)
      run.readForRender(wait: layerWaitSeconds)
      for line in run.report { FileHandle.standardError.write(Data("\(line)\n".utf8)) }
      live = run
    }
    // Without a UTF-8 locale a terminal cannot show braille: ASCII, unless --charset says.
    var charset = charset
    let asciiTerminal = !charsetGiven && isatty(1) == 1 && !adoptLocale()
    if asciiTerminal { charset = .ascii }
    let map = MapView(columns: columns, rows: rows)
    map.zoomRange = Viewer.zoomRange
    map.charset = charset
    // 24-bit colour when the terminal says so (COLORTERM); raster tiles then keep theirs.
    let trueColor = ColorDepth.announcesTrueColor(ProcessInfo.processInfo.environment)
    map.addOverlays(try makeMapLayers(rasterTrueColor: trueColor), level: .aboveRoads)
    for note in styleNotes.lines {
      FileHandle.standardError.write(Data("termmap: style: \(note)\n".utf8))
    }
    let style = ContentStyle()
    map.delegate = style
    for c in contents {
      style.styler.add(c)
      for w in c.warnings { FileHandle.standardError.write(Data("\(w)\n".utf8)) }
      map.addOverlays(c.overlays)
      map.addAnnotations(c.annotations)
    }
    if let live {
      live.layer.attach(to: map)
      live.layer.synchronize(trailsNow: true)
    }
    let nothingToFit = files.isEmpty && (live?.layer.count ?? 0) == 0
    if center != nil || zoom != nil {
      if nothingToFit { map.setZoomLevel(10, animated: false) }
      map.showAllContent(animated: false)
      if let center { map.setCenter(center, animated: false) }
      if let zoom { map.setZoomLevel(zoom, animated: false) }
    } else if let b = bbox {
      let nw = MapPoint(Coordinate(latitude: b[3], longitude: b[0]))
      let se = MapPoint(Coordinate(latitude: b[1], longitude: b[2]))
      var w = se.x - nw.x
      if w < 0 { w += MapSize.world.width }
      map.setVisibleMapRect(
        MapRect(x: nw.x, y: nw.y, width: w, height: se.y - nw.y), animated: false)
    } else {
      map.showAllContent(animated: false)
      // One point alone: street level, not the deepest zoom.
      if map.zoomLevel > 16 && files.isEmpty { map.setZoomLevel(16, animated: false) }
    }
    // Tiles load in the background: draw until the frame is complete (a failed tile counts as
    // done, and its error was printed by the delegate), or --wait seconds (15) have passed.
    let rendered = map.renderCompleteFrame(timeout: waitSeconds)
    var frame = rendered.frame
    let unfetched = reportTileTrouble(map, rendered)
    if asciiTerminal {
      // Names and credits too: accents dropped, other characters "?".
      var cache: [Unicode.Scalar: Unicode.Scalar] = [:]
      frame = ASCIIFolding.fold(frame, cache: &cache)
    }
    let colors: ColorDepth
    switch colorMode {
    case .never: colors = .none
    case .always: colors = trueColor ? .truecolor : .palette256
    case .auto:
      colors =
        isatty(1) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        ? (trueColor ? .truecolor : .palette256) : .none
    }
    var out = colors == .none ? frame.lines : frame.ansiLines(colors: colors)
    if status {
      let points = contents.reduce(0) { $0 + $1.pointCount }
      let line = StatusLine.text(
        for: map, loadedPoints: points,
        attribution: map.visibleAttribution,
        columns: columns, ascii: charset == .ascii)
      out.append(asciiTerminal ? ASCIIFolding.fold(line) : line)
    }
    Output.write(out.joined(separator: "\n") + "\n")
    // Nothing to draw at all: the offline map missing (said above) and no files or tiles.
    let empty =
      basemap && files.isEmpty && tiles.isEmpty && layers.sources.isEmpty
      && DataDirectory.locate() == nil
    if let live, live.feed.problems.contains(where: { $0.contains(": not GeoJSON") }) { return 2 }
    return unfetched || empty ? 1 : 0
  }

  /// After the last frame: one line for each --tiles source from which no tile could be
  /// fetched (every request failed, none came from the disk cache), and one when the wait for
  /// tiles ran out. True when a source gave nothing.
  func reportTileTrouble(
    _ map: MapView, _ rendered: (frame: CellBuffer, statistics: FrameStatistics, complete: Bool)
  ) -> Bool {
    var nothing = false
    for overlay in map.overlays.compactMap({ $0 as? SourceTileOverlay }) {
      guard let http = overlay.source as? HTTPTileSource else { continue }
      let s = http.statistics
      guard s.requests > 0, s.failures == s.requests, s.diskHits == 0 else { continue }
      let name = SafeText.clean(overlay.title ?? http.name)
      let line =
        "termmap: tiles: \(name): no tile could be fetched (\(s.failures) "
        + (s.failures == 1 ? "request" : "requests") + " failed)\n"
      FileHandle.standardError.write(Data(line.utf8))
      nothing = true
    }
    if !rendered.complete {
      let n = rendered.statistics.tilesWaiting
      FileHandle.standardError.write(
        Data(
          ("termmap: tiles: gave up waiting after \(waitSeconds.formatted(.number.precision(.fractionLength(0...2)))) s: \(n) "
            + (n == 1 ? "tile" : "tiles") + " missing\n").utf8))
    }
    return nothing
  }
}

extension RenderCommand {
  /// The map's tile layers, bottom first: the offline map in Data/ (unless --no-basemap),
  /// then each --tiles source (an .mbtiles or .pmtiles file, a z/x/y directory, an http(s) URL
  /// template with {z}, {x}, {y} and optionally {s}, cached under
  /// $XDG_CACHE_HOME/termmap/tiles, an http(s) .pmtiles URL, a TileJSON file or URL — see
  /// `TileSourceSpec` — or a source name from the presets or the config file), each an
  /// overlay of map content, so a source hides what is below it where it has tiles.
  func makeMapLayers(rasterTrueColor: Bool = false, reportMissingMap: Bool = true) throws
    -> [TileOverlay]
  {
    var layers: [TileOverlay] = []
    if let text = ProcessInfo.processInfo.environment["TERMMAP_TILE_CACHE_MB"] {
      let mb = Int(text.trimmingCharacters(in: .whitespaces))
      guard let mb, (0...1_048_576).contains(mb) else {
        throw UsageError(
          "TERMMAP_TILE_CACHE_MB: expected a whole number of MiB from 0 to 1048576, found \""
            + SafeText.clean(text) + "\"")
      }
    }
    if basemap {
      if let dir = DataDirectory.locate() {
        do {
          layers += try OfflineMap.overlays(dataDirectory: dir, style: style)
        } catch {
          throw UsageError("basemap: \(error)")
        }
      } else if reportMissingMap {
        FileHandle.standardError.write(
          Data("termmap: \(SafeText.clean(DataDirectory.missingMessage()))\n".utf8))
      }
    }
    // Regions `termmap get` stored: map content above the embedded world.
    if basemap {
      let stored = Regions.overlays(style: theme)
      for o in stored.overlays { o.language = language }
      layers += stored.overlays as [TileOverlay]
      if reportMissingMap {
        for p in stored.problems {
          FileHandle.standardError.write(Data("termmap: regions: \(p)\n".utf8))
        }
      }
    }
    // The config file names sources and bounds the tile cache; read it when tiles are asked
    // for (--tiles, or a style document's sources). TERMMAP_TILE_CACHE_MB, when set, wins over its [cache] size_mb.
    var catalog: TileSourceCatalog?
    if !tiles.isEmpty || styleDocument != nil {
      do {
        catalog = try TileSourceCatalog.load(configPath: TileSourceCatalog.defaultConfigPath())
      } catch {
        throw UsageError("config: \(error)")
      }
      if let mb = catalog?.cacheMegabytes {
        setenv("TERMMAP_TILE_CACHE_MB", String(mb), 0)
      }
    }
    // A style's own sources as overlays, in its order, its notes kept.
    func styleLayers(_ style: LoadedStyle, option: String) throws -> [StyleMapLayer] {
      let made: StyleMapLayers
      do {
        made = try StyleMapLayers(style: style, rasterTrueColor: rasterTrueColor)
      } catch {
        throw UsageError("\(option): \(error)")
      }
      styleNotes.add(made.notes)
      for l in made.layers { l.overlay.language = language }
      return made.layers
    }
    // --style FILE|URL without --tiles: the style's own sources, in its order.
    if let styleDocument, tiles.isEmpty {
      layers += try styleLayers(styleDocument, option: "--style").map(\.overlay)
    }
    for t in tiles {
      var location = t
      var definition: TileSourceDefinition?
      if TileSourceCatalog.isName(t) && !FileManager.default.fileExists(atPath: t) {
        guard let d = catalog?.source(named: t) else {
          let names = (catalog?.sources ?? TileSourceCatalog.presets).map(\.name)
          throw UsageError(
            "--tiles: \(t): no such file or source name (sources: \(names.joined(separator: ", ")))"
          )
        }
        definition = d
        location = d.location
      }
      // A TileJSON or a whole style (`--tiles https://…/styles/liberty`), told by content.
      var tileJSON: TileJSON?
      if let document = try tileDocument(location) {
        switch document {
        case .tileJSON(let t): tileJSON = t
        case .style(let style):
          let made = try styleLayers(style, option: "--tiles")
          if let other = styleDocument {
            styleNotes.add([
              "\(SafeText.clean(other.location)) not applied to \(SafeText.clean(t)): a style of its own"
            ])
          }
          for l in made {
            if let a = definition?.attribution { l.overlay.attribution = a }
            layers.append(l.overlay)
          }
          continue
        }
      }
      let source: any TileSource
      if let tileJSON {
        do {
          source = try tileJSON.makeSource(maxConcurrentRequests: definition?.maxConnections ?? 6)
        } catch {
          throw UsageError("--tiles: \(error)")
        }
      } else {
        source = try openTileSource(location, definition: definition)
      }
      guard source.format != .webp else {
        throw UsageError("--tiles: \(source.name): WebP tiles are not supported")
      }
      // The style of the source's schema (OpenMapTiles, Shortbread, Protomaps: from its
      // metadata or first tile) in the --style variant; or the --style document's layers of
      // its main vector source, matched by source-layer.
      let overlay: SourceTileOverlay
      if let styleDocument, source.format.isVector {
        let made: StyleMapLayers
        do {
          made = try StyleMapLayers(style: styleDocument, data: source)
        } catch {
          throw UsageError("--style: \(error)")
        }
        styleNotes.add(made.notes)
        overlay = made.layers[0].overlay
      } else {
        overlay = SourceTileOverlay(source: source, variant: theme)
      }
      overlay.language = language
      overlay.rasterMode = rasterMode
      overlay.rasterTrueColor = rasterTrueColor
      if let d = definition {
        if let a = d.attribution { overlay.attribution = a }
        if let z = d.minZoom { overlay.minimumZ = z }
        if let z = d.maxZoom { overlay.maximumZ = z }
        overlay.title = d.name
      }
      layers.append(overlay)
    }
    return layers
  }
}

extension RenderCommand {
  /// The document a --tiles TileJSON location holds (a TileJSON or a style), nil for
  /// locations of other kinds (templates, archives, folders).
  func tileDocument(_ t: String) throws -> TileDocument? {
    do {
      switch try TileSourceSpec.classify(t) {
      case .tileJSONURL(let url): return try TileDocument.load(url.absoluteString)
      case .tileJSONFile(let path): return try TileDocument.load(path)
      default: return nil
      }
    } catch {
      throw UsageError("--tiles: \(error)")
    }
  }

  /// Opens one --tiles source (`TileSourceSpec`). A named source's location may be any kind
  /// `--tiles` takes (a URL template, a TileJSON or PMTiles URL, a file); over the network it
  /// gets the definition's connection limit, and a template its zooms and attribution.
  func openTileSource(_ t: String, definition d: TileSourceDefinition?) throws -> any TileSource {
    do {
      guard let d else { return try TileSourceSpec.open(t) }
      let agent = "termmap/\(Usage.version) (terminal map viewer)"
      let connections = d.maxConnections ?? 6
      switch try TileSourceSpec.classify(t) {
      case .urlTemplate(let template):
        return try HTTPTileSource(
          template: template, minZoom: d.minZoom ?? 0, maxZoom: d.maxZoom ?? 14,
          attribution: d.attribution ?? "", maxConcurrentRequests: connections, userAgent: agent)
      case .tileJSONURL(let url):
        return try TileJSON.load(url.absoluteString).makeSource(
          maxConcurrentRequests: connections)
      case .pmtilesURL(let url):
        return try PMTilesSource(url: url, maxConcurrentRequests: connections, userAgent: agent)
      case let spec:
        return try spec.open()
      }
    } catch {
      throw UsageError("--tiles: \(error)")
    }
  }
}

/// The render command's delegate: file content styled by `ContentStyler`.
@MainActor
final class ContentStyle: MapViewDelegate {
  let styler = ContentStyler()

  func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
    styler.renderer(for: overlay)
  }

  func mapView(_ mapView: MapView, viewFor annotation: any Annotation) -> AnnotationView? {
    // Live targets make their own views.
    if annotation is any DefaultAnnotationViewProviding { return nil }
    return styler.view(for: annotation, on: mapView)
  }

  /// Tiles that failed to load: the frame is drawn without them; each distinct error is
  /// printed once, as one line.
  func mapViewDidFailLoadingMap(_ mapView: MapView, withError error: any Error) {
    let line = "termmap: tiles: \(SafeText.clean("\(error)"))"
    guard Self.reported.insert(line).inserted else { return }
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  static var reported = Set<String>()
}

/// Notes the style document's overlays left when made (sources not used, layers skipped),
/// for `render`'s standard error and the viewer's status line.
@MainActor
final class StyleNotes {
  private(set) var lines: [String] = []
  func add(_ more: [String]) {
    for l in more where !lines.contains(l) { lines.append(l) }
  }
  /// One line for a status line: the first note, and how many more (nil without notes).
  var summary: String? {
    guard let first = lines.first else { return nil }
    let more = lines.count - 1
    return "style: " + first + (more > 0 ? " (and \(more) more: termmap style validate)" : "")
  }
}
