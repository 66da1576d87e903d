import Foundation
import FuzzSupport
import TermMap

/// Any bytes as the config file: sources, or one ConfigError line.
exit(
  runFuzzer(CommandLine.argc, CommandLine.unsafeArgv) { data in
    guard let text = String(data: data, encoding: .utf8) else { return }
    do {
      _ = try TileSourceCatalog.parse(text, path: "config.toml")
    } catch {
      precondition(!"\(error)".contains("\n"))
    }
  })
