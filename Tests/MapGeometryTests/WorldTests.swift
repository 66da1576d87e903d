import Testing
@testable import MapGeometry

@Test func worldRect() {
  #expect(MapRect.world == MapRect(x: 0, y: 0, width: 268_435_456, height: 268_435_456))
}
