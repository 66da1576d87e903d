import Foundation

// termmap: a terminal map viewer. Subcommands: render (one frame to stdout), info, bench;
// anything else opens the viewer.
let arguments = Array(CommandLine.arguments.dropFirst())
let status = MainActor.assumeIsolated { () -> Int32 in
  do {
    switch arguments.first {
    case "render": return try RenderCommand(arguments: Array(arguments.dropFirst())).run()
    case "bench": return try BenchCommand(arguments: Array(arguments.dropFirst())).run()
    case "info": return try InfoCommand(arguments: Array(arguments.dropFirst())).run()
    case "-h", "--help", "help": Output.write(Usage.text + "\n"); return 0
    case "--version": Output.write("termmap \(Usage.version)\n"); return 0
    default:
      // The viewer's own parser rejects unknown options (before the terminal is touched).
      return try ViewerCommand.run(arguments: arguments)
    }
  } catch let e as UsageError {
    FileHandle.standardError.write(Data("termmap: \(e.message)\n".utf8))
    return 2
  } catch {
    FileHandle.standardError.write(Data("termmap: \(error)\n".utf8))
    return 2
  }
}
exit(status)

/// Writes whole strings to standard output (unbuffered by stdio, so nothing is lost on exit).
enum Output {
  static func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeMutableBytes {
        Foundation.write(1, $0.baseAddress! + offset, $0.count - offset)
      }
      if n <= 0 { break }
      offset += n
    }
  }
}
