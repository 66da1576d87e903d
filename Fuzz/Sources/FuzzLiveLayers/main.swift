import Foundation
import FuzzSupport
import TermMap

/// Any bytes as a live layer's stream (`--layer`): fed whole, then cut in pieces of 1 to 17
/// bytes; the updates and the counts must agree (framing never depends on where reads end),
/// and the store takes every update.
exit(
  runFuzzer(CommandLine.argc, CommandLine.unsafeArgv) { data in
    let bytes = [UInt8](data)
    var whole = LiveDecoder(sourceName: "fuzz")
    var a: [LiveUpdate] = []
    whole.feed(bytes, into: &a)
    whole.finish(into: &a)
    var cut = LiveDecoder(sourceName: "fuzz")
    var b: [LiveUpdate] = []
    var i = 0
    var step = 1
    while i < bytes.count {
      let n = min(step, bytes.count - i)
      cut.feed(Array(bytes[i..<i + n]), into: &b)
      i += n
      step = step % 17 + 1
    }
    cut.finish(into: &b)
    precondition(a == b)
    precondition(whole.statistics == cut.statistics)
    var store = TargetStore(maximumTargets: 100, trailLength: 3)
    store.apply(a, now: 0)
    store.expire(now: 1e6)
    _ = store.takeChanges()
    for t in store.targets { _ = LiveTarget(t).geoJSONFeature }
  })
