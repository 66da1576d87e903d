import Foundation
import FuzzSupport

/// Any bytes as a data file (track.fit's format by its seeds).
exit(runDataFileFuzzer(CommandLine.argc, CommandLine.unsafeArgv, path: "track.fit"))
