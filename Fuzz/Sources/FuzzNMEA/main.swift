import Foundation
import FuzzSupport
import TermMap

/// Any bytes as an NMEA 0183 stream: fed whole and byte by byte (the decoder must agree with
/// itself), every line also parsed alone; malformed input is counted, never fatal.
exit(
  runFuzzer(CommandLine.argc, CommandLine.unsafeArgv) { data in
    let bytes = [UInt8](data)
    var whole = NMEADecoder(sourceName: "fuzz.nmea")
    let a = whole.feed(bytes) + whole.finish()
    var split = NMEADecoder(sourceName: "fuzz.nmea")
    var b: [LocationEvent] = []
    for byte in bytes { b += split.feed([byte]) }
    b += split.finish()
    precondition(a == b, "the decoder depends on how its input is cut")
    precondition(whole.statistics == split.statistics)
    for line in bytes.split(separator: 10) { _ = try? NMEASentence.parse(line) }
  })
