import Foundation
import FuzzSupport
import TermMap

/// Any bytes as a PMTiles archive: opened (header, root directory, metadata) and a few tiles
/// read through the directories, or a TileSourceError; never a crash or a hang.
exit(
  runFuzzer(CommandLine.argc, CommandLine.unsafeArgv) { data in
    _ = FileManager.default.createFile(atPath: scratchFile, contents: data)
    guard let source = try? PMTilesSource(path: scratchFile) else { return }
    _ = (source.attribution, source.bounds, source.vectorLayers, source.minZoom, source.maxZoom)
    for z in source.minZoom...min(source.maxZoom, source.minZoom + 2) {
      _ = try? source.tile(TileID(z: z, x: 0, y: 0))
    }
  })
