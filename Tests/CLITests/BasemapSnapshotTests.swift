import Foundation
import LoopbackHTTPServer
import Testing
import TextSnapshots

/// Frames of `termmap render` stored as text in Tests/CLITests/Snapshots/NAME.txt.
private func checkSnapshot(
  _ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  checkTextSnapshot(
    text,
    in: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "Snapshots"), named: name, sourceLocation: sourceLocation)
}

@Suite("termmap render: the offline basemap")
struct BasemapSnapshotTests {
  @Test("the world at zoom 0.3: continents and country names")
  func world() throws {
    let r = try termmap([
      "render", "--color", "never", "--size", "160x48", "--zoom", "0.3", "--center", "20,0",
    ])
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 48)
    for line in lines { #expect(line.count == 160) }
    for name in ["Brazil", "Canada", "China", "Russia", "Australia", "India", "Algeria"] {
      #expect(r.stdout.contains(name), "\(name) missing")
    }
    checkSnapshot(r.stdout, named: "world-zoom0.3")
  }

  @Test("Monaco at zoom 15: streets and their names")
  func monaco() throws {
    let r = try termmap([
      "render", "--color", "never", "--size", "160x48", "--center", "43.7384,7.4246", "--zoom",
      "15",
    ])
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    for name in ["Boulevard Princesse Charlotte", "Avenue de la Costa", "Boulevard des Moulins"] {
      #expect(r.stdout.contains(name), "\(name) missing")
    }
    checkSnapshot(r.stdout, named: "monaco-zoom15")
  }
}

@Suite("termmap render --tiles URL (loopback server)")
struct HTTPTilesCLITests {
  static let world = WorldMBTiles.path

  func run(_ prefix: String, server: LoopbackHTTPServer, cache: URL) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    try termmap(
      [
        "render", "--no-basemap", "--color", "never", "--size", "80x24", "--zoom", "1",
        "--center", "30,10", "--tiles", server.baseURL + prefix + "/{z}/{x}/{y}.pbf",
      ], environment: ["XDG_CACHE_HOME": cache.path])
  }

  @Test("draws tiles from an http URL template and caches them under XDG_CACHE_HOME")
  func loads() throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: Self.world)
    defer { server.stop() }
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cli-http-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    let r = try run("", server: server, cache: cache)
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    let dots = r.stdout.unicodeScalars.filter { $0.value > 0x2800 && $0.value <= 0x28FF }.count
    #expect(dots > 100)
    #expect(server.requests.count > 0)
    let tiles = cache.appendingPathComponent("termmap/tiles").path
    let files = try FileManager.default.subpathsOfDirectory(atPath: tiles)
    #expect(files.filter { $0.hasSuffix(".meta") }.count == server.requests.count)
    // Again: from the disk cache, no request.
    let before = server.requests.count
    let again = try run("", server: server, cache: cache)
    #expect(again.stdout == r.stdout)
    #expect(server.requests.count == before)
  }

  @Test("a failing server: the frame still prints; the error and that no tile came, exit 1")
  func failing() throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: Self.world)
    defer { server.stop() }
    let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cli-http-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    let r = try run("/500", server: server, cache: cache)
    #expect(r.status == 1)
    #expect(r.stdout.split(separator: "\n").count == 24)
    let errors = r.stderr.split(separator: "\n")
    #expect(errors.count == 2)
    #expect(errors.first?.hasPrefix("termmap: tiles: http://127.0.0.1:") == true)
    #expect(errors.first?.contains("HTTP 500") == true)
    let last = String(errors.last ?? "")
    #expect(
      last.hasPrefix(
        "termmap: tiles: \(server.baseURL)/500/{z}/{x}/{y}.pbf: no tile could be fetched ("),
      "\(last)")
    #expect(last.hasSuffix(" failed)"), "\(last)")
  }

  @Test("tiles that do not come in time: the frame after --wait, and how many are missing")
  func gaveUp() throws {
    let server = try LoopbackHTTPServer.tileServer(mbtiles: Self.world)
    defer { server.stop() }
    let r = try termmap([
      "render", "--no-basemap", "--color", "never", "--size", "40x10", "--zoom", "1",
      "--center", "30,10", "--wait", "0.5", "--tiles", server.baseURL + "/hang/{z}/{x}/{y}.pbf",
    ])
    #expect(r.status == 0)
    #expect(r.stdout.split(separator: "\n").count == 10)
    #expect(r.stderr == "termmap: tiles: gave up waiting after 0.5 s: 2 tiles missing\n")
  }

  @Test("an invalid TERMMAP_TILE_CACHE_MB is one line, exit 2")
  func badCacheSize() throws {
    let r = try termmap(
      ["render", "--size", "20x5"], environment: ["TERMMAP_TILE_CACHE_MB": "lots"])
    #expect(r.status == 2)
    #expect(
      r.stderr
        == "termmap: TERMMAP_TILE_CACHE_MB: expected a whole number of MiB from 0 to 1048576, found \"lots\"\n"
    )
  }

  @Test("a bad template is a usage error")
  func badTemplate() throws {
    let r = try termmap(["render", "--tiles", "https://example.com/{z}/{x}.pbf"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("{y} missing"))
  }
}

/// A frame written with colour (`render --color always`) as its text, then its colour map:
/// one letter a cell for the cell's foreground colour (a blank cell is a blank, a cell with
/// no colour `.`), with the legend of letters to SGR codes. A palette change shows in the
/// legend and the map.
func colourMap(_ ansi: String) -> String {
  var text: [String] = []
  var cells: [[String?]] = []
  for line in ansi.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
    var fg: String?
    var row: [String?] = []
    var chars = ""
    var scalars = line.unicodeScalars[...]
    while let s = scalars.popFirst() {
      if s == "\u{1B}", scalars.first == "[" {
        scalars = scalars.dropFirst()
        var params = ""
        while let c = scalars.popFirst(), c != "m" { params.unicodeScalars.append(c) }
        let parts = params.split(separator: ";").map(String.init)
        var i = 0
        while i < parts.count {
          switch parts[i] {
          case "0": fg = nil
          case "38" where i + 2 < parts.count && parts[i + 1] == "5":
            fg = "38;5;" + parts[i + 2]
            i += 2
          case let p where p.count == 2 && (p.hasPrefix("3") || p.hasPrefix("9")) && p != "39":
            fg = p
          default: break
          }
          i += 1
        }
        continue
      }
      chars.unicodeScalars.append(s)
      row.append(s == " " ? " " : fg)
    }
    text.append(chars)
    cells.append(row)
  }
  let codes = Set(cells.joined().compactMap { $0 }).subtracting([" "]).sorted {
    $0.count != $1.count ? $0.count < $1.count : $0 < $1
  }
  let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
  var letter: [String: Character] = [:]
  for (n, c) in codes.enumerated() { letter[c] = n < letters.count ? letters[n] : "?" }
  var out = text
  out.append("")
  out.append("colours (one letter a cell; . no colour):")
  for c in codes { out.append("\(letter[c]!) \(c)") }
  for row in cells {
    out.append(String(row.map { $0 == " " ? " " : $0.map { letter[$0]! } ?? "." }))
  }
  return out.joined(separator: "\n") + "\n"
}

@Suite("termmap render: the default themes, with their colours")
struct ThemeSnapshotTests {
  func render(_ style: String, environment: [String: String] = [:]) throws -> String {
    let r = try termmap(
      [
        "render", "--color", "always", "--size", "160x48", "--center", "43.7384,7.4246",
        "--zoom", "14", "--style", style,
      ], environment: environment)
    #expect(r.status == 0)
    #expect(r.stderr.isEmpty)
    return r.stdout
  }

  // Monaco at zoom 14 is the city view of the bench's Helsinki: streets with their names,
  // buildings, the sea, parks and the railway.
  @Test(
    "dark and light at zoom 14: each kind of feature in its own colour, street names",
    arguments: ["dark", "light"])
  func theme(_ name: String) throws {
    let out = try render(name)
    let map = colourMap(out)
    for street in ["Boulevard Princesse Charlotte", "Boulevard de Suisse", "Avenue d'Ostende"] {
      #expect(map.contains(street), "\(name): \(street)")
    }
    // Buildings, minor streets, main roads and the sea (each theme's colours for them; the
    // MapTiles tests check every kind against the palettes).
    let colours = name == "dark" ? [60, 253, 220, 25] : [103, 236, 172, 75]
    for c in colours { #expect(out.contains("38;5;\(c)m"), "\(name): colour \(c)") }
    checkSnapshot(map, named: "monaco-zoom14-\(name)-colours")
  }

  @Test("--style mono: one grey; NO_COLOR: the mono style and no colour codes")
  func mono() throws {
    let out = try render("mono")
    // Every colour code is the one grey.
    let codes = out.split(separator: "\u{1B}").filter { $0.contains("38;5;") }
    #expect(!codes.isEmpty && codes.allSatisfy { $0.contains("38;5;244m") })
    let r = try termmap(
      [
        "render", "--size", "160x48", "--center", "43.7384,7.4246", "--zoom", "14",
      ], environment: ["NO_COLOR": "1"])
    #expect(!r.stdout.contains("\u{1B}"))
    // The sea in mono's texture (two dots a cell, ⢂), not the colour themes' one dot (⠂).
    #expect(r.stdout.contains("⢂⢂⢂⢂⢂⢂⢂⢂") && !r.stdout.contains("⠂⠂⠂⠂⠂⠂⠂⠂"))
    let dark = try render("dark")
    #expect(dark.contains("⠂⠂⠂⠂⠂⠂⠂⠂") || dark.contains("⠂\u{1B}"))
  }
}

@Suite("termmap render: --style, --lang and config.toml [style]")
struct ThemeOptionCLITests {
  static let shortbread = "Tests/MapTilesTests/Fixtures/monaco-shortbread.mbtiles"

  func monacoVille(_ extra: [String], environment: [String: String] = [:]) throws -> String {
    let r = try termmap(
      [
        "render", "--no-basemap", "--color", "never", "--size", "160x48", "--center",
        "43.7315,7.4206", "--zoom", "15", "--tiles", Self.shortbread,
      ] + extra, environment: environment)
    #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    return r.stdout
  }

  @Test("labels in the locale's language, or --lang's, where the tiles have the name")
  func language() throws {
    #expect(try monacoVille([]).contains("Monaco-Ville"))
    let english = try monacoVille([], environment: ["LANG": "en_GB.UTF-8"])
    #expect(english.contains("Monaco City") && !english.contains("Monaco-Ville"))
    #expect(
      try monacoVille(["--lang", "fr"], environment: ["LANG": "en_GB.UTF-8"]).contains(
        "Monaco-Ville"))
    #expect(
      try monacoVille(["--lang", "en"], environment: ["LC_ALL": "C"]).contains("Monaco City"))
  }

  @Test("bad --style and --lang values are one line, exit 2")
  func bad() throws {
    let style = try termmap(["render", "--style", "sepia"])
    #expect(style.status == 2)
    #expect(
      style.stderr
        == "termmap: --style: expected dark, light, mono, a style file or an http(s) URL, found \"sepia\"\n"
    )
    let lang = try termmap(["render", "--lang", "english"])
    #expect(lang.status == 2)
    #expect(
      lang.stderr
        == "termmap: --lang: expected a language code such as en, fi or zh-Hant, found \"english\"\n"
    )
  }

  @Test("config.toml [style]: the theme and language unless --style or --lang say otherwise")
  func config() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cli-style-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    let dir = home.appendingPathComponent("termmap")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    try "[style]\nname = \"light\"\nlang = \"en\"\n".write(
      to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    let env = ["XDG_CONFIG_HOME": home.path]
    let view = [
      "render", "--color", "always", "--size", "80x24", "--center", "43.7384,7.4246", "--zoom",
      "14",
    ]
    // Minor streets: 236 in the light theme, 253 in the dark one.
    let light = try termmap(view, environment: env)
    #expect(light.status == 0 && light.stdout.contains("38;5;236m"))
    let dark = try termmap(view + ["--style", "dark"], environment: env)
    #expect(dark.stdout.contains("38;5;253m") && !dark.stdout.contains("38;5;236m"))
    #expect(try monacoVille([], environment: env).contains("Monaco City"))
    #expect(try monacoVille(["--lang", "fr"], environment: env).contains("Monaco-Ville"))
    try "[style]\nname = \"sepia\"\n".write(
      to: dir.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
    let bad = try termmap(view, environment: env)
    #expect(bad.status == 2)
    #expect(
      bad.stderr.hasSuffix(
        "config.toml:2: style.name must be dark, light, mono, a style file or an http(s) URL\n"))
  }
}
