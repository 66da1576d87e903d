import Foundation
import FuzzSupport

/// Any bytes as a data file (route.csv's format by its seeds).
exit(runDataFileFuzzer(CommandLine.argc, CommandLine.unsafeArgv, path: "route.csv"))
