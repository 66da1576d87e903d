import Foundation
import MapGeometry
import TileData

/// A populated place from the offline gazetteer (GeoNames cities of 15,000 people or more), or
/// a name from a stored region's index (``RegionNames``: a street, a place, a point of
/// interest, water).
public struct Place: Sendable, Equatable {
  /// The place's name.
  public let name: String
  /// Its country's ISO code (empty for a region's name).
  public let country: String
  /// Its country's name (empty for a region's name).
  public let countryName: String
  /// Where it is.
  public let coordinate: Coordinate
  /// How many live there (0 for a region's name).
  public let population: Int
  /// For a name from a stored region: the region's name; nil for the gazetteer's places.
  public let region: String?
  /// For a name from a stored region: what it is ("street", "restaurant", "suburb", …).
  public let kind: String?
  /// For a name from a stored region: its category.
  public let category: RegionNames.Category?

  init(
    name: String, country: String, countryName: String, coordinate: Coordinate,
    population: Int, region: String? = nil, kind: String? = nil,
    category: RegionNames.Category? = nil
  ) {
    self.name = name
    self.country = country
    self.countryName = countryName
    self.coordinate = coordinate
    self.population = population
    self.region = region
    self.kind = kind
    self.category = category
  }

  /// "Paris, France"; for a region's name, what it is and the region: "Rue Grimaldi
  /// (street, monaco)". Names from files and tiles are cleaned of control characters.
  public var label: String {
    if let region { return "\(name) (\(kind ?? "name"), \(region))" }
    return countryName.isEmpty ? name : "\(name), \(countryName)"
  }
}

/// Place-name search over `Data/places.tsv.gz`, matching names and alternate names (in Latin
/// and other scripts) without regard to case, accents or abbreviations ("St." is "Saint");
/// more populous places rank first among equal matches; when nothing matches, names within a
/// typo or two of the query.
///
/// The names of stored regions (``RegionNames``: streets, places, points of interest, water)
/// are searched the same way, after the places of the same match; "name, region" narrows to
/// one region.
///
/// Every folded name lives in one byte buffer, so a keystroke's search is a pass of `memcmp`
/// and `memmem` over it, with no string allocated per name.
public final class Gazetteer: Sendable {
  /// The places and region names searched: GeoNames places first, then each region's names.
  public let places: [Place]
  /// Per place: 0 for GeoNames places, 1 + the category's position for a region's names
  /// (among equal matches, places before streets before water before points of interest).
  private let order: [UInt8]
  /// Folded UTF-8 names, each followed by a 0 byte.
  private let blob: [UInt8]
  /// Per name: where it starts in `blob`, its length, its place, and whether it is the main name.
  private let names: [(start: Int32, length: Int32, place: Int32, main: Bool)]
  private let foldedCountries: [(code: [UInt8], name: [UInt8])]
  /// The stored regions' names by kind ("cafe", "street"), folded as queries are.
  let placesByKind: [String: [Int32]]

  /// Loads the gazetteer files from a data directory (none: only the regions' names), and
  /// adds the names of `regions`. A region's place that the gazetteer has by the same name
  /// within 10 km is left out (it would be listed twice).
  public init(directory: URL?, regions: [RegionNames] = []) throws {
    var text = ""
    if let directory {
      let raw = try Data(contentsOf: directory.appendingPathComponent("places.tsv.gz"))
      text = String(decoding: try Inflate.decompress(raw, limit: 64 << 20), as: UTF8.self)
    }
    var countries: [String: String] = [:]
    if let directory,
      let c = try? String(
        contentsOf: directory.appendingPathComponent("countries.tsv"), encoding: .utf8)
    {
      for line in c.split(separator: "\n").dropFirst() {
        let f = line.split(separator: "\t", omittingEmptySubsequences: false)
        if f.count >= 3 { countries[String(f[0])] = String(f[2]) }
      }
    }
    var places: [Place] = []
    var blob: [UInt8] = []
    blob.reserveCapacity(text.utf8.count)
    var names: [(Int32, Int32, Int32, Bool)] = []
    var folded: [(code: [UInt8], name: [UInt8])] = []
    func add(_ s: Substring, place: Int, main: Bool) {
      let start = blob.count
      Gazetteer.appendFolded(s, to: &blob)
      names.append((Int32(start), Int32(blob.count - start), Int32(place), main))
      blob.append(0)
    }
    for line in text.split(separator: "\n").dropFirst() {
      let f = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard f.count >= 7, let lat = Double(f[4]), let lon = Double(f[5]) else { continue }
      let cc = String(f[2])
      let countryName = countries[cc] ?? cc
      let index = places.count
      places.append(
        Place(
          name: String(f[0]), country: cc, countryName: countryName,
          coordinate: Coordinate(latitude: lat, longitude: lon), population: Int(f[6]) ?? 0))
      folded.append((Array(Gazetteer.fold(cc).utf8), Array(Gazetteer.fold(countryName).utf8)))
      add(f[0], place: index, main: true)
      if !f[1].isEmpty { add(f[1], place: index, main: false) }
      // Latin alternate names, then names in other scripts ("Москва", "北京").
      for column in 7..<min(f.count, 9) {
        for alt in f[column].split(separator: "|") { add(alt, place: index, main: false) }
      }
    }
    var order = [UInt8](repeating: 0, count: places.count)
    let known = Gazetteer.placesByName(
      regions.flatMap { $0.entries.filter { $0.category == .place }.map(\.name) },
      places: places, blob: blob, names: names)
    for index in regions {
      let region = SafeText.clean(index.region)
      let foldedRegion = Array(Gazetteer.fold(region).utf8)
      for e in index.entries {
        if e.category == .place,
          known[Gazetteer.foldedKey(e.name)]?.contains(where: {
            Geodesic.distance(places[$0].coordinate, e.coordinate) < 10_000
          }) == true
        {
          continue
        }
        let i = places.count
        places.append(
          Place(
            name: SafeText.clean(e.name), country: "", countryName: "",
            coordinate: e.coordinate, population: 0, region: region,
            kind: SafeText.clean(e.kind), category: e.category))
        order.append(1 + UInt8(RegionNames.Category.allCases.firstIndex(of: e.category) ?? 0))
        folded.append((foldedRegion, foldedRegion))
        add(Substring(e.name), place: i, main: true)
        for other in e.otherNames { add(Substring(other), place: i, main: false) }
      }
    }
    var byKind: [String: [Int32]] = [:]
    var foldedKinds: [String: String] = [:]
    for (i, p) in places.enumerated() where p.region != nil {
      guard let kind = p.kind, !kind.isEmpty else { continue }
      let folded = foldedKinds[kind] ?? Gazetteer.foldedKey(kind)
      foldedKinds[kind] = folded
      byKind[folded, default: []].append(Int32(i))
    }
    placesByKind = byKind
    self.places = places
    self.order = order
    self.blob = blob
    self.names = names
    foldedCountries = folded
  }

  /// The gazetteer's places whose main name, folded, is one of `wanted` (folded here).
  private static func placesByName(
    _ wanted: [String], places: [Place], blob: [UInt8],
    names: [(Int32, Int32, Int32, Bool)]
  ) -> [String: [Int]] {
    guard !wanted.isEmpty else { return [:] }
    let set = Set(wanted.map(foldedKey))
    var out: [String: [Int]] = [:]
    for (start, length, place, main) in names where main {
      let name = String(decoding: blob[Int(start)..<Int(start + length)], as: UTF8.self)
      if set.contains(name) { out[name, default: []].append(Int(place)) }
    }
    return out
  }

  /// A name folded as the search folds names (case, accents, abbreviations).
  static func foldedKey(_ s: String) -> String {
    var bytes: [UInt8] = []
    appendFolded(Substring(s), to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Lower case without accents; ASCII takes a fast path.
  static func fold(_ s: String) -> String {
    if s.utf8.allSatisfy({ $0 < 0x80 }) { return s.lowercased() }
    return s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
  }

  /// Abbreviations written out, so "St. Petersburg", "St Petersburg" and "Saint Petersburg"
  /// are one name.
  static let abbreviations: [String: String] = [
    "st": "saint", "st.": "saint", "ste": "sainte", "ste.": "sainte", "mt": "mount",
    "mt.": "mount", "ft": "fort", "ft.": "fort", "pt": "port", "pt.": "port",
  ]

  /// A folded name with its abbreviations written out. In a query still being typed, the last
  /// word is written out only when it ends with "." ("st" may be the start of "Stockholm").
  static func expandAbbreviations(_ folded: String, typing: Bool = false) -> String {
    guard folded.contains("t") else { return folded }
    var words = folded.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    for i in words.indices {
      let last = i == words.count - 1
      if let long = abbreviations[words[i]], !(typing && last && !words[i].hasSuffix(".")) {
        words[i] = long
      }
    }
    return words.joined(separator: " ")
  }

  static func appendFolded(_ s: Substring, to out: inout [UInt8]) {
    guard s.utf8.allSatisfy({ $0 < 0x80 }) else {
      out.append(contentsOf: expandAbbreviations(fold(String(s))).utf8)
      return
    }
    // ASCII: lower case byte by byte; words are written out only when one is an abbreviation.
    let start = out.count
    var wordStart = start
    var abbreviated = false
    for b in s.utf8 {
      if b == 32 {
        abbreviated = abbreviated || isAbbreviation(out[wordStart...])
        wordStart = out.count + 1
      }
      out.append(b >= 65 && b <= 90 ? b + 32 : b)
    }
    // A name's last word counts only after another ("Mt" alone is a name, not an abbreviation).
    if wordStart > start { abbreviated = abbreviated || isAbbreviation(out[wordStart...]) }
    if abbreviated {
      let expanded = expandAbbreviations(String(decoding: out[start...], as: UTF8.self))
      out.removeSubrange(start...)
      out.append(contentsOf: expanded.utf8)
    }
  }

  /// Whether folded bytes are one of the abbreviations ("st", "st.", "mt", …).
  static func isAbbreviation(_ word: ArraySlice<UInt8>) -> Bool {
    guard (2...4).contains(word.count) else { return false }
    return abbreviations[String(decoding: word, as: UTF8.self)] != nil
  }

  /// The edit distance (insertions, deletions, substitutions and swaps of neighbours) between
  /// two byte strings, or nil when it is more than `limit`. What the two share at the start and
  /// the end is set aside, and only the band of the table within `limit` of its diagonal is
  /// filled, row by row until a row has nothing within `limit`: most names are turned down
  /// after a few bytes.
  static func distance(
    _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, limit: Int
  ) -> Int? {
    var n = a.count
    var m = b.count
    if abs(n - m) > limit { return nil }
    var start = 0
    while start < n && start < m && a[start] == b[start] { start += 1 }
    while n > start && m > start && a[n - 1] == b[m - 1] {
      n -= 1
      m -= 1
    }
    let ra = n - start
    let rb = m - start
    if ra == 0 || rb == 0 { return max(ra, rb) <= limit ? max(ra, rb) : nil }
    let far = limit + 1  // "more than the limit", for cells outside the band
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * (rb + 1)) { rows in
      var previous2 = rows.baseAddress!
      var previous = previous2 + (rb + 1)
      var current = previous + (rb + 1)
      for j in 0...rb {
        previous[j] = min(j, far)
        previous2[j] = far
      }
      for i in 1...ra {
        let low = max(1, i - limit)
        let high = min(rb, i + limit)
        current[0] = min(i, far)
        if low > 1 { current[low - 1] = far }
        var rowBest = far
        if low <= high {
          for j in low...high {
            let x = a[start + i - 1]
            let y = b[start + j - 1]
            var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x == y ? 0 : 1))
            if i > 1 && j > 1 && x == b[start + j - 2] && a[start + i - 2] == y {
              d = min(d, previous2[j - 2] + 1)
            }
            d = min(d, far)
            current[j] = d
            rowBest = min(rowBest, d)
          }
        }
        if high < rb { current[high + 1] = far }
        if rowBest > limit { return nil }
        (previous2, previous, current) = (previous, current, previous2)
      }
      return previous[rb] <= limit ? previous[rb] : nil
    }
  }

  /// The best matches for a query: exact names, then names that start with it, then names with
  /// a word that starts with it, then names that contain it (three letters or more); the main
  /// name before alternate names. "Name, country" narrows by country name or code.
  ///
  /// `near` (the centre of the view): among equal matches, what lies within 50 km of it comes
  /// first ("Casino" seen from Monaco is Monaco's casino before the Australian town).
  public func search(_ query: String, limit: Int = 8, near: Coordinate? = nil) -> [Place] {
    var scored = scoredMatches(query)
    var close = Set<Int>()
    if let near {
      let k = cos(near.latitude * .pi / 180)
      for (_, i) in scored {
        let c = places[i].coordinate
        var dLon = abs(c.longitude - near.longitude)
        if dLon > 180 { dLon = 360 - dLon }
        let dx = dLon * k
        let dy = c.latitude - near.latitude
        if (dx * dx + dy * dy).squareRoot() * 111.32 < 50 { close.insert(i) }
      }
    }
    scored.sort {
      if $0.score != $1.score { return $0.score < $1.score }
      let (ca, cb) = (close.contains($0.index), close.contains($1.index))
      if ca != cb { return ca }
      let (a, b) = (places[$0.index].population, places[$1.index].population)
      if a != b { return a > b }
      let (oa, ob) = (order[$0.index], order[$1.index])
      return oa != ob ? oa < ob : $0.index < $1.index
    }
    return scored.prefix(limit).map { places[$0.index] }
  }

  /// Every place matching a query with its score (lower is better: 0 the exact main name, 2
  /// a name starting with the query, 4 a word starting with it, 6 a name containing it, +1
  /// for an alternate name; when nothing matches, twice the typos), in no order.
  func scoredMatches(_ query: String) -> [(score: UInt8, index: Int)] {
    var q = query.trimmingCharacters(in: .whitespaces)
    var countryFilter: [UInt8]?
    if let comma = q.firstIndex(of: ",") {
      countryFilter = Array(
        Gazetteer.fold(String(q[q.index(after: comma)...]).trimmingCharacters(in: .whitespaces))
          .utf8)
      q = String(q[..<comma])
    }
    let needle = Array(
      Gazetteer.expandAbbreviations(Gazetteer.fold(q), typing: countryFilter == nil).utf8)
    guard !needle.isEmpty else { return [] }
    var best = [UInt8](repeating: .max, count: places.count)
    let n = needle.count
    blob.withUnsafeBufferPointer { b in
      needle.withUnsafeBufferPointer { nd in
        let base = b.baseAddress!
        let np = nd.baseAddress!
        for name in names {
          let start = Int(name.start)
          let length = Int(name.length)
          guard length >= n else { continue }
          let p = base + start
          let bias: UInt8 = name.main ? 0 : 1
          var score: UInt8 = .max
          if memcmp(p, np, n) == 0 {
            score = (length == n ? 0 : 2) + bias
          } else if n >= 2, let at = Gazetteer.find(np, n, in: p + 1, length - 1) {
            let before = at[-1]
            let wordStart = before == 32 || before == 45
            guard wordStart || n >= 3 else { continue }
            score = (wordStart ? 4 : 6) + bias
          } else {
            continue
          }
          let place = Int(name.place)
          if score < best[place] { best[place] = score }
        }
      }
    }
    var scored = ranked(best, countryFilter: countryFilter)
    if scored.isEmpty && n >= 5 {
      // Nothing starts with or contains the query: names within one typo (two for long
      // queries) of it, nearest first ("Pariss" finds Paris).
      let limit = n >= 9 ? 2 : 1
      best = [UInt8](repeating: .max, count: places.count)
      blob.withUnsafeBufferPointer { b in
        needle.withUnsafeBufferPointer { nd in
          for name in names where abs(Int(name.length) - n) <= limit {
            let candidate = UnsafeBufferPointer(
              rebasing: b[Int(name.start)..<Int(name.start + name.length)])
            guard let d = Gazetteer.distance(nd, candidate, limit: limit) else { continue }
            let score = UInt8(d * 2) + (name.main ? 0 : 1)
            let place = Int(name.place)
            if score < best[place] { best[place] = score }
          }
        }
      }
      scored = ranked(best, countryFilter: countryFilter)
    }
    return scored
  }

  /// Among equal matches, places before streets before water before points of interest.
  func categoryOrder(_ index: Int) -> UInt8 { order[index] }

  /// The first place `needle` (of `n` bytes) occurs in `haystack` (of `length` bytes), or nil:
  /// `memchr` to each candidate first byte, `memcmp` for the rest. (Names are short; glibc's
  /// `memmem` is hidden without `_GNU_SOURCE`, and this module imports no C shim for it.)
  @inline(__always)
  static func find(
    _ needle: UnsafePointer<UInt8>, _ n: Int, in haystack: UnsafePointer<UInt8>, _ length: Int
  ) -> UnsafePointer<UInt8>? {
    guard n > 0, length >= n else { return nil }
    let first = Int32(needle[0])
    var at = haystack
    let last = haystack + (length - n)
    while at <= last {
      guard let hit = memchr(at, first, last - at + 1) else { return nil }
      let p = hit.assumingMemoryBound(to: UInt8.self)
      if memcmp(p, needle, n) == 0 { return UnsafePointer(p) }
      at = UnsafePointer(p) + 1
    }
    return nil
  }

  /// The places that have a score, narrowed by country.
  private func ranked(_ best: [UInt8], countryFilter: [UInt8]?) -> [(score: UInt8, index: Int)] {
    var scored: [(score: UInt8, index: Int)] = []
    for (i, s) in best.enumerated() where s != .max {
      if let cf = countryFilter, !cf.isEmpty {
        let c = foldedCountries[i]
        if c.code != cf && !c.name.starts(with: cf) { continue }
      }
      scored.append((s, i))
    }
    return scored
  }
}
