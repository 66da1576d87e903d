import Foundation
import MapGeometry
import RegionFixtures
import Testing
import TileData

@testable import MapTiles

/// The names index `termmap get` writes beside a stored region, from real Monaco tiles in the
/// three schemas, and from hostile tiles.
@Suite("region names: the index of a region's streets, places and POIs")
struct RegionNamesTests {
  func folder() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-names-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  @Test(
    "Monaco in each schema: its streets, places and POIs, each street once, read back whole",
    arguments: [
      ("protomaps", MonacoArchive.protomaps), ("openmaptiles", MonacoArchive.openMapTiles),
      ("shortbread", MonacoArchive.shortbread),
    ])
  func monaco(schema: String, mbtiles: String) throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let archive = dir.appendingPathComponent("monaco.pmtiles")
    try MonacoArchive.write(mbtiles: mbtiles, to: archive.path)
    let names = try RegionNames.index(archive: archive.path)
    #expect(names.region == "monaco")
    #expect(!names.truncated && names.unreadableTiles == 0)
    #expect(names.entries.count > 500, "\(names.entries.count)")
    func entries(_ name: String) -> [RegionNames.Entry] {
      names.entries.filter { $0.name == name }
    }
    // Streets cut by tile edges into pieces are one entry each, where the street is.
    for street in ["Boulevard Albert 1er", "Avenue Princesse Grace", "Rue Grimaldi"] {
      let found = entries(street).filter { $0.category == .street }
      #expect(found.count == 1, "\(street): \(found)")
      if let c = found.first?.coordinate {
        #expect(abs(c.latitude - 43.737) < 0.012 && abs(c.longitude - 7.424) < 0.015, "\(c)")
      }
    }
    #expect(entries("Boulevard Albert 1er").first?.kind == "street")
    #expect(names.entries.contains { $0.category == .place })
    #expect(names.entries.contains { $0.category == .poi && $0.kind == "restaurant" })
    // House numbers are not names.
    #expect(!names.entries.contains { $0.name == "2" })
    // The sidecar beside the archive reads back as written.
    let file = RegionNames.file(forArchive: archive)
    #expect(file.lastPathComponent == "monaco.names.tsv.gz")
    try names.write(to: file)
    let back = try #require(try RegionNames.read(file, region: "monaco"))
    #expect(back.entries.count == names.entries.count)
    #expect(back.entries == names.entries, "read back differs")
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)
    #expect(size.intValue < 40_000, "\(size)")
  }

  @Test("other languages: Protomaps' name:en is an other name of the entry")
  func otherNames() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let archive = dir.appendingPathComponent("monaco.pmtiles")
    try MonacoArchive.write(mbtiles: MonacoArchive.protomaps, to: archive.path)
    let names = try RegionNames.index(archive: archive.path)
    let hospital = try #require(
      names.entries.first { $0.name == "Centre hospitalier Princesse Grace" })
    #expect(hospital.otherNames == ["Princess Grace Hospital"])
    #expect(hospital.kind == "hospital")
  }

  @Test(
    "one name: pieces of a street within reach are one entry; the same name in another town is another"
  )
  func clusters() {
    var c = NameCollector(limits: .standard)
    let a = Coordinate(latitude: 46.05, longitude: 14.50)
    // A street 3 km long, met in tile after tile every 500 m.
    for i in 0...6 {
      c.add(
        name: "Main Street", others: [], category: .street, kind: "street",
        at: Coordinate(latitude: a.latitude, longitude: a.longitude + Double(i) * 0.0065))
    }
    c.add(
      name: "Main Street", others: [], category: .street, kind: "street",
      at: Coordinate(latitude: 46.30, longitude: 14.50))
    // The same name as a bus stop is a name of another kind.
    c.add(name: "Main Street", others: [], category: .poi, kind: "bus stop", at: a)
    let entries = c.entries()
    #expect(entries.filter { $0.category == .street }.count == 2, "\(entries)")
    #expect(entries.count == 3)
    // The entry is a point of the street near its middle, not an end.
    let street = entries.first { $0.category == .street && $0.coordinate.latitude < 46.1 }
    #expect(abs((street?.coordinate.longitude ?? 0) - 14.5195) < 0.004, "\(entries)")
  }

  @Test("a chain of nearby names never spans more than 25 km")
  func span() {
    var c = NameCollector(limits: .standard)
    for i in 0..<100 {
      c.add(
        name: "Road", others: [], category: .street, kind: "street",
        at: Coordinate(latitude: 46, longitude: 14 + Double(i) * 0.01))
    }
    let entries = c.entries()
    #expect(entries.count >= 3 && entries.count <= 6, "\(entries.count)")
  }

  @Test("hostile tiles: huge names, thousands of names, hundreds of other names, escapes")
  func hostile() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let archive = dir.appendingPathComponent("hostile.pmtiles")
    try HostileTiles.write(to: archive.path)
    var small = RegionNames.Limits()
    small.entries = 1_000
    small.bytes = 64 << 10
    let bounded = try RegionNames.index(archive: archive.path, limits: small)
    #expect(bounded.truncated)
    #expect(bounded.entries.count <= 1_000)
    let text = bounded.text()
    #expect(text.utf8.count <= 64 << 10 + 2_000, "\(text.utf8.count)")
    let names = try RegionNames.index(archive: archive.path)
    #expect(names.entries.count > 1_000, "\(names.entries.count)")
    #expect(names.entries.count <= RegionNames.Limits.standard.entries)
    for e in names.entries {
      #expect(e.name.utf8.count <= 160)
      #expect(e.otherNames.count <= 6)
      #expect(!e.name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    }
    #expect(!names.entries.contains { $0.name.hasPrefix("xxxxxxxx") })
    #expect(names.entries.contains { $0.name == "[31mRed Street" })
    let file = dir.appendingPathComponent("hostile.names.tsv.gz")
    try names.write(to: file)
    let size = try #require(
      try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)
    #expect(size.intValue < 2 << 20, "\(size)")
    let back = try RegionNames.read(file, region: "hostile")?.entries
    #expect(back?.count == names.entries.count)
    #expect(back == names.entries, "read back differs")
  }

  @Test("an index that is not one: one line naming the file (and the line); none: nil")
  func badIndex() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("x.names.tsv.gz")
    #expect(try RegionNames.read(file, region: "x") == nil)
    try Data("plain text".utf8).write(to: file)
    #expect(throws: RegionNamesError.self) { try RegionNames.read(file, region: "x") }
    do {
      _ = try RegionNames.read(file, region: "x")
    } catch {
      #expect(error.description.hasPrefix("\(file.path): not a gzip file"), "\(error)")
    }
    try Deflate.gzip(Data("termmap-names 1\nstreet\tstreet\t95\t7\tRue\n".utf8)).write(to: file)
    do {
      _ = try RegionNames.read(file, region: "x")
      Issue.record("read a latitude of 95")
    } catch {
      #expect(error.description == "\(file.path):2: not a latitude and longitude")
    }
    try Deflate.gzip(Data("something else\n".utf8)).write(to: file)
    do {
      _ = try RegionNames.read(file, region: "x")
      Issue.record("read another file")
    } catch {
      #expect(error.description == "\(file.path):1: not a termmap names index")
    }
  }
}

/// An archive of one zoom-14 tile whose layers are built to blow an index up.
enum HostileTiles {
  /// A layer whose features each have a name (and other names) and a point.
  static func layer(_ name: String, features: [(name: String, others: [String])]) -> [UInt8] {
    var keys: [String] = ["name"]
    var values: [String] = []
    var w = ProtoWriter()
    w.key(15, 0)
    w.varint(2)
    w.bytesField(1, Array(name.utf8))
    for (i, f) in features.enumerated() {
      var tags: [UInt32] = []
      values.append(f.name)
      tags += [0, UInt32(values.count - 1)]
      for (k, o) in f.others.enumerated() {
        let key = "name:x\(k)"
        let ki =
          keys.firstIndex(of: key)
          ?? {
            keys.append(key)
            return keys.count - 1
          }()
        values.append(o)
        tags += [UInt32(ki), UInt32(values.count - 1)]
      }
      var fw = ProtoWriter()
      fw.packedField(2, tags)
      fw.key(3, 0)
      fw.varint(1)
      let x = UInt32((i * 37) % 4096)
      let y = UInt32((i * 91) % 4096)
      fw.packedField(4, [9, x << 1, y << 1])
      w.bytesField(2, fw.bytes)
    }
    for k in keys { w.bytesField(3, Array(k.utf8)) }
    for v in values {
      var vw = ProtoWriter()
      vw.bytesField(1, Array(v.utf8))
      w.bytesField(4, vw.bytes)
    }
    return w.bytes
  }

  static func write(to path: String) throws {
    var header = try PMTilesSource(
      path: MonacoArchive.repositoryRoot.appendingPathComponent("Data/world.pmtiles").path
    ).header
    header.minZoom = 14
    header.maxZoom = 14
    // Four zoom-14 tiles' worth of Ljubljana.
    header.minLonE7 = 145_000_000
    header.maxLonE7 = 145_400_000
    header.minLatE7 = 460_400_000
    header.maxLatE7 = 460_600_000
    let writer = try PMTilesWriter(path: path, header: header, metadata: Data("{}".utf8))
    var ids: [UInt64] = []
    let n = 1 << 14
    let x0 = Int(floor((14.5 + 180) / 360 * Double(n)))
    let lat = 46.05 * Double.pi / 180
    let y0 = Int(floor((1 - log(tan(lat) + 1 / cos(lat)) / .pi) / 2 * Double(n)))
    for dx in 0..<2 {
      for dy in 0..<2 {
        if let id = PMTiles.tileID(TileID(z: 14, x: x0 + dx, y: y0 + dy)) { ids.append(id) }
      }
    }
    for (t, id) in ids.sorted().enumerated() {
      var tile = ProtoWriter()
      // Names too long to keep; a name with an escape sequence; 20,000 distinct names with
      // 300 other names each in the first tile.
      tile.bytesField(
        3,
        layer(
          "roads",
          features: [
            (String(repeating: "x", count: 100_000), []),
            ("\u{1B}[31mRed Street", ["\u{1B}]0;title\u{07}"]),
          ]))
      let many = (0..<(t == 0 ? 20_000 : 10)).map { i in
        ("Name \(t) \(i)", i < 50 ? (0..<300).map { "Other \(i) \($0)" } : [])
      }
      tile.bytesField(3, layer("pois", features: many))
      try writer.add(tileID: id, data: Data(tile.bytes))
    }
    _ = try writer.finish()
  }
}
