import Foundation
import FuzzSupport
import TermMap

/// Any bytes as a TileJSON document: its fields, or one error.
exit(
  runFuzzer(CommandLine.argc, CommandLine.unsafeArgv) { data in
    guard let t = try? TileJSON(data: data, location: "https://example.invalid/tiles.json") else {
      return
    }
    _ = (t.template, t.mapBounds)
  })
