// swift-tools-version:6.0
// Fuzzing targets for termmap's parsers (libFuzzer). Not part of the main build or CI's tests:
// run them with Fuzz/run.sh (see docs/fuzzing.md).
import PackageDescription

let fuzzers = [
  "FuzzGPX", "FuzzKML", "FuzzGeoJSON", "FuzzCSV", "FuzzMVT", "FuzzMBTiles", "FuzzPMTiles",
  "FuzzTileJSON", "FuzzConfig", "FuzzTCX", "FuzzFIT", "FuzzIGC", "FuzzNMEA", "FuzzGPSD",
  "FuzzJPEG", "FuzzPNG", "FuzzHTTP", "FuzzStyleExpression", "FuzzLiveLayers",
]

let package = Package(
  name: "termmap-fuzz",
  dependencies: [.package(name: "termmap", path: "..")],
  targets: [
    .target(
      name: "FuzzSupport", dependencies: [.product(name: "TermMap", package: "termmap")],
      swiftSettings: [.swiftLanguageMode(.v6)])
  ]
    + fuzzers.map { name in
      .executableTarget(
        name: name,
        dependencies: ["FuzzSupport", .product(name: "TermMap", package: "termmap")],
        swiftSettings: [.swiftLanguageMode(.v6)])
    }
)
