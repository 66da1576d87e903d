import Foundation

enum GeoJSONReader {
  static func read(_ bytes: [UInt8], path: String, progress: (Double) -> Void) throws(DataFileError) -> MapContent {
    var b = ContentBuilder(path: path)
    return try b.build(format: .geojson)
  }
}
