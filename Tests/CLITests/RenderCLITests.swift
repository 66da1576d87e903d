import Foundation
import Testing

private let invalid = "Tests/MapDataTests/Fixtures/invalid/"

@Suite("termmap render")
struct RenderCLITests {
  @Test("deeper than any map data: the status line names termmap get; not where data is")
  func noDataNote() throws {
    func status(_ args: [String]) throws -> String {
      let r = try termmap(["render", "--size", "120x20", "--status", "--color", "never"] + args)
      return String(r.stdout.split(separator: "\n").last ?? "")
    }
    // The world's tiles end at zoom 8, drawn scaled up to 11 (Regions.overzoomAllowance).
    let hike = try status(["--zoom", "12", "Data/samples/korita-zbevnica.gpx"])
    #expect(hike.contains("no map data here: termmap get"), "\(hike)")
    #expect(!(try status(["--center", "43.73,7.42", "--zoom", "14"])).contains("no map data"))
    #expect(!(try status(["--center", "46,14", "--zoom", "8"])).contains("no map data"))
    #expect(
      !(try status(["--no-basemap", "Data/samples/korita-zbevnica.gpx"])).contains("no map data"))
  }

  @Test("no offline map where it is looked for: the frame, one line saying where, exit 1")
  func missingOfflineMap() throws {
    let r = try termmap(
      ["render", "--size", "30x6", "--color", "never"],
      environment: ["TERMMAP_DATA": "/nonexistent/termmap-data"])
    #expect(r.status == 1)
    #expect(r.stdout.split(separator: "\n", omittingEmptySubsequences: false).count == 7)
    #expect(
      r.stderr
        == "termmap: the offline map is missing: no world.pmtiles in TERMMAP_DATA=/nonexistent/termmap-data\n"
    )
    // With a file to show, the frame is the file's: status 0, the line still said.
    let withFile = try termmap(
      ["render", "--size", "30x6", "Data/samples/bled.geojson"],
      environment: ["TERMMAP_DATA": "/nonexistent/termmap-data"])
    #expect(withFile.status == 0)
    #expect(withFile.stderr.hasPrefix("termmap: the offline map is missing"))
  }

  @Test("prints exactly ROWS lines of COLS cells with no escape sequence")
  func frameShape() throws {
    let r = try termmap([
      "render", "--no-basemap", "--color", "never", "--size", "80x24",
      "Data/samples/lisbon-walk.csv",
    ])
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 24)
    for line in lines { #expect(line.count == 80) }
    #expect(!r.stdout.contains("\u{1B}"))
    #expect(r.stdout.contains("Rossio"))
    #expect(r.stdout.contains("Cais do Sodré"))
  }

  @Test("fits the route to the frame: it reaches across the frame and is not cut at an edge")
  func fitsRoute() throws {
    let r = try termmap([
      "render", "--no-basemap", "--color", "never", "--size", "80x24",
      "Data/samples/korita-zbevnica.csv",
    ])
    #expect(r.status == 0)
    let lines = r.stdout.split(separator: "\n").map { Array($0) }
    var minRow = Int.max
    var maxRow = -1
    var minCol = Int.max
    var maxCol = -1
    for (row, line) in lines.enumerated() {
      for (col, ch) in line.enumerated() {
        guard let s = ch.unicodeScalars.first, (0x2801...0x28FF).contains(s.value) else { continue }
        minRow = min(minRow, row)
        maxRow = max(maxRow, row)
        minCol = min(minCol, col)
        maxCol = max(maxCol, col)
      }
    }
    // The fitted route spans most of the frame in its longer direction...
    let spansRows = Double(maxRow - minRow + 1) / 24
    let spansCols = Double(maxCol - minCol + 1) / 80
    #expect(max(spansRows, spansCols) > 0.8)
    // ...and keeps off the outermost cells (the fit leaves a margin).
    #expect(minRow >= 0 && maxRow <= 23)
    #expect(minCol >= 1 && maxCol <= 78)
  }

  @Test("--status adds one line with the centre, zoom and a scale bar")
  func statusLine() throws {
    let r = try termmap([
      "render", "--no-basemap", "--color", "never", "--size", "70x20", "--status",
      "Data/samples/lisbon-walk.csv",
    ])
    let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 21)
    let status = String(lines.last!)
    #expect(status.count == 70)
    #expect(status.contains("38.7"))
    #expect(status.contains(" m") || status.contains(" km"))
  }

  @Test("--color always uses 256-colour escapes; --charset ascii draws plain ASCII")
  func colourAndCharset() throws {
    let c = try termmap([
      "render", "--no-basemap", "--color", "always", "--size", "40x12",
      "Data/samples/lisbon-walk.csv",
    ])
    #expect(c.stdout.contains("\u{1B}[0;38;5;"))
    let a = try termmap([
      "render", "--no-basemap", "--color", "never", "--charset", "ascii", "--size", "40x12",
      "Data/samples/lisbon-walk.csv",
    ])
    #expect(a.status == 0)
    let mapPart = a.stdout.unicodeScalars.filter { $0.value > 0x7E && $0 != "é" }
    #expect(mapPart.isEmpty)
    #expect(a.stdout.contains("@"))
  }

  @Test("NO_COLOR and a non-terminal stdout mean no colour under --color auto")
  func autoColour() throws {
    let r = try termmap(
      ["render", "--no-basemap", "--size", "40x12", "Data/samples/lisbon-walk.csv"],
      environment: ["NO_COLOR": "1"])
    #expect(r.status == 0)
    #expect(!r.stdout.contains("\u{1B}"))
  }

  @Test(
    "bad CSV files give file:line: message and exit status 2",
    arguments: [
      ("latitude-text.csv", ":3:1: expected a number for latitude, found \"abc\""),
      ("too-few-fields.csv", ":2: expected 2 fields (lat, lon), found 1"),
      ("latitude-out-of-range.csv", ":2:1: latitude 91.5 is outside -90...90"),
      ("empty.csv", ": file is empty"),
    ])
  func badCSV(file: String, message: String) throws {
    let r = try termmap(["render", "--no-basemap", "--color", "never", invalid + file])
    #expect(r.status == 2)
    #expect(r.stdout.isEmpty)
    let lines = r.stderr.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(r.stderr == invalid + file + message + "\n")
  }

  @Test(
    "bad arguments give one line on stderr and exit status 2",
    arguments: [
      (["render", "--size", "0x5"], "--size"),
      (["render", "--zoom", "abc", "--center", "1,2"], "--zoom"),
      (["render", "--center", "95,0", "--zoom", "3"], "--center"),
      (["render", "--bbox", "0,0,1,1", "--center", "10,10"], "--bbox cannot be combined"),
      (["render", "--zoom", "-5"], "--zoom: -5.0 is outside -4...22"),
      (["render", "--frobnicate"], "unknown option --frobnicate"),
      (["render", "--color", "purple"], "--color"),
      (["render", "Data/samples/does-not-exist.csv"], "does-not-exist.csv"),
      (["render", "Data/samples"], "Data/samples"),
    ])
  func badArguments(arguments: [String], fragment: String) throws {
    let r = try termmap(arguments)
    #expect(r.status == 2)
    #expect(r.stdout.isEmpty)
    #expect(r.stderr.split(separator: "\n").count == 1)
    #expect(r.stderr.contains(fragment))
  }

  @Test("a name holding an escape sequence reaches the output without its ESC")
  func escapeInName() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-cli-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let file = dir.appendingPathComponent("evil.csv")
    try "lat,lon,name\n10,10,\"\u{1B}]0;owned\u{07}\u{1B}[2JEvil\"\n10.01,10.01,\n".write(
      to: file, atomically: true, encoding: .utf8)
    let r = try termmap([
      "render", "--no-basemap", "--color", "always", "--size", "40x10", file.path,
    ])
    #expect(r.status == 0)
    #expect(r.stdout.contains("Evil"))
    // Every ESC in the output starts one of termmap's own SGR sequences.
    let parts = r.stdout.components(separatedBy: "\u{1B}").dropFirst()
    for p in parts { #expect(p.hasPrefix("[0")) }
    #expect(!r.stdout.contains("\u{07}"))
  }
}
