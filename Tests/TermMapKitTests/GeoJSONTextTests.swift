import Foundation
import MapGeometry
import Testing

@testable import TermMapKit

/// GeoJSONText's pieces and PointAnnotation's own feature, read back by Foundation's parser.
@Suite("GeoJSON text")
struct GeoJSONTextTests {
  @Test("strings: quotes, backslashes and control characters escaped; the rest UTF-8 as it is")
  func strings() throws {
    let s = "a\"b\\c\nd\te\u{01}f\u{7F}ü→\u{2028}"
    let text = GeoJSONText.string(s)
    #expect(text == #""a\"b\\c\nd\te\u0001f"# + "\u{7F}ü→" + #"\u2028""#)
    let back =
      try JSONSerialization.jsonObject(
        with: Data("[\(text)]".utf8)) as? [String]
    #expect(back == [s])
  }

  @Test("numbers: integral ones without a fraction, others shortest, NaN as null")
  func numbers() {
    #expect(GeoJSONText.number(12) == "12")
    #expect(GeoJSONText.number(-0.5) == "-0.5")
    #expect(GeoJSONText.number(2.35) == "2.35")
    #expect(GeoJSONText.number(.nan) == "null")
    #expect(GeoJSONText.number(.infinity) == "null")
  }

  @Test("a PointAnnotation without properties: its title and subtitle as name and description")
  func plainAnnotation() {
    let a = PointAnnotation(
      coordinate: Coordinate(latitude: 48.8566, longitude: 2.3522), title: "Paris",
      subtitle: "la \"ville\"")
    #expect(
      a.geoJSONFeature
        == #"{"type":"Feature","geometry":{"type":"Point","coordinates":[2.3522,48.8566]},"properties":{"name":"Paris","description":"la \"ville\""}}"#
    )
    a.setGeoJSONProperties { #"{"k":1}"# }
    #expect(a.geoJSONProperties == #"{"k":1}"#)
    a.geoJSONID = "7"
    #expect(
      a.geoJSONFeature
        == #"{"type":"Feature","id":7,"geometry":{"type":"Point","coordinates":[2.3522,48.8566]},"properties":{"k":1}}"#
    )
  }
}
