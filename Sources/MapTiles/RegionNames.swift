import Foundation
import MapGeometry
import Synchronization
import TileData

/// The names of a stored region's label layers — streets, places, points of interest and
/// water — indexed when `termmap get` stores the region, so that the viewer's `/` search finds
/// them beside the gazetteer's places.
///
/// The index is a sidecar beside the region's archive, `NAME.names.tsv.gz` (see
/// ``file(forArchive:)``): gzip text whose first line is `termmap-names 1`, then one line per
/// name with tab-separated fields: the category (``Category``), the kind (`street`,
/// `restaurant`, `neighbourhood`, …), latitude, longitude, the name, and its other names
/// (other languages and scripts, from `name:xx` and `name_xx` attributes).
///
/// A name met in many tiles is one entry per cluster of places it was met at: occurrences of
/// the same name and category within ``Limits/mergeKilometres`` of each other are one entry
/// (so a street cut into pieces by tile edges is one entry, while "Main Street" in two towns
/// stays two). Every size is bounded by ``Limits``.
public struct RegionNames: Sendable, Equatable {
  /// What sort of thing a name belongs to.
  public enum Category: String, Sendable, CaseIterable, Comparable {
    /// A city, town, village, suburb or neighbourhood.
    case place
    /// A street, road or path.
    case street
    /// A sea, bay, lake or river.
    case water
    /// A point of interest: a shop, a museum, a station, a park, a peak.
    case poi

    /// Places first, points of interest last.
    public static func < (a: Category, b: Category) -> Bool {
      allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
  }

  /// One indexed name.
  public struct Entry: Sendable, Equatable {
    /// The name (the feature's `name`, else its Latin or English name).
    public var name: String
    /// Its names in other languages and scripts.
    public var otherNames: [String]
    /// What sort of thing it is.
    public var category: Category
    /// A word for it, shown in search results: `street`, `restaurant`, `suburb`, `bay`, ….
    public var kind: String
    /// Where it is: the point of a point feature, a middle vertex of a line, the middle of a
    /// polygon's box; for a name met in several tiles, the one nearest the middle of them.
    public var coordinate: Coordinate

    /// An entry from its fields.
    public init(
      name: String, otherNames: [String] = [], category: Category, kind: String,
      coordinate: Coordinate
    ) {
      self.name = name
      self.otherNames = otherNames
      self.category = category
      self.kind = kind
      self.coordinate = coordinate
    }
  }

  /// The bounds an index keeps to, when it is made and when it is read.
  public struct Limits: Sendable, Equatable {
    /// Entries at most.
    public var entries = 200_000
    /// Bytes of names and kinds at most (the uncompressed index is about this big at most).
    public var bytes = 16 << 20
    /// A name longer than this many UTF-8 bytes is left out.
    public var nameBytes = 160
    /// Other names of one entry at most.
    public var otherNames = 6
    /// Entries of one name and category at most (a name repeated across a large region).
    public var entriesPerName = 200
    /// Occurrences of one name this close (in km) are one entry.
    public var mergeKilometres = 1.5
    /// An entry spans at most this many km (so a chain of nearby occurrences cannot merge a
    /// whole country's "Main Street"s into one).
    public var spanKilometres = 25.0

    /// The limits `termmap get` indexes with.
    public static let standard = Limits()

    /// Limits with the defaults.
    public init() {}
  }

  /// The region's name (its archive's file name without `.pmtiles`).
  public var region: String
  /// The names, by category and then name.
  public var entries: [Entry]
  /// Whether names were left out because the index reached its limits.
  public var truncated: Bool
  /// Tiles that could not be read or decoded while indexing (they are skipped).
  public var unreadableTiles: Int

  /// An index from its entries.
  public init(region: String, entries: [Entry], truncated: Bool = false, unreadableTiles: Int = 0) {
    self.region = region
    self.entries = entries
    self.truncated = truncated
    self.unreadableTiles = unreadableTiles
  }

  /// The first line of an index file.
  static let signature = "termmap-names 1"

  /// The index file beside a region's archive: `NAME.names.tsv.gz` for `NAME.pmtiles`.
  public static func file(forArchive archive: URL) -> URL {
    let base =
      archive.pathExtension == "pmtiles" ? archive.deletingPathExtension() : archive
    return base.deletingLastPathComponent().appendingPathComponent(
      base.lastPathComponent + ".names.tsv.gz")
  }

  /// The vector tile layers whose names are indexed, in the three schemas termmap draws
  /// (``VectorSchema``), with the category of their names.
  public static let labelLayers: [String: Category] = [
    // OpenMapTiles
    "transportation_name": .street, "place": .place, "poi": .poi, "water_name": .water,
    "waterway": .water, "aerodrome_label": .poi, "mountain_peak": .poi, "park": .poi,
    // Protomaps basemap v4
    "roads": .street, "places": .place, "pois": .poi, "water": .water,
    "physical_point": .poi, "physical_line": .water,
    // Shortbread
    "street_labels": .street, "place_labels": .place, "water_polygons_labels": .water,
    "water_lines_labels": .water, "public_transport": .poi,
  ]

  // MARK: Indexing

  /// Indexes the names of an archive's label layers: walks its tiles of its deepest zoom
  /// within its bounds (`progress` hears tiles done and tiles in all, now and then). Raster
  /// archives have no names: the index is empty. Tiles that cannot be read are skipped and
  /// counted; only an archive that cannot be opened throws.
  public static func index(
    archive path: String, limits: Limits = .standard,
    progress: (@Sendable (Int, Int) -> Void)? = nil
  ) throws -> RegionNames {
    let source = try PMTilesSource(path: path)
    let region = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    guard source.header.tileType == .mvt else { return RegionNames(region: region, entries: []) }
    let z = Int(source.header.maxZoom)
    let b = source.header.boundsDegrees
    let ids = tiles(zoom: z, west: b.west, south: b.south, east: b.east, north: b.north)
    let layers = Set(labelLayers.keys)
    // Batches of chunks decoded in parallel, each chunk into its own collector, merged in
    // order: the index does not depend on the number of processors, and memory stays within
    // a batch's collectors and the merged one.
    let chunk = 64
    // At most 4 chunks at once: each chunk's collector is bounded by `limits` as the merged one
    // is, so memory stays within five of them.
    let workers = max(1, min(ProcessInfo.processInfo.activeProcessorCount, 4))
    var merged = NameCollector(limits: limits)
    var unreadable = 0
    var start = 0
    while start < ids.count && !merged.full {
      let first = start
      let batch = min(ids.count - start, chunk * workers)
      let pieces = (batch + chunk - 1) / chunk
      let results = Mutex<[(NameCollector, Int)?]>(Array(repeating: nil, count: pieces))
      DispatchQueue.concurrentPerform(iterations: pieces) { piece in
        var collector = NameCollector(limits: limits)
        var bad = 0
        let from = first + piece * chunk
        for id in ids[from..<min(from + chunk, first + batch)] {
          do {
            guard let data = try source.tile(id) else { continue }
            let tile = try VectorTileDecoder.decodeCompressed(data, layers: layers)
            collect(tile, id: id, into: &collector)
          } catch {
            bad += 1
          }
        }
        let done = (collector, bad)
        results.withLock { $0[piece] = done }
      }
      for r in results.withLock({ $0 }) {
        guard let (collector, bad) = r else { continue }
        merged.absorb(collector)
        unreadable += bad
      }
      start += batch
      progress?(start, ids.count)
    }
    return RegionNames(
      region: region, entries: merged.entries(), truncated: merged.full,
      unreadableTiles: unreadable)
  }

  /// The tiles of zoom `z` that meet a box (W > E crosses the antimeridian), in the
  /// archive's order (ascending PMTiles ids, so directory reads stay near each other).
  static func tiles(zoom z: Int, west: Double, south: Double, east: Double, north: Double)
    -> [TileID]
  {
    let n = 1 << z
    func x(_ lon: Double) -> Int { min(max(Int(floor((lon + 180) / 360 * Double(n))), 0), n - 1) }
    func y(_ lat: Double) -> Int {
      let l = min(max(lat, -85.0511), 85.0511) * .pi / 180
      let v = (1 - log(tan(l) + 1 / cos(l)) / .pi) / 2 * Double(n)
      return min(max(Int(floor(v)), 0), n - 1)
    }
    let columns: [ClosedRange<Int>] =
      west <= east ? [x(west)...x(east)] : [x(west)...(n - 1), 0...x(east)]
    var ids: [(UInt64, TileID)] = []
    for cols in columns {
      for ty in y(north)...y(south) {
        for tx in cols {
          let id = TileID(z: z, x: tx, y: ty)
          if let n = PMTiles.tileID(id) { ids.append((n, id)) }
        }
      }
    }
    ids.sort { $0.0 < $1.0 }
    return ids.map(\.1)
  }

  /// The keys a feature's main name is taken from, best first.
  static let mainNameKeys = ["name", "name:latin", "name_int", "name:en", "name_en"]
  /// The keys a name's kind is taken from, best first, by category.
  static let kindKeys: [RegionNames.Category: [String]] = [
    .poi: ["subclass", "kind", "class", "amenity", "shop", "tourism", "leisure", "historic"],
    .place: ["kind_detail", "kind", "class"], .water: ["kind", "class"], .street: [],
  ]

  /// Adds the named features of a tile's label layers to `collector`.
  static func collect(_ tile: DecodedTile, id: TileID, into collector: inout NameCollector) {
    for layer in tile.layers {
      guard let category = labelLayers[layer.name] else { continue }
      let transform = layer.transform(for: id)
      let extent = Int32(clamping: layer.extent)
      let kindKeys = Self.kindKeys[category] ?? []
      for feature in layer {
        var main: (rank: Int, name: String)?
        var others: [String] = []
        var kindValue: (rank: Int, value: String)?
        feature.forEachProperty { key, value in
          guard case .string(let s) = value else { return }
          if let rank = mainNameKeys.firstIndex(of: key) {
            if main == nil || rank < main!.rank { main = (rank, s) }
          }
          if key.hasPrefix("name:") || key.hasPrefix("name_") {
            if others.count < 64 { others.append(s) }
          }
          if let rank = kindKeys.firstIndex(of: key), kindValue == nil || rank < kindValue!.rank {
            kindValue = (rank, s)
          }
        }
        guard let main, let point = representativePoint(feature, extent: extent) else { continue }
        let coordinate = transform.mapPoint(point).coordinate
        guard coordinate.latitude.isFinite, coordinate.longitude.isFinite else { continue }
        let fallback = category == .poi ? "point of interest" : category.rawValue
        let kind = kindWord(kindValue?.value) ?? fallback
        collector.add(
          name: main.name, others: others, category: category, kind: kind, at: coordinate)
      }
    }
  }

  /// A kind attribute as a word to show ("fast_food" → "fast food"); nil for none or junk.
  static func kindWord(_ value: String?) -> String? {
    guard let value else { return nil }
    let word = SafeText.clean(value.replacingOccurrences(of: "_", with: " "))
    guard !word.isEmpty, word.utf8.count <= 32, word.lowercased() != "yes" else { return nil }
    return word
  }

  /// Where a feature is, in tile units: a point's point, a middle vertex of a line's first
  /// part, the middle of a polygon's box; clamped to the tile (features reach into a buffer
  /// around it).
  static func representativePoint(_ feature: VectorFeature, extent: Int32) -> TilePoint? {
    guard feature.partCount > 0 else { return nil }
    var p: TilePoint
    switch feature.type {
    case .point, .lineString:
      let points = feature.part(0).points
      guard !points.isEmpty else { return nil }
      p = points[points.startIndex + points.count / 2]
    case .polygon:
      let box = feature.boundingBox
      guard !box.isEmpty else { return nil }
      p = TilePoint(x: box.minX / 2 + box.maxX / 2, y: box.minY / 2 + box.maxY / 2)
    }
    p.x = min(max(p.x, 0), extent)
    p.y = min(max(p.y, 0), extent)
    return p
  }

  // MARK: The file

  /// The index as the file's text (before gzip).
  func text() -> String {
    var out = Self.signature + "\n"
    for e in entries {
      let fields =
        [
          e.category.rawValue, e.kind, String(format: "%.6f", e.coordinate.latitude),
          String(format: "%.6f", e.coordinate.longitude), e.name,
        ] + e.otherNames
      out += fields.joined(separator: "\t") + "\n"
    }
    return out
  }

  /// Writes the index to `url` (gzip; a temporary file renamed into place, so a reader never
  /// sees half of it).
  public func write(to url: URL) throws {
    try Deflate.gzip(Data(text().utf8)).write(to: url, options: .atomic)
  }

  /// Reads an index file, keeping to `limits` (a longer file is cut short: `truncated`).
  /// Throws ``RegionNamesError`` naming the file (and the line) for anything that is not an
  /// index; nil when there is no file.
  public static func read(
    _ url: URL, region: String, limits: Limits = .standard
  ) throws(RegionNamesError) -> RegionNames? {
    let path = url.path
    let stored: Data
    do {
      guard let data = try BoundedFile.read(path, limit: limits.bytes + (1 << 20)) else {
        return nil
      }
      stored = data
    } catch {
      throw RegionNamesError(path: path, message: error.message)
    }
    let raw: Data
    do {
      raw = try Inflate.decompress(stored, limit: limits.bytes * 2)
    } catch {
      throw RegionNamesError(path: path, message: "not a gzip file (\(error))")
    }
    var entries: [Entry] = []
    var truncated = false
    var lineNumber = 0
    for line in raw.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      if lineNumber == 1 {
        guard line.elementsEqual(signature.utf8) else {
          throw RegionNamesError(path: path, line: 1, message: "not a termmap names index")
        }
        continue
      }
      if line.isEmpty { continue }
      guard entries.count < limits.entries else {
        truncated = true
        break
      }
      let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
        .map { SafeText.clean(String(decoding: $0, as: UTF8.self)) }
      guard fields.count >= 5, let category = Category(rawValue: fields[0]) else {
        throw RegionNamesError(
          path: path, line: lineNumber,
          message: "expected category, kind, latitude, longitude and name")
      }
      guard let lat = Double(fields[2]), let lon = Double(fields[3]), (-90...90).contains(lat),
        (-180...180).contains(lon)
      else {
        throw RegionNamesError(
          path: path, line: lineNumber, message: "not a latitude and longitude")
      }
      let name = fields[4]
      guard !name.isEmpty, name.utf8.count <= limits.nameBytes else {
        throw RegionNamesError(path: path, line: lineNumber, message: "no name, or a name too long")
      }
      let others = fields[5...].filter { !$0.isEmpty && $0.utf8.count <= limits.nameBytes }
        .prefix(limits.otherNames)
      entries.append(
        Entry(
          name: name, otherNames: Array(others), category: category,
          kind: String(fields[1].prefix(32)),
          coordinate: Coordinate(latitude: lat, longitude: lon)))
    }
    return RegionNames(region: region, entries: entries, truncated: truncated)
  }

  /// The indexes of every stored region that has one (``Regions``); unreadable indexes are
  /// left out and listed by `problems`.
  public static func stored(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> (indexes: [RegionNames], problems: [String]) {
    var indexes: [RegionNames] = []
    var problems: [String] = []
    for path in Regions.paths(environment: environment) {
      let archive = URL(fileURLWithPath: path)
      let region = SafeText.clean(archive.deletingPathExtension().lastPathComponent)
      do {
        if let index = try read(file(forArchive: archive), region: region) {
          indexes.append(index)
        }
      } catch {
        problems.append(error.description)
      }
    }
    return (indexes, problems)
  }
}

/// A names index that cannot be read: the file, the line when there is one, and what is wrong.
public struct RegionNamesError: Error, Equatable, CustomStringConvertible {
  /// The index file.
  public var path: String
  /// The line (from 1), when the problem is in one.
  public var line: Int?
  /// What is wrong.
  public var message: String

  /// An error from its parts.
  public init(path: String, line: Int? = nil, message: String) {
    self.path = path
    self.line = line
    self.message = message
  }

  /// `FILE:LINE: message`, printable.
  public var description: String {
    SafeText.clean("\(path)\(line.map { ":\($0)" } ?? ""): \(message)")
  }
}

/// Gathers names as tiles are walked, merging the occurrences of a name that are near each
/// other, within ``RegionNames/Limits``.
struct NameCollector: Sendable {
  /// One name's occurrences near each other.
  struct Cluster: Sendable {
    var west: Double
    var south: Double
    var east: Double
    var north: Double
    /// Where the name was met (at most ``NameCollector/samples``): the entry is the one
    /// nearest the middle of the box.
    var points: [Coordinate]
    var kind: String
    var others: [String]

    /// The middle of the box.
    var centre: Coordinate {
      Coordinate(latitude: (south + north) / 2, longitude: (west + east) / 2)
    }

    /// The occurrence nearest the middle, to a millionth of a degree (as the file has it).
    var point: Coordinate {
      let c = centre
      let best = points.min { NameCollector.km($0, c) < NameCollector.km($1, c) } ?? c
      return Coordinate(
        latitude: (best.latitude * 1e6).rounded() / 1e6,
        longitude: (best.longitude * 1e6).rounded() / 1e6)
    }
  }

  struct Key: Hashable, Sendable {
    var category: RegionNames.Category
    var name: String
  }

  let limits: RegionNames.Limits
  private(set) var clusters: [Key: [Cluster]] = [:]
  private(set) var count = 0
  private(set) var bytes = 0
  /// Whether a name was turned away because the index is full.
  private(set) var full = false

  init(limits: RegionNames.Limits) { self.limits = limits }

  static let kmPerDegree = 111.32
  /// Occurrences kept per entry to choose its point from.
  static let samples = 24

  /// How far (km) a point is from a box.
  static func distance(_ c: Coordinate, to box: Cluster) -> Double {
    let dx = max(box.west - c.longitude, 0, c.longitude - box.east)
    let dy = max(box.south - c.latitude, 0, c.latitude - box.north)
    let k = cos(c.latitude * .pi / 180)
    return (dx * dx * k * k + dy * dy).squareRoot() * kmPerDegree
  }

  /// Adds one occurrence of a name (cleaned here: control characters go, and a name over the
  /// limit is left out).
  mutating func add(
    name raw: String, others rawOthers: [String], category: RegionNames.Category, kind: String,
    at c: Coordinate
  ) {
    guard raw.utf8.count <= limits.nameBytes * 4 else { return }
    let name = SafeText.clean(raw)
    // A name needs a letter: "2" or "42" is a house number, not something to search for.
    guard !name.isEmpty, name.utf8.count <= limits.nameBytes,
      name.unicodeScalars.contains(where: \.properties.isAlphabetic)
    else { return }
    var others: [String] = []
    for o in rawOthers where o.utf8.count <= limits.nameBytes * 4 {
      let clean = SafeText.clean(o)
      guard !clean.isEmpty, clean.utf8.count <= limits.nameBytes, clean != name,
        !others.contains(clean)
      else { continue }
      others.append(clean)
      if others.count == limits.otherNames { break }
    }
    add(
      Cluster(
        west: c.longitude, south: c.latitude, east: c.longitude, north: c.latitude, points: [c],
        kind: kind, others: others),
      key: Key(category: category, name: name))
  }

  /// Merges another collector's names into this one.
  mutating func absorb(_ other: NameCollector) {
    // In a fixed order, so the merged index does not depend on hashing.
    for key in other.clusters.keys.sorted(by: { ($0.category, $0.name) < ($1.category, $1.name) }) {
      for cluster in other.clusters[key]! { add(cluster, key: key) }
    }
    full = full || other.full
  }

  /// Adds a cluster: into one of the same name within reach, else as a new entry.
  private mutating func add(_ new: Cluster, key: Key) {
    var list = clusters[key] ?? []
    let middle = Coordinate(
      latitude: (new.south + new.north) / 2, longitude: (new.west + new.east) / 2)
    if let i = list.indices.first(where: { mergeable(list[$0], new, middle) }) {
      var c = list[i]
      c.west = min(c.west, new.west)
      c.east = max(c.east, new.east)
      c.south = min(c.south, new.south)
      c.north = max(c.north, new.north)
      let centre = c.centre
      for p in new.points {
        if c.points.count < Self.samples {
          c.points.append(p)
        } else if let far = c.points.indices.max(by: {
          Self.km(c.points[$0], centre) < Self.km(c.points[$1], centre)
        }), Self.km(p, centre) < Self.km(c.points[far], centre) {
          c.points[far] = p
        }
      }
      for o in new.others where c.others.count < limits.otherNames && !c.others.contains(o) {
        let cost = o.utf8.count + 1
        guard bytes + cost <= limits.bytes else { break }
        c.others.append(o)
        bytes += cost
      }
      list[i] = c
      clusters[key] = list
      return
    }
    let cost =
      key.name.utf8.count + new.kind.utf8.count + 32
      + new.others.reduce(0) { $0 + $1.utf8.count + 1 }
    guard count < limits.entries, bytes + cost <= limits.bytes, list.count < limits.entriesPerName
    else {
      full = true
      return
    }
    list.append(new)
    clusters[key] = list
    count += 1
    bytes += cost
  }

  /// Whether a cluster takes in another: near enough, and not too large together.
  private func mergeable(_ c: Cluster, _ new: Cluster, _ middle: Coordinate) -> Bool {
    guard Self.distance(middle, to: c) <= limits.mergeKilometres else { return false }
    let corner1 = Coordinate(latitude: min(c.south, new.south), longitude: min(c.west, new.west))
    let corner2 = Coordinate(latitude: max(c.north, new.north), longitude: max(c.east, new.east))
    return Self.km(corner1, corner2) <= limits.spanKilometres
  }

  /// The distance in km between two nearby points (flat-earth approximation).
  static func km(_ a: Coordinate, _ b: Coordinate) -> Double {
    let k = cos((a.latitude + b.latitude) / 2 * .pi / 180)
    let dx = (a.longitude - b.longitude) * k
    let dy = a.latitude - b.latitude
    return (dx * dx + dy * dy).squareRoot() * kmPerDegree
  }

  /// The entries, by category, then name, then position.
  func entries() -> [RegionNames.Entry] {
    var out: [RegionNames.Entry] = []
    out.reserveCapacity(count)
    for (key, list) in clusters {
      for c in list {
        out.append(
          RegionNames.Entry(
            name: key.name, otherNames: c.others, category: key.category, kind: c.kind,
            coordinate: c.point))
      }
    }
    out.sort {
      ($0.category, $0.name, $0.coordinate.latitude, $0.coordinate.longitude)
        < ($1.category, $1.name, $1.coordinate.latitude, $1.coordinate.longitude)
    }
    return out
  }
}
