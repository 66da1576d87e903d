import DotRaster

/// The selected marker's callout: open, Enter taps its accessory (zooms to the marker) and
/// Esc closes it; every other key and the mouse go on to the map, which keeps it open. The
/// map draws it beside its marker (`MapView.showsCallouts`), as MapKit's callout belongs to
/// its annotation view: the panel has no area of its own.
@MainActor
final class CalloutPanel: Panel {
  var level: PanelLevel { .callout }
  func placement(totalRows: Int) -> PanelPlacement { .inMap }

  func didOpen(viewer: Viewer) { viewer.map.showsCallouts = true }
  func didClose(viewer: Viewer) { viewer.map.showsCallouts = false }

  func handle(_ event: InputEvent, viewer: Viewer) -> PanelResponse {
    // The keys the key table gives to Enter and Esc mean, here, the callout's.
    switch KeyBindings.action(for: event) {
    case .enter?:
      viewer.map.tapCalloutAccessory()
      return .handled
    case .escape?:
      return .close
    default:
      return .ignored
    }
  }

  func draw(into frame: inout CellBuffer, area: CellRect, viewer: Viewer) {}
}

extension Viewer {
  /// Opens the selected marker's callout.
  func openCallout() {
    if panels.first(CalloutPanel.self) == nil { open(CalloutPanel()) }
  }

  /// Closes the callout, if it is open.
  func closeCallout() {
    if let c = panels.first(CalloutPanel.self) { close(c) }
  }
}
