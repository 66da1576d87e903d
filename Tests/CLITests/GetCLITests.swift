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
    let before = nginx.accessLog.count
    let r = try termmap(args)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("wrote \(out): 21 tiles"), "\(r.stdout)")
    let log = nginx.accessLog.dropFirst(before)
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
    let dots = without.stdout.unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }
    #expect(dots.count > 50)
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
    let served = Counter()
    let failing = Mutex(true)
    let server = try LoopbackHTTPServer { request in
      guard let range = request.headers["range"], range.hasPrefix("bytes="),
        case let ends = range.dropFirst(6).split(separator: "-").compactMap({ Int($0) }),
        ends.count == 2
      else { return .respond(status: 400) }
      // The first read (header and root), then three ranges; then the line goes down.
      if failing.withLock({ $0 }), served.next() >= 4 { return .close }
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
    let before = server.requests.count
    let second = try termmap(args)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(second.stdout.contains("resuming: 3 of \(ranges) ranges already fetched"))
    // The header read, then only the ranges not yet fetched.
    #expect(server.requests.count - before == 1 + ranges - 3)
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
      list.stdout.hasPrefix("Mittel-europa  5.0000,45.0000,16.0000,55.0000  z0-6  4"),
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

  @Test("[get] from in config.toml is the default --from; a bad [get] table is one line")
  func configuredSource() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-getconf-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    try FileManager.default.createDirectory(
      at: home.appendingPathComponent("termmap"), withIntermediateDirectories: true)
    let config = home.appendingPathComponent("termmap/config.toml")
    let env = ["XDG_CONFIG_HOME": home.path, "XDG_DATA_HOME": home.path]
    let none = try termmap(["get", "Ljubljana", "--dry-run"], environment: env)
    #expect(none.status == 2)
    #expect(none.stderr.contains("--from SOURCE is needed"), "\(none.stderr)")
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
