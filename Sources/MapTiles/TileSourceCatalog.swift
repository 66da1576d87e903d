import Foundation

/// A tile source by name: a preset for a public service, or one the user defined in the
/// config file. `location` is what `--tiles` takes (an http(s) URL template or TileJSON URL, or
/// a file or directory path); the other fields override what the source says of itself.
public struct TileSourceDefinition: Sendable, Equatable {
  /// The name `--tiles` takes.
  public var name: String
  /// An http(s) URL template (`{z}/{x}/{y}`), a TileJSON URL, or a path.
  public var location: String
  /// The credit line shown for it (overrides the source's).
  public var attribution: String?
  /// The lowest zoom it has (overrides the source's).
  public var minZoom: Int?
  /// The highest zoom it has (overrides the source's).
  public var maxZoom: Int?
  /// Most requests in flight at once (services with a usage policy ask for few).
  public var maxConnections: Int?
  /// What the service asks of its users, for `--list-sources` and the docs.
  public var terms: String?

  /// A named source.
  public init(
    name: String, location: String, attribution: String? = nil, minZoom: Int? = nil,
    maxZoom: Int? = nil, maxConnections: Int? = nil, terms: String? = nil
  ) {
    self.name = name
    self.location = location
    self.attribution = attribution
    self.minZoom = minZoom
    self.maxZoom = maxZoom
    self.maxConnections = maxConnections
    self.terms = terms
  }
}

/// Sources by name: the presets, then the user's config file (which may redefine a preset).
public struct TileSourceCatalog: Sendable {
  /// Public services a user reaches for. Online sources are opt-in: none is used unless named.
  public static let presets: [TileSourceDefinition] = [
    TileSourceDefinition(
      name: "osm", location: "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
      attribution: "© OpenStreetMap contributors", minZoom: 0, maxZoom: 19, maxConnections: 2,
      terms:
        "OpenStreetMap's raster tiles: tile usage policy (identifying User-Agent, cache headers "
        + "honoured, no bulk downloads)"),
    TileSourceDefinition(
      name: "osm-vector",
      location: "https://vector.openstreetmap.org/shortbread_v1/{z}/{x}/{y}.mvt",
      attribution: "© OpenStreetMap contributors", minZoom: 0, maxZoom: 14, maxConnections: 2,
      terms: "OpenStreetMap's Shortbread vector tiles: vector tile usage policy"),
    TileSourceDefinition(
      name: "openfreemap", location: "https://tiles.openfreemap.org/planet",
      attribution: "OpenFreeMap © OpenMapTiles Data from OpenStreetMap", minZoom: 0, maxZoom: 14,
      maxConnections: 4,
      terms: "OpenFreeMap's OpenMapTiles vector tiles (TileJSON): free, no key, attribution"),
  ]

  /// Every source by name, presets first, config sources after (a config source named like a
  /// preset replaces it).
  public private(set) var sources: [TileSourceDefinition]
  /// The disk cache's bound for tiles from the network, in MiB (`[cache] size_mb`), if set.
  public var cacheMegabytes: Int?
  /// The archive `termmap get` cuts from when `--from` is not given (`[get] from`).
  public var getFrom: String?

  /// The archive `termmap get` cuts from when neither `--from` nor `[get] from` names one: the
  /// Protomaps basemap (OpenStreetMap, layers version 4, zooms 0–15, about 135 GB), as
  /// Source Cooperative mirrors its latest daily build
  /// (https://docs.protomaps.com/basemaps/downloads names the mirror; daily builds on
  /// build.protomaps.com are kept a week). Data © OpenStreetMap contributors, ODbL.
  public static let defaultGetSource =
    "https://data.source.coop/protomaps/openstreetmap/v4.pmtiles"

  /// The presets with the config file's sources, and the disk cache's size in MiB.
  public init(config: [TileSourceDefinition] = [], cacheMegabytes: Int? = nil) {
    self.cacheMegabytes = cacheMegabytes
    var all = Self.presets
    for s in config {
      if let i = all.firstIndex(where: { $0.name == s.name }) { all[i] = s } else { all.append(s) }
    }
    sources = all
  }

  /// Whether a --tiles argument has the form of a source name (letters, digits, - and _).
  public static func isName(_ s: String) -> Bool {
    !s.isEmpty && s.count <= 64
      && s.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || $0 == "-" || $0 == "_"
      }
  }

  /// The source called `name`, if any.
  public func source(named name: String) -> TileSourceDefinition? {
    sources.first { $0.name == name }
  }

  /// The config file: `$XDG_CONFIG_HOME/termmap/config.toml` (else `~/.config/termmap/…`).
  public static func defaultConfigPath(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String {
    if let x = environment["XDG_CONFIG_HOME"], x.hasPrefix("/") {
      return x + "/termmap/config.toml"
    }
    let home = environment["HOME"] ?? NSHomeDirectory()
    return home + "/.config/termmap/config.toml"
  }

  /// The catalog with the sources of the config file at `path` (none when it does not exist).
  public static func load(configPath path: String) throws(ConfigError) -> TileSourceCatalog {
    guard FileManager.default.fileExists(atPath: path) else { return TileSourceCatalog() }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ConfigError(path: path, line: nil, message: "cannot be read")
    }
    guard data.count <= 1 << 20 else {
      throw ConfigError(path: path, line: nil, message: "larger than 1 MiB")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ConfigError(path: path, line: nil, message: "not UTF-8 text")
    }
    let config = try parseConfig(text, path: path)
    var catalog = TileSourceCatalog(config: config.sources, cacheMegabytes: config.cacheMegabytes)
    catalog.getFrom = try getFrom(text, path: path)
    return catalog
  }

  /// The `[sources.NAME]` tables of a config file's text.
  public static func parse(_ text: String, path: String) throws(ConfigError)
    -> [TileSourceDefinition]
  {
    try parseConfig(text, path: path).sources
  }

  /// A config file's `[style]` (theme and label language), read from `path` (nothing when the
  /// file does not exist). Only that table is looked at: the rest of the file is checked when
  /// tile sources are asked for (`load(configPath:)`).
  public static func styleSettings(configPath path: String) throws(ConfigError) -> StyleSettings {
    guard FileManager.default.fileExists(atPath: path) else { return StyleSettings() }
    guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20,
      let text = String(data: data, encoding: .utf8)
    else {
      throw ConfigError(path: path, line: nil, message: "cannot be read as UTF-8 text of 1 MiB")
    }
    return try styleSettings(text, path: path)
  }

  /// The `[style]` table of a config file's text: `name` (dark, light, mono, or a style
  /// document's file or URL, as `--style`) and `lang` (a language code, as `--lang`).
  public static func styleSettings(_ text: String, path: String) throws(ConfigError)
    -> StyleSettings
  {
    let root: ConfigTOML.Table
    do {
      root = try ConfigTOML.parse(text)
    } catch {
      throw ConfigError(path: path, line: error.line, message: error.message)
    }
    guard let style = root.tables["style"] else { return StyleSettings() }
    for k in style.tables.keys.sorted() {
      throw ConfigError(path: path, line: style.lines[k], message: "style: unknown key \"\(k)\"")
    }
    for k in style.values.keys.sorted() where k != "name" && k != "lang" {
      throw ConfigError(path: path, line: style.lines[k], message: "style: unknown key \"\(k)\"")
    }
    var out = StyleSettings()
    if let v = style.values["name"] {
      guard case .string(let s) = v else {
        throw ConfigError(
          path: path, line: style.lines["name"],
          message: "style.name must be dark, light, mono, a style file or an http(s) URL")
      }
      if let theme = BasemapStyle.Variant(rawValue: s) {
        out.theme = theme
      } else if let location = StyleSettings.location(s, configPath: path) {
        out.document = location
      } else {
        throw ConfigError(
          path: path, line: style.lines["name"],
          message: "style.name must be dark, light, mono, a style file or an http(s) URL")
      }
    }
    if let v = style.values["lang"] {
      guard case .string(let s) = v, LabelLanguage.isValid(s) else {
        throw ConfigError(
          path: path, line: style.lines["lang"],
          message: "style.lang must be a language code such as en, fi or zh-Hant")
      }
      out.language = s
    }
    return out
  }

  /// A config file's `[get] from`: the PMTiles archive `termmap get` cuts from by default.
  public static func getFrom(_ text: String, path: String) throws(ConfigError) -> String? {
    let root: ConfigTOML.Table
    do {
      root = try ConfigTOML.parse(text)
    } catch {
      throw ConfigError(path: path, line: error.line, message: error.message)
    }
    guard let get = root.tables["get"] else { return nil }
    for k in get.tables.keys.sorted() {
      throw ConfigError(path: path, line: get.lines[k], message: "get: unknown key \"\(k)\"")
    }
    for k in get.values.keys.sorted() where k != "from" {
      throw ConfigError(path: path, line: get.lines[k], message: "get: unknown key \"\(k)\"")
    }
    guard let v = get.values["from"] else { return nil }
    guard case .string(let from) = v, !from.isEmpty else {
      throw ConfigError(
        path: path, line: get.lines["from"], message: "get.from must be a PMTiles file or URL")
    }
    return from
  }

  /// A config file's text: its `[sources.NAME]` tables and `[cache] size_mb`.
  public static func parseConfig(_ text: String, path: String) throws(ConfigError)
    -> (sources: [TileSourceDefinition], cacheMegabytes: Int?)
  {
    let root: ConfigTOML.Table
    do {
      root = try ConfigTOML.parse(text)
    } catch {
      throw ConfigError(path: path, line: error.line, message: error.message)
    }
    for key in root.values.keys.sorted() {
      throw ConfigError(
        path: path, line: root.lines[key], message: "\"\(key)\" must be in a [section]")
    }
    for key in root.tables.keys.sorted() where !["sources", "cache", "get", "style"].contains(key) {
      throw ConfigError(path: path, line: root.lines[key], message: "unknown section \"\(key)\"")
    }
    var cacheMegabytes: Int?
    if let cache = root.tables["cache"] {
      for k in cache.tables.keys.sorted() {
        throw ConfigError(path: path, line: cache.lines[k], message: "cache: unknown key \"\(k)\"")
      }
      for k in cache.values.keys.sorted() where k != "size_mb" {
        throw ConfigError(path: path, line: cache.lines[k], message: "cache: unknown key \"\(k)\"")
      }
      if let v = cache.values["size_mb"] {
        guard case .integer(let n) = v, (0...1_048_576).contains(n) else {
          throw ConfigError(
            path: path, line: cache.lines["size_mb"],
            message: "cache.size_mb must be a whole number from 0 to 1048576")
        }
        cacheMegabytes = n
      }
    }
    guard let list = root.tables["sources"] else { return ([], cacheMegabytes) }
    for key in list.values.keys.sorted() {
      throw ConfigError(
        path: path, line: list.lines[key], message: "sources.\(key) must be a table")
    }
    var out: [TileSourceDefinition] = []
    for name in list.tables.keys.sorted() {
      let at = "sources.\(name)"
      guard let t = list.tables[name] else { continue }
      let line = list.lines[name]
      guard TileSourceCatalog.isName(name) else {
        throw ConfigError(
          path: path, line: line,
          message: "\(at): a source name is letters, digits, - and _ (at most 64)")
      }
      for k in t.tables.keys.sorted() {
        throw ConfigError(path: path, line: t.lines[k], message: "\(at): unknown key \"\(k)\"")
      }
      let known: Set = ["url", "path", "attribution", "minzoom", "maxzoom", "max_connections"]
      for k in t.values.keys.sorted() where !known.contains(k) {
        throw ConfigError(path: path, line: t.lines[k], message: "\(at): unknown key \"\(k)\"")
      }
      func string(_ k: String) throws(ConfigError) -> String? {
        guard let v = t.values[k] else { return nil }
        guard case .string(let s) = v else {
          throw ConfigError(path: path, line: t.lines[k], message: "\(at).\(k) must be a string")
        }
        return s
      }
      func integer(_ k: String, _ range: ClosedRange<Int>) throws(ConfigError) -> Int? {
        guard let v = t.values[k] else { return nil }
        guard case .integer(let n) = v, range.contains(n) else {
          throw ConfigError(
            path: path, line: t.lines[k],
            message:
              "\(at).\(k) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
      }
      let url = try string("url")
      var file = try string("path")
      if let f = file, f.hasPrefix("~/") {
        file = (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + f.dropFirst()
      }
      guard let location = url ?? file, (url == nil) != (file == nil) else {
        throw ConfigError(path: path, line: line, message: "\(at) needs one of url or path")
      }
      let minZoom = try integer("minzoom", 0...30)
      let maxZoom = try integer("maxzoom", 0...30)
      if let a = minZoom, let b = maxZoom, a > b {
        throw ConfigError(path: path, line: line, message: "\(at): minzoom is above maxzoom")
      }
      out.append(
        TileSourceDefinition(
          name: name, location: location, attribution: try string("attribution"),
          minZoom: minZoom, maxZoom: maxZoom, maxConnections: try integer("max_connections", 1...16)
        ))
    }
    return (out, cacheMegabytes)
  }
}

/// A config file that cannot be used: the file, the line where known, and why.
public struct ConfigError: Error, CustomStringConvertible, Equatable {
  /// The config file.
  public let path: String
  /// The line, when the error has one.
  public let line: Int?
  /// What is wrong.
  public let message: String

  public var description: String {
    let clean = String(
      message.unicodeScalars.map { s in
        s.value < 0x20 || (0x7F...0x9F).contains(s.value) ? "?" : Character(s)
      })
    return line.map { "\(path):\($0): \(clean)" } ?? "\(path): \(clean)"
  }
}

/// A config file's `[style]`: the map's theme or style document and the labels' language,
/// each nil when not set.
public struct StyleSettings: Sendable, Equatable {
  /// `name`: dark, light or mono.
  public var theme: BasemapStyle.Variant?
  /// `name` when it is a style document: an http(s) URL, or a file path (`~/` expanded, a
  /// relative path taken from the config file's folder), as `--style` takes it.
  public var document: String?
  /// `lang`: a language code.
  public var language: String?
  /// Nothing set.
  public init(
    theme: BasemapStyle.Variant? = nil, document: String? = nil, language: String? = nil
  ) {
    self.theme = theme
    self.document = document
    self.language = language
  }

  /// A `name` that is not a theme, as a style location: an http(s) or file URL, or a path
  /// (it has a `/` or a `.`); nil for a bare word (a misspelt theme).
  static func location(_ s: String, configPath: String) -> String? {
    let lower = s.lowercased()
    if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("file://") {
      return s
    }
    guard !s.isEmpty, s.contains("/") || s.contains(".") else { return nil }
    if s.hasPrefix("~/") {
      return (ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()) + s.dropFirst()
    }
    if s.hasPrefix("/") { return s }
    return ((configPath as NSString).deletingLastPathComponent as NSString)
      .appendingPathComponent(s)
  }
}
