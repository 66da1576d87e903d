import Foundation
import Testing

@testable import MapData

/// Runs the decimal parser on `text` as the CSV reader does.
private func decimal(_ text: String, decimalComma: Bool = false) -> Double? {
  let bytes = Array(text.utf8)
  return bytes.withUnsafeBufferPointer { buffer in
    guard let base = buffer.baseAddress else {
      return DecimalParser.parse(UnsafePointer(bitPattern: 1)!, 0, 0, decimalComma: decimalComma)
    }
    return DecimalParser.parse(base, 0, buffer.count, decimalComma: decimalComma)
  }
}

private func time(_ text: String) -> Date? {
  let bytes = Array(text.utf8)
  return bytes.withUnsafeBufferPointer { buffer in
    guard let base = buffer.baseAddress else { return nil }
    return ISO8601Time.parse(base, 0, buffer.count)
  }
}

@Suite struct DecimalParserTests {
  @Test(arguments: [
    "0", "-0", "1", "+1", "38.7139", "-9.1394", ".5", "5.", "0.000001", "1e5", "1E-5", "2.5e+3",
    "123456789012345678901234567890", "0.1234567890123456789012345", "9007199254740993",
    "1.7976931348623157e308", "4.9e-324", "2.2250738585072014e-308", "1e23", "8.98846567431158e307",
    "000000000000000000000012.5", "0.30000000000000004", "179.99999999999999999",
  ])
  func matchesStandardLibrary(_ text: String) {
    let ours = decimal(text)
    let theirs = Double(text)
    #expect(ours?.bitPattern == theirs?.bitPattern, "\(text)")
  }

  @Test func randomValuesMatchStandardLibrary() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<50_000 {
      var text = Bool.random(using: &generator) ? "-" : ""
      let integerDigits = Int.random(in: 0...12, using: &generator)
      let fractionDigits = Int.random(in: 0...14, using: &generator)
      for _ in 0..<integerDigits { text += String(Int.random(in: 0...9, using: &generator)) }
      if fractionDigits > 0 || integerDigits == 0 {
        text += "."
        for _ in 0..<max(fractionDigits, 1) {
          text += String(Int.random(in: 0...9, using: &generator))
        }
      }
      if Int.random(in: 0..<4, using: &generator) == 0 {
        text += "e\(Int.random(in: -30...30, using: &generator))"
      }
      let ours = decimal(text)
      let theirs = Double(text)
      if ours?.bitPattern != theirs?.bitPattern {
        Issue.record("\(text): \(String(describing: ours)) != \(String(describing: theirs))")
        return
      }
    }
  }

  @Test func decimalComma() {
    #expect(decimal("38,7139", decimalComma: true) == 38.7139)
    #expect(decimal("-9,5e1", decimalComma: true) == -95)
    #expect(decimal("38,7139") == nil)
  }

  @Test func specialValues() {
    #expect(decimal("nan")?.isNaN == true)
    #expect(decimal("NaN")?.isNaN == true)
    #expect(decimal("inf") == .infinity)
    #expect(decimal("-Infinity") == -.infinity)
    #expect(decimal("1e999") == .infinity)
    #expect(decimal("infinite") == nil)
  }

  @Test(arguments: [
    "", "-", "+", ".", "e5", "1e", "1e+", "1.2.3", "0x10", "12abc", " 1", "1 ", "--1", "1-",
    "١٢", "1_000",
  ])
  func rejectsNonNumbers(_ text: String) {
    #expect(decimal(text) == nil, "\(text)")
  }
}

@Suite struct ISO8601TimeTests {
  @Test func utcAndOffsets() {
    #expect(time("2024-05-01T10:00:00Z") == mayDayTen)
    #expect(time("2024-05-01t10:00:00z") == mayDayTen)
    #expect(time("2024-05-01T10:00:00") == mayDayTen)
    #expect(time("2024-05-01T10:00Z") == mayDayTen)
    #expect(time("2024-05-01 10:00:00Z") == mayDayTen)
    #expect(time("2024-05-01T12:00:00+02:00") == mayDayTen)
    #expect(time("2024-05-01T12:00:00+0200") == mayDayTen)
    #expect(time("2024-05-01T12:00:00+02") == mayDayTen)
    #expect(time("2024-05-01T04:30:00-05:30") == mayDayTen)
    #expect(time("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
    #expect(time("1969-12-31T23:59:59Z") == Date(timeIntervalSince1970: -1))
    #expect(time("2000-02-29T00:00:00Z") == Date(timeIntervalSince1970: 951_782_400))
  }

  @Test func fractionalSeconds() throws {
    #expect(time("2024-05-01T10:00:00.5Z") == mayDayTen.addingTimeInterval(0.5))
    #expect(time("2024-05-01T10:00:00,25Z") == mayDayTen.addingTimeInterval(0.25))
    let micro = try #require(time("2024-05-01T10:00:00.123456Z"))
    #expect(abs(micro.timeIntervalSince(mayDayTen) - 0.123456) < 1e-6)
    let long = try #require(time("2024-05-01T10:00:00.1234567891234Z"))
    #expect(abs(long.timeIntervalSince(mayDayTen) - 0.123456789) < 1e-6)
  }

  @Test func agreesWithFoundation() throws {
    let formatter = ISO8601DateFormatter()
    for text in ["2010-10-03T13:19:31Z", "1999-12-31T23:59:59Z", "2038-01-19T03:14:08Z"] {
      #expect(time(text) == formatter.date(from: text), "\(text)")
    }
  }

  @Test(arguments: [
    "", "2024", "2024-05-01", "2024-13-01T10:00:00Z", "2024-00-01T10:00:00Z",
    "2023-02-29T10:00:00Z", "2024-04-31T10:00:00Z", "2024-05-01T24:00:00Z",
    "2024-05-01T10:60:00Z", "2024-05-01T10:00:61Z", "2024-05-01T10:00:00.Z",
    "2024-05-01T10:00:00+2", "2024-05-01T10:00:00+24:00", "2024-05-01T10:00:00Zjunk",
    "2024-5-1T10:00:00Z", "1714557600", "yesterday",
  ])
  func rejects(_ text: String) {
    #expect(time(text) == nil, "\(text)")
  }
}
