import DotRaster
import MapGeometry
import Testing

@testable import TermMapKit

/// A view that counts its reuse preparations (and calls super, as subclasses must).
final class PinView: AnnotationView {
  var prepared = 0
  override func prepareForReuse() {
    super.prepareForReuse()
    prepared += 1
  }
}

/// Behaviours 14 and 15 of docs/mapkit-model.md: annotation view lifecycle and selection.
@MainActor
@Suite("MapKit behaviours 14–15: annotation views and selection")
struct AnnotationBehaviourTests {
  /// A 60 × 20 map at zoom 12, and the coordinate at the centre of a cell (columns may be off
  /// screen).
  func makeScene(delegate: RecordingDelegate? = nil) -> (MapView, (Int, Int) -> Coordinate) {
    let map = makeMap(columns: 60, rows: 20, delegate: delegate)
    map.setCenter(Coordinate(latitude: 38.7223, longitude: -9.1393), animated: false)
    map.setZoomLevel(12, animated: false)
    let vp = map.viewport
    return (map, { c, r in vp.mapPoint(forCellColumn: c, row: r).coordinate })
  }

  /// A delegate that makes `PinView`s through the reuse queue.
  func pinDelegate() -> RecordingDelegate {
    let d = RecordingDelegate()
    d.makeView = { map, a in
      try? map.dequeueReusableAnnotationView(withIdentifier: "pin", for: a)
    }
    return d
  }

  func viewForCalls(_ d: RecordingDelegate) -> [ObjectIdentifier] {
    d.events.compactMap { if case .viewFor(let id) = $0 { id } else { nil } }
  }

  @Test("14. viewFor is asked only for annotations whose coordinate is visible")
  func viewForVisibleOnly() {
    let d = pinDelegate()
    let (map, at) = makeScene(delegate: d)
    map.register(PinView.self, forAnnotationViewWithReuseIdentifier: "pin")
    let a = PointAnnotation(coordinate: at(10, 10), title: "a")
    let b = PointAnnotation(coordinate: at(50, 5), title: "b")
    let west = PointAnnotation(coordinate: at(-30, 10), title: "west")
    let south = PointAnnotation(coordinate: at(20, 45), title: "south")
    map.addAnnotations([a, b, west, south])
    #expect(map.annotationCount == 4)
    #expect(map.view(for: a) is PinView)
    #expect(Set(viewForCalls(d)) == [ObjectIdentifier(a), ObjectIdentifier(b)])
    #expect(viewForCalls(d).count == 2)
    #expect(map.view(for: west) == nil && map.view(for: south) == nil)
    #expect(map.view(for: a)?.annotation === a)
    #expect(map.annotationViewsOnScreen.count == 2)
    #expect(d.events.contains(.addedViews(2)))
    // The marker is drawn in its cell.
    let frame = map.renderFrame()
    #expect(frame[10, 10].glyph == "●" && frame[50, 5].glyph == "●")
  }

  @Test(
    "14. Views that scroll off are queued without an annotation and reused with prepareForReuse")
  func viewsAreQueuedAndReused() throws {
    let d = pinDelegate()
    let (map, at) = makeScene(delegate: d)
    map.register(PinView.self, forAnnotationViewWithReuseIdentifier: "pin")
    let a = PointAnnotation(coordinate: at(10, 10), title: "a")
    let b = PointAnnotation(coordinate: at(50, 5), title: "b")
    map.addAnnotations([a, b])
    let viewA = try #require(map.view(for: a) as? PinView)
    #expect(viewA.reuseIdentifier == "pin")
    #expect(viewA.reuseCount == 0 && viewA.prepared == 0)
    #expect(map.queuedViewCount(withIdentifier: "pin") == 0)

    // Pan 30 columns east: a (column 10) leaves, b (column 50) stays at column 20.
    map.pan(byDotsX: Double(30 * CellGeometry.dotsWide), y: 0)
    #expect(map.view(for: a) == nil)
    #expect(map.view(for: b) != nil)
    #expect(map.queuedViewCount(withIdentifier: "pin") == 1)
    #expect(viewA.annotation == nil)

    // A new annotation on screen takes the queued view, prepared for reuse.
    d.clear()
    let c = PointAnnotation(coordinate: at(45, 15), title: "c")
    map.addAnnotation(c)
    let viewC = try #require(map.view(for: c))
    #expect(viewForCalls(d) == [ObjectIdentifier(c)])
    #expect(viewC === viewA)
    #expect(viewA.annotation === c)
    #expect(viewA.reuseCount == 1 && viewA.prepared == 1)
    #expect(map.queuedViewCount(withIdentifier: "pin") == 0)

    // Removing an annotation queues its view too.
    let viewB = try #require(map.view(for: b))
    map.removeAnnotation(b)
    #expect(viewB.annotation == nil)
    #expect(map.queuedViewCount(withIdentifier: "pin") == 1)
    #expect(map.annotationCount == 2)
    #expect(map.view(for: b) == nil)
  }

  @Test("14. Standard views are queued under the default identifier")
  func defaultViewsAreReused() throws {
    let (map, at) = makeScene()
    let a = PointAnnotation(coordinate: at(5, 5), title: "a")
    map.addAnnotation(a)
    let view = try #require(map.view(for: a))
    #expect(view is MarkerAnnotationView)
    #expect(view.reuseIdentifier == MapView.defaultAnnotationViewReuseIdentifier)
    map.pan(byDotsX: -Double(60 * CellGeometry.dotsWide), y: 0)
    #expect(map.view(for: a) == nil)
    #expect(view.annotation == nil)
    #expect(map.queuedViewCount(withIdentifier: MapView.defaultAnnotationViewReuseIdentifier) == 1)
    map.pan(byDotsX: Double(60 * CellGeometry.dotsWide), y: 0)
    #expect(map.view(for: a) === view)
    #expect(view.annotation === a && view.reuseCount == 1)
  }

  @Test("14. dequeue…(withIdentifier:for:) throws for an unregistered identifier")
  func dequeueUnregisteredThrows() throws {
    let (map, at) = makeScene()
    let a = PointAnnotation(coordinate: at(5, 5))
    #expect(throws: AnnotationViewError.unregisteredReuseIdentifier("nope")) {
      try map.dequeueReusableAnnotationView(withIdentifier: "nope", for: a)
    }
    #expect(map.dequeueReusableAnnotationView(withIdentifier: "nope") == nil)
    map.register(PinView.self, forAnnotationViewWithReuseIdentifier: "nope")
    let v = try map.dequeueReusableAnnotationView(withIdentifier: "nope", for: a)
    #expect(v is PinView && v.annotation === a && v.reuseIdentifier == "nope")
    #expect(v.reuseCount == 0)
  }

  // MARK: 15

  @Test("15. Selecting an annotation that is off screen does nothing")
  func offscreenSelectIsIgnored() {
    let d = RecordingDelegate()
    let (map, at) = makeScene(delegate: d)
    let on = PointAnnotation(coordinate: at(10, 10), title: "on")
    let off = PointAnnotation(coordinate: at(100, 10), title: "off")
    map.addAnnotations([on, off])
    map.selectAnnotation(off, animated: false)
    #expect(map.selectedAnnotations.isEmpty)
    #expect(!map.isCalloutVisible)
    #expect(!d.events.contains(.select(ObjectIdentifier(off))))
    // The same call on an annotation on screen does select (the test can fail).
    map.selectAnnotation(on, animated: false)
    #expect(map.selectedAnnotations.first === on)
    #expect(d.events.contains(.select(ObjectIdentifier(on))))
  }

  @Test("15. selectedAnnotations = [a, b] selects only a")
  func selectedAnnotationsTakesFirst() {
    let d = RecordingDelegate()
    let (map, at) = makeScene(delegate: d)
    let a = PointAnnotation(coordinate: at(10, 10), title: "a")
    let b = PointAnnotation(coordinate: at(30, 12), title: "b")
    map.addAnnotations([a, b])
    map.selectedAnnotations = [a, b]
    #expect(map.selectedAnnotations.count == 1)
    #expect(map.selectedAnnotations.first === a)
    #expect(map.view(for: a)?.isSelected == true)
    #expect(map.view(for: b)?.isSelected == false)
    #expect(
      d.events.filter { if case .select = $0 { true } else { false } } == [
        .select(ObjectIdentifier(a))
      ])
    // Selecting b moves the selection; assigning [] clears it.
    map.selectedAnnotations = [b]
    #expect(map.selectedAnnotations.first === b)
    #expect(map.view(for: a)?.isSelected == false)
    #expect(d.events.contains(.deselect(ObjectIdentifier(a))))
    map.selectedAnnotations = []
    #expect(map.selectedAnnotations.isEmpty)
    #expect(map.view(for: b)?.isSelected == false)
  }

  @Test("15. A callout needs canShowCallout and a title")
  func calloutNeedsTitleAndPermission() throws {
    let (map, at) = makeScene()
    let untitled = PointAnnotation(coordinate: at(10, 10), subtitle: "no title here")
    let titled = PointAnnotation(coordinate: at(10, 12), title: "Titled", subtitle: "sub")
    map.addAnnotations([untitled, titled])

    map.selectAnnotation(untitled, animated: false)
    #expect(map.selectedAnnotations.first === untitled)
    #expect(!map.isCalloutVisible)
    #expect(!map.renderFrame().text.contains("no title here"))

    let titledView = try #require(map.view(for: titled))
    titledView.canShowCallout = false
    map.selectAnnotation(titled, animated: false)
    #expect(!map.isCalloutVisible)
    #expect(!map.renderFrame().text.contains("┌"))

    titledView.canShowCallout = true
    #expect(map.isCalloutVisible)
    let frame = map.renderFrame().text
    #expect(frame.contains("Titled") && frame.contains("sub") && frame.contains("┌"))
  }

  @Test("15. Accessory taps reach the delegate only from controls")
  func accessoryTapsOnlyFromControls() throws {
    let d = RecordingDelegate()
    let (map, at) = makeScene(delegate: d)
    let a = PointAnnotation(coordinate: at(10, 10), title: "Café")
    map.addAnnotation(a)
    let view = try #require(map.view(for: a))
    view.rightCalloutAccessory = .detailDisclosure
    // Nothing selected: no callout, no tap.
    map.tapCalloutAccessory()
    #expect(!d.events.contains { if case .accessory = $0 { true } else { false } })

    map.selectAnnotation(a, animated: false)
    map.tapCalloutAccessory()
    #expect(
      d.events.filter { if case .accessory = $0 { true } else { false } } == [.accessory("›")])

    d.clear()
    view.rightCalloutAccessory = CalloutAccessory(symbol: "i", isControl: false)
    map.tapCalloutAccessory()
    view.rightCalloutAccessory = nil
    map.tapCalloutAccessory()
    #expect(!d.events.contains { if case .accessory = $0 { true } else { false } })
  }
}

/// A view whose marker glyph and label come from untrusted text.
final class UntrustedView: AnnotationView {}

@MainActor
@Suite("Text from data never reaches the terminal as escape sequences")
struct TerminalSafetyTests {
  @Test("Titles, subtitles, details, labels and glyphs with ESC cannot produce ESC [2J")
  func escapesAreNeutralised() throws {
    let d = RecordingDelegate()
    d.makeView = { _, a in
      let v = UntrustedView(annotation: a, reuseIdentifier: nil)
      v.glyph = "\u{1B}"
      v.label = "lbl\u{1B}[2J\u{9B}2J"
      v.rightCalloutAccessory = CalloutAccessory(symbol: "\u{1B}[2J", isControl: true)
      return v
    }
    let map = makeMap(columns: 60, rows: 20, delegate: d)
    map.setCenter(Coordinate(latitude: 38.7223, longitude: -9.1393), animated: false)
    map.setZoomLevel(12, animated: false)
    let a = PointAnnotation(
      coordinate: map.coordinate(atColumn: 10, row: 8), title: "Evil\u{1B}[2J title",
      subtitle: "sub\u{9B}2J\u{1B}]0;pwned\u{07}", detailLines: ["\u{1B}c reset", "\u{202E}rtl"])
    map.addAnnotation(a)
    map.selectAnnotation(a, animated: false)
    #expect(map.isCalloutVisible)
    let frame = map.renderFrame()
    #expect(frame.text.contains("Evil?[2J title"))
    #expect(frame[10, 8].glyph == "?")
    let sgr = try Regex("\u{1B}\\[[0-9;]*m")
    for line in frame.lines {
      #expect(!line.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" || $0 == "\u{07}" })
    }
    for depth in [ColorDepth.palette256, .basic16] {
      for line in frame.ansiLines(colors: depth) {
        #expect(!line.contains("\u{1B}[2J"))
        let rest = line.replacing(sgr, with: "")
        #expect(!rest.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" }, "\(rest)")
      }
    }
  }
}

@MainActor
@Suite("Annotations when the world repeats across the screen")
struct RepeatedWorldAnnotationTests {
  @Test("An annotation is counted once, however many copies of the world are on screen")
  func countedOnce() throws {
    // 400 columns at zoom 0: the 256-dot world shows three times.
    let map = MapView(columns: 400, rows: 30)
    map.setZoomLevel(0, animated: false)
    map.setCenter(Coordinate(latitude: 0, longitude: 30), animated: false)
    #expect(map.viewport.worldCopies.count >= 3)
    let lone = PointAnnotation(coordinate: Coordinate(latitude: 40, longitude: 0), title: "A")
    let pairA = PointAnnotation(coordinate: Coordinate(latitude: -40, longitude: 100), title: "B")
    let pairB = PointAnnotation(coordinate: Coordinate(latitude: -40, longitude: 100.1))
    map.addAnnotations([lone, pairA, pairB])
    let views = map.annotationViewsOnScreen
    #expect(views.count == 2)
    #expect(views.reduce(0) { $0 + $1.representedCount } == 3)
    let loneView = try #require(map.view(for: lone))
    #expect(loneView.representedCount == 1)
    let frame = map.renderFrame().text
    #expect(frame.contains("● A") && !frame.contains("A +"))
    #expect(frame.contains("+1"))
  }
}

@MainActor
@Suite("Callout placement")
struct CalloutPlacementTests {
  @Test(
    "Wherever the marker is, the callout stays on screen and never covers the marker",
    arguments: [(60, 20), (30, 12), (24, 40), (12, 8)])
  func calloutStaysOnScreen(size: (Int, Int)) throws {
    let (columns, rows) = size
    let map = MapView(columns: columns, rows: rows)
    map.setCenter(Coordinate(latitude: 38.7223, longitude: -9.1393), animated: false)
    map.setZoomLevel(12, animated: false)
    var shown = 0
    for row in stride(from: 0, to: rows, by: max(1, rows / 7)) {
      for column in stride(from: 0, to: columns, by: max(1, columns / 9)) {
        let a = PointAnnotation(
          coordinate: map.coordinate(atColumn: column, row: row),
          title: "A rather long title for a callout box", subtitle: "Subtitle",
          detailLines: ["Detail one", "Detail two", "Detail three is a longer line of text"])
        map.addAnnotation(a)
        map.selectAnnotation(a, animated: false)
        let frame = map.renderFrame()
        let cell = try #require(map.viewport.cell(for: MapPoint(a.coordinate)))
        #expect(frame[cell.column, cell.row].glyph == "●", "marker at \(column),\(row) covered")
        if let box = map.calloutLayout(map.viewport) {
          shown += 1
          #expect(box.column >= 0 && box.row >= 0)
          #expect(box.column + box.width <= columns && box.row + box.height <= rows)
          let coversMarker =
            (box.column..<(box.column + box.width)).contains(cell.column)
            && (box.row..<(box.row + box.height)).contains(cell.row)
          #expect(!coversMarker, "callout over the marker at \(column),\(row): \(box)")
          #expect(frame[box.column, box.row].glyph == "┌")
          #expect(frame[box.column + box.width - 1, box.row + box.height - 1].glyph == "┘")
        }
        map.removeAnnotation(a)
      }
    }
    // On all but the smallest screen the callout shows for most places.
    if columns >= 24 { #expect(shown > 10) }
  }
}
