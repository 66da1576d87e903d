import Foundation
import Testing

/// The command line as swift-argument-parser reads it: subcommands, `view` by default, help and
/// version on stdout with status 0, and every refused command line one line on stderr, status 2.
@Suite("termmap's command line")
struct CommandLineTests {
  @Test("--help, -h and help print the subcommands and usage on stdout, status 0")
  func rootHelp() throws {
    for arguments in [["--help"], ["-h"], ["help"]] {
      let r = try termmap(arguments)
      #expect(r.status == 0, "\(arguments): \(r.stderr)")
      #expect(r.stderr.isEmpty)
      #expect(r.stdout.contains("USAGE: termmap [view] [<options>] [<FILE> ...]"), "\(r.stdout)")
      for line in [
        "view (default)", "render ", "info ", "bench ", "termmap info [--json] <FILE> ...",
      ] {
        #expect(r.stdout.contains(line), "\(arguments): \(line) missing:\n\(r.stdout)")
      }
    }
  }

  @Test("render --help and help render list every render option")
  func renderHelp() throws {
    for arguments in [["render", "--help"], ["help", "render"]] {
      let r = try termmap(arguments)
      #expect(r.status == 0 && r.stderr.isEmpty)
      for option in [
        "--center <LAT,LON>", "--zoom <Z>", "--bbox <W,S,E,N>", "--size <COLSxROWS>",
        "--color <auto|always|never>", "--charset <braille|block|ascii>",
        "--style <STYLE>", "--lang <CODE>",
        "--tiles <SOURCE>", "--raster <dots|blocks>", "--no-basemap", "--status",
      ] {
        #expect(r.stdout.contains(option), "\(option) missing:\n\(r.stdout)")
      }
      #expect(!r.stdout.contains("--keep-routes"))
    }
  }

  @Test("the viewer's help has its own options, not render's")
  func viewHelp() throws {
    let r = try termmap(["view", "--help"])
    #expect(r.status == 0)
    #expect(r.stdout.contains("--keep-routes") && r.stdout.contains("--settle <MS>"))
    #expect(!r.stdout.contains("--size") && !r.stdout.contains("--color"))
  }

  @Test("--version prints the version on stdout, status 0")
  func version() throws {
    let r = try termmap(["--version"])
    #expect(r.status == 0)
    #expect(r.stdout == "termmap 0.1.0\n")
    #expect(r.stderr.isEmpty)
  }

  @Test(
    "refused command lines: one line on stderr in termmap's words, status 2, nothing on stdout",
    arguments: [
      (["render", "--frobnicate"], "termmap: unknown option --frobnicate\n"),
      (["--frobnicate"], "termmap: unknown option --frobnicate\n"),
      (["view", "-x"], "termmap: unknown option -x\n"),
      (["render", "--zoom"], "termmap: --zoom needs a value\n"),
      (["info", "--fast", "x.gpx"], "termmap: info: unknown option --fast\n"),
      (["bench", "extra"], "termmap: bench: unknown argument extra\n"),
      (["--size", "80x24"], "termmap: unknown option --size (did you mean --style?)\n"),
      (
        ["render", "--settle", "100"], "termmap: unknown option --settle (did you mean --style?)\n"
      ),
      (
        ["render", "--raster", "pixels"],
        "termmap: --raster: expected dots or blocks, found \"pixels\"\n"
      ),
      (
        ["render", "--charset", "emoji"],
        "termmap: --charset: expected braille, block or ascii, found \"emoji\"\n"
      ),
      (
        ["render", "--style", "sepia"],
        "termmap: --style: expected dark, light, mono, a style file or an http(s) URL, found \"sepia\"\n"
      ),
      (["view", "--settle", "9000"], "termmap: --settle: expected 0...5000 milliseconds\n"),
      (
        ["bench", "--tiles", "x.mbtiles"],
        "termmap: bench: --tiles needs --center LAT,LON and --zoom Z\n"
      ),
    ])
  func refused(arguments: [String], message: String) throws {
    let r = try termmap(arguments)
    #expect(r.status == 2)
    #expect(r.stdout.isEmpty)
    #expect(r.stderr == message)
  }

  @Test("negative numbers are values: --zoom -2, --center -33.9,151.2, --bbox -10,…")
  func negativeValues() throws {
    let r = try termmap([
      "render", "--no-basemap", "--color", "never", "--size", "40x8", "--status", "--zoom", "-2",
      "--center", "-33.9,151.2",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.split(separator: "\n").last?.hasPrefix("-33.90000, 151.20000 · z-2.0") == true)
    let b = try termmap([
      "render", "--no-basemap", "--color", "never", "--size", "40x8", "--bbox", "-10,-10,10,10",
    ])
    #expect(b.status == 0, "\(b.stderr)")
    #expect(b.stdout.split(separator: "\n").count == 8)
  }

  @Test("termmap FILE… is the viewer (view is the default subcommand); `--` ends the options")
  func defaultSubcommand() throws {
    // With no terminal the viewer refuses to start, after reading its arguments.
    let bare = try termmap(["--zoom", "3", "Data/samples/route.gpx"])
    #expect(bare.status == 2)
    #expect(
      bare.stderr == "termmap: the viewer needs a terminal; use `termmap render` to print a frame\n"
    )
    let named = try termmap(["view", "--keep-routes", "Data/samples/route.gpx"])
    #expect(named.stderr == bare.stderr)
    let dashed = try termmap(["render", "--no-basemap", "--size", "20x4", "--", "-no-such.gpx"])
    #expect(dashed.status == 2)
    #expect(dashed.stderr.hasPrefix("-no-such.gpx: "), "\(dashed.stderr)")
  }

  @Test("what was typed is quoted without its control characters")
  func controlsInArguments() throws {
    for arguments in [
      ["render", "--\u{1B}]0;title\u{07}"], ["render", "--color", "\u{1B}[31mred"],
      ["info", "--\u{1B}[2J"], ["bench", "\u{9B}31m"],
    ] {
      let r = try termmap(arguments)
      #expect(r.status == 2)
      #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
      #expect(
        !r.stderr.unicodeScalars.contains {
          $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value)
        },
        "\(arguments): \(r.stderr.debugDescription)")
    }
  }
}

extension CommandLineTests {
  /// Every concrete termmap command line in a code block of README.md and docs/*.md (not the
  /// synopses, which have brackets): its words after `termmap`.
  static func documentedCommandLines() throws -> [(file: String, arguments: [String])] {
    let docs = repositoryRoot.appendingPathComponent("docs")
    let files =
      ["README.md"]
      + (try FileManager.default.contentsOfDirectory(atPath: docs.path))
      .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    var found: [(String, [String])] = []
    for file in files {
      let text = try String(
        contentsOf: repositoryRoot.appendingPathComponent(file), encoding: .utf8)
      var fenced = false
      for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("```") {
          fenced.toggle()
          continue
        }
        guard fenced || line.hasPrefix("    ") else { continue }
        var command = line.trimmingCharacters(in: .whitespaces)
        if let comment = command.range(of: " #") {
          command = String(command[..<comment.lowerBound])
        }
        var words = command.split(separator: " ").map(String.init)
        if words.starts(with: ["swift", "run"]) { words.removeFirst(2) }
        guard words.first == "termmap" || words.first?.hasSuffix("/termmap") == true,
          !command.contains(where: { "[]<>|&;$".contains($0) }), !command.contains("...")
        else { continue }
        found.append((file, Array(words.dropFirst())))
      }
    }
    return found
  }

  @Test("every termmap command line in README.md and docs/ is accepted")
  func documentedLinesParse() throws {
    let lines = try Self.documentedCommandLines()
    // README's viewer and --tiles lines at least.
    #expect(lines.filter { $0.file == "README.md" }.count >= 4, "\(lines)")
    // `termmap get` without --from cuts from the config file's [get] from: here the tests'
    // planet in miniature, never the internet; regions go to a folder of the test's.
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-doclines-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: home) }
    try FileManager.default.createDirectory(
      at: home.appendingPathComponent("config/termmap"), withIntermediateDirectories: true)
    try "[get]\nfrom = \"\(GetCityCLITests.planet.path)\"\n".write(
      to: home.appendingPathComponent("config/termmap/config.toml"), atomically: true,
      encoding: .utf8)
    let env = [
      "XDG_CONFIG_HOME": home.appendingPathComponent("config").path,
      "XDG_DATA_HOME": home.appendingPathComponent("data").path,
    ]
    for (file, documented) in lines {
      // A server line is checked, not served (it would listen until stopped).
      let arguments = documented.first == "serve" ? documented + ["--check"] : documented
      let r = try termmap(arguments, environment: env)
      // Read and checked: it ran, or it stopped after the command line was accepted (no
      // terminal for the viewer, a file of the reader's own that is not here).
      let accepted =
        r.status == 0 || r.stderr.contains("the viewer needs a terminal")
        || r.stderr.contains(": no such file")
      #expect(accepted, "\(file): termmap \(arguments.joined(separator: " ")): \(r.stderr)")
    }
  }
}
