import DotRaster
import Foundation
import Testing

@testable import MapTiles
@testable import TerminalUI

private let walk = "Data/samples/lisbon-walk.csv"

/// Braille cells with dots (the route, without a basemap under it).
private func brailleCells(_ lines: [String]) -> Int {
  lines.joined().unicodeScalars.filter { (0x2801...0x28FF).contains($0.value) }.count
}

/// The zoom level the status line shows.
private func zoom(_ status: String) -> Double? {
  guard let r = status.range(of: #"z-?\d+\.\d"#, options: .regularExpression) else { return nil }
  return Double(status[r].dropFirst())
}

/// The viewer on an in-memory terminal: keys, mouse, prompt, help, callouts and the status
/// line, with whole frames read back as text.
@MainActor
@Suite("viewer on a test backend")
struct ViewerBackendTests {
  @Test("starts with the walk fitted: markers, the route's own cells and the status line")
  func startsFitted() throws {
    let h = try Harness([walk])
    #expect(h.screen.count == 30)
    #expect(h.screen.allSatisfy { CellBuffer.displayWidth(of: $0) == 100 })
    #expect(h.text.contains("Rossio"))
    #expect(h.text.contains("A Brasileira"))
    // No basemap here: every braille cell is the route's.
    #expect(brailleCells(h.screen) > 40)
    #expect(h.status.hasPrefix("38.7"))
    #expect(h.status.contains("20 pts"))
    #expect(h.status.contains("? help"))
  }

  @Test("← pans: the markers move right by an eighth of the screen; the route is drawn again")
  func arrowPans() throws {
    let h = try Harness([walk])
    let before = try #require(h.find("Rossio"))
    h.send(.key(.left))
    let after = try #require(h.find("Rossio"), "Rossio left the screen:\n\(h.text)")
    // 100 columns: an eighth is 12.5 cells of 2 dots, rounded to 25 dots, 12 or 13 cells.
    #expect((12...13).contains(after.column - before.column))
    #expect(after.row == before.row)
    #expect(brailleCells(h.screen) > 40)
    #expect(h.viewer.routesShown)
  }

  @Test("routes are hidden while a key burst lasts, shown when it settles")
  func routesHiddenDuringBurst() throws {
    let h = try Harness([walk])
    h.backend.send(.key(.right), .key(.right))
    h.step()
    #expect(brailleCells(h.screen) == 0, "\(h.text)")
    h.settle()
    #expect(brailleCells(h.screen) > 40)
  }

  @Test("Tab selects the nearest marker, Enter opens its callout, Esc closes it")
  func callout() throws {
    let h = try Harness([walk])
    h.send(.character("\t"))
    #expect(h.status.contains("▸ A Brasileira"))
    h.send(.character("\r"))
    #expect(h.text.contains("Café on Rua Garrett, open since 1905"))
    #expect(h.text.contains("38.71070, -9.14210"))
    #expect(h.text.contains("┌"))
    h.send(.character("\u{1B}"))
    #expect(!h.text.contains("Café on Rua Garrett"))
    #expect(h.status.contains("▸ A Brasileira"))
  }

  @Test("Shift-Tab goes backwards through the markers")
  func backTab() throws {
    let h = try Harness([walk])
    h.send(.character("\t"))
    let first = h.status
    h.send(.character("\t"))
    #expect(h.status != first)
    h.send(.key(.backTab))
    #expect(h.status == first)
  }

  @Test("? shows the keys; q then closes the help and does not quit")
  func helpAndQ() throws {
    let h = try Harness([walk])
    h.send(.character("?"))
    #expect(h.text.contains("termmap keys"))
    #expect(h.text.contains("zoom in / out"))
    h.send(.character("q"))
    #expect(!h.text.contains("termmap keys"))
    #expect(h.viewer.running)
    h.send(.character("q"))
    #expect(!h.viewer.running)
  }

  @Test("the wheel zooms about the pointer and the status line shows the coordinate under it")
  func wheel() throws {
    let h = try Harness([walk])
    let z0 = try #require(zoom(h.status))
    h.send(.mouse(MouseEvent(column: 50, row: 14, action: .wheelUp)))
    let z1 = try #require(zoom(h.status))
    #expect(z1 > z0)
    #expect(h.status.hasPrefix("⌖ 38.7"))
    h.send(.mouse(MouseEvent(column: 50, row: 14, action: .wheelDown)))
    #expect(abs((zoom(h.status) ?? 0) - z0) < 0.05)
  }

  @Test("a click on a marker opens its callout; a click elsewhere closes it")
  func click() throws {
    let h = try Harness([walk])
    let label = try #require(h.find("Cais do Sodré"))
    // The marker sits two cells left of its label.
    h.send(
      .mouse(MouseEvent(column: label.column - 2, row: label.row, action: .press)),
      .mouse(MouseEvent(column: label.column - 2, row: label.row, action: .release)))
    #expect(h.text.contains("Ferry and train station by the river"), "\(h.text)")
    h.send(
      .mouse(MouseEvent(column: 2, row: 2, action: .press)),
      .mouse(MouseEvent(column: 2, row: 2, action: .release)))
    #expect(!h.text.contains("Ferry and train station"))
  }

  @Test("a drag pans by the cells dragged, as one region change")
  func drag() throws {
    let h = try Harness([walk])
    let before = try #require(h.find("Rossio"))
    let changes = h.viewer.regionChanges
    h.backend.send(.mouse(MouseEvent(column: 40, row: 15, action: .press)))
    for dx in 1...6 {
      h.backend.send(.mouse(MouseEvent(column: 40 - dx, row: 15, action: .motion)))
    }
    h.backend.send(.mouse(MouseEvent(column: 34, row: 15, action: .release)))
    h.settle()
    #expect(h.find("Rossio")?.column == before.column - 6)
    #expect(h.viewer.regionChanges == changes + 1)
  }

  @Test("a resize draws at the new size; a tiny terminal gets the whole message, over lines")
  func resize() throws {
    let h = try Harness([walk])
    h.backend.resize(columns: 70, rows: 20)
    h.settle()
    #expect(h.screen.count == 20)
    #expect(h.screen.allSatisfy { CellBuffer.displayWidth(of: $0) == 70 })
    #expect(h.status.contains("pts"))
    h.backend.resize(columns: 15, rows: 4)
    h.settle()
    let small = h.screen.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    #expect(small == ["too small: need", "20x6 (is 15x4)"])
    h.backend.resize(columns: 8, rows: 3)
    h.settle()
    #expect(h.screen[0].trimmingCharacters(in: .whitespaces) == "need")
    #expect(h.screen[1].trimmingCharacters(in: .whitespaces) == "20x6")
    h.backend.resize(columns: 100, rows: 30)
    h.settle()
    #expect(h.text.contains("Rossio"))
  }

  @Test("--center without --zoom: that centre at the zoom the fit gives (10 with no files)")
  func centerWithoutZoom() throws {
    let fitted = try #require(zoom(try Harness([walk]).status))
    let h = try Harness([walk]) { o in o.center = .init(latitude: 48.8566, longitude: 2.3522) }
    #expect(h.status.hasPrefix("48.85"), "\(h.status)")
    #expect(zoom(h.status) == fitted)
    let empty = try Harness { o in o.center = .init(latitude: 48.8566, longitude: 2.3522) }
    #expect(empty.status.hasPrefix("48.85"))
    #expect(zoom(empty.status) == 10)
    // --zoom alone: the fit's centre at that zoom.
    let zoomed = try Harness([walk]) { o in o.zoom = 12 }
    #expect(zoomed.status.hasPrefix("38.7"))
    #expect(zoom(zoomed.status) == 12)
  }

  @Test("w fits the whole world at 80 × 24, below zoom 0")
  func wholeWorld() throws {
    let h = try Harness([walk], columns: 80, rows: 24)
    h.send(.character("w"))
    let z = try #require(zoom(h.status))
    #expect(z < 0, "\(h.status)")
    // The world's width in dots fits the map's 160 × 92 dots: the whole of it is on screen.
    let map = h.viewer.map
    #expect(map.visibleMapRect.width >= 268_435_456 * 0.999, "\(map.visibleMapRect)")
    #expect(map.visibleMapRect.height >= 268_435_456 * 0.999, "\(map.visibleMapRect)")
  }
}

/// Files that fail, the prompt, and the status line's messages.
@MainActor
@Suite("viewer messages and search on a test backend")
struct ViewerMessageTests {
  static let broken = "Tests/MapDataTests/Fixtures/invalid/latitude-text.csv"

  @Test("every file that fails is reported: a count, and each one in the help")
  func everyFailure() throws {
    let h = try Harness(["Data/samples/missing.gpx", walk, Self.broken], columns: 200)
    #expect(h.text.contains("Rossio"))
    #expect(h.status.contains("2 files could not be read"), "\(h.status)")
    #expect(h.status.contains("missing.gpx"))
    h.wait(seconds: 10)
    // The message has gone; the count stays.
    #expect(h.status.contains("2 files not read"), "\(h.status)")
    h.send(.character("?"))
    #expect(h.text.contains("Files not read (2):"))
    #expect(h.text.contains("missing.gpx: file not found"))
    #expect(h.text.contains("latitude-text.csv:3:1: expected a number for latitude"))
    // On a narrower screen each error still shows whole, over two lines.
    h.backend.resize(columns: 80, rows: 40)
    h.settle()
    // (Compared without spaces: where the line wraps, its space goes.)
    let joined = h.screen.map { $0.replacingOccurrences(of: "│", with: "") }.joined()
      .replacingOccurrences(of: " ", with: "")
    #expect(joined.contains("latitude-text.csv:3:1:expectedanumberforlatitude,found"))
  }

  @Test("one failing file: its error on the status line")
  func oneFailure() throws {
    let h = try Harness([Self.broken, walk], columns: 200)
    #expect(h.status.contains("latitude-text.csv:3:1: expected a number for latitude"))
  }

  @Test("/ Tokyo lists the city; Enter goes there and names it until the map is moved")
  func searchGoes() throws {
    let h = try Harness([walk])
    h.send(.character("/"))
    h.type("Tokyo")
    #expect(h.text.contains("Tokyo, Japan"))
    h.send(.character("\r"))
    #expect(h.status.contains("Tokyo, Japan"))
    #expect(h.viewer.map.centerCoordinate.latitude > 35.6)
    #expect(h.viewer.map.centerCoordinate.latitude < 35.8)
    h.send(.key(.right))
    #expect(!h.status.contains("Tokyo"))
    #expect(h.status.hasPrefix("35.6"))
  }

  @Test("'loading place names…' goes as soon as they have loaded, and the matches show")
  func loadingMessageEnds() throws {
    let h = try Harness([walk], places: false)
    h.send(.character("/"))
    h.type("Pa")
    #expect(h.status.hasPrefix("/ Pa▏  loading place names…"), "\(h.status)")
    try h.deliverPlaces()
    #expect(!h.text.contains("loading place names"))
    #expect(h.text.contains("Paris, France"))
  }

  @Test("'no markers on screen' goes when the view changes")
  func noMarkersMessageEnds() throws {
    let h = try Harness([walk])
    for _ in 0..<6 { h.send(.key(.shiftRight)) }
    h.send(.character("\t"))
    #expect(h.status.contains("no markers on screen"))
    h.send(.key(.shiftLeft))
    #expect(!h.status.contains("no markers"))
  }

  @Test("a typed coordinate is offered and Enter goes there")
  func searchCoordinate() throws {
    let h = try Harness([walk])
    h.send(.character("/"))
    h.type("48°51′N 2°21′E")
    #expect(h.text.contains("go to 48.85000, 2.35000"))
    h.send(.character("\r"))
    #expect(h.status.hasPrefix("48.85000, 2.35000"), "\(h.status)")
  }

  @Test("↑ and ↓ choose among the matches; Esc closes the prompt without going")
  func promptChoice() throws {
    let h = try Harness([walk])
    h.send(.character("/"))
    h.type("St. Petersburg")
    #expect(h.text.contains("› Saint Petersburg, Russia"), "\(h.text)")
    h.send(.key(.down))
    #expect(h.text.contains("› St. Petersburg, United States"), "\(h.text)")
    h.send(.character("\r"))
    #expect(h.status.contains("St. Petersburg, United States"))
    #expect(h.viewer.map.centerCoordinate.longitude < -82)
    h.send(.character("/"))
    h.type("Tokyo")
    h.send(.character("\u{1B}"))
    #expect(!h.text.contains("Tokyo"))
    #expect(h.viewer.map.centerCoordinate.longitude < -82)
  }

  @Test("two numbers out of range say so, not 'nothing found'")
  func outOfRange() throws {
    let h = try Harness([walk])
    h.send(.character("/"))
    h.type("95, 200")
    #expect(h.status.contains("out of range: latitude 95 is not within ±90"), "\(h.status)")
    h.send(.character("\r"))
    #expect(h.status.contains("out of range"))
    #expect(!h.status.contains("nothing found"))
  }

  @Test("wide characters in the prompt: the cursor follows in terminal columns")
  func wideCharacters() throws {
    let h = try Harness([walk])
    h.send(.character("/"))
    h.type("北京")
    let row = try #require(h.screen.last)
    // "/ " then two characters of two columns each: the cursor is in column 6.
    #expect(h.find("▏")?.column == 6, "\(row)")
    #expect(h.find("▏")?.row == 29)
    #expect(h.text.contains("Beijing, China"))
    h.send(.key(.backspace))
    #expect(h.find("▏")?.column == 4)
    // A long text keeps its end (and the cursor) on the line.
    h.type(String(repeating: "東京", count: 30))
    let cursor = try #require(h.find("▏"))
    #expect(cursor.column < 100 && cursor.row == 29)
  }

  @Test("without a UTF-8 locale the viewer starts in ASCII")
  func asciiWithoutUTF8() throws {
    let h = try Harness([walk], unicode: false)
    #expect(h.viewer.map.charset == .ascii)
    #expect(brailleCells(h.screen) == 0)
    #expect(h.status.contains(" | "))
  }
}

@Suite("the locale decides the charset")
struct LocaleTests {
  @Test(
    "LC_ALL, then LC_CTYPE, then LANG; the codeset must be UTF-8",
    arguments: [
      (["LANG": "C"], false),
      (["LANG": "C.UTF-8"], true),
      (["LANG": "en_US.utf8"], true),
      (["LANG": "de_DE.UTF-8@euro"], true),
      (["LANG": "en_US.ISO-8859-1"], false),
      (["LANG": "C.UTF-8", "LC_ALL": "C"], false),
      (["LANG": "C.UTF-8", "LC_CTYPE": "POSIX"], false),
      (["LANG": "C", "LC_CTYPE": "C.UTF-8"], true),
      (["LANG": "C", "LC_ALL": "", "LC_CTYPE": "en_GB.UTF-8"], true),
      ([:], false),
    ])
  func precedence(environment: [String: String], utf8: Bool) {
    #expect(localeIsUTF8(environment: environment) == utf8)
  }
}

@Suite("place names")
struct GazetteerTests {
  func search(_ q: String) throws -> [Place] {
    try #require(Harness.gazetteer).search(q)
  }

  @Test("a typo still finds the city", arguments: ["Pariss", "Prais", "Londno", "Barcelnoa"])
  func typo(query: String) throws {
    let names = try search(query).map(\.name)
    #expect(["Paris", "London", "Barcelona"].contains(names.first ?? ""), "\(names)")
  }

  @Test(
    "names in other scripts",
    arguments: [("Москва", "Moscow"), ("北京", "Beijing"), ("東京", "Tokyo"), ("Αθήνα", "Athens")])
  func otherScripts(query: String, name: String) throws {
    let found = try search(query)
    #expect(found.first?.name == name, "\(found.map(\.label))")
  }

  @Test(
    "St. Petersburg lists the Russian city, then the one in Florida",
    arguments: ["St. Petersburg", "St Petersburg", "Saint Petersburg", "st. petersburg"])
  func saint(query: String) throws {
    let found = try search(query)
    #expect(found.count >= 2)
    #expect(found.first?.country == "RU", "\(found.map(\.label))")
    #expect(found.dropFirst().first?.country == "US", "\(found.map(\.label))")
  }

  @Test("'St' while typing still finds Stockholm and Stuttgart")
  func prefixStillWorks() throws {
    let names = try search("Stock").map(\.name)
    #expect(names.contains("Stockholm"))
    #expect(try search("St").count == 8)
  }
}

/// Callout details as a user reads them, whatever the file format.
@MainActor
@Suite("callout wording on a test backend")
struct CalloutWordingTests {
  func write(_ name: String, _ text: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-callout-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let url = dir.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// Opens the callout of the only marker.
  func callout(_ path: String) throws -> String {
    let h = try Harness([path], columns: 120, rows: 30)
    h.send(.character("\t"))
    h.send(.character("\r"))
    return h.text
  }

  @Test("GPX: a waypoint at −0.114 m reads 'elevation 0 m', not '-0 m'")
  func negativeZero() throws {
    let gpx = try write(
      "low.gpx",
      """
      <?xml version="1.0"?>
      <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
      <wpt lat="52.37" lon="4.89"><ele>-0.114</ele><name>Dam</name></wpt>
      </gpx>
      """)
    let text = try callout(gpx)
    #expect(text.contains("elevation 0 m"), "\(text)")
    #expect(!text.contains("-0 m"))
  }

  @Test("a selected marker with a wide (CJK) name: the status line still fits its columns")
  func wideTitle() throws {
    let csv = try write(
      "wide.csv",
      "latitude,longitude,name\n39.9042,116.4074,"
        + String(repeating: "北京站", count: 12) + "\n")
    let h = try Harness([csv], columns: 100, rows: 20)
    h.send(.character("\t"))
    // The selected name is the user's own state: the zoom, scale bar and counts make room.
    #expect(h.status.contains("▸ " + String(repeating: "北京站", count: 12)), "\(h.status)")
    #expect(!h.status.contains(" pts"), "\(h.status)")
    // Wider than the line: cut, in columns, and said to be cut.
    let narrow = try Harness([csv], columns: 60, rows: 20)
    narrow.send(.character("\t"))
    #expect(narrow.status.contains("▸ 北京站"), "\(narrow.status)")
    let shown = narrow.status.trimmingCharacters(in: .whitespaces)
    #expect(shown.hasPrefix("▸ 北京站") && shown.hasSuffix("…"), "\(narrow.status)")
    #expect(CellBuffer.displayWidth(of: narrow.status) == 60)
  }

  @Test("KML: the height is 'elevation' too, as in GPX")
  func kmlElevation() throws {
    let kml = try write(
      "peak.kml",
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
      <Placemark><name>Peak</name><Point><coordinates>13.83,46.38,733</coordinates></Point></Placemark>
      </Document></kml>
      """)
    let text = try callout(kml)
    #expect(text.contains("elevation 733 m"), "\(text)")
    #expect(!text.contains("altitude"))
  }
}

/// Whole frames, every cell, as text (as ratatui's TestBackend asserts them).
@MainActor
@Suite("whole frames on a test backend")
struct WholeFrameTests {
  /// An empty map (no files, no basemap): only the chrome is drawn.
  func empty() throws -> Harness { try Harness(columns: 60, rows: 16) }

  static let blank = String(repeating: " ", count: 60)
  static let status = "0.00000, 0.00000 · z-2.1 · ├──────┤ 10000 km          ? help"

  @Test("the world fitted at start: an empty map and the status line")
  func start() throws {
    let h = try empty()
    #expect(h.screen == Array(repeating: Self.blank, count: 15) + [Self.status])
  }

  @Test("? draws the key list over the map, centred; q closes it and the map is back")
  func help() throws {
    // 25 rows: the whole list fits (the track tool's keys and D made it longer than 16 rows
    // hold, M one row longer than 23, T, the targets panel, one longer than 24).
    let h = try Harness(columns: 60, rows: 25)
    let status = "0.00000, 0.00000 · z-1.4 · ├────┤ 5000 km             ? help"
    h.send(.character("?"))
    let expected = [
      " ┌─ termmap keys ────────────────────────────────────────┐  ",
      " │ ←↓↑→  h j k l   pan (Shift or H J K: further)         │  ",
      " │ + = a  /  - z   zoom in / out                         │  ",
      " │ 0  /  w         fit all data / whole world            │  ",
      " │ Tab  Shift-Tab  next / previous marker                │  ",
      " │ Enter           open callout; again: zoom to it       │  ",
      " │ Esc             close callout, prompt or help         │  ",
      " │ M               move the selected marker              │  ",
      " │ /               search a place or go to lat, lon      │  ",
      " │ r               show / hide routes                    │  ",
      " │ c               braille / ASCII                       │  ",
      " │ p               profile of the selected track         │  ",
      " │ L               layers: files, live; on / off         │  ",
      " │ m               measure a path                        │  ",
      " │ t               colour tracks: file, elevation, …     │  ",
      " │ T               targets: markers by distance          │  ",
      " │ f               follow the marker / position          │  ",
      " │ D               download the region on screen         │  ",
      " │ mouse           drag pans, wheel zooms, click selects │  ",
      " │ ?               this help                             │  ",
      " │ q               quit                                  │  ",
      " │                                                       │  ",
      " │ Esc or any key closes this                            │  ",
      " └───────────────────────────────────────────────────────┘  ",
      status,
    ]
    #expect(h.screen == expected, "\n\(h.text)")
    h.send(.character("q"))
    #expect(h.screen == Array(repeating: Self.blank, count: 24) + [status])
  }

  @Test("/ Tokyo: the prompt line with its cursor and the matches above it")
  func prompt() throws {
    let h = try empty()
    h.send(.character("/"))
    h.type("Tokyo")
    let expected =
      Array(repeating: Self.blank, count: 13) + [
        " › Tokyo, Japan (9.7 M)                                     ",
        "   Nishi-Tokyo-shi, Japan (207 k)                           ",
        "/ Tokyo▏                                                    ",
      ]
    #expect(h.screen == expected, "\n\(h.text)")
  }
}

@Suite("edit distance")
struct EditDistanceTests {
  func d(_ a: String, _ b: String, _ limit: Int) -> Int? {
    Array(a.utf8).withUnsafeBufferPointer { x in
      Array(b.utf8).withUnsafeBufferPointer { y in Gazetteer.distance(x, y, limit: limit) }
    }
  }

  @Test("insertions, deletions, substitutions and swaps, bounded")
  func cases() {
    #expect(d("paris", "paris", 1) == 0)
    #expect(d("pariss", "paris", 1) == 1)
    #expect(d("prais", "paris", 1) == 1)
    #expect(d("oaris", "paris", 1) == 1)
    #expect(d("londno", "london", 1) == 1)
    #expect(d("barcelnoa", "barcelona", 2) == 1)
    #expect(d("barcleona", "barcelona", 2) == 1)
    #expect(d("brcelnoa", "barcelona", 2) == 2)
    #expect(d("brcelnoa", "barcelona", 1) == nil)
    #expect(d("lisbon", "london", 1) == nil)
    #expect(d("", "ab", 2) == 2)
    #expect(d("abcdef", "badcfe", 3) == 3)
  }
}
