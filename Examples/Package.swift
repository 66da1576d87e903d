// swift-tools-version:6.0
// Programs that embed termmap the way its documentation says, built against the package one
// folder up (`.ci/run` builds and runs them). Each `main.swift` is quoted whole by an article of
// the DocC catalogs in Sources/TermMapKit/TermMapKit.docc.
import PackageDescription

let termMap: [Target.Dependency] = [.product(name: "TermMap", package: "termmap")]
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
  name: "termmap-examples",
  dependencies: [.package(name: "termmap", path: "..")],
  targets: [
    // Getting started: a route and a marker on the offline map, printed as text.
    .executableTarget(name: "RouteAndMarker", dependencies: termMap, swiftSettings: strict),
    // Writing an overlay renderer: a Sendable drawing value, a polygon with a hole, a callout.
    .executableTarget(name: "CustomRenderer", dependencies: termMap, swiftSettings: strict),
    // Snapshots: three pictures made at once, off the main actor.
    .executableTarget(name: "Snapshots", dependencies: termMap, swiftSettings: strict),
    // Everyday calls: an awaited camera move, hit testing, selection, a location provider.
    .executableTarget(name: "CameraAndLocation", dependencies: termMap, swiftSettings: strict),
    // Tile overlays: a local z/x/y template drawn by the default renderer, and a generated
    // layer as one subclass answering dots.
    .executableTarget(name: "TileLayers", dependencies: termMap, swiftSettings: strict),
    // Text and gradients in renderers: labelled range rings, a track coloured by speed.
    .executableTarget(name: "RangeRings", dependencies: termMap, swiftSettings: strict),
    // Finding places: a local search over the gazetteer, a map naming only cafés.
    .executableTarget(name: "FindPlaces", dependencies: termMap, swiftSettings: strict),
    // Annotation views: clusters of colliding markers, a cluster selected and zoomed into, a
    // marker dragged.
    .executableTarget(name: "Clusters", dependencies: termMap, swiftSettings: strict),
    // Style expressions: a filter, a colour by class and a zoom ramp compiled once, specialized
    // for a zoom and evaluated per feature by key slot.
    .executableTarget(name: "StyleExpressions", dependencies: termMap, swiftSettings: strict),
    // A style document drawn: StyleDocument compiled, StyledVectorTileRenderer for its source.
    .executableTarget(name: "StyledMap", dependencies: termMap, swiftSettings: strict),
    // Live layers: NDJSON decoded into targets that move in place on a map.
    .executableTarget(name: "LiveTargets", dependencies: termMap, swiftSettings: strict),
  ]
)
