import Foundation
import FuzzSupport
import TermMap

/// Any bytes as an MBTiles file (SQLite database): opened, its metadata read and a tile asked
/// for, or a TileSourceError; never a crash or a hang.
exit(
  runFuzzer(CommandLine.argc, CommandLine.unsafeArgv) { data in
    _ = FileManager.default.createFile(atPath: scratchFile, contents: data)
    guard let source = try? MBTilesSource(path: scratchFile) else { return }
    _ = (source.attribution, source.bounds, source.vectorLayers, source.minZoom, source.maxZoom)
    _ = try? source.tile(TileID(z: source.minZoom, x: 0, y: 0))
  })
