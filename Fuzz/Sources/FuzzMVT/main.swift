import Foundation
import FuzzSupport
import TermMap

/// Any bytes as a stored vector tile (gzip or raw): a decoded tile walked completely, or a
/// VectorTileError.
exit(
  runFuzzer(CommandLine.argc, CommandLine.unsafeArgv) { data in
    guard let tile = try? VectorTileDecoder.decodeCompressed(data) else { return }
    for layer in tile.layers {
      for feature in layer {
        _ = feature.allPoints.count
        for key in ["name", "class"] { _ = feature.value(for: key)?.stringValue }
      }
    }
  })
