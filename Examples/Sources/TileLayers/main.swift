import Foundation
import TermMap

// Two tile layers through the public API, with no network: vector tiles read from a folder
// of z/x/y files by a plain `TileOverlay(urlTemplate:)` (a local path; an `https://`
// template loads the same way, through the HTTP client and its disk cache), and a generated
// layer, one subclass answering dots.

/// A generated layer: each tile's edges, as dots (a tile grid over the map).
final class TileGrid: TileOverlay, @unchecked Sendable {
  // `@unchecked Sendable`: no state of its own; the base class keeps its own behind a mutex.
  init() { super.init(urlTemplate: nil) }

  override func loadTileContent(
    at path: TileOverlayPath,
    result: @escaping @Sendable ((any TileContent)?, (any Error)?) -> Void
  ) {
    var dots = TileDots(width: 256, height: 256)
    for i in 0..<256 {
      dots[i, 0] = .brightYellow
      dots[0, i] = .brightYellow
    }
    result(dots, nil)
  }
}

guard let data = DataDirectory.locate() else {
  print("no offline map: set TERMMAP_DATA to termmap's Data folder")
  exit(2)
}
let map = MapView(columns: 64, rows: 16)
map.setCenter(Coordinate(latitude: 43.7384, longitude: 7.4246), animated: false)
map.setZoomLevel(14.5, animated: false)

// Monaco's vector tiles as files, z/x/y.pbf, in a folder of our own.
let folder = FileManager.default.temporaryDirectory
  .appendingPathComponent("termmap-example-\(getpid())", isDirectory: true)
defer { try? FileManager.default.removeItem(at: folder) }
let monaco = try MBTilesSource(path: data.appendingPathComponent("monaco.mbtiles").path)
var written = 0
for z in monaco.minZoom...monaco.maxZoom {
  for p in TileOverlayPath.tiles(covering: map.visibleMapRect, zoom: z) {
    guard let bytes = try monaco.tile(TileID(z: p.z, x: p.x, y: p.y)) else { continue }
    let file = folder.appendingPathComponent("\(p.z)/\(p.x)/\(p.y).pbf")
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try bytes.write(to: file)
    written += 1
  }
}
print("\(written) tiles written under \(folder.lastPathComponent)")

let streets = TileOverlay(urlTemplate: folder.path + "/{z}/{x}/{y}.pbf")
streets.minimumZ = monaco.minZoom
streets.maximumZ = monaco.maxZoom
map.addOverlay(streets, level: .aboveRoads)
map.addOverlay(TileGrid(), level: .aboveLabels)

let (frame, statistics, complete) = map.renderCompleteFrame()
print(frame.lines.joined(separator: "\n"))
let drawnBy = map.renderer(for: streets).map { "\(type(of: $0))" } ?? "none"
print("complete: \(complete), tiles failed: \(statistics.tilesFailed), drawn by \(drawnBy)")
