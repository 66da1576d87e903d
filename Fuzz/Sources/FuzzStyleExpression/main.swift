import Foundation
import FuzzSupport
import TermMap

/// Any bytes as JSON, then as a style expression (plain, as a filter, as a colour property),
/// evaluated for a feature and a zoom, and as a style document validated: results or errors,
/// never a crash.
let feature = GeoJSONStyleFeature(
  geoJSON: try! StyleValue(
    json:
      #"{"type":"Feature","id":1,"properties":{"class":"primary","n":3,"a":[1,2]},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}"#
  ),
  keys: PropertyKeys())
exit(
  runFuzzer(CommandLine.argc, CommandLine.unsafeArgv) { data in
    guard let json = try? StyleValue(jsonBytes: Array(data)) else { return }
    var keys = PropertyKeys()
    let compiled = [
      try? StyleExpression(json, keys: &keys), try? StyleExpression(filter: json, keys: &keys),
      try? StyleExpression(propertyValue: json, type: .color, keys: &keys),
    ]
    let f = GeoJSONStyleFeature(
      geoJSON: .object(
        StyleObject([("type", "Feature"), ("properties", .object(feature.properties))])),
      keys: keys)
    for case let e? in compiled {
      _ = try? e.evaluate(zoom: 12, feature: f)
      _ = try? e.specialized(zoom: 7.5).evaluate(feature: f)
    }
    _ = StyleValidator.validate(json: json)
  })
