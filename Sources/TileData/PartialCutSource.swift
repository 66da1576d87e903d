import Foundation
import MapGeometry
import Synchronization

/// The tiles of a cut still downloading (`PMTilesExtract.download`), read from its spool as
/// their byte ranges arrive: a viewer draws the region filling in. Tiles whose bytes are not
/// all stored yet are absent (nil); call `markStored(_:)` from `download`'s `stored` and redraw.
public final class PartialCutSource: TileSource {
  /// The cut's shallowest zoom.
  public let minZoom: Int
  /// The cut's deepest zoom.
  public let maxZoom: Int
  /// The cut's box (nil across the antimeridian).
  public let bounds: MapRect?
  /// The source archive's credits.
  public let attribution: String
  /// The source archive's vector layers.
  public let vectorLayers: [String]
  /// The source archive's tile format.
  public let format: TileFormat
  /// The region's name.
  public let name: String
  private let plan: PMTilesExtract
  private let spoolPath: String
  /// Where each range starts in the spool (the ranges back to back).
  private let spoolOffsets: [UInt64]
  private let starts: [UInt64]
  /// Index into `plan.tiles` by tile id.
  private let index: [UInt64: Int]
  private let state = Mutex((stored: Set<Int>(), fd: Int32(-1)))

  /// The cut `plan` being downloaded to `output` (its spool is `output.part`).
  public init(plan: PMTilesExtract, output: String, name: String) {
    self.plan = plan
    self.name = name
    spoolPath = output + ".part"
    minZoom = plan.minZoom
    maxZoom = plan.maxZoom
    let nw = MapPoint(Coordinate(latitude: plan.north, longitude: plan.west))
    let se = MapPoint(Coordinate(latitude: plan.south, longitude: plan.east))
    bounds =
      plan.west <= plan.east
      ? MapRect(x: nw.x, y: nw.y, width: se.x - nw.x, height: se.y - nw.y) : nil
    let meta = (try? JSONSerialization.jsonObject(with: plan.metadata)) as? [String: Any] ?? [:]
    attribution = SafeText.clean(meta["attribution"] as? String ?? "")
    vectorLayers =
      (meta["vector_layers"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
    switch plan.header.tileType {
    case .png: format = .png
    case .jpeg: format = .jpg
    case .webp: format = .webp
    default: format = .pbf
    }
    spoolOffsets = plan.spoolOffsets
    starts = plan.ranges.map(\.offset)
    var byID: [UInt64: Int] = [:]
    for (i, t) in plan.tiles.enumerated() { byID[t.tileID] = i }
    index = byID
  }

  deinit {
    let fd = state.withLock { $0.fd }
    if fd >= 0 { close(fd) }
  }

  /// Range `range` of the plan is in the spool.
  public func markStored(_ range: Int) {
    state.withLock { _ = $0.stored.insert(range) }
  }

  /// Ranges stored so far.
  public var storedCount: Int { state.withLock { $0.stored.count } }

  /// The tile's bytes as the source stores them, once all of them are in the spool; nil
  /// before, and for tiles outside the cut.
  public func tile(_ id: TileID) throws -> Data? {
    guard let tileID = PMTiles.tileID(id), let i = index[tileID] else { return nil }
    let t = plan.tiles[i]
    guard let held = plan.ranges(holding: t, starts: starts) else { return nil }
    let fd = state.withLock { s -> Int32 in
      guard held.allSatisfy({ s.stored.contains($0) }) else { return -1 }
      if s.fd < 0 { s.fd = open(spoolPath, O_RDONLY | O_CLOEXEC) }
      return s.fd
    }
    guard fd >= 0 else { return nil }
    var bytes = Data(count: Int(t.length))
    let at = plan.spoolOffset(of: t, in: held.lowerBound, spoolOffsets: spoolOffsets)
    let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(at)) }
    return got == Int(t.length) ? bytes : nil
  }
}
