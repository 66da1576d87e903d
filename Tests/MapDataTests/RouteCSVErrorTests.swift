import Foundation
import Testing

@testable import MapData

struct ErrorCase: Sendable, CustomTestStringConvertible {
  var file: String
  /// The expected description after the path.
  var suffix: String
  var testDescription: String { file }
}

@Suite struct RouteCSVErrorTests {
  static let cases: [ErrorCase] = [
    ErrorCase(
      file: "latitude-text.csv", suffix: ":3:1: expected a number for latitude, found \"abc\""),
    ErrorCase(file: "too-few-fields.csv", suffix: ":2: expected 2 fields (lat, lon), found 1"),
    ErrorCase(
      file: "too-few-fields-header.csv",
      suffix: ":3: expected 3 fields (name, lat, lon), found 2"),
    ErrorCase(
      file: "latitude-out-of-range.csv", suffix: ":2:1: latitude 91.5 is outside -90...90"),
    ErrorCase(
      file: "longitude-out-of-range.csv",
      suffix: ":2:4: longitude -180.5 is outside -180...180"),
    ErrorCase(
      file: "latitude-nan.csv", suffix: ":2:1: latitude must be a finite number, found \"nan\""),
    ErrorCase(
      file: "longitude-infinite.csv",
      suffix: ":2:6: longitude must be a finite number, found \"-Infinity\""),
    ErrorCase(
      file: "longitude-overflow.csv",
      suffix: ":1:6: longitude must be a finite number, found \"1e999\""),
    ErrorCase(
      file: "unterminated-quote.csv",
      suffix: ":2:17: unterminated quoted field: the quote opened here is never closed"),
    ErrorCase(
      file: "text-after-quote.csv",
      suffix:
        ":2:26: unexpected text after a closing quote (a quote inside a quoted field is written \"\")"
    ),
    ErrorCase(
      file: "header-no-latitude.csv",
      suffix:
        ":1: the header has no latitude column (expected \"lat\" or \"latitude\"; found \"x\", \"lon\")"
    ),
    ErrorCase(
      file: "header-no-longitude.csv",
      suffix: ":1: the header has no longitude column (expected \"lon\", \"lng\", \"long\" or "
        + "\"longitude\"; found \"Latitude\", \"Height\")"),
    ErrorCase(
      file: "header-duplicate.csv",
      suffix: ":1:9: the header names a latitude column twice (fields 1 and 3)"),
    ErrorCase(
      file: "invalid-utf8.csv",
      suffix: ": byte 26: invalid UTF-8 (byte 0xE9 on line 2); the file must be UTF-8 text"),
    ErrorCase(
      file: "bad-time.csv",
      suffix: ":3:11: invalid time \"2024-13-01T10:00:00Z\" (expected ISO 8601 such as "
        + "2024-05-01T10:00:00Z)"),
    ErrorCase(
      file: "bad-elevation.csv", suffix: ":2:11: expected a number for elevation, found \"high\""),
    ErrorCase(file: "empty.csv", suffix: ": file is empty"),
    ErrorCase(file: "only-comments.csv", suffix: ": no coordinates found"),
    ErrorCase(
      file: "header-only.csv",
      suffix: ": no coordinates found (the file has a header but no data rows)"),
    ErrorCase(
      file: "escape-in-field.csv",
      suffix: ":2:1: expected a number for latitude, found \"[2J[31mboom\""),
    ErrorCase(
      file: "empty-latitude.csv",
      suffix: ":2:1: expected a number for latitude, found an empty field"),
    ErrorCase(
      file: "after-multiline-quote.csv",
      suffix: ":4:6: expected a number for longitude, found \"x\""),
    ErrorCase(
      file: "crlf-bad-longitude.csv",
      suffix: ":4:6: expected a number for longitude, found \"abc\""),
    ErrorCase(
      file: "doubled-quote-number.csv",
      suffix: ":2:1: expected a number for latitude, found \"38\"7\""),
  ]

  @Test(arguments: cases)
  func malformedFixture(_ testCase: ErrorCase) {
    let path = Fixture.path("invalid/" + testCase.file)
    let description = failure { () throws(DataFileError) in try RouteCSV.read(path: path) }
    #expect(description == path + testCase.suffix)
    // Every message is one line and free of control characters.
    if let description {
      #expect(!description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    }
  }

  @Test func everyInvalidFixtureIsCovered() throws {
    let names = try FileManager.default.contentsOfDirectory(
      atPath: Fixture.directory.appendingPathComponent("invalid").path)
    #expect(Set(names) == Set(Self.cases.map(\.file)))
    #expect(names.count >= 15)
  }

  @Test func errorFieldsAreStructured() {
    let path = Fixture.path("invalid/latitude-text.csv")
    do {
      _ = try RouteCSV.read(path: path)
      Issue.record("expected an error")
    } catch {
      #expect(error.path == path)
      #expect(error.line == 3)
      #expect(error.column == 1)
      #expect(error.byteOffset == nil)
      #expect(error.message == "expected a number for latitude, found \"abc\"")
    }
  }

  @Test func invalidUTF8HasAByteOffset() {
    do {
      _ = try RouteCSV.read(path: Fixture.path("invalid/invalid-utf8.csv"))
      Issue.record("expected an error")
    } catch {
      #expect(error.line == nil)
      #expect(error.byteOffset == 26)
    }
  }

  @Test func utf16IsNamed() {
    let data = Data([0xFF, 0xFE, 0x31, 0x00, 0x2C, 0x00, 0x32, 0x00])
    #expect(
      failure { () throws(DataFileError) in try RouteCSV.parse(data, path: "u16.csv") }
        == "u16.csv: byte 0: the file is UTF-16 text; save it as UTF-8")
  }

  @Test func missingFile() {
    let path = Fixture.path("no-such-file.csv")
    #expect(
      failure { () throws(DataFileError) in try RouteCSV.read(path: path) }
        == path + ": file not found")
  }

  @Test func missingDirectoryInPath() {
    let path = Fixture.path("invalid/empty.csv/inner.csv")
    #expect(
      failure { () throws(DataFileError) in try RouteCSV.read(path: path) }
        == path + ": file not found (a part of the path is not a directory)")
  }

  @Test func directoryIsNotAFile() {
    let path = Fixture.path("invalid")
    #expect(
      failure { () throws(DataFileError) in try RouteCSV.read(path: path) }
        == path + ": is a directory, not a file")
  }

  @Test func inlineErrors() {
    #expect(
      failure { () throws(DataFileError) in try parseCSV("lat,lon\n1,2\n3\t4\n") }
        == "inline.csv:3: expected 2 fields (lat, lon), found 1")
    #expect(
      failure { () throws(DataFileError) in try parseCSV("1,2\r3,x\r") }
        == "inline.csv:2:3: expected a number for longitude, found \"x\"")
    #expect(
      failure { () throws(DataFileError) in try parseCSV("lat,lon\n 1 , 2 \n  abc  ,3\n") }
        == "inline.csv:3:3: expected a number for latitude, found \"abc\"")
    #expect(
      failure { () throws(DataFileError) in try parseCSV("\u{FEFF}lat,lon\n\"é\u{202E}x\",1") }
        == "inline.csv:2:1: expected a number for latitude, found \"éx\"")
    #expect(
      failure { () throws(DataFileError) in try parseCSV("lat,lon\n1,2\n\"é\",\"unclosed\n\n") }
        == "inline.csv:3:5: unterminated quoted field: the quote opened here is never closed")
    #expect(
      failure { () throws(DataFileError) in try parseCSV("lat,lon,ele\n1,2,nan\n") }
        == "inline.csv:2:5: elevation must be a finite number, found \"nan\"")
    #expect(
      failure { () throws(DataFileError) in try parseCSV("lat,lon,time\n1,2,yesterday\n") }
        == "inline.csv:2:5: invalid time \"yesterday\" (expected ISO 8601 such as "
        + "2024-05-01T10:00:00Z)")
    #expect(
      failure { () throws(DataFileError) in try parseCSV("\n\n   \n") }
        == "inline.csv: no coordinates found")
    #expect(
      failure { () throws(DataFileError) in try parseCSV("abc,1.5\n") }
        == "inline.csv:1:1: expected a number for latitude, found \"abc\"")
    #expect(
      failure { () throws(DataFileError) in try parseCSV("1\(String(repeating: "0", count: 50)),2")
      }
        == "inline.csv:1:1: latitude 1\(String(repeating: "0", count: 39))… is outside -90...90")
    #expect(
      failure { () throws(DataFileError) in try parseCSV("a,b,c,d,e,f,g,h,i,j\n") }
        == "inline.csv:1: the header has no latitude column (expected \"lat\" or \"latitude\"; "
        + "found \"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", …)")
    let long = String(repeating: "x", count: 60)
    #expect(
      failure { () throws(DataFileError) in try parseCSV("1,\(long)\n") }
        == "inline.csv:1:3: expected a number for longitude, found \"\(long.prefix(40))…\"")
  }

  @Test func descriptionForms() {
    #expect(
      DataFileError(path: "a.csv", line: 3, column: 7, message: "bad").description
        == "a.csv:3:7: bad")
    #expect(DataFileError(path: "a.csv", line: 3, message: "bad").description == "a.csv:3: bad")
    #expect(
      DataFileError(path: "a.csv", byteOffset: 12, message: "bad").description
        == "a.csv: byte 12: bad")
    #expect(DataFileError(path: "a.csv", message: "bad").description == "a.csv: bad")
    #expect(
      DataFileError(path: "a\u{1B}[2J.csv", line: 1, message: "two\nlines").description
        == "a[2J.csv:1: two lines")
  }
}
