import Foundation
import MapGeometry
import Testing

@testable import MapData

@Suite struct RouteCSVTests {
  private func coordinates(_ file: RouteFile) -> [[Double]] {
    file.points.map { [$0.coordinate.latitude, $0.coordinate.longitude] }
  }

  @Test func bareLatLonLines() throws {
    let file = try parseCSV("38.7139,-9.1394\n38.7101,-9.1366\n-33.5,151\n", path: "walk.csv")
    #expect(file.path == "walk.csv")
    #expect(coordinates(file) == [[38.7139, -9.1394], [38.7101, -9.1366], [-33.5, 151]])
    #expect(file.points.allSatisfy { $0.elevation == nil && $0.time == nil })
    #expect(file.waypoints.isEmpty)
  }

  @Test func noFinalNewlineAndExtraFields() throws {
    let file = try parseCSV("1,2,ignored\n+3.5e1 , -4.25E-1 ")
    #expect(coordinates(file) == [[1, 2], [35, -0.425]])
  }

  @Test func boundsAreInclusive() throws {
    let file = try parseCSV("90,180\n-90,-180\n0,-0\n")
    #expect(coordinates(file) == [[90, 180], [-90, -180], [0, 0]])
  }

  @Test(arguments: [
    ("lat", "lon"), ("latitude", "longitude"), ("LAT", "LNG"), (" Latitude ", " Long "),
    ("\"lat\"", "\"lon\""),
  ])
  func headerAliases(latitude: String, longitude: String) throws {
    let file = try parseCSV("\(longitude),\(latitude)\n-9.1394,38.7139\n")
    #expect(coordinates(file) == [[38.7139, -9.1394]])
  }

  @Test(arguments: ["name", "title", "NAME"])
  func nameAliases(name: String) throws {
    let file = try parseCSV("lat,lon,\(name)\n1,2,Start\n3,4,\n")
    #expect(file.waypoints.map(\.name) == ["Start"])
  }

  @Test func optionalColumnAliases() throws {
    for (ele, time, desc) in [
      ("ele", "time", "description"), ("elevation", "timestamp", "desc"), ("alt", "Time", "Desc"),
      ("altitude", "TIMESTAMP", "DESCRIPTION"),
    ] {
      let file = try parseCSV(
        "lat,lon,\(ele),\(time),name,\(desc)\n1,2,3.5,2024-05-01T10:00:00Z,A,About A\n")
      #expect(
        file.points == [
          RoutePoint(coordinate: .init(latitude: 1, longitude: 2), elevation: 3.5, time: mayDayTen)
        ])
      #expect(file.waypoints.first?.description == "About A")
    }
  }

  @Test func unknownColumnsAreIgnored() throws {
    let file = try parseCSV("id,speed,lat,lon,note\n7,1.5,10,20,x\n8,,11,21\n")
    #expect(coordinates(file) == [[10, 20], [11, 21]])
  }

  @Test func namesBecomeWaypoints() throws {
    let text = """
      lat,lon,name,desc,ele
      38.70760,-9.13650,,,
      38.71390,-9.13940,Rossio,Central square,45
      38.71300,-9.13990,   ,ignored,
      38.71070,-9.14210,A Brasileira,,12
      """
    let file = try parseCSV(text)
    #expect(file.points.count == 4)
    #expect(
      file.waypoints == [
        Waypoint(
          coordinate: Coordinate(latitude: 38.7139, longitude: -9.1394), name: "Rossio",
          description: "Central square", elevation: 45, line: 3),
        Waypoint(
          coordinate: Coordinate(latitude: 38.7107, longitude: -9.1421), name: "A Brasileira",
          elevation: 12, line: 5),
      ])
    #expect(file.points[1].elevation == 45)
  }

  @Test func shortRowsLeaveOptionalColumnsEmpty() throws {
    let file = try parseCSV("lat,lon,ele,name\n1,2\n3,4,5\n")
    #expect(file.points.map(\.elevation) == [nil, 5])
    #expect(file.waypoints.isEmpty)
  }

  @Test func commentsAndBlankLines() throws {
    let text = "# route\n\n   # indented comment\n\t\nlat,lon\n# between\n1,2\n   \n\n3,4\n# end"
    let file = try parseCSV(text)
    #expect(coordinates(file) == [[1, 2], [3, 4]])
  }

  @Test func semicolonAndTabDelimiters() throws {
    #expect(coordinates(try parseCSV("1;2\n3;4\n")) == [[1, 2], [3, 4]])
    #expect(coordinates(try parseCSV("1\t2\n3\t4\n")) == [[1, 2], [3, 4]])
    // Tab wins over the other delimiters, and semicolon over comma.
    let tabbed = try parseCSV("lat\tlon\tname\n1\t2\ta;b,c\n")
    #expect(tabbed.waypoints.map(\.name) == ["a;b,c"])
    let semicolons = try parseCSV("lat;lon;name\n1;2;a,b\n")
    #expect(semicolons.waypoints.map(\.name) == ["a,b"])
    // A delimiter inside quotes in the first row does not count.
    let quotedFirst = try parseCSV("\"name;x\",lat,lon\nA,1,2\n")
    #expect(coordinates(quotedFirst) == [[1, 2]])
  }

  @Test func quotedFields() throws {
    let text = #"""
      "name","lat","lon","description"
      "Café, ""A Brasileira""","38.7107","-9.1421","Chiado; since 1905"
      "",  "38.7139"  ,-9.1394,"x"
      """#
    let file = try parseCSV(text)
    #expect(coordinates(file) == [[38.7107, -9.1421], [38.7139, -9.1394]])
    #expect(file.waypoints.map(\.name) == ["Café, \"A Brasileira\""])
    #expect(file.waypoints.first?.description == "Chiado; since 1905")
  }

  @Test func quotedFieldSpanningLinesKeepsLineNumbers() throws {
    let text = "lat,lon,name\n1,2,\"first\nsecond\r\nthird\"\n3,4,Next\n5,6,\"x\ry\"\n7,8,Last\n"
    let file = try parseCSV(text)
    #expect(file.waypoints.map(\.name) == ["first second third", "Next", "x y", "Last"])
    #expect(file.waypoints.map(\.line) == [2, 5, 6, 8])
  }

  @Test func byteOrderMarkAndCRLF() throws {
    let file = try parseCSV("\u{FEFF}lat,lon,name\r\n1,2,A\r\n\r\n3,4,B\r\n")
    #expect(coordinates(file) == [[1, 2], [3, 4]])
    #expect(file.waypoints.map(\.line) == [2, 4])
    #expect(file.waypoints.map(\.name) == ["A", "B"])
  }

  @Test func byteOrderMarkWithoutHeader() throws {
    #expect(coordinates(try parseCSV("\u{FEFF}1,2\n")) == [[1, 2]])
  }

  @Test func elevationAndTime() throws {
    let text = """
      lat,lon,ele,time
      1,2,-12.5,2024-05-01T10:00:00Z
      1,2,,2024-05-01T12:00:00.5+02:00
      1,2,100,
      1,2,0,2024-05-01 09:30:00-00:30
      """
    let file = try parseCSV(text)
    #expect(file.points.map(\.elevation) == [-12.5, nil, 100, 0])
    #expect(
      file.points.map(\.time) == [
        mayDayTen, mayDayTen.addingTimeInterval(0.5), nil, mayDayTen,
      ])
  }

  @Test func namesAreSanitized() throws {
    let file = try parseCSV(
      "lat,lon,name,desc\n1,2,\"\u{1B}[2J\u{1B}[31mEvil\u{202E}txt.exe\u{7F}\",\"a\tb\u{0}\"\n")
    #expect(file.waypoints.map(\.name) == ["[2J[31mEviltxt.exe"])
    #expect(file.waypoints.first?.description == "a b")
  }

  @Test func controlOnlyNameIsNotAWaypoint() throws {
    let file = try parseCSV("lat,lon,name\n1,2,\u{1B}\u{202E}\n")
    #expect(file.points.count == 1)
    #expect(file.waypoints.isEmpty)
  }

  @Test func validFixtures() throws {
    let bom = try RouteCSV.read(path: Fixture.path("valid/bom-crlf.csv"))
    #expect(coordinates(bom) == [[38.7139, -9.1394], [38.7101, -9.1366]])
    #expect(bom.waypoints.map(\.name) == ["Rossio"])
    #expect(bom.waypoints.map(\.line) == [3])

    let quoted = try RouteCSV.read(path: Fixture.path("valid/quoted.csv"))
    #expect(quoted.points.count == 3)
    #expect(quoted.waypoints.map(\.name) == ["Café, \"A Brasileira\"", "Two lines", "plain"])
    #expect(quoted.waypoints.map(\.description) == ["Chiado; since 1905", nil, "padded"])
    #expect(quoted.waypoints.map(\.line) == [2, 3, 5])

    let comma = try RouteCSV.read(path: Fixture.path("valid/semicolon-decimal-comma.csv"))
    #expect(coordinates(comma) == [[38.7139, -9.1394], [38.7101, -9.1366]])
    #expect(comma.points.map(\.elevation) == [45.5, nil])

    let tab = try RouteCSV.read(path: Fixture.path("valid/tab-time.csv"))
    #expect(coordinates(tab) == [[38.7139, -9.1394], [38.7101, -9.1366]])
    #expect(tab.points.map(\.elevation) == [45, 12.5])
    #expect(tab.points.map(\.time) == [mayDayTen, mayDayTen.addingTimeInterval(30.25)])
    #expect(
      tab.waypoints == [
        Waypoint(
          coordinate: Coordinate(latitude: 38.7139, longitude: -9.1394), name: "Start",
          elevation: 45, time: mayDayTen, line: 2)
      ])
  }

  @Test func lisbonSample() throws {
    let file = try RouteCSV.read(path: Fixture.sample("lisbon-walk.csv"))
    #expect(file.points.count == 20)
    #expect(file.waypoints.map(\.name) == ["Rossio", "A Brasileira", "Cais do Sodré"])
    #expect(file.waypoints.map(\.line) == [10, 15, 23])
    #expect(file.waypoints[1].description == "Café on Rua Garrett, open since 1905")
    #expect(file.points.allSatisfy { $0.coordinate.isValid })
  }

  @Test func koritaZbevnicaSample() throws {
    let file = try RouteCSV.read(path: Fixture.sample("korita-zbevnica.csv"))
    #expect(file.points.count == 873)
    #expect(file.waypoints.map(\.name) == ["001", "002"])
    #expect(file.waypoints.map(\.line) == [3, 362])
    #expect(file.points.filter { $0.elevation != nil }.count == 871)
    #expect(file.points.filter { $0.time != nil }.count == 513)
    #expect(
      file.points[0].coordinate == Coordinate(latitude: 45.380600095, longitude: 14.144491442))
    #expect(file.points[0].elevation == 733.623291)
    #expect(file.points.last?.time == Date(timeIntervalSince1970: 1_286_111_971))
  }

  @Test func manyRowsMatchTheStandardLibrary() throws {
    var generator = SystemRandomNumberGenerator()
    var text = "lat,lon,ele\n"
    var expected: [[Double]] = []
    var elevations: [Double] = []
    for _ in 0..<5_000 {
      let lat = String(format: "%.9f", Double.random(in: -90...90, using: &generator))
      let lon = String(format: "%.12f", Double.random(in: -180...180, using: &generator))
      let ele = String(Double.random(in: -400...9000, using: &generator))
      text += "\(lat),\(lon),\(ele)\n"
      expected.append([Double(lat)!, Double(lon)!])
      elevations.append(Double(ele)!)
    }
    let file = try parseCSV(text)
    #expect(coordinates(file) == expected)
    #expect(file.points.map(\.elevation) == elevations)
  }
}
