import CSQLite
import Foundation
import MapGeometry
import TileData

/// The repository's offline world (`Data/world.pmtiles`) as an MBTiles file, for the tests that
/// need the world in that format: the repository ships it only as PMTiles. Made once per test
/// process in the temporary directory: every tile byte for byte (in the TMS row order MBTiles
/// uses) and a metadata row for each string in the archive's metadata JSON (the rows
/// tippecanoe wrote), with `vector_layers` and `tilestats` in the `json` row.
public enum WorldMBTiles {
  /// The repository's `Data/` folder.
  public static let dataDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Data")

  /// `Data/world.pmtiles`.
  public static var pmtilesPath: String {
    dataDirectory.appendingPathComponent("world.pmtiles").path
  }

  /// The MBTiles copy (made on first use; a failure to make it stops the test process).
  public static let path: String = {
    do {
      return try make()
    } catch {
      fatalError("could not write the world as MBTiles: \(error)")
    }
  }()

  private struct SQLiteError: Error, CustomStringConvertible {
    var description: String
  }

  private static func make() throws -> String {
    let source = try PMTilesSource(path: pmtilesPath)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-world-mbtiles-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let out = dir.appendingPathComponent("world.mbtiles").path
    var db: OpaquePointer?
    guard sqlite3_open(out, &db) == SQLITE_OK, let db else {
      throw SQLiteError(description: "cannot create \(out)")
    }
    defer { sqlite3_close(db) }
    func exec(_ sql: String) throws {
      guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
        throw SQLiteError(description: String(cString: sqlite3_errmsg(db)))
      }
    }
    func insert(_ sql: String, _ bind: (OpaquePointer) -> Void) throws {
      var stmt: OpaquePointer?
      guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
        throw SQLiteError(description: String(cString: sqlite3_errmsg(db)))
      }
      defer { sqlite3_finalize(stmt) }
      bind(stmt)
      guard sqlite3_step(stmt) == SQLITE_DONE else {
        throw SQLiteError(description: String(cString: sqlite3_errmsg(db)))
      }
    }
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    try exec(
      """
      BEGIN;
      CREATE TABLE metadata (name text, value text);
      CREATE UNIQUE INDEX name ON metadata (name);
      CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer,
        tile_data blob);
      CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
      """)
    let meta =
      (try JSONSerialization.jsonObject(with: source.metadataJSON) as? [String: Any]) ?? [:]
    var json: [String: Any] = [:]
    for (key, value) in meta.sorted(by: { $0.key < $1.key }) {
      guard let text = value as? String else {
        json[key] = value
        continue
      }
      try insert("INSERT INTO metadata (name, value) VALUES (?, ?)") { s in
        sqlite3_bind_text(s, 1, key, -1, transient)
        sqlite3_bind_text(s, 2, text, -1, transient)
      }
    }
    if !json.isEmpty {
      let text = String(
        decoding: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]),
        as: UTF8.self)
      try insert("INSERT INTO metadata (name, value) VALUES ('json', ?)") { s in
        sqlite3_bind_text(s, 1, text, -1, transient)
      }
    }
    for z in source.minZoom...source.maxZoom {
      let n = 1 << z
      for x in 0..<n {
        for y in 0..<n {
          guard let data = try source.tile(TileID(z: z, x: x, y: y)) else { continue }
          try insert("INSERT INTO tiles VALUES (?, ?, ?, ?)") { s in
            sqlite3_bind_int(s, 1, Int32(z))
            sqlite3_bind_int(s, 2, Int32(x))
            sqlite3_bind_int(s, 3, Int32(n - 1 - y))
            _ = data.withUnsafeBytes { b in
              sqlite3_bind_blob(s, 4, b.baseAddress, Int32(b.count), transient)
            }
          }
        }
      }
    }
    try exec("COMMIT")
    return out
  }
}
