import DotRaster
import Foundation
import MapGeometry
import Synchronization
import Testing

@testable import TermMapKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An identity for the calling thread.
func currentThreadID() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}

/// Records what a map view tells its delegate, in order.
@MainActor
final class RecordingDelegate: MapViewDelegate {
  enum Event: Equatable, CustomStringConvertible {
    case will(animated: Bool)
    case visible
    case did(animated: Bool)
    case rendererFor(ObjectIdentifier)
    case addedRenderers([ObjectIdentifier])
    case viewFor(ObjectIdentifier)
    case addedViews(Int)
    case select(ObjectIdentifier)
    case deselect(ObjectIdentifier)
    case accessory(String)
    case startRendering
    case finishRendering(fully: Bool)

    var description: String {
      switch self {
      case .will(let a): return "will(\(a))"
      case .visible: return "visible"
      case .did(let a): return "did(\(a))"
      case .rendererFor: return "rendererFor"
      case .addedRenderers(let r): return "addedRenderers(\(r.count))"
      case .viewFor: return "viewFor"
      case .addedViews(let n): return "addedViews(\(n))"
      case .select: return "select"
      case .deselect: return "deselect"
      case .accessory(let s): return "accessory(\(s))"
      case .startRendering: return "startRendering"
      case .finishRendering(let f): return "finishRendering(\(f))"
      }
    }

    var isRegionEvent: Bool {
      switch self {
      case .will, .visible, .did: return true
      default: return false
      }
    }
  }

  var events: [Event] = []
  /// Makes the renderer for an overlay (the standard one when nil).
  var makeRenderer: ((any Overlay) -> OverlayRenderer)?
  /// Makes the view for an annotation (the standard one when nil).
  var makeView: ((MapView, any Annotation) -> AnnotationView?)?
  /// Called with the map at each visible-region change (to render intermediate frames).
  var onVisibleRegionChange: ((MapView) -> Void)?

  var regionEvents: [Event] { events.filter(\.isRegionEvent) }
  func clear() { events.removeAll() }

  func mapView(_ mapView: MapView, regionWillChangeAnimated animated: Bool) {
    events.append(.will(animated: animated))
  }
  func mapViewDidChangeVisibleRegion(_ mapView: MapView) {
    events.append(.visible)
    onVisibleRegionChange?(mapView)
  }
  func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool) {
    events.append(.did(animated: animated))
  }
  func mapView(_ mapView: MapView, rendererFor overlay: any Overlay) -> OverlayRenderer {
    events.append(.rendererFor(ObjectIdentifier(overlay)))
    return makeRenderer?(overlay) ?? MapView.defaultRenderer(for: overlay)
  }
  func mapView(_ mapView: MapView, didAdd renderers: [OverlayRenderer]) {
    events.append(.addedRenderers(renderers.map { ObjectIdentifier($0) }))
  }
  func mapView(_ mapView: MapView, viewFor annotation: any Annotation) -> AnnotationView? {
    events.append(.viewFor(ObjectIdentifier(annotation)))
    return makeView?(mapView, annotation)
  }
  func mapView(_ mapView: MapView, didAdd views: [AnnotationView]) {
    events.append(.addedViews(views.count))
  }
  func mapView(_ mapView: MapView, didSelect view: AnnotationView) {
    if let a = view.annotation { events.append(.select(ObjectIdentifier(a))) }
  }
  func mapView(_ mapView: MapView, didDeselect view: AnnotationView) {
    if let a = view.annotation { events.append(.deselect(ObjectIdentifier(a))) }
  }
  func mapView(
    _ mapView: MapView, annotationView view: AnnotationView,
    calloutAccessoryControlTapped control: CalloutAccessory
  ) {
    events.append(.accessory(control.symbol))
  }
  func mapViewWillStartRenderingMap(_ mapView: MapView) { events.append(.startRendering) }
  func mapViewDidFinishRenderingMap(_ mapView: MapView, fullyRendered: Bool) {
    events.append(.finishRendering(fully: fullyRendered))
  }
}

/// An overlay with a given bounding rect (and, optionally, a narrower `intersects`).
final class BoxOverlay: Overlay {
  let boundingMapRect: MapRect
  let hitRect: MapRect?
  init(_ rect: MapRect, hitRect: MapRect? = nil) {
    boundingMapRect = rect
    self.hitRect = hitRect
  }
  func intersects(_ mapRect: MapRect) -> Bool {
    (hitRect ?? boundingMapRect).intersects(mapRect)
  }
}

/// One `draw` call as a renderer saw it.
struct DrawCall: Sendable {
  let rect: MapRect
  let zoomScale: Double
  let thread: UInt
  let clip: DotRect
}

/// A renderer that records its draw calls (from any thread) and can be told to wait, to sleep
/// while drawing, or to paint something.
final class RecordingRenderer: OverlayRenderer, @unchecked Sendable {
  struct State {
    var calls: [DrawCall] = []
    var canDrawCalls = 0
    var ready = true
    var threads = Set<UInt>()
    var stoppedWaiting = false
  }
  let state = Mutex(State())
  /// Hold the first thread's draw until a second thread draws too, so a test of concurrency
  /// does not depend on how busy the machine is. The bound (60 s) is a failure bound: on a
  /// machine at load 17 a second worker may wait seconds for a core (two seconds
  /// can be too few), and only a map drawing on one thread waits it out.
  let awaitSecondThread: Bool
  /// Seconds each draw sleeps (so concurrent tiles overlap in time).
  let sleep: Double
  /// What to paint in each tile (nil paints nothing).
  let paint: (@Sendable (OverlayRenderer, MapRect, Double, DrawingContext) -> Void)?

  init(
    overlay: any Overlay, sleep: Double = 0,
    paint: (@Sendable (OverlayRenderer, MapRect, Double, DrawingContext) -> Void)? = nil,
    awaitSecondThread: Bool = false
  ) {
    self.sleep = sleep
    self.awaitSecondThread = awaitSecondThread
    self.paint = paint
    super.init(overlay: overlay)
  }

  var calls: [DrawCall] { state.withLock { $0.calls } }
  var canDrawCalls: Int { state.withLock { $0.canDrawCalls } }
  func resetCalls() { state.withLock { $0.calls.removeAll() } }
  var ready: Bool {
    get { state.withLock { $0.ready } }
    set { state.withLock { $0.ready = newValue } }
  }

  override func canDraw(_ mapRect: MapRect, zoomScale: Double) -> Bool {
    state.withLock { s in
      s.canDrawCalls += 1
      return s.ready
    }
  }

  override func draw(_ mapRect: MapRect, zoomScale: Double, in context: DrawingContext) {
    let call = DrawCall(
      rect: mapRect, zoomScale: zoomScale, thread: currentThreadID(), clip: context.clipBounds)
    state.withLock {
      $0.calls.append(call)
      $0.threads.insert(call.thread)
    }
    if awaitSecondThread {
      let deadline = Date().addingTimeInterval(60)
      while Date() < deadline {
        let done = state.withLock { $0.threads.count > 1 || $0.stoppedWaiting }
        if done { break }
        Thread.sleep(forTimeInterval: 0.001)
      }
      state.withLock { $0.stoppedWaiting = true }
    }
    if sleep > 0 { Thread.sleep(forTimeInterval: sleep) }
    paint?(self, mapRect, zoomScale, context)
  }
}

/// A map view of a size showing a map rect (fitted), with a recording delegate.
@MainActor
func makeMap(columns: Int = 60, rows: Int = 20, delegate: RecordingDelegate? = nil) -> MapView {
  let map = MapView(columns: columns, rows: rows)
  map.delegate = delegate
  return map
}

/// Coordinates close to each other, for comparisons of degrees.
func close(_ a: Coordinate, _ b: Coordinate, _ tolerance: Double = 1e-9) -> Bool {
  abs(a.latitude - b.latitude) <= tolerance && abs(a.longitude - b.longitude) <= tolerance
}

/// Regions close to each other (centres and spans).
func close(_ a: CoordinateRegion, _ b: CoordinateRegion, _ tolerance: Double = 1e-9) -> Bool {
  close(a.center, b.center, tolerance)
    && abs(a.span.latitudeDelta - b.span.latitudeDelta) <= tolerance
    && abs(a.span.longitudeDelta - b.span.longitudeDelta) <= tolerance
}

extension CellBuffer {
  /// Cells holding anything other than a blank space.
  var inkedCellCount: Int { cells.filter { $0.glyph != " " }.count }
  /// The whole frame as one string, for messages.
  var text: String { lines.joined(separator: "\n") }
}

/// A sample route: a zigzag walk through Lisbon's centre (made up, deterministic).
let lisbonRoute: [Coordinate] = [
  Coordinate(latitude: 38.7075, longitude: -9.1365),
  Coordinate(latitude: 38.7100, longitude: -9.1410),
  Coordinate(latitude: 38.7139, longitude: -9.1394),
  Coordinate(latitude: 38.7162, longitude: -9.1446),
  Coordinate(latitude: 38.7205, longitude: -9.1460),
  Coordinate(latitude: 38.7223, longitude: -9.1393),
  Coordinate(latitude: 38.7260, longitude: -9.1497),
  Coordinate(latitude: 38.7301, longitude: -9.1535),
  Coordinate(latitude: 38.7290, longitude: -9.1600),
  Coordinate(latitude: 38.7250, longitude: -9.1660),
  Coordinate(latitude: 38.7190, longitude: -9.1625),
  Coordinate(latitude: 38.7145, longitude: -9.1580),
]
