import Foundation
import FuzzSupport
import MapData

/// Any bytes, read as a data file named like one of this format: a result or a located
/// DataFileError, never a crash.
exit(
  runFuzzer(CommandLine.argc, CommandLine.unsafeArgv) { data in
    do {
      let content = try MapContentLoader.load(data: data, path: "shapes.geojson")
      _ = content.pointCount
    } catch {
      _ = "\(error)"
    }
  })
