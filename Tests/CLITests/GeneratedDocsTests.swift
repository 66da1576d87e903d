import Foundation
import Testing

/// The man page and the completion scripts are generated from the command definitions and
/// committed; these tests fail when the committed ones are not what the code generates.
/// `TERMMAP_RECORD_DOCS=1 swift test --filter GeneratedDocsTests` writes them again.
@Suite("generated docs: the man page and the completion scripts")
struct GeneratedDocsTests {
  static let record = ProcessInfo.processInfo.environment["TERMMAP_RECORD_DOCS"] == "1"

  /// Compares (or, when recording, writes) a committed file with what termmap prints.
  func expectCurrent(_ path: String, _ arguments: [String]) throws {
    let r = try termmap(arguments)
    #expect(r.status == 0 && r.stderr.isEmpty, "\(arguments): \(r.stderr)")
    let url = repositoryRoot.appendingPathComponent(path)
    if Self.record {
      try r.stdout.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    let committed = try String(contentsOf: url, encoding: .utf8)
    #expect(
      committed == r.stdout,
      "\(path) is not what `termmap \(arguments.joined(separator: " "))` prints: run TERMMAP_RECORD_DOCS=1 swift test --filter GeneratedDocsTests"
    )
  }

  @Test("docs/termmap.1 is what termmap generate-manual prints")
  func manualCurrent() throws {
    try expectCurrent("docs/termmap.1", ["generate-manual"])
  }

  @Test(
    "docs/completions holds what --generate-completion-script prints",
    arguments: [
      ("bash", "docs/completions/termmap.bash"), ("zsh", "docs/completions/_termmap"),
      ("fish", "docs/completions/termmap.fish"),
    ])
  func completionsCurrent(shell: String, path: String) throws {
    try expectCurrent(path, ["--generate-completion-script", shell])
  }

  @Test("the man page has every subcommand and option the command definitions have")
  func manualComplete() throws {
    let page = try String(
      contentsOf: repositoryRoot.appendingPathComponent("docs/termmap.1"), encoding: .utf8)
    let dump = try termmap(["--experimental-dump-help"])
    #expect(dump.status == 0)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
    let root = try #require(json["command"] as? [String: Any])
    let commands = (root["subcommands"] as? [[String: Any]] ?? []).filter {
      $0["shouldDisplay"] as? Bool ?? true
    }
    #expect(commands.count >= 4)
    for command in commands {
      let name = try #require(command["commandName"] as? String)
      #expect(page.contains(".It Cm \(name)"), "\(name) missing from docs/termmap.1")
      for argument in command["arguments"] as? [[String: Any]] ?? [] {
        guard argument["kind"] as? String != "positional" else { continue }
        for n in argument["names"] as? [[String: Any]] ?? [] where n["kind"] as? String == "long" {
          let option = try #require(n["name"] as? String)
          if option == "help" || option == "version" { continue }
          #expect(
            page.contains(".It Fl -\(option)"), "\(name) --\(option) missing from docs/termmap.1")
        }
      }
    }
    for section in ["SYNOPSIS", "COMMANDS", "KEYS", "ENVIRONMENT", "EXIT STATUS"] {
      #expect(page.contains(".Sh \(section)\n"))
    }
  }

  @Test(
    "groff reads the man page without a warning",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/groff")))
  func manualWellFormed() throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
    p.arguments = ["-mdoc", "-Tutf8", "-ww", "-z", "docs/termmap.1"]
    p.currentDirectoryURL = repositoryRoot
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    try p.run()
    let warnings = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(p.terminationStatus == 0)
    #expect(warnings.isEmpty, "\(warnings)")
  }

  @Test("bash completes subcommands, options and their values from the committed script")
  func bashCompletes() throws {
    let script = """
      source docs/completions/termmap.bash
      complete() {
        read -ra COMP_WORDS <<< "$1"
        [[ "$1" == *" " ]] && COMP_WORDS+=("")
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="$1"; COMP_POINT=${#1}; COMPREPLY=()
        _termmap termmap "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}"
        echo "$1=> ${COMPREPLY[*]}"
      }
      complete "termmap ren"
      complete "termmap render --co"
      complete "termmap render --color "
      complete "termmap view --charset "
      complete "termmap info --j"
      """
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/bash")
    p.arguments = ["--norc", "--noprofile", "-c", script]
    p.currentDirectoryURL = repositoryRoot
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(
      text.split(separator: "\n").map(String.init) == [
        "termmap ren=> render",
        "termmap render --co=> --color",
        "termmap render --color => auto always never",
        "termmap view --charset => braille block ascii",
        "termmap info --j=> --json",
      ], "\(text)")
  }
}

extension GeneratedDocsTests {
  @Test("docs/usage.md's synopses, options tables and exit status are what termmap generates")
  func usageCurrent() throws {
    let r = try termmap(["generate-manual", "--markdown"])
    #expect(r.status == 0, "\(r.stderr)")
    let url = repositoryRoot.appendingPathComponent("docs/usage.md")
    var usage = try String(contentsOf: url, encoding: .utf8)
    let marker = "<!-- generated by termmap generate-manual --markdown: "
    var regions = 0
    for generated in r.stdout.components(separatedBy: marker).dropFirst() {
      regions += 1
      let name = String(generated.prefix { $0 != " " })
      let end = "<!-- end of \(name) -->"
      let begin = try #require(
        usage.range(of: marker + name + " -->"), "docs/usage.md has no region \(name)")
      let stop = try #require(usage.range(of: end, range: begin.upperBound..<usage.endIndex))
      let want = try #require(generated.components(separatedBy: end).first)
        .dropFirst(name.count + " -->".count)
      if Self.record {
        usage.replaceSubrange(begin.upperBound..<stop.lowerBound, with: want)
      } else {
        #expect(
          usage[begin.upperBound..<stop.lowerBound] == want,
          "docs/usage.md's \(name) is not what termmap generates: run TERMMAP_RECORD_DOCS=1 swift test --filter GeneratedDocsTests"
        )
      }
    }
    #expect(regions == 12)
    if Self.record { try usage.write(to: url, atomically: true, encoding: .utf8) }
  }
}

extension GeneratedDocsTests {
  @Test(
    "fish completes subcommands, options and their values from the committed script",
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish")))
  func fishCompletes() throws {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/fish")
    p.arguments = [
      "--no-config", "-c",
      """
      source docs/completions/termmap.fish
      for line in 'termmap ren' 'termmap render --color ' 'termmap view --ch' 'termmap bench --q'
        echo "$line=>" (complete -C "$line" | string replace -r '\\t.*' '')
      end
      """,
    ]
    p.currentDirectoryURL = repositoryRoot
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    p.standardInput = FileHandle.nullDevice
    try p.run()
    let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    #expect(
      text.split(separator: "\n").map(String.init) == [
        "termmap ren=> render",
        "termmap render --color => auto always never",
        "termmap view --ch=> --charset",
        "termmap bench --q=> --quick",
      ], "\(text)")
  }
}
