import Foundation

/// Finds a file's format from its first bytes and hands it to the right reader.
enum FormatDetection {
  /// XML namespaces the readers know, by the numbers the tokenizer reports.
  static let namespaces: [String: Int] = [
    "http://www.topografix.com/GPX/1/0": GPXReader.gpx10,
    "http://www.topografix.com/GPX/1/1": GPXReader.gpx11,
    "http://www.opengis.net/kml/2.2": KMLReader.kml,
    "http://earth.google.com/kml/2.0": KMLReader.kml,
    "http://earth.google.com/kml/2.1": KMLReader.kml,
    "http://earth.google.com/kml/2.2": KMLReader.kml,
    "http://www.google.com/kml/ext/2.2": KMLReader.gx,
    "http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2": TCXReader.tcx,
    "http://www.garmin.com/xmlschemas/ActivityExtension/v2": TCXReader.activityExtension,
    "http://www.garmin.com/xmlschemas/TrackPointExtension/v1": TCXReader.trackPointExtension,
    "http://www.garmin.com/xmlschemas/TrackPointExtension/v2": TCXReader.trackPointExtension,
  ]

  /// What the first bytes say.
  enum Guess: Equatable {
    case xml, json, csv, fit, igc
  }

  /// Whether the first bytes are a FIT file header: its size (12 or 14) and ".FIT" at 8.
  static func isFIT(_ head: [UInt8]) -> Bool {
    head.count >= 12 && (head[0] == 12 || head[0] == 14) && head[8] == 0x2E && head[9] == 0x46
      && head[10] == 0x49 && head[11] == 0x54
  }

  /// Whether text starting at `i` is an IGC file: an A record (no CSV delimiter in it) and a
  /// next record that is an H, I or B record.
  static func isIGC(_ head: [UInt8], at i: Int) -> Bool {
    guard i < head.count, head[i] == UInt8(ascii: "A") else { return false }
    var k = i
    while k < head.count && head[k] != Chars.lf {
      if head[k] == Chars.comma || head[k] == Chars.semicolon || head[k] == Chars.tab {
        return false
      }
      k += 1
    }
    // The next record after blank lines.
    while k < head.count && ValueParser.isSpace(head[k]) { k += 1 }
    guard k < head.count else { return false }
    return [UInt8(ascii: "H"), UInt8(ascii: "I"), UInt8(ascii: "B")].contains(head[k])
  }

  /// "UTF-32" or "UTF-16" when the first bytes are a byte order mark of one, or an ASCII
  /// character written in one (UTF-32 is tested first: its little-endian mark starts with
  /// UTF-16's); nil otherwise.
  static func wideEncoding(_ head: some Collection<UInt8>) -> String? {
    let b = Array(head.prefix(4))
    if b.count >= 4 {
      if b == [0xFF, 0xFE, 0, 0] || b == [0, 0, 0xFE, 0xFF] { return "UTF-32" }
      if b[0] != 0 && b[0] < 0x80 && b[1] == 0 && b[2] == 0 && b[3] == 0 { return "UTF-32" }
      if b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] != 0 && b[3] < 0x80 { return "UTF-32" }
    }
    if b.count >= 2 {
      if (b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF) { return "UTF-16" }
      let ascii: [UInt8] = [0x3C, 0x7B]  // "<", "{"
      if (ascii.contains(b[0]) && b[1] == 0) || (b[0] == 0 && ascii.contains(b[1])) {
        return "UTF-16"
      }
    }
    return nil
  }

  /// The format the first bytes of a file suggest, or an error for what termmap cannot read.
  static func guess(_ head: [UInt8], path: String) throws(DataFileError) -> Guess {
    if head.isEmpty { throw DataFileError(path: path, message: "file is empty") }
    if let wide = wideEncoding(head) {
      throw DataFileError(
        path: path, byteOffset: 0, message: "the file is \(wide) text; save it as UTF-8")
    }
    func starts(_ magic: [UInt8]) -> Bool { head.starts(with: magic) }
    if starts([0x1F, 0x8B]) {
      throw DataFileError(
        path: path, message: "the file is gzip-compressed; decompress it first (gunzip)")
    }
    if starts(Array("PK\u{3}\u{4}".utf8)) {
      throw DataFileError(
        path: path,
        message: "the file is a ZIP archive (a KMZ file?); unzip it and open the .kml inside")
    }
    var i = 0
    if starts([0xEF, 0xBB, 0xBF]) { i = 3 }
    while i < head.count && ValueParser.isSpace(head[i]) { i += 1 }
    if i == head.count {
      throw DataFileError(path: path, message: "file is empty (it has only white space)")
    }
    let ext = (path as NSString).pathExtension.lowercased()
    if isFIT(head) { return .fit }
    if ext == "fit" {
      throw DataFileError(
        path: path, byteOffset: 0,
        message: "expected FIT (a 12 or 14 byte header with \".FIT\" at byte 8)")
    }
    if head.contains(0) || starts(Array("SQLite format 3".utf8))
      || starts([0x89, 0x50, 0x4E, 0x47])
      || starts(Array("%PDF".utf8))
    {
      throw DataFileError(
        path: path,
        message: "unknown format: binary data (termmap reads FIT files and GPX, KML, TCX, GeoJSON, "
          + "IGC and CSV text files)")
    }
    let first = head[i]
    let guess: Guess =
      first == Chars.lt
      ? .xml
      : (first == UInt8(ascii: "{") || first == UInt8(ascii: "["))
        ? .json : isIGC(head, at: i) ? .igc : .csv
    // A name that promises a format the contents do not have.
    let expected: (Guess, String)? =
      switch ext {
      case "gpx": (.xml, "GPX (XML starting with \"<\")")
      case "kml": (.xml, "KML (XML starting with \"<\")")
      case "tcx": (.xml, "TCX (XML starting with \"<\")")
      case "igc": (.igc, "IGC (an A record, then H records)")
      case "geojson", "json": (.json, "GeoJSON (starting with \"{\")")
      default: nil
      }
    if let (want, name) = expected, want != guess {
      var end = i
      while end < head.count && end - i < 20 && head[end] != Chars.lf && head[end] != Chars.cr {
        end += 1
      }
      let found = Formatting.shown(String(decoding: head[i..<end], as: UTF8.self), limit: 20)
      let (line, column) = location(head, i)
      throw DataFileError(
        path: path, line: line, column: column,
        message: "expected \(name), found \"\(found)\"")
    }
    return guess
  }

  private static func location(_ bytes: [UInt8], _ offset: Int) -> (Int, Int) {
    var line = 1
    var column = 1
    var k = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while k < offset {
      if bytes[k] == Chars.lf {
        line += 1
        column = 1
      } else if bytes[k] & 0xC0 != 0x80 {
        column += 1
      }
      k += 1
    }
    return (line, column)
  }

  /// The line of the first row that is not blank or a comment, when it has no delimiter at
  /// all (so the file cannot be route CSV); nil otherwise.
  static func lineWithoutDelimiter(_ bytes: [UInt8]) -> Int? {
    var line = 1
    var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < bytes.count {
      var end = start
      while end < bytes.count && bytes[end] != Chars.lf && bytes[end] != Chars.cr { end += 1 }
      let row = bytes[start..<end]
      let first = row.first { !ValueParser.isSpace($0) }
      if let first, first != UInt8(ascii: "#") {
        let delimited = row.contains {
          $0 == Chars.comma || $0 == Chars.semicolon || $0 == Chars.tab
        }
        return delimited ? nil : line
      }
      if end < bytes.count && bytes[end] == Chars.cr && end + 1 < bytes.count
        && bytes[end + 1] == Chars.lf
      {
        end += 1
      }
      start = end + 1
      line += 1
    }
    return nil
  }

  /// Reads the whole source with the reader its contents call for.
  static func read(_ source: ByteSource) throws(DataFileError) -> MapContent {
    let head = try source.read(upTo: 4096)
    let guess = try guess(head, path: source.path)
    source.unread(head)
    switch guess {
    case .xml:
      let xml = try XMLTokenizer(source: source, namespaces: namespaces)
      // The root element says which XML format it is.
      while true {
        switch try xml.next() {
        case .startElement:
          if xml.localNameIs("gpx") {
            var reader = GPXReader(xml: xml, path: source.path)
            return try reader.read()
          }
          if xml.localNameIs("kml") {
            var reader = KMLReader(xml: xml, path: source.path)
            return try reader.read()
          }
          if xml.localNameIs("TrainingCenterDatabase") {
            var reader = TCXReader(xml: xml, path: source.path)
            return try reader.read()
          }
          throw xml.error(
            at: xml.tokenOffset,
            "the root element <\(TextSanitizer.clean(xml.qualifiedName))> is not <gpx>, <kml> or "
              + "<TrainingCenterDatabase> (termmap reads GPX, KML, TCX, GeoJSON, FIT, IGC and CSV)")
        case .text, .endElement: continue
        case .endOfDocument:
          throw DataFileError(path: source.path, message: "the file has no XML elements")
        }
      }
    case .fit:
      var reader = FITReader(source: source)
      return try reader.read()
    case .igc:
      var reader = IGCReader(source: source)
      return try reader.read()
    case .json:
      source.readingShare = 0.5
      let bytes = try source.readAll()
      return try GeoJSONReader.read(
        bytes, path: source.path, progress: { source.report(fraction: 0.5 + $0 / 2) })
    case .csv:
      source.readingShare = 0.5
      let bytes = try source.readAll()
      do throws(DataFileError) {
        return try RouteCSV.parse(Data(bytes), path: source.path).mapContent()
      } catch {
        if let line = lineWithoutDelimiter(bytes) {
          throw DataFileError(
            path: source.path, line: line,
            message:
              "unknown format: not GPX, KML, TCX, GeoJSON, FIT, IGC or CSV (a route CSV line has at least "
              + "latitude and longitude separated by a comma, semicolon or tab)")
        }
        throw error
      }
    }
  }
}
