import Foundation
import MapGeometry
import TileData

/// A populated place from the offline gazetteer (GeoNames cities of 15,000 people or more).
public struct Place: Sendable, Equatable {
  public let name: String
  public let country: String
  public let countryName: String
  public let coordinate: Coordinate
  public let population: Int

  /// "Paris, France".
  public var label: String { countryName.isEmpty ? name : "\(name), \(countryName)" }
}

/// Place-name search over `Data/places.tsv.gz`, matching names and alternate names without
/// regard to case or accents; more populous places rank first among equal matches.
public final class Gazetteer: Sendable {
  public let places: [Place]
  /// Folded search keys per place: name first, then ASCII and alternate names.
  private let keys: [[String]]

  /// Loads the gazetteer files from a data directory.
  public init(directory: URL) throws {
    let raw = try Data(contentsOf: directory.appendingPathComponent("places.tsv.gz"))
    let text = String(decoding: try Inflate.decompress(raw, limit: 64 << 20), as: UTF8.self)
    var countries: [String: String] = [:]
    if let c = try? String(
      contentsOf: directory.appendingPathComponent("countries.tsv"), encoding: .utf8)
    {
      for line in c.split(separator: "\n").dropFirst() {
        let f = line.split(separator: "\t", omittingEmptySubsequences: false)
        if f.count >= 3 { countries[String(f[0])] = String(f[2]) }
      }
    }
    var places: [Place] = []
    var keys: [[String]] = []
    for line in text.split(separator: "\n").dropFirst() {
      let f = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard f.count >= 7, let lat = Double(f[4]), let lon = Double(f[5]) else { continue }
      let name = String(f[0])
      let cc = String(f[2])
      places.append(
        Place(
          name: name, country: cc, countryName: countries[cc] ?? cc,
          coordinate: Coordinate(latitude: lat, longitude: lon), population: Int(f[6]) ?? 0))
      var k = [Gazetteer.fold(name)]
      if !f[1].isEmpty { k.append(Gazetteer.fold(String(f[1]))) }
      if f.count > 7 {
        for alt in f[7].split(separator: "|") { k.append(Gazetteer.fold(String(alt))) }
      }
      keys.append(k)
    }
    self.places = places
    self.keys = keys
  }

  /// Lower case without accents; ASCII takes a fast path.
  static func fold(_ s: String) -> String {
    if s.utf8.allSatisfy({ $0 < 0x80 }) { return s.lowercased() }
    return s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
  }

  /// The best matches for a query: exact names, then names that start with it, then names with
  /// a word that starts with it, then names that contain it. "Name, country" narrows by country
  /// name or code.
  public func search(_ query: String, limit: Int = 8) -> [Place] {
    var q = query.trimmingCharacters(in: .whitespaces)
    var countryFilter: String?
    if let comma = q.firstIndex(of: ",") {
      countryFilter = Gazetteer.fold(
        String(q[q.index(after: comma)...]).trimmingCharacters(in: .whitespaces))
      q = String(q[..<comma])
    }
    let fq = Gazetteer.fold(q)
    guard !fq.isEmpty else { return [] }
    var scored: [(score: Int, index: Int)] = []
    for (i, ks) in keys.enumerated() {
      if let cf = countryFilter, !cf.isEmpty {
        let p = places[i]
        if Gazetteer.fold(p.country) != cf && !Gazetteer.fold(p.countryName).hasPrefix(cf) {
          continue
        }
      }
      var best = Int.max
      for (n, k) in ks.enumerated() {
        let bias = n == 0 ? 0 : 1
        if k == fq {
          best = min(best, 0 + bias)
        } else if k.hasPrefix(fq) {
          best = min(best, 2 + bias)
        } else if k.contains(" " + fq) || k.contains("-" + fq) {
          best = min(best, 4 + bias)
        } else if fq.count >= 3 && k.contains(fq) {
          best = min(best, 6 + bias)
        }
        if best == 0 { break }
      }
      if best != Int.max { scored.append((best, i)) }
    }
    scored.sort {
      $0.score != $1.score
        ? $0.score < $1.score : places[$0.index].population > places[$1.index].population
    }
    return scored.prefix(limit).map { places[$0.index] }
  }
}
