import Foundation
import FuzzSupport

/// Any bytes as a data file (shapes.geojson's format by its seeds).
exit(runDataFileFuzzer(CommandLine.argc, CommandLine.unsafeArgv, path: "shapes.geojson"))
