import Foundation
import MapGeometry

/// A decoded tile found for a requested tile: the tile itself, or an ancestor to draw scaled up.
public struct AvailableTile: Sendable {
  /// The decoded tile of `sourceID`.
  public let tile: DecodedTile
  /// The tile that was decoded: the requested one, or its deepest available ancestor.
  public let sourceID: TileID
  /// The tile that was asked for.
  public let requestedID: TileID
  /// How many times the source tile is magnified to cover the requested one: 2^(requested z −
  /// source z); 1 when the tile itself was found.
  public let scale: Int

  /// True when an ancestor stands in for the requested tile.
  public var isOverzoomed: Bool { scale > 1 }

  /// The part of the source tile that the requested tile covers, in the source tile's coordinates
  /// for a layer `extent` (the whole tile, 0…extent, when not overzoomed). Use it to skip
  /// features outside the requested tile.
  public func sourceBox(extent: Int) -> TileBox {
    let dz = requestedID.z - sourceID.z
    let ox = requestedID.x - (sourceID.x << dz)
    let oy = requestedID.y - (sourceID.y << dz)
    let size = Int64(extent) / Int64(scale)
    func c(_ v: Int64) -> Int32 { Int32(clamping: v) }
    return TileBox(
      minX: c(Int64(ox) * size), minY: c(Int64(oy) * size),
      maxX: c(Int64(ox + 1) * size), maxY: c(Int64(oy + 1) * size))
  }
}

/// The tile `id`'s ancestor at zoom `z` (z ≤ id.z).
func ancestorTile(of id: TileID, atZoom z: Int) -> TileID {
  let dz = id.z - z
  guard dz > 0 else { return id }
  return TileID(z: z, x: id.x >> dz, y: id.y >> dz)
}

/// Vector tiles from a source, inflated, decoded and cached: what a renderer asks for.
///
/// Thread-safe. Decoded tiles, missing tiles and tiles that failed to decode are cached (source
/// read errors are not, so they are retried). Concurrent requests for the same tile decode it once.
public final class VectorTileProvider: Sendable {
  /// What the cache holds for a tile.
  public enum Entry: Sendable {
    /// The decoded tile.
    case tile(DecodedTile)
    /// The source has no tile there.
    case missing
    /// The tile's data could not be inflated or decoded.
    case failed(any Error)
  }

  /// The source tiles come from.
  public let source: any TileSource
  /// Decoded, missing and failed tiles, bounded.
  public let cache: LRUCache<TileID, Entry>
  /// Only these layers are decoded (nil: all).
  public let layers: Set<String>?
  /// Largest inflated tile accepted.
  public let inflateLimit: Int
  /// Locks that make concurrent loads of one tile wait for each other (striped by tile).
  private let stripes: [NSLock]

  /// A provider decoding the tiles of a vector source, with a bounded cache.
  ///
  /// - Parameters:
  ///   - source: a vector source (a raster source throws `TileSourceError.wrongFormat`).
  ///   - cacheCount: most tiles cached (decoded, missing or failed).
  ///   - cacheBytes: most approximate memory held by cached decoded tiles.
  ///   - layers: decode only these layers (nil: all).
  ///   - inflateLimit: the largest inflated tile accepted, in bytes.
  public init(
    source: any TileSource, cacheCount: Int = 512, cacheBytes: Int = 256 << 20,
    layers: Set<String>? = nil, inflateLimit: Int = Inflate.defaultLimit
  ) throws {
    guard source.format.isVector else {
      throw TileSourceError.wrongFormat(path: source.name, format: source.format, expected: .pbf)
    }
    self.source = source
    self.cache = LRUCache(countLimit: cacheCount, costLimit: cacheBytes)
    self.layers = layers
    self.inflateLimit = inflateLimit
    self.stripes = (0..<16).map { _ in NSLock() }
  }

  /// The decoded tile `id`, from the cache or loaded now (blocking); nil when the source has no
  /// tile there. Throws the source's read errors and the tile's inflate or decode error.
  public func decodedTile(_ id: TileID) throws -> DecodedTile? {
    if let entry = cache.value(for: id) { return try Self.unwrap(entry) }
    let lock = stripes[(id.hashValue & Int.max) % stripes.count]
    lock.lock()
    defer { lock.unlock() }
    if let entry = cache.value(for: id) { return try Self.unwrap(entry) }
    let data = try source.tile(id)
    let entry = decode(data)
    store(entry, for: id)
    return try Self.unwrap(entry)
  }

  /// The cached entry for `id`, without loading.
  public func cachedEntry(_ id: TileID) -> Entry? { cache.value(for: id) }

  /// Loads (if not cached), decodes and caches `id` without blocking; `completion` gets the
  /// decoded tile or nil (missing), on an arbitrary thread.
  public func loadTile(
    _ id: TileID, completion: @escaping @Sendable (Result<DecodedTile?, any Error>) -> Void
  ) {
    if let entry = cache.value(for: id) {
      completion(Result { try Self.unwrap(entry) })
      return
    }
    source.loadTile(id) { [self] result in
      switch result {
      case .failure(let error):
        completion(.failure(error))
      case .success(let data):
        let entry: Entry
        if let cached = cache.value(for: id) {
          entry = cached
        } else {
          entry = decode(data)
          store(entry, for: id)
        }
        completion(Result { try Self.unwrap(entry) })
      }
    }
  }

  /// `loadTile` for async callers.
  public func loadTile(_ id: TileID) async throws -> DecodedTile? {
    try await withCheckedThrowingContinuation { continuation in
      loadTile(id) { continuation.resume(with: $0) }
    }
  }

  /// The tile `id` if the source has it, else its deepest available ancestor (above the source's
  /// maxZoom this starts from the ancestor at maxZoom). Tiles outside the source's zoom range or
  /// bounds are not looked up; a tile that fails to load or decode counts as missing. Nil when
  /// nothing down to minZoom is available. Blocking: loads what is not cached.
  public func bestAvailable(for id: TileID) -> AvailableTile? {
    search(id) { try? decodedTile($0) }
  }

  /// Like `bestAvailable(for:)` but only looks in the cache (never blocks on the source): for a
  /// renderer that loads tiles in the background and draws what it has meanwhile.
  public func bestCached(for id: TileID) -> AvailableTile? {
    search(id) { candidate in
      if case .tile(let t) = cache.value(for: candidate) { return t }
      return nil
    }
  }

  private func search(_ id: TileID, lookup: (TileID) -> DecodedTile?) -> AvailableTile? {
    guard id.z >= source.minZoom, id.z >= 0, id.z <= 30 else { return nil }
    let n = 1 << id.z
    guard id.x >= 0, id.x < n, id.y >= 0, id.y < n else { return nil }
    var z = min(id.z, source.maxZoom)
    while z >= source.minZoom {
      let candidate = ancestorTile(of: id, atZoom: z)
      if source.covers(candidate), let tile = lookup(candidate) {
        return AvailableTile(
          tile: tile, sourceID: candidate, requestedID: id, scale: 1 << (id.z - z))
      }
      z -= 1
    }
    return nil
  }

  private func decode(_ data: Data?) -> Entry {
    guard let data else { return .missing }
    do {
      let raw = try Inflate.decompressIfNeeded(data, limit: inflateLimit)
      return .tile(try VectorTileDecoder.decode(raw, layers: layers))
    } catch {
      return .failed(error)
    }
  }

  private func store(_ entry: Entry, for id: TileID) {
    let cost: Int
    switch entry {
    case .tile(let t): cost = t.approximateByteCount
    case .missing, .failed: cost = 64
    }
    cache.insert(entry, for: id, cost: cost)
  }

  private static func unwrap(_ entry: Entry) throws -> DecodedTile? {
    switch entry {
    case .tile(let t): return t
    case .missing: return nil
    case .failed(let e): throw e
    }
  }
}
