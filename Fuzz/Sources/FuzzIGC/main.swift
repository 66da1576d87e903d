import Foundation
import FuzzSupport

/// Any bytes as a data file (flight.igc's format by its seeds).
exit(runDataFileFuzzer(CommandLine.argc, CommandLine.unsafeArgv, path: "flight.igc"))
