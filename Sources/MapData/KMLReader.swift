import Foundation

struct KMLReader {
  static let kml = 3
  static let gx = 4
  let xml: XMLTokenizer
  var builder: ContentBuilder
  init(xml: XMLTokenizer, path: String) {
    self.xml = xml
    builder = ContentBuilder(path: path)
  }
  mutating func read() throws(DataFileError) -> MapContent { try builder.build(format: .kml) }
}
