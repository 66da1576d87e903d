import TermMap

// Live targets: NDJSON lines decoded as a reader would, a target moved in place and another
// removed (the moved one with its trail, in its marker's colour), a marker with a Maki symbol
// and an area in its simplestyle, drawn on a map as text.
// Everything through the public API.
//
// (No base map: the frame shows the targets alone.)

let lines = """
  {"type":"Feature","id":"ferry","geometry":{"type":"Point","coordinates":[7.40,43.70]},"properties":{"title":"Ferry","kind":"vessel","course":90}}
  {"type":"Feature","id":"heli","geometry":{"type":"Point","coordinates":[7.45,43.74]},"properties":{"title":"Heli","kind":"aircraft","heading":315}}
  {"type":"Feature","id":"buoy","geometry":{"type":"Point","coordinates":[7.43,43.71]},"properties":{"title":"Buoy"}}
  {"type":"Feature","id":"ferry","geometry":{"type":"Point","coordinates":[7.42,43.715]},"properties":{"course":45}}
  {"type":"Feature","id":"buoy","geometry":null,"properties":{}}
  {"type":"Feature","id":"port","geometry":{"type":"Point","coordinates":[7.405,43.73]},"properties":{"title":"Port","marker-symbol":"harbor"}}
  {"type":"Feature","id":"zone","geometry":{"type":"Polygon","coordinates":[[[7.44,43.70],[7.47,43.70],[7.47,43.72],[7.44,43.72],[7.44,43.70]]]},"properties":{"title":"Zone","stroke":"#ff0000","fill":"#ff0000","fill-opacity":0.25}}
  not a feature

  """

// Bytes to updates: the format is told from the first bytes; the bad line is counted.
var decoder = LiveDecoder(sourceName: "example")
var updates: [LiveUpdate] = []
decoder.feed(Array(lines.utf8), into: &updates)
decoder.finish(into: &updates)
print(
  "format \(decoder.format?.rawValue ?? "?"): \(updates.count) updates, \(decoder.statistics.malformed) bad"
)

// Updates to targets, and targets onto a map.
// Trails of the last five positions.
let feed = LiveFeed(store: TargetStore(trailLength: 5))
feed.apply(updates)
let map = MapView(columns: 50, rows: 12)
map.setCenter(Coordinate(latitude: 43.72, longitude: 7.425), animated: false)
map.setZoomLevel(10, animated: false)
let layer = LiveLayer(feed: feed)
layer.attach(to: map)
layer.synchronize()
print(map.renderFrame().lines.joined(separator: "\n"))
if let ferry = layer.targets["ferry"] {
  print(ferry.geoJSONFeature)
}
// The area's simplestyle as the map draws it: its colours, and a quarter opacity as two dots
// of each cell's eight.
if let zone = layer.shapes["zone"] as? LiveShape {
  let dots = zone.style.fillPattern.bits.nonzeroBitCount
  print(
    "zone: stroke \(zone.style.strokeColor.map { "\($0)" } ?? "none"), fill \(dots) dots of 8"
  )
}
// The ferry moved: its trail, one line in the colour of its marker (a vessel's).
if let trails = layer.trails {
  for group in trails.groups {
    print("trail: \(group.lines.polylines.count) line in \(group.color)")
  }
}
print("marker-symbol harbor: \(MarkerSymbol.glyphs(for: "harbor").map { String($0.glyph) } ?? "?")")
