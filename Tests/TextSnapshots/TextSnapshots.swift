import Foundation
import Testing

/// Text stored in `directory/NAME.txt` and compared exactly: frames as text (or ANSI lines).
/// Run with TERMMAP_RECORD_SNAPSHOTS=1 to write them afresh (the test then fails, saying so);
/// look at every recorded frame before committing it.
public func checkTextSnapshot(
  _ text: String, in directory: URL, named name: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  let url = directory.appendingPathComponent(name + ".txt")
  if ProcessInfo.processInfo.environment["TERMMAP_RECORD_SNAPSHOTS"] == "1" {
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
      Issue.record(
        "Recorded snapshot \(url.lastPathComponent) (TERMMAP_RECORD_SNAPSHOTS=1); check it and run again without the variable",
        sourceLocation: sourceLocation)
    } catch {
      Issue.record("Could not record \(url.path): \(error)", sourceLocation: sourceLocation)
    }
    return
  }
  guard let stored = try? String(contentsOf: url, encoding: .utf8) else {
    Issue.record(
      "No snapshot at \(url.path); run with TERMMAP_RECORD_SNAPSHOTS=1 to record it",
      sourceLocation: sourceLocation)
    return
  }
  if stored != text {
    let a = stored.split(separator: "\n", omittingEmptySubsequences: false)
    let b = text.split(separator: "\n", omittingEmptySubsequences: false)
    let row = Array(zip(a, b)).firstIndex { $0.0 != $0.1 } ?? min(a.count, b.count)
    Issue.record(
      "Snapshot \(name) differs first at row \(row) (\(a.count) stored rows, \(b.count) now); got:\n\(text)",
      sourceLocation: sourceLocation)
  }
}
