import Foundation
import MapGeometry

/// A TileJSON document (https://github.com/mapbox/tilejson-spec/tree/master/3.0.0): where a
/// tile set's tiles are and what they hold. Read from a local file or an http(s) URL, it makes
/// an `HTTPTileSource`.
///
/// Fields read: `tiles` (URL templates; the first is used, relative ones are resolved against
/// the document's URL), `minzoom`, `maxzoom`, `bounds` (west, south, east, north in degrees),
/// `scheme` (`xyz` or `tms`; tms turns `{y}` into `{-y}`), `attribution`, `vector_layers`
/// (the ids), `name`, `format` (not in the spec, but common). Other fields are ignored.
public struct TileJSON: Sendable, Equatable {
  /// The `tilejson` version string, when given.
  public var version: String?
  /// The tile URL templates as written.
  public var tiles: [String]
  /// The lowest zoom with tiles.
  public var minZoom: Int?
  /// The highest zoom with tiles.
  public var maxZoom: Int?
  /// west, south, east, north (degrees).
  public var bounds: [Double]?
  /// Whether rows count from the north (xyz) or the south (tms).
  public var scheme: TileScheme
  /// The credit line (empty when none).
  public var attribution: String
  /// The layer names of `vector_layers`.
  public var vectorLayers: [String]
  /// The tileset's name.
  public var name: String?
  /// The tiles' format, when the document says.
  public var format: TileFormat?
  /// The file path or URL the document came from.
  public var location: String

  /// The largest document accepted (real ones are a few kilobytes; vector_layers with many
  /// fields can reach a few hundred).
  public static let maxBytes = 1 << 20

  /// Parses a document. `location` names it in errors and resolves relative tile URLs.
  public init(data: Data, location: String) throws {
    self.location = location
    func fail(_ message: String) -> TileSourceError {
      .readFailed(path: location, message: message)
    }
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw fail("not a TileJSON document (invalid JSON)")
    }
    guard let json = object as? [String: Any] else {
      throw fail("not a TileJSON document (not a JSON object)")
    }
    func int(_ key: String) throws -> Int? {
      guard let value = json[key] else { return nil }
      guard let n = value as? NSNumber, !isJSONBool(n), n.doubleValue == n.doubleValue.rounded(),
        (0...30).contains(n.intValue)
      else { throw fail("TileJSON \(key) must be an integer from 0 to 30") }
      return n.intValue
    }
    func string(_ key: String) throws -> String? {
      guard let value = json[key], !(value is NSNull) else { return nil }
      guard let s = value as? String else { throw fail("TileJSON \(key) must be a string") }
      return s
    }

    guard let tiles = json["tiles"] as? [String], !tiles.isEmpty, tiles.allSatisfy({ !$0.isEmpty })
    else { throw fail("TileJSON has no \"tiles\" URLs") }
    self.tiles = tiles
    version = try string("tilejson")
    minZoom = try int("minzoom")
    maxZoom = try int("maxzoom")
    if let lo = minZoom, let hi = maxZoom, lo > hi {
      throw fail("TileJSON minzoom \(lo) is above maxzoom \(hi)")
    }
    if let value = json["bounds"] {
      guard let list = value as? [NSNumber], list.count == 4, !list.contains(where: isJSONBool)
      else { throw fail("TileJSON bounds must be 4 numbers") }
      bounds = list.map(\.doubleValue)
    }
    switch try string("scheme")?.lowercased() {
    case nil, "xyz"?: scheme = .xyz
    case "tms"?: scheme = .tms
    case let other?: throw fail("unsupported TileJSON scheme \"\(other)\" (expected xyz or tms)")
    }
    attribution = try string("attribution") ?? ""
    name = try string("name")
    if let f = try string("format") {
      guard let known = TileFormat(name: f) else {
        throw TileSourceError.unsupportedFormat(path: location, format: f)
      }
      format = known
    }
    vectorLayers =
      (json["vector_layers"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
  }

  /// `bounds` in map points (nil when absent or invalid).
  public var mapBounds: MapRect? {
    guard let b = bounds else { return nil }
    return parseBounds(b.map { String($0) }.joined(separator: ","))
  }

  /// The template used: the first `tiles` URL, resolved against `location` when relative,
  /// with `{y}` as `{-y}` for the tms scheme.
  public var template: String {
    var t = Self.resolve(tiles[0], against: location)
    if scheme == .tms && !t.contains("{-y}") {
      t = t.replacingOccurrences(of: "{y}", with: "{-y}")
    }
    return t
  }

  /// Resolves a relative tile URL against an http(s) document URL (`//host/…`, `/path`, or a
  /// path relative to the document's directory). Absolute URLs and local documents: unchanged.
  static func resolve(_ tile: String, against base: String) -> String {
    let lower = tile.lowercased()
    guard !lower.hasPrefix("http://"), !lower.hasPrefix("https://"),
      HTTPTileSource.isTemplate(base), let url = URL(string: base), let scheme = url.scheme,
      let host = url.host
    else { return tile }
    if tile.hasPrefix("//") { return scheme + ":" + tile }
    let origin = scheme + "://" + host + (url.port.map { ":\($0)" } ?? "")
    if tile.hasPrefix("/") { return origin + tile }
    var directory = base
    if let q = directory.firstIndex(where: { $0 == "?" || $0 == "#" }) {
      directory = String(directory[..<q])
    }
    // The document's directory: up to the last "/" after the origin.
    let pathStart = directory.index(
      directory.startIndex, offsetBy: min(origin.count, directory.count))
    if let slash = directory[pathStart...].lastIndex(of: "/") {
      directory = String(directory[...slash])
    } else {
      directory = origin + "/"
    }
    return directory + tile
  }

  /// Reads a document from a local file or an http(s) URL (at most `maxBytes`, each request at
  /// most `timeout` seconds).
  public static func load(_ location: String, timeout: TimeInterval = 10) throws -> TileJSON {
    if HTTPTileSource.isTemplate(location) {
      guard let url = URL(string: location) else {
        throw TileSourceError.readFailed(path: location, message: "not a valid URL")
      }
      let client = BoundedHTTPClient(timeout: timeout, maxConnections: 1)
      let request = BoundedHTTPClient.Request(
        url: url.absoluteString, headers: [("Accept", "application/json")])
      let reply: BoundedHTTPClient.Reply
      do {
        reply = try client.fetch(request, limits: .init(ok: maxBytes, partial: maxBytes))
      } catch BoundedHTTPClient.Failure.tooLarge(let status, let limit) {
        guard status == 200 || status == 206 else {
          throw TileSourceError.readFailed(
            path: location, message: "HTTP \(status) \(HTTPResponseHead.reason(status))")
        }
        throw TileSourceError.readFailed(
          path: location, message: "TileJSON larger than \(limit) bytes")
      } catch let failure as BoundedHTTPClient.Failure {
        throw TileSourceError.readFailed(
          path: location, message: failure.message(timeout: timeout))
      }
      guard reply.response.statusCode == 200 else {
        let code = reply.response.statusCode
        throw TileSourceError.readFailed(
          path: location, message: "HTTP \(code) \(HTTPResponseHead.reason(code))")
      }
      return try TileJSON(data: reply.body, location: location)
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: location, isDirectory: &isDirectory),
      !isDirectory.boolValue
    else { throw TileSourceError.notFound(path: location) }
    let size =
      (try? FileManager.default.attributesOfItem(atPath: location)[.size] as? NSNumber)?
      .intValue ?? 0
    guard size <= maxBytes else {
      throw TileSourceError.readFailed(
        path: location, message: "TileJSON larger than \(maxBytes) bytes")
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: location))
    } catch {
      throw TileSourceError.readFailed(path: location, message: error.localizedDescription)
    }
    return try TileJSON(data: data, location: location)
  }

  /// An `HTTPTileSource` for the document's first template, with its zoom range, bounds,
  /// attribution, format, vector layers (so the schema's style is known before any tile
  /// arrives) and name. Without `maxzoom` it takes `HTTPTileSource`'s default (14), not the
  /// spec's 30: asking a server for zoom 30 tiles it does not have would cost a request per
  /// missing level.
  public func makeSource(
    cacheHome: URL? = nil, diskCache: Bool = true, timeout: TimeInterval = 10,
    maxConcurrentRequests: Int = 6
  ) throws -> HTTPTileSource {
    let t = template
    guard HTTPTileSource.isTemplate(t) else {
      throw TileSourceError.readFailed(
        path: location, message: "TileJSON tile URL \(t) is not http(s)")
    }
    return try HTTPTileSource(
      template: t, minZoom: minZoom ?? 0, maxZoom: maxZoom ?? 14, format: format,
      bounds: mapBounds, attribution: attribution, cacheHome: cacheHome, diskCache: diskCache,
      timeout: timeout,
      maxConcurrentRequests: maxConcurrentRequests, vectorLayers: vectorLayers, name: name)
  }

  /// Loads a TileJSON document (file or URL) and makes its `HTTPTileSource`.
  public static func openSource(
    _ location: String, cacheHome: URL? = nil, timeout: TimeInterval = 10
  ) throws -> HTTPTileSource {
    try load(location, timeout: timeout).makeSource(cacheHome: cacheHome, timeout: timeout)
  }
}

/// True for JSON `true`/`false` as JSONSerialization gives them (an NSNumber of ObjC type
/// "c"; JSON numbers are never parsed as chars). `is Bool` would also match 0 and 1.
func isJSONBool(_ n: NSNumber) -> Bool {
  String(cString: n.objCType) == "c"
}
