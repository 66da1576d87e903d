import Foundation
import MapGeometry
import Testing

@testable import TileData

@Suite struct DirectorySourceTests {
  /// Writes the expected tiles as root/z/x/y.ext (or TMS rows) and returns the directory.
  func makeDirectory(ext: String = "pbf", tms: Bool = false, metadata: String? = nil) throws
    -> TemporaryDirectory
  {
    let dir = try TemporaryDirectory()
    for (name, id) in [
      ("world-0-0-0", TileID(z: 0, x: 0, y: 0)), ("world-6-33-23", TileID(z: 6, x: 33, y: 23)),
    ] {
      let row = tms ? id.tmsY : id.y
      let folder = dir.url.appendingPathComponent("\(id.z)/\(id.x)", isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Repo.storedTile(name).write(to: folder.appendingPathComponent("\(row).\(ext)"))
    }
    if let metadata { try Data(metadata.utf8).write(to: dir.file("metadata.json")) }
    return dir
  }

  @Test func readsXYZDirectories() throws {
    let dir = try makeDirectory()
    defer { dir.cleanUp() }
    let source = try DirectoryTileSource(root: dir.path)
    #expect(source.fileExtension == "pbf")
    #expect(source.format == .pbf)
    #expect(source.minZoom == 0 && source.maxZoom == 6)
    #expect(source.scheme == .xyz)
    #expect(source.bounds == nil)
    #expect(try source.tile(TileID(z: 6, x: 33, y: 23)) == (try Repo.storedTile("world-6-33-23")))
    #expect(try source.tile(TileID(z: 0, x: 0, y: 0)) == (try Repo.storedTile("world-0-0-0")))
    #expect(try source.tile(TileID(z: 6, x: 33, y: 24)) == nil)
    #expect(try source.tile(TileID(z: 6, x: 64, y: 0)) == nil)
  }

  @Test func readsTippecanoeMetadataAndTMSRows() throws {
    // tippecanoe's metadata.json: every value a string, vector_layers inside "json".
    let meta = """
      {"name": "dir world", "format": "pbf", "minzoom": "0", "maxzoom": "6", "scheme": "tms",
       "bounds": "-180.000000,-85.051129,180.000000,85.051129", "attribution": "Natural Earth",
       "json": "{\\"vector_layers\\":[{\\"id\\":\\"water\\"},{\\"id\\":\\"place\\"}]}"}
      """
    let dir = try makeDirectory(ext: "mvt", tms: true, metadata: meta)
    defer { dir.cleanUp() }
    let source = try DirectoryTileSource(root: dir.url)
    #expect(source.name == "dir world")
    #expect(source.fileExtension == "mvt")
    #expect(source.scheme == .tms)
    #expect(source.vectorLayers == ["water", "place"])
    #expect(source.attribution == "Natural Earth")
    #expect(source.bounds != nil)
    #expect(try source.tile(TileID(z: 6, x: 33, y: 23)) == (try Repo.storedTile("world-6-33-23")))
  }

  @Test func readsTileJSONMetadata() throws {
    let meta = """
      {"tilejson": "3.0.0", "minzoom": 2, "maxzoom": 5, "bounds": [7.4, 43.7, 7.5, 43.8],
       "vector_layers": [{"id": "roads"}], "format": "pbf"}
      """
    let dir = try makeDirectory(metadata: meta)
    defer { dir.cleanUp() }
    let source = try DirectoryTileSource(root: dir.path)
    #expect(source.minZoom == 2 && source.maxZoom == 5)
    #expect(source.vectorLayers == ["roads"])
    let b = try #require(source.bounds)
    #expect(b.contains(MapPoint(Coordinate(latitude: 43.75, longitude: 7.45))))
  }

  @Test func errors() throws {
    #expect(throws: TileSourceError.notFound(path: "/nonexistent/tiles")) {
      try DirectoryTileSource(root: "/nonexistent/tiles")
    }
    let dir = try makeDirectory(metadata: "{ not json")
    defer { dir.cleanUp() }
    #expect(
      errorText { _ = try DirectoryTileSource(root: dir.path) }?.contains(
        "unreadable metadata.json") == true)
    let raster = try makeDirectory(ext: "png")
    defer { raster.cleanUp() }
    let source = try DirectoryTileSource(root: raster.path)
    #expect(source.format == .png)
    #expect(throws: TileSourceError.self) { try VectorTileProvider(source: source) }
  }
}
