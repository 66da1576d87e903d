import DotRaster
import Foundation
import MapGeometry
import TermMapKit
import TileData

/// The whole world, as the basemap's overlay (its renderer draws vector tiles).
public final class BasemapOverlay: Overlay {
  public let boundingMapRect = MapRect.world
  public let title: String? = "basemap"
  public init() {}
}

/// The offline basemap: land and water, borders, roads and buildings from vector tiles, and
/// place names placed in cells around the markers and the callout.
@MainActor
public final class VectorBasemap: BasemapLayer {
  public let overlay: any Overlay
  public let renderer: OverlayRenderer
  let basemapRenderer: BasemapRenderer
  public let attribution: [String]
  let style: BasemapStyle

  public init(
    sources: [any TileSource], style: BasemapStyle = .dark, retryInterval: TimeInterval = 30
  ) throws {
    let o = BasemapOverlay()
    let providers = try sources.map { try VectorTileProvider(source: $0) }
    let r = BasemapRenderer(
      overlay: o, providers: providers, style: style, retryInterval: retryInterval)
    overlay = o
    renderer = r
    basemapRenderer = r
    self.style = style
    var lines: [String] = []
    for s in sources {
      for part in s.attribution.split(separator: ";") {
        let line = part.trimmingCharacters(in: .whitespaces)
        if !line.isEmpty && !lines.contains(line) { lines.append(line) }
      }
    }
    attribution = lines
  }

  /// The basemap that ships in Data/: the world, with Monaco's streets over it.
  public static func standard(dataDirectory dir: URL, style: BasemapStyle = .dark) throws
    -> VectorBasemap
  {
    var sources: [any TileSource] = [
      try MBTilesSource(path: dir.appendingPathComponent("world.mbtiles").path)
    ]
    for city in ["monaco.mbtiles"] {
      let path = dir.appendingPathComponent(city).path
      if FileManager.default.fileExists(atPath: path) {
        sources.append(try MBTilesSource(path: path))
      }
    }
    return try VectorBasemap(sources: sources, style: style)
  }

  /// A short credit for a status line.
  public var shortAttribution: String {
    attribution.map { line in
      if line.contains("OpenStreetMap") { return "© OpenStreetMap" }
      if line.contains("Natural Earth") { return "Natural Earth" }
      if line.contains("GeoNames") { return "GeoNames" }
      return line
    }.joined(separator: " · ")
  }

  public func drawLabels(_ viewport: Viewport, into cells: inout CellBuffer, reserved: Set<Int>) {
    var placer = LabelPlacer(viewport: viewport, reserved: reserved, style: style)
    let zoom = ZoomMath.zoomLevel(forZoomScale: viewport.zoomScale)
    let tz = BasemapRenderer.tileZoom(for: zoom)
    let visible = viewport.mapRect
    var seen = Set<TileID>()
    var rects: [MapRect] = []
    for shift in viewport.worldCopies {
      let r = visible.offsetBy(dx: -shift, dy: 0)
      rects.append(r)
      for id in BasemapRenderer.tiles(covering: r, zoom: tz) {
        guard let t = basemapRenderer.cachedTile(id), seen.insert(t.sourceID).inserted else {
          continue
        }
        placer.collect(from: t, zoom: zoom, shift: shift)
      }
    }
    placer.place(into: &cells)
    // Once per frame: network sources fetch near the centre first and drop what left the view.
    basemapRenderer.viewDidChange(visible: rects, tileZoom: tz, focus: visible.mid)
  }
}
