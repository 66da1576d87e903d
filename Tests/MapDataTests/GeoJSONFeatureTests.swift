import Foundation
import MapGeometry
import TermMapKit
import Testing

@testable import MapData

/// The GeoJSON feature each reader gives its points (what `termmap pick` prints): read back by
/// Foundation's JSON parser, so the text is JSON, with the file's own properties.
@Suite("GeoJSON features of the files' points")
struct GeoJSONFeatureTests {
  func load(_ text: String, _ name: String) throws -> [PointAnnotation] {
    try MapContentLoader.load(data: Data(text.utf8), path: name).annotations
  }

  /// The feature parsed: its geometry's coordinates and its properties.
  func parse(_ a: PointAnnotation) throws -> (
    json: [String: Any], coordinates: [Double], properties: [String: Any]
  ) {
    let text = a.geoJSONFeature
    #expect(!text.contains("\n"))
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    #expect(json["type"] as? String == "Feature")
    let geometry = try #require(json["geometry"] as? [String: Any])
    #expect(geometry["type"] as? String == "Point")
    return (
      json, try #require(geometry["coordinates"] as? [Double]),
      try #require(json["properties"] as? [String: Any])
    )
  }

  @Test("GeoJSON: the original properties, nested values and the id, strings escaped")
  func geojson() throws {
    let text = #"""
      {"type":"Feature","id":"ship-7","geometry":{"type":"Point","coordinates":[14.1,46.36,501]},
       "properties":{"name":"Say \"hi\"\\ here","n":3,"x":2.5,"ok":true,"none":null,
       "tags":["a","b"],"nested":{"k":"tab\tline\nend"},"marker-color":"#f00"}}
      """#
    let a = try #require(try load(text, "f.geojson").first)
    let (json, c, p) = try parse(a)
    #expect(json["id"] as? String == "ship-7")
    #expect(c == [14.1, 46.36])
    #expect(p["name"] as? String == #"Say "hi"\ here"#)
    #expect(p["n"] as? Int == 3)
    #expect(p["x"] as? Double == 2.5)
    #expect(p["ok"] as? Bool == true)
    #expect(p["none"] is NSNull)
    #expect(p["tags"] as? [String] == ["a", "b"])
    #expect((p["nested"] as? [String: String])?["k"] == "tab\tline\nend")
    // simplestyle properties are the file's too.
    #expect(p["marker-color"] as? String == "#f00")
    #expect(
      a.geoJSONFeature.hasPrefix(
        #"{"type":"Feature","id":"ship-7","geometry":{"type":"Point","coordinates":[14.1,46.36]},"properties":{"name":"Say \"hi\"\\ here","n":3,"x":2.5,"#
      ))
  }

  @Test("GPX: the waypoint's fields under GPX's names; elevation a number, time ISO 8601")
  func gpx() throws {
    let text = """
      <?xml version="1.0"?>
      <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
      <wpt lat="46.3572" lon="13.8372"><ele>2569.5</ele><time>2024-06-01T08:30:00Z</time>
      <name>Triglav</name><cmt>top</cmt><desc>Highest &amp; "best"</desc><sym>Summit</sym></wpt>
      </gpx>
      """
    let a = try #require(try load(text, "w.gpx").first)
    let (_, c, p) = try parse(a)
    #expect(c == [13.8372, 46.3572])
    #expect(p["name"] as? String == "Triglav")
    #expect(p["desc"] as? String == #"Highest & "best""#)
    #expect(p["cmt"] as? String == "top")
    #expect(p["sym"] as? String == "Summit")
    #expect(p["ele"] as? Double == 2569.5)
    #expect(p["time"] as? String == "2024-06-01T08:30:00Z")
  }

  @Test("route CSV: name and description from the row")
  func csv() throws {
    let a = try load(
      "lat,lon,name,description\n38.7139,-9.1394,Rossio,\"Praça, central\"\n38.7,-9.14,,\n",
      "r.csv")
    let (_, c, p) = try parse(try #require(a.first))
    #expect(c == [-9.1394, 38.7139])
    #expect(p["name"] as? String == "Rossio")
    #expect(p["desc"] as? String == "Praça, central")
  }

  @Test("KML: name, description and the ExtendedData values by name")
  func kml() throws {
    let text = """
      <?xml version="1.0"?>
      <kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark>
      <name>Hut</name><description>Open in summer</description>
      <ExtendedData><Data name="beds"><value>40</value></Data></ExtendedData>
      <Point><coordinates>13.9,46.3,1600</coordinates></Point></Placemark></Document></kml>
      """
    let (_, c, p) = try parse(try #require(try load(text, "p.kml").first))
    #expect(c == [13.9, 46.3])
    #expect(p["name"] as? String == "Hut")
    #expect(p["description"] as? String == "Open in summer")
    #expect(p["beds"] as? String == "40")
    #expect(p["ele"] as? Int == 1600)
  }

  @Test("a moved point's feature stands where it was dropped")
  func moved() throws {
    let a = try #require(
      try load("lat,lon,name\n38.7,-9.1,A\n", "m.csv").first)
    a.coordinate = Coordinate(latitude: 40, longitude: -8)
    #expect(try parse(a).coordinates == [-8, 40])
  }
}
