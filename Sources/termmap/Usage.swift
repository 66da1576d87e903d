import Foundation

/// A mistake in the command line (exit status 2).
struct UsageError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}

enum Usage {
  static let version = "0.1.0"
  static let text = """
    termmap — an offline map in the terminal

    usage:
      termmap [--center LAT,LON] [--zoom Z] [--bbox W,S,E,N] [--charset braille|block|ascii]
              [--style dark|light] [--tiles SOURCE]... [--raster dots|blocks] [--no-basemap]
              [--keep-routes] [--settle MS] [--follow SOURCE [--record OUT.gpx]] [FILE...]
                                                         the interactive viewer (? for keys)
      termmap render [--center LAT,LON] [--zoom Z] [--bbox W,S,E,N] [--size COLSxROWS]
                     [--color auto|always|never] [--charset braille|block|ascii]
                     [--style dark|light] [--tiles SOURCE]... [--raster dots|blocks]
                     [--no-basemap] [--status] FILE...
      termmap info [--json] FILE...
      termmap bench [--json] [--size COLSxROWS] [--quick] [--only PREFIX]
                    [--tiles SOURCE --center LAT,LON --zoom Z]

    FILE is GPX 1.0/1.1, GeoJSON, KML 2.2 or a route CSV, recognised by its contents.
    SOURCE is an .mbtiles or .pmtiles file, a z/x/y tile directory, an http(s) URL template
    with {z}/{x}/{y}, an http(s) .pmtiles or TileJSON URL, or a source name (osm, osm-vector,
    openfreemap, or one from $XDG_CONFIG_HOME/termmap/config.toml). Vector tiles
    (OpenMapTiles, Shortbread or Protomaps layers) are drawn with their schema's style; raster
    tiles (PNG, JPEG) as braille dots or, with --raster blocks, as half blocks.
    render prints exactly ROWS lines of COLS cells (one more with --status) and fits all
    loaded data; --center or --zoom alone changes only that of the fit; --bbox goes alone.
    Bad input: one line on stderr (one per file that fails), exit status 2.
    """
}

/// A small, strict argument reader: every option is known, every value is checked.
struct ArgumentReader {
  private var rest: [String]
  init(_ arguments: [String]) { rest = arguments }

  var isEmpty: Bool { rest.isEmpty }

  mutating func next() -> String? { rest.isEmpty ? nil : rest.removeFirst() }

  mutating func value(for option: String) throws -> String {
    guard let v = next() else { throw UsageError("\(option) needs a value") }
    return v
  }

  static func number(_ s: String, _ what: String) throws -> Double {
    guard let d = Double(s.trimmingCharacters(in: .whitespaces)), d.isFinite else {
      throw UsageError("\(what): expected a number, found \"\(s)\"")
    }
    return d
  }

  static func numbers(_ s: String, count: Int, _ what: String) throws -> [Double] {
    let parts = s.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == count else {
      throw UsageError("\(what): expected \(count) comma-separated numbers, found \"\(s)\"")
    }
    return try parts.map { try number($0, what) }
  }

  static let maxColumns = 2000
  static let maxRows = 1000

  static func size(_ s: String) throws -> (Int, Int) {
    let parts = s.lowercased().split(separator: "x").map(String.init)
    guard parts.count == 2, let c = Int(parts[0]), let r = Int(parts[1]), c >= 1, r >= 1 else {
      throw UsageError("--size: expected COLSxROWS such as 80x24, found \"\(s)\"")
    }
    guard c <= maxColumns, r <= maxRows else {
      throw UsageError("--size: \(s) is too large (at most \(maxColumns)x\(maxRows))")
    }
    return (c, r)
  }
}
