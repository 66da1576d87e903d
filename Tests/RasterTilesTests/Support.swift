import DotRaster
import Foundation
import RasterTiles
import Testing

/// Test files, found from this source file so no bundle resources are needed.
enum Fixture {
  static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let directory = testsDirectory.appendingPathComponent("Fixtures")
  static let snapshots = testsDirectory.appendingPathComponent("Snapshots")

  static func data(_ name: String) throws -> Data {
    try Data(contentsOf: directory.appendingPathComponent(name))
  }

  static func image(_ name: String) throws -> RasterImage {
    try RasterImage.decode(data(name))
  }

  /// The Mapnik-rendered map tiles (OpenStreetMap data, see Fixtures/README.md).
  static let mapTiles = [
    "monaco-z15-17059-11948.png", "monaco-z16-34119-23895.png", "monaco-z16-34119-23895.jpg",
    "monaco-z17-68238-47794@2x.png",
  ]
}

/// Compares text with a committed snapshot. With `TERMMAP_UPDATE_SNAPSHOTS=1` in the
/// environment, writes the snapshot instead (and the test fails, so an update is never
/// silent).
func expectSnapshot(
  _ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let url = Fixture.snapshots.appendingPathComponent(name)
  if ProcessInfo.processInfo.environment["TERMMAP_UPDATE_SNAPSHOTS"] == "1" {
    try Data(text.utf8).write(to: url)
    Issue.record("snapshot \(name) written", sourceLocation: sourceLocation)
    return
  }
  let expected = try String(contentsOf: url, encoding: .utf8)
  #expect(text == expected, "snapshot \(name) differs", sourceLocation: sourceLocation)
}

extension DotCanvas {
  /// Every inked dot as (x, y).
  var inkedDots: Set<DotPosition> {
    var out = Set<DotPosition>()
    for y in 0..<height {
      for x in 0..<width where !self[x, y].isEmpty { out.insert(DotPosition(x, y)) }
    }
    return out
  }
}

struct DotPosition: Hashable, CustomStringConvertible, Comparable {
  let x: Int
  let y: Int
  init(_ x: Int, _ y: Int) {
    self.x = x
    self.y = y
  }
  var description: String { "(\(x),\(y))" }
  static func < (a: DotPosition, b: DotPosition) -> Bool { (a.y, a.x) < (b.y, b.x) }
}
