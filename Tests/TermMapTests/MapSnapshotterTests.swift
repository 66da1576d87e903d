import Dispatch
import Foundation
import Synchronization
import TermMap
import Testing

/// The repository's Data/ folder.
let dataDirectory = DataDirectory.package

/// What a tile server said.
struct ServerError: Error, CustomStringConvertible {
  let status: Int
  var description: String { "HTTP \(status)" }
}

/// Tiles of Data/world.pmtiles, each answered on another thread a little later (as a network
/// source would), drawn with the dark OpenMapTiles style.
final class SlowWorldTiles: TileOverlay, @unchecked Sendable {
  // `@unchecked Sendable`: `file` is an immutable `Sendable` reference and `asked` a mutex;
  // the base class keeps its own state behind a mutex.
  let file: PMTilesSource
  let delay: Int
  /// Whether loads are answered at all (false: they never are).
  let answers: Bool
  /// An error every load fails with, if any.
  let failure: ServerError?
  let asked = Mutex(0)

  init(delayMilliseconds: Int = 40, answers: Bool = true, failure: ServerError? = nil) throws {
    file = try PMTilesSource(path: dataDirectory.appendingPathComponent("world.pmtiles").path)
    delay = delayMilliseconds
    self.answers = answers
    self.failure = failure
    super.init(urlTemplate: nil)
    maximumZ = 6
    canReplaceMapContent = true
    attribution = "slow world"
  }

  override func loadTile(
    at path: TileOverlayPath, result: @escaping @Sendable (Data?, (any Error)?) -> Void
  ) {
    asked.withLock { $0 += 1 }
    guard answers else { return }
    let file = file
    let failure = failure
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(delay)) {
      if let failure {
        result(nil, failure)
      } else {
        result(try? file.tile(TileID(z: path.z, x: path.x, y: path.y)), nil)
      }
    }
  }

  override func makeDefaultRenderer() -> OverlayRenderer {
    VectorTileRenderer(overlay: self, style: .dark)
  }
}

/// Tiles of Data/world.pmtiles that, like a network source, cancel the loads the view no longer
/// wants (`loadingDidChange`): a cancelled load is answered with `CancellationError`.
final class CancellingWorldTiles: TileOverlay, @unchecked Sendable {
  // `@unchecked Sendable`: `file` is an immutable `Sendable` reference and `pending` a mutex;
  // the base class keeps its own state behind a mutex.
  typealias Callback = @Sendable (Data?, (any Error)?) -> Void
  let file: PMTilesSource
  let pending = Mutex<[TileOverlayPath: [Callback]]>([:])
  let cancelled = Mutex(0)

  init() throws {
    file = try PMTilesSource(path: dataDirectory.appendingPathComponent("world.pmtiles").path)
    super.init(urlTemplate: nil)
    maximumZ = 6
    canReplaceMapContent = true
  }

  override func loadTile(at path: TileOverlayPath, result: @escaping Callback) {
    pending.withLock { $0[path, default: []].append(result) }
    let file = file
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) { [self] in
      let waiting = pending.withLock { $0.removeValue(forKey: path) } ?? []
      let data = try? file.tile(TileID(z: path.z, x: path.x, y: path.y))
      for r in waiting { r(data, nil) }
    }
  }

  override func loadingDidChange(focus: MapPoint, wanted: Set<TileOverlayPath>) {
    let dropped = pending.withLock { p -> [Callback] in
      let gone = p.keys.filter { !wanted.contains($0) }
      return gone.flatMap { p.removeValue(forKey: $0) ?? [] }
    }
    cancelled.withLock { $0 += dropped.count }
    for r in dropped { r(nil, CancellationError()) }
  }

  override func makeDefaultRenderer() -> OverlayRenderer {
    VectorTileRenderer(overlay: self, style: .dark)
  }
}

/// Tiles of Data/world.pmtiles answered at once, inside `loadTile`.
final class ImmediateWorldTiles: TileOverlay, @unchecked Sendable {
  // `@unchecked Sendable`: `file` is an immutable `Sendable` reference; the base class keeps its
  // own state behind a mutex.
  let file: PMTilesSource

  init() throws {
    file = try PMTilesSource(path: dataDirectory.appendingPathComponent("world.pmtiles").path)
    super.init(urlTemplate: nil)
    maximumZ = 6
    canReplaceMapContent = true
  }

  override func loadTile(
    at path: TileOverlayPath, result: @escaping @Sendable (Data?, (any Error)?) -> Void
  ) {
    result(try? file.tile(TileID(z: path.z, x: path.x, y: path.y)), nil)
  }

  override func makeDefaultRenderer() -> OverlayRenderer {
    VectorTileRenderer(overlay: self, style: .dark)
  }
}

/// The same picture made by a map view on the main actor, waiting for its tiles.
@MainActor
func mapViewFrame(_ o: MapSnapshotter.Options) -> CellBuffer {
  let map = MapView(columns: o.columns, rows: o.rows)
  map.zoomRange = o.zoomRange
  map.charset = o.charset
  for (overlay, level) in o.overlays { map.addOverlay(overlay, level: level) }
  map.addAnnotations(o.annotations)
  if let r = o.region { map.setRegion(r, animated: false) }
  if let r = o.mapRect { map.setVisibleMapRect(r, edgePadding: o.edgePadding, animated: false) }
  let (frame, _, complete) = map.renderCompleteFrame(timeout: 600)
  #expect(complete)
  return frame
}

func inkedCells(_ frame: CellBuffer) -> Int {
  frame.cells.filter { $0.glyph != " " }.count
}

/// A custom annotation view: a house for huts, green, labelled with the hut's name and height,
/// always shown.
@MainActor
final class HutView: AnnotationView {
  required init(annotation: (any Annotation)?, reuseIdentifier: String?) {
    super.init(annotation: annotation, reuseIdentifier: reuseIdentifier)
    glyph = "⌂"
    asciiGlyph = "H"
    color = .brightGreen
    displayPriority = .required
  }

  override func prepareForDisplay() {
    super.prepareForDisplay()
    label = (annotation?.title ?? "") + " 1,320 m"
  }
}

/// Gives huts a `HutView` and everything else the standard marker.
@MainActor
func hutView(for annotation: any Annotation) -> AnnotationView? {
  annotation.title?.hasPrefix("Hut") == true
    ? HutView(annotation: annotation, reuseIdentifier: "hut") : nil
}

/// A map view delegate giving the same views.
@MainActor
final class HutDelegate: MapViewDelegate {
  func mapView(_ mapView: MapView, viewFor annotation: any Annotation) -> AnnotationView? {
    hutView(for: annotation)
  }
}

@Suite("MapSnapshotter")
struct MapSnapshotterTests {
  /// Four pictures: the offline map with a GPX track and its waypoints, polygons with holes
  /// from GeoJSON, a tile overlay that loads slowly with a marker, and shapes in ASCII.
  func optionSets() throws -> [MapSnapshotter.Options] {
    let samples = dataDirectory.appendingPathComponent("samples")
    let korita = try MapContentLoader.load(
      path: samples.appendingPathComponent("korita-zbevnica.gpx").path)
    let bled = try MapContentLoader.load(path: samples.appendingPathComponent("bled.geojson").path)
    let offline = try OfflineMap.overlays(dataDirectory: dataDirectory)

    var a = MapSnapshotter.Options(columns: 70, rows: 20)
    // Generous: on 2 cores the whole suite can keep tile loads waiting a while.
    a.timeout = 600
    a.addOverlays(offline, level: .aboveRoads)
    a.addOverlays(korita.overlays)
    a.annotations = korita.annotations
    a.mapRect = korita.overlays.reduce(MapRect.null) { $0.union($1.boundingMapRect) }
    a.edgePadding = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)

    var b = MapSnapshotter.Options(columns: 60, rows: 18)
    // Generous: on 2 cores the whole suite can keep tile loads waiting a while.
    b.timeout = 600
    b.addOverlays(bled.overlays)
    b.annotations = bled.annotations
    b.region = CoordinateRegion(
      center: Coordinate(latitude: 46.364, longitude: 14.095),
      span: CoordinateSpan(latitudeDelta: 0.03, longitudeDelta: 0.05))

    var c = MapSnapshotter.Options(columns: 80, rows: 24)
    // Generous: on 2 cores the whole suite can keep tile loads waiting a while.
    c.timeout = 600
    c.addOverlay(try SlowWorldTiles(), level: .aboveRoads)
    c.addOverlay(
      Polyline(coordinates: [
        Coordinate(latitude: 41.9, longitude: 12.5), Coordinate(latitude: 48.86, longitude: 2.35),
      ]))
    c.annotations = [
      PointAnnotation(coordinate: Coordinate(latitude: 41.9, longitude: 12.5), title: "Roma")
    ]
    c.region = CoordinateRegion(
      center: Coordinate(latitude: 45, longitude: 10),
      span: CoordinateSpan(latitudeDelta: 14, longitudeDelta: 30))

    var d = MapSnapshotter.Options(columns: 40, rows: 12)
    // Generous: on 2 cores the whole suite can keep tile loads waiting a while.
    d.timeout = 600
    d.charset = .ascii
    d.addOverlay(Circle(center: Coordinate(latitude: 0, longitude: 0), radius: 400_000))
    d.addOverlay(
      Polyline(coordinates: [
        Coordinate(latitude: -5, longitude: -5), Coordinate(latitude: 5, longitude: 5),
      ]))
    d.region = CoordinateRegion(
      center: Coordinate(latitude: 0, longitude: 0),
      span: CoordinateSpan(latitudeDelta: 12, longitudeDelta: 12))
    return [a, b, c, d]
  }

  @Test("snapshots made at the same time in a task group equal the frames a MapView makes")
  func concurrentSnapshotsEqualMapView() async throws {
    let sets = try optionSets()
    let snapshots = try await withThrowingTaskGroup(of: (Int, MapSnapshotter.Snapshot).self) {
      group in
      for (n, options) in sets.enumerated() {
        group.addTask { (n, try await MapSnapshotter(options: options).start()) }
      }
      var out = [MapSnapshotter.Snapshot?](repeating: nil, count: sets.count)
      for try await (n, s) in group { out[n] = s }
      return out.compactMap { $0 }
    }
    #expect(snapshots.count == sets.count)
    for (options, snapshot) in zip(sets, snapshots) {
      let expected = await mapViewFrame(options)
      #expect(snapshot.buffer.lines == expected.lines)
      #expect(snapshot.buffer == expected)
      #expect(inkedCells(snapshot.buffer) > 40)
    }
    // What the pictures show, as a user reads them.
    #expect(snapshots[0].text.contains("● 001"))
    #expect(snapshots[2].text.contains("Roma"))
    #expect(snapshots[2].attribution == ["slow world"])
    #expect(
      !snapshots[3].text.contains { (0x2801...0x28FF).contains($0.unicodeScalars.first!.value) })
  }

  @Test("content loaded in one task is drawn in another (MapContent is Sendable)")
  func contentCrossesTasks() async throws {
    let path = dataDirectory.appendingPathComponent("samples/bled.geojson").path
    // Compiles only because MapContent (overlays, annotations, styles) is Sendable.
    let content = try await Task.detached { try MapContentLoader.load(path: path) }.value
    let snapshot = try await Task.detached {
      var options = MapSnapshotter.Options(columns: 50, rows: 14)
      // Generous: on 2 cores the whole suite can keep tile loads waiting a while.
      options.timeout = 600
      options.addOverlays(content.overlays)
      options.annotations = content.annotations
      options.mapRect = content.overlays.reduce(MapRect.null) { $0.union($1.boundingMapRect) }
      return try await MapSnapshotter(options: options).start()
    }.value
    #expect(inkedCells(snapshot.buffer) > 50)
    #expect(
      content.annotations.contains { a in
        snapshot.point(for: a.coordinate).map { snapshot.buffer[$0.column, $0.row].glyph == "●" }
          ?? false
      })
  }

  @Test("a snapshot waits for its tile overlay's tiles: it is complete, never half-loaded")
  func waitsForTiles() async throws {
    let tiles = try SlowWorldTiles(delayMilliseconds: 150)
    var options = MapSnapshotter.Options(columns: 80, rows: 24)
    // Generous: on 2 cores the whole suite can keep tile loads waiting a while.
    options.timeout = 600
    options.addOverlay(tiles, level: .aboveRoads)
    options.region = CoordinateRegion(
      center: Coordinate(latitude: 45, longitude: 10),
      span: CoordinateSpan(latitudeDelta: 14, longitudeDelta: 30))
    let snapshot = try await MapSnapshotter(options: options).start()
    #expect(tiles.asked.withLock { $0 } > 0)
    #expect(snapshot.statistics.tilesWaiting == 0)
    #expect(inkedCells(snapshot.buffer) > 200)
    #expect(snapshot.text.contains("Italy"))
    #expect(snapshot.ansi.contains("\u{1B}["))
  }

  @Test("snapshots sharing one tile overlay do not cancel each other's loads")
  func sharedOverlay() async throws {
    let tiles = try CancellingWorldTiles()
    let regions = [
      CoordinateRegion(
        center: Coordinate(latitude: 48, longitude: 10),
        span: CoordinateSpan(latitudeDelta: 20, longitudeDelta: 40)),
      CoordinateRegion(
        center: Coordinate(latitude: -15, longitude: -60),
        span: CoordinateSpan(latitudeDelta: 20, longitudeDelta: 40)),
    ]
    let snapshots = try await withThrowingTaskGroup(of: MapSnapshotter.Snapshot.self) { group in
      for region in regions {
        var options = MapSnapshotter.Options(columns: 60, rows: 18)
        options.addOverlay(tiles, level: .aboveRoads)
        options.region = region
        options.timeout = 600
        group.addTask { try await MapSnapshotter(options: options).start() }
      }
      var out: [MapSnapshotter.Snapshot] = []
      for try await s in group { out.append(s) }
      return out
    }
    #expect(snapshots.count == 2)
    for s in snapshots { #expect(inkedCells(s.buffer) > 100) }
    #expect(tiles.cancelled.withLock { $0 } == 0)
  }

  @Test("when the time is up, tiles that have arrived are used: timeout 0 with tiles at hand")
  func timeUpButTilesArrived() async throws {
    var options = MapSnapshotter.Options(columns: 60, rows: 18)
    options.timeout = 0
    options.addOverlay(try ImmediateWorldTiles(), level: .aboveRoads)
    options.region = CoordinateRegion(
      center: Coordinate(latitude: 45, longitude: 10),
      span: CoordinateSpan(latitudeDelta: 14, longitudeDelta: 30))
    let snapshot = try await MapSnapshotter(options: options).start()
    #expect(snapshot.statistics.tilesWaiting == 0)
    #expect(snapshot.text.contains("Italy"))
  }

  @Test("tiles that never come: start() throws a one-line error when the timeout runs out")
  func timeout() async throws {
    var options = MapSnapshotter.Options(columns: 40, rows: 12)
    options.addOverlay(try SlowWorldTiles(answers: false), level: .aboveRoads)
    options.timeout = 0.3
    do {
      _ = try await MapSnapshotter(options: options).start()
      Issue.record("no error")
    } catch let error as MapSnapshotter.SnapshotError {
      #expect("\(error)" == "map snapshot: tiles still loading after 0.3 s")
    }
  }

  @Test("a tile that fails to load: start() throws a one-line error with the loader's")
  func tileLoadFails() async throws {
    var options = MapSnapshotter.Options(columns: 40, rows: 12)
    // Generous: on 2 cores the whole suite can keep tile loads waiting a while.
    options.timeout = 600
    options.addOverlay(
      try SlowWorldTiles(delayMilliseconds: 5, failure: ServerError(status: 503)),
      level: .aboveRoads)
    do {
      _ = try await MapSnapshotter(options: options).start()
      Issue.record("no error")
    } catch let error as MapSnapshotter.SnapshotError {
      #expect("\(error)" == "map snapshot: a tile failed to load: HTTP 503")
    }
  }

  @Test("a cancelled task stops waiting for tiles: start() throws CancellationError")
  func cancellation() async throws {
    var options = MapSnapshotter.Options(columns: 40, rows: 12)
    let tiles = try SlowWorldTiles(answers: false)
    options.addOverlay(tiles, level: .aboveRoads)
    options.timeout = .infinity
    let task = Task.detached { try await MapSnapshotter(options: options).start() }
    // Cancel once the snapshot is waiting for its tiles (at most a minute from now).
    var waited = 0
    while tiles.asked.withLock({ $0 }) == 0 && waited < 60_000 {
      try await Task.sleep(nanoseconds: 1_000_000)
      waited += 1
    }
    #expect(tiles.asked.withLock { $0 } > 0)
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test("point(for:) gives the cell where the annotation's marker is drawn")
  func pointForCoordinate() async throws {
    let summit = Coordinate(latitude: 46.4358, longitude: 13.8369)
    var options = MapSnapshotter.Options(columns: 50, rows: 14)
    // Generous: on 2 cores the whole suite can keep tile loads waiting a while.
    options.timeout = 600
    options.annotations = [
      PointAnnotation(coordinate: summit, title: "Mala Mojstrovka"),
      PointAnnotation(coordinate: Coordinate(latitude: 46.42, longitude: 13.80), title: "Hut"),
    ]
    options.region = CoordinateRegion(
      center: Coordinate(latitude: 46.43, longitude: 13.82),
      span: CoordinateSpan(latitudeDelta: 0.06, longitudeDelta: 0.1))
    let snapshot = try await MapSnapshotter(options: options).start()
    let p = try #require(snapshot.point(for: summit))
    let cell = snapshot.buffer[p.column, p.row]
    #expect(cell.glyph == "●")
    #expect(cell.foreground == .brightYellow)
    let row = snapshot.buffer.lines[p.row]
    #expect(row.dropFirst(p.column + 2).hasPrefix("Mala Mojstrovka"))
    #expect(snapshot.point(for: Coordinate(latitude: 10, longitude: 10)) == nil)
  }

  @Test("a snapshot draws the host's own annotation views, as a map view with that delegate")
  func customAnnotationViews() async throws {
    let hut = Coordinate(latitude: 46.42, longitude: 13.80)
    let summit = Coordinate(latitude: 46.4358, longitude: 13.8369)
    var options = MapSnapshotter.Options(columns: 50, rows: 14)
    // Generous: on 2 cores the whole suite can keep tile loads waiting a while.
    options.timeout = 600
    options.annotations = [
      PointAnnotation(coordinate: summit, title: "Mala Mojstrovka"),
      PointAnnotation(coordinate: hut, title: "Hut Tamar"),
    ]
    options.region = CoordinateRegion(
      center: Coordinate(latitude: 46.43, longitude: 13.82),
      span: CoordinateSpan(latitudeDelta: 0.06, longitudeDelta: 0.1))
    options.annotationViewProvider = { hutView(for: $0) }
    let snapshot = try await MapSnapshotter(options: options).start()
    // The hut is the custom view: its glyph, colour and label.
    let p = try #require(snapshot.point(for: hut))
    #expect(snapshot.buffer[p.column, p.row].glyph == "⌂")
    #expect(snapshot.buffer[p.column, p.row].foreground == .brightGreen)
    #expect(snapshot.buffer.lines[p.row].dropFirst(p.column + 2).hasPrefix("Hut Tamar 1,320 m"))
    // The summit, given no view, is the standard marker with its title.
    let q = try #require(snapshot.point(for: summit))
    #expect(snapshot.buffer[q.column, q.row].glyph == "●")
    #expect(snapshot.buffer.lines[q.row].dropFirst(q.column + 2).hasPrefix("Mala Mojstrovka"))
    // And the frame is the one a map view draws with a delegate giving the same views.
    let expected = await MainActor.run {
      let map = MapView(columns: options.columns, rows: options.rows)
      let delegate = HutDelegate()
      map.delegate = delegate
      map.addAnnotations(options.annotations)
      map.setRegion(options.region!, animated: false)
      let frame = map.renderCompleteFrame(timeout: 600).frame
      withExtendedLifetime(delegate) {}
      return frame
    }
    #expect(snapshot.buffer == expected)
    // Without the provider the hut is a standard marker again.
    options.annotationViewProvider = nil
    let plain = try await MapSnapshotter(options: options).start()
    #expect(plain.buffer[p.column, p.row].glyph == "●")
    #expect(!plain.text.contains("1,320 m"))
  }
}
