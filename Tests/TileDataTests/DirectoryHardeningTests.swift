import Foundation
import MapGeometry
import Synchronization
import Testing

@testable import TileData

#if canImport(Glibc)
  import Glibc
#endif

/// Tile directories whose files are not what they seem: each read fails at once with one
/// line, before reading anything big.
@Suite struct DirectoryHardeningTests {
  let zero = TileID(z: 0, x: 0, y: 0)

  /// A directory with one real tile at 6/33/23 and `0/0/` ready for a hostile `0.pbf`.
  func makeDirectory() throws -> TemporaryDirectory {
    let dir = try TemporaryDirectory()
    let fm = FileManager.default
    try fm.createDirectory(at: dir.file("6/33"), withIntermediateDirectories: true)
    try Repo.storedTile("world-6-33-23").write(to: dir.file("6/33/23.pbf"))
    try fm.createDirectory(at: dir.file("0/0"), withIntermediateDirectories: true)
    return dir
  }

  /// The error reading `id` gives (run on another thread, so a read that blocks fails the
  /// test after a bounded wait instead of hanging it).
  func readError(_ source: DirectoryTileSource, _ id: TileID) throws -> String {
    let result = LockedResult()
    Thread.detachNewThread {
      do {
        let data = try source.tile(id)
        result.set("read \(data?.count ?? -1) bytes")
      } catch {
        result.set("\(error)")
      }
    }
    let deadline = Date().addingTimeInterval(60)  // a failure time-out only
    while result.get() == nil && Date() < deadline { usleep(2_000) }
    return try #require(result.get(), "the read blocked")
  }

  @Test func symlinkToDevZeroIsRefused() throws {
    let dir = try makeDirectory()
    defer { dir.cleanUp() }
    try FileManager.default.createSymbolicLink(
      atPath: dir.file("0/0/0.pbf").path, withDestinationPath: "/dev/zero")
    let source = try DirectoryTileSource(root: dir.path, fileExtension: "pbf")
    let message = try readError(source, zero)
    #expect(message.hasSuffix("0/0/0.pbf: not a regular file (a character device); it is not read"))
    #expect(try source.tile(TileID(z: 6, x: 33, y: 23)) != nil)
  }

  @Test func sparseHugeFileIsRefusedBeforeReading() throws {
    let dir = try makeDirectory()
    defer { dir.cleanUp() }
    let path = dir.file("0/0/0.pbf").path
    #expect(FileManager.default.createFile(atPath: path, contents: nil))
    #expect(truncate(path, 3 << 30) == 0)  // 3 GiB, sparse: no disk used
    let source = try DirectoryTileSource(root: dir.path)
    let message = try readError(source, zero)
    #expect(message.hasSuffix("the file is 3221225472 bytes, over the limit of 16777216 bytes"))
  }

  @Test func fifoDoesNotBlock() throws {
    let dir = try makeDirectory()
    defer { dir.cleanUp() }
    #expect(mkfifo(dir.file("0/0/0.pbf").path, 0o600) == 0)
    let source = try DirectoryTileSource(root: dir.path, fileExtension: "pbf")
    #expect(try readError(source, zero).hasSuffix("not a regular file (a FIFO); it is not read"))
  }

  @Test func aDirectoryWhereATileShouldBe() throws {
    let dir = try makeDirectory()
    defer { dir.cleanUp() }
    try FileManager.default.createDirectory(
      at: dir.file("0/0/0.pbf"), withIntermediateDirectories: true)
    let source = try DirectoryTileSource(root: dir.path, fileExtension: "pbf")
    #expect(
      try readError(source, zero).hasSuffix("not a regular file (a directory); it is not read"))
  }

  @Test func theLimitIsInclusive() throws {
    let dir = try makeDirectory()
    defer { dir.cleanUp() }
    try Data(repeating: 7, count: 1000).write(to: dir.file("0/0/0.pbf"))
    let exact = try DirectoryTileSource(root: dir.path, maxFileBytes: 1000)
    #expect(try exact.tile(zero)?.count == 1000)
    let smaller = try DirectoryTileSource(root: dir.path, maxFileBytes: 999)
    #expect(try readError(smaller, zero).hasSuffix("over the limit of 999 bytes"))
    #expect(try smaller.tile(TileID(z: 0, x: 0, y: 1)) == nil)  // out of the grid
    #expect(try smaller.tile(TileID(z: 1, x: 0, y: 0)) == nil)  // no such file
  }

  @Test func hostileMetadataJSON() throws {
    let dir = try makeDirectory()
    defer { dir.cleanUp() }
    try FileManager.default.createSymbolicLink(
      atPath: dir.file("metadata.json").path, withDestinationPath: "/dev/zero")
    #expect {
      _ = try DirectoryTileSource(root: dir.path)
    } throws: {
      "\($0)".hasSuffix("metadata.json: not a regular file (a character device); it is not read")
    }
  }

  @Test func metadataTextIsSanitised() throws {
    let dir = try makeDirectory()
    defer { dir.cleanUp() }
    try Data(#"{"name": "n\u001b]0;fmt\u0007", "attribution": "\u009b2J(c)"}"#.utf8).write(
      to: dir.file("metadata.json"))
    let source = try DirectoryTileSource(root: dir.path)
    #expect(source.name == "n]0;fmt" && source.attribution == "2J(c)")
  }
}

/// A string handed from another thread.
final class LockedResult: Sendable {
  private let value = Mutex<String?>(nil)
  func set(_ v: String) { value.withLock { $0 = v } }
  func get() -> String? { value.withLock { $0 } }
}
