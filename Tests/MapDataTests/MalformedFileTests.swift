import Foundation
import Testing

@testable import MapData

@Suite struct MalformedFileTests {
  @Test func thereAreEnoughCases() {
    #expect(MalformedFixtures.cases.count >= 30)
    let files =
      (try? FileManager.default.contentsOfDirectory(atPath: MalformedFixtures.directory.path)) ?? []
    #expect(Set(files) == Set(MalformedFixtures.cases.map(\.file)))
  }

  @Test(arguments: MalformedFixtures.cases.map(\.file))
  func eachMalformedFileGivesItsOneLineMessage(file: String) {
    let expected = MalformedFixtures.cases.first { $0.file == file }!.message
    let path = MalformedFixtures.directory.appendingPathComponent(file).path
    do {
      let content = try MapContentLoader.load(path: path)
      Issue.record("\(file) loaded: \(content.overlays.count) overlays")
    } catch {
      // Messages start with the path as given; the table was made with the bare file name.
      let shown = error.description.replacingOccurrences(
        of: MalformedFixtures.directory.path + "/", with: "")
      #expect(shown == expected)
      #expect(!shown.contains("\n"))
    }
  }

  @Test func filesThatCannotBeRead() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-dir-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    #expect(throws: DataFileError(path: dir.path, message: "is a directory, not a file")) {
      try MapContentLoader.load(path: dir.path)
    }
    let missing = dir.appendingPathComponent("missing.gpx").path
    #expect(throws: DataFileError(path: missing, message: "file not found")) {
      try MapContentLoader.load(path: missing)
    }
    if getuid() != 0 {
      let locked = dir.appendingPathComponent("locked.gpx").path
      _ = FileManager.default.createFile(atPath: locked, contents: Data("<gpx/>".utf8))
      chmod(locked, 0)
      #expect(throws: DataFileError(path: locked, message: "cannot read file: permission denied")) {
        try MapContentLoader.load(path: locked)
      }
    }
  }

  @Test func detectionUsesContentsNotNames() throws {
    // A GPX file called .txt, GeoJSON called .dat, KML without extension.
    #expect(try loadText("<gpx><wpt lat='1' lon='2'/></gpx>", name: "track.txt").format == .gpx)
    #expect(
      try loadText("{\"type\": \"Point\", \"coordinates\": [1, 2]}", name: "x.dat").format
        == .geojson)
    #expect(
      try loadText(
        "<kml><Placemark><Point><coordinates>1,2</coordinates></Point></Placemark></kml>", name: "k"
      ).format == .kml)
    #expect(try loadText("\u{FEFF}<?xml version=\"1.0\"?>\n<gpx/>", name: "bom.gpx").format == .gpx)
    #expect(try loadText("\u{FEFF} \n <gpx/>", name: "space.gpx").format == .gpx)
    #expect(try loadText("lat,lon\n1,2\n", name: "r.csv").format == .csv)
    #expect(try loadText("1,2\n3,4\n", name: "noext").format == .csv)
  }
}
