import Foundation
import MapData
import MapGeometry
import MapTiles
import Synchronization
import TermMapKit
import TileData

/// A download of the region on screen (the `D` key): `termmap get`'s machinery
/// (`PMTilesExtract`) on a thread of its own, its progress read by the main loop each turn.
final class RegionDownload: Sendable {
  enum Phase: Sendable, Equatable {
    case planning
    case downloading
    case done(tiles: UInt64, bytes: UInt64)
    case failed(String)
  }

  /// The region's name (its file in the regions folder).
  let name: String
  let file: URL
  let started: Date
  let state = Mutex(
    (
      phase: Phase.planning, bytes: UInt64(0), total: UInt64(0),
      partial: PartialCutSource?.none
    ))
  /// Set once the main loop has put a finished region on the map (or said why not).
  let taken = Mutex(false)

  init(name: String, file: URL, started: Date) {
    self.name = name
    self.file = file
    self.started = started
  }

  /// Downloads more than this ask for `termmap get --yes` instead.
  static let largest: UInt64 = 500_000_000

  /// Plans and downloads the cut of `source` to `file`; `wake` after each step.
  func run(
    source: String, west: Double, south: Double, east: Double, north: Double,
    wake: @escaping @Sendable () -> Void
  ) {
    Thread { [self] in
      do {
        let plan = try PMTilesExtract.plan(
          location: source, west: west, south: south, east: east, north: north, maxZoom: 15)
        guard !plan.tiles.isEmpty else {
          state.withLock { $0.phase = .failed("no tiles here in \(SafeText.clean(source))") }
          wake()
          return
        }
        guard plan.fetchBytes <= Self.largest else {
          let size = String(format: "%.0f MB", Double(plan.fetchBytes) / 1e6)
          state.withLock {
            $0.phase = .failed("\(size) to download: zoom in, or termmap get --yes")
          }
          wake()
          return
        }
        // The tiles already in the spool are drawn while the rest arrives.
        let partial = PartialCutSource(plan: plan, output: file.path, name: name)
        state.withLock {
          $0.phase = .downloading
          $0.total = plan.fetchBytes
          $0.partial = partial
        }
        wake()
        try FileManager.default.createDirectory(
          at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let stamp = ISO8601DateFormatter().string(from: Date())
        let header = try plan.download(
          to: file.path, parallel: 4,
          extraMetadata: ["termmap:source": source, "termmap:fetched": stamp],
          stored: { partial.markStored($0) },
          progress: { bytes, _ in
            self.state.withLock { $0.bytes = bytes }
            wake()
          })
        // Its names for `/`, as `termmap get --name` indexes them (a failure leaves none).
        let namesFile = RegionNames.file(forArchive: file)
        do {
          try RegionNames.index(archive: file.path).write(to: namesFile)
        } catch {
          try? FileManager.default.removeItem(at: namesFile)
        }
        state.withLock {
          $0.phase = .done(
            tiles: header.addressedTilesCount, bytes: header.tileDataOffset + header.tileDataLength
          )
        }
      } catch {
        state.withLock { $0.phase = .failed(SafeText.clean("\(name): \(error)")) }
      }
      wake()
    }.start()
  }

  /// The status line's part while it runs: name, share, bytes, rate and time left.
  func statusText(now: Date) -> String? {
    let s = state.withLock { $0 }
    switch s.phase {
    case .planning:
      return "⤓ \(name): planning…"
    case .downloading:
      let fraction = s.total == 0 ? 1 : Double(s.bytes) / Double(s.total)
      let elapsed = max(now.timeIntervalSince(started), 0.001)
      let rate = Double(s.bytes) / elapsed
      let left = rate > 0 ? Double(s.total - min(s.bytes, s.total)) / rate : 0
      return String(
        format: "⤓ %@ %d%% %.1f/%.1f MB %.0f s left", name, Int(fraction * 100),
        Double(s.bytes) / 1e6, Double(s.total) / 1e6, left)
    case .done, .failed:
      return nil
    }
  }
}

extension Viewer {
  /// The `D` key: downloads the region on screen, zooms 0–15, from `[get] from` in the config
  /// file (else the Protomaps planet), into the regions folder; the map draws it once whole.
  func downloadVisibleRegion() {
    guard options.allowsDownloads else {
      show("downloads are off here")
      return
    }
    if let d = download, d.statusText(now: clock()) != nil {
      show("already downloading \(d.name)")
      return
    }
    let rect = map.visibleMapRect
    let nw = MapPoint(x: rect.minX, y: rect.minY).coordinate
    let se = MapPoint(x: rect.maxX, y: rect.maxY).coordinate
    let west = max(nw.longitude, -180)
    let east = min(se.longitude, 180)
    let north = min(nw.latitude, 85)
    let south = max(se.latitude, -85)
    let source: String
    do {
      source =
        try TileSourceCatalog.load(configPath: TileSourceCatalog.defaultConfigPath()).getFrom
        ?? TileSourceCatalog.defaultGetSource
    } catch {
      show("config: \(SafeText.clean("\(error)"))")
      return
    }
    let c = map.centerCoordinate
    let name = String(
      format: "view-%.4f%@-%.4f%@", abs(c.latitude), c.latitude >= 0 ? "N" : "S",
      abs(c.longitude), c.longitude >= 0 ? "E" : "W")
    guard let file = Regions.file(named: name) else { return }
    let d = RegionDownload(name: name, file: file, started: clock())
    download = d
    let flag = displayRequested
    d.run(source: source, west: west, south: south, east: east, north: north) { flag.set() }
    dirty = true
  }

  /// The highest overlay of map content (the offline map, a region, `--tiles`), if any.
  var topMapContent: (any Overlay)? {
    map.overlays.last { ($0 as? TileOverlay)?.canReplaceMapContent == true }
  }

  /// Dark or light, as the map content already drawn.
  var contentVariant: BasemapStyle.Variant {
    (topMapContent as? SourceTileOverlay)?.variant ?? .dark
  }

  /// The labels' language of the map content already drawn.
  var contentLanguage: String? {
    (topMapContent as? SourceTileOverlay)?.language
  }

  /// Adds a region's overlay above every other map content (below routes and markers).
  func insertAboveMapContent(_ overlay: SourceTileOverlay) {
    if let top = topMapContent {
      map.insertOverlay(overlay, above: top)
    } else {
      map.addOverlay(overlay, level: .aboveRoads)
    }
  }

  /// Puts a finished download on the map, above the other map content, or says why it
  /// stopped; true when the screen must change.
  func receiveDownload() -> Bool {
    guard let d = download else { return false }
    let (phase, partial) = d.state.withLock { ($0.phase, $0.partial) }
    switch phase {
    case .planning:
      // Its progress wakes the loop (`displayRequested`) and the status line reads it.
      return false
    case .downloading:
      // The map fills in: the stored tiles drawn above the other map content, drawn again
      // (at most every half second) as more arrive.
      guard let partial else { return false }
      if (partialOverlay?.source as? PartialCutSource) !== partial {
        let overlay = SourceTileOverlay(source: partial, variant: contentVariant)
        overlay.language = contentLanguage
        overlay.title = d.name
        insertAboveMapContent(overlay)
        partialOverlay = overlay
        partialShown = (0, clock())
        return true
      }
      let count = partial.storedCount
      let now = clock()
      guard count > partialShown.count, now.timeIntervalSince(partialShown.at) >= 0.5,
        let overlay = partialOverlay,
        let renderer = map.renderer(for: overlay) as? TileOverlayRenderer
      else { return false }
      partialShown = (count, now)
      renderer.reloadData()
      return true
    case .done(let tiles, let bytes):
      guard
        !d.taken.withLock({ t in
          defer { t = true }; return t
        })
      else { return false }
      do {
        let overlay = SourceTileOverlay(
          source: try PMTilesSource(path: d.file.path), variant: contentVariant)
        overlay.language = contentLanguage
        overlay.title = d.name
        // A region downloaded again replaces the old one, and the whole the partial one.
        for old in map.overlays where (old as? SourceTileOverlay)?.title == d.name {
          map.removeOverlay(old)
        }
        partialOverlay = nil
        insertAboveMapContent(overlay)
        // `/` finds its names once the gazetteer is read again with its index.
        if options.searchesStoredRegions {
          if gazetteerLoading {
            gazetteerStale = true
          } else {
            gazetteer = nil
            gazetteerError = nil
            startLoadingGazetteer()
          }
        }
        show(
          String(
            format: "%@: %d tiles, %.1f MB, stored (termmap regions)", d.name, Int(tiles),
            Double(bytes) / 1e6), seconds: 6)
      } catch {
        show("\(d.name): \(SafeText.clean("\(error)"))", seconds: 8)
      }
      return true
    case .failed(let why):
      guard
        !d.taken.withLock({ t in
          defer { t = true }; return t
        })
      else { return false }
      show("download stopped: \(why)", seconds: 8)
      return true
    }
  }
}
