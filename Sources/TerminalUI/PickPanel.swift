import DotRaster
import Foundation
import MapGeometry
import TermMapKit

/// `termmap pick`: the viewer as a map-shaped chooser. Always open in pick mode, just above
/// the callout, so Enter and Esc reach it after any box, prompt or tool that is open (the
/// search box, the layer list, the targets panel, moving a marker, measuring) has had them:
///
/// - Enter with a marker selected picks its GeoJSON feature (its callout open or not); with a
///   cluster selected it does what it does in the viewer (opens the cluster's callout, again:
///   zooms to its members), since a cluster is not one place; with nothing selected it picks
///   the centre of the map, a Point with the zoom as its property.
/// - Esc, `q` and `Q` cancel: nothing is picked and the exit status is 1.
///
/// The picked feature waits in `Viewer.pickedFeature` until the front has given the terminal
/// back; the command prints it then.
@MainActor
final class PickPanel: Panel {
  var level: PanelLevel { .pick }
  func placement(totalRows: Int) -> PanelPlacement { .inMap }

  func handle(_ event: InputEvent, viewer: Viewer) -> PanelResponse {
    switch KeyBindings.action(for: event) {
    case .enter?:
      if let a = viewer.map.selectedAnnotations.first {
        if a is ClusterAnnotation { return .ignored }
        viewer.finishPick(with: Viewer.feature(of: a))
      } else {
        viewer.finishPick(with: viewer.centreFeature)
      }
      return .handled
    case .escape?, .quit?:
      viewer.finishPick(with: nil)
      return .handled
    default:
      return .ignored
    }
  }

  func draw(into frame: inout CellBuffer, area: CellRect, viewer: Viewer) {}
}

extension Viewer {
  /// Ends the pick: with a feature, exit status 0; without (cancelled), 1.
  func finishPick(with feature: String?) {
    pickedFeature = feature
    log("pick \(feature == nil ? "cancelled" : "done")")
    stop(exitStatus: feature == nil ? 1 : 0)
  }

  /// An annotation's GeoJSON feature: its own (`GeoJSONFeatureProviding`), else a Point with
  /// its title and subtitle as `name` and `description`.
  nonisolated static func feature(of a: any Annotation) -> String {
    if let f = a as? any GeoJSONFeatureProviding { return f.geoJSONFeature }
    var members: [(key: String, value: String)] = []
    if let t = a.title { members.append(("name", GeoJSONText.string(t))) }
    if let s = a.subtitle { members.append(("description", GeoJSONText.string(s))) }
    return GeoJSONText.pointFeature(
      coordinate: a.coordinate, properties: GeoJSONText.object(members))
  }

  /// The centre of the map as a Point feature (to 7 decimals, about a centimetre) with the
  /// zoom level as its property.
  var centreFeature: String {
    let c = map.centerCoordinate
    func round7(_ v: Double) -> Double { (v * 1e7).rounded() / 1e7 }
    return GeoJSONText.pointFeature(
      coordinate: Coordinate(latitude: round7(c.latitude), longitude: round7(c.longitude)),
      properties: GeoJSONText.object([
        ("zoom", GeoJSONText.number((map.zoomLevel * 100).rounded() / 100))
      ]))
  }
}
