import Foundation
import MapGeometry
import Synchronization
import TermMapKit
import Testing

@testable import MapData

/// Hostile files from the security review: each loads or fails with one located line, without
/// overflowing a buffer or the stack, and in time linear in its size. Inputs are generated here
/// or kept small under `Fixtures/hostile/`.
@Suite struct HardeningTests {
  static func hostile(_ name: String) -> String { Fixture.path("hostile/" + name) }

  /// `body` as a GPX file with one waypoint named by `nameBytes`, declared in `encoding`.
  static func gpx(encoding: String, nameBytes: [UInt8]) -> Data {
    var bytes = Array(
      """
      <?xml version="1.0" encoding="\(encoding)"?>
      <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
      <wpt lat="46.3" lon="14.1"><name>
      """.utf8)
    bytes += nameBytes
    bytes += Array("</name></wpt>\n</gpx>\n".utf8)
    return Data(bytes)
  }

  // MARK: 1. Single-byte encodings grow when converted to UTF-8

  @Test(arguments: [100, 8_192, 20_000, 1_200_000])
  func windows1252BytesThatBecomeThreeUTF8Bytes(count: Int) throws {
    let data = Self.gpx(encoding: "windows-1252", nameBytes: Array(repeating: 0x80, count: count))
    let c = try MapContentLoader.load(data: data, path: "euro.gpx")
    let title = try #require(c.annotations.first?.title)
    #expect(title.unicodeScalars.count == count)
    #expect(title.unicodeScalars.allSatisfy { $0 == "€" })
  }

  @Test func everyWindows1252ByteConverts() throws {
    // 0x80...0xFF repeated past one chunk: each becomes 2 or 3 UTF-8 bytes; the undefined
    // C1 positions (0x81, 0x8D, 0x8F, 0x90, 0x9D) are removed by the sanitiser.
    let block = (0x80...0xFF).map { UInt8($0) }
    let blocks = 4_000
    let data = Self.gpx(
      encoding: "windows-1252",
      nameBytes: Array([[UInt8]](repeating: block, count: blocks).joined()))
    let c = try MapContentLoader.load(data: data, path: "all.gpx")
    let title = try #require(c.annotations.first?.title)
    #expect(title.unicodeScalars.count == (128 - 5) * blocks)
    #expect(title.hasPrefix("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"))
  }

  @Test(arguments: ["ISO-8859-1", "latin1"])
  func latin1ConvertsPastOneChunk(encoding: String) throws {
    let count = 1_200_000
    let data = Self.gpx(encoding: encoding, nameBytes: Array(repeating: 0xE9, count: count))
    let c = try MapContentLoader.load(data: data, path: "e.gpx")
    let title = try #require(c.annotations.first?.title)
    #expect(title.unicodeScalars.count == count && title.unicodeScalars.allSatisfy { $0 == "é" })
  }

  @Test func windows1252WithATinyChunkAndAFile() throws {
    // Through a real file (the path the CLI takes), in many refills.
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "termmap-euro-\(UUID().uuidString).gpx")
    defer { try? FileManager.default.removeItem(at: url) }
    try Self.gpx(encoding: "cp1252", nameBytes: Array(repeating: 0x80, count: 20_000)).write(
      to: url)
    let c = try MapContentLoader.load(path: url.path)
    #expect(c.annotations.first?.title?.unicodeScalars.count == 20_000)
  }

  // MARK: 2. Depth and cycles

  @Test func styleMapCyclesResolveToNoStyle() throws {
    let c = try loadContent(Self.hostile("stylemap-cycle.kml"))
    #expect(c.annotations.map(\.title) == ["self", "pair"])
    #expect(c.annotations.allSatisfy { c.style(for: $0) == nil })
  }

  static func kml(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <kml xmlns="http://www.opengis.net/kml/2.2"><Document>
    \(body)
    </Document></kml>
    """
  }

  static let goodPlacemark =
    "<Placemark><name>ok</name><Point><coordinates>14,46</coordinates></Point></Placemark>"

  @Test(arguments: [33, 200, 4_000])
  func deepMultiGeometrySkipsThePlacemark(depth: Int) throws {
    let open = String(repeating: "<MultiGeometry>", count: depth)
    let close = String(repeating: "</MultiGeometry>", count: depth)
    let text = Self.kml(
      "<Placemark><name>deep</name>\(open)<Point><coordinates>14,46</coordinates></Point>"
        + "\(close)</Placemark>\n" + Self.goodPlacemark)
    if depth > XMLTokenizer.maxDepth - 4 {
      let message = try #require(loadFailure(text, name: "deep.kml"))
      #expect(message.hasPrefix("deep.kml:3:") && !message.contains("\n"))
      #expect(message.contains("elements nest deeper than 256 levels"))
    } else {
      let c = try loadText(text, name: "deep.kml")
      #expect(c.annotations.map(\.title) == ["ok"])
      #expect(c.warnings.first?.hasPrefix("deep.kml:3:") == true)
      #expect(
        c.warnings.first?.contains("skipped a placemark: MultiGeometry nests deeper than 32 levels")
          == true)
    }
  }

  @Test func multiGeometryWithinTheLimitLoads() throws {
    let depth = KMLReader.maxMultiGeometryDepth
    let text = Self.kml(
      "<Placemark><name>nested</name>" + String(repeating: "<MultiGeometry>", count: depth)
        + "<Point><coordinates>14,46</coordinates></Point>"
        + String(repeating: "</MultiGeometry>", count: depth) + "</Placemark>")
    let c = try loadText(text, name: "ok.kml")
    #expect(c.annotations.map(\.title) == ["nested"] && c.warnings.isEmpty)
  }

  @Test(arguments: [250, 10_000])
  func deepFolders(depth: Int) throws {
    let text = Self.kml(
      String(repeating: "<Folder>", count: depth) + Self.goodPlacemark
        + String(repeating: "</Folder>", count: depth))
    if depth < XMLTokenizer.maxDepth - 4 {
      #expect(try loadText(text, name: "f.kml").annotations.count == 1)
    } else {
      let message = try #require(loadFailure(text, name: "f.kml"))
      #expect(message.hasPrefix("f.kml:3:") && !message.contains("\n"))
      #expect(message.contains("elements nest deeper than 256 levels (<Folder> here)"))
    }
  }

  @Test func deepGPXExtensions() throws {
    let depth = 100_000
    let text = """
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="1" lon="2">
      <extensions>\(String(repeating: "<a>", count: depth))\(String(repeating: "</a>", count: depth))</extensions>
      </wpt></gpx>
      """
    let message = try #require(loadFailure(text, name: "x.gpx"))
    #expect(message.hasPrefix("x.gpx:2:") && message.contains("nest deeper than 256 levels"))
  }

  @Test(arguments: [100, 100_000])
  func deepGeometryCollections(depth: Int) throws {
    let open = String(repeating: "{\"type\":\"GeometryCollection\",\"geometries\":[", count: depth)
    let text =
      open + "{\"type\":\"Point\",\"coordinates\":[14,46]}" + String(repeating: "]}", count: depth)
    if depth < 200 {
      #expect(try loadText(text, name: "g.geojson").annotations.count == 1)
    } else {
      let message = try #require(loadFailure(text, name: "g.geojson"))
      #expect(message.hasPrefix("g.geojson:1:") && !message.contains("\n"))
      #expect(message.hasSuffix("the JSON nests deeper than 512 levels"))
    }
  }

  @Test(arguments: ["[", "{\"a\":"])
  func deepJSONValuesInProperties(opener: String) throws {
    let text =
      "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},"
      + "\"properties\":{\"deep\":" + String(repeating: opener, count: 200_000) + "}}"
    let message = try #require(loadFailure(text, name: "p.geojson"))
    #expect(message.hasPrefix("p.geojson:1:") && message.hasSuffix("nests deeper than 512 levels"))
  }

  @Test func deepCoordinates() throws {
    let text =
      "{\"type\":\"LineString\",\"coordinates\":" + String(repeating: "[", count: 300_000)
    let message = try #require(loadFailure(text, name: "c.geojson"))
    #expect(message.hasSuffix("nests deeper than 512 levels"))
  }

  /// The deepest nesting each reader accepts, loaded on a thread with `stackSize` bytes of
  /// stack: the depth limits keep the recursion inside 6 MiB even in a debug build (JSON at
  /// 510 levels needs 2–4 MiB there, far less in release), below the 8 MiB that threads,
  /// dispatch workers included, get by default on Linux (the viewer loads on one).
  @Test(arguments: [6 << 20])
  func deepestAcceptedNestingFitsASmallStack(stackSize: Int) throws {
    let limit = JSONParser.maxDepth
    let arrays =
      "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},"
      + "\"properties\":{\"deep\":" + String(repeating: "[", count: limit - 3)
      + String(repeating: "]", count: limit - 3) + "}}"
    let collections =
      String(repeating: "{\"type\":\"GeometryCollection\",\"geometries\":[", count: limit / 2 - 1)
      + "{\"type\":\"Point\",\"coordinates\":[14,46]}"
      + String(repeating: "]}", count: limit / 2 - 1)
    let folders = XMLTokenizer.maxDepth - 40
    let multi = KMLReader.maxMultiGeometryDepth
    let kml = Self.kml(
      String(repeating: "<Folder>", count: folders) + "<Placemark><name>deep</name>"
        + String(repeating: "<MultiGeometry>", count: multi)
        + "<Point><coordinates>14,46</coordinates></Point>"
        + String(repeating: "</MultiGeometry>", count: multi) + "</Placemark>"
        + String(repeating: "</Folder>", count: folders))
    let inputs = [("a.geojson", arrays), ("c.geojson", collections), ("k.kml", kml)]
    let results = Mutex<[String]>([])
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      for (name, text) in inputs {
        let outcome: String
        do {
          outcome =
            "\(try MapContentLoader.load(data: Data(text.utf8), path: name).annotations.count)"
        } catch {
          outcome = "\(error)"
        }
        results.withLock { $0.append(outcome) }
      }
      done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    #expect(done.wait(timeout: .now() + 60) == .success)  // a failure time-out only
    #expect(results.withLock { $0 } == inputs.map { _ in "1" })
  }

  // MARK: 3. Linear time

  @Test(arguments: [2_000, 200_000])
  func unclosedAngleBracketsInADescription(count: Int) throws {
    let text = Self.kml(
      "<Placemark><name>p</name><description><![CDATA[<b>bold</b> "
        + String(repeating: "<", count: count) + " end]]></description>"
        + "<Point><coordinates>14,46</coordinates></Point></Placemark>")
    let c = try loadText(text, name: "d.kml")
    #expect(
      c.annotations.first?.subtitle == "bold " + String(repeating: "<", count: count) + " end")
  }

  @Test func htmlTextKeepsLaterTagsWorking() {
    #expect(HTMLText.plain("a<b>c</b>d") == "a c d")
    #expect(HTMLText.plain("1 < 2 <br>3") == "1 3")
    #expect(HTMLText.plain("x <<< y") == "x <<< y")
  }

  static func attributes(_ count: Int) -> String {
    (0..<count).map { " a\($0)=\"\($0)\"" }.joined()
  }

  @Test(arguments: [20, 2_000, 100_000])
  func manyAttributes(count: Int) throws {
    let text = """
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
      <wpt lat="1" lon="2"\(Self.attributes(count))><name>w</name></wpt></gpx>
      """
    #expect(try loadText(text, name: "a.gpx").annotations.map(\.title) == ["w"])
  }

  @Test(arguments: [5, 20, 100_000])
  func aRepeatedAttributeAmongMany(count: Int) throws {
    let text = """
      <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
      <wpt lat="1" lon="2"\(Self.attributes(count)) a3="again"><name>w</name></wpt></gpx>
      """
    let message = try #require(loadFailure(text, name: "a.gpx"))
    let column = "<wpt lat=\"1\" lon=\"2\"\(Self.attributes(count)) ".count + 1
    #expect(message == "a.gpx:2:\(column): the attribute a3 appears twice")
  }

  @Test(arguments: [10, 2_000, 100_000])
  func manyProperties(count: Int) throws {
    let properties = (0..<count).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
    let text =
      "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[14,46]},"
      + "\"properties\":{\(properties),\"k3\":\"again\"}}"
    let c = try loadText(text, name: "p.geojson")
    let lines = try #require(c.annotations.first?.detailLines)
    #expect(lines.count == count + 1)  // the properties, then the coordinate
    #expect(lines[3] == "k3: again")  // a repeated key keeps its place, takes the last value
    #expect(lines[count - 1] == "k\(count - 1): \(count - 1)")
  }

  // MARK: 4. Statistics stay finite

  @Test func overflowingElevationsLeaveAscentUnknown() throws {
    let c = try loadContent(Self.hostile("elevation-overflow.gpx"))
    let s = FileStatistics(c)
    #expect(s.elevationRange == -1e308...1e308)
    #expect(s.ascent == nil && s.descent == nil)
    #expect(s.length.isFinite && s.length > 0)
  }

  // MARK: Found by fuzzing

  /// FuzzKML: a UTF-8 lead byte cut by a read and dropped with the text before it left the
  /// validator's mark before the buffer (AddressSanitizer: a read one byte before it).
  @Test func utf8SequenceCutByAReadIsCheckedWhole() throws {
    let message = try #require(failureOfFile(Self.hostile("kml-cut-utf8-at-end.kml")))
    #expect(
      message.hasSuffix(
        "kml-cut-utf8-at-end.kml:8:1: invalid UTF-8 (byte 0xC2); the file must be UTF-8 text"))
  }

  // MARK: 9. Wide encodings are named correctly

  @Test func utf32IsReportedAsUTF32() throws {
    let le = try #require(failureOfFile(Self.hostile("utf32le.gpx")))
    #expect(le.hasSuffix("utf32le.gpx: byte 0: the file is UTF-32 text; save it as UTF-8"))
    let be = try #require(failureOfFile(Self.hostile("utf32be-no-bom.kml")))
    #expect(be.hasSuffix("utf32be-no-bom.kml: byte 0: the file is UTF-32 text; save it as UTF-8"))
    let utf16 = Data("<gpx></gpx>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    #expect(
      (try? MapContentLoader.load(data: utf16, path: "u.gpx")) == nil
        && failure16(utf16) == "u.gpx: byte 0: the file is UTF-16 text; save it as UTF-8")
    #expect(FormatDetection.wideEncoding([0xFF, 0xFE, 0x3C, 0x00]) == "UTF-16")
    #expect(FormatDetection.wideEncoding([0x00, 0x00, 0x00, 0x7B]) == "UTF-32")
    #expect(FormatDetection.wideEncoding(Array("lat,lon".utf8)) == nil)
  }

  private func failureOfFile(_ path: String) -> String? {
    do {
      _ = try MapContentLoader.load(path: path)
      return nil
    } catch {
      return error.description
    }
  }

  private func failure16(_ data: Data) -> String? {
    do {
      _ = try MapContentLoader.load(data: data, path: "u.gpx")
      return nil
    } catch {
      return error.description
    }
  }
}
