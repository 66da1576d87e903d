import Foundation
import MapData
import MapGeometry
import MapTiles
import Synchronization
import TerminalUI
import TileData

/// `termmap get`: plans a cut of a PMTiles archive (`PMTilesExtract`), prints it with
/// --dry-run, else downloads it with a progress line and writes the archive.
struct GetCommand {
  var west = 0.0
  var south = 0.0
  var east = 0.0
  var north = 0.0
  var source: String
  var maxZoom = 15
  var output: String
  var parallel = 4
  var dryRun = false
  var yes = false
  /// The place a PLACE argument found, for the plan's first line.
  var chosen: String?
  /// Vector tile layers left out (--drop-layers).
  var dropLayers: Set<String> = []
  /// The cut is stored as a region (not --output): its names are indexed for `/`.
  var stored = false

  /// Downloads over this many bytes ask first (without --yes).
  static let askAbove: UInt64 = 500_000_000

  init(_ c: Termmap.Get) throws {
    let given = [c.place != nil, c.bbox != nil, c.around != nil].filter { $0 }.count
    guard given == 1 else {
      throw UsageError("get: give one of PLACE, --bbox W,S,E,N or --around LAT,LON --radius KM")
    }
    var defaultName: String?
    if let b = c.bbox {
      let v = try ArgumentValues.bbox(b)
      (west, south, east, north) = (v[0], v[1], v[2], v[3])
    } else if let a = c.around {
      let v = try ArgumentValues.numbers(a, count: 2, "--around")
      guard (-90...90).contains(v[0]), (-180...180).contains(v[1]) else {
        throw UsageError("--around: expected LAT,LON in degrees")
      }
      guard let r = c.radius else { throw UsageError("get: --around needs --radius KM") }
      let km = try ArgumentValues.number(r, "--radius")
      guard km > 0, km <= 2000 else { throw UsageError("--radius: expected 0 to 2000 km") }
      (west, south, east, north) = Self.box(
        around: Coordinate(latitude: v[0], longitude: v[1]), km: km)
    } else if let name = c.place {
      guard let dir = DataDirectory.locate(), let places = try? Gazetteer(directory: dir) else {
        throw UsageError(
          "get: \(name): no place names to look in (\(DataDirectory.missingMessage()))")
      }
      guard let p = places.search(name, limit: 1).first else {
        throw UsageError("get: no place called \(name) (try --bbox or --around)")
      }
      let km = Self.radius(population: p.population)
      (west, south, east, north) = Self.box(around: p.coordinate, km: km)
      chosen = String(
        format: "%@ (population %d): %.1f km around %.4f,%.4f", SafeText.clean(p.label),
        p.population, km, p.coordinate.latitude, p.coordinate.longitude)
      defaultName = p.name
    }
    if c.radius != nil && c.around == nil { throw UsageError("get: --radius goes with --around") }
    let configured: String?
    do {
      configured = try TileSourceCatalog.load(configPath: TileSourceCatalog.defaultConfigPath())
        .getFrom
    } catch {
      throw UsageError("config: \(error)")
    }
    let from = c.from ?? configured ?? TileSourceCatalog.defaultGetSource
    if let scheme = TileSourceSpec.unsupportedScheme(from) {
      throw UsageError("get: --from \(from): unsupported URL scheme \"\(scheme)\"")
    }
    if from == "osm" || from.contains("tile.openstreetmap.org") {
      throw UsageError(
        "get: --from \(from): OpenStreetMap's tile usage policy forbids bulk downloads")
    }
    if HTTPTileSource.isTemplate(from), from.contains("{z}") {
      throw UsageError(
        "get: --from \(from): a URL template cannot be cut; get needs a PMTiles archive")
    }
    source = from
    if let z = c.maxzoom {
      let n = try ArgumentValues.number(z, "--maxzoom")
      guard n >= 0, n <= 22, n == n.rounded() else {
        throw UsageError("--maxzoom: expected a whole number from 0 to 22")
      }
      maxZoom = Int(n)
    }
    if let p = c.parallel {
      let n = try ArgumentValues.number(p, "--parallel")
      guard n >= 1, n <= 16, n == n.rounded() else {
        throw UsageError("--parallel: expected a whole number from 1 to 16")
      }
      parallel = Int(n)
    }
    if let out = c.output {
      guard c.name == nil else { throw UsageError("get: --name and --output go alone") }
      output = out
    } else if let name = c.name ?? defaultName {
      guard let file = Regions.file(named: name) else {
        throw UsageError("get: --name \(name): not a usable name (letters, digits, - and _)")
      }
      do {
        try FileManager.default.createDirectory(
          at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      } catch {
        throw UsageError("get: \(file.deletingLastPathComponent().path): cannot be created")
      }
      output = file.path
      stored = true
    } else if c.dryRun {
      output = ""
    } else {
      throw UsageError(
        "get: --name NAME stores the region where the viewer finds it (or --output FILE)")
    }
    dryRun = c.dryRun
    yes = c.yes
    if let d = c.dropLayers {
      dropLayers = Set(d.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        .subtracting([""])
      guard !dropLayers.isEmpty else { throw UsageError("--drop-layers: expected layer names") }
    }
  }

  func run() throws -> Int32 {
    // A file size limit reached by the spool must fail the write (EFBIG, said in one line,
    // what was stored kept), not kill the process.
    signal(SIGXFSZ, SIG_IGN)
    let plan: PMTilesExtract
    do {
      plan = try PMTilesExtract.plan(
        location: source, west: west, south: south, east: east, north: north, maxZoom: maxZoom,
        parallel: parallel)
    } catch {
      throw UsageError("get: \(error)")
    }
    let region = String(format: "%.5f,%.5f,%.5f,%.5f", west, south, east, north)
    var lines = ["region \(region), zooms \(plan.minZoom)-\(plan.maxZoom) of \(source)"]
    if let chosen { lines.insert(chosen, at: 0) }
    for (z, n) in plan.tilesPerZoom.enumerated() where n > 0 {
      lines.append(String(format: "  z%-2d %8d tiles", z, n))
    }
    lines.append(
      "\(plan.tiles.count) tiles, \(Self.bytes(plan.tileBytes)) of tiles; "
        + "\(Self.bytes(plan.fetchBytes)) to fetch in \(plan.ranges.count) ranges; "
        + "\(plan.requests) requests in all (\(plan.directoryRequests) for directories)")
    Output.write(lines.joined(separator: "\n") + "\n")
    if dryRun { return 0 }
    if !dropLayers.isEmpty, plan.header.tileType != .mvt {
      throw UsageError(
        "get: --drop-layers needs vector tiles (\(source) has \(plan.header.tileType.map { "\($0)" } ?? "?") tiles)"
      )
    }
    guard !plan.tiles.isEmpty else {
      throw UsageError("get: \(source) has no tiles in \(region)")
    }
    if plan.fetchBytes > Self.askAbove && !yes {
      guard isatty(0) == 1, isatty(2) == 1 else {
        throw UsageError(
          "get: \(Self.bytes(plan.fetchBytes)) to download: add --yes to go ahead without a terminal"
        )
      }
      FileHandle.standardError.write(Data("Download \(Self.bytes(plan.fetchBytes))? [y/N] ".utf8))
      guard let answer = readLine(), answer.lowercased().hasPrefix("y") else { return 1 }
    }
    let resumable = plan.resumableRanges(output: output)
    if resumable > 0 {
      Output.write("resuming: \(resumable) of \(plan.ranges.count) ranges already fetched\n")
    }
    let start = Date()
    let terminal = isatty(2) == 1
    let total = plan.fetchBytes
    let reporter = ProgressReporter()
    let header: PMTiles.Header
    do {
      let stamp = ISO8601DateFormatter().string(from: Date())
      let drop = dropLayers
      let gzip = plan.header.tileCompression == .gzip
      let transform: (@Sendable (Data) throws -> Data)? =
        drop.isEmpty
        ? nil
        : { @Sendable (tile: Data) throws -> Data in
          try tileWithoutLayers(drop, from: tile, gzip: gzip)
        }
      // Tiles whole in the spool: each counted when the last range it needs is stored.
      let ending = plan.tilesEndingPerRange
      let tilesDone = Atomic(0)
      header = try plan.download(
        to: output, parallel: parallel,
        extraMetadata: ["termmap:source": source, "termmap:fetched": stamp],
        transform: transform,
        stored: { tilesDone.add(ending[$0], ordering: .relaxed) },
        progress: { bytes, done in
          reporter.report(
            bytes: bytes, total: total, tiles: tilesDone.load(ordering: .relaxed),
            of: plan.tiles.count, since: start, terminal: terminal)
        })
    } catch {
      if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
      let kept = plan.resumableRanges(output: output)
      let resume =
        kept > 0
        ? " (\(kept) of \(plan.ranges.count) ranges kept: the same command continues)" : ""
      throw UsageError("get: \(error)\(resume)")
    }
    if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    let seconds = Date().timeIntervalSince(start)
    Output.write(
      "wrote \(output): \(header.addressedTilesCount) tiles, "
        + "\(Self.bytes(header.tileDataOffset + header.tileDataLength)) "
        + String(format: "in %.1f s\n", seconds))
    if stored { indexNames(terminal: terminal) }
    return 0
  }

  /// Indexes the stored region's street, place and POI names (`RegionNames`) beside it, for
  /// the viewer's `/`. A failure is said but does not fail the cut: the region is stored.
  func indexNames(terminal: Bool) {
    let archive = URL(fileURLWithPath: output)
    let file = RegionNames.file(forArchive: archive)
    let start = Date()
    do {
      let names = try RegionNames.index(archive: output) { done, total in
        guard terminal, total >= 1_000 else { return }
        FileHandle.standardError.write(
          Data("\r\u{1B}[Kindexing names: \(done) of \(total) tiles".utf8))
      }
      if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
      try names.write(to: file)
      let size =
        (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?
        .uint64Value ?? 0
      var line =
        "indexed \(names.entries.count) names for / search: \(file.path), \(Self.bytes(size)) "
        + String(format: "in %.1f s", Date().timeIntervalSince(start))
      if names.truncated { line += " (the index is full: some names were left out)" }
      if names.unreadableTiles > 0 { line += " (\(names.unreadableTiles) tiles unreadable)" }
      Output.write(line + "\n")
    } catch {
      // No index of an older cut may stay beside the new archive.
      try? FileManager.default.removeItem(at: file)
      FileHandle.standardError.write(
        Data("termmap: get: names not indexed: \(SafeText.clean("\(error)"))\n".utf8))
    }
  }

  /// How far around a place a cut reaches: 3 km for a village, growing with the cube root of
  /// the population (about 12 km for half a million, 26 km for a capital of 3.6 million), at
  /// most 40 km.
  static func radius(population: Int) -> Double {
    min(max(3 * pow(Double(max(population, 1)) / 5_000, 1.0 / 3), 3), 40)
  }

  /// The box `km` around a point (north and south clamped to the map).
  static func box(around c: Coordinate, km: Double) -> (Double, Double, Double, Double) {
    let dLat = km / 111.32
    let dLon = km / (111.32 * max(cos(c.latitude * .pi / 180), 0.01))
    var w = c.longitude - dLon
    var e = c.longitude + dLon
    if w < -180 { w += 360 }
    if e > 180 { e -= 360 }
    return (w, max(c.latitude - dLat, -85), e, min(c.latitude + dLat, 85))
  }

  /// `termmap regions`: one line per stored region; `regions remove NAME` deletes one.
  static func regions(_ words: [String]) throws -> Int32 {
    if words.isEmpty {
      let (list, problems) = Regions.list()
      for p in problems { FileHandle.standardError.write(Data("termmap: regions: \(p)\n".utf8)) }
      if list.isEmpty {
        Output.write(
          "no regions in \(Regions.directory().path) (termmap get --name NAME stores one)\n")
        return problems.isEmpty ? 0 : 2
      }
      for r in list {
        let box = String(format: "%.4f,%.4f,%.4f,%.4f", r.west, r.south, r.east, r.north)
        Output.write(
          "\(r.name)  \(box)  z\(r.minZoom)-\(r.maxZoom)  \(bytes(r.bytes))  "
            + "\(r.source ?? "?")  \(r.fetched ?? "?")  \(r.names.map { "\($0) names" } ?? "no names")\n"
        )
      }
      return problems.isEmpty ? 0 : 2
    }
    guard words.count == 2, words[0] == "remove" else {
      throw UsageError("regions: expected nothing, or remove NAME")
    }
    guard let file = Regions.file(named: words[1]),
      FileManager.default.fileExists(atPath: file.path)
    else {
      let names = Regions.list().regions.map(\.name)
      throw UsageError(
        "regions: no region \(words[1])"
          + (names.isEmpty ? "" : " (regions: \(names.joined(separator: ", ")))"))
    }
    do {
      try FileManager.default.removeItem(at: file)
    } catch {
      throw UsageError("regions: \(file.path): cannot be removed")
    }
    // Its names index goes with it (there may be none).
    try? FileManager.default.removeItem(at: RegionNames.file(forArchive: file))
    Output.write("removed \(words[1])\n")
    return 0
  }

  static func bytes(_ n: UInt64) -> String {
    if n < 10_000 { return "\(n) B" }
    if n < 10_000_000 { return String(format: "%.1f kB", Double(n) / 1e3) }
    if n < 10_000_000_000 { return String(format: "%.1f MB", Double(n) / 1e6) }
    return String(format: "%.2f GB", Double(n) / 1e9)
  }
}

/// Progress on stderr: a bar redrawn in place on a terminal, a line per tenth otherwise.
final class ProgressReporter: Sendable {
  private let last = Mutex((tenth: -1, time: Date.distantPast))

  func report(
    bytes: UInt64, total: UInt64, tiles: Int, of allTiles: Int, since: Date, terminal: Bool
  ) {
    let fraction = total == 0 ? 1 : Double(bytes) / Double(total)
    let elapsed = Date().timeIntervalSince(since)
    let rate = elapsed > 0 ? Double(bytes) / elapsed : 0
    let eta = rate > 0 ? Double(total - min(bytes, total)) / rate : 0
    let text = String(
      format: "%@ of %@, %d of %d tiles, %@/s, %.0f s left",
      GetCommand.bytes(bytes), GetCommand.bytes(total), tiles, allTiles,
      GetCommand.bytes(UInt64(rate)), eta)
    let line: String? = last.withLock { l in
      if terminal {
        let now = Date()
        guard now.timeIntervalSince(l.time) > 0.1 || bytes >= total else { return nil }
        l.time = now
        let width = 24
        let filled = Int(fraction * Double(width))
        let bar =
          String(repeating: "█", count: filled)
          + String(repeating: "░", count: width - filled)
        return "\r\u{1B}[K\(bar) \(Int(fraction * 100))% \(text)"
      }
      let tenth = Int(fraction * 10)
      guard tenth > l.tenth else { return nil }
      l.tenth = tenth
      return "\(tenth * 10)% \(text)\n"
    }
    if let line { FileHandle.standardError.write(Data(line.utf8)) }
  }
}

/// A vector tile without the layers in `drop` (inflated and deflated again when gzip).
func tileWithoutLayers(_ drop: Set<String>, from tile: Data, gzip: Bool) throws -> Data {
  let raw: Data
  if gzip {
    do {
      raw = try Inflate.decompress(tile)
    } catch {
      throw TileSourceError.readFailed(path: "tile", message: "\(error)")
    }
  } else {
    raw = tile
  }
  let kept = try VectorTileLayerFilter.dropping(drop, from: raw)
  return gzip ? Deflate.gzip(kept) : kept
}
