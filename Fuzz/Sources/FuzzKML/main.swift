import Foundation
import FuzzSupport

/// Any bytes as a data file (places.kml's format by its seeds).
exit(runDataFileFuzzer(CommandLine.argc, CommandLine.unsafeArgv, path: "places.kml"))
