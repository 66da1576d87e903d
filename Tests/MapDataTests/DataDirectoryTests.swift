import Foundation
import Testing

@testable import MapData

@Suite("Finding the offline data")
struct DataDirectoryTests {
  let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test("a program elsewhere (another package's build, another folder) finds the package's Data/")
  func fromAnywhere() throws {
    let found = try #require(
      DataDirectory.locate(
        executable: "/opt/elsewhere/.build/debug/their-tool", environment: [:],
        currentDirectory: "/"))
    #expect(
      found.standardizedFileURL == repository.appendingPathComponent("Data").standardizedFileURL)
    #expect(
      FileManager.default.fileExists(atPath: found.appendingPathComponent("world.mbtiles").path))
  }

  @Test("TERMMAP_DATA comes first when it holds world.mbtiles; otherwise it is passed over")
  func environmentFirst() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-data-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    #expect(
      DataDirectory.locate(
        executable: "/x", environment: ["TERMMAP_DATA": dir.path], currentDirectory: "/"
      )
      .map(\.standardizedFileURL.path) == DataDirectory.package.standardizedFileURL.path)
    try FileManager.default.copyItem(
      at: repository.appendingPathComponent("Data/world.mbtiles"),
      to: dir.appendingPathComponent("world.mbtiles"))
    #expect(
      DataDirectory.locate(
        executable: "/x", environment: ["TERMMAP_DATA": dir.path], currentDirectory: "/"
      )
      .map(\.standardizedFileURL.path) == dir.standardizedFileURL.path)
  }
}
