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
      FileManager.default.fileExists(atPath: found.appendingPathComponent("world.pmtiles").path))
  }

  @Test("TERMMAP_DATA, when set, is the one place looked in: a wrong setting is not hidden")
  func environmentFirst() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-data-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let env = ["TERMMAP_DATA": dir.path]
    #expect(DataDirectory.locate(executable: "/x", environment: env, currentDirectory: "/") == nil)
    #expect(
      DataDirectory.missingMessage(environment: env)
        == "the offline map is missing: no world.pmtiles in TERMMAP_DATA=\(dir.path)")
    try FileManager.default.copyItem(
      at: repository.appendingPathComponent("Data/world.pmtiles"),
      to: dir.appendingPathComponent("world.pmtiles"))
    #expect(
      DataDirectory.locate(executable: "/x", environment: env, currentDirectory: "/")
        .map(\.standardizedFileURL.path) == dir.standardizedFileURL.path)
  }

  @Test("an installed binary: share/termmap under its prefix, XDG_DATA_HOME, XDG_DATA_DIRS")
  func installed() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-install-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let fm = FileManager.default
    func place(_ folder: String) throws -> URL {
      let dir = root.appendingPathComponent(folder)
      try fm.createDirectory(at: dir, withIntermediateDirectories: true)
      try Data("stand-in".utf8).write(to: dir.appendingPathComponent("world.pmtiles"))
      return dir.standardizedFileURL
    }
    func found(_ env: [String: String], exe: String = "/nowhere/bin/termmap") -> String? {
      DataDirectory.locate(
        executable: exe, environment: env, currentDirectory: "/", packageDirectory: nil
      )?.standardizedFileURL.path
    }
    let home = root.appendingPathComponent("home").path
    #expect(
      found(["HOME": home, "XDG_DATA_DIRS": root.appendingPathComponent("none").path]) == nil)
    let dirs = try place("usr/share/termmap")
    let dirsEnv = [
      "HOME": home,
      "XDG_DATA_DIRS": "/nonexistent:" + root.appendingPathComponent("usr/share").path,
    ]
    #expect(found(dirsEnv) == dirs.path)
    let user = try place("home/.local/share/termmap")
    #expect(found(dirsEnv) == user.path)
    let xdg = try place("xdg/termmap")
    #expect(
      found(dirsEnv.merging(["XDG_DATA_HOME": root.appendingPathComponent("xdg").path]) { $1 })
        == xdg.path)
    let prefix = try place("prefix/share/termmap")
    try fm.createDirectory(
      at: root.appendingPathComponent("prefix/bin"), withIntermediateDirectories: true)
    #expect(
      found(dirsEnv, exe: root.appendingPathComponent("prefix/bin/termmap").path) == prefix.path)
  }
}
