import Foundation
import MapGeometry

/// How a directory numbers its rows.
public enum TileScheme: String, Sendable {
  /// y from the north (XYZ, "slippy map"): the usual web layout.
  case xyz
  /// y from the south (TMS).
  case tms
}

/// Tiles stored as files `root/z/x/y.ext` (as `tippecanoe --output-to-directory` or most tile
/// downloaders write them), with `ext` one of pbf, mvt, png, jpg, jpeg, webp.
///
/// Metadata comes from `root/metadata.json` when present (tippecanoe's, whose values are strings,
/// or TileJSON with numbers and a `vector_layers` array); zoom levels missing from it are found
/// from the numeric sub-directories.
public struct DirectoryTileSource: TileSource {
  /// The folder holding `z/x/y` tiles.
  public let root: String
  public let name: String
  public let minZoom: Int
  public let maxZoom: Int
  public let bounds: MapRect?
  public let attribution: String
  public let vectorLayers: [String]
  public let format: TileFormat
  /// Whether rows count from the north (XYZ) or the south (TMS).
  public let scheme: TileScheme
  /// The file name extension of the tiles (without the dot).
  public let fileExtension: String

  static let extensions = ["pbf", "mvt", "png", "jpg", "jpeg", "webp"]
  /// The largest tile or metadata.json file read: 16 MiB, far above real tiles (the largest
  /// vector tiles are a few hundred kB).
  public static let defaultMaxFileBytes = 16 << 20
  /// The largest tile or metadata.json file this source reads.
  public let maxFileBytes: Int

  /// Opens a tile directory. `fileExtension` and `scheme` override what is detected (the first
  /// tile file found decides the extension; metadata's `scheme` the row order, XYZ by default).
  public init(
    root: String, fileExtension: String? = nil, scheme: TileScheme? = nil,
    maxFileBytes: Int = DirectoryTileSource.defaultMaxFileBytes
  ) throws {
    self.maxFileBytes = maxFileBytes
    let fm = FileManager.default
    var isDirectory: ObjCBool = false
    guard fm.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw TileSourceError.notFound(path: root)
    }
    self.root = root
    let rootURL = URL(fileURLWithPath: root, isDirectory: true)

    var meta = [String: Any]()
    let metaURL = rootURL.appendingPathComponent("metadata.json")
    if let data = try TileSourceError.reading(metaURL.path, limit: maxFileBytes) {
      do {
        meta = (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
      } catch {
        throw TileSourceError.readFailed(
          path: metaURL.path, message: "unreadable metadata.json: \(error.localizedDescription)")
      }
    }
    func string(_ key: String) -> String? {
      if let s = meta[key] as? String { return s }
      if let n = meta[key] as? NSNumber { return n.stringValue }
      return nil
    }
    func int(_ key: String) -> Int? {
      if let n = meta[key] as? NSNumber { return n.intValue }
      return string(key).flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }

    let zooms = ((try? fm.contentsOfDirectory(atPath: root)) ?? []).compactMap { Int($0) }
      .filter { (0...30).contains($0) }.sorted()
    let ext: String
    if let fileExtension {
      ext = fileExtension
    } else if let found = Self.findExtension(rootURL: rootURL, zooms: zooms) {
      ext = found
    } else if let f = string("format").flatMap(TileFormat.init(name:)) {
      ext = f == .jpg ? "jpg" : f.rawValue
    } else {
      ext = "pbf"
    }
    let format: TileFormat
    if let f = string("format"), !f.isEmpty {
      guard let known = TileFormat(name: f) else {
        throw TileSourceError.unsupportedFormat(path: root, format: f)
      }
      format = known
    } else {
      guard let known = TileFormat(name: ext) else {
        throw TileSourceError.unsupportedFormat(path: root, format: ext)
      }
      format = known
    }

    var layers = [String]()
    if let list = meta["vector_layers"] as? [[String: Any]] {
      layers = list.compactMap { $0["id"] as? String }
    } else if let json = string("json") {
      layers = parseVectorLayers(json)
    }

    self.name = SafeText.clean(string("name") ?? rootURL.lastPathComponent)
    let minZoom = max(0, int("minzoom") ?? zooms.first ?? 0)
    self.minZoom = minZoom
    self.maxZoom = min(30, max(minZoom, int("maxzoom") ?? zooms.last ?? minZoom))
    if let b = meta["bounds"] as? [NSNumber], b.count == 4 {
      self.bounds = parseBounds(b.map(\.stringValue).joined(separator: ","))
    } else {
      self.bounds = string("bounds").flatMap(parseBounds)
    }
    self.attribution = SafeText.clean(string("attribution") ?? "")
    self.vectorLayers = layers
    self.format = format
    self.scheme = scheme ?? string("scheme").flatMap(TileScheme.init(rawValue:)) ?? .xyz
    self.fileExtension = ext
  }

  /// Convenience for a file URL.
  public init(
    root: URL, fileExtension: String? = nil, scheme: TileScheme? = nil,
    maxFileBytes: Int = DirectoryTileSource.defaultMaxFileBytes
  ) throws {
    try self.init(
      root: root.path, fileExtension: fileExtension, scheme: scheme, maxFileBytes: maxFileBytes)
  }

  /// Looks for one tile file under the zoom directories and returns its extension.
  private static func findExtension(rootURL: URL, zooms: [Int]) -> String? {
    let fm = FileManager.default
    for z in zooms {
      let zURL = rootURL.appendingPathComponent(String(z), isDirectory: true)
      guard let columns = try? fm.contentsOfDirectory(atPath: zURL.path) else { continue }
      for column in columns where Int(column) != nil {
        let xURL = zURL.appendingPathComponent(column, isDirectory: true)
        guard let files = try? fm.contentsOfDirectory(atPath: xURL.path) else { continue }
        for file in files {
          let ext = (file as NSString).pathExtension.lowercased()
          if extensions.contains(ext), Int((file as NSString).deletingPathExtension) != nil {
            return ext
          }
        }
      }
    }
    return nil
  }

  /// The file path of a tile (whether or not it exists).
  public func path(for id: TileID) -> String {
    let row = scheme == .tms ? id.tmsY : id.y
    return root + "/\(id.z)/\(id.x)/\(row).\(fileExtension)"
  }

  /// The stored bytes of a tile; nil when its file does not exist. A tile file must be a
  /// regular file of at most `maxFileBytes`: a FIFO, a device (a symlink to `/dev/zero`), a
  /// directory or a larger file is an error, found before anything is read (`BoundedFile`).
  public func tile(_ id: TileID) throws -> Data? {
    guard id.z >= 0, id.z <= 30 else { return nil }
    let n = 1 << id.z
    guard id.x >= 0, id.x < n, id.y >= 0, id.y < n else { return nil }
    return try TileSourceError.reading(path(for: id), limit: maxFileBytes)
  }
}
