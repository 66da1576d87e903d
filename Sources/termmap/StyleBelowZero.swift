import MapTiles

extension BasemapStyle {
  /// The style with what it draws from zoom 0 (water, coastlines, borders, country names) drawn
  /// below zoom 0 too, where the whole world fits a small terminal (the map's zoom range goes
  /// below 0; the styles' rules start at 0).
  func reachingBelowZoomZero(to lowest: Double) -> BasemapStyle {
    var s = self
    for i in s.rules.indices where s.rules[i].minZoom <= 0 {
      s.rules[i].minZoom = min(s.rules[i].minZoom, lowest)
    }
    for i in s.labels.indices where s.labels[i].minZoom <= 0 {
      s.labels[i].minZoom = min(s.labels[i].minZoom, lowest)
    }
    return s
  }
}
