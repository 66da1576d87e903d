// Style expressions through the public API: a filter, a colour by class and a zoom ramp are
// compiled once with one key table, specialized for a zoom, and evaluated for features that a
// renderer would read from a tile layer by key index.
import Foundation
import TermMap

/// A feature the way a renderer holds one: its layer's values by slot, reused for every
/// feature (a class, so passing it to `evaluate` copies nothing).
final class LayerFeature: StyleFeature {
  var slotValues: [StyleValue?] = []
  func value(slot: Int) -> StyleValue? { slot < slotValues.count ? slotValues[slot] : nil }
  func value(forKey key: String) -> StyleValue? { nil }
  var properties: StyleObject { StyleObject() }
  var geometryType: String? { "LineString" }
  var id: StyleValue { .null }
}

var keys = PropertyKeys()
let filter = try StyleExpression(
  filter: try StyleValue(
    json:
      #"["all", ["==", "$type", "LineString"], ["in", "class", "primary", "secondary", "motorway"]]"#
  ),
  keys: &keys)
let color = try StyleExpression(
  try StyleValue(
    json: ##"["match", ["get", "class"], "motorway", "#e892a2", "primary", "#fcd6a4", "#ffffff"]"##),
  type: .color, keys: &keys)
let width = try StyleExpression(
  try StyleValue(
    json:
      #"["interpolate", ["exponential", 1.5], ["zoom"], 10, ["match", ["get", "class"], "motorway", 2, 1], 18, ["match", ["get", "class"], "motorway", 20, 10]]"#
  ),
  type: .number, keys: &keys)
print("keys:", keys.names)

// Once per tile zoom: the zoom parts evaluated, the rest reads the feature by slot.
let zoom = 14.0
let widthAtZoom = width.specialized(zoom: zoom)
print("width nodes:", width.nodeCount, "-> at zoom 14:", widthAtZoom.nodeCount)

let feature = LayerFeature()
let slot = keys.existingSlot(for: "class")!
for cls in ["motorway", "primary", "footway"] {
  feature.slotValues = Array(repeating: nil, count: keys.names.count)
  feature.slotValues[slot] = .string(cls)
  let drawn = try filter.evaluate(zoom: zoom, feature: feature)
  let c = try color.evaluate(zoom: zoom, feature: feature)
  let w = try widthAtZoom.evaluate(feature: feature)
  print(cls, "drawn:", drawn.jsonText, "colour:", c.jsonText, "width:", w.jsonText)
}

// Per-feature cost of the three, for a million features.
let classes: [StyleValue] = ["motorway", "primary", "secondary", "footway"]
var drawnCount = 0
let start = DispatchTime.now().uptimeNanoseconds
for i in 0..<1_000_000 {
  feature.slotValues[slot] = classes[i & 3]
  if case .boolean(true) = try filter.evaluate(zoom: zoom, feature: feature) {
    drawnCount += 1
    _ = try color.evaluate(zoom: zoom, feature: feature)
    _ = try widthAtZoom.evaluate(feature: feature)
  }
}
let ns = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
print("drawn:", drawnCount, "of 1000000 features;", String(format: "%.0f", ns), "ns per feature")
