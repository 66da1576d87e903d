// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
  name: "termmap",
  // Mutex and Atomic (Synchronization: TermMapKit, TileData, TerminalUI) need macOS 15.
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "termmap", targets: ["termmap"]),
    // `import TermMap`: the whole library.
    .library(name: "TermMap", targets: ["TermMap"]),
    // The map model and its renderers alone (no SQLite, zlib, image libraries or networking).
    .library(name: "TermMapCore", targets: ["MapGeometry", "DotRaster", "TermMapKit"]),
    // Location providers (gpsd, NMEA 0183, growing files) and the GPX recorder alone.
    .library(name: "LiveLocation", targets: ["LiveLocation"]),
  ],
  dependencies: [
    // The command line (the termmap executable only).
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // `termmap serve`: SSH on SwiftNIO, its keys (Crypto) and structured logs.
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-ssh", from: "0.15.1"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
  ],
  targets: [
    .target(
      name: "TermMap",
      dependencies: [
        "MapGeometry", "DotRaster", "TermMapKit", "MapData", "TileData", "MapTiles", "RasterTiles",
        "LiveLocation", "LiveLayers", "MapStyle",
      ],
      swiftSettings: strict),
    // Live layers (`--layer`): targets from streams of GeoJSON, CSV, aircraft.json and gpsd AIS.
    .target(
      name: "LiveLayers",
      dependencies: [
        "MapGeometry", "DotRaster", "TermMapKit", "MapData", "TileData", "LiveLocation",
      ],
      swiftSettings: strict),
    // Live position: gpsd, NMEA 0183 and growing files as location providers; the GPX recorder.
    .target(name: "LiveLocation", dependencies: ["MapGeometry"], swiftSettings: strict),
    .target(name: "MapGeometry", swiftSettings: strict),
    // The MapLibre style specification: JSON, expressions (parsed, type-checked, compiled),
    // legacy filters and functions, style documents checked. MapTiles may depend on it.
    .target(name: "MapStyle", dependencies: ["MapGeometry", "DotRaster"], swiftSettings: strict),
    .target(name: "DotRaster", swiftSettings: strict),
    .target(name: "TermMapKit", dependencies: ["MapGeometry", "DotRaster"], swiftSettings: strict),
    .target(
      name: "MapData", dependencies: ["MapGeometry", "DotRaster", "TermMapKit"],
      swiftSettings: strict),
    // Tile overlays backed by tile sources: vector styles and labels, the offline map.
    .target(
      name: "MapTiles",
      dependencies: [
        "MapGeometry", "DotRaster", "TermMapKit", "TileData", "RasterTiles", "MapStyle",
      ],
      // The built-in styles' JSON, compiled in as BuiltinStyleDocuments.swift (generated).
      exclude: ["Styles"],
      swiftSettings: strict),
    .systemLibrary(name: "CZlib"),
    .systemLibrary(name: "CSQLite"),
    // HTTP(S) for tiles, PMTiles ranges and TileJSON (Debian's libcurl4-openssl-dev).
    .systemLibrary(name: "CCurl"),
    .target(
      name: "TileData", dependencies: ["MapGeometry", "CZlib", "CSQLite", "CCurl"],
      swiftSettings: strict),
    // The SSH server of `termmap serve`: keys, authentication, what a session may ask for.
    .target(
      name: "MapServer",
      dependencies: [
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSH", package: "swift-nio-ssh"),
        // --metrics: a small HTTP endpoint.
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strict),
    .systemLibrary(name: "CNcursesw"),
    .systemLibrary(name: "CPNG"),
    .systemLibrary(name: "CJPEG"),
    .target(
      name: "RasterTiles", dependencies: ["DotRaster", "CPNG", "CJPEG"], swiftSettings: strict),
    .target(
      name: "TerminalUI",
      dependencies: [
        "CNcursesw", "MapGeometry", "DotRaster", "TermMapKit", "MapData", "TileData", "MapTiles",
        "LiveLocation", "LiveLayers",
      ],
      swiftSettings: strict),
    .executableTarget(
      name: "termmap",
      dependencies: [
        "MapGeometry", "DotRaster", "TermMapKit", "MapData", "TileData", "MapTiles", "TerminalUI",
        "LiveLocation", "LiveLayers", "MapServer", "MapStyle",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        // `termmap bench serve`'s SSH client.
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSH", package: "swift-nio-ssh"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: strict),
    .testTarget(name: "MapGeometryTests", dependencies: ["MapGeometry"], swiftSettings: strict),
    .testTarget(
      name: "MapStyleTests", dependencies: ["MapStyle"], exclude: ["Fixtures"],
      swiftSettings: strict),
    .testTarget(
      name: "TermMapTests", dependencies: ["TermMap", "TestProcesses", "LoopbackHTTPServer"],
      swiftSettings: strict),
    .testTarget(name: "DotRasterTests", dependencies: ["DotRaster"], swiftSettings: strict),
    .testTarget(
      name: "TermMapKitTests",
      dependencies: ["TermMapKit", "MapGeometry", "DotRaster", "TextSnapshots"],
      exclude: ["Snapshots"], swiftSettings: strict),
    // A loopback HTTP server for the tile tests, and the world as MBTiles (not a product).
    .target(
      name: "LoopbackHTTPServer", dependencies: ["TileData", "MapGeometry", "CSQLite"],
      path: "Tests/LoopbackHTTPServer", swiftSettings: strict),
    .testTarget(
      name: "MapDataTests", dependencies: ["MapData", "TermMapKit"],
      exclude: ["Fixtures"], swiftSettings: strict),
    // Frames as text, stored and compared (test support, not a product).
    .target(name: "TextSnapshots", path: "Tests/TextSnapshots", swiftSettings: strict),
    .target(
      name: "RegionFixtures", dependencies: ["TileData", "MapGeometry"],
      path: "Tests/RegionFixtures", swiftSettings: strict),
    // Programs the tests start (tmux, gpsfake, termmap), with a clean signal mask.
    .target(
      name: "TestProcesses", dependencies: ["CNcursesw"], path: "Tests/TestProcesses",
      swiftSettings: strict),
    .testTarget(
      name: "MapTilesTests",
      dependencies: [
        "MapTiles", "TermMapKit", "TileData", "LoopbackHTTPServer", "TextSnapshots", "MapStyle",
        "RegionFixtures",
      ],
      exclude: ["Fixtures"], swiftSettings: strict),
    .testTarget(
      name: "TileDataTests",
      dependencies: [
        "TileData", "MapGeometry", "CSQLite", "LoopbackHTTPServer", "TestProcesses",
        "RegionFixtures",
      ],
      swiftSettings: strict),
    .testTarget(
      name: "RasterTilesTests", dependencies: ["RasterTiles", "DotRaster"],
      exclude: ["Fixtures", "Snapshots"], swiftSettings: strict),
    .testTarget(
      name: "CLITests",
      dependencies: [
        "termmap", "LoopbackHTTPServer", "TextSnapshots", "TestProcesses", "TileData",
        "RegionFixtures",
      ],
      exclude: ["Fixtures", "Snapshots"],
      swiftSettings: strict),
    .testTarget(
      name: "LiveLocationTests", dependencies: ["LiveLocation", "MapGeometry", "TestProcesses"],
      exclude: ["Fixtures"], swiftSettings: strict),
    .testTarget(
      name: "LiveLayersTests",
      dependencies: [
        "LiveLayers", "MapGeometry", "TermMapKit", "DotRaster", "TestProcesses",
      ],
      exclude: ["Fixtures"], swiftSettings: strict),
    .testTarget(
      name: "MapServerTests", dependencies: ["MapServer", "TestProcesses"],
      swiftSettings: strict),
    .testTarget(
      name: "TerminalUITests",
      dependencies: [
        "TerminalUI", "CNcursesw", "TermMapKit", "MapGeometry", "MapData", "DotRaster",
        "TestProcesses", "MapTiles", "RegionFixtures", "LiveLayers",
      ],
      swiftSettings: strict),
  ]
)

// Documentation: the DocC catalogs in Sources/<Module>/<Module>.docc, built by
// `swift package generate-documentation` (.ci/run builds them with warnings as errors).
package.dependencies.append(
  .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
