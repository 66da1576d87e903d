import ArgumentParser
import Foundation
import MapGeometry

// termmap: a terminal map viewer. The command line is parsed by swift-argument-parser
// (Commands.swift); `view` is the default subcommand. A command line it refuses is one line
// on stderr and exit status 2; --help, --version and the completion scripts go to stdout with
// status 0.
let arguments = Array(CommandLine.arguments.dropFirst())
let status = MainActor.assumeIsolated { () -> Int32 in
  do {
    let command = try Termmap.parseAsRoot(arguments)
    return try Termmap.execute(command)
  } catch let e as UsageError {
    // Messages quote what was typed: without its control characters (SafeText).
    FileHandle.standardError.write(Data("termmap: \(SafeText.clean(e.message))\n".utf8))
    return 2
  } catch {
    if Termmap.exitCode(for: error) == .success {
      // --help, help, --version, --generate-completion-script, --experimental-dump-help.
      Output.write(Termmap.fullMessage(for: error) + "\n")
      return 0
    }
    let line = SafeText.clean(Usage.oneLine(Termmap.message(for: error), arguments: arguments))
    FileHandle.standardError.write(Data("termmap: \(line)\n".utf8))
    return 2
  }
}
exit(status)

extension Termmap {
  /// Runs a parsed subcommand; its status.
  @MainActor
  static func execute(_ command: any ParsableCommand) throws -> Int32 {
    switch command {
    case let c as View: return try ViewerCommand.run(c)
    case let c as Pick: return try ViewerCommand.pick(c)
    case let c as Render:
      var render = try RenderCommand(c)
      return try render.run()
    case let c as Info: return try InfoCommand(c).run()
    case let c as Bench:
      if let scenario = c.scenario {
        guard scenario == "serve" else { throw UsageError("bench: unknown argument \(scenario)") }
        return try ServeLoad(c).run()
      }
      return try BenchCommand(c).run()
    case let c as Get: return try GetCommand(c).run()
    case let c as RegionsCommand: return try GetCommand.regions(c.words)
    case let c as Serve: return try ServeCommand.run(c)
    case let c as StyleValidate: return StyleCommand.validate(c)
    case let c as StyleEval: return try StyleCommand.eval(c)
    case let c as StyleTest: return StyleCommand.test(c)
    case let c as GenerateManual:
      let dump = try Manual.dump()
      Output.write(c.markdown ? Manual.markdown(dump) : Manual.page(dump))
      return 0
    default:
      // ArgumentParser's own commands (help): their run() throws what the caller prints.
      var other = command
      try other.run()
      return 0
    }
  }
}

extension BenchCommand {
  /// `termmap bench`'s options (the measuring is BenchCommand's).
  init(_ c: Termmap.Bench) throws {
    self.init()
    json = c.json
    if let v = c.size { (columns, rows) = try ArgumentValues.size(v) }
    quick = c.quick
    only = c.only
    tiles = c.tiles
    style = c.style
    center = try c.position.coordinate()
    zoom = try c.position.zoomLevel()
  }
}

extension ServeLoad {
  /// `termmap bench serve`'s options.
  @MainActor
  init(_ c: Termmap.Bench) throws {
    self.init()
    if c.quick { (sessions, seconds, connections) = (10, 5, 100) }
    if let v = c.sessions { sessions = Int(try ServeCommand.number(v, "--sessions", 1...1000)) }
    if let v = c.seconds { seconds = try ServeCommand.number(v, "--seconds", 1...3600) }
    if let v = c.connections {
      connections = Int(try ServeCommand.number(v, "--connections", 0...100_000))
    }
    if let v = c.size { (columns, rows) = try ArgumentValues.size(v) }
    json = c.json
  }
}

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
