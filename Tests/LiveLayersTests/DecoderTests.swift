import Foundation
import LiveLayers
import MapGeometry
import Testing

/// Decodes `text` fed in pieces of `piece` bytes, then finished.
func decode(_ text: String, piece: Int = 1 << 20, name: String = "test") -> (
  [LiveUpdate], LiveDecoder
) {
  var d = LiveDecoder(sourceName: name)
  var out: [LiveUpdate] = []
  let bytes = Array(text.utf8)
  var i = 0
  while i < bytes.count {
    d.feed(Array(bytes[i..<min(i + piece, bytes.count)]), into: &out)
    i += piece
  }
  d.finish(into: &out)
  return (out, d)
}

/// A store fed with `text`, read at time `now`.
func store(_ text: String, now: Double = 0, _ configure: (inout TargetStore) -> Void = { _ in })
  -> (TargetStore, LiveDecoder)
{
  let (updates, d) = decode(text)
  var s = TargetStore()
  configure(&s)
  s.apply(updates, now: now)
  return (s, d)
}

func feature(_ id: String, _ lon: Double, _ lat: Double, _ props: String = "") -> String {
  "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]},\"properties\":{\(props)}}"
}

@Suite("Live layers: formats, told from their first bytes")
struct DecoderTests {
  @Test("NDJSON: a second feature with the same id moves the target and merges its properties")
  func ndjsonMoves() throws {
    let text =
      feature("1", 7.42, 43.73, "\"title\":\"A\",\"speed\":3") + "\n"
      + feature("1", 7.43, 43.74, "\"title\":\"B\"") + "\n"
    for piece in [1, 7, 1 << 20] {
      let (s, d) = store(text) { _ in }
      _ = piece
      #expect(d.format == .geoJSON)
      #expect(s.count == 1)
      let t = try #require(s["1"])
      #expect(t.coordinate == Coordinate(latitude: 43.74, longitude: 7.43))
      #expect(
        t.properties == [LiveProperty("title", .string("B")), LiveProperty("speed", .number(3))])
    }
    // Fed a byte at a time, the same.
    let (updates, _) = decode(text, piece: 1)
    #expect(updates.count == 2)
    #expect(updates[1].geometry == .point(Coordinate(latitude: 43.74, longitude: 7.43)))
  }

  @Test("\"geometry\": null removes the target; a number id is the same target as its text")
  func nullRemoves() {
    let text =
      "{\"type\":\"Feature\",\"id\":7,\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]},\"properties\":null}\n"
      + feature("8", 3, 4) + "\n"
      + "{\"type\":\"Feature\",\"id\":\"7\",\"geometry\":null,\"properties\":{}}\n"
    let (s, d) = store(text)
    #expect(s.count == 1)
    #expect(s["7"] == nil)
    #expect(s["8"] != nil)
    #expect(d.statistics.accepted == 3)
    #expect(d.statistics.malformed == 0)
  }

  @Test("A pretty-printed FeatureCollection is read as one document")
  func featureCollection() throws {
    let text = """
      {
        "type": "FeatureCollection",
        "features": [
          { "type": "Feature", "id": "a",
            "geometry": { "type": "Point", "coordinates": [ 2.35, 48.85 ] },
            "properties": { "name": "Paris", "tags": { "x": [1, 2] } } },
          { "type": "Feature", "id": "r",
            "geometry": { "type": "LineString", "coordinates": [ [2.3, 48.8], [2.4, 48.9] ] },
            "properties": { "name": "a road" } }
        ]
      }

      """
    let (s, d) = store(text)
    #expect(d.format == .geoJSON)
    #expect(d.statistics.accepted == 1)
    #expect(s.count == 2)
    #expect(s["a"]?.properties[1] == LiveProperty("tags", .json("{ \"x\": [1, 2] }")))
    let r = try #require(s["r"])
    #expect(
      r.geometry
        == .lines([
          [
            Coordinate(latitude: 48.8, longitude: 2.3), Coordinate(latitude: 48.9, longitude: 2.4),
          ]
        ]))
  }

  @Test("RFC 8142 text sequences: RS before each text, texts over several lines")
  func textSequences() {
    let text =
      "\u{1E}{\n  \"type\": \"Feature\", \"id\": 1,\n  \"geometry\": {\"type\": \"Point\", \"coordinates\": [10, 20]},\n  \"properties\": {}\n}\n"
      + "\u{1E}{\"type\": \"Feature\", \"id\": 1, \"geometry\": {\"type\": \"Point\", \"coordinates\": [11, 21]}, \"properties\": {\"title\": \"moved\"}}\n"
      // A text cut short by the next RS is one bad message.
      + "\u{1E}{\"type\": \"Feature\", \"id\": 2, \"geom"
      + "\u{1E}{\"type\": \"Feature\", \"id\": 3, \"geometry\": {\"type\": \"Point\", \"coordinates\": [12, 22]}, \"properties\": {}}\n"
    for piece in [1, 5, 1 << 20] {
      let (updates, d) = decode(text, piece: piece)
      #expect(updates.map(\.id) == ["1", "1", "3"])
      #expect(updates[1].geometry == .point(Coordinate(latitude: 21, longitude: 11)))
      #expect(d.statistics.malformed == 1)
    }
  }

  @Test("CSV with a header: other columns are properties; empty lat and lon remove the row's id")
  func csv() throws {
    let text = """
      id,name,lat,lon,speed
      a,"Boat, the first",43.7,7.4,12.5
      b,Two,43.8,7.5,
      a,"Boat, the first",43.71,7.41,13
      b,,,,
      c,Bad,north,7.5,1
      d,Far,95,7.5,1

      """
    let (s, d) = store(text)
    #expect(d.format == .csv)
    #expect(s.count == 1)
    let a = try #require(s["a"])
    #expect(a.coordinate == Coordinate(latitude: 43.71, longitude: 7.41))
    #expect(
      a.properties == [
        LiveProperty("name", .string("Boat, the first")), LiveProperty("speed", .number(13)),
      ])
    #expect(d.statistics.malformed == 2)
    #expect(d.statistics.lastProblem?.contains("out of range") == true)
  }

  @Test("dump1090's aircraft.json, pretty-printed, in pieces: hex is the id, flight trimmed")
  func aircraftJSON() throws {
    let text = """
      { "now" : 1700000000.0,
        "messages" : 1234,
        "aircraft" : [
          {"hex":"4ca7b5","flight":"RYR8TK  ","alt_baro":37000,"gs":451.2,"track":92.5,"lat":53.41,"lon":-6.27,"seen_pos":1.5,"seen":0.2,"rssi":-20.1,"mlat":[],"tisb":[]},
          {"hex":"~2a0001","alt_baro":1200,"seen":3.0},
          {"hex":"3c6444","lat":95.0,"lon":0,"seen":1}
        ]
      }

      """
    for piece in [3, 1 << 20] {
      let (updates, d) = decode(text, piece: piece)
      #expect(d.format == .aircraftJSON)
      #expect(updates.map(\.id) == ["4ca7b5", "~2a0001"])
      let a = updates[0]
      #expect(a.kind == .aircraft)
      #expect(a.geometry == .point(Coordinate(latitude: 53.41, longitude: -6.27)))
      #expect(a.properties.contains(LiveProperty("flight", .string("RYR8TK"))))
      #expect(a.properties.contains(LiveProperty("track", .number(92.5))))
      #expect(a.age == 1.5)
      #expect(updates[1].geometry == .unchanged)
    }
  }

  @Test("gpsd AIS (gpsd's own JSON of an AIVDM log): name and position merged by MMSI")
  func gpsdAIS() throws {
    // gpsd's JSON (gpsdecode, unscaled as gpsd writes by default, and one scaled line) of the
    // project's own AIVDM log, Fixtures/ais-harbour.log (Data/tools/make-ais-fixture.py).
    let text = """
      {"class":"VERSION","release":"3.25","rev":"3.25","proto_major":3,"proto_minor":15}
      {"class":"AIS","device":"stdin","type":24,"repeat":0,"mmsi":211000002,"scaled":false,"shipname":"TERN","shiptype":37,"shiptype_text":"Pleasure Craft","vendorid":"TMPD","model":1,"serial":1234,"callsign":"DB5678","to_bow":10,"to_stern":3,"to_port":2,"to_starboard":2}
      {"class":"AIS","device":"stdin","type":1,"repeat":0,"mmsi":211000001,"scaled":false,"status":0,"status_text":"Under way using engine","turn":-128,"speed":52,"accuracy":false,"lon":6090000,"lat":32592600,"course":900,"heading":90,"second":0,"maneuver":0,"raim":false,"radio":0}
      {"class":"AIS","device":"stdin","type":18,"repeat":0,"mmsi":211000002,"scaled":false,"reserved":0,"speed":51,"accuracy":false,"lon":6096000,"lat":32598060,"course":1200,"heading":511,"second":1,"regional":0,"cs":true,"display":false,"dsc":true,"band":true,"msg22":true,"raim":false,"radio":0}
      {"class":"AIS","device":"stdin","type":18,"repeat":0,"mmsi":211000002,"scaled":true,"reserved":0,"speed":5.1,"accuracy":false,"lon":10.160000,"lat":54.330700,"course":120.0,"heading":511,"second":7,"regional":0,"cs":true,"display":false,"dsc":true,"band":true,"msg22":true,"raim":false,"radio":0}

      """
    let (s, d) = store(text)
    #expect(d.format == .gpsd)
    #expect(d.statistics.malformed == 0)
    let ship = try #require(s["211000001"])
    #expect(ship.kind == .vessel)
    let c = try #require(ship.coordinate)
    #expect(abs(c.latitude - 32_592_600 / 600_000) < 1e-9)
    #expect(abs(c.longitude - 6_090_000 / 600_000) < 1e-9)
    #expect(ship.properties.contains(LiveProperty("speed", .number(5.2))))
    #expect(ship.properties.contains(LiveProperty("heading", .number(90))))
    let tern = try #require(s["211000002"])
    #expect(tern.coordinate == Coordinate(latitude: 54.3307, longitude: 10.16))
    #expect(tern.properties.contains(LiveProperty("shipname", .string("TERN"))))
    #expect(tern.properties.contains(LiveProperty("callsign", .string("DB5678"))))
    // Heading 511 means "not available": left out.
    #expect(!tern.properties.contains { $0.key == "heading" })
  }

  @Test(
    "Bad input: malformed lines counted and skipped, a line over 1 MiB dropped, bad coordinates refused"
  )
  func badInput() {
    let long =
      "{\"type\":\"Feature\",\"id\":\"x\",\"properties\":{\"p\":\""
      + String(repeating: "a", count: 1 << 20) + "\"}}"
    let text = [
      feature("1", 1, 1),
      "{\"type\":\"Feature\",\"id\":\"2\"",
      "not json at all",
      long,
      feature("3", 200, 1),
      "{\"type\":\"Feature\",\"id\":\"4\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\"1\",2]},\"properties\":{}}",
      "{\"type\":\"Feature\",\"id\":\"5\",\"geometry\":{\"type\":\"Point\",\"coordinates\":"
        + String(repeating: "[", count: 100_000),
      feature("6", 2, 2),
    ].joined(separator: "\n")
    for piece in [4096, 1 << 22] {
      let (updates, d) = decode(text, piece: piece)
      #expect(updates.map(\.id) == ["1", "6"])
      #expect(d.statistics.malformed == 6)
      #expect(d.statistics.overlong == 1)
      #expect(d.statistics.accepted == 2)
    }
  }

  @Test("Text that is none of the formats is said once, in one line")
  func unknownFormat() {
    let (updates, d) = decode("hello, world\nthis is not a layer\n", name: "notes.txt")
    #expect(updates.isEmpty)
    #expect(
      d.failure
        == "notes.txt: not GeoJSON, CSV with lat and lon columns, aircraft.json or gpsd JSON")
  }

  @Test("Numbers: the fast path and strtod agree with Swift's reading")
  func numbers() {
    let values = [
      "0", "-0.5", "7.4246", "43.7384176", "-179.9999999", "1e3", "1.5E-7", "123456789012345678901",
      "0.1", "3.14159265358979323846", "90", "-90.0", "1e-300",
    ]
    for v in values {
      let (updates, _) = decode(
        "{\"type\":\"Feature\",\"id\":1,\"geometry\":null,\"properties\":{\"v\":\(v)}}\n")
      #expect(updates.first?.properties.first?.value == .number(Double(v)!), "\(v)")
    }
  }
}
