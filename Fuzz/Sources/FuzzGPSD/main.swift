import Foundation
import FuzzSupport
import TermMap

/// Any bytes as gpsd's JSON lines: each line parsed alone, and the whole fed to the decoder;
/// malformed lines are counted, never fatal.
exit(
  runFuzzer(CommandLine.argc, CommandLine.unsafeArgv) { data in
    let bytes = [UInt8](data)
    for line in bytes.split(separator: 10) { _ = try? GPSDReport.parse(line) }
    var d = GPSDDecoder()
    let events = d.feed(bytes + [10])
    precondition(events.count <= bytes.count)
  })
