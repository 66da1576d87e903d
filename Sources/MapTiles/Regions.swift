import Foundation
import MapGeometry
import TermMapKit
import TileData

/// The regions `termmap get` stored: PMTiles archives in `$XDG_DATA_HOME/termmap/regions/`
/// (default `~/.local/share/termmap/regions/`), each named by its file. The viewer and
/// `render` draw every one of them above the embedded world.
public enum Regions {
  /// What `termmap regions` lists of one region.
  public struct Info: Sendable, Equatable {
    /// The file name without `.pmtiles`.
    public var name: String
    /// The archive.
    public var path: String
    /// The bounds, in degrees.
    public var west: Double
    /// The southern bound.
    public var south: Double
    /// The eastern bound.
    public var east: Double
    /// The northern bound.
    public var north: Double
    /// The shallowest zoom with tiles.
    public var minZoom: Int
    /// The deepest zoom with tiles.
    public var maxZoom: Int
    /// The file's size.
    public var bytes: UInt64
    /// Where it was cut from, and when (from the archive's metadata, as `get` writes them).
    public var source: String?
    /// When it was cut (ISO 8601).
    public var fetched: String?
    /// The credit line of its data.
    public var attribution: String
    /// How many names its index holds for `/` search (``RegionNames``); nil without an index.
    public var names: Int?
  }

  /// The folder regions are stored in.
  public static func directory(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    XDGDirectories.dataHome(environment: environment).appendingPathComponent("termmap/regions")
  }

  /// A region's file for `name`: letters, digits, `-`, `_` and `.` are kept, the rest become
  /// `-`; nil for a name with nothing left.
  public static func file(
    named name: String, environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL? {
    let kept = String(
      name.unicodeScalars.map { s -> Character in
        s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "-" || s == "_" || s == "."
          ? Character(s) : "-"
      }
    ).trimmingCharacters(in: CharacterSet(charactersIn: "-."))
    guard !kept.isEmpty, kept.count <= 100 else { return nil }
    return directory(environment: environment).appendingPathComponent(kept + ".pmtiles")
  }

  /// The stored regions' archive paths, by name (temporary and partial files left out).
  public static func paths(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> [String] {
    let dir = directory(environment: environment)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
    return names.filter { $0.hasSuffix(".pmtiles") }.sorted().map {
      dir.appendingPathComponent($0).path
    }
  }

  /// What each stored region holds; unreadable files are listed by `problems`.
  public static func list(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> (regions: [Info], problems: [String]) {
    var regions: [Info] = []
    var problems: [String] = []
    for path in paths(environment: environment) {
      do {
        let s = try PMTilesSource(path: path)
        let b = s.header.boundsDegrees
        let meta =
          (try? JSONSerialization.jsonObject(with: s.metadataJSON) as? [String: Any]) ?? [:]
        let size =
          (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?
          .uint64Value ?? 0
        regions.append(
          Info(
            name: ((path as NSString).lastPathComponent as NSString).deletingPathExtension,
            path: path, west: b.west, south: b.south, east: b.east, north: b.north,
            minZoom: Int(s.header.minZoom), maxZoom: Int(s.header.maxZoom), bytes: size,
            source: (meta["termmap:source"] as? String).map(SafeText.clean),
            fetched: (meta["termmap:fetched"] as? String).map(SafeText.clean),
            attribution: s.attribution,
            names: Self.nameCount(archive: URL(fileURLWithPath: path), problems: &problems)))
      } catch {
        problems.append(SafeText.clean("\(error)"))
      }
    }
    return (regions, problems)
  }

  /// How many names a region's index holds: nil without one, or when it cannot be read (said
  /// in `problems`).
  static func nameCount(archive: URL, problems: inout [String]) -> Int? {
    let region = archive.deletingPathExtension().lastPathComponent
    do {
      return try RegionNames.read(RegionNames.file(forArchive: archive), region: region)?
        .entries.count
    } catch {
      problems.append(error.description)
      return nil
    }
  }

  /// The overlays of every stored region (bottom first), drawn above the embedded world.
  public static func overlays(
    style: BasemapStyle.Variant,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> (overlays: [SourceTileOverlay], problems: [String]) {
    var out: [SourceTileOverlay] = []
    var problems: [String] = []
    for path in paths(environment: environment) {
      do {
        let source = try PMTilesSource(path: path)
        let overlay = SourceTileOverlay(source: source, variant: style)
        overlay.title = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        out.append(overlay)
      } catch {
        problems.append(SafeText.clean("\(error)"))
      }
    }
    return (out, problems)
  }
}

extension Regions {
  /// How many zoom levels past its deepest tiles a map may be drawn before the status line
  /// says there is no data this close (overzoomed tiles beyond that are mostly empty).
  public static let overzoomAllowance = 3.0

  /// The deepest zoom with tiles of map content (opaque tile overlays) at `point`, or nil
  /// when no map content covers it.
  public static func deepestData(at point: MapPoint, in overlays: [any Overlay]) -> Int? {
    overlays.compactMap { $0 as? TileOverlay }
      .filter { $0.canReplaceMapContent && $0.boundingMapRect.contains(point) }
      .map(\.maximumZ).max()
  }

  /// The status line's note when the view at `zoom` is deeper than any map data at `point`
  /// (nil otherwise, and when there is no map content at all): `termmap get` fetches it, and
  /// so does the viewer's `key` when given.
  public static func noDataNote(
    at point: MapPoint, zoom: Double, in overlays: [any Overlay], ascii: Bool,
    key: String? = nil
  ) -> String? {
    // No map content at all (no offline map, --no-basemap): nothing to say here.
    let content = overlays.compactMap { $0 as? TileOverlay }.filter(\.canReplaceMapContent)
    guard !content.isEmpty else { return nil }
    let deepest = deepestData(at: point, in: overlays)
    if let deepest, zoom <= Double(deepest) + overzoomAllowance { return nil }
    _ = ascii
    return key.map { "no map data: \($0) or termmap get" }
      ?? "no map data here: termmap get"
  }
}
