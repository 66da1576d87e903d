import Dispatch
import Foundation
import MapGeometry
import Synchronization

/// Tiles fetched over HTTP(S) from a URL template such as
/// `https://{s}.example.com/tiles/{z}/{x}/{y}.pbf`, with a disk cache.
///
/// - Template: `{z}`, `{x}`, `{y}` (required), `{-y}` (TMS row), `{s}` (one of `subdomains`,
///   chosen by the tile so a tile always has the same URL), `{r}` (a retina suffix; removed).
/// - Disk cache: `<cache home>/termmap/tiles/<hash of the template>/z/x/y` holds the body and
///   `y.meta` its ETag, Last-Modified, fetch time and freshness. A cached tile is used without
///   asking while it is fresh: for as long as the server's `Cache-Control: max-age` (or
///   `Expires`) said, else `maxAge`; `no-store` responses are not written to disk. An older one
///   is revalidated with `If-None-Match` /
///   `If-Modified-Since` (304 refreshes its time). A 404 is cached too (as no tile). The cache
///   is bounded by `maxCacheBytes` (least recently used entries go first) and written through
///   temporary files that never stay behind (`TileDiskCache`).
/// - A response may have at most `maxResponseBytes` (after decoding gzip, deflate, brotli or
///   zstd): a larger one is stopped as soon as it is seen (`BoundedHTTPClient`, over libcurl:
///   kept-alive connections, the `*_proxy` environment variables, the system's CA
///   certificates). Only a body that arrived whole and is what
///   the format says (a vector tile that inflates and decodes; a PNG, JPEG or WebP signature)
///   is returned and cached; anything else fails like a server error.
/// - 404 and 410 mean no tile (nil). Other statuses, time-outs and transport errors fail with
///   `TileSourceError.readFailed`, unless a stale copy is on disk, which is served instead.
/// - At most `maxConcurrentRequests` requests are in flight; the rest wait in a queue and the
///   one nearest to `focus` goes first. Requests for one tile share one fetch. `cancel(_:)`
///   and `cancelAll(except:)` drop tiles no longer wanted (their completions get
///   `CancellationError`).
///
/// `loadTile(_:completion:)` never blocks the caller; `tile(_:)` waits for it.
public final class HTTPTileSource: TileSource, TileRequestScheduling, Sendable {
  /// The URL template.
  public let template: String
  /// The values `{s}` takes.
  public let subdomains: [String]
  public let minZoom: Int
  public let maxZoom: Int
  public let bounds: MapRect?
  public let attribution: String
  public let vectorLayers: [String]
  public let format: TileFormat
  /// True when a body is kept whatever `format` says, as long as it is some tile (a PNG,
  /// JPEG or WebP signature, or a vector tile that inflates and decodes): for a template
  /// whose tiles' encoding is told by their bytes (`TileOverlay(urlTemplate:)`).
  public let sniffsFormat: Bool
  /// The source's name (a TileJSON `name`), else its template.
  public var name: String { displayName ?? template }
  private let displayName: String?
  /// Where this template's tiles are cached (nil: no disk cache).
  public let cacheDirectory: URL?
  /// How long a cached tile is used without asking the server.
  public let maxAge: TimeInterval
  /// Longest wait for one response, in seconds.
  public let timeout: TimeInterval
  /// Most requests in flight at once.
  public let maxConcurrentRequests: Int
  /// The largest response body accepted, in bytes (after gzip decoding).
  public let maxResponseBytes: Int
  /// The bound of this template's disk cache, in bytes.
  public let maxCacheBytes: Int

  /// 8 MiB: real vector tiles are at most a few hundred kB, raster tiles less.
  public static let defaultMaxResponseBytes = 8 << 20
  /// 512 MiB per URL template, unless `TERMMAP_TILE_CACHE_MB` says otherwise.
  public static let defaultMaxCacheBytes = 512 << 20

  private let client: BoundedHTTPClient
  private let workers: BlockingWorkPool
  private let diskCache: TileDiskCache?
  private let userAgent: String
  private let state = Mutex(State())
  private let diskQueue = DispatchQueue(label: "termmap.http-tiles.disk", attributes: .concurrent)

  /// Counters, for tests and the status line.
  public struct Statistics: Sendable, Equatable {
    /// Requests sent to the server.
    public var requests = 0
    /// Tiles served from the disk cache without asking.
    public var diskHits = 0
    /// 304 answers (a cached tile revalidated).
    public var notModified = 0
    /// Failed requests (status, time-out, transport error).
    public var failures = 0
    /// Requests cancelled before they finished.
    public var cancelled = 0
    /// The most requests that were in flight at one time.
    public var peakInFlight = 0
  }

  private struct Waiter {
    let completion: @Sendable (Result<Data?, any Error>) -> Void
  }

  private struct Running {
    var waiters: [Waiter]
    let cancellation = BoundedHTTPClient.Cancellation()
    var token: Int
  }

  private struct Queued {
    var waiters: [Waiter]
    var cached: CachedTile?
    var order: Int
    /// The URL to fetch (nil: the template's).
    var url: URL?
  }

  private struct State {
    var running: [TileID: Running] = [:]
    var queued: [TileID: Queued] = [:]
    var focus: MapPoint?
    var counter = 0
    var statistics = Statistics()
  }

  /// A source of tiles from a URL template.
  ///
  /// - Parameters:
  ///   - template: an http(s) URL with `{z}`, `{x}` and `{y}`.
  ///   - subdomains: values for `{s}` (default a, b, c when the template has `{s}`).
  ///   - minZoom: the lowest zoom level the server has.
  ///   - maxZoom: the highest zoom level the server has; above it tiles are overzoomed.
  ///   - format: the tiles' encoding (default: from the template's extension, else pbf).
  ///   - sniffsFormat: true to keep any tile the server sends (PNG, JPEG, WebP or vector),
  ///     told apart by its bytes, whatever `format` says.
  ///   - bounds: where the server has tiles (nil: the whole world).
  ///   - attribution: the credit line the server asks for.
  ///   - cacheHome: the XDG cache home (default `$XDG_CACHE_HOME`, else `~/.cache`).
  ///   - diskCache: false keeps nothing on disk.
  ///   - maxAge: how long a tile on disk is used without asking the server again, in seconds.
  ///   - timeout: the longest wait for one answer, in seconds.
  ///   - maxConcurrentRequests: the most requests in flight at once.
  ///   - maxResponseBytes: the largest body accepted (default 8 MiB).
  ///   - maxCacheBytes: the disk cache's bound (default: `TERMMAP_TILE_CACHE_MB` mebibytes
  ///     when set to a whole number, else 512 MiB).
  ///   - vectorLayers: the layer names the tiles hold, when known (a TileJSON's).
  ///   - name: a name for messages and lists (default: the template).
  ///   - userAgent: the `User-Agent` header sent.
  public init(
    template: String, subdomains: [String]? = nil, minZoom: Int = 0, maxZoom: Int = 14,
    format: TileFormat? = nil, sniffsFormat: Bool = false, bounds: MapRect? = nil,
    attribution: String = "",
    cacheHome: URL? = nil, diskCache: Bool = true, maxAge: TimeInterval = 7 * 86_400,
    timeout: TimeInterval = 10, maxConcurrentRequests: Int = 6,
    userAgent: String = "termmap (terminal map viewer)",
    maxResponseBytes: Int = HTTPTileSource.defaultMaxResponseBytes, maxCacheBytes: Int? = nil,
    vectorLayers: [String] = [], name: String? = nil
  ) throws {
    try Self.validate(template)
    self.vectorLayers = vectorLayers.map(SafeText.clean)
    self.displayName = name.map(SafeText.clean).flatMap { $0.isEmpty ? nil : $0 }
    self.template = template
    if let subdomains, !subdomains.isEmpty {
      self.subdomains = subdomains
    } else {
      self.subdomains = template.contains("{s}") ? ["a", "b", "c"] : []
    }
    self.minZoom = max(0, minZoom)
    self.maxZoom = min(max(maxZoom, self.minZoom), 30)
    self.bounds = bounds
    self.attribution = SafeText.clean(attribution)
    self.format = format ?? Self.format(of: template)
    self.sniffsFormat = sniffsFormat
    self.maxResponseBytes = max(1, maxResponseBytes)
    self.maxCacheBytes = max(0, maxCacheBytes ?? Self.cacheBytesFromEnvironment())
    self.maxAge = maxAge
    self.timeout = timeout
    self.maxConcurrentRequests = max(1, maxConcurrentRequests)
    self.userAgent = userAgent
    if diskCache {
      let home = cacheHome ?? Self.defaultCacheHome()
      let directory = home.appendingPathComponent("termmap/tiles", isDirectory: true)
        .appendingPathComponent(Self.stableHash(template), isDirectory: true)
      cacheDirectory = directory
      self.diskCache = TileDiskCache(directory: directory, maxBytes: self.maxCacheBytes)
    } else {
      cacheDirectory = nil
      self.diskCache = nil
    }
    client = BoundedHTTPClient(
      timeout: timeout, maxConnections: self.maxConcurrentRequests, userAgent: userAgent)
    workers = BlockingWorkPool(limit: self.maxConcurrentRequests, name: "termmap.http-tiles")
  }

  static func cacheBytesFromEnvironment(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Int {
    if let text = environment["TERMMAP_TILE_CACHE_MB"],
      let mb = Int(text.trimmingCharacters(in: .whitespaces)), mb >= 0, mb < 1 << 40
    {
      return mb << 20
    }
    return defaultMaxCacheBytes
  }

  /// Waits until the disk cache's scheduled scans and pruning are done.
  public func waitForCacheMaintenance() {
    diskCache?.waitForMaintenance()
  }

  // MARK: Template

  /// True when `text` looks like an http(s) tile URL template.
  public static func isTemplate(_ text: String) -> Bool {
    let lower = text.lowercased()
    return lower.hasPrefix("http://") || lower.hasPrefix("https://")
  }

  static func validate(_ template: String) throws {
    guard isTemplate(template) else {
      throw TileSourceError.readFailed(
        path: template, message: "not a tile URL template (expected http:// or https://)")
    }
    let missing =
      ["{z}", "{x}"].filter { !template.contains($0) }
      + (template.contains("{y}") || template.contains("{-y}") ? [] : ["{y}"])
    guard missing.isEmpty else {
      throw TileSourceError.readFailed(
        path: template,
        message: "not a tile URL template: \(missing.joined(separator: ", ")) missing")
    }
    guard URL(string: fill(template, TileID(z: 0, x: 0, y: 0), subdomain: "a")) != nil else {
      throw TileSourceError.readFailed(path: template, message: "not a valid URL")
    }
  }

  static func fill(_ template: String, _ id: TileID, subdomain: String) -> String {
    template
      .replacingOccurrences(of: "{z}", with: String(id.z))
      .replacingOccurrences(of: "{x}", with: String(id.x))
      .replacingOccurrences(of: "{-y}", with: String(id.tmsY))
      .replacingOccurrences(of: "{y}", with: String(id.y))
      .replacingOccurrences(of: "{s}", with: subdomain)
      .replacingOccurrences(of: "{r}", with: "")
  }

  /// The URL of a tile.
  public func url(for id: TileID) -> URL? {
    let s = subdomains.isEmpty ? "" : subdomains[abs(id.x + id.y) % subdomains.count]
    return URL(string: Self.fill(template, id, subdomain: s))
  }

  static func format(of template: String) -> TileFormat {
    var path = template
    if let q = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<q]) }
    let ext = path.split(separator: "/").last.flatMap { last -> Substring? in
      guard let dot = last.lastIndex(of: ".") else { return nil }
      return last[last.index(after: dot)...]
    }
    return ext.flatMap { TileFormat(name: String($0)) } ?? .pbf
  }

  /// FNV-1a (64 bits) of the template, in hex: the same on every run and machine.
  static func stableHash(_ text: String) -> String {
    let hex = String(FNV1a.hash(text.utf8), radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  static func defaultCacheHome() -> URL {
    let env = ProcessInfo.processInfo.environment
    if let xdg = env["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      return URL(fileURLWithPath: xdg, isDirectory: true)
    }
    let home = env["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".cache")
  }

  // MARK: Scheduling

  /// The map point whose nearest queued tiles are fetched first (usually the view's centre).
  public var focus: MapPoint? {
    get { state.withLock { $0.focus } }
    set { state.withLock { $0.focus = newValue } }
  }

  /// Tiles queued or being fetched.
  public var pendingTiles: Set<TileID> {
    state.withLock { Set($0.running.keys).union($0.queued.keys) }
  }

  /// Requests in flight now.
  public var requestsInFlight: Int { state.withLock { $0.running.count } }

  /// Counts of requests, cache hits and failures so far.
  public var statistics: Statistics { state.withLock { $0.statistics } }

  /// Stops fetching a tile: queued, it is dropped; in flight, its request is cancelled. Its
  /// completions get `CancellationError`.
  public func cancel(_ id: TileID) {
    cancel { $0 == id }
  }

  /// Cancels every queued or running tile not in `keep`.
  public func cancelAll(except keep: Set<TileID> = []) {
    cancel { !keep.contains($0) }
  }

  private func cancel(where shouldCancel: (TileID) -> Bool) {
    let (waiters, tasks) = state.withLock { s -> ([Waiter], [BoundedHTTPClient.Cancellation]) in
      var waiters: [Waiter] = []
      var tasks: [BoundedHTTPClient.Cancellation] = []
      for (id, q) in s.queued where shouldCancel(id) {
        waiters += q.waiters
        s.queued[id] = nil
        s.statistics.cancelled += 1
      }
      for (id, r) in s.running where shouldCancel(id) {
        waiters += r.waiters
        tasks.append(r.cancellation)
        s.running[id] = nil
        s.statistics.cancelled += 1
      }
      return (waiters, tasks)
    }
    for t in tasks { t.cancel() }
    for w in waiters { w.completion(.failure(CancellationError())) }
    if !tasks.isEmpty { startQueued() }
  }

  // MARK: Loading

  public func tile(_ id: TileID) throws -> Data? {
    let done = DispatchSemaphore(value: 0)
    let result = Mutex<Result<Data?, any Error>?>(nil)
    loadTile(id) { r in
      result.withLock { $0 = r }
      done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
  }

  public func loadTile(
    _ id: TileID, completion: @escaping @Sendable (Result<Data?, any Error>) -> Void
  ) {
    loadTile(id, from: nil, completion: completion)
  }

  /// Loads a tile from `url` rather than the template's URL (for a caller that makes its own
  /// URLs, such as a `TileOverlay` with `url(forTilePath:)`), with everything else as
  /// `loadTile(_:completion:)`: the disk cache (under `id`), the queue, the checks.
  public func loadTile(
    _ id: TileID, from url: URL?,
    completion: @escaping @Sendable (Result<Data?, any Error>) -> Void
  ) {
    let n = 1 << min(max(id.z, 0), 30)
    guard id.z >= 0, id.z <= 30, id.x >= 0, id.x < n, id.y >= 0, id.y < n else {
      completion(.success(nil))
      return
    }
    diskQueue.async { [self] in
      let cached = readCache(id)
      if let cached, cached.age < (cached.meta.freshFor ?? maxAge) {
        state.withLock { $0.statistics.diskHits += 1 }
        completion(.success(cached.body))
        return
      }
      let waiter = Waiter(completion: completion)
      let shouldStart = state.withLock { s -> Bool in
        if s.running[id] != nil {
          s.running[id]!.waiters.append(waiter)
          return false
        }
        if s.queued[id] != nil {
          s.queued[id]!.waiters.append(waiter)
          return false
        }
        s.counter += 1
        s.queued[id] = Queued(waiters: [waiter], cached: cached, order: s.counter, url: url)
        return true
      }
      if shouldStart { startQueued() }
    }
  }

  /// Starts queued requests while fewer than the limit are in flight, nearest the focus first.
  private func startQueued() {
    while true {
      let next = state.withLock { s -> (TileID, Queued, Int)? in
        guard s.running.count < maxConcurrentRequests, !s.queued.isEmpty else { return nil }
        let focus = s.focus
        let pick = s.queued.min { a, b in
          let da = Self.distance(a.key, focus)
          let db = Self.distance(b.key, focus)
          return da != db ? da < db : a.value.order < b.value.order
        }!
        s.queued[pick.key] = nil
        s.counter += 1
        s.running[pick.key] = Running(waiters: pick.value.waiters, token: s.counter)
        s.statistics.requests += 1
        s.statistics.peakInFlight = max(s.statistics.peakInFlight, s.running.count)
        return (pick.key, pick.value, s.counter)
      }
      guard let (id, queued, token) = next else { return }
      start(id, cached: queued.cached, token: token, url: queued.url)
    }
  }

  /// Squared distance from a tile's centre to the focus (across the antimeridian too).
  static func distance(_ id: TileID, _ focus: MapPoint?) -> Double {
    guard let f = focus else { return 0 }
    let m = id.mapRect.mid
    let w = MapSize.world.width
    var dx = abs(m.x - f.x).truncatingRemainder(dividingBy: w)
    dx = min(dx, w - dx)
    let dy = m.y - f.y
    return dx * dx + dy * dy
  }

  private func start(_ id: TileID, cached: CachedTile?, token: Int, url given: URL?) {
    guard let url = given ?? url(for: id),
      let cancellation = state.withLock({ s in
        s.running[id].flatMap { $0.token == token ? $0.cancellation : nil }
      })
    else {
      finish(id, token: token, .failure(readError(id, "not a valid URL")))
      return
    }
    var headers: [(name: String, value: String)] = []
    if let cached {
      if let etag = cached.meta.etag { headers.append(("If-None-Match", etag)) }
      if let lm = cached.meta.lastModified { headers.append(("If-Modified-Since", lm)) }
    }
    let request = BoundedHTTPClient.Request(url: url.absoluteString, headers: headers)
    workers.run { [self] in
      let reply = Result {
        try client.fetch(
          request, limits: .init(ok: maxResponseBytes, partial: maxResponseBytes),
          cancellation: cancellation)
      }
      finish(id, token: token, handle(id, reply, cached: cached))
    }
  }

  private func finish(_ id: TileID, token: Int, _ result: Result<Data?, any Error>) {
    let waiters = state.withLock { s -> [Waiter]? in
      guard let r = s.running[id], r.token == token else { return nil }
      s.running[id] = nil
      if case .failure = result { s.statistics.failures += 1 }
      return r.waiters
    }
    guard let waiters else { return }  // cancelled, or finished by the watchdog
    startQueued()
    for w in waiters { w.completion(result) }
  }

  private func handle(
    _ id: TileID, _ reply: Result<BoundedHTTPClient.Reply, any Error>, cached: CachedTile?
  ) -> Result<Data?, any Error> {
    let http: HTTPResponseHead
    let data: Data
    switch reply {
    case .success(let r):
      http = r.response
      data = r.body
    case .failure(BoundedHTTPClient.Failure.cancelled):
      return .failure(CancellationError())
    case .failure(BoundedHTTPClient.Failure.tooLarge(200, _)),
      .failure(BoundedHTTPClient.Failure.tooLarge(206, _)):
      if let cached { return .success(cached.body) }
      return .failure(
        readError(id, "the response is larger than the limit of \(maxResponseBytes) bytes"))
    case .failure(BoundedHTTPClient.Failure.tooLarge(let status, _)):
      if let cached { return .success(cached.body) }
      return .failure(readError(id, "HTTP \(status) \(HTTPResponseHead.reason(status))"))
    case .failure(let error):
      if let cached { return .success(cached.body) }
      let failure = error as? BoundedHTTPClient.Failure ?? .transport("\(error)")
      return .failure(readError(id, failure.message(timeout: timeout)))
    }
    switch http.statusCode {
    case 200..<300 where http.statusCode != 204:
      let body = data
      if let problem = Self.problem(
        with: body, response: http, format: sniffsFormat ? nil : format)
      {
        if let cached { return .success(cached.body) }
        return .failure(readError(id, "HTTP \(http.statusCode) but \(problem); not cached"))
      }
      let policy = Self.cachePolicy(http)
      let meta = CacheMeta(
        status: 200, etag: http.value(forHTTPHeaderField: "ETag"),
        lastModified: http.value(forHTTPHeaderField: "Last-Modified"),
        fetched: Date().timeIntervalSince1970, freshFor: policy.freshFor)
      if policy.store { writeCache(id, body: body, meta: meta) }
      return .success(body)
    case 204, 404, 410:
      writeCache(
        id, body: nil,
        meta: CacheMeta(
          status: 404, etag: nil, lastModified: nil, fetched: Date().timeIntervalSince1970))
      return .success(nil)
    case 304:
      guard let cached else { return .failure(readError(id, "HTTP 304 without a cached tile")) }
      state.withLock { $0.statistics.notModified += 1 }
      var meta = cached.meta
      meta.fetched = Date().timeIntervalSince1970
      if let etag = http.value(forHTTPHeaderField: "ETag") { meta.etag = etag }
      let policy = Self.cachePolicy(http)
      if policy.freshFor != nil || !policy.store { meta.freshFor = policy.freshFor }
      writeCache(id, body: nil, meta: meta, keepBody: true)
      return .success(cached.body)
    default:
      if let cached { return .success(cached.body) }
      let reason = HTTPResponseHead.reason(http.statusCode)
      return .failure(readError(id, "HTTP \(http.statusCode) \(reason)"))
    }
  }

  /// Why a 2xx body is not a tile to keep, or nil: it ended before its Content-Length, or it
  /// is not what `format` says (a vector tile must inflate and decode; PNG, JPEG and WebP
  /// must start with their signatures; nil: any of them).
  static func problem(with body: Data, response: HTTPResponseHead, format: TileFormat?)
    -> String?
  {
    let encoding = response.value(forHTTPHeaderField: "Content-Encoding")?.lowercased()
    if encoding == nil || encoding == "identity", let expected = response.expectedContentLength,
      Int64(body.count) != expected
    {
      return "the body ended after \(body.count) of \(expected) bytes"
    }
    let head = [UInt8](body.prefix(12))
    // The pictures' signatures first; a vector tile has none, so it must decode.
    let formats = format.map { [$0] } ?? [.png, .jpg, .webp, .pbf]
    for f in formats where !f.isVector && signature(head, f) == nil { return nil }
    guard formats.contains(.pbf) else { return signature(head, formats[0]) }
    do {
      _ = try VectorTileDecoder.decodeCompressed(body)
      return nil
    } catch {
      return format == nil
        ? "the body is not a tile (PNG, JPEG, WebP or vector: \(error))"
        : "the body is not a vector tile (\(error))"
    }
  }

  /// Why the first bytes are not a picture of `format` (nil: they are; always nil for pbf,
  /// which has no signature).
  private static func signature(_ head: [UInt8], _ format: TileFormat) -> String? {
    switch format {
    case .pbf:
      return nil
    case .png:
      return head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        ? nil : "the body is not a PNG image"
    case .jpg:
      return head.starts(with: [0xFF, 0xD8, 0xFF]) ? nil : "the body is not a JPEG image"
    case .webp:
      return head.count == 12 && head.starts(with: Array("RIFF".utf8))
        && head[8...].elementsEqual("WEBP".utf8) ? nil : "the body is not a WebP image"
    }
  }

  private func readError(_ id: TileID, _ message: String) -> TileSourceError {
    .readFailed(path: url(for: id)?.absoluteString ?? "\(template) \(id)", message: message)
  }

  static func seconds(_ t: TimeInterval) -> String {
    t == t.rounded() ? "\(Int(t)) s" : "\(t) s"
  }

  // MARK: Disk cache

  struct CacheMeta: Codable {
    /// 200 (a body is stored) or 404 (no tile).
    var status: Int
    var etag: String?
    var lastModified: String?
    /// Seconds since 1970 when the server last confirmed the tile.
    var fetched: Double
    /// How long the server said the tile stays fresh (Cache-Control max-age, Expires); nil
    /// when it did not say (then `maxAge` applies).
    var freshFor: Double? = nil
  }

  /// What a response's caching headers allow (RFC 9111, for a private cache): `store` is false
  /// for `Cache-Control: no-store`; `freshFor` is `max-age` (or `Expires` less `Date`), 0 for
  /// `no-cache` (use the copy only after asking again), nil when the server says nothing.
  static func cachePolicy(_ http: HTTPResponseHead) -> (store: Bool, freshFor: Double?) {
    var store = true
    var freshFor: Double?
    if let cc = http.value(forHTTPHeaderField: "Cache-Control") {
      for part in cc.split(separator: ",") {
        let d = part.trimmingCharacters(in: .whitespaces).lowercased()
        if d == "no-store" {
          store = false
        } else if d == "no-cache" {
          freshFor = 0
        } else if d.hasPrefix("max-age="), freshFor != 0,
          let n = Double(
            d.dropFirst("max-age=".count).trimmingCharacters(in: .init(charactersIn: "\""))),
          n.isFinite
        {
          freshFor = max(0, n)
        }
      }
    }
    if freshFor == nil, let expires = http.value(forHTTPHeaderField: "Expires") {
      let date = http.value(forHTTPHeaderField: "Date").flatMap(httpDate) ?? Date()
      // An invalid Expires (e.g. "0") means already expired.
      freshFor = httpDate(expires).map { max(0, $0.timeIntervalSince(date)) } ?? 0
    }
    return (store, freshFor)
  }

  /// An HTTP date (IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT").
  static func httpDate(_ s: String) -> Date? {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = TimeZone(identifier: "GMT")
    f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    return f.date(from: s.trimmingCharacters(in: .whitespaces))
  }

  struct CachedTile {
    var meta: CacheMeta
    /// nil for a cached 404.
    var body: Data?
    var age: TimeInterval { Date().timeIntervalSince1970 - meta.fetched }
  }

  /// The body file of a tile in the disk cache.
  public func cacheFile(for id: TileID) -> URL? {
    diskCache?.bodyFile(for: id)
  }

  private func readCache(_ id: TileID) -> CachedTile? {
    guard let diskCache,
      let stored = diskCache.read(id, body: true, bodyLimit: maxResponseBytes)
        ?? diskCache.read(id, body: false, bodyLimit: 0),
      let meta = try? JSONDecoder().decode(CacheMeta.self, from: stored.meta)
    else { return nil }
    if meta.status == 404 {
      diskCache.touch(id)
      return CachedTile(meta: meta, body: nil)
    }
    guard let body = stored.body else { return nil }
    diskCache.touch(id)
    return CachedTile(meta: meta, body: body)
  }

  private func writeCache(_ id: TileID, body: Data?, meta: CacheMeta, keepBody: Bool = false) {
    guard let diskCache, let metaData = try? JSONEncoder().encode(meta) else { return }
    diskCache.write(id, body: body, meta: metaData, keepBody: keepBody)
  }
}

/// A source that fetches tiles from far away and can be told which ones matter most: where the
/// view is (nearest first) and which requests are no longer wanted.
public protocol TileRequestScheduling: AnyObject, Sendable {
  /// The map point whose nearest tiles are fetched first.
  var focus: MapPoint? { get set }
  /// Tiles queued or being fetched.
  var pendingTiles: Set<TileID> { get }
  /// Stops fetching a tile (its completions get `CancellationError`).
  func cancel(_ id: TileID)
  /// Stops fetching every tile not in `keep`.
  func cancelAll(except keep: Set<TileID>)
}
