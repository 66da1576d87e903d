import Foundation
import Testing

@testable import MapGeometry

/// One inverse problem and GeographicLib's answer.
struct InverseCase: Sendable, CustomTestStringConvertible {
  let label: String
  let lat1: Double
  let lon1: Double
  let lat2: Double
  let lon2: Double
  let s12: Double
  let azi1: Double
  let azi2: Double
  init(
    _ label: String, _ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double,
    _ s12: Double, _ azi1: Double, _ azi2: Double
  ) {
    (self.label, self.lat1, self.lon1, self.lat2, self.lon2) = (label, lat1, lon1, lat2, lon2)
    (self.s12, self.azi1, self.azi2) = (s12, azi1, azi2)
  }
  var a: Coordinate { Coordinate(latitude: lat1, longitude: lon1) }
  var b: Coordinate { Coordinate(latitude: lat2, longitude: lon2) }
  var testDescription: String { label }
}

/// One direct problem and GeographicLib's answer.
struct DirectCase: Sendable, CustomTestStringConvertible {
  let label: String
  let lat1: Double
  let lon1: Double
  let azi1: Double
  let s12: Double
  let lat2: Double
  let lon2: Double
  let azi2: Double
  init(
    _ label: String, _ lat1: Double, _ lon1: Double, _ azi1: Double, _ s12: Double,
    _ lat2: Double, _ lon2: Double, _ azi2: Double
  ) {
    (self.label, self.lat1, self.lon1, self.azi1, self.s12) = (label, lat1, lon1, azi1, s12)
    (self.lat2, self.lon2, self.azi2) = (lat2, lon2, azi2)
  }
  var testDescription: String { label }
}

/// Reference values computed with GeographicLib 2.1 (Python package `geographiclib`,
/// Geodesic.WGS84.Inverse / Geodesic.WGS84.Direct), printed with repr() so they are exact
/// doubles. See docs/geodesy.md for the script.
enum GeographicLibReference {
  static let inverse: [InverseCase] = [
    InverseCase("coincident", 0.0, 0.0, 0.0, 0.0, 0.0, 180.0, 180.0),
    InverseCase("coincident mid-latitude", 45.0, 45.0, 45.0, 45.0, 0.0, 180.0, 180.0),
    InverseCase("sub-millimetre", 10.0, 20.0, 10.000000001, 20.0, 0.0001106077032417831, 0.0, 0.0),
    InverseCase(
      "about 11 cm on the equator", 0.0, 0.0, 0.0, 1e-06, 0.11131949079327356, 90.0, 90.0),
    InverseCase(
      "about 15 cm diagonal", 45.0, 10.0, 45.000001, 10.000001, 0.13626112868253198,
      35.355302115500464, 35.35530282260725),
    InverseCase(
      "about 40 cm", 52.5, 13.4, 52.500003, 13.400004, 0.43038540144591025, 39.135562401116715,
      39.13556557453013),
    InverseCase(
      "tens of metres", 45.52, -122.681944, 45.5203, -122.6815, 48.115590512343125,
      46.13429807070774, 46.13461486333289),
    InverseCase("about 1 km", 37.3326, -122.0306, 37.3416, -122.0306, 998.8557380488678, 0.0, 0.0),
    InverseCase(
      "Portland to Seattle", 45.52, -122.681944, 47.6062, -122.3321, 233452.22340465456,
      6.471214061580889, 6.725289558831793),
    InverseCase(
      "JFK to LHR", 40.6413, -73.7781, 51.47, -0.4543, 5554908.7905475, 51.38164785836946,
      107.98282905557902),
    InverseCase(
      "Wellington to Salamanca (GeographicLib doc)", -41.32, 174.81, 40.96, -5.5, 19959679.26735382,
      161.06766998616015, 18.825195123247063),
    InverseCase(
      "Sydney to Santiago", -33.8688, 151.2093, -33.4489, -70.6693, 11368984.480281316,
      145.3344889482079, 34.473739279309925),
    InverseCase("equatorial quarter", 0.0, 0.0, 0.0, 90.0, 10018754.171394622, 90.0, 90.0),
    InverseCase(
      "equatorial across the antimeridian", 0.0, -170.0, 0.0, 170.0, 2226389.8158654715, -90.0,
      -90.0),
    InverseCase(
      "equatorial, just short of the cut", 0.0, 0.0, 0.0, 179.3, 19959584.699233953, 90.0, 90.0),
    InverseCase(
      "equatorial beyond the cut (leaves the equator)", 0.0, 0.0, 0.0, 179.5, 19980861.908890963,
      55.966495140158635, 124.03350485984137),
    InverseCase("meridional 0 to 60", 0.0, 0.0, 60.0, 0.0, 6654072.819490514, 0.0, 0.0),
    InverseCase("meridional -80 to 80", -80.0, 30.0, 80.0, 30.0, 17770279.74387375, 0.0, 0.0),
    InverseCase("meridional over the pole", 10.0, 0.0, 20.0, 180.0, 16685710.371219438, 0.0, 180.0),
    InverseCase("pole to pole", 90.0, 0.0, -90.0, 0.0, 20003931.458625447, 180.0, 180.0),
    InverseCase("north pole to 45N 45E", 90.0, 0.0, 45.0, 45.0, 5017021.351334979, 135.0, 180.0),
    InverseCase("near south pole across", -89.9, 0.0, -89.9, 180.0, 22338.795682520195, 180.0, 0.0),
    InverseCase(
      "near north pole across", 89.999, 10.0, 89.999, -170.0, 223.38795911909236, -0.0, -180.0),
    InverseCase("south pole to equator", -90.0, 0.0, 0.0, 123.0, 10001965.729312724, 123.0, 0.0),
    InverseCase(
      "nearly antipodal (0,0)-(0.5,179.7)", 0.0, 0.0, 0.5, 179.7, 19944127.420750458,
      15.556882793490544, 164.44251389085494),
    InverseCase(
      "antipodal on the equator (0,0)-(0,180)", 0.0, 0.0, 0.0, 180.0, 20003931.458625447, 0.0, 180.0
    ),
    InverseCase(
      "nearly antipodal (-30,0)-(29.9,179.8)", -30.0, 0.0, 29.9, 179.8, 19989832.82760953,
      161.89052473632697, 18.0907372457395),
    InverseCase(
      "nearly antipodal equatorial (0,0)-(0,179.9)", 0.0, 0.0, 0.0, 179.9, 20003008.42150941,
      9.545672694738908, 170.4543273052611),
    InverseCase(
      "nearly antipodal (30,0)-(-30,179.99)", 30.0, 0.0, -30.0, 179.99, 20003922.22814904,
      1.09632074464363, 178.90367925535637),
    InverseCase(
      "nearly antipodal (1,0)-(-1,179.9)", 1.0, 0.0, -1.0, 179.9, 20003008.42150941,
      9.547130551549827, 170.45286944845017),
    InverseCase(
      "nearly antipodal (-41.32,174.81)-(41.32,-5.19)", -41.32, 174.81, 41.32, -5.19,
      20003931.458625447, 179.99999999999966, 3.364549914247591e-13),
    InverseCase(
      "exactly antipodal (20,30)-(-20,-150)", 20.0, 30.0, -20.0, -150.0, 20003931.458625447, -0.0,
      -180.0),
    InverseCase(
      "Karney hard case 1", 88.202499451857, 0.0, -88.202499451857, 179.98102203299285,
      20003898.2138533, 90.00000000016757, 90.00000000016757),
    InverseCase(
      "Karney hard case 2", 89.262080389218, 0.0, -89.262080389218, 179.99220798277537,
      20003925.854292296, 90.00000000062404, 90.00000000062404),
    InverseCase(
      "Karney hard case 3", 48.522876735459, 0.0, -48.522876735458986, 179.59972045622308,
      19989144.773857698, 89.99996441903542, 90.00003559639784),
    InverseCase(
      "Karney hard case 4", 89.333123580033, 0.0, -89.333123580033, 179.99295812360148,
      20003926.881414395, 90.00000000016534, 90.00000000016534),
    InverseCase("unnormalised longitudes", 0.0, 350.0, 0.0, -5.0, 556597.4539663679, 90.0, 90.0),
    InverseCase(
      "westward long", 51.5, -0.12, -33.9, 18.4, 9632341.016456127, 164.63309409562322,
      168.52429688086772),
  ]

  static let direct: [DirectCase] = [
    DirectCase(
      "NE 1000 km", 40.0, -75.0, 45.0, 1000000.0, 46.02452804561814, -65.86635972133378,
      51.24627648456358),
    DirectCase(
      "east along the equator 10000 km", 0.0, 0.0, 90.0, 10000000.0, 0.0, 89.83152841195215, 90.0),
    DirectCase("half the equator", 0.0, 0.0, 90.0, 20037508.342789244, -0.0, -180.0, 90.0),
    DirectCase(
      "long line 20000 km", -30.0, 0.0, 30.0, 20000000.0, 29.981455807926398, 179.75093154192695,
      150.0061472441745),
    DirectCase("south from near the pole", 89.0, 0.0, 180.0, 1000.0, 88.99104693815427, 0.0, 180.0),
    DirectCase("north to the pole", 0.0, 0.0, 0.0, 10001965.729311794, 89.99999999999167, 0.0, 0.0),
    DirectCase(
      "negative distance", 45.0, 7.0, 60.0, -500000.0, 42.62462948403254, 1.719568005414307,
      56.34222644555873),
    DirectCase(
      "half a metre", 52.5, 13.4, 123.0, 0.5, 52.49999755277421, 13.400006174846402,
      123.00000489883494),
    DirectCase(
      "west across the antimeridian", -10.0, -179.0, 270.0, 300000.0, -9.988756019237982,
      178.26381916928295, -89.52504346543562),
    DirectCase(
      "round the globe", 10.0, 20.0, 33.0, 45000000.0, 45.13152642925551, 52.381537022940535,
      49.38306049303896),
    DirectCase(
      "azimuth outside 0..360", 35.0, 139.0, 405.0, 1200000.0, 42.22601921454416, 149.2725615437057,
      51.43400170787977),
  ]
}
