import Foundation
import LoopbackHTTPServer
import MapGeometry
import RegionFixtures
import Synchronization
import TestProcesses
import Testing
import TileData

/// `termmap get` against a real nginx serving a PMTiles archive, and against servers that
/// fail in the ways a download meets.
@Suite("termmap get: a region cut from a PMTiles archive")
struct GetCLITests {
  static let world = repositoryRoot.appendingPathComponent("Data/world.pmtiles")

  func folder() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-get-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  @Test("over nginx: the plan's requests exactly, every tile as the source has it, drawn by render")
  func cutOverHTTP() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let site = dir.appendingPathComponent("site")
    try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Self.world, to: site.appendingPathComponent("planet.pmtiles"))
    let nginx = try Nginx(serving: site)
    defer { nginx.stop() }
    let url = nginx.baseURL + "/planet.pmtiles"
    let out = dir.appendingPathComponent("europe.pmtiles").path
    let args = ["get", "--bbox", "5,45,16,55", "--maxzoom", "6", "--from", url, "--output", out]
    let dry = try termmap(args + ["--dry-run"])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(
      dry.stdout.split(separator: "\n").contains {
        $0.hasPrefix("  z6 ") && $0.hasSuffix(" 12 tiles")
      },
      "\(dry.stdout)")
    #expect(!FileManager.default.fileExists(atPath: out))
    let planned = try #require(
      dry.stdout.split(separator: "\n").last?.split(separator: ";").last?
        .split(separator: " ").first(where: { Int($0) != nil }).flatMap { Int($0) })
    // The dry run's requests (its directory reads) all logged: nginx has closed their
    // connections. Counted at once, a late line of the dry run's was counted as the cut's.
    let before = nginx.settledAccessLog().count
    let r = try termmap(args)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("wrote \(out): 21 tiles"), "\(r.stdout)")
    let log = nginx.settledAccessLog().dropFirst(before)
    #expect(log.count == planned, "\(log)")
    #expect(log.allSatisfy { $0.contains(" 206 ") }, "\(log)")
    let source = try PMTilesSource(path: Self.world.path)
    let cut = try PMTilesSource(path: out)
    #expect(cut.header.maxZoom == 6 && cut.header.clustered)
    // The source's metadata, and where and when the cut came from.
    var meta = try #require(
      try JSONSerialization.jsonObject(with: cut.metadataJSON) as? [String: Any])
    #expect(meta.removeValue(forKey: "termmap:source") as? String == url)
    #expect(meta.removeValue(forKey: "termmap:fetched") is String)
    let original = try #require(
      try JSONSerialization.jsonObject(with: source.metadataJSON) as? [String: Any])
    #expect(NSDictionary(dictionary: meta).isEqual(to: original))
    var compared = 0
    for z in 0...6 {
      for x in 0..<(1 << z) {
        for y in 0..<(1 << z) {
          let id = TileID(z: z, x: x, y: y)
          if let tile = try cut.tile(id) {
            #expect(tile == (try source.tile(id)), "\(id)")
            compared += 1
          }
        }
      }
    }
    #expect(compared == 21)
    let frame = try termmap([
      "render", "--no-basemap", "--color", "never", "--size", "60x15", "--center", "50,10",
      "--zoom", "5", "--tiles", out,
    ])
    #expect(frame.status == 0)
    #expect(frame.stdout.contains("Frankfurt am Main"), "\(frame.stdout)")
  }

  @Test("--drop-layers place: the cut has no place names, the rest is drawn")
  func dropLayers() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("noplaces.pmtiles").path
    let r = try termmap([
      "get", "--bbox", "5,45,16,55", "--maxzoom", "6", "--from", Self.world.path, "--output", out,
      "--drop-layers", "place",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let view = [
      "render", "--no-basemap", "--color", "never", "--size", "60x15", "--center", "50,10",
      "--zoom", "5", "--tiles",
    ]
    let without = try termmap(view + [out])
    #expect(!without.stdout.contains("Frankfurt"), "\(without.stdout)")
    let dots = inkedCells(without.stdout)
    #expect(dots > 50)
  }

  @Test("a 404, a server that ignores Range, a URL template, osm: one line each, exit 2")
  func refusals() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("x.pmtiles").path
    let missing = try LoopbackHTTPServer { _ in .respond(status: 404) }
    defer { missing.stop() }
    let base = ["get", "--bbox", "5,45,16,55", "--output", out, "--from"]
    let notFound = try termmap(base + [missing.baseURL + "/planet.pmtiles"])
    #expect(notFound.status == 2)
    #expect(
      notFound.stderr == "termmap: get: \(missing.baseURL)/planet.pmtiles: HTTP 404 Not Found\n")
    let whole = try Data(contentsOf: Self.world)
    let ignoring = try LoopbackHTTPServer { _ in .respond(status: 200, body: whole) }
    defer { ignoring.stop() }
    let noRange = try termmap(base + [ignoring.baseURL + "/planet.pmtiles"])
    #expect(noRange.status == 2)
    #expect(noRange.stderr.contains("the server ignores Range requests"), "\(noRange.stderr)")
    let template = try termmap(base + ["https://example.invalid/{z}/{x}/{y}.pbf"])
    #expect(template.status == 2)
    #expect(template.stderr.contains("a URL template cannot be cut"))
    let osm = try termmap(base + ["osm"])
    #expect(
      osm.stderr
        == "termmap: get: --from osm: OpenStreetMap's tile usage policy forbids bulk downloads\n")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test("an archive whose ETag changes during the download: stopped, nothing left behind")
  func changedArchive() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("x.pmtiles").path
    let whole = try Data(contentsOf: Self.world)
    let served = Counter()
    let server = try LoopbackHTTPServer { request in
      let n = served.next()
      guard let range = request.headers["range"], range.hasPrefix("bytes="),
        case let ends = range.dropFirst(6).split(separator: "-").compactMap({ Int($0) }),
        ends.count == 2
      else { return .respond(status: 400) }
      let last = min(ends[1], whole.count - 1)
      return .respond(
        status: 206,
        headers: [
          "Content-Range": "bytes \(ends[0])-\(last)/\(whole.count)",
          "ETag": n == 0 ? "\"v1\"" : "\"v2\"",
        ], body: whole.subdata(in: ends[0]..<(last + 1)))
    }
    defer { server.stop() }
    let r = try termmap([
      "get", "--bbox", "5,45,16,55", "--maxzoom", "6", "--from", server.baseURL + "/p.pmtiles",
      "--output", out,
    ])
    #expect(r.status == 2)
    #expect(
      r.stderr.contains("the archive changed on the server during the download"), "\(r.stderr)")
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(left.isEmpty, "\(left)")
  }
}

/// A count shared with a server's handler.
final class Counter: Sendable {
  private let value = Mutex(0)
  func next() -> Int {
    value.withLock { v in
      defer { v += 1 }; return v
    }
  }
}

/// Resuming an interrupted cut.
@Suite("termmap get: an interrupted cut resumes")
struct GetResumeCLITests {
  @Test(
    "connections cut after 3 ranges: exit 2 keeping them; the next run fetches the rest only, the same archive"
  )
  func resume() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-resume-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let whole = try Data(contentsOf: GetCLITests.world)
    // Reads from here on are tile data; before it, the header and the directories.
    let dataStart = Int(try PMTilesSource(path: GetCLITests.world.path).header.tileDataOffset)
    let start = { (request: LoopbackHTTPServer.Request) -> Int? in
      request.headers["range"].flatMap { Int($0.dropFirst(6).split(separator: "-").first ?? "") }
    }
    let served = Counter()
    let failing = Mutex(true)
    let server = try LoopbackHTTPServer { request in
      guard let range = request.headers["range"], range.hasPrefix("bytes="),
        case let ends = range.dropFirst(6).split(separator: "-").compactMap({ Int($0) }),
        ends.count == 2
      else { return .respond(status: 400) }
      // The header and directory reads, then three ranges of tiles; then the line goes down.
      if failing.withLock({ $0 }), ends[0] >= dataStart, served.next() >= 3 { return .close }
      let last = min(ends[1], whole.count - 1)
      return .respond(
        status: 206,
        headers: ["Content-Range": "bytes \(ends[0])-\(last)/\(whole.count)", "ETag": "\"w\""],
        body: whole.subdata(in: ends[0]..<(last + 1)))
    }
    defer { server.stop() }
    let out = dir.appendingPathComponent("cut.pmtiles").path
    let args = [
      "get", "--bbox", "-30,30,40,70", "--maxzoom", "6", "--parallel", "1", "--from",
      server.baseURL + "/w.pmtiles", "--output", out,
    ]
    let first = try termmap(args)
    #expect(first.status == 2)
    #expect(first.stderr.contains("3 of "), "\(first.stderr)")
    #expect(first.stderr.contains("ranges kept: the same command continues"), "\(first.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
    let ranges = try #require(
      first.stdout.split(separator: "\n").last.flatMap { line in
        line.split(separator: " ").firstIndex(of: "ranges;").flatMap { i in
          Int(line.split(separator: " ")[i - 1])
        }
      })
    failing.withLock { $0 = false }
    let tileReads = { server.requests.filter { (start($0) ?? 0) >= dataStart }.count }
    let before = tileReads()
    let second = try termmap(args)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout.contains("resuming: 3 of \(ranges) ranges already fetched"))
    // Besides the header and directories, only the ranges not yet fetched.
    #expect(tileReads() - before == ranges - 3)
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(left == ["cut.pmtiles"], "\(left)")
    // The same archive as a cut never interrupted.
    let fresh = dir.appendingPathComponent("fresh.pmtiles").path
    let again = try termmap(
      Array(args.dropLast()) + [fresh])
    #expect(again.status == 0)
    // Tile for tile (the metadata's fetch times differ).
    let resumed = try PMTilesSource(path: out)
    let uninterrupted = try PMTilesSource(path: fresh)
    let (a, b) = (resumed.header, uninterrupted.header)
    #expect(a.tileDataLength == b.tileDataLength && a.tileEntriesCount == b.tileEntriesCount)
    #expect(a.addressedTilesCount == b.addressedTilesCount && a.boundsDegrees == b.boundsDegrees)
    for z in 0...6 {
      for x in 0..<(1 << z) {
        for y in 0..<(1 << z) {
          let id = TileID(z: z, x: x, y: y)
          #expect(try resumed.tile(id) == uninterrupted.tile(id), "\(id)")
        }
      }
    }
  }
}

/// Stored regions: `get --name`, `regions`, and the map drawing them without --tiles.
@Suite("termmap regions: stored cuts the map uses")
struct RegionsCLITests {
  @Test("get --name stores a region; regions lists it; render draws it with no --tiles; remove")
  func storedRegion() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-regions-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    // No embedded world: what the frame shows comes from the region alone.
    let env = ["XDG_DATA_HOME": home.path, "TERMMAP_DATA": "/nonexistent/termmap-data"]
    let view = [
      "render", "--center", "50,10", "--zoom", "5", "--size", "60x12", "--color", "never",
    ]
    let before = try termmap(view, environment: env)
    #expect(!before.stdout.contains("Frankfurt"))
    let get = try termmap(
      [
        "get", "--bbox", "5,45,16,55", "--maxzoom", "6", "--from",
        GetCLITests.world.path, "--name", "Mittel europa",
      ], environment: env)
    #expect(get.status == 0, "\(get.stderr)")
    let file = home.appendingPathComponent("termmap/regions/Mittel-europa.pmtiles").path
    #expect(get.stdout.contains("wrote \(file): 21 tiles"), "\(get.stdout)")
    let list = try termmap(["regions"], environment: env)
    #expect(list.status == 0)
    #expect(
      list.stdout.hasPrefix("Mittel-europa  5.0000,45.0000,16.0000,55.0000  z0-6  5"),
      "\(list.stdout)")
    #expect(list.stdout.contains(" kB  \(GetCLITests.world.path)  20"), "\(list.stdout)")
    let after = try termmap(view, environment: env)
    #expect(after.stdout.contains("Frankfurt am Main"), "\(after.stdout)")
    let unknown = try termmap(["regions", "remove", "nowhere"], environment: env)
    #expect(unknown.status == 2)
    #expect(unknown.stderr == "termmap: regions: no region nowhere (regions: Mittel-europa)\n")
    let removed = try termmap(["regions", "remove", "Mittel-europa"], environment: env)
    #expect(removed.stdout == "removed Mittel-europa\n")
    #expect(!FileManager.default.fileExists(atPath: file))
    let none = try termmap(["regions"], environment: env)
    #expect(none.stdout.hasPrefix("no regions in "))
  }

  @Test(
    "the Protomaps planet is the default --from, [get] from in config.toml replaces it; a bad [get] table is one line"
  )
  func configuredSource() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-getconf-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    try FileManager.default.createDirectory(
      at: home.appendingPathComponent("termmap"), withIntermediateDirectories: true)
    let config = home.appendingPathComponent("termmap/config.toml")
    let env = ["XDG_CONFIG_HOME": home.path, "XDG_DATA_HOME": home.path]
    // With neither, the Protomaps planet on Source Cooperative: asked for through a proxy
    // of the test's, which refuses the tunnel (no test reaches the internet).
    let proxy = try LoopbackHTTPServer { _ in .respond(status: 403) }
    defer { proxy.stop() }
    var proxied = env
    for name in ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY"] {
      proxied[name] = proxy.baseURL
    }
    proxied["no_proxy"] = ""
    proxied["NO_PROXY"] = ""
    let none = try termmap(["get", "Ljubljana", "--dry-run"], environment: proxied)
    #expect(none.status == 2)
    #expect(
      none.stderr.hasPrefix(
        "termmap: get: https://data.source.coop/protomaps/openstreetmap/v4.pmtiles: "),
      "\(none.stderr)")
    #expect(none.stderr.split(separator: "\n").count == 1, "\(none.stderr)")
    #expect(
      proxy.requests.map { "\($0.method) \($0.path)" } == ["CONNECT data.source.coop:443"],
      "\(proxy.requests)")
    try "[get]\nfrom = \"\(GetCLITests.world.path)\"\n".write(
      to: config, atomically: true, encoding: .utf8)
    let r = try termmap(["get", "Ljubljana", "--maxzoom", "6", "--dry-run"], environment: env)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("zooms 0-6 of \(GetCLITests.world.path)"), "\(r.stdout)")
    try "[get]\nform = \"x\"\n".write(to: config, atomically: true, encoding: .utf8)
    let bad = try termmap(["get", "Ljubljana", "--dry-run"], environment: env)
    #expect(bad.status == 2)
    #expect(bad.stderr == "termmap: config: \(config.path):2: get: unknown key \"form\"\n")
  }

  @Test("a place by name, typo and all: the area grows with it; stored under its name")
  func place() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-place-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let env = ["XDG_DATA_HOME": home.path]
    let from = ["--from", GetCLITests.world.path, "--maxzoom", "6"]
    let town = try termmap(["get", "ljublana"] + from + ["--dry-run"], environment: env)
    #expect(town.status == 0, "\(town.stderr)")
    #expect(
      town.stdout.hasPrefix(
        "Ljubljana, Slovenia (population 272220): 11.4 km around 46.0511,14.5051\n"
          + "region 14.35796,45.94894,14.65230,46.15322, zooms 0-6 of "), "\(town.stdout)")
    let capital = try termmap(["get", "Berlin, Germany"] + from + ["--dry-run"], environment: env)
    #expect(capital.stdout.hasPrefix("Berlin, Germany (population 3426354): 26.4 km around"))
    let stored = try termmap(["get", "Ljubljana"] + from, environment: env)
    #expect(stored.status == 0, "\(stored.stderr)")
    #expect(
      FileManager.default.fileExists(
        atPath: home.appendingPathComponent("termmap/regions/Ljubljana.pmtiles").path))
    let none = try termmap(["get", "Nowherevillexyz"] + from, environment: env)
    #expect(none.status == 2)
    #expect(
      none.stderr == "termmap: get: no place called Nowherevillexyz (try --bbox or --around)\n")
    let around = try termmap(
      ["get", "--around", "46.05,14.5", "--radius", "10"] + from + ["--dry-run"], environment: env)
    #expect(
      around.stdout.hasPrefix("region 14.37057,45.96017,14.62943,46.13983"), "\(around.stdout)")
  }

  @Test("get --name indexes the region's names beside it; regions counts them; remove removes them")
  func namesIndex() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-names-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let planet = home.appendingPathComponent("monaco-planet.pmtiles").path
    try MonacoArchive.write(to: planet)
    let env = ["XDG_DATA_HOME": home.path]
    let cut = ["get", "--bbox", "7.40,43.72,7.45,43.76", "--from", planet]
    let get = try termmap(cut + ["--name", "monaco"], environment: env)
    #expect(get.status == 0, "\(get.stderr)")
    let index = home.appendingPathComponent("termmap/regions/monaco.names.tsv.gz").path
    let said = get.stdout.split(separator: "\n").last.map(String.init) ?? ""
    #expect(said.hasPrefix("indexed "), "\(get.stdout)")
    #expect(said.contains(" names for / search: \(index), "), "\(said)")
    let count = try #require(Int(said.split(separator: " ")[1]), "\(said)")
    #expect(count > 500 && count < 2_000, "\(count)")
    let list = try termmap(["regions"], environment: env)
    #expect(list.stdout.hasSuffix("  \(count) names\n"), "\(list.stdout)")
    // A cut written elsewhere (--output) is not indexed: there is nothing beside it.
    let out = home.appendingPathComponent("elsewhere.pmtiles").path
    let other = try termmap(cut + ["--output", out], environment: env)
    #expect(other.status == 0 && !other.stdout.contains("indexed"), "\(other.stdout)")
    #expect(
      !FileManager.default.fileExists(
        atPath: home.appendingPathComponent("elsewhere.names.tsv.gz").path))
    // A broken index is said by regions, naming the file; the region itself is listed.
    let saved = try Data(contentsOf: URL(fileURLWithPath: index))
    try Data("junk".utf8).write(to: URL(fileURLWithPath: index))
    let broken = try termmap(["regions"], environment: env)
    #expect(broken.status == 2)
    #expect(
      broken.stderr
        == "termmap: regions: \(index): not a gzip file (corrupt compressed data: incorrect header check)\n",
      "\(broken.stderr)")
    #expect(broken.stdout.hasSuffix("  no names\n"), "\(broken.stdout)")
    try saved.write(to: URL(fileURLWithPath: index))
    let removed = try termmap(["regions", "remove", "monaco"], environment: env)
    #expect(removed.stdout == "removed monaco\n")
    #expect(!FileManager.default.fileExists(atPath: index))
  }
}

/// A city cut from a planet in miniature (Monaco and central Helsinki, zooms 0–15, Protomaps
/// layers, leaf directories), served by nginx: what a user of `termmap get` does.
@Suite("termmap get: a city from a planet over nginx")
struct GetCityCLITests {
  static let planet = repositoryRoot.appendingPathComponent(
    "Tests/CLITests/Fixtures/two-cities.pmtiles")
  static let helsinki = ["24.935", "60.164", "24.954", "60.180"].joined(separator: ",")

  /// nginx serving `archive` as `/planet.pmtiles` from `dir/site` (the test removes `dir`).
  static func serve(
    _ archive: URL = planet, in dir: URL, limitRate: Int? = nil
  ) throws -> Nginx {
    let site = dir.appendingPathComponent("site")
    try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: archive, to: site.appendingPathComponent("planet.pmtiles"))
    return try Nginx(serving: site, limitRate: limitRate)
  }

  /// A temporary folder of the test's.
  static func folder(_ prefix: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-\(prefix)-\(UUID().uuidString)")
  }

  /// The (z, x, y) of every tile of zooms 0–15 that meets the box.
  static func tiles(west: Double, south: Double, east: Double, north: Double) -> [TileID] {
    (0...15).flatMap { z -> [TileID] in
      let n = Double(1 << z)
      func x(_ lon: Double) -> Int { min(Int((lon + 180) / 360 * n), (1 << z) - 1) }
      func y(_ lat: Double) -> Int {
        let r = lat * .pi / 180
        return min(Int((1 - log(tan(r) + 1 / cos(r)) / .pi) / 2 * n), (1 << z) - 1)
      }
      return (x(west)...x(east)).flatMap { tx in
        (y(north)...y(south)).map { TileID(z: z, x: tx, y: $0) }
      }
    }
  }

  @Test(
    "Helsinki: the header and root, a request per run of leaves and per range; every tile as the source has it; at most 1.1 times its bytes; render draws its streets with no --tiles"
  )
  func city() throws {
    let dir = Self.folder("city")
    defer { try? FileManager.default.removeItem(at: dir) }
    let nginx = try Self.serve(in: dir)
    defer { nginx.stop() }
    let env = ["XDG_DATA_HOME": dir.path, "XDG_CONFIG_HOME": dir.path]
    let view = [
      "render", "--center", "60.1700,24.9440", "--zoom", "14", "--size", "80x24", "--color",
      "never",
    ]
    // The embedded world alone: no streets, no district names.
    let before = try termmap(view, environment: env)
    #expect(before.status == 0, "\(before.stderr)")
    #expect(!before.stdout.contains("Kluuvi"), "\(before.stdout)")
    let get = [
      "get", "--bbox", Self.helsinki, "--from", nginx.baseURL + "/planet.pmtiles", "--name",
      "helsinki",
    ]
    let dry = try termmap(get + ["--dry-run"], environment: env)
    #expect(dry.status == 0, "\(dry.stderr)")
    let summary = try #require(dry.stdout.split(separator: "\n").last.map(String.init))
    // "28 tiles, …; … in 10 ranges; 14 requests in all (4 for directories)"
    let words = summary.split(separator: " ")
    let ranges = try #require(words.firstIndex(of: "ranges;").flatMap { Int(words[$0 - 1]) })
    let requests = try #require(words.firstIndex(of: "requests").flatMap { Int(words[$0 - 1]) })
    let directories = try #require(
      words.firstIndex(of: "directories)").flatMap { Int(words[$0 - 2].dropFirst()) })
    #expect(requests == directories + ranges)
    // The header and root, then the leaves: 4 of the archive's 8 leaves, in 3 runs.
    #expect(directories == 4, "\(summary)")
    // Every line of the dry run's (nginx has closed its connections), not those there yet.
    let start = nginx.settledAccessLog().count
    #expect(start == directories, "\(nginx.accessLog)")
    let r = try termmap(get, environment: env)
    #expect(r.status == 0, "\(r.stderr)")
    let log = Array(nginx.settledAccessLog().dropFirst(start))
    #expect(log.count == requests, "\(log)")
    #expect(log.allSatisfy { $0.split(separator: " ")[2] == "206" }, "\(log)")
    let file = dir.appendingPathComponent("termmap/regions/helsinki.pmtiles").path
    let cut = try PMTilesSource(path: file)
    let source = try PMTilesSource(path: Self.planet.path)
    // Directory reads come first, one at a time; the rest are the tiles' ranges.
    let fetched = Nginx.bodyBytes(log.dropFirst(directories))
    #expect(
      Double(fetched) <= 1.1 * Double(cut.header.tileDataLength),
      "\(fetched) bytes for \(cut.header.tileDataLength)")
    // Every tile that meets the box, byte for byte; nothing of Monaco's below zoom 4.
    var kept = 0
    for id in Self.tiles(west: 24.935, south: 60.164, east: 24.954, north: 60.180) {
      let want = try source.tile(id)
      #expect(try cut.tile(id) == want, "\(id)")
      if want != nil { kept += 1 }
    }
    #expect(UInt64(kept) == cut.header.addressedTilesCount)
    #expect(try cut.tile(TileID(z: 14, x: 8529, y: 5974)) == nil)
    #expect(try source.tile(TileID(z: 14, x: 8529, y: 5974)) != nil)
    // The region is drawn without --tiles: district names and streets.
    let after = try termmap(view, environment: env)
    #expect(after.status == 0, "\(after.stderr)")
    #expect(after.stdout.contains("Kluuvi"), "\(after.stdout)")
    #expect(inkedCells(after.stdout) > inkedCells(before.stdout) + 500, "\(after.stdout)")
  }
}

/// A city cut whose line goes down mid-transfer, through a proxy in front of nginx.
@Suite("termmap get: a city cut interrupted by a dropped line")
struct GetCityResumeCLITests {
  @Test(
    "Monaco: the line drops after 45 % of the bytes; exit 2; the next run resumes, fetches at most 10 % of the archive again and writes the same archive"
  )
  func resume() throws {
    let dir = GetCityCLITests.folder("cityresume")
    defer { try? FileManager.default.removeItem(at: dir) }
    let nginx = try GetCityCLITests.serve(in: dir)
    defer { nginx.stop() }
    let monaco = ["get", "--bbox", "7.40,43.72,7.44,43.76"]
    // Uninterrupted, straight from nginx: what a cut costs.
    let whole = dir.appendingPathComponent("whole.pmtiles").path
    let first = try termmap(
      monaco + ["--from", nginx.baseURL + "/planet.pmtiles", "--output", whole])
    #expect(first.status == 0, "\(first.stderr)")
    // What nginx sent once it has closed the run's connections (every line written; read at
    // once, a loaded machine's log lacked lines and the clean cut looked cheaper).
    let cleanLog = nginx.settledAccessLog()
    let clean = Nginx.bodyBytes(cleanLog)
    let cleanRequests = cleanLog.count
    // Through a line that drops after 45 % of that.
    let proxy = try CuttingProxy(to: nginx.port, cutAfter: clean * 45 / 100)
    defer { proxy.stop() }
    let out = dir.appendingPathComponent("monaco.pmtiles").path
    let args =
      monaco + ["--from", "http://127.0.0.1:\(proxy.port)/planet.pmtiles", "--output", out]
    let cut = try termmap(args)
    #expect(cut.status == 2)
    #expect(cut.stderr.contains("ranges kept: the same command continues"), "\(cut.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out))
    proxy.restore()
    let resumed = try termmap(args)
    #expect(resumed.status == 0, "\(resumed.stderr)")
    #expect(resumed.stdout.contains("resuming: "), "\(resumed.stdout)")
    // What the server sent for both runs, past what one uninterrupted cut needs.
    let log = nginx.settledAccessLog()
    let again = Nginx.bodyBytes(log.dropFirst(cleanRequests)) - clean
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int)
    #expect(again >= 0 && again * 10 <= size, "\(again) bytes again for an archive of \(size)")
    // The same archive, tile for tile (the metadata's fetch times differ).
    let a = try PMTilesSource(path: out)
    let b = try PMTilesSource(path: whole)
    #expect(a.header.tileDataLength == b.header.tileDataLength)
    #expect(a.header.addressedTilesCount == b.header.addressedTilesCount)
    var compared = 0
    for id in GetCityCLITests.tiles(west: 7.40, south: 43.72, east: 7.44, north: 43.76) {
      let tile = try b.tile(id)
      #expect(try a.tile(id) == tile, "\(id)")
      if tile != nil { compared += 1 }
    }
    #expect(compared == 51)
  }
}

@Suite("termmap bench get-city")
struct GetBenchCLITests {
  @Test("reports the cut's tiles, bytes and requests next to the floor of its round trips")
  func getCity() throws {
    let r = try termmap(["bench", "--only", "get-city", "--quick"])
    #expect(r.status == 0, "\(r.stderr)")
    let line = try #require(
      r.stderr.split(separator: "\n").first { $0.hasPrefix("get-city ") }, "\(r.stderr)")
    // Zooms 0–14 of central Berlin from the generated planet: the same plan every run.
    #expect(line.contains(" 153 tiles, "), "\(line)")
    #expect(line.contains(" requests (1 directory); floor "), "\(line)")
    #expect(line.contains(" x 50 ms + bytes at "), "\(line)")
  }
}

/// What stops a cut before it is done: a full disk, a download too big to start unasked.
@Suite("termmap get: a full disk, and asking before 500 MB", .serialized)
struct GetLimitsCLITests {
  @Test(
    "the disk fills (a file size limit: writes fail as on a full disk): one line, exit 2, what was stored kept; with room again the same command finishes"
  )
  func fullDisk() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-fulldisk-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("monaco.pmtiles").path
    let args = [
      "get", "--bbox", "7.40,43.72,7.44,43.76", "--from", GetCityCLITests.planet.path,
      "--output", out,
    ]
    let quoted = ([termmapBinary.path] + args).map { "'\($0)'" }.joined(separator: " ")
    let err = dir.appendingPathComponent("err").path
    let status = dir.appendingPathComponent("status").path
    // dash's ulimit -f counts 512-byte blocks: 128 KiB, a third of the cut.
    let script = "(ulimit -f 256; exec \(quoted)) >/dev/null 2>'\(err)'; echo $? >'\(status)'"
    _ = try ChildProcess.run(["/bin/sh", "-c", script])
    let code = try String(contentsOfFile: status, encoding: .utf8)
    #expect(code == "2\n", "\(code)")
    // Progress lines (no terminal), then the one line that says why it stopped.
    let text = try String(contentsOfFile: err, encoding: .utf8)
    let message = String(text.split(separator: "\n").last ?? "")
    #expect(message.hasPrefix("termmap: get: "), "\(text)")
    #expect(text.split(separator: "\n").filter { $0.hasPrefix("termmap:") }.count == 1)
    #expect(
      message.contains("monaco.pmtiles.part: cannot be written: File too large"), "\(message)")
    #expect(message.contains("ranges kept: the same command continues"), "\(message)")
    #expect(!FileManager.default.fileExists(atPath: out))
    let again = try termmap(args)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("resuming: "), "\(again.stdout)")
    let cut = try PMTilesSource(path: out)
    let source = try PMTilesSource(path: GetCityCLITests.planet.path)
    for id in GetCityCLITests.tiles(west: 7.40, south: 43.72, east: 7.44, north: 43.76) {
      #expect(try cut.tile(id) == source.tile(id), "\(id)")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
    #expect(left == ["err", "monaco.pmtiles", "status"], "\(left)")
  }

  /// An archive that claims one 600 MB tile at zoom 0: a sparse file, nothing on disk.
  static func bigArchive(_ path: String) throws {
    let root = PMTiles.encodeDirectory([
      PMTiles.Entry(tileID: 0, offset: 0, length: 600_000_000, runLength: 1)
    ])
    var h = PMTiles.Header(
      tileType: .mvt, tileCompression: .gzip, minZoom: 0, maxZoom: 0, west: -180, south: -85,
      east: 180, north: 85)
    h.internalCompressionCode = PMTiles.Compression.none.rawValue
    h.rootOffset = 127
    h.rootLength = UInt64(root.count)
    h.metadataOffset = h.rootOffset + h.rootLength
    h.metadataLength = 2
    h.leafDirectoryOffset = h.metadataOffset + 2
    h.tileDataOffset = h.leafDirectoryOffset
    h.tileDataLength = 600_000_000
    (h.addressedTilesCount, h.tileEntriesCount, h.tileContentsCount) = (1, 1, 1)
    let bytes = h.encoded() + root + Array("{}".utf8)
    #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
    #expect(truncate(path, off_t(h.tileDataOffset + h.tileDataLength)) == 0)
  }

  @Test(
    "over 500 MB: a terminal is asked first (no: exit 1, nothing written); elsewhere it needs --yes"
  )
  func asksFirst() throws {
    let tmux = try LiveTmux()
    let big = tmux.file("big.pmtiles")
    try Self.bigArchive(big)
    let out = tmux.file("cut.pmtiles")
    let args = ["get", "--bbox", "-10,-10,10,10", "--from", big, "--output", out]
    let dry = try termmap(args + ["--dry-run"])
    #expect(dry.status == 0, "\(dry.stderr)")
    #expect(dry.stdout.contains("600.0 MB to fetch in "), "\(dry.stdout)")
    let piped = try termmap(args)
    #expect(piped.status == 2)
    #expect(
      piped.stderr
        == "termmap: get: 600.0 MB to download: add --yes to go ahead without a terminal\n",
      "\(piped.stderr)")
    let command = ([termmapBinary.path] + args).map { "'\($0)'" }.joined(separator: " ")
    try tmux.start("\(command); echo \"status $?\"")
    let asked = try tmux.waitFor(timeout: 60) {
      $0.contains { $0.contains("Download 600.0 MB? [y/N]") }
    }
    #expect(asked.ok, "\(asked.screen)")
    try tmux.type("n\r")
    let answered = try tmux.waitFor(timeout: 60) { $0.contains("status 1") }
    #expect(answered.ok, "\(answered.screen)")
    #expect(!FileManager.default.fileExists(atPath: out))
    #expect(!FileManager.default.fileExists(atPath: out + ".part"))
  }
}

/// The viewer's `D` key: the region on screen downloaded through `termmap get`'s machinery.
@Suite("the viewer's D key downloads the region on screen", .serialized)
struct ViewerDownloadCLITests {
  /// nginx serving the planet in miniature as `[get] from`, and the viewer over Helsinki at
  /// zoom 14 in `tmux`; returns nginx and the data home (the regions are below it).
  static func start(_ tmux: LiveTmux, limitRate: Int? = nil) throws -> (Nginx, String) {
    let nginx = try GetCityCLITests.serve(in: tmux.directory, limitRate: limitRate)
    let config = tmux.file("config")
    try FileManager.default.createDirectory(
      atPath: config + "/termmap", withIntermediateDirectories: true)
    try "[get]\nfrom = \"\(nginx.baseURL)/planet.pmtiles\"\n".write(
      toFile: config + "/termmap/config.toml", atomically: true, encoding: .utf8)
    let data = tmux.file("data")
    try tmux.start(
      "XDG_CONFIG_HOME='\(config)' XDG_DATA_HOME='\(data)' '\(termmapBinary.path)' --center 60.1700,24.9440 --zoom 14"
    )
    return (nginx, data)
  }

  /// Braille cells with dots on the screen, the status line left out.
  static func inked(_ screen: [String]) -> Int { inkedCells(screen.dropLast().joined()) }

  @Test(
    "over Helsinki at zoom 14: the status line names D; D downloads from [get] from over nginx, says so, stores the region and draws its streets"
  )
  func downloadKey() throws {
    let tmux = try LiveTmux()
    let (nginx, data) = try Self.start(tmux)
    defer { nginx.stop() }
    let bare = try tmux.waitFor(timeout: 60) {
      $0.last?.contains("no map data: D or termmap get") == true
    }
    #expect(bare.ok, "\(bare.screen)")
    try tmux.type("D")
    let done = try tmux.waitFor(timeout: 120) {
      $0.last?.contains("view-60.1700N-24.9440E: 22 tiles") == true
    }
    #expect(done.ok, "\(done.screen)")
    #expect(
      FileManager.default.fileExists(
        atPath: data + "/termmap/regions/view-60.1700N-24.9440E.pmtiles"))
    // The viewer keeps its connections: wait for lines (written after their answers), not
    // for nginx to be done with them.
    let served = nginx.waitForAccessLog { !$0.isEmpty }
    #expect(!served.isEmpty && served.allSatisfy { $0.contains(" 206 ") }, "\(served)")
    let drawn = try tmux.waitFor(timeout: 60) { Self.inked($0) > Self.inked(bare.screen) + 500 }
    #expect(drawn.ok, "\(drawn.screen)")
    #expect(!drawn.screen.contains { $0.contains("no map data") }, "\(drawn.screen)")
    // Its names are indexed beside it and `/` finds them, typo and all.
    #expect(
      FileManager.default.fileExists(
        atPath: data + "/termmap/regions/view-60.1700N-24.9440E.names.tsv.gz"))
    try tmux.type("/aleksanterinktu")
    let found = try tmux.waitFor(timeout: 60) {
      $0.contains { $0.contains("Aleksanterinkatu (street, view-60.1700N-24.9440E)") }
    }
    #expect(found.ok, "\(found.screen.suffix(4).joined(separator: "\n"))")
    try tmux.type("\u{1B}")
    try tmux.type("q")
    let quit = try tmux.waitFor(timeout: 30) { _ in !tmux.isRunning }
    #expect(quit.ok)
  }

  @Test(
    "from a slow server (4 kB/s an answer): the map fills in while the status line still counts the download"
  )
  func fillsIn() throws {
    let tmux = try LiveTmux()
    let (nginx, data) = try Self.start(tmux, limitRate: 4096)
    defer { nginx.stop() }
    let bare = try tmux.waitFor(timeout: 60) { $0.last?.contains("no map data") == true }
    #expect(bare.ok, "\(bare.screen)")
    try tmux.type("D")
    // Drawn while the download still runs: the status line shows its share below 100 %.
    let filling = try tmux.waitFor(timeout: 120) {
      Self.inked($0) > Self.inked(bare.screen) + 500
        && $0.last?.contains("⤓ view-60.1700N-24.9440E ") == true
    }
    #expect(filling.ok, "\(filling.screen)")
    let file = data + "/termmap/regions/view-60.1700N-24.9440E.pmtiles"
    let done = try tmux.waitFor(timeout: 180) { _ in
      FileManager.default.fileExists(atPath: file)
    }
    #expect(done.ok, "\(done.screen)")
    try tmux.type("q")
  }
}
