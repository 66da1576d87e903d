import Synchronization

/// Decoded tiles shared by every renderer of one tile overlay: when several maps show the same
/// overlay (the sessions of `termmap serve`, a map and its snapshots), a tile one of them
/// loaded and decoded is drawn by the next without a second load or decode, and the decoded
/// data is held once, however many maps show it.
///
/// Set it on the overlay (`TileOverlay.sharedContent`) before adding the overlay to maps.
/// Each renderer still keeps its own cache of what it draws, but the entries of those caches
/// are the shared values (vector features, pictures and dots are held by reference), so memory
/// grows with the distinct tiles shown, not with the maps. Content is kept per kind of
/// renderer (a renderer class decodes bytes its own way) and bounded by `byteLimit`, the least
/// recently used first out.
public final class SharedTileContent: Sendable {
  struct Key: Hashable {
    let renderer: ObjectIdentifier
    let path: TileOverlayPath
  }

  struct Store {
    var entries: [Key: (content: any TileContent, used: UInt64, bytes: Int)] = [:]
    var bytes = 0
    var clock: UInt64 = 0
    var hits = 0
    var stored = 0
  }

  /// The most bytes of decoded content kept (as the contents' `byteCount` say).
  public let byteLimit: Int
  private let store = Mutex(Store())

  /// A shared cache keeping at most `byteLimit` bytes of decoded tiles.
  public init(byteLimit: Int = 256 << 20) {
    self.byteLimit = max(byteLimit, 0)
  }

  /// Tiles held now.
  public var count: Int { store.withLock { $0.entries.count } }
  /// Bytes held now.
  public var byteCount: Int { store.withLock { $0.bytes } }
  /// Tiles a renderer took from here instead of loading them.
  public var hits: Int { store.withLock { $0.hits } }
  /// Tiles renderers decoded and put here.
  public var stored: Int { store.withLock { $0.stored } }

  func content(for key: Key) -> (any TileContent)? {
    store.withLock { s in
      guard var e = s.entries[key] else { return nil }
      s.clock += 1
      s.hits += 1
      e.used = s.clock
      s.entries[key] = e
      return e.content
    }
  }

  func put(_ content: any TileContent, for key: Key) {
    let bytes = max(content.byteCount, 64)
    guard bytes <= byteLimit else { return }
    store.withLock { s in
      s.clock += 1
      s.stored += 1
      if let old = s.entries[key] { s.bytes -= old.bytes }
      s.entries[key] = (content, s.clock, bytes)
      s.bytes += bytes
      guard s.bytes > byteLimit else { return }
      // The least recently used go until three quarters of the limit are left.
      for (key, value) in s.entries.sorted(by: { $0.value.used < $1.value.used })
      where s.bytes > byteLimit * 3 / 4 {
        s.entries.removeValue(forKey: key)
        s.bytes -= value.bytes
      }
    }
  }
}
