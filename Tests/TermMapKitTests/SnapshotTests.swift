import DotRaster
import Foundation
import MapGeometry
import Testing
import TextSnapshots

@testable import TermMapKit

/// Frames stored as text in Tests/TermMapKitTests/Snapshots/NAME.txt.
enum Snapshot {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Snapshots")

  static func check(
    _ frame: CellBuffer, named name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    checkTextSnapshot(
      frame.lines.joined(separator: "\n") + "\n", in: directory, named: name,
      sourceLocation: sourceLocation)
  }
}

@MainActor
@Suite("Frame snapshots")
struct SnapshotTests {
  static let columns = 60
  static let rows = 20

  func routeMap(charset: Charset = .braille) -> MapView {
    let map = MapView(columns: Self.columns, rows: Self.rows)
    map.charset = charset
    map.addOverlay(Polyline(coordinates: lisbonRoute, title: "Walk"))
    map.showAllContent(animated: false)
    return map
  }

  @Test("(a) A route fitted with showAllContent")
  func route() {
    let frame = routeMap().renderFrame()
    // Sanity checks that hold whatever is recorded.
    #expect(frame.inkedCellCount > 30)
    #expect(frame.columns == Self.columns && frame.rows == Self.rows)
    Snapshot.check(frame, named: "route-60x20")
  }

  @Test("(b) A polygon with a hole: the hole stays empty")
  func polygonWithHole() {
    let map = MapView(columns: Self.columns, rows: Self.rows)
    let hole = Polygon(coordinates: [
      Coordinate(latitude: 38.715, longitude: -9.150),
      Coordinate(latitude: 38.715, longitude: -9.130),
      Coordinate(latitude: 38.705, longitude: -9.130),
      Coordinate(latitude: 38.705, longitude: -9.150),
    ])
    let park = Polygon(
      coordinates: [
        Coordinate(latitude: 38.725, longitude: -9.170),
        Coordinate(latitude: 38.727, longitude: -9.110),
        Coordinate(latitude: 38.695, longitude: -9.108),
        Coordinate(latitude: 38.693, longitude: -9.172),
      ], interiorPolygons: [hole], title: "Park")
    map.addOverlay(park)
    map.showAllContent(animated: false)
    let frame = map.renderFrame()
    // The cell at the hole's centre is blank, the ring around it is inked.
    let vp = map.viewport
    let centre = vp.cell(for: MapPoint(Coordinate(latitude: 38.710, longitude: -9.140)))!
    #expect(frame[centre.column, centre.row].glyph == " ")
    let ring = vp.cell(for: MapPoint(Coordinate(latitude: 38.700, longitude: -9.160)))!
    #expect(frame[ring.column, ring.row].glyph != " ")
    Snapshot.check(frame, named: "polygon-hole-60x20")
  }

  @Test("(c) A selected annotation with its callout")
  func callout() throws {
    let map = routeMap()
    let viewpoint = PointAnnotation(
      coordinate: lisbonRoute[5], title: "Miradouro da Graça", subtitle: "Viewpoint",
      detailLines: ["Elevation 109 m", "Open all day"])
    map.addAnnotation(viewpoint)
    map.selectAnnotation(viewpoint, animated: false)
    #expect(map.isCalloutVisible)
    let frame = map.renderFrame()
    let text = frame.text
    for s in ["Miradouro da Graça", "Viewpoint", "Elevation 109 m", "Open all day"] {
      #expect(text.contains(s), "\(s) missing")
    }
    // The marker is not covered by the callout.
    let cell = try #require(map.viewport.cell(for: MapPoint(viewpoint.coordinate)))
    #expect(frame[cell.column, cell.row].glyph == "●")
    Snapshot.check(frame, named: "callout-60x20")
  }

  @Test("(d) The same route in ASCII")
  func routeASCII() {
    let frame = routeMap(charset: .ascii).renderFrame()
    #expect(frame.cells.allSatisfy { $0.glyph.isASCII })
    #expect(frame.inkedCellCount > 30)
    Snapshot.check(frame, named: "route-ascii-60x20")
  }

  @Test("(e) A thick dashed polyline and a circle")
  func dashedAndCircle() {
    let d = RecordingDelegate()
    d.makeRenderer = { overlay in
      let r = MapView.defaultRenderer(for: overlay)
      if let line = r as? PolylineRenderer {
        line.lineWidth = 3
        line.lineDashPattern = [8, 5]
      }
      return r
    }
    let map = MapView(columns: Self.columns, rows: Self.rows)
    map.delegate = d
    let line = Polyline(coordinates: [
      Coordinate(latitude: 38.700, longitude: -9.180),
      Coordinate(latitude: 38.725, longitude: -9.150),
      Coordinate(latitude: 38.705, longitude: -9.120),
      Coordinate(latitude: 38.728, longitude: -9.095),
    ])
    let circle = Circle(center: Coordinate(latitude: 38.7135, longitude: -9.1370), radius: 900)
    map.addOverlays([line, circle])
    map.showAllContent(animated: false)
    let frame = map.renderFrame()
    #expect(frame.inkedCellCount > 30)
    Snapshot.check(frame, named: "dashed-circle-60x20")
  }
}
