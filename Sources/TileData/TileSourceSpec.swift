import Foundation

/// What a `--tiles` argument names, and one way to open all of them:
///
/// | argument | source |
/// |---|---|
/// | `http(s)://…{z}…{x}…{y}…` | `HTTPTileSource` (URL template) |
/// | `http(s)://….pmtiles` | `PMTilesSource` over range requests |
/// | `http(s)://….json` | TileJSON → `HTTPTileSource` |
/// | a directory | `DirectoryTileSource` |
/// | `….mbtiles` | `MBTilesSource` |
/// | `….pmtiles` | `PMTilesSource` |
/// | `….json` | TileJSON → `HTTPTileSource` |
/// | another file | by its first bytes: SQLite → MBTiles, `PMTiles` → PMTiles, `{` → TileJSON, else MBTiles (which then says it is not an SQLite database) |
///
/// `file://` URLs are local paths. Other URL schemes fail with "unsupported URL scheme".
public enum TileSourceSpec: Equatable, Sendable {
  /// An http(s) URL template with `{z}`, `{x}`, `{y}`.
  case urlTemplate(String)
  /// A PMTiles archive over http(s).
  case pmtilesURL(URL)
  /// A TileJSON document over http(s).
  case tileJSONURL(URL)
  /// A folder of `z/x/y` tiles.
  case directory(path: String)
  /// An MBTiles file.
  case mbtiles(path: String)
  /// A PMTiles file.
  case pmtilesFile(path: String)
  /// A TileJSON file.
  case tileJSONFile(path: String)

  /// The URL scheme of `argument` when it is one no source reads (not http, https or file),
  /// else nil (a supported URL, or a path).
  public static func unsupportedScheme(_ argument: String) -> String? {
    guard let separator = argument.range(of: "://") else { return nil }
    let scheme = argument[..<separator.lowerBound].lowercased()
    return ["http", "https", "file"].contains(scheme) ? nil : scheme
  }

  /// Tells what `argument` names. Throws for a missing file, an unsupported URL scheme or an
  /// invalid URL (`TileSourceError`, one line).
  public static func classify(_ argument: String) throws -> TileSourceSpec {
    guard !argument.isEmpty else {
      throw TileSourceError.readFailed(path: "\"\"", message: "empty tile source")
    }
    if let separator = argument.range(of: "://") {
      let scheme = argument[..<separator.lowerBound].lowercased()
      if scheme == "file" {
        var rest = String(argument[separator.upperBound...])
        if rest.lowercased().hasPrefix("localhost/") { rest.removeFirst("localhost".count) }
        return try classifyFile(rest.removingPercentEncoding ?? rest)
      }
      if let unsupported = unsupportedScheme(argument) {
        throw TileSourceError.readFailed(
          path: argument,
          message: "unsupported URL scheme \"\(unsupported)\" (expected http, https or a file)")
      }
      if ["{z}", "{x}", "{y}", "{-y}"].contains(where: { argument.contains($0) }) {
        return .urlTemplate(argument)
      }
      var path = argument
      if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<q]) }
      path = path.lowercased()
      // Without {z}/{x}/{y} it is not a template: a PMTiles archive, or else a TileJSON
      // document (services name those with or without ".json", e.g. OpenFreeMap's /planet).
      guard let url = URL(string: argument), url.host != nil else {
        throw TileSourceError.readFailed(path: argument, message: "not a valid URL")
      }
      return path.hasSuffix(".pmtiles") ? .pmtilesURL(url) : .tileJSONURL(url)
    }
    return try classifyFile(argument)
  }

  private static func classifyFile(_ path: String) throws -> TileSourceSpec {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw TileSourceError.notFound(path: path)
    }
    if isDirectory.boolValue { return .directory(path: path) }
    switch (path as NSString).pathExtension.lowercased() {
    case "mbtiles": return .mbtiles(path: path)
    case "pmtiles": return .pmtilesFile(path: path)
    case "json": return .tileJSONFile(path: path)
    default: break
    }
    var head = Data()
    if let handle = FileHandle(forReadingAtPath: path) {
      head = (try? handle.read(upToCount: 16)) ?? Data()
      try? handle.close()
    }
    if head.starts(with: Data("SQLite format 3".utf8)) { return .mbtiles(path: path) }
    if head.starts(with: Data("PMTiles".utf8)) { return .pmtilesFile(path: path) }
    if head.first(where: { ![0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf].contains($0) })
      == UInt8(
        ascii: "{")
    {
      return .tileJSONFile(path: path)
    }
    return .mbtiles(path: path)
  }

  /// Opens the source.
  /// - Parameters:
  ///   - cacheHome: the disk cache home for HTTP tiles (default `$XDG_CACHE_HOME`, `~/.cache`).
  ///   - timeout: seconds per HTTP request (TileJSON, PMTiles ranges, tiles).
  public func open(cacheHome: URL? = nil, timeout: TimeInterval = 10) throws -> any TileSource {
    switch self {
    case .urlTemplate(let t):
      return try HTTPTileSource(template: t, cacheHome: cacheHome, timeout: timeout)
    case .pmtilesURL(let url): return try PMTilesSource(url: url, timeout: timeout)
    case .tileJSONURL(let url):
      return try TileJSON.openSource(url.absoluteString, cacheHome: cacheHome, timeout: timeout)
    case .directory(let path): return try DirectoryTileSource(root: path)
    case .mbtiles(let path): return try MBTilesSource(path: path)
    case .pmtilesFile(let path): return try PMTilesSource(path: path)
    case .tileJSONFile(let path):
      return try TileJSON.openSource(path, cacheHome: cacheHome, timeout: timeout)
    }
  }

  /// Classifies and opens a `--tiles` argument.
  public static func open(_ argument: String, cacheHome: URL? = nil, timeout: TimeInterval = 10)
    throws -> any TileSource
  {
    try classify(argument).open(cacheHome: cacheHome, timeout: timeout)
  }
}
