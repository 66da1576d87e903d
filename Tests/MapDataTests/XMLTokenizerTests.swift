import Foundation
import Testing

@testable import MapData

@Suite struct XMLTokenizerTests {
  /// Reads bytes with a given chunk size through the GPX or KML reader.
  static func read(_ bytes: [UInt8], chunk: Int, name: String = "t.gpx") throws(DataFileError)
    -> MapContent
  {
    let source = ByteSource(bytes: bytes, path: name)
    let xml = try XMLTokenizer(
      source: source, namespaces: FormatDetection.namespaces, chunkSize: chunk)
    while true {
      switch try xml.next() {
      case .startElement:
        if xml.localNameIs("kml") {
          var r = KMLReader(xml: xml, path: name)
          return try r.read()
        }
        var r = GPXReader(xml: xml, path: name)
        return try r.read()
      default: continue
      }
    }
  }

  static func summary(_ c: MapContent) -> [String] {
    c.lines.map { l in
      "\(l.kind) \(l.coordinates.count) \(l.coordinates.first!) \(l.coordinates.last!) "
        + "\(l.elevations.filter { !$0.isNaN }.reduce(0, +)) \(l.times.filter { !$0.isNaN }.reduce(0, +))"
    } + c.annotations.map { "\($0.title ?? "-") \($0.subtitle ?? "-") \($0.detailLines)" }
      + c.warnings
  }

  @Test(arguments: [
    "korita-zbevnica.gpx", "cerknicko-jezero.gpx", "Mojstrovka.gpx", "route.gpx", "bohinj.kml",
  ])
  func tinyChunksReadTheSameAsWholeFiles(file: String) throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixture.sample(file))))
    let whole = Self.summary(try Self.read(bytes, chunk: 1 << 20, name: file))
    for chunk in [7, 64, 333] {
      #expect(Self.summary(try Self.read(bytes, chunk: chunk, name: file)) == whole)
    }
  }

  @Test func tinyChunksKeepCDATAEntitiesAndUTF8() throws {
    let bytes = [UInt8](
      try Data(contentsOf: URL(fileURLWithPath: Fixture.path("readers/gpx11-extensions.gpx"))))
    let whole = Self.summary(try Self.read(bytes, chunk: 1 << 20))
    for chunk in [5, 16, 17, 100] {
      #expect(Self.summary(try Self.read(bytes, chunk: chunk)) == whole)
    }
    let latin = [UInt8](
      try Data(contentsOf: URL(fileURLWithPath: Fixture.path("readers/latin1.gpx"))))
    #expect(try Self.read(latin, chunk: 9).annotations.first?.title == "Café » München")
  }

  @Test func errorsAreLocatedTheSameWithTinyChunks() throws {
    for (file, message) in MalformedFixtures.cases
    where file.hasSuffix(".gpx") || file.hasSuffix(".kml") {
      let url = MalformedFixtures.directory.appendingPathComponent(file)
      let bytes = [UInt8](try Data(contentsOf: url))
      guard let first = bytes.first, first == UInt8(ascii: "<") || first == UInt8(ascii: "\n")
      else {
        continue
      }
      for chunk in [6, 50] {
        do {
          _ = try Self.read(bytes, chunk: chunk, name: file)
          Issue.record("\(file) loaded with chunk \(chunk)")
        } catch {
          #expect(error.description == message, "chunk \(chunk)")
        }
      }
    }
  }

  @Test func lineEndingsCountForLocations() {
    // One bad point among good ones is a warning; its location counts CRLF and CR as one
    // line break each and columns in characters.
    func firstWarning(_ text: String, _ name: String) -> String? {
      (try? loadText(text, name: name))?.warnings.first
    }
    let crlf = "<gpx>\r\n<wpt lat=\"1\" lon=\"2\"/>\r\n<wpt lat=\"x\" lon=\"2\"/>\r\n</gpx>"
    #expect(
      firstWarning(crlf, "c.gpx")
        == "c.gpx:3:11: skipped a waypoint: expected a number for latitude, found \"x\"")
    let cr = "<gpx>\r<wpt lat=\"1\" lon=\"2\"/>\r\r<wpt lat=\"1\" lon=\"200\"/></gpx>"
    #expect(
      firstWarning(cr, "r.gpx")
        == "r.gpx:4:19: skipped a waypoint: longitude 200 is outside -180...180")
    let wide =
      "<gpx><wpt lat=\"1\" lon=\"2\"><name>ŽŠČ</name></wpt><wpt lat=\"é\" lon=\"2\"/></gpx>"
    #expect(
      firstWarning(wide, "w.gpx")
        == "w.gpx:1:59: skipped a waypoint: expected a number for latitude, found \"é\"")
  }

  @Test func wellFormednessChecks() {
    let cases: [(String, String)] = [
      ("<gpx><a></b></gpx>", "x.gpx:1:9: expected </a> to close <a> from line 1, found </b>"),
      (
        "<gpx>\n<wpt lat='1' lon='2'",
        "x.gpx:2:1: the file ends inside a tag that starts here (it may be truncated)"
      ),
      (
        "<gpx><![CDATA[never",
        "x.gpx:1:6: the file ends inside a CDATA section (it may be truncated)"
      ),
      ("<gpx>]]></gpx>", "x.gpx:1:6: \"]]>\" is not allowed in text (write \"]]&gt;\")"),
      ("<gpx><wpt lat='1'lon='2'/></gpx>", "x.gpx:1:18: expected white space between attributes"),
      ("<gpx><wpt lat/></gpx>", "x.gpx:1:14: expected \"=\" after the attribute name lat"),
      ("<gpx><name>&#0;</name></gpx>", "x.gpx:1:12: unknown or invalid entity \"&#0;\""),
      (
        "<gpx><name>&#x110000;</name></gpx>", "x.gpx:1:12: unknown or invalid entity \"&#x110000;\""
      ),
      ("<gpx><!DOCTYPE x></gpx>", "x.gpx:1:6: a DOCTYPE is only allowed before the root element"),
      (
        "<gpx><! x></gpx>",
        "x.gpx:1:6: unexpected \"<!\" (expected a comment, a CDATA section or a DOCTYPE)"
      ),
      (
        "<gpx/>\n<?xml version='1.0'?>",
        "x.gpx:2:1: the XML declaration <?xml …?> must be at the very start of the file"
      ),
      ("<gpx></gpx></gpx>", "x.gpx:1:12: unexpected end tag </gpx> (no element is open)"),
      ("hello <gpx/>", "x.gpx:1:1: expected GPX (XML starting with \"<\"), found \"hello <gpx/>\""),
      ("<gpx><w\u{1}/></gpx>", "x.gpx:1:8: control character U+0001 is not allowed in XML"),
    ]
    for (text, message) in cases {
      #expect(loadFailure(text, name: "x.gpx") == message, "\(text)")
    }
  }

  @Test func entitiesAndCharacterReferencesAreDecoded() throws {
    let c = try loadText(
      "<gpx><wpt lat='1' lon='2'><name>&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos; &#65;&#x42;</name></wpt></gpx>",
      name: "e.gpx")
    #expect(c.annotations.first?.title == "<a> & \"b\" 'c' AB")
    let attr = try loadText("<gpx><wpt lat=' 1&#46;5 ' lon='2'/></gpx>", name: "a.gpx")
    #expect(attr.annotations.first?.coordinate.latitude == 1.5)
  }
}
