import CSQLite
import Foundation
import MapGeometry
import Testing

@testable import TileData

/// Text that would act on a terminal: ESC, BEL, and C1 controls (as characters or raw bytes).
func hasTerminalControls(_ text: String) -> Bool {
  text.unicodeScalars.contains { s in
    (s.value < 0x20 && s != "\n" && s != "\t") || (0x7F...0x9F).contains(s.value)
  }
}

/// The title-setting sequence `ESC ] 0 ; fmt BEL`.
let titleSequence = "\u{1B}]0;fmt\u{07}"

/// Hostile MBTiles files: metadata and SQLite's own messages never reach a terminal unsanitised,
/// and no query runs forever.
@Suite struct MBTilesHardeningTests {
  static let tables = """
    CREATE TABLE metadata (name text, value text);
    CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
    """

  @Test func escapeSequenceInTheFormatIsRemovedFromTheError() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = dir.file("format.mbtiles").path
    try makeDatabase(
      at: path,
      Self.tables + "INSERT INTO metadata VALUES ('format', '\(titleSequence)');"
        + "INSERT INTO metadata VALUES ('name', 'n\(titleSequence)');")
    do {
      _ = try MBTilesSource(path: path)
      Issue.record("opened a file with an unknown format")
    } catch let error as TileSourceError {
      guard case .unsupportedFormat(_, let format) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(format == titleSequence)  // the raw value stays in the error's fields
      #expect(!hasTerminalControls(error.description))
      #expect(error.description.hasSuffix("unsupported tile format \"]0;fmt\""))
    }
  }

  @Test func nameAndAttributeAreSanitised() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = dir.file("name.mbtiles").path
    try makeDatabase(
      at: path,
      Self.tables + "INSERT INTO metadata VALUES ('format', 'pbf');"
        + "INSERT INTO metadata VALUES ('name', 'n\(titleSequence)');"
        + "INSERT INTO metadata VALUES ('attribution', '\u{9B}2J(c) x');")
    let s = try MBTilesSource(path: path)
    #expect(s.name == "n]0;fmt" && s.attribution == "2J(c) x")
    #expect(s.metadata["name"] == "n\(titleSequence)")
  }

  /// A `metadata` table whose schema SQL holds the title sequence: SQLite quotes it back in
  /// "malformed database schema".
  static func makeMalformedSchema(at path: String) throws {
    try makeDatabase(
      at: path,
      tables + "PRAGMA writable_schema = ON;"
        + "UPDATE sqlite_master SET sql = 'CREATE TABLE metadata (name text, value text, x \""
        + titleSequence + "' WHERE name = 'metadata';")
  }

  @Test func sqliteMessagesAreSanitised() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = dir.file("schema.mbtiles").path
    try Self.makeMalformedSchema(at: path)
    do {
      _ = try MBTilesSource(path: path)
      Issue.record("opened a file with a malformed schema")
    } catch let error as TileSourceError {
      guard case .sqlite(_, _, let message) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(message.contains(titleSequence))  // what SQLite said, kept raw in the field
      #expect(!hasTerminalControls(error.description))
      #expect(error.description.contains("malformed database schema"))
    }
  }

  static let recursiveView = """
    CREATE VIEW metadata AS WITH RECURSIVE r(name, value) AS
      (SELECT 'format', 'pbf' UNION ALL SELECT name, value FROM r) SELECT name, value FROM r;
    CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob);
    """

  @Test func recursiveMetadataViewFailsWithinItsBudget() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = dir.file("view.mbtiles").path
    try makeDatabase(at: path, Self.recursiveView)
    do {
      _ = try MBTilesSource(path: path)
      Issue.record("a recursive view was read to its end")
    } catch let error as TileSourceError {
      guard case .sqlite(_, let code, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(code & 0xff == SQLITE_INTERRUPT)
      #expect(error.description.contains("did not finish within its budget"))
      #expect(error.description.hasSuffix("the file may hold a recursive view"))
    }
  }

  @Test func recursiveTilesViewFailsEachRead() throws {
    let dir = try TemporaryDirectory()
    defer { dir.cleanUp() }
    let path = dir.file("tiles-view.mbtiles").path
    try makeDatabase(
      at: path,
      """
      CREATE TABLE metadata (name text, value text);
      INSERT INTO metadata VALUES ('format', 'pbf'), ('minzoom', '0'), ('maxzoom', '4');
      CREATE VIEW tiles AS WITH RECURSIVE r(zoom_level, tile_column, tile_row, tile_data) AS
        (SELECT 9, 9, 9, x'00' UNION ALL SELECT zoom_level, tile_column, tile_row, tile_data FROM r)
        SELECT * FROM r;
      """)
    let s = try MBTilesSource(path: path)
    for _ in 0..<2 {
      #expect {
        _ = try s.tile(TileID(z: 0, x: 0, y: 0))
      } throws: { ($0 as? TileSourceError)?.description.contains("within its budget") == true }
    }
  }

  @Test func ordinaryFilesStayWellWithinTheBudget() throws {
    let s = try MBTilesSource(path: Repo.worldMBTiles)
    #expect(try s.tile(TileID(z: 0, x: 0, y: 0)) != nil)
    #expect(try s.tileCount() > 0)
  }
}
