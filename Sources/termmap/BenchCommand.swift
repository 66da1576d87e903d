import DotRaster
import Foundation
import LiveLayers
import MapData
import MapGeometry
import MapTiles
import TermMapKit
import TerminalUI
import TileData

/// `termmap bench`: frame-time scenarios measured inside the process.
@MainActor
struct BenchCommand {
  var json = false
  var columns = 160
  var rows = 48
  var quick = false
  var only: String?
  /// `--tiles SOURCE --center LAT,LON --zoom Z`: scenarios on any tile source.
  var tiles: String?
  /// `--style STYLE` with `--tiles`: a theme or a style document to draw the tiles with.
  var style: String?
  var center: Coordinate?
  var zoom: Double?

  struct Result {
    var name: String
    var frames: Int
    var median: Double
    var p95: Double
    var peakRSS: Double
    var note: String = ""
  }

  func run() throws -> Int32 {
    if tiles != nil, center == nil || zoom == nil {
      throw UsageError("bench: --tiles needs --center LAT,LON and --zoom Z")
    }
    if style != nil && tiles == nil {
      throw UsageError("bench: --style needs --tiles SOURCE")
    }
    var results: [Result] = []
    let report = { (r: Result) in
      if let only, !r.name.hasPrefix(only) { return }
      results.append(r)
      if !json {
        let line = String(
          format: "%-28@ %6d frames  median %7.3f ms  p95 %7.3f ms  peak %7.1f MB  %@",
          r.name as NSString, r.frames, r.median, r.p95, r.peakRSS, r.note as NSString)
        FileHandle.standardError.write(Data((line + "\n").utf8))
      }
    }
    let frames = quick ? 10 : 60

    // Any tile source at a given view (`--tiles SOURCE --center LAT,LON --zoom Z`): the first
    // complete frame from cold, then cached and redrawn frames at 160x48 and 300x100.
    if let tiles, let center, let zoom {
      // --style: a theme, or a style document applied to the tiles by source-layer (read
      // once; each overlay made from it compiles its own draw plan, as a new view would).
      var variant = BasemapStyle.Variant.dark
      var document: LoadedStyle?
      if let style {
        if let v = BasemapStyle.Variant(rawValue: style) {
          variant = v
        } else {
          document = try RenderCommand.loadStyle(style)
        }
      }
      let layer = { () throws -> TileOverlay in
        let source: any TileSource
        do {
          source = try TileSourceSpec.open(tiles)
        } catch {
          throw UsageError("--tiles: \(error)")
        }
        guard let document else { return SourceTileOverlay(source: source, variant: variant) }
        do {
          return try StyleMapLayers(style: document, data: source).layers[0].overlay
        } catch {
          throw UsageError("--style: \(error)")
        }
      }
      report(
        try firstFrame(
          "tiles-first-frame", note: "open the source, load, decode, draw", layer, at: center,
          zoom: zoom))
      for r in try layerFrames("tiles", layer, at: center, zoom: zoom, frames: frames) {
        report(r)
      }
      for r in try outputFrames(
        "tiles-output", { [try layer()] }, at: center, zoom: zoom, frames: frames)
      { report(r) }
      return finish(results)
    }

    func wants(_ prefix: String) -> Bool {
      only.map { $0.hasPrefix(prefix) || prefix.hasPrefix($0) } ?? true
    }
    var perPoint = 0.0

    // Routes: memory per point, then world, zoom 8 and zoom 15 views, all tiles drawn afresh.
    if wants("route") || wants("pan") {
      Memory.resetPeak()
      let before = Memory.residentBytes()
      let points = BenchData.route(points: 1_000_000)
      let route = Polyline(points: points, title: "bench route")
      let after = Memory.residentBytes()
      perPoint = Double(after - before) / Double(points.count)
      let mid = points[points.count / 2]
      let routeMap = makeMap([route])
      routeMap.setVisibleMapRect(.world, animated: false)
      report(
        measure(
          "route-1M-world", routeMap, frames: frames,
          note: String(format: "%.1f B/point resident", perPoint)))
      routeMap.showAllContent(animated: false)
      report(measure("route-1M-fit", routeMap, frames: frames))
      routeMap.setCenter(mid, animated: false)
      routeMap.setZoomLevel(8, animated: false)
      report(measure("route-1M-z8", routeMap, frames: frames))
      routeMap.setZoomLevel(15, animated: false)
      report(measure("route-1M-z15", routeMap, frames: frames))

      // The same zoom-15 view over 10k and 10M points: the cost follows what is visible.
      for n in !wants("route-1") ? [] : quick ? [10_000] : [10_000, 10_000_000] {
        Memory.resetPeak()
        let pts = BenchData.route(points: n)
        let map = makeMap([Polyline(points: pts)])
        map.setCenter(pts[pts.count / 2], animated: false)
        map.setZoomLevel(15, animated: false)
        report(
          measure(
            "route-\(n >= 1_000_000 ? "\(n / 1_000_000)M" : "\(n / 1000)k")-z15", map,
            frames: frames))
      }

      // Panning the 1M route at zoom 12: 100 steps of an eighth of the screen, tiles reused.
      Memory.resetPeak()
      routeMap.setCenter(mid, animated: false)
      routeMap.setZoomLevel(12, animated: false)
      routeMap.discardTileCache()
      _ = routeMap.renderFrame()
      var step = 0
      let dx = Double(columns / 8 * CellGeometry.dotsWide)
      let dy = Double(rows / 8 * CellGeometry.dotsHigh)
      report(
        measure("pan-100-steps", routeMap, frames: 100, freshTiles: false) {
          step += 1
          let phase = (step / 25) % 4
          routeMap.pan(
            byDotsX: phase == 0 ? dx : phase == 2 ? -dx : 0,
            y: phase == 1 ? dy : phase == 3 ? -dy : 0)
        })
    }

    // Live tracking: a fix appended to a 1M-point breadcrumb per frame (BenchLive.swift).
    if wants("live-1M") { for r in try liveTracking(frames: frames) { report(r) } }
    // Live targets: 10,000 moving targets (BenchLiveTargets.swift).
    if wants("live-targets") { for r in try liveTargets(frames: frames) { report(r) } }

    // One MultiPolygon of 100,000 polygons with holes, all in view.
    if wants("multipolygon") {
      Memory.resetPeak()
      let multi = MultiPolygon(BenchData.parcels(count: 100_000))
      let polyMap = makeMap([multi])
      polyMap.showAllContent(animated: false)
      let whole = measure("multipolygon-100k", polyMap, frames: frames)
      report(whole)
      polyMap.setCenter(multi.boundingMapRect.mid, animated: false)
      polyMap.setZoomLevel(10, animated: false)
      report(measure("multipolygon-100k-z10", polyMap, frames: frames))
      // All in view on a screen of 500 x 150 cells: the cost should grow with the cells
      // (9.8 times those of 160 x 48), not faster (issue 23).
      var wide = self
      (wide.columns, wide.rows) = (500, 150)
      let wideMap = wide.makeMap([multi])
      wideMap.showAllContent(animated: false)
      var big = measure("multipolygon-100k-500x150", wideMap, frames: frames)
      if whole.median > 0 && (columns, rows) == (160, 48) {
        big.note += String(format: "; %.1fx the 160x48 median", big.median / whole.median)
      }
      report(big)
    }

    // 100,000 annotations: each frame pans one cell, so views are laid out and reused.
    if wants("annotations") {
      Memory.resetPeak()
      let places = BenchData.places(count: 100_000)
      let markerMap = makeMap([])
      markerMap.addAnnotations(places)
      markerMap.showAnnotations(places, animated: false)
      var k = 0
      report(
        measure("annotations-100k", markerMap, frames: frames, freshTiles: false) {
          k += 1
          markerMap.pan(
            byDotsX: Double(k % 2 == 0 ? CellGeometry.dotsWide : -CellGeometry.dotsWide), y: 0)
        })
      // The same with every marker in one cluster group: colliding markers become clusters.
      Memory.resetPeak()
      let clusterMap = makeMap([])
      let clustering = ClusteringStyle()
      BenchCommand.keepAlive.append(clustering)
      clusterMap.delegate = clustering
      clusterMap.addAnnotations(places)
      clusterMap.showAnnotations(places, animated: false)
      report(
        measure(
          "annotations-clustered-100k", clusterMap, frames: frames, freshTiles: false,
          note: "the same, every marker with one clustering identifier"
        ) {
          k += 1
          clusterMap.pan(
            byDotsX: Double(k % 2 == 0 ? CellGeometry.dotsWide : -CellGeometry.dotsWide), y: 0)
        })
      // Zooming in and out a level: every frame makes its clusters anew.
      report(
        measure(
          "annotations-clustered-100k-zoom", clusterMap, frames: frames, freshTiles: false,
          note: "the same, zooming a level in and out: every cluster made anew"
        ) {
          k += 1
          clusterMap.zoom(byLevels: k % 2 == 0 ? 1 : -1)
        })
    }

    // Everything at once at 300 x 100 (BenchCombined.swift).
    if wants("combined") {
      try combinedScenarios(frames: frames, report: report)
    }

    // Loading and compiling a 300-layer style document (issue 22, BenchStyle.swift).
    if wants("style") {
      for r in try styleScenarios(quick: quick) { report(r) }
    }

    // Loading a 1,000,000-point GPX track (with elevation and time per point), streaming.
    if wants("gpx-load") {
      let r = try benchLoadGPX(points: quick ? 100_000 : 1_000_000)
      let ms = r.seconds * 1000
      report(
        Result(
          name: "gpx-load-\(r.points >= 1_000_000 ? "1M" : "100k")", frames: 1, median: ms, p95: ms,
          peakRSS: Double(r.peakRSSBytes) / 1_048_576,
          note: String(
            format: "%.1f MB file, %.0f MB above the baseline at peak",
            Double(r.fileBytes) / 1e6, Double(r.peakRSSBytes - r.baselineRSSBytes) / 1_048_576)))
    }

    // termmap get (issue 19, BenchGet.swift): a city cut over HTTP with 50 ms per request.
    if wants("get-city") {
      report(try getCityScenario(quick: quick))
    }

    // The track tool (issue 13, BenchTrack.swift): a 1M-record FIT file, a 1M-point profile.
    if wants("fit-load") || wants("profile") {
      for r in try trackScenarios(quick: quick, frames: frames) { report(r) }
    }

    // The offline basemap: the first frame from cold, then world and city views at two sizes,
    // with drawn tiles reused ("cached") and with every tile drawn again ("redraw"; the decoded
    // vector tiles stay cached).
    if wants("basemap"), let dir = DataDirectory.locate() {
      let clock = ContinuousClock()
      Memory.resetPeak()
      let start = clock.now
      let cold = MapView(columns: columns, rows: rows)
      cold.addOverlays(try OfflineMap.overlays(dataDirectory: dir), level: .aboveRoads)
      cold.setVisibleMapRect(.world, animated: false)
      _ = cold.renderCompleteFrame(timeout: 15).frame
      let first = Self.milliseconds(clock.now - start)
      report(
        Result(
          name: "basemap-first-frame", frames: 1, median: first, p95: first,
          peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576, note: "open, decode, draw"))
      let views: [(String, Coordinate, Double)] = [
        ("world", Coordinate(latitude: 20, longitude: 0), 0.3),
        ("europe", Coordinate(latitude: 48, longitude: 10), 4),
        ("city", Coordinate(latitude: 43.7384, longitude: 7.4246), 15),
      ]
      for (w, h) in [(160, 48), (300, 100)] {
        for (name, centre, zoom) in views {
          let map = MapView(columns: w, rows: h)
          map.addOverlays(try OfflineMap.overlays(dataDirectory: dir), level: .aboveRoads)
          map.setCenter(centre, animated: false)
          map.setZoomLevel(zoom, animated: false)
          report(
            measure("basemap-\(name)-\(w)x\(h)-cached", map, frames: frames, freshTiles: false))
          report(measure("basemap-\(name)-\(w)x\(h)-redraw", map, frames: frames))
        }
      }
    }

    // The terminal output (BenchOutput.swift): the offline map of Monaco at zoom 15.
    if wants("output"), let dir = DataDirectory.locate() {
      for r in try outputFrames(
        "output", { try OfflineMap.overlays(dataDirectory: dir) },
        at: Coordinate(latitude: 43.7384, longitude: 7.4246), zoom: 15, frames: frames)
      {
        report(r)
      }
    }

    // Other tile formats: the offline world as a PMTiles archive, and raster tiles (a Mapnik
    // PNG of Monaco served for every tile) as braille dots and as half blocks. "first-frame"
    // opens the source and draws a complete frame from cold; "cached" reuses drawn tiles;
    // "redraw" draws every map tile again from decoded tiles.
    if wants("pmtiles"), let dir = DataDirectory.locate() {
      let path = dir.appendingPathComponent("world.pmtiles").path
      let layer = { () throws -> TileOverlay in
        SourceTileOverlay(source: try PMTilesSource(path: path))
      }
      report(
        try firstFrame(
          "pmtiles-first-frame", note: "open world.pmtiles, load, decode, draw", layer,
          at: nil, zoom: 0))
      for (name, centre, zoom) in [
        ("world", Coordinate(latitude: 20, longitude: 0), 0.3),
        ("europe", Coordinate(latitude: 48, longitude: 10), 4.0),
      ] {
        for r in try layerFrames("pmtiles-\(name)", layer, at: centre, zoom: zoom, frames: frames) {
          report(r)
        }
      }
    }
    if wants("raster"), let dir = DataDirectory.locate(),
      let png = FileManager.default.contents(
        atPath: dir.deletingLastPathComponent().appendingPathComponent(
          "Tests/RasterTilesTests/Fixtures/monaco-z15-17059-11948.png"
        ).path)
    {
      let monaco = Coordinate(latitude: 43.7354, longitude: 7.4213)
      for mode in RasterMode.allCases {
        let layer = { () throws -> TileOverlay in RepeatingRasterTiles(png, mode: mode) }
        report(
          try firstFrame(
            "raster-\(mode.rawValue)-first-frame", note: "decode and draw every tile of a z15 view",
            layer, at: monaco, zoom: 15))
        for r in try layerFrames(
          "raster-\(mode.rawValue)", layer, at: monaco, zoom: 15, frames: frames)
        {
          report(r)
        }
      }
    }

    // Place search: loading the gazetteer once, then searching as the user types.
    if wants("gazetteer"), let dir = DataDirectory.locate() {
      let clock = ContinuousClock()
      Memory.resetPeak()
      let start = clock.now
      if let g = try? Gazetteer(directory: dir) {
        let load = Self.milliseconds(clock.now - start)
        report(
          Result(
            name: "gazetteer-load", frames: 1, median: load, p95: load,
            peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576,
            note: "\(g.places.count) places"))
        var times: [Double] = []
        for q in [
          "T", "To", "Tok", "Toky", "Tokyo", "Wien", "sao pa", "Paris, FR", "zzzq", "Springfield",
        ] {
          let t0 = clock.now
          _ = g.search(q)
          times.append(Self.milliseconds(clock.now - t0))
        }
        times.sort()
        report(
          Result(
            name: "gazetteer-search", frames: times.count, median: times[times.count / 2],
            p95: times[times.count - 1], peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576,
            note: "per keystroke"))
      }
    }

    return finish(results, routeBytesPerPoint: perPoint)
  }

  /// Prints the results as JSON when asked (they went to stderr as lines already).
  func finish(_ results: [Result], routeBytesPerPoint perPoint: Double = 0) -> Int32 {
    if json {
      let items = results.map {
        String(
          format:
            "{\"name\": \"%@\", \"frames\": %d, \"median_ms\": %.4f, \"p95_ms\": %.4f, \"peak_rss_mb\": %.1f}",
          $0.name as NSString, $0.frames, $0.median, $0.p95, $0.peakRSS)
      }
      Output.write(
        "{\"size\": \"\(columns)x\(rows)\", \"route_bytes_per_point\": \(String(format: "%.2f", perPoint)), \"scenarios\": [\n  "
          + items.joined(separator: ",\n  ") + "\n]}\n")
    }
    return 0
  }

  /// A complete first frame from cold with one tile layer: made, loaded, decoded and drawn
  /// (the world fitted when `centre` is nil).
  func firstFrame(
    _ name: String, note: String, _ layer: () throws -> TileOverlay, at centre: Coordinate?,
    zoom: Double
  ) throws -> Result {
    let clock = ContinuousClock()
    Memory.resetPeak()
    let start = clock.now
    let cold = MapView(columns: columns, rows: rows)
    cold.addOverlay(try layer(), level: .aboveRoads)
    if let centre {
      cold.setCenter(centre, animated: false)
      cold.setZoomLevel(zoom, animated: false)
    } else {
      cold.setVisibleMapRect(.world, animated: false)
    }
    _ = cold.renderCompleteFrame(timeout: 15).frame
    let first = Self.milliseconds(clock.now - start)
    return Result(
      name: name, frames: 1, median: first, p95: first,
      peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576, note: note)
  }

  /// Cached and redrawn frames of one tile layer at 160x48 and 300x100.
  func layerFrames(
    _ prefix: String, _ layer: () throws -> TileOverlay, at centre: Coordinate, zoom: Double,
    frames: Int
  ) throws -> [Result] {
    var out: [Result] = []
    for (w, h) in [(160, 48), (300, 100)] {
      let map = MapView(columns: w, rows: h)
      map.addOverlay(try layer(), level: .aboveRoads)
      map.setCenter(centre, animated: false)
      map.setZoomLevel(zoom, animated: false)
      out.append(measure("\(prefix)-\(w)x\(h)-cached", map, frames: frames, freshTiles: false))
      out.append(measure("\(prefix)-\(w)x\(h)-redraw", map, frames: frames))
    }
    return out
  }

  func makeMap(_ overlays: [any Overlay]) -> MapView {
    let map = MapView(columns: columns, rows: rows)
    let style = ContentStyle()
    map.delegate = style
    BenchCommand.keepAlive.append(style)
    for o in overlays { map.addOverlay(o) }
    return map
  }

  static var keepAlive: [AnyObject] = []

  static func milliseconds(_ d: Duration) -> Double {
    let (s, a) = d.components
    return Double(s) * 1000 + Double(a) / 1e15
  }

  /// One measured frame. Not inlined, so that `valgrind --tool=callgrind
  /// --toggle-collect='*measuredFrame*'` counts the instructions of measured frames only
  /// (docs/benchmarks.md).
  @inline(never) static func measuredFrame(_ map: MapView) -> CellBuffer { map.renderFrame() }

  /// Times `frames` frames; `freshTiles` drops the tile cache first so every tile is drawn.
  func measure(
    _ name: String, _ map: MapView, frames: Int, freshTiles: Bool = true, note: String = "",
    before: () -> Void = {}
  ) -> Result {
    if let only, !name.hasPrefix(only) {
      return Result(name: name, frames: 0, median: 0, p95: 0, peakRSS: 0)
    }
    var times: [Double] = []
    times.reserveCapacity(frames)
    // Warm up: renderers made, tiles loaded (the basemap loads them in the background).
    let warm = map.renderCompleteFrame(timeout: 15).frame
    let inked = warm.cells.filter { $0.glyph != " " }.count
    let clock = ContinuousClock()
    for _ in 0..<frames {
      before()
      if freshTiles { map.discardTileCache() }
      let start = clock.now
      let frame = Self.measuredFrame(map)
      let elapsed = clock.now - start
      precondition(frame.rows == map.rows)
      let (s, a) = elapsed.components
      times.append(Double(s) * 1000 + Double(a) / 1e15)
    }
    times.sort()
    let median = times[times.count / 2]
    let p95 = times[min(times.count - 1, Int(Double(times.count) * 0.95))]
    return Result(
      name: name, frames: frames, median: median, p95: p95,
      peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576,
      note: "\(inked) cells inked" + (note.isEmpty ? "" : "; " + note))
  }
}

/// Resident memory of this process, from /proc.
enum Memory {
  static func field(_ name: String) -> Int {
    guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return 0
    }
    for line in s.split(separator: "\n") where line.hasPrefix(name + ":") {
      let digits = line.split(separator: " ").compactMap { Int($0) }
      return (digits.first ?? 0) * 1024
    }
    return 0
  }
  static func residentBytes() -> Int { field("VmRSS") }
  static func peakResidentBytes() -> Int { field("VmHWM") }
  /// Starts a new peak (Linux: writing 5 to clear_refs resets VmHWM).
  static func resetPeak() {
    if let h = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
      h.write(Data("5".utf8))
      try? h.close()
    }
  }
}

/// Raster tiles for the benchmark: the same PNG for every tile, loaded in the background.
final class RepeatingRasterTiles: TileOverlay, @unchecked Sendable {
  // `@unchecked Sendable`: `png` and `mode` are immutable; the rest is TileOverlay's.
  let png: Data
  let mode: RasterMode

  init(_ png: Data, mode: RasterMode) {
    self.png = png
    self.mode = mode
    super.init(urlTemplate: nil)
    canReplaceMapContent = true
  }

  override func loadTile(
    at path: TileOverlayPath, result: @escaping @Sendable (Data?, (any Error)?) -> Void
  ) {
    let png = png
    DispatchQueue.global().async { result(png, nil) }
  }

  override func makeDefaultRenderer() -> OverlayRenderer {
    RasterTileRenderer(overlay: self, mode: mode)
  }
}

/// Standard markers that cluster (one identifier for all), for `annotations-clustered-100k`.
@MainActor
final class ClusteringStyle: MapViewDelegate {
  let styler = ContentStyler()

  func mapView(_ mapView: MapView, viewFor annotation: any Annotation) -> AnnotationView? {
    // The markers of `annotations-100k` (ContentStyle's), with an identifier; clusters get the
    // standard cluster view.
    guard !(annotation is ClusterAnnotation) else { return nil }
    let v = styler.view(for: annotation, on: mapView)
    v?.clusteringIdentifier = "places"
    return v
  }
}
