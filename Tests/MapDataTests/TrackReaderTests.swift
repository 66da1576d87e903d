import Foundation
import MapGeometry
import Testing

@testable import MapData

/// Numbers printed by `Tests/MapDataTests/Fixtures/reference/tracks.py` (fitdecode 0.11.0,
/// tcxreader 0.4.11, aerofiles 1.5.6 and GeographicLib 2.1), which reads the same files with
/// other parsers and measures them with GeographicLib.
private let reference: [(file: String, format: DataFormat, points: Int, length: Double)] = [
  ("ride-2020-06-01.fit", .fit, 96, 901.6577494477314),
  ("activity-4801048867.fit", .fit, 5159, 36343.28532289747),
  ("activity-5039744860.tcx", .tcx, 100, 901.6577494477315),
  ("example.igc", .igc, 10, 341112.6442140016),
  ("xctrack-2023-04-28-start.igc", .igc, 60, 783.8294537062332),
]

private func track(_ name: String) -> String { Fixture.path("tracks/" + name) }

private func loadBytes(_ bytes: [UInt8], name: String) throws(DataFileError) -> MapContent {
  try MapContentLoader.load(data: Data(bytes), path: name)
}

private func failureOf(_ bytes: [UInt8], name: String) -> String? {
  do {
    _ = try loadBytes(bytes, name: name)
    return nil
  } catch {
    return error.description
  }
}

@Suite struct TrackReaderTests {
  @Test(arguments: reference.map(\.file))
  func samplesMatchAnIndependentImplementation(file: String) throws {
    let expected = reference.first { $0.file == file }!
    let content = try loadContent(track(file))
    let stats = FileStatistics(content)
    #expect(stats.format == expected.format)
    #expect(stats.points == expected.points)
    #expect(abs(stats.length - expected.length) <= expected.length * 0.001)
    // The readers and the reference agree much more closely than the 0.1 % promised.
    #expect(abs(stats.length - expected.length) < 0.01)
    #expect(stats.tracks == 1)
  }

  // MARK: FIT

  @Test func fitRecordsKeepTheirChannels() throws {
    let content = try loadContent(track("ride-2020-06-01.fit"))
    let line = try #require(content.lines.first)
    #expect(line.coordinates.count == 96)
    // The first record as fitdecode reads it: 622266348, 53580528 semicircles, enhanced
    // altitude -20.2 m, enhanced speed 6.438 m/s, 154 bpm, 90 rpm, 2020-06-01T14:52:40Z.
    #expect(abs(line.coordinates[0].latitude - 622_266_348 * 180 / 2_147_483_648.0) < 1e-12)
    #expect(abs(line.coordinates[0].longitude - 53_580_528 * 180 / 2_147_483_648.0) < 1e-12)
    #expect(abs(line.elevations[0] - -20.2) < 1e-9)
    #expect(abs(line.speeds[0] - 6.438) < 1e-9)
    #expect(line.heartRates[0] == 154)
    #expect(line.cadences[0] == 90)
    #expect(line.times[0] == 1_591_023_160)
    #expect(abs(line.speeds[49] - 7.819) < 1e-9)
    #expect(line.heartRates[49] == 152)
    #expect(line.title == "cycling · 2020-06-01T14:52:40Z")
  }

  @Test func aFITFileWithATwelveByteHeaderReadsTheSame() throws {
    let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: track("ride-2020-06-01.fit"))))
    let short = withTwelveByteHeader(original)
    let a = try loadBytes(original, name: "a.fit")
    let b = try loadBytes(short, name: "b.fit")
    #expect(b.lines[0].coordinates == a.lines[0].coordinates)
    #expect(b.lines[0].times == a.lines[0].times)
  }

  @Test func anIndoorFITFileHasNoTrackAndSaysSo() throws {
    let content = try loadContent(track("indoor-6471559601.fit"))
    #expect(content.lines.isEmpty)
    #expect(
      content.warnings == [
        "\(track("indoor-6471559601.fit")): the file has no record messages with a position"
      ])
  }

  @Test func compressedTimestampsDeveloperFieldsAndBigEndian() throws {
    var w = FITWriter()
    // file_id, little-endian, with a developer field of 3 bytes that must be skipped.
    w.definition(
      local: 0, global: 20,
      fields: [
        .init(number: 253, size: 4, baseType: 0x86), .init(number: 0, size: 4, baseType: 0x85),
        .init(number: 1, size: 4, baseType: 0x85), .init(number: 3, size: 1, baseType: 0x02),
      ], developer: [(number: 0, size: 3, index: 0)])
    let t0: Int64 = 1_000_000_000  // FIT time
    w.message(
      local: 0,
      FITWriter.le32(t0) + FITWriter.le32(FITWriter.semicircles(46.5))
        + FITWriter.le32(FITWriter.semicircles(13.5)) + [120] + [9, 9, 9])
    // Local type 1: records without a timestamp field, sent with compressed headers.
    w.definition(
      local: 1, global: 20, bigEndian: true,
      fields: [
        .init(number: 0, size: 4, baseType: 0x85), .init(number: 1, size: 4, baseType: 0x85),
        .init(number: 2, size: 2, baseType: 0x84),
      ])
    let t0low = UInt8(t0 & 0x1F)  // 0
    w.compressed(
      local: 1, offset: t0low + 5,
      FITWriter.be32(FITWriter.semicircles(46.501)) + FITWriter.be32(FITWriter.semicircles(13.5))
        + [UInt8((2600 >> 8) & 0xFF), UInt8(2600 & 0xFF)])
    // An offset below the last one rolls over to the next 32 seconds.
    w.compressed(
      local: 1, offset: 2,
      FITWriter.be32(FITWriter.semicircles(46.502)) + FITWriter.be32(FITWriter.semicircles(13.5))
        + [0xFF, 0xFF])
    let content = try loadBytes(w.file(), name: "synthetic.fit")
    let line = try #require(content.lines.first)
    #expect(line.coordinates.count == 3)
    #expect(abs(line.coordinates[1].latitude - 46.501) < 1e-7)
    let epoch = 631_065_600.0
    #expect(line.times == [Double(t0) + epoch, Double(t0 + 5) + epoch, Double(t0 + 34) + epoch])
    #expect(line.elevations[0].isNaN)
    #expect(line.elevations[1] == 20)  // 2600 / 5 - 500
    #expect(line.elevations[2].isNaN)  // 0xFFFF is invalid
    #expect(line.heartRates[0] == 120)
    #expect(line.heartRates[1].isNaN)
  }

  @Test func aFITCourseIsNamedByItsCourseMessageSanitized() throws {
    var w = FITWriter()
    // course (31): name, field 5, a 16-byte string with an escape sequence in it.
    w.definition(local: 2, global: 31, fields: [.init(number: 5, size: 16, baseType: 0x07)])
    var name = Array("Loop \u{1B}[2J".utf8)
    name += [UInt8](repeating: 0, count: 16 - name.count)
    w.message(local: 2, name)
    w.definition(
      local: 0, global: 20,
      fields: [
        .init(number: 0, size: 4, baseType: 0x85), .init(number: 1, size: 4, baseType: 0x85),
      ])
    w.message(
      local: 0,
      FITWriter.le32(FITWriter.semicircles(46)) + FITWriter.le32(FITWriter.semicircles(14)))
    w.message(
      local: 0,
      FITWriter.le32(FITWriter.semicircles(46.001)) + FITWriter.le32(FITWriter.semicircles(14)))
    let content = try loadBytes(w.file(), name: "course.fit")
    #expect(content.lines[0].title == "Loop [2J")
    #expect(content.lines[0].times.isEmpty)
    #expect(content.lines[0].coordinates.count == 2)
  }

  @Test func damagedFITFilesGiveOneLineLocatedErrors() throws {
    let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: track("ride-2020-06-01.fit"))))
    var flipped = original
    flipped[4000] ^= 0x01
    let crc = try #require(failureOf(flipped, name: "f.fit"))
    #expect(crc.hasPrefix("f.fit: byte 7769: the file's CRC is 0x"))
    #expect(crc.hasSuffix("(the file is damaged)"))

    let cut = Array(original[0..<5000])
    #expect(failureOf(cut, name: "c.fit")?.hasPrefix("c.fit: byte ") == true)
    #expect(failureOf(cut, name: "c.fit")?.contains("the file may be truncated") == true)

    var header = original
    header[3] ^= 0xFF
    #expect(
      failureOf(header, name: "h.fit")?.hasPrefix("h.fit: byte 12: the header's CRC is 0x") == true)

    var w = FITWriter()
    w.message(local: 3, [1, 2, 3])
    #expect(
      failureOf(w.file(), name: "d.fit")
        == "d.fit: byte 14: a data message of local type 3 has no definition before it")

    #expect(
      failureOf(Array("not a fit file at all, just text".utf8), name: "t.fit")
        == "t.fit: byte 0: expected FIT (a 12 or 14 byte header with \".FIT\" at byte 8)")
  }

  @Test func fitIsFoundByContentWhateverTheName() throws {
    let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: track("ride-2020-06-01.fit"))))
    #expect(try loadBytes(original, name: "download.bin").format == .fit)
  }

  // MARK: IGC

  @Test func igcHeadersFixesAndExtensions() throws {
    let content = try loadContent(track("xctrack-2023-04-28-start.igc"))
    let line = try #require(content.lines.first)
    // B0538234315910N01151568EA000000051256 with LAD 5 and LOD 6: 43°15.9105', 11°51.5686'.
    #expect(abs(line.coordinates[0].latitude - (43 + 15.9105 / 60)) < 1e-12)
    #expect(abs(line.coordinates[0].longitude - (11 + 51.5686 / 60)) < 1e-12)
    #expect(line.elevations[0] == 512)
    // HFDTEDATE:280423,04 and 05:38:23 UTC.
    #expect(line.times[0] == 1_682_660_303)
    #expect(line.title == "2023-04-28 · Octagon 190 + Roadster 3")
    let example = try loadContent(track("example.igc"))
    #expect(example.lines[0].title == "2001-07-16 · Bloggs Bill D · Schleicher ASH-25")
  }

  @Test func igcTimesRollOverAtMidnightAndValidityChoosesTheAltitude() throws {
    let text = """
      AXXX001
      HFDTE311299
      B2359584600000N01300000EA0100001200
      B2359594600100N01300000EV0100001200
      B0000014600200N01300000EA0000000000

      """
    let content = try loadText(text, name: "night.igc")
    let line = try #require(content.lines.first)
    let day = 946_598_400.0  // 1999-12-31T00:00:00Z
    #expect(line.times == [day + 86_398, day + 86_399, day + 86_401])
    // A valid fix has its GNSS altitude; a V fix falls back to pressure altitude; zeros are none.
    #expect(line.elevations[0] == 1200)
    #expect(line.elevations[1] == 1000)
    #expect(line.elevations[2].isNaN)
  }

  @Test func badIGCRecordsAreSkippedWithTheirLineAndColumn() throws {
    let text = """
      AXXX001
      HFDTE010124
      B1200004600000N01300000EA0100001200
      B1200014660000N01300000EA0100001200
      B1200024600000X01300000EA0100001200
      B120003
      B1200044600000N01300000EA0100001200

      """
    let content = try loadText(text, name: "bad.igc")
    #expect(content.lines[0].coordinates.count == 2)
    #expect(
      content.warnings == [
        "bad.igc:4:8: skipped a fix: expected the latitude as DDMMmmm, found \"4660000\"",
        "bad.igc:5:15: skipped a fix: expected N or S after the latitude, found \"X\"",
        "bad.igc:6:1: skipped a fix: a B record has at least 35 characters, this one 7",
        "bad.igc: skipped 3 fixes that could not be read",
      ])
    // When no fix can be read, the first problem is the error.
    #expect(
      loadFailure("AXXX001\nHFDTE010124\nB12000046\n", name: "all-bad.igc")
        == "all-bad.igc:3:1: a B record has at least 35 characters, this one 9")
  }

  @Test func tcxIsFoundByItsRootWhateverTheName() throws {
    let text =
      "<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\">"
      + "<Courses><Course><Name>c</Name><Track><Trackpoint><Position><LatitudeDegrees>46"
      + "</LatitudeDegrees><LongitudeDegrees>14</LongitudeDegrees></Position></Trackpoint>"
      + "</Track></Course></Courses></TrainingCenterDatabase>"
    let content = try loadText(text, name: "export.xml")
    #expect(content.format == .tcx)
    #expect(content.tracks == 1 && content.pointCount == 1)
    #expect(
      loadFailure("lat,lon\n46,14\n", name: "ride.tcx")
        == "ride.tcx:1:1: expected TCX (XML starting with \"<\"), found \"lat,lon\"")
  }

  @Test func igcWithAByteOrderMarkAndBlankLines() throws {
    let text = "\u{FEFF}\r\nAXXX001\r\n\r\nHFDTE010124\r\nB1200004600000N01300000EA0100001200\r\n"
    let content = try loadText(text, name: "bom.igc")
    #expect(content.format == .igc)
    #expect(content.lines[0].coordinates.count == 1)
    #expect(content.warnings.isEmpty)
  }

  @Test func igcDetectionByContent() throws {
    #expect(
      try loadText("AXXX001\nHFDTE010124\nB1200004600000N01300000EA0100001200\n", name: "log.txt")
        .format == .igc)
    #expect(
      loadFailure("lat,lon\n1,2\n", name: "flight.igc")
        == "flight.igc:1:1: expected IGC (an A record, then H records), found \"lat,lon\"")
  }

  // MARK: TCX

  @Test func tcxActivityLapsAndChannels() throws {
    let content = try loadContent(track("activity-5039744860.tcx"))
    #expect(content.tracks == 1)
    #expect(content.segments == 5)
    let line = content.lines[0]
    #expect(line.title == "Biking · 2020-06-01T14:52:40.000Z")
    #expect(line.heartRates.count == line.coordinates.count)
    #expect(line.speeds.count == line.coordinates.count)
    #expect(line.cadences.count == line.coordinates.count)
    #expect(line.heartRates[0] == 154)
    #expect(line.cadences[0] == 90)
    #expect(abs(line.speeds[0] - 6.438) < 1e-6)
  }

  @Test func tcxCoursesWithCoursePointsAndBadValues() throws {
    let text = """
      <?xml version="1.0"?>
      <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
        <Courses><Course><Name>Loop \u{202E}A</Name>
          <Track>
            <Trackpoint><Time>2024-05-01T10:00:00Z</Time><Position><LatitudeDegrees>46.0</LatitudeDegrees><LongitudeDegrees>14.0</LongitudeDegrees></Position><AltitudeMeters>300</AltitudeMeters></Trackpoint>
            <Trackpoint><Time>2024-05-01T10:01:00Z</Time><Position><LatitudeDegrees>95</LatitudeDegrees><LongitudeDegrees>14.0</LongitudeDegrees></Position></Trackpoint>
            <Trackpoint><Time>2024-05-01T10:02:00Z</Time></Trackpoint>
            <Trackpoint><Time>2024-05-01T10:03:00Z</Time><Position><LatitudeDegrees>46.01</LatitudeDegrees><LongitudeDegrees>14.0</LongitudeDegrees></Position><AltitudeMeters>high</AltitudeMeters></Trackpoint>
          </Track>
          <CoursePoint><Name>Water</Name><Time>2024-05-01T10:03:00Z</Time><Position><LatitudeDegrees>46.01</LatitudeDegrees><LongitudeDegrees>14.0</LongitudeDegrees></Position><PointType>Water</PointType></CoursePoint>
        </Course></Courses>
      </TrainingCenterDatabase>
      """
    let content = try loadText(text, name: "c.tcx")
    #expect(content.format == .tcx)
    #expect(content.lines[0].coordinates.count == 2)
    #expect(content.lines[0].title == "Loop A")
    #expect(content.waypoints == 1)
    #expect(content.annotations[0].title == "Water")
    #expect(
      content.warnings == [
        "c.tcx:6:79: skipped a track point: latitude 95 is outside -90...90",
        "c.tcx:8:170: ignored the altitude \"high\" (expected a number from -1000000 to 1000000)",
        "c.tcx: skipped 1 track point that could not be read",
      ])
  }

  @Test func gpxTrackPointExtensionGivesHeartRateCadenceAndSpeed() throws {
    let text = """
      <gpx xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
      <trk><trkseg>
      <trkpt lat="46" lon="14"><extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>131</gpxtpx:hr><gpxtpx:cad>80</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>
      <trkpt lat="46.001" lon="14"/>
      </trkseg></trk></gpx>
      """
    let line = try loadText(text, name: "hr.gpx").lines[0]
    #expect(line.heartRates[0] == 131)
    #expect(line.heartRates[1].isNaN)
    #expect(line.cadences[0] == 80)
    #expect(line.speeds.isEmpty)
  }
}
