import CSQLite
import Foundation
import MapGeometry
import Testing

@testable import TileData

/// Creates an SQLite file by running `sql` (for malformed MBTiles).
func makeDatabase(at path: String, _ sql: String) throws {
  var db: OpaquePointer?
  try #require(sqlite3_open(path, &db) == SQLITE_OK)
  defer { sqlite3_close(db) }
  try #require(sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK)
}

@Suite struct MBTilesTests {
  @Test func worldMetadata() throws {
    let world = try MBTilesSource(path: Repo.worldMBTiles)
    #expect(world.name == "termmap world")
    #expect(world.minZoom == 0)
    #expect(world.maxZoom == 8)
    #expect(world.format == .pbf)
    #expect(world.attribution.contains("Natural Earth"))
    #expect(world.attribution.contains("GeoNames"))
    #expect(
      world.vectorLayers == ["boundary", "coastline", "landuse", "place", "water", "waterway"])
    let bounds = try #require(world.bounds)
    // -180,-85.051129,180,85.0511: the whole world square, to a few map points.
    #expect(abs(bounds.minX) < 1)
    #expect(abs(bounds.maxX - MapSize.world.width) < 1)
    #expect(abs(bounds.minY) < 1000)
    #expect(abs(bounds.maxY - MapSize.world.height) < 1000)
    #expect(try world.tileCount() == 24789)
  }

  @Test func monacoMetadata() throws {
    let monaco = try MBTilesSource(path: Repo.monacoMBTiles)
    #expect(monaco.minZoom == 10)
    #expect(monaco.maxZoom == 14)
    #expect(monaco.attribution == "© OpenStreetMap contributors (ODbL)")
    // tilemaker lists every layer of its OpenMapTiles config, also those Monaco leaves empty.
    #expect(
      monaco.vectorLayers == [
        "place", "boundary", "poi", "housenumber", "waterway", "transportation",
        "transportation_name", "building", "water", "water_name", "aeroway", "aerodrome_label",
        "park", "landuse", "landcover", "mountain_peak",
      ])
    let bounds = try #require(monaco.bounds)
    #expect(bounds.contains(MapPoint(Coordinate(latitude: 43.7384, longitude: 7.4246))))
    #expect(!bounds.contains(MapPoint(Coordinate(latitude: 43.70, longitude: 7.30))))
  }

  @Test func storedTilesAreTheExpectedBlobs() throws {
    let world = try MBTilesSource(path: Repo.worldMBTiles)
    let monaco = try MBTilesSource(path: Repo.monacoMBTiles)
    #expect(try world.tile(TileID(z: 0, x: 0, y: 0)) == (try Repo.storedTile("world-0-0-0")))
    #expect(try world.tile(TileID(z: 6, x: 33, y: 23)) == (try Repo.storedTile("world-6-33-23")))
    #expect(
      try monaco.tile(TileID(z: 14, x: 8529, y: 5973))
        == (try Repo.storedTile("monaco-14-8529-5973")))
  }

  /// The TMS flip: XYZ 6/33/23 (TMS row 40) holds Monaco and Nice, at their places.
  @Test func rowFlipPutsFeaturesInTheRightPlace() throws {
    let world = try MBTilesSource(path: Repo.worldMBTiles)
    let id = TileID(z: 6, x: 33, y: 23)
    let tile = try VectorTileDecoder.decodeCompressed(try #require(try world.tile(id)))
    let places = try #require(tile.layer(named: "place"))
    let transform = places.transform(for: id)
    var found = [String: Coordinate]()
    for f in places {
      guard let name = f["name"]?.stringValue, ["Monaco", "Nice"].contains(name), f.type == .point
      else { continue }
      found[name] = transform.mapPoint(f.part(0).points.first!).coordinate
    }
    let monaco = try #require(found["Monaco"])
    let nice = try #require(found["Nice"])
    #expect(abs(monaco.latitude - 43.73) < 0.05 && abs(monaco.longitude - 7.42) < 0.05)
    #expect(abs(nice.latitude - 43.70) < 0.05 && abs(nice.longitude - 7.27) < 0.05)
    #expect(id.mapRect.contains(MapPoint(monaco)))

    // The unflipped row is another tile, in the southern hemisphere's ocean.
    let other = try world.tile(TileID(z: 6, x: 33, y: 40))
    let otherNames =
      try other.map { data in
        try VectorTileDecoder.decodeCompressed(data).layer(named: "place")?.compactMap {
          $0["name"]?.stringValue
        } ?? []
      } ?? []
    #expect(!otherNames.contains("Monaco"))
  }

  @Test func missingTilesAreNil() throws {
    let world = try MBTilesSource(path: Repo.worldMBTiles)
    #expect(try world.tile(TileID(z: 9, x: 266, y: 186)) == nil, "above maxzoom")
    #expect(try world.tile(TileID(z: 6, x: 4, y: 62)) == nil, "a z6 tile the file lacks")
    #expect(try world.tile(TileID(z: 2, x: 4, y: 0)) == nil, "x outside the grid")
    #expect(try world.tile(TileID(z: 2, x: 0, y: -1)) == nil, "y outside the grid")
    #expect(try world.tile(TileID(z: -1, x: 0, y: 0)) == nil)
    let monaco = try MBTilesSource(path: Repo.monacoMBTiles)
    #expect(try monaco.tile(TileID(z: 14, x: 0, y: 0)) == nil)
  }

  @Test func errorsForFilesThatAreNotMBTiles() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }

    let text = dir.file("notes.mbtiles")
    try Data("This is a text file, not a database.\n".utf8).write(to: text)
    #expect(throws: TileSourceError.notADatabase(path: text.path)) {
      try MBTilesSource(path: text.path)
    }
    #expect(
      errorText { _ = try MBTilesSource(path: text.path) }
        == "\(text.path): not an MBTiles file (not an SQLite database)")

    let missing = dir.file("nothing.mbtiles").path
    #expect(throws: TileSourceError.notFound(path: missing)) { try MBTilesSource(path: missing) }
    #expect(throws: TileSourceError.notFound(path: dir.path)) { try MBTilesSource(path: dir.path) }

    // An empty file is an empty SQLite database: no tables.
    let empty = dir.file("empty.mbtiles")
    try Data().write(to: empty)
    #expect(
      errorText { _ = try MBTilesSource(path: empty.path) }
        == "\(empty.path): not an MBTiles file (no such table: metadata)")

    let noTiles = dir.file("notiles.mbtiles").path
    try makeDatabase(at: noTiles, "CREATE TABLE metadata (name text, value text);")
    #expect(
      errorText { _ = try MBTilesSource(path: noTiles) }
        == "\(noTiles): not an MBTiles file (no such table: tiles)")

    let raster = dir.file("raster.mbtiles").path
    try makeDatabase(
      at: raster,
      """
      CREATE TABLE metadata (name text, value text);
      CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
      INSERT INTO metadata VALUES ('format', 'png'), ('minzoom', '0'), ('maxzoom', '1');
      INSERT INTO tiles VALUES (0, 0, 0, x'89504e470d0a1a0a');
      """)
    let source = try MBTilesSource(path: raster)
    #expect(source.format == .png)
    #expect(try source.tile(TileID(z: 0, x: 0, y: 0))?.count == 8)
    #expect(
      throws: TileSourceError.wrongFormat(path: "raster.mbtiles", format: .png, expected: .pbf)
    ) {
      try VectorTileProvider(source: source)
    }

    let odd = dir.file("odd.mbtiles").path
    try makeDatabase(
      at: odd,
      """
      CREATE TABLE metadata (name text, value text);
      CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
      INSERT INTO metadata VALUES ('format', 'geojson');
      """)
    #expect(
      errorText { _ = try MBTilesSource(path: odd) }
        == "\(odd): unsupported tile format \"geojson\"")
  }

  @Test func metadataFallbacks() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    // No format, no zoom levels: both found from the tiles; a gzip blob is a vector tile.
    let path = dir.file("bare.mbtiles").path
    let blob = try Repo.storedTile("world-6-33-23").map { String(format: "%02x", $0) }.joined()
    try makeDatabase(
      at: path,
      """
      CREATE TABLE metadata (name text, value text);
      CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
      INSERT INTO tiles VALUES (6, 33, 40, x'\(blob)');
      INSERT INTO tiles VALUES (3, 4, 5, x'');
      """)
    let source = try MBTilesSource(path: path)
    #expect(source.format == .pbf)
    #expect(source.minZoom == 3 && source.maxZoom == 6)
    #expect(source.name == "bare.mbtiles")
    #expect(source.bounds == nil)
    #expect(source.vectorLayers.isEmpty)
    #expect(try source.tile(TileID(z: 6, x: 33, y: 23)) == (try Repo.storedTile("world-6-33-23")))
    #expect(try source.tile(TileID(z: 3, x: 4, y: 2)) == Data(), "an empty blob is an empty tile")
  }

  @Test func concurrentReads() async throws {
    let world = try MBTilesSource(path: Repo.worldMBTiles)
    let ids =
      (0..<64).map { TileID(z: 6, x: $0, y: 23) } + (0..<16).map { TileID(z: 4, x: $0, y: 5) }
    let serial = try ids.map { try world.tile($0) }
    let parallel = try await withThrowingTaskGroup(of: (Int, Data?).self) { group in
      for (i, id) in ids.enumerated() {
        group.addTask { (i, try world.tile(id)) }
      }
      var out = [Data?](repeating: nil, count: ids.count)
      for try await (i, d) in group { out[i] = d }
      return out
    }
    #expect(parallel == serial)
    #expect(serial.compactMap { $0 }.count > 40)
  }

  @Test func asyncLoadingThroughTheProtocol() async throws {
    let source: any TileSource = try MBTilesSource(path: Repo.worldMBTiles)
    let data = try await source.loadTile(TileID(z: 0, x: 0, y: 0))
    #expect(data == (try Repo.storedTile("world-0-0-0")))
    let none = try await source.loadTile(TileID(z: 9, x: 0, y: 0))
    #expect(none == nil)
  }
}
