import CSQLite
import Foundation
import MapGeometry
import Synchronization

/// Tiles from an MBTiles file (1.x: an SQLite database with `metadata(name, value)` and
/// `tiles(zoom_level, tile_column, tile_row, tile_data)`; rows in TMS order, y from the south).
///
/// Opened read-only. Connections are opened with `SQLITE_OPEN_NOMUTEX` and each is used by one
/// thread at a time: a small pool hands them out, so reads on several threads run in parallel.
public final class MBTilesSource: TileSource {
  /// The MBTiles file.
  public let path: String
  public let name: String
  public let minZoom: Int
  public let maxZoom: Int
  public let bounds: MapRect?
  public let attribution: String
  public let vectorLayers: [String]
  public let format: TileFormat
  /// Every `metadata` row, as text.
  public let metadata: [String: String]

  /// Connections not in use (at most `maxIdleConnections` are kept).
  private let pool: Mutex<[SQLiteConnection]>
  private let maxIdleConnections = 4

  /// Opens an MBTiles file and reads its metadata. Throws `TileSourceError` for a missing file,
  /// a file that is not SQLite, missing tables and formats other than pbf, png, jpg and webp.
  public init(path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      !isDirectory.boolValue
    else { throw TileSourceError.notFound(path: path) }
    self.path = path
    let connection = try SQLiteConnection(path: path)

    // Both tables must exist; querying them also tells a non-database file apart.
    var meta = [String: String]()
    try connection.query("SELECT name, value FROM metadata") { row in
      if let k = row.text(0) { meta[k] = row.text(1) ?? "" }
    }
    try connection.prepareTileStatement()

    var minZoom = meta["minzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    var maxZoom = meta["maxzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    if minZoom == nil || maxZoom == nil {
      try connection.query("SELECT min(zoom_level), max(zoom_level) FROM tiles") { row in
        if minZoom == nil { minZoom = row.int(0) }
        if maxZoom == nil { maxZoom = row.int(1) }
      }
    }
    let format: TileFormat
    if let f = meta["format"], !f.isEmpty {
      guard let known = TileFormat(name: f) else {
        throw TileSourceError.unsupportedFormat(path: path, format: f)
      }
      format = known
    } else {
      // No format given (MBTiles requires one): look at a tile.
      var sample: Data?
      try connection.query("SELECT tile_data FROM tiles LIMIT 1") { row in sample = row.blob(0) }
      format = sample.map(sniffFormat) ?? .pbf
    }

    self.metadata = meta
    // Shown to people: sanitised here once (the raw rows stay in `metadata`).
    self.name =
      meta["name"].map(SafeText.clean).flatMap { $0.isEmpty ? nil : $0 }
      ?? SafeText.clean((path as NSString).lastPathComponent)
    self.minZoom = max(0, minZoom ?? 0)
    self.maxZoom = min(30, max(self.minZoom, maxZoom ?? self.minZoom))
    self.bounds = meta["bounds"].flatMap(parseBounds)
    self.attribution = SafeText.clean(meta["attribution"] ?? "")
    self.vectorLayers = meta["json"].map(parseVectorLayers) ?? []
    self.format = format
    self.pool = Mutex([connection])
  }

  public func tile(_ id: TileID) throws -> Data? {
    guard id.z >= 0, id.z <= 30 else { return nil }
    let n = 1 << id.z
    guard id.x >= 0, id.x < n, id.y >= 0, id.y < n else { return nil }
    let connection = try pool.withLock { $0.popLast() } ?? SQLiteConnection(path: path)
    defer {
      pool.withLock { idle in
        if idle.count < maxIdleConnections { idle.append(connection) }
      }
    }
    return try connection.tile(z: id.z, x: id.x, row: id.tmsY)
  }

  /// Number of tiles in the file (a full count: slow for big files).
  public func tileCount() throws -> Int {
    let connection = try pool.withLock { $0.popLast() } ?? SQLiteConnection(path: path)
    defer { pool.withLock { if $0.count < maxIdleConnections { $0.append(connection) } } }
    var n = 0
    try connection.query("SELECT count(*) FROM tiles") { n = $0.int(0) ?? 0 }
    return n
  }
}

/// Guesses a tile format from its first bytes.
func sniffFormat(_ data: Data) -> TileFormat {
  let b = [UInt8](data.prefix(12))
  if b.starts(with: [0x89, 0x50, 0x4e, 0x47]) { return .png }
  if b.starts(with: [0xff, 0xd8, 0xff]) { return .jpg }
  if b.count >= 12, b.starts(with: [0x52, 0x49, 0x46, 0x46]),
    b[8...11].elementsEqual([0x57, 0x45, 0x42, 0x50])
  {
    return .webp
  }
  return .pbf
}

/// One read-only SQLite connection with its prepared tile statement. Not thread-safe: the pool in
/// `MBTilesSource` gives each connection to one thread at a time (hence `@unchecked Sendable`,
/// which only lets it pass through the pool's mutex).
final class SQLiteConnection: @unchecked Sendable {
  let path: String
  private let db: OpaquePointer
  private var tileStatement: OpaquePointer?
  /// The work one query may do: a hostile file (a recursive view named `metadata` or `tiles`,
  /// a huge cross join) must fail, not spin. Owned by this connection, so used by one thread
  /// at a time like the connection itself; SQLite's progress handler gets it as its context.
  private let budget: UnsafeMutablePointer<QueryBudget>

  /// How much work one query may do before SQLite is told to stop: `maxSteps` calls of the
  /// progress handler (each after `instructionsPerStep` virtual machine instructions), or
  /// `maxSeconds`, whichever comes first.
  struct QueryBudget {
    static let instructionsPerStep: Int32 = 10_000
    /// 10 million instructions (about a second of a recursive view here): reading the
    /// metadata or one tile takes a few hundred.
    static let maxSteps = 1_000
    static let maxSeconds = 5.0
    var steps = 0
    var deadline = 0.0
    var exceeded = false

    mutating func reset() {
      steps = 0
      exceeded = false
      deadline = Self.now() + Self.maxSeconds
    }

    static func now() -> Double {
      var t = timespec()
      clock_gettime(CLOCK_MONOTONIC, &t)
      return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
  }

  init(path: String) throws {
    self.path = path
    var handle: OpaquePointer?
    let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
    guard rc == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      sqlite3_close_v2(handle)
      if rc == SQLITE_CANTOPEN { throw TileSourceError.notFound(path: path) }
      throw TileSourceError.sqlite(path: path, code: rc, message: message)
    }
    self.db = handle
    budget = .allocate(capacity: 1)
    budget.initialize(to: QueryBudget())
    budget.pointee.reset()
    sqlite3_busy_timeout(handle, 2000)
    sqlite3_progress_handler(
      handle, QueryBudget.instructionsPerStep,
      { context in
        guard let b = context?.assumingMemoryBound(to: QueryBudget.self) else { return 0 }
        b.pointee.steps += 1
        if b.pointee.steps > QueryBudget.maxSteps
          || (b.pointee.steps % 16 == 0 && QueryBudget.now() > b.pointee.deadline)
        {
          b.pointee.exceeded = true
          return 1  // SQLite stops the statement with SQLITE_INTERRUPT
        }
        return 0
      }, UnsafeMutableRawPointer(budget))
  }

  deinit {
    if let tileStatement { sqlite3_finalize(tileStatement) }
    sqlite3_close_v2(db)
    budget.deinitialize(count: 1)
    budget.deallocate()
  }

  /// The error for a failed call, classified for MBTiles.
  private func failure(_ rc: Int32) -> TileSourceError {
    let message = String(cString: sqlite3_errmsg(db))
    if rc & 0xff == SQLITE_INTERRUPT && budget.pointee.exceeded {
      return .sqlite(
        path: path, code: rc,
        message:
          "a query did not finish within its budget "
          + "(\(QueryBudget.maxSteps * Int(QueryBudget.instructionsPerStep) / 1_000_000) million "
          + "SQLite instructions or \(Int(QueryBudget.maxSeconds)) s); "
          + "the file may hold a recursive view")
    }
    switch rc & 0xff {
    case SQLITE_NOTADB: return .notADatabase(path: path)
    case SQLITE_ERROR
    where message.hasPrefix("no such table") || message.hasPrefix("no such column"):
      return .missingTable(path: path, detail: message)
    default: return .sqlite(path: path, code: rc, message: message)
    }
  }

  private func prepare(_ sql: String) throws -> OpaquePointer {
    budget.pointee.reset()
    var statement: OpaquePointer?
    let rc = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
    guard rc == SQLITE_OK, let statement else {
      sqlite3_finalize(statement)
      throw failure(rc)
    }
    return statement
  }

  func prepareTileStatement() throws {
    if tileStatement == nil {
      tileStatement = try prepare(
        "SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3")
    }
  }

  /// Runs a query, calling `body` for each row.
  func query(_ sql: String, _ body: (Row) throws -> Void) throws {
    let statement = try prepare(sql)
    defer { sqlite3_finalize(statement) }
    budget.pointee.reset()  // the whole query, every row, shares one budget
    while true {
      let rc = sqlite3_step(statement)
      if rc == SQLITE_DONE { return }
      guard rc == SQLITE_ROW else { throw failure(rc) }
      try body(Row(statement: statement))
    }
  }

  func tile(z: Int, x: Int, row: Int) throws -> Data? {
    try prepareTileStatement()
    guard let statement = tileStatement else { return nil }
    defer {
      sqlite3_reset(statement)
      sqlite3_clear_bindings(statement)
    }
    sqlite3_bind_int64(statement, 1, Int64(z))
    sqlite3_bind_int64(statement, 2, Int64(x))
    sqlite3_bind_int64(statement, 3, Int64(row))
    budget.pointee.reset()
    let rc = sqlite3_step(statement)
    if rc == SQLITE_DONE { return nil }
    guard rc == SQLITE_ROW else { throw failure(rc) }
    return Row(statement: statement).blob(0) ?? Data()
  }

  struct Row {
    let statement: OpaquePointer

    func text(_ column: Int32) -> String? {
      guard sqlite3_column_type(statement, column) != SQLITE_NULL,
        let p = sqlite3_column_text(statement, column)
      else { return nil }
      return String(cString: p)
    }

    func int(_ column: Int32) -> Int? {
      guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
      return Int(sqlite3_column_int64(statement, column))
    }

    func blob(_ column: Int32) -> Data? {
      guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
      // Blob first, then its size (SQLite's recommended order).
      let p = sqlite3_column_blob(statement, column)
      let n = Int(sqlite3_column_bytes(statement, column))
      guard n > 0, let p else { return Data() }
      return Data(bytes: p, count: n)
    }
  }
}
