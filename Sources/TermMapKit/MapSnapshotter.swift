import DotRaster
import Foundation
import MapGeometry

/// Makes a picture of a map from any task (MKMapSnapshotter): overlays, tile overlays and
/// annotations drawn once into a ``MapSnapshotter/Snapshot``, with every tile loaded.
///
/// A `MapView` is a main-actor object that lives on screen. A snapshotter is for frames made
/// elsewhere — a server making map previews, a batch renderer running several at once. It runs
/// the map view's own frame pipeline (the same layer stack, tiles, labels and markers) inside
/// the task that calls ``start()``, with renderers of its own, so snapshots made in parallel
/// share nothing and a snapshot shows what a `MapView` of the same size, region and content
/// shows.
///
/// ```swift
/// var options = MapSnapshotter.Options(columns: 60, rows: 16)
/// options.region = CoordinateRegion(
///   center: Coordinate(latitude: 46.37, longitude: 13.84),
///   span: CoordinateSpan(latitudeDelta: 0.1, longitudeDelta: 0.2))
/// options.addOverlay(route)
/// options.annotations = [summit]
/// let snapshot = try await MapSnapshotter(options: options).start()
/// print(snapshot.text)
/// ```
///
/// Annotations are drawn as standard markers (`MarkerAnnotationView`'s look: the title as a
/// label, nearby markers counted as `+N`), or as the views ``Options/annotationViewProvider``
/// makes for them, as a map view draws its delegate's views; there is no selection or callout
/// in a snapshot.
public final class MapSnapshotter: Sendable {
  /// What to draw and how large (MKMapSnapshotter.Options).
  public struct Options: Sendable {
    /// The region to show, fitted to the size as `MapView.setRegion` fits it. Setting it
    /// clears ``mapRect``.
    public var region: CoordinateRegion? {
      didSet { if region != nil { mapRect = nil } }
    }
    /// The map rect to show, fitted with ``edgePadding`` as `MapView.setVisibleMapRect` fits
    /// it. Setting it clears ``region``.
    public var mapRect: MapRect? {
      didSet { if mapRect != nil { region = nil } }
    }
    /// Padding in dots around ``mapRect``.
    public var edgePadding: EdgeInsets = .zero
    /// The picture's width in terminal cells.
    public var columns: Int
    /// The picture's height in terminal cells.
    public var rows: Int
    /// How a cell's dots become a glyph.
    public var charset: Charset = .braille
    /// Which points of interest are named (as `MapView.pointOfInterestFilter`; nil: all).
    public var pointOfInterestFilter: PointOfInterestFilter? = nil
    /// The zoom levels the camera may take (as `MapView.zoomRange`).
    public var zoomRange: ClosedRange<Double> = 0...22
    /// The overlays, bottom first, with their levels (see ``addOverlay(_:level:)``).
    public private(set) var overlays: [(overlay: any Overlay, level: OverlayLevel)] = []
    /// The annotations, drawn as standard markers unless ``annotationViewProvider`` gives
    /// them views.
    public var annotations: [any Annotation & Sendable] = []
    /// Makes the view of each annotation on screen, once per snapshot (the map view delegate's
    /// `mapView(_:viewFor:)`; nil: the standard marker, or the annotation's own default view).
    /// Views are main-actor objects: the snapshot calls this on the main actor, reads what
    /// each view draws (glyph, colour, label after `prepareForDisplay()`, collision mode,
    /// priorities, offset), and draws them in its own task as a map view of the same content
    /// draws them. Nil (the default): every annotation is a standard marker, and the snapshot
    /// never waits for the main actor.
    public var annotationViewProvider: (@MainActor @Sendable (any Annotation) -> AnnotationView?)?
    /// Makes the renderer of each overlay, once per snapshot (the map view delegate's
    /// `mapView(_:rendererFor:)`); by default `MapView.defaultRenderer(for:)`. Each snapshot
    /// gets renderers of its own, so snapshots made at the same time share no tile state.
    public var rendererProvider: @Sendable (any Overlay) -> OverlayRenderer = {
      MapView.defaultRenderer(for: $0)
    }
    /// How long ``MapSnapshotter/start()`` waits for tiles before it gives up, in seconds
    /// (`.infinity`: as long as it takes; a negative or NaN timeout gives up at once).
    public var timeout: TimeInterval = 30

    /// Options for a picture of `columns` × `rows` cells showing the whole world.
    public init(columns: Int, rows: Int) {
      self.columns = max(columns, 1)
      self.rows = max(rows, 1)
    }

    /// Adds an overlay on top of those at its level (`.aboveLabels` by default, as
    /// `MapView.addOverlay(_:)`; tile overlays that are the map belong at `.aboveRoads`).
    public mutating func addOverlay(_ overlay: any Overlay, level: OverlayLevel = .aboveLabels) {
      overlays.append((overlay, level))
    }

    /// Adds overlays, in order, at one level.
    public mutating func addOverlays(
      _ overlays: [any Overlay], level: OverlayLevel = .aboveLabels
    ) {
      for o in overlays { addOverlay(o, level: level) }
    }
  }

  /// Why a snapshot could not be made.
  public enum SnapshotError: Error, CustomStringConvertible {
    /// Tiles were still loading when the options' timeout ran out.
    case timedOut(seconds: TimeInterval)
    /// A tile overlay's tile failed to load (the error its loader gave).
    case tileLoadFailed(any Error)

    /// One line saying what went wrong.
    public var description: String {
      switch self {
      case .timedOut(let s):
        return "map snapshot: tiles still loading after \(String(format: "%g", s)) s"
      case .tileLoadFailed(let e):
        return "map snapshot: a tile failed to load: \(SafeText.clean("\(e)"))"
      }
    }
  }

  /// The options this snapshotter draws with.
  public let options: Options

  /// A snapshotter for a set of options.
  public init(options: Options) {
    self.options = options
  }

  /// Draws the snapshot in the calling task: waits for every tile overlay's tiles, then makes
  /// the frame. Throws ``SnapshotError`` when tiles do not come in time or fail, and
  /// `CancellationError` when the task is cancelled.
  public func start() async throws -> Snapshot {
    let o = options
    let fit = CameraFit(
      widthInDots: Double(o.columns * CellGeometry.dotsWide),
      heightInDots: Double(o.rows * CellGeometry.dotsHigh), zoomRange: o.zoomRange)
    let (center, zoom) = fit.camera(region: o.region, mapRect: o.mapRect, padding: o.edgePadding)
    let viewport = Viewport(
      center: center, zoomScale: ZoomMath.zoomScale(forZoomLevel: zoom), columns: o.columns,
      rows: o.rows)
    let composer = FrameComposer()
    composer.charset = o.charset
    composer.pointOfInterestFilter = o.pointOfInterestFilter
    composer.reportsVisibleArea = false
    var renderers: [OverlayRenderer] = []
    for (overlay, level) in o.overlays {
      let id = ObjectIdentifier(overlay)
      guard composer.overlayStore.level(of: overlay) == nil else { continue }
      composer.overlayStore.levels[level.rawValue].append(overlay)
      // As a map view: renderers only for overlays that meet the screen.
      guard FrameComposer.meets(overlay, viewport.mapRect) else { continue }
      let r = o.rendererProvider(overlay)
      composer.overlayStore.renderers[id] = r
      renderers.append(r)
    }
    let deadline = Date().addingTimeInterval(o.timeout.isNaN ? 0 : max(o.timeout, 0))
    let content = FrameContent(
      markers: await Self.markers(
        o.annotations, viewport, viewProvider: o.annotationViewProvider))
    var frame = composer.compose(viewport, content: content)
    // As `MapView.renderCompleteFrame`: loads ask for their redraw before they count as ended,
    // so once none is in flight every redraw they need is already pending.
    // Whether what arrived was drawn once past the deadline (once only: then it gives up).
    var drewLate = false
    while true {
      try Task.checkCancellation()
      let loading = renderers.contains { $0.loadsInFlight > 0 }
      let pending = renderers.contains { $0.hasPendingInvalidations }
      if !loading && !pending && frame.statistics.tilesWaiting == 0 { break }
      // Tiles that arrived are drawn before the deadline is looked at (a task that was kept
      // waiting past it still finishes what is there).
      let late = Date() >= deadline
      if pending && !(late && drewLate) {
        drewLate = late
        frame = composer.compose(viewport, content: content)
        continue
      }
      if late { throw SnapshotError.timedOut(seconds: o.timeout) }
      try await Task.sleep(nanoseconds: 1_000_000)
    }
    for r in renderers {
      if let error = r.lookAtLoading().error { throw SnapshotError.tileLoadFailed(error) }
    }
    return Snapshot(
      buffer: frame.cells, viewport: viewport, attribution: frame.attribution,
      statistics: frame.statistics)
  }

  /// What a marker looks like and how it collides, read from a view (or the standard
  /// marker's), as a value.
  struct MarkerLook: Sendable {
    var glyph = StandardMarker.glyph
    var asciiGlyph = StandardMarker.asciiGlyph
    var color = StandardMarker.color
    var label: String?
    var collisionMode = CollisionMode.rectangle
    var displayPriority = StandardMarker.displayPriority
    var zPriority = StandardMarker.zPriority
    var centerOffset = (columns: 0, rows: 0)

    /// The standard marker of an annotation (`MarkerAnnotationView`: the title as its label).
    init(standardFor annotation: any Annotation) {
      label = annotation.title
    }

    /// What a view draws, once it is prepared for display.
    @MainActor init(_ v: AnnotationView) {
      glyph = v.glyph
      asciiGlyph = v.asciiGlyph
      color = v.color
      label = v.label
      collisionMode = v.collisionMode
      displayPriority = v.displayPriority
      zPriority = v.zPriority
      centerOffset = v.centerOffset
    }

    /// The look of an annotation's view as a map view makes it: the provider's view, else the
    /// annotation's own default view, else the standard marker.
    @MainActor static func made(
      for a: any Annotation, by provider: @MainActor (any Annotation) -> AnnotationView?
    ) -> MarkerLook {
      let made =
        provider(a) ?? (a as? any DefaultAnnotationViewProviding)?.makeDefaultAnnotationView()
      guard let v = made else { return MarkerLook(standardFor: a) }
      v.annotation = a
      v.prepareForDisplay()
      return MarkerLook(v)
    }
  }

  /// The markers of annotations on screen, as a map view lays out its marker views: one per
  /// screen cell (counting the others there), collisions resolved, lowest z first. Each looks
  /// as the view `viewProvider` makes for it (made on the main actor), or as the standard
  /// marker.
  static func markers(
    _ annotations: [any Annotation & Sendable], _ vp: Viewport,
    viewProvider: (@MainActor @Sendable (any Annotation) -> AnnotationView?)? = nil
  ) async -> [MarkerPlacement] {
    guard !annotations.isEmpty else { return [] }
    let index = AnnotationIndex()
    var numbers: [ObjectIdentifier: Int] = [:]
    for (n, a) in annotations.enumerated() {
      index.insert(a)
      numbers[ObjectIdentifier(a)] = n
    }
    var reps: [AnnotationIndex.Representative] = []
    var slots = [Int32](repeating: -1, count: vp.columns * vp.rows)
    for shift in vp.worldCopies {
      let r = vp.mapRect.offsetBy(dx: -shift, dy: 0).intersection(.world)
      guard !r.isNull else { continue }
      index.representatives(in: r, shift: shift, viewport: vp, into: &reps, slots: &slots)
    }
    // One marker per annotation: one seen in two copies of the world takes the count of the
    // last (as a map view's layout does).
    var order: [ObjectIdentifier] = []
    var present: [ObjectIdentifier: (any Annotation, Int)] = [:]
    for rep in reps {
      let a = index.annotation(inSlot: rep.slot)
      let id = ObjectIdentifier(a)
      if present[id] == nil { order.append(id) }
      present[id] = (a, rep.count)
    }
    var shown: [(annotation: any Annotation, represented: Int, column: Int, row: Int)] = []
    for id in order {
      guard let (a, represented) = present[id], let p = index.point(of: a), let c = vp.cell(for: p)
      else { continue }
      shown.append((a, represented, c.column, c.row))
    }
    var looks: [MarkerLook]
    if let viewProvider {
      let sendable = shown.compactMap { numbers[ObjectIdentifier($0.annotation)] }.map {
        annotations[$0]
      }
      looks = await MainActor.run {
        sendable.map { MarkerLook.made(for: $0, by: viewProvider) }
      }
    } else {
      looks = shown.map { MarkerLook(standardFor: $0.annotation) }
    }
    var candidates: [MarkerCandidate] = []
    var kept: [MarkerLook] = []
    for (s, look) in zip(shown, looks) {
      // As a map view: a marker moved off the screen by its offset is not drawn.
      let column = s.column + look.centerOffset.columns
      let row = s.row + look.centerOffset.rows
      guard column >= 0 && row >= 0 && column < vp.columns && row < vp.rows else { continue }
      candidates.append(
        MarkerCandidate(
          column: column, row: row,
          displayedLabel: Self.displayedLabel(look.label, others: s.represented - 1),
          collisionMode: look.collisionMode, priority: look.displayPriority, isSelected: false,
          representedCount: s.represented))
      kept.append(look)
    }
    let outcomes = MarkerCandidate.resolveCollisions(candidates, columns: vp.columns, rows: vp.rows)
    var out: [MarkerPlacement] = []
    for (n, c) in candidates.enumerated() where !outcomes[n].isHidden {
      let others = c.representedCount - 1 + outcomes[n].collidedCount
      let look = kept[n]
      out.append(
        MarkerPlacement(
          column: c.column, row: c.row, glyph: look.glyph, asciiGlyph: look.asciiGlyph,
          color: look.color, label: look.label,
          displayedLabel: Self.displayedLabel(look.label, others: others), others: others,
          z: look.zPriority))
    }
    out.sort(by: MarkerPlacement.drawingOrder)
    return out
  }

  /// A marker's label as drawn: its own label and `+N` for the others it stands for (as
  /// `AnnotationView.displayedLabel`).
  static func displayedLabel(_ label: String?, others: Int) -> String {
    let base = label ?? ""
    guard others > 0 else { return base }
    return base + (base.isEmpty ? "" : " ") + "+" + String(others)
  }
}

extension MapSnapshotter {
  /// A finished snapshot (MKMapSnapshotter.Snapshot): the frame as cells, text or ANSI, and the
  /// geometry to find a coordinate in it.
  public struct Snapshot: Sendable {
    /// The frame: one cell per terminal column and row.
    public let buffer: CellBuffer
    /// The frame's geometry (zoom scale, where the screen sits on the world's dot grid).
    public let viewport: Viewport
    /// Credit lines of the tile overlays that drew something (each once, in stack order).
    public let attribution: [String]
    /// What the frame cost.
    public let statistics: FrameStatistics

    /// The frame as plain text, one line per row.
    public var text: String { buffer.lines.joined(separator: "\n") }

    /// The frame as text with ANSI colour sequences (256 colours), one line per row.
    public var ansi: String { ansi(colors: .palette256) }

    /// The frame as text with ANSI colour sequences of a colour depth.
    public func ansi(colors: ColorDepth) -> String {
      buffer.ansiLines(colors: colors).joined(separator: "\n")
    }

    /// The cell showing a coordinate (where its marker would stand), or nil when it is outside
    /// the snapshot.
    public func point(for coordinate: Coordinate) -> (column: Int, row: Int)? {
      viewport.cell(for: MapPoint(coordinate))
    }

    /// The dot showing a coordinate, in the frame's dots (2 × 4 per cell), even outside it.
    public func dot(for coordinate: Coordinate) -> Point2D {
      viewport.dot(for: MapPoint(coordinate))
    }
  }

}

/// How a screen of a size fits rects and regions (the rules of `MapView.setRegion` and
/// `setVisibleMapRect`, without an actor).
struct CameraFit {
  let widthInDots: Double
  let heightInDots: Double
  let zoomRange: ClosedRange<Double>

  /// The rect a region is shown as: the same centre, the span grown to the screen's shape.
  func fittedRect(for region: CoordinateRegion) -> MapRect {
    let c = MapPoint(region.center)
    let r = region.mapRect
    // Mercator stretches latitudes unevenly, so the centre is not r's midpoint in y: fit the
    // smallest rect centred on c that holds all of r, or an edge of the region is cut off.
    let halfHeight = max(c.y - r.minY, r.maxY - c.y)
    let held = MapRect(
      x: c.x - r.width / 2, y: c.y - halfHeight, width: r.width, height: 2 * halfHeight)
    let s = clampScale(fitScale(for: held))
    let w = widthInDots / s
    let h = heightInDots / s
    return MapRect(x: c.x - w / 2, y: c.y - h / 2, width: w, height: h)
  }

  /// The zoom scale at which a rect (with padding) just fits the screen.
  func fitScale(for rect: MapRect, edgePadding: EdgeInsets = .zero) -> Double {
    let w = max(widthInDots - edgePadding.left - edgePadding.right, 1)
    let h = max(heightInDots - edgePadding.top - edgePadding.bottom, 1)
    guard !rect.isNull, rect.width > 0 || rect.height > 0 else {
      return ZoomMath.zoomScale(forZoomLevel: zoomRange.upperBound)
    }
    let sx = rect.width > 0 ? w / rect.width : .infinity
    let sy = rect.height > 0 ? h / rect.height : .infinity
    return min(sx, sy)
  }

  /// The centre that puts a rect in the middle of the padded screen.
  func paddedCenter(of rect: MapRect, scale s: Double, edgePadding p: EdgeInsets) -> MapPoint {
    MapPoint(x: rect.midX + (p.right - p.left) / 2 / s, y: rect.midY + (p.bottom - p.top) / 2 / s)
  }

  /// A zoom scale kept inside the zoom range.
  func clampScale(_ s: Double) -> Double {
    let z = min(
      max(ZoomMath.zoomLevel(forZoomScale: s), zoomRange.lowerBound), zoomRange.upperBound)
    return ZoomMath.zoomScale(forZoomLevel: z)
  }

  /// The camera (centre, zoom level) for a region or a rect, as a new `MapView` given it
  /// would take (the whole world when neither is given): x wrapped onto the world, y kept on
  /// it, the zoom inside the zoom range.
  func camera(region: CoordinateRegion?, mapRect: MapRect?, padding: EdgeInsets) -> (
    MapPoint, Double
  ) {
    var center = MapRect.world.mid
    var zoom = ZoomMath.zoomLevel(forZoomScale: fitScale(for: .world))
    if let region {
      let rect = fittedRect(for: region)
      center = MapPoint(region.center)
      zoom = ZoomMath.zoomLevel(forZoomScale: widthInDots / rect.width)
    } else if let rect = mapRect, !rect.isNull {
      let s = clampScale(fitScale(for: rect, edgePadding: padding))
      center = paddedCenter(of: rect, scale: s, edgePadding: padding)
      zoom = ZoomMath.zoomLevel(forZoomScale: s)
    }
    let z = min(max(zoom, zoomRange.lowerBound), zoomRange.upperBound)
    let w = MapSize.world.width
    var x = center.x.truncatingRemainder(dividingBy: w)
    if x < 0 { x += w }
    let y = min(max(center.y, 0), w)
    return (MapPoint(x: x, y: y), z)
  }
}
