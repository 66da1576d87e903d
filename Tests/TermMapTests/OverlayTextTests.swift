import Foundation
import TermMap
import Testing

/// Range rings with their distances written on them, as a renderer outside the kit would draw
/// them: three rings, and "1 km", "2 km", "3 km" at each ring's northern point. Every tile
/// draws every label; the context keeps each in the tile holding its point.
struct LabelledRings: OverlayRendering {
  let circle: Circle
  let rings = 3

  func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let c = circle.contextPoint(for: MapPoint(circle.coordinate))
    let perMeter = Mercator.mapPointsPerMeter(atLatitude: circle.coordinate.latitude)
    context.strokeColor = .brightCyan
    context.lineWidth = 1 / zoomScale
    for k in 1...rings {
      let r = circle.radius * perMeter * Double(k) / Double(rings)
      context.addEllipse(in: Rect2D(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
    }
    context.strokePath()
    for k in 1...rings {
      let r = circle.radius * perMeter * Double(k) / Double(rings)
      let km = Int((circle.radius * Double(k) / Double(rings) / 1000).rounded())
      context.drawText("\(km) km", at: Point2D(x: c.x, y: c.y - r), color: .brightWhite, bold: true)
    }
  }

  func tileMargin(zoomScale: Double) -> Double { 2 / zoomScale }
}

/// A layer with a name, as a basemap has.
final class OneName: OverlayRenderer, LabelProviding, @unchecked Sendable {
  // `@unchecked Sendable`: `name` is immutable; the base class keeps its state behind a mutex.
  let name: MapLabel
  init(overlay: any Overlay, name: MapLabel) {
    self.name = name
    super.init(overlay: overlay)
  }
  func labels(for viewport: Viewport) -> [MapLabel] { [name] }
}

@MainActor
final class RingDelegate: MapViewDelegate {
  var names: [ObjectIdentifier: OneName] = [:]
  func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
    if let n = names[ObjectIdentifier(overlay)] { return n }
    if let c = overlay as? Circle {
      return OverlayRenderer(overlay: c, rendering: LabelledRings(circle: c))
    }
    return MapView.defaultRenderer(for: overlay)
  }
}

@Suite("Text in a renderer's drawing")
struct OverlayTextTests {
  static let mast = Coordinate(latitude: 60.17, longitude: 24.94)

  /// A 100 × 50 map at zoom 11 around rings of 3 km, their centre moved east so that the
  /// labels' points lie on the first dot of a map tile (64 dots): each label straddles two
  /// tiles, and every tile was asked to draw it.
  @MainActor static func ringMap(level: OverlayLevel = .aboveLabels) -> (
    MapView, RingDelegate, Circle
  ) {
    let map = MapView(columns: 100, rows: 50)
    map.setZoomLevel(11, animated: false)
    let scale = map.zoomScale
    var p = MapPoint(mast)
    let dot = p.x * scale
    p.x = ((dot / 64).rounded(.up) * 64 + 0.5) / scale
    let circle = Circle(center: p.coordinate, radius: 3000)
    let delegate = RingDelegate()
    map.delegate = delegate
    map.setCenter(p.coordinate, animated: false)
    map.addOverlay(circle, level: level)
    return (map, delegate, circle)
  }

  /// The column and row of the cell of a ring's northern point.
  @MainActor static func northCell(_ map: MapView, _ circle: Circle, ring k: Int) throws -> (
    column: Int, row: Int
  ) {
    let c = MapPoint(circle.coordinate)
    let r =
      circle.radius * Mercator.mapPointsPerMeter(atLatitude: circle.coordinate.latitude)
      * Double(k) / 3
    return try #require(map.viewport.cell(for: MapPoint(x: c.x, y: c.y - r)))
  }

  @Test(
    "labels drawn by a renderer show as text, once each, centred on their point, though they straddle tiles and every tile drew them"
  )
  @MainActor func ringLabels() throws {
    let (map, delegate, circle) = Self.ringMap()
    let frame = map.renderFrame()
    let text = frame.lines.joined(separator: "\n")
    _ = delegate
    for k in 1...3 {
      #expect(text.components(separatedBy: "\(k) km").count == 2, "\(k) km once")
      let cell = try Self.northCell(map, circle, ring: k)
      // Centred: "3 km" is four columns wide, so it starts two columns left of its point.
      let line = Array(frame.lines[cell.row])
      #expect(String(line[(cell.column - 2)..<(cell.column + 2)]) == "\(k) km")
      #expect(frame[cell.column - 2, cell.row].foreground == .brightWhite)
      #expect(frame[cell.column - 2, cell.row].bold)
      // The map tile boundary lies between the label's second and third column.
      let dot = MapPoint(circle.coordinate).x * map.zoomScale
      #expect(Int(dot.rounded(.down)) % 64 == 0)
    }
    #expect(frame.cells.contains { $0.foreground == .brightCyan })
  }

  @Test("a snapshot draws the renderer's text as the map view does")
  func snapshotText() async throws {
    let (rect, circle, expected) = await MainActor.run {
      let (map, delegate, circle) = Self.ringMap()
      _ = delegate
      return (map.visibleMapRect, circle, map.renderFrame().lines)
    }
    var options = MapSnapshotter.Options(columns: 100, rows: 50)
    options.mapRect = rect
    options.addOverlay(circle)
    options.rendererProvider = { overlay in
      guard let c = overlay as? Circle else { return MapView.defaultRenderer(for: overlay) }
      return OverlayRenderer(overlay: c, rendering: LabelledRings(circle: c))
    }
    let snapshot = try await MapSnapshotter(options: options).start()
    #expect(snapshot.buffer.lines == expected)
    #expect(snapshot.text.components(separatedBy: "3 km").count == 2)
  }

  @Test(
    "names of the map keep off overlay text; ink of an overlay above hides the characters it crosses"
  )
  @MainActor func composition() throws {
    // The rings under the names (as a layer of the map), so only their text keeps names off.
    let (map, delegate, circle) = Self.ringMap(level: .aboveRoads)
    let two = try Self.northCell(map, circle, ring: 2)
    let c = MapPoint(circle.coordinate)
    let r2 = circle.radius * Mercator.mapPointsPerMeter(atLatitude: 60.17) * 2 / 3
    // A name under the rings (a layer of the map), at the "2 km" label's point, most important.
    let place = Circle(center: Self.mast, radius: 10)
    delegate.names[ObjectIdentifier(place)] = OneName(
      overlay: place,
      name: MapLabel(
        text: "Kallio", point: MapPoint(x: c.x, y: c.y - r2), priority: 1000, color: .white))
    map.addOverlay(place, level: .aboveRoads)
    // A line above the rings straight down through the "1 km" label's point.
    let r1 = r2 / 2
    let one = try Self.northCell(map, circle, ring: 1)
    let cut = Polyline(points: [
      MapPoint(x: c.x + 0.5 / map.zoomScale, y: c.y - r1 - 6 / map.zoomScale),
      MapPoint(x: c.x + 0.5 / map.zoomScale, y: c.y - r1 + 6 / map.zoomScale),
    ])
    map.addOverlay(cut, level: .aboveLabels)
    let frame = map.renderFrame()
    let text = frame.lines.joined(separator: "\n")
    #expect(!text.contains("Kallio"))
    #expect(String(Array(frame.lines[two.row])[(two.column - 2)..<(two.column + 2)]) == "2 km")
    // "1 km": the line's glyph in the point's cell ("k"), the rest of the label around it.
    let line = Array(frame.lines[one.row])
    #expect(line[one.column - 2] == "1")
    #expect(line[one.column + 1] == "m")
    let glyph = try #require(line[one.column].unicodeScalars.first)
    #expect((0x2800...0x28FF).contains(glyph.value), "\(line[one.column])")
    // Without the line, the name still keeps off; the label shows whole.
    map.removeOverlay(cut)
    let plain = map.renderFrame()
    #expect(String(Array(plain.lines[one.row])[(one.column - 2)..<(one.column + 2)]) == "1 km")
  }
}
