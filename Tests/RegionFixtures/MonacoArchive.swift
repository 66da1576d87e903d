import Foundation
import MapGeometry
import TileData

/// A PMTiles archive of Monaco for tests of `termmap get` and of region names: the tiles of an
/// MBTiles fixture (OpenStreetMap's Monaco, zooms 10–14) rewritten with the project's own
/// PMTiles writer, so a region can be cut from a local file.
public enum MonacoArchive {
  /// The repository's root.
  public static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The OpenMapTiles Monaco (`Data/monaco.mbtiles`).
  public static var openMapTiles: String {
    repositoryRoot.appendingPathComponent("Data/monaco.mbtiles").path
  }

  /// The Protomaps basemap v4 Monaco.
  public static var protomaps: String {
    repositoryRoot.appendingPathComponent("Tests/MapTilesTests/Fixtures/monaco-protomaps.mbtiles")
      .path
  }

  /// The Shortbread Monaco.
  public static var shortbread: String {
    repositoryRoot.appendingPathComponent(
      "Tests/MapTilesTests/Fixtures/monaco-shortbread.mbtiles"
    ).path
  }

  /// Writes the MBTiles file's tiles to `path` as a PMTiles archive with its bounds, zooms and
  /// layer metadata.
  public static func write(mbtiles: String = protomaps, to path: String) throws {
    let source = try MBTilesSource(path: mbtiles)
    var header = try PMTilesSource(
      path: repositoryRoot.appendingPathComponent("Data/world.pmtiles").path
    ).header
    let parts = (source.metadata["bounds"] ?? "").split(separator: ",").compactMap {
      Double($0)
    }
    guard parts.count == 4 else { throw CocoaError(.fileReadCorruptFile) }
    func e7(_ v: Double) -> Int32 { Int32((v * 10_000_000).rounded()) }
    header.minZoom = UInt8(source.minZoom)
    header.maxZoom = UInt8(source.maxZoom)
    header.minLonE7 = e7(parts[0])
    header.minLatE7 = e7(parts[1])
    header.maxLonE7 = e7(parts[2])
    header.maxLatE7 = e7(parts[3])
    header.centerLonE7 = e7((parts[0] + parts[2]) / 2)
    header.centerLatE7 = e7((parts[1] + parts[3]) / 2)
    header.centerZoom = UInt8(source.maxZoom - 2)
    var meta: [String: Any] = ["attribution": source.attribution, "name": source.name]
    if let json = source.metadata["json"],
      let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    {
      meta.merge(object) { a, _ in a }
    }
    let writer = try PMTilesWriter(
      path: path, header: header,
      metadata: try JSONSerialization.data(withJSONObject: meta, options: [.sortedKeys]))
    var ids: [(UInt64, TileID)] = []
    for z in source.minZoom...source.maxZoom {
      let n = 1 << z
      func x(_ lon: Double) -> Int { Int(floor((lon + 180) / 360 * Double(n))) }
      func y(_ lat: Double) -> Int {
        let l = lat * .pi / 180
        return Int(floor((1 - log(tan(l) + 1 / cos(l)) / .pi) / 2 * Double(n)))
      }
      for tx in x(parts[0])...x(parts[2]) {
        for ty in y(parts[3])...y(parts[1]) {
          let id = TileID(z: z, x: tx, y: ty)
          if let n = PMTiles.tileID(id) { ids.append((n, id)) }
        }
      }
    }
    ids.sort { $0.0 < $1.0 }
    for (n, id) in ids {
      if let data = try source.tile(id) { try writer.add(tileID: n, data: data) }
    }
    _ = try writer.finish()
  }
}
