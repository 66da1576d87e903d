import DotRaster
import MapGeometry
import Testing

@testable import TermMapKit

/// An annotation whose coordinate cannot be set: it cannot be dragged.
final class FixedAnnotation: Annotation {
  let coordinate: Coordinate
  let title: String? = "Fixed"
  init(_ coordinate: Coordinate) { self.coordinate = coordinate }
}

@MainActor
@Suite("Dragging: isDraggable, drag states, beginDrag / drag / endDrag / cancelDrag")
struct DragTests {
  func scene() -> (MapView, ClusterDelegate, (Int, Int) -> Coordinate) {
    let d = ClusterDelegate()
    d.draggable = true
    d.identifier = { _ in nil }
    let (map, at) = clusterScene(d)
    return (map, d, at)
  }

  func dragEvents(_ d: ClusterDelegate) -> [ClusterDelegate.Event] {
    d.events.filter { if case .drag = $0 { true } else { false } }
  }

  @Test("A mouse-style drag: the delegate hears each state, the coordinate is set on the drop")
  func dragAndDrop() throws {
    let (map, d, at) = scene()
    let pin = PointAnnotation(coordinate: at(20, 10), title: "Pin")
    let other = PointAnnotation(coordinate: at(40, 5), title: "Other")
    map.addAnnotations([pin, other])
    let before = map.renderFrame()
    #expect(before.lines[10].contains("● Pin"), "\(before.text)")
    let start = pin.coordinate

    #expect(map.beginDrag(atColumn: 20, row: 10))
    #expect(map.draggedAnnotation === pin)
    #expect(map.view(for: pin)?.dragState == .dragging)
    map.drag(toColumn: 23, row: 11)
    map.drag(toColumn: 25, row: 13)
    // While dragging, the marker follows; the annotation has not moved yet.
    let during = map.renderFrame()
    #expect(during[25, 13].glyph == "●" && during[20, 10].glyph != "●", "\(during.text)")
    #expect(pin.coordinate == start)
    #expect(map.annotationView(atColumn: 25, row: 13)?.annotation === pin)

    map.endDrag()
    #expect(map.draggedAnnotation == nil)
    #expect(
      dragEvents(d) == [
        .drag(.starting, from: .none), .drag(.dragging, from: .starting),
        .drag(.ending, from: .dragging), .drag(.none, from: .ending),
      ])
    // The coordinate moved five cells right and three down, and was set before `.ending`.
    #expect(close(pin.coordinate, at(25, 13)))
    #expect(d.coordinateAtEnding.map { close($0, at(25, 13)) } == true)
    #expect(map.annotations(in: map.viewport.mapRect).count == 2)
    let after = map.renderFrame()
    let expected = String(repeating: " ", count: 25) + "● Pin"
    #expect(after.lines[13].hasPrefix(expected), "\(after.text)")
    #expect(after[20, 10].glyph != "●" && after.lines[5].contains("● Other"), "\(after.text)")
    #expect(map.view(for: pin)?.dragState == AnnotationView.DragState.none)
  }

  @Test("A key-style drag of the selected annotation, cancelled: it stays where it was")
  func cancelledDrag() throws {
    let (map, d, at) = scene()
    let pin = PointAnnotation(coordinate: at(20, 10), title: "Pin", subtitle: "drag me")
    map.addAnnotation(pin)
    map.selectAnnotation(pin, animated: false)
    #expect(map.renderFrame().text.contains("drag me"))
    #expect(map.beginDrag(of: pin))
    map.drag(byColumns: 3, rows: 0)
    map.drag(byColumns: 0, rows: -2)
    let during = map.renderFrame()
    // The callout hides while its marker is dragged.
    #expect(during[23, 8].glyph == "●" && !during.text.contains("drag me"), "\(during.text)")
    map.cancelDrag()
    #expect(
      dragEvents(d) == [
        .drag(.starting, from: .none), .drag(.dragging, from: .starting),
        .drag(.canceling, from: .dragging), .drag(.none, from: .canceling),
      ])
    #expect(close(pin.coordinate, at(20, 10)))
    let after = map.renderFrame()
    #expect(after[20, 10].glyph == "●" && after[23, 8].glyph != "●", "\(after.text)")
    #expect(after.text.contains("drag me"))
    #expect(map.selectedAnnotations.first === pin)
  }

  @Test("Only draggable views of movable annotations can be dragged, one at a time")
  func dragNeedsDraggableAndMovable() throws {
    let (map, d, at) = scene()
    let fixed = FixedAnnotation(at(10, 5))
    let pin = PointAnnotation(coordinate: at(20, 10), title: "Pin")
    let second = PointAnnotation(coordinate: at(40, 10), title: "Second")
    map.addAnnotations([fixed, pin, second])
    _ = map.renderFrame()
    #expect(!map.beginDrag(atColumn: 10, row: 5))  // not movable
    #expect(!map.beginDrag(atColumn: 11, row: 5))  // no marker there
    map.view(for: pin)?.isDraggable = false
    #expect(!map.beginDrag(of: pin))
    #expect(dragEvents(d).isEmpty)
    #expect(map.beginDrag(of: second))
    map.view(for: pin)?.isDraggable = true
    #expect(!map.beginDrag(of: pin))  // one drag at a time
    map.drag(toColumn: 500, row: -3)  // kept on screen
    let frame = map.renderFrame()
    #expect(frame[59, 0].glyph == "●", "\(frame.text)")
    map.endDrag()
    #expect(close(second.coordinate, at(59, 0)))
  }

  @Test("Removing the dragged annotation cancels its drag")
  func removingCancels() {
    let (map, d, at) = scene()
    let pin = PointAnnotation(coordinate: at(20, 10), title: "Pin")
    map.addAnnotation(pin)
    #expect(map.beginDrag(of: pin))
    map.drag(byColumns: 4, rows: 1)
    map.removeAnnotation(pin)
    #expect(map.draggedAnnotation == nil && map.annotationCount == 0)
    #expect(
      dragEvents(d).suffix(2) == [
        .drag(.canceling, from: .dragging), .drag(.none, from: .canceling),
      ])
    #expect(close(pin.coordinate, at(20, 10)))
    #expect(!map.renderFrame().lines.joined().contains("●"))
  }

  @Test("A dragged marker always shows, over a marker of higher priority")
  func draggedMarkerAlwaysShows() throws {
    // (The delegate is held: a map view's delegate is weak.)
    let (map, d, at) = scene()
    let pin = PointAnnotation(coordinate: at(20, 10), title: "Pin")
    let big = PointAnnotation(coordinate: at(30, 10), title: "Big")
    map.addAnnotations([pin, big])
    _ = map.renderFrame()
    map.view(for: big)?.displayPriority = .defaultHigh
    #expect(map.beginDrag(of: pin))
    // Onto Big's label: the low-priority pin would hide, but it is being dragged.
    map.drag(toColumn: 32, row: 10)
    let frame = map.renderFrame()
    #expect(frame[32, 10].glyph == "●" && frame[30, 10].glyph == "●", "\(frame.lines[10])")
    map.endDrag()
    #expect(dragEvents(d).count == 4)
  }
}
