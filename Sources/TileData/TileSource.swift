import Dispatch
import Foundation
import MapGeometry

/// The encoding of a source's tiles.
public enum TileFormat: String, Sendable, CaseIterable {
  /// Mapbox Vector Tiles (protobuf), possibly gzip-compressed.
  case pbf
  /// PNG pictures.
  case png
  /// JPEG pictures.
  case jpg
  /// WebP pictures.
  case webp

  /// Parses an MBTiles/TileJSON format name (`pbf`, `mvt`, `png`, `jpg`/`jpeg`, `webp`).
  public init?(name: String) {
    switch name.lowercased() {
    case "pbf", "mvt": self = .pbf
    case "png": self = .png
    case "jpg", "jpeg": self = .jpg
    case "webp": self = .webp
    default: return nil
    }
  }

  /// Whether tiles are vector tiles.
  public var isVector: Bool { self == .pbf }
}

/// A set of tiles addressed by `TileID` (XYZ: y counted from the north), with the metadata a
/// viewer needs. Sources are shared across threads.
public protocol TileSource: Sendable {
  /// Lowest zoom with tiles.
  var minZoom: Int { get }
  /// Highest zoom with tiles; above it draw deeper ancestors scaled up (overzoom).
  var maxZoom: Int { get }
  /// The area with data, in map points (nil: unknown, assume the world).
  var bounds: MapRect? { get }
  /// The attribution to show with the data (may be empty).
  var attribution: String { get }
  /// Names of the vector layers the tiles may hold (empty when unknown or raster).
  var vectorLayers: [String] { get }
  /// How tiles are encoded.
  var format: TileFormat { get }
  /// A short name for messages (file name, URL).
  var name: String { get }

  /// The stored bytes of a tile (possibly gzip-compressed); nil when the source has no tile
  /// there. Throws when the source cannot be read.
  func tile(_ id: TileID) throws -> Data?

  /// Loads a tile without blocking the caller; `completion` runs on an arbitrary thread.
  /// The default calls `tile(_:)` on a global dispatch queue; network sources override it.
  func loadTile(_ id: TileID, completion: @escaping @Sendable (Result<Data?, any Error>) -> Void)
}

extension TileSource {
  public func loadTile(
    _ id: TileID, completion: @escaping @Sendable (Result<Data?, any Error>) -> Void
  ) {
    DispatchQueue.global(qos: .userInitiated).async {
      completion(Result { try self.tile(id) })
    }
  }

  /// `loadTile` for async callers.
  public func loadTile(_ id: TileID) async throws -> Data? {
    try await withCheckedThrowingContinuation { continuation in
      loadTile(id) { continuation.resume(with: $0) }
    }
  }

  /// True when the tile address is valid for this source: zoom within range, x and y within the
  /// zoom's grid, and the tile meets `bounds` (when known).
  public func covers(_ id: TileID) -> Bool {
    guard id.z >= minZoom, id.z <= maxZoom, id.z >= 0, id.z < 31 else { return false }
    let n = 1 << id.z
    guard id.x >= 0, id.x < n, id.y >= 0, id.y < n else { return false }
    if let bounds, !bounds.isNull {
      let r = id.mapRect
      // Touching counts: bounds often sit exactly on tile edges.
      return r.minX <= bounds.maxX && bounds.minX <= r.maxX && r.minY <= bounds.maxY
        && bounds.minY <= r.maxY
    }
    return true
  }
}

/// Errors opening or reading a tile source.
public enum TileSourceError: Error, CustomStringConvertible, Equatable {
  /// The file or directory does not exist or cannot be read.
  case notFound(path: String)
  /// The file is not an SQLite database (for example a text file given as MBTiles).
  case notADatabase(path: String)
  /// The database lacks a table or column MBTiles requires.
  case missingTable(path: String, detail: String)
  /// The metadata names a format this library does not read.
  case unsupportedFormat(path: String, format: String)
  /// The source's tiles are not what the caller needs (e.g. raster tiles for a vector provider).
  case wrongFormat(path: String, format: TileFormat, expected: TileFormat)
  /// SQLite reported an error.
  case sqlite(path: String, code: Int32, message: String)
  /// Reading a tile file failed.
  case readFailed(path: String, message: String)

  /// One line. Paths, metadata values and SQLite's or a server's text all pass through
  /// `SafeText.clean`, so no escape sequence from a file reaches the terminal.
  public var description: String {
    let c = SafeText.clean
    switch self {
    case .notFound(let p): return "\(c(p)): no such file or directory"
    case .notADatabase(let p): return "\(c(p)): not an MBTiles file (not an SQLite database)"
    case .missingTable(let p, let d): return "\(c(p)): not an MBTiles file (\(c(d)))"
    case .unsupportedFormat(let p, let f):
      return "\(c(p)): unsupported tile format \"\(c(String(f.prefix(100))))\""
    case .wrongFormat(let p, let f, let e):
      return "\(c(p)): tiles are \(f.rawValue), expected \(e.rawValue)"
    case .sqlite(let p, let code, let m): return "\(c(p)): SQLite error \(code): \(c(m))"
    case .readFailed(let p, let m): return "\(c(p)): \(c(m))"
    }
  }
}

extension TileSourceError {
  /// `BoundedFile.read`, its refusals as `readFailed`.
  static func reading(_ path: String, limit: Int) throws -> Data? {
    do {
      return try BoundedFile.read(path, limit: limit)
    } catch {
      throw TileSourceError.readFailed(path: error.path, message: error.message)
    }
  }
}

/// Parses an MBTiles/TileJSON `bounds` string "west,south,east,north" (degrees) to map points.
func parseBounds(_ text: String) -> MapRect? {
  let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
  guard parts.count == 4, let w = parts[0], let s = parts[1], let e = parts[2], let n = parts[3],
    w.isFinite, s.isFinite, e.isFinite, n.isFinite, w <= e, s <= n
  else { return nil }
  let lim = Mercator.maxLatitude
  let nw = MapPoint(Coordinate(latitude: min(max(n, -lim), lim), longitude: max(w, -180)))
  let se = MapPoint(Coordinate(latitude: min(max(s, -lim), lim), longitude: min(e, 180)))
  return MapRect(x: nw.x, y: nw.y, width: se.x - nw.x, height: se.y - nw.y)
}

/// Reads `vector_layers[].id` from a TileJSON-like `json` metadata value.
func parseVectorLayers(_ json: String) -> [String] {
  guard let data = json.data(using: .utf8),
    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
    let layers = object["vector_layers"] as? [[String: Any]]
  else { return [] }
  return layers.compactMap { $0["id"] as? String }
}
