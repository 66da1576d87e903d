import DotRaster
import Foundation
import MapGeometry
import TermMapKit
import TileData

/// The map that ships in Data/: the world (Natural Earth and GeoNames, zoom 0–8, a PMTiles
/// archive) with Monaco's OpenStreetMap streets (zoom 10–14, MBTiles) over it, as tile overlays
/// added the public way:
///
/// ```swift
/// map.addOverlays(try OfflineMap.overlays(dataDirectory: dir), level: .aboveRoads)
/// ```
///
/// Both overlays are map content: where Monaco's tiles are drawn (inside its bounds, from its
/// lowest zoom), the world beneath is not.
public enum OfflineMap {
  /// The offline files in drawing order, least detailed first.
  public static let files = ["world.pmtiles", "monaco.mbtiles"]

  /// Tile overlays for the offline data in `dir` (the world is required, the city optional).
  public static func overlays(dataDirectory dir: URL, style: BasemapStyle = .dark) throws
    -> [SourceTileOverlay]
  {
    var out: [SourceTileOverlay] = []
    for (n, file) in files.enumerated() {
      let path = dir.appendingPathComponent(file).path
      if n > 0 && !FileManager.default.fileExists(atPath: path) { continue }
      let source: any TileSource =
        file.hasSuffix(".pmtiles") ? try PMTilesSource(path: path) : try MBTilesSource(path: path)
      out.append(SourceTileOverlay(source: source, style: style))
    }
    return out
  }
}

/// Credit lines for data on screen.
public enum Attribution {
  /// The fewest columns credits get on a status line: "© OpenStreetMap" and a "…".
  public static let minimumWidth = 16

  /// A credit shortened for a status line ("© OpenStreetMap" for the long ODbL line, and so
  /// on); the full lines are in the help and docs.
  public static func short(_ line: String) -> String {
    if line.contains("OpenStreetMap") { return "© OpenStreetMap" }
    if line.contains("Natural Earth") { return "Natural Earth" }
    if line.contains("GeoNames") { return "GeoNames" }
    return String(line.prefix(30))
  }

  /// The credits for a status line at most `width` columns wide: the short forms joined, or,
  /// when they do not fit, the OpenStreetMap credit kept whole (its licence asks for it) and
  /// the others cut to fit, ending in "…". Empty only when there are no credits.
  public static func fit(_ lines: [String], width: Int) -> String {
    let short = lines.map(Self.short)
    let full = short.joined(separator: " · ")
    guard full.count > width, !short.isEmpty else { return full }
    let osm = short.filter { $0.contains("OpenStreetMap") }
    let others = short.filter { !$0.contains("OpenStreetMap") }
    var out = osm.joined(separator: " · ")
    for o in others {
      let candidate = out.isEmpty ? o : out + " · " + o
      if candidate.count <= width {
        out = candidate
      } else {
        let room = width - out.count - (out.isEmpty ? 1 : 4)
        if room >= 3 {
          out = (out.isEmpty ? "" : out + " · ") + o.prefix(room - 1) + "…"
        } else if !out.hasSuffix("…") && out.count + 1 <= width {
          out += "…"
        }
        break
      }
    }
    return out
  }
}

/// A status line fitted to its width by priority: when the parts do not fit, those of the
/// lowest priority go first (the user's own state, priority 0, last); the credits are never
/// dropped while there are any: they keep at least `Attribution.minimumWidth` columns,
/// shortened by `Attribution.fit`, and get what the parts leave.
public enum StatusLineLayout {
  /// One part of the line and its priority (0 is kept longest).
  public struct Part: Sendable, Equatable {
    /// The part as shown.
    public var text: String
    /// 0 is kept longest; the highest goes first.
    public var priority: Int
    /// A part.
    public init(_ text: String, priority: Int) {
      self.text = text
      self.priority = priority
    }
  }

  /// The parts that fit, joined by `separator` (cut with "…" when even the most important
  /// one is too wide), the credits, and whether every part was kept. Widths are terminal
  /// columns; `gap` columns go between the parts and the credits.
  public static func fit(
    _ parts: [Part], attribution: [String], columns: Int, separator: String, gap: Int = 2
  ) -> (left: String, credits: String, complete: Bool) {
    let width = { (s: String) in CellBuffer.displayWidth(of: s) }
    let creditRoom = attribution.isEmpty ? 0 : Attribution.minimumWidth + gap
    let room = max(columns - creditRoom, 0)
    var kept = parts
    while kept.count > 1, width(kept.map(\.text).joined(separator: separator)) > room {
      let lowest = kept.map(\.priority).max()!
      kept.remove(at: kept.lastIndex { $0.priority == lowest }!)
    }
    var left = kept.map(\.text).joined(separator: separator)
    if width(left) > room {
      left = CellBuffer.prefix(of: left, width: max(room - 1, 0)) + "…"
    }
    let credits = Attribution.fit(
      attribution, width: max(columns - width(left) - gap, Attribution.minimumWidth))
    return (left, credits, kept.count == parts.count)
  }
}
