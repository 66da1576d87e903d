import DotRaster
import MapGeometry
import Testing

@testable import TermMapKit

/// Behaviours 7–9 of docs/mapkit-model.md: region-change notifications, setRegion fitting and
/// setCenter keeping the zoom.
@MainActor
@Suite("MapKit behaviours 7–9: region changes")
struct RegionBehaviourTests {
  static let lisbon = Coordinate(latitude: 38.7223, longitude: -9.1393)
  static let porto = Coordinate(latitude: 41.1579, longitude: -8.6291)

  /// Checks that `events` is one change: will(animated), then `visible` at least `minVisible`
  /// times, then did(animated), and nothing else.
  func expectOneChange(
    _ events: [RecordingDelegate.Event], animated: Bool, minVisible: Int = 1,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(events.first == .will(animated: animated), "\(events)", sourceLocation: sourceLocation)
    #expect(events.last == .did(animated: animated), "\(events)", sourceLocation: sourceLocation)
    let middle = events.dropFirst().dropLast()
    #expect(
      middle.allSatisfy { $0 == .visible } && middle.count >= minVisible, "\(events)",
      sourceLocation: sourceLocation)
  }

  @Test("7. A non-animated programmatic change: will(false) → didChangeVisibleRegion → did(false)")
  func nonAnimatedChange() {
    let d = RecordingDelegate()
    let map = makeMap(delegate: d)
    map.setRegion(
      CoordinateRegion(
        center: Self.lisbon, span: CoordinateSpan(latitudeDelta: 0.05, longitudeDelta: 0.05)),
      animated: false)
    expectOneChange(d.regionEvents, animated: false)
    #expect(!map.isChangingRegion)

    let changes: [(String, () -> Void)] = [
      ("setCenter", { map.setCenter(Self.porto, animated: false) }),
      ("setZoomLevel", { map.setZoomLevel(9.5, animated: false) }),
      (
        "setVisibleMapRect",
        { map.setVisibleMapRect(MapRect(x: 1e8, y: 1e8, width: 1e5, height: 1e5), animated: false) }
      ),
      ("setCenter(MapPoint)", { map.setCenter(MapPoint(x: 1.2e8, y: 0.9e8), animated: false) }),
      ("centerCoordinate =", { map.centerCoordinate = Self.lisbon }),
      (
        "region =",
        {
          map.region = CoordinateRegion(
            center: Self.porto, span: CoordinateSpan(latitudeDelta: 1, longitudeDelta: 1))
        }
      ),
    ]
    for (name, change) in changes {
      d.clear()
      change()
      #expect(d.regionEvents.count >= 3, "\(name)")
      expectOneChange(d.regionEvents, animated: false)
    }
  }

  @Test("7. An animated change stepped frame by frame: will(true) → visible ×≥2 → did(true)")
  func animatedChange() {
    let d = RecordingDelegate()
    let map = makeMap(delegate: d)
    map.setRegion(
      CoordinateRegion(
        center: Self.lisbon, span: CoordinateSpan(latitudeDelta: 0.2, longitudeDelta: 0.2)),
      animated: false)
    map.addOverlay(Polyline(coordinates: lisbonRoute))
    map.addOverlay(
      Polygon(coordinates: [
        Coordinate(latitude: 38.65, longitude: -9.30),
        Coordinate(latitude: 38.65, longitude: -8.95),
        Coordinate(latitude: 38.85, longitude: -8.95),
        Coordinate(latitude: 38.85, longitude: -9.30),
      ]))
    var frames = [map.renderFrame()]
    d.clear()
    // Far enough that even the first, eased-in step moves the map by whole cells.
    let target = Coordinate(latitude: 38.80, longitude: -9.00)
    map.setCenter(target, animated: true)
    #expect(d.regionEvents.first == .will(animated: true))
    #expect(!d.regionEvents.contains(.did(animated: true)))
    #expect(map.isAnimating && map.isChangingRegion)
    var steps = 0
    while true {
      frames.append(map.renderFrame())
      // Nothing settles before the last frame.
      #expect(!d.regionEvents.contains(.did(animated: true)))
      steps += 1
      if !map.advanceAnimation() { break }
      #expect(steps < 100)
      if steps >= 100 { break }
    }
    frames.append(map.renderFrame())
    #expect(!map.isAnimating && !map.isChangingRegion)
    expectOneChange(d.regionEvents, animated: true, minVisible: 2)
    // Intermediate frames differ from each other and from the start and the end.
    let distinct = Set(frames.map(\.text))
    #expect(distinct.count >= 4, "only \(distinct.count) distinct frames")
    #expect(frames[1] != frames[0] && frames[1] != frames.last!)
    #expect(close(map.centerCoordinate, target))
  }

  @Test(
    "7. Awaited: setCenter(animated: true) in a program with no loop returns after did(true), every frame stepped"
  )
  func awaitedChange() async {
    let d = RecordingDelegate()
    let map = makeMap(delegate: d)
    await map.setZoomLevel(10, animated: false)
    d.clear()
    await map.setCenter(Self.porto, animated: true)
    #expect(!map.isAnimating && !map.isChangingRegion)
    expectOneChange(d.regionEvents, animated: true, minVisible: MapView.animationFrames)
    #expect(close(map.centerCoordinate, Self.porto))
    d.clear()
    let rect = MapRect(
      bounding: [MapPoint(Self.lisbon), MapPoint(Self.porto)])
    await map.setVisibleMapRect(
      rect, edgePadding: EdgeInsets(top: 8, left: 8, bottom: 8, right: 8), animated: true)
    expectOneChange(d.regionEvents, animated: true, minVisible: MapView.animationFrames)
    #expect(map.visibleMapRect.contains(MapPoint(Self.lisbon)))
    #expect(map.visibleMapRect.contains(MapPoint(Self.porto)))
    // Nothing running: settles at once.
    d.clear()
    await map.settle()
    #expect(d.regionEvents.isEmpty)
  }

  @Test(
    "7. renderCompleteFrame right after setRegion(animated: true) draws the target (did(true) first), not the first step"
  )
  func completeFrameOfTarget() {
    let d = RecordingDelegate()
    let map = makeMap(delegate: d)
    map.addOverlay(Polyline(coordinates: lisbonRoute))
    let target = CoordinateRegion(
      center: Self.lisbon, span: CoordinateSpan(latitudeDelta: 0.2, longitudeDelta: 0.2))
    // The frame of the region set at once, for comparison.
    let still = makeMap()
    still.addOverlay(Polyline(coordinates: lisbonRoute))
    still.setRegion(target, animated: false)
    let expected = still.renderCompleteFrame().frame
    map.setRegion(target, animated: true)
    #expect(map.isAnimating)
    let (frame, _, complete) = map.renderCompleteFrame()
    #expect(complete)
    #expect(!map.isAnimating && !map.isChangingRegion)
    #expect(d.regionEvents.last == .did(animated: true))
    #expect(frame.text == expected.text)
  }

  @Test("7. A user gesture burst (begin, pan ×5, end) is one change: one will, one did")
  func gestureBurst() {
    let d = RecordingDelegate()
    let map = makeMap(delegate: d)
    map.setCenter(Self.lisbon, animated: false)
    d.clear()
    map.beginUserInteraction()
    for _ in 0..<5 { map.pan(byDotsX: 6, y: -4) }
    #expect(map.isInteracting)
    #expect(!d.regionEvents.contains(.did(animated: false)))
    map.endUserInteraction()
    #expect(
      d.regionEvents == [.will(animated: false)] + Array(repeating: .visible, count: 5) + [
        .did(animated: false)
      ])
    // A zoom burst too.
    d.clear()
    map.beginUserInteraction()
    map.zoom(byLevels: 1)
    map.zoom(byLevels: 0.5, aboutDot: Point2D(x: 10, y: 10))
    map.pan(byDotsX: -3, y: 0)
    map.endUserInteraction()
    expectOneChange(d.regionEvents, animated: false, minVisible: 3)
    // Without begin/end, each pan is a change of its own.
    d.clear()
    map.pan(byDotsX: 2, y: 0)
    map.pan(byDotsX: 2, y: 0)
    #expect(
      d.regionEvents == [
        .will(animated: false), .visible, .did(animated: false), .will(animated: false), .visible,
        .did(animated: false),
      ])
  }

  @Test("7. However changes interleave, every will is closed by a did with the same flag")
  func interleavedChangesStayPaired() {
    let d = RecordingDelegate()
    let map = makeMap(delegate: d)
    map.setCenter(Self.lisbon, animated: false)
    var generator = SplitMix(seed: 7)
    for _ in 0..<300 {
      switch generator.next() % 9 {
      case 0: map.setCenter(Self.porto, animated: true)
      case 1: map.setCenter(Self.lisbon, animated: Bool.random(using: &generator))
      case 2: map.advanceAnimation()
      case 3: map.beginUserInteraction()
      case 4: map.pan(byDotsX: 4, y: 2)
      case 5: map.endUserInteraction()
      case 6: map.setZoomLevel(Double(generator.next() % 12), animated: true)
      case 7: map.zoom(byLevels: -0.5)
      default: map.finishChanges()
      }
    }
    map.finishChanges()
    #expect(!map.isChangingRegion)
    var open: Bool? = nil
    for e in d.regionEvents {
      switch e {
      case .will(let a):
        #expect(open == nil, "a will inside an open change: \(d.regionEvents)")
        open = a
      case .did(let a):
        #expect(open == a, "a did that does not close a will with the same flag")
        open = nil
      case .visible:
        #expect(open != nil, "a visible-region change outside a change")
      default: break
      }
    }
    #expect(open == nil)
    #expect(d.regionEvents.contains(.did(animated: true)))
  }

  @Test(
    "8. After setRegion(r, animated: false), region == regionThatFits(r) and the centre is r's",
    arguments: [(60, 20), (30, 40), (200, 60)])
  func setRegionFits(size: (Int, Int)) {
    let map = makeMap(columns: size.0, rows: size.1)
    let regions = [
      CoordinateRegion(
        center: Self.lisbon, span: CoordinateSpan(latitudeDelta: 0.05, longitudeDelta: 0.05)),
      CoordinateRegion(
        center: Self.porto, span: CoordinateSpan(latitudeDelta: 2, longitudeDelta: 0.1)),
      CoordinateRegion(
        center: Coordinate(latitude: -33.86, longitude: 151.21),
        span: CoordinateSpan(latitudeDelta: 0.01, longitudeDelta: 3)),
      CoordinateRegion(
        center: Coordinate(latitude: 0, longitude: 0),
        span: CoordinateSpan(latitudeDelta: 40, longitudeDelta: 40)),
    ]
    for r in regions {
      let fits = map.regionThatFits(r)
      map.setRegion(r, animated: false)
      let now = map.region
      #expect(close(now, fits), "\(now) vs \(fits)")
      #expect(close(now.center, r.center), "\(now.center) vs \(r.center)")
      // The span only grows, to the screen's shape: all of r stays on screen, and the fit is
      // tight (the width is r's, or the north or the south edge is r's).
      let v = map.visibleMapRect
      let want = r.mapRect
      let eps = 1e-6 * max(want.width, want.height)
      #expect(v.insetBy(dx: -eps, dy: -eps).contains(want), "\(v) does not hold \(want)")
      #expect(
        abs(v.width - want.width) <= eps || abs(v.minY - want.minY) <= eps
          || abs(v.maxY - want.maxY) <= eps)
      #expect(now.span.latitudeDelta >= r.span.latitudeDelta - 1e-9)
      #expect(now.span.longitudeDelta >= r.span.longitudeDelta - 1e-9)
      // The screen's shape: width / height of the visible rect is the dots' width / height.
      #expect(abs(v.width / v.height - map.widthInDots / map.heightInDots) < 1e-9)
    }
    // regionThatFits only predicts: it does not move the map.
    let before = map.visibleMapRect
    _ = map.regionThatFits(regions[0])
    #expect(map.visibleMapRect == before)
  }

  @Test("8. A region whose shape differs from the screen's comes back larger than it was set")
  func setRegionGrowsSpan() {
    let map = makeMap(columns: 60, rows: 20)
    let tall = CoordinateRegion(
      center: Self.lisbon, span: CoordinateSpan(latitudeDelta: 0.5, longitudeDelta: 0.01))
    map.setRegion(tall, animated: false)
    #expect(map.region.span.longitudeDelta > 0.1)
    #expect(
      map.region.span.latitudeDelta >= 0.5 && map.region.span.latitudeDelta < 0.502, "\(map.region)"
    )
  }

  @Test("8. A large region is shown whole: its northern and southern edges stay on screen")
  func setRegionLargeSpanShowsWholeRegion() {
    let map = makeMap(columns: 40, rows: 40)
    let r = CoordinateRegion(
      center: Coordinate(latitude: 50, longitude: 10),
      span: CoordinateSpan(latitudeDelta: 40, longitudeDelta: 10))
    map.setRegion(r, animated: false)
    let north = map.convert(Coordinate(latitude: 70, longitude: 10))
    let south = map.convert(Coordinate(latitude: 30, longitude: 10))
    // The screen snaps to whole cells, which may move the map by up to half a cell.
    let snap = Double(CellGeometry.dotsHigh) / 2
    #expect(north.y >= -snap && north.y <= map.heightInDots, "70°N is off screen at \(north)")
    #expect(south.y >= 0 && south.y <= map.heightInDots + snap, "30°N is off screen at \(south)")
    #expect(close(map.region.center, r.center))
    #expect(close(map.region, map.regionThatFits(r)))
  }

  @Test("9. setCenter keeps the width of visibleMapRect (the zoom scale)")
  func setCenterKeepsZoom() {
    let d = RecordingDelegate()
    let map = makeMap(delegate: d)
    map.setZoomLevel(12.3, animated: false)
    let width = map.visibleMapRect.width
    let scale = map.zoomScale
    map.setCenter(Self.porto, animated: false)
    #expect(map.visibleMapRect.width == width)
    #expect(close(map.centerCoordinate, Self.porto))
    map.setCenter(Self.lisbon, animated: true)
    while map.advanceAnimation() { #expect(map.visibleMapRect.width == width) }
    #expect(map.visibleMapRect.width == width)
    #expect(close(map.centerCoordinate, Self.lisbon))
    map.setCenter(MapPoint(x: 2e8, y: 1e8), animated: false)
    #expect(map.visibleMapRect.width == width)
    #expect(map.centerPoint == MapPoint(x: 2e8, y: 1e8))
    map.centerCoordinate = Coordinate(latitude: -40, longitude: 170)
    #expect(map.visibleMapRect.width == width)
    #expect(map.zoomScale == scale)
    // Panning across the antimeridian keeps it as well.
    map.centerCoordinate = Coordinate(latitude: 10, longitude: 179.999)
    map.pan(byDotsX: 500, y: 0)
    #expect(map.visibleMapRect.width == width)
  }
}

/// A small deterministic random source, so the interleaving test is the same every run.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
