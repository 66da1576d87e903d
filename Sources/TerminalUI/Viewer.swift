import DotRaster
import Foundation
import LiveLayers
import MapData
import MapGeometry
import MapTiles
import Synchronization
import TermMapKit

/// How the viewer starts.
public struct ViewerOptions: Sendable {
  public var files: [String] = []
  public var center: Coordinate?
  public var zoom: Double?
  public var bbox: MapRect?
  public var charset: Charset?
  /// Hide route overlays while the region changes (the seed's delegate policy).
  public var hideRoutesDuringChanges = true
  /// How long without movement ends a gesture (a key burst or a drag), in milliseconds.
  public var settleMilliseconds = 150
  /// A file that receives one line per delegate event and frame, for tests.
  public var eventLogPath: String?
  public var dataDirectory: URL?
  /// `/` also searches the names of the stored regions (``RegionNames/stored(environment:)``).
  public var searchesStoredRegions = false
  /// Said on the status line at the start (15 s): the offline map could not be found.
  public var missingMapMessage: String?
  /// Whether `D` downloads the region in view into the regions folder (off for sessions of
  /// `termmap serve`: a session never makes the server fetch or write anything).
  public var allowsDownloads = true
  /// The files' waypoints join in clusters where their markers collide (MapKit's
  /// clustering); false: a marker that collides is hidden and counted as `+N`.
  public var clustersMarkers = true
  /// The language of vector tiles' labels, given to each vector tile renderer the map makes
  /// (`VectorTileRenderer.language`); nil: as the overlays say (`SourceTileOverlay.language`).
  /// `termmap serve` sets it from each session's locale.
  public var labelLanguage: String?
  /// `termmap pick`: Enter picks the selected marker's GeoJSON feature (or the centre) and
  /// ends the viewer with status 0; Esc or `q` ends it with 1 (PickPanel).
  public var picks = false

  public init() {}
}

/// A line for the status line, shown until a time or until the situation it describes ends.
struct StatusMessage {
  let text: String
  let until: Date
  let ends: (@MainActor () -> Bool)?
}

/// A file's contents handed from the loading thread to the main loop; built on one thread and
/// passed over whole, never shared.
struct Handoff<T>: @unchecked Sendable {
  let value: T
}

/// A flag other threads raise to ask the main loop for a frame.
final class Flag: Sendable {
  private let value = Atomic<Bool>(false)
  func set() { value.store(true, ordering: .relaxed) }
  /// Reads and lowers the flag.
  func take() -> Bool { value.exchange(false, ordering: .relaxed) }
}

/// One value handed from a background queue to the main loop.
final class Slot<T>: Sendable {
  private let value = Mutex<Handoff<T>?>(nil)
  func put(_ v: T) { value.withLock { $0 = Handoff(value: v) } }
  /// The value, once, if it has arrived.
  func take() -> T? {
    value.withLock { v in
      defer { v = nil }; return v?.value
    }
  }
}

/// How far each loading file has got, written by loaders and read by the status line.
final class ProgressBoard: Sendable {
  private let fractions = Mutex<[String: Double]>([:])
  /// Records progress; true when it moved by a whole percent (worth a redraw).
  func update(_ path: String, _ f: Double) -> Bool {
    fractions.withLock { d in
      let old = d[path] ?? 0
      d[path] = f
      return Int(f * 100) != Int(old * 100)
    }
  }
  func finish(_ path: String) { _ = fractions.withLock { $0.removeValue(forKey: path) } }
  /// The mean fraction of the files still loading (nil when none is).
  var overall: Double? {
    fractions.withLock { d in d.isEmpty ? nil : d.values.reduce(0, +) / Double(d.count) }
  }
}

/// Results of background loads, collected under a mutex and drained by the main loop.
final class LoadInbox: Sendable {
  /// A file's content or its error; `index` is the file's place on the command line.
  enum Item {
    case loaded(MapContent, index: Int)
    case failed(path: String, error: String, index: Int)

    var index: Int {
      switch self {
      case .loaded(_, let i), .failed(_, _, let i): return i
      }
    }
  }
  private let items = Mutex<[Handoff<Item>]>([])
  func post(_ item: Item) { items.withLock { $0.append(Handoff(value: item)) } }
  func drain() -> [Item] {
    items.withLock { i in
      defer { i.removeAll() }; return i.map(\.value)
    }
  }
}

/// The interactive viewer, free of any terminal: it takes input events (keys, the mouse, a new
/// size) and makes frames into a cell buffer. A front drives it: `TerminalFront` on this
/// process's terminal (ncurses, signals), another over a network connection. The map view's
/// delegate; its panels (Panel.swift) read their own keys and draw themselves.
///
/// A front calls `start()` once, then in each turn of its loop `handle(_:)` for every input
/// event (`resize(columns:rows:)` for a new size) and `turn(afterInput:)`, which answers the
/// frame to show when one is due; it waits `inputTimeout` ms for input at most, and stops when
/// `isRunning` is false (`stop(exitStatus:)` on a signal), calling `finish()`.
@MainActor
public final class Viewer: MapViewDelegate {
  let options: ViewerOptions
  /// The size of the frames, in cells (the front's terminal).
  private(set) var columns: Int
  private(set) var rows: Int
  /// Whether the front's terminal shows braille and other non-ASCII glyphs.
  let unicode: Bool
  /// The time, for settling gestures and expiring messages (tests set their own).
  var clock: () -> Date = { Date() }
  var lastFrame = Date.distantPast
  var dirty = true
  /// The front must draw the next frame whole (the charset changed).
  var repaintRequested = false
  public let map: MapView
  /// Overlays from data files (the routes that hide during region changes).
  var routes: [any Overlay] = []
  let styler = ContentStyler()
  var routesEnabled = true
  var routesShown = true
  var loadedPoints = 0
  var pendingLoads = 0
  var loadProgressBoard: ProgressBoard?
  let inbox = LoadInbox()
  /// Loads that finished before a file given earlier: they wait, so files go on the map (and
  /// into the layer list and the profile) in the order they were given.
  var heldLoads: [Int: LoadInbox.Item] = [:]
  var nextLoadIndex = 0
  var fittedOnce = false
  var message: StatusMessage?
  /// The region being downloaded (the `D` key, Viewer+Download), or the last one.
  var download: RegionDownload?
  /// The download's tiles drawn while it runs, and how many ranges it showed when.
  var partialOverlay: SourceTileOverlay?
  var partialShown = (count: 0, at: Date.distantPast)
  /// Region changes so far (messages about a view end when it changes).
  var regionChanges = 0
  /// Files that could not be read, with their one-line errors, in the order the files were given.
  var loadFailures: [(path: String, error: String)] = []
  var loadErrors: [String] { loadFailures.map(\.error) }
  /// The open panels (Panel.swift): the focus stack.
  var panels = PanelStack()
  /// The profile and the layer list keep their state while closed (the track, the row).
  let profilePanel = ProfilePanel()
  let layerList = LayerListPanel()
  var pointer: (column: Int, row: Int)?
  var drag: (column: Int, row: Int, moved: Bool)?
  /// The mouse drag moves a marker (`MapView.beginDrag(atColumn:row:)` took it), not the map.
  var dragsMarker = false
  var lastMove = Date.distantPast
  var running = true
  var exitCode: Int32 = 0
  var eventLog: FileHandle?
  var gazetteer: Gazetteer?
  var gazetteerError: String?
  let gazetteerInbox = Slot<Result<Gazetteer, any Error>>()
  /// A load of the gazetteer is under way.
  var gazetteerLoading = false
  /// A region was stored while the gazetteer loaded: its result is dropped and the gazetteer
  /// read again, with the region's names (one load at a time).
  var gazetteerStale = false
  let displayRequested = Flag()
  /// The track tool: profile, layers, measuring, colouring (Viewer+Track.swift).
  var track = TrackToolState()
  /// The live position (`--follow`; Viewer+Location).
  var live: LiveSession?
  /// The live layers (`--layer`; Viewer+LiveLayers).
  let liveLayers = LiveLayerState()
  /// More location events wait than one turn of the loop takes.
  var locationPending = false
  /// The marker the map follows (`f` on a selected marker; TargetsPanel.swift), and where it
  /// was when the map last centred it.
  var followedTarget: (any Annotation)?
  var followedPoint: MapPoint?
  /// Key and mouse events received so far.
  var inputEvents = 0
  /// `termmap pick`: the feature picked (one line of GeoJSON), once the viewer has ended.
  public internal(set) var pickedFeature: String?

  /// A viewer making frames of `columns` × `rows` cells for a terminal that shows Unicode or
  /// not.
  public init(options: ViewerOptions, columns: Int, rows: Int, unicode: Bool) {
    self.options = options
    self.columns = columns
    self.rows = rows
    self.unicode = unicode
    map = MapView(columns: max(columns, 1), rows: max(rows - 1, 1))
    map.zoomRange = Viewer.zoomRange
    if let c = options.charset {
      map.charset = c
    } else {
      map.charset = unicode ? .braille : .ascii
    }
    if let path = options.eventLogPath {
      _ = FileManager.default.createFile(atPath: path, contents: nil)
      eventLog = FileHandle(forWritingAtPath: path)
      eventLog?.write(Data("pid \(getpid())\n".utf8))
    }
    map.delegate = self
    map.showsCallouts = false
    let flag = displayRequested
    map.displayRequestHandler = { flag.set() }
  }

  func log(_ line: String) {
    eventLog?.write(Data((line + "\n").utf8))
  }

  // MARK: Start and turns

  /// Whether the event log is on (the front then measures the bytes of each frame).
  var logsEvents: Bool { eventLog != nil }

  /// False once `q` was pressed or `stop(exitStatus:)` called.
  public var isRunning: Bool { running }

  /// The exit status: 0 after `q`.
  public var exitStatus: Int32 { exitCode }

  /// Ends the viewer with a status (a front's signal: 128 + its number).
  public func stop(exitStatus: Int32) {
    exitCode = exitStatus
    running = false
  }

  /// How long a front may wait for input before the next turn, in milliseconds: while
  /// animating, in time for the next frame; while location events wait, not at all.
  public var inputTimeout: Int32 { locationPending ? 0 : map.isAnimating ? 16 : 30 }

  /// The next frame is drawn even if nothing changed (the terminal lost what it showed).
  public func setNeedsFrame() { dirty = true }

  /// True once after the viewer asked for the next frame to be drawn whole (not as a
  /// difference from the last), when the charset changed.
  public func takeRepaintRequest() -> Bool {
    defer { repaintRequested = false }
    return repaintRequested
  }

  /// Places the first view and starts reading the files and the place names.
  public func start() {
    placeInitially()
    startLoading()
    if gazetteer == nil { startLoadingGazetteer() }
    startLocation()
    if let m = options.missingMapMessage { show(SafeText.clean(m), seconds: 15) }
    if options.picks {
      open(PickPanel())
      // Until the first key or mouse event (the status line is then the map's again).
      show(
        "pick: Enter prints the selected marker (or the centre) · Esc or q cancels", seconds: 8
      ) { [unowned self] in inputEvents > 0 }
    }
  }

  /// Stops the location source and finishes its recording (after the front has given the
  /// terminal back).
  public func finish() {
    stopLocation()
  }

  /// The frame size changed.
  public func resize(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
    dirty = true
  }

  /// The rest of one turn of a front's loop, after its input: takes what background work
  /// delivered, settles a gesture, steps an animation, expires messages, and answers the
  /// frame when anything changed (nil: the last one still stands). While location events
  /// wait (a source faster than the screen), frames are made at most every 50 ms unless
  /// `input` came: the time goes to the events.
  public func turn(afterInput input: Bool) -> CellBuffer? {
    if receiveLoads() { dirty = true }
    if receiveGazetteer() { dirty = true }
    if receiveDownload() { dirty = true }
    let now = clock()
    if receiveLocation(now: now) { dirty = true }
    // A key's frame is not kept waiting for the live layers (a flood changes thousands of
    // targets a turn): after input they are taken at most every 100 ms.
    if !input || now.timeIntervalSince(liveLayers.lastSync) >= 0.1 {
      liveLayers.lastSync = now
      if receiveLiveLayers() { dirty = true }
    }
    if keepTargetCentred() { dirty = true }
    if map.isInteracting
      && now.timeIntervalSince(lastMove) * 1000 >= Double(options.settleMilliseconds)
      && drag == nil
    {
      map.endUserInteraction()
      dirty = true
    }
    if map.isAnimating && now.timeIntervalSince(lastFrame) >= 0.016 {
      map.advanceAnimation()
      dirty = true
    }
    if displayRequested.take() { dirty = true }
    map.processLoadingEvents()
    if expireMessage(now: now) { dirty = true }
    let throttled = locationPending && !input && now.timeIntervalSince(lastFrame) < 0.05
    guard (dirty || map.needsDisplay) && !throttled else { return nil }
    let frame = makeFrame()
    lastFrame = now
    dirty = false
    return frame
  }

  /// The first view: the given position, or the world until files arrive and are fitted.
  func placeInitially() {
    if let b = options.bbox {
      map.setVisibleMapRect(b, animated: false)
      fittedOnce = true
      return
    }
    map.setVisibleMapRect(.world, animated: false)
    if let c = options.center {
      map.setCenter(c, animated: false)
      map.setZoomLevel(options.zoom ?? 10, animated: false)
    } else if let z = options.zoom {
      map.setZoomLevel(z, animated: false)
    }
    // With both given, or nothing to fit, this is the view; else the fit decides the rest.
    fittedOnce = (options.center != nil && options.zoom != nil) || options.files.isEmpty
  }

  /// The view once the files have loaded: all of them, then --center or --zoom if given.
  func fitLoaded() {
    fittedOnce = true
    guard !map.contentMapRect.isNull else { return }
    map.showAllContent(animated: false)
    if let c = options.center { map.setCenter(c, animated: false) }
    if let z = options.zoom { map.setZoomLevel(z, animated: false) }
  }

  /// Reads every file on a background queue; results arrive through the inbox.
  func startLoading() {
    pendingLoads = options.files.count
    let inbox = self.inbox
    let flag = displayRequested
    let progress = ProgressBoard()
    loadProgressBoard = progress
    for (index, path) in options.files.enumerated() {
      DispatchQueue.global().async {
        do {
          let content = try MapContentLoader.load(path: path) { fraction in
            if progress.update(path, fraction) { flag.set() }
          }
          progress.finish(path)
          inbox.post(.loaded(content, index: index))
        } catch let e as DataFileError {
          progress.finish(path)
          inbox.post(.failed(path: path, error: e.description, index: index))
        } catch {
          progress.finish(path)
          inbox.post(.failed(path: path, error: "\(path): \(error)", index: index))
        }
        flag.set()
      }
    }
  }

  /// Reads the place names, and the stored regions' names when the options say so, on a
  /// background queue (a few hundred milliseconds), so the search prompt never waits for them.
  func startLoadingGazetteer() {
    let dir = options.dataDirectory
    let regions = options.searchesStoredRegions && !Regions.paths().isEmpty
    guard dir != nil || regions else {
      gazetteerError = "no place names: places.tsv.gz not found (set TERMMAP_DATA)"
      return
    }
    let flag = displayRequested
    let slot = gazetteerInbox
    gazetteerLoading = true
    DispatchQueue.global().async {
      // An unreadable index is left out: the other names are still found.
      let indexes = regions ? RegionNames.stored().indexes : []
      slot.put(Result { try Gazetteer(directory: dir, regions: indexes) })
      flag.set()
    }
  }

  /// Takes the gazetteer when it has arrived, and refreshes an open prompt's matches.
  func receiveGazetteer() -> Bool {
    guard gazetteer == nil, gazetteerError == nil, let arrived = gazetteerInbox.take() else {
      return false
    }
    gazetteerLoading = false
    if gazetteerStale {
      gazetteerStale = false
      startLoadingGazetteer()
      return false
    }
    switch arrived {
    case .success(let g): gazetteer = g
    case .failure(let e): gazetteerError = "no place names: \(e)"
    }
    panels.first(SearchPanel.self)?.refresh(viewer: self)
    return true
  }

  /// Puts loaded files on the map; returns true when anything arrived.
  func receiveLoads() -> Bool {
    for item in inbox.drain() { heldLoads[item.index] = item }
    var items: [LoadInbox.Item] = []
    while let next = heldLoads.removeValue(forKey: nextLoadIndex) {
      items.append(next)
      nextLoadIndex += 1
    }
    guard !items.isEmpty else { return false }
    var failed: [(path: String, error: String)] = []
    for item in items {
      pendingLoads -= 1
      switch item {
      case .loaded(let content, _):
        styler.add(content)
        trackLoaded(content)
        for o in content.overlays {
          routes.append(o)
          map.addOverlay(o)
        }
        if let w = content.warnings.first {
          show(
            content.warnings.count == 1 ? w : "\(w) (and \(content.warnings.count - 1) more)",
            seconds: 8)
        }
        for a in content.annotations {
          a.detailLines = a.detailLines.map(Viewer.calloutLine)
        }
        map.addAnnotations(content.annotations)
        loadedPoints += content.pointCount
      case .failed(let path, let text, _):
        failed.append((path, text))
      }
    }
    if !failed.isEmpty {
      // Every failure is kept, in the order the files were given (they finish in any order).
      let order = Dictionary(
        options.files.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
      loadFailures = (loadFailures + failed).enumerated().sorted {
        (order[$0.element.path] ?? 0, $0.offset) < (order[$1.element.path] ?? 0, $1.offset)
      }.map(\.element)
      let errors = loadErrors
      show(
        errors.count == 1
          ? errors[0] : "\(errors.count) files could not be read (? lists them): \(errors[0])",
        seconds: 8)
    }
    if pendingLoads == 0 && !fittedOnce { fitLoaded() }
    return true
  }

  /// A callout detail line as the viewer shows it: the height is "elevation" whatever the
  /// format called it (KML says "altitude"), and never "-0 m".
  nonisolated static func calloutLine(_ line: String) -> String {
    var l = line
    if l.hasPrefix("altitude ") { l = "elevation " + l.dropFirst("altitude ".count) }
    if l == "elevation -0 m" { l = "elevation 0 m" }
    return l
  }

  /// Shows a message on the status line for `seconds`, or less: until `ends` says the situation
  /// it describes is over.
  func show(_ text: String, seconds: Double = 4, endsWhen ends: (@MainActor () -> Bool)? = nil) {
    message = StatusMessage(text: text, until: clock().addingTimeInterval(seconds), ends: ends)
  }

  /// Shows a note on the status line for `seconds` (control characters replaced): what the
  /// program that made the map has to say, such as the style's layers that are not drawn.
  public func showNote(_ text: String, seconds: Double = 8) {
    show(SafeText.clean(text), seconds: seconds)
  }

  /// Shows a message about the current view: it goes when the region next changes.
  func showAboutView(_ text: String, seconds: Double = 4) {
    let at = regionChanges
    show(text, seconds: seconds) { [unowned self] in regionChanges != at }
  }

  /// Clears the message when its time is up or its situation has ended; true when it went.
  func expireMessage(now: Date) -> Bool {
    guard let m = message, m.until < now || m.ends?() == true else { return false }
    message = nil
    return true
  }

  // MARK: Delegate: the seed's route policy

  public func mapView(_ mapView: MapView, regionWillChangeAnimated animated: Bool) {
    regionChanges += 1
    log("will animated=\(animated)")
    if options.hideRoutesDuringChanges { setRoutesShown(false) }
  }

  public func mapViewDidFailLoadingMap(_ mapView: MapView, withError error: any Error) {
    // About the tiles of this view: it goes when the view changes.
    showAboutView("tiles: \(error)", seconds: 8)
  }

  public func mapViewDidFinishRenderingMap(_ mapView: MapView, fullyRendered: Bool) {
    // For the event log's readers (end-to-end tests): whether the map on screen is complete.
    if logsEvents { log("rendered fully=\(fullyRendered)") }
  }

  public func mapViewDidChangeVisibleRegion(_ mapView: MapView) {
    log("visible")
  }

  public func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool) {
    log("did animated=\(animated)")
    setRoutesShown(routesEnabled)
  }

  func setRoutesShown(_ shown: Bool) {
    routesShown = shown
    for o in routes { map.renderer(for: o)?.alpha = shown ? 1 : 0 }
  }

  public func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
    // Live layers' lines and areas, and their targets' trails: in their own colours (the
    // simplestyle ones, the markers'), shown whatever the routes toggle says (the layer
    // list's row for the live layer shows and hides them).
    if overlay is LiveShape || overlay is LiveTrails {
      return MapView.defaultRenderer(for: overlay)
    }
    if let r = measureRenderer(for: overlay) ?? colouredRenderer(for: overlay) { return r }
    let r = styler.renderer(for: overlay)
    r.alpha = routesShown ? 1 : 0
    return r
  }

  public func mapView(_ mapView: MapView, didAdd renderers: [OverlayRenderer]) {
    guard let language = options.labelLanguage else { return }
    for case let r as VectorTileRenderer in renderers { r.language = language }
  }

  public func mapView(_ mapView: MapView, viewFor annotation: any Annotation) -> AnnotationView? {
    if annotation is UserLocation { return nil }  // the map's own marker (Viewer+Location)
    if annotation is ClusterAnnotation { return nil }  // the standard cluster marker
    if annotation is any DefaultAnnotationViewProviding { return nil }  // live targets
    let view = styler.view(for: annotation, on: mapView)
    // Waypoints from files: dragged by the mouse or `M`, and clustered where they are dense.
    view?.isDraggable = annotation is any MovableAnnotation
    view?.clusteringIdentifier = options.clustersMarkers ? Viewer.markerClusters : nil
    return view
  }

  /// The clustering identifier of the files' waypoints.
  static let markerClusters = "termmap.waypoints"

  public func mapView(
    _ mapView: MapView, annotationView view: AnnotationView,
    didChange newState: AnnotationView.DragState, fromOldState oldState: AnnotationView.DragState
  ) {
    log("drag \(view.annotation?.title ?? "") \(oldState) -> \(newState)")
  }

  public func mapView(_ mapView: MapView, didSelect view: AnnotationView) {
    log("select \(view.annotation?.title ?? "")")
  }

  public func mapView(_ mapView: MapView, didDeselect view: AnnotationView) {
    closeCallout()
    log("deselect")
  }

  /// The callout's accessory: zoom to the annotation.
  public func mapView(
    _ mapView: MapView, annotationView view: AnnotationView,
    calloutAccessoryControlTapped control: CalloutAccessory
  ) {
    guard let a = view.annotation else { return }
    log("accessory \(a.title ?? "")")
    if let cluster = a as? ClusterAnnotation {
      // A cluster's accessory shows its members.
      map.showAnnotations(cluster.memberAnnotations, animated: true)
      return
    }
    map.setCenter(a.coordinate, animated: true)
    map.setZoomLevel(max(map.zoomLevel, 16), animated: true)
  }

  // MARK: Frame

  /// The frame: the map, the status line, the panels bottom to top.
  func makeFrame() -> CellBuffer {
    var frame = CellBuffer(columns: columns, rows: rows)
    if columns < Viewer.minimumColumns || rows < Viewer.minimumRows {
      drawTooSmall(into: &frame)
      return frame
    }
    let mapRows = rows - 1 - dockedRows(totalRows: rows)
    if map.columns != columns || map.rows != mapRows {
      map.resize(columns: columns, rows: mapRows)
    }
    let mapFrame = map.renderFrame()
    for r in 0..<mapFrame.rows {
      for c in 0..<mapFrame.columns { frame[c, r] = mapFrame[c, r] }
    }
    log("frame routes=\(routes.isEmpty ? "none" : routesShown ? "shown" : "hidden")")
    drawStatus(into: &frame)
    drawTrackStatus(into: &frame)
    drawPanels(into: &frame)
    return frame
  }

  /// Zoom levels the viewer (and render) allow: below 0, so the whole world fits a small
  /// terminal (80 × 24 needs −1.5, the minimum 20 × 6 nearly −4).
  public nonisolated static let zoomRange: ClosedRange<Double> = -4...22

  static let minimumColumns = 20
  static let minimumRows = 6
}
