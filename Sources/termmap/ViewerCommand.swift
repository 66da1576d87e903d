import Foundation
import MapData
import MapGeometry
import TerminalUI

/// `termmap [options] FILE...`: the interactive viewer.
@MainActor
enum ViewerCommand {
  static func run(arguments all: [String]) throws -> Int32 {
    // --follow and --record (FollowOptions.swift).
    let (follow, arguments) = try FollowOptions.extract(all)
    let parsed = try RenderCommand(arguments: arguments, viewer: true)
    var options = ViewerOptions()
    options.files = parsed.files
    options.center = parsed.center
    options.zoom = parsed.zoom
    if let b = parsed.bbox {
      let nw = MapPoint(Coordinate(latitude: b[3], longitude: b[0]))
      let se = MapPoint(Coordinate(latitude: b[1], longitude: b[2]))
      var w = se.x - nw.x
      if w < 0 { w += MapSize.world.width }
      options.bbox = MapRect(x: nw.x, y: nw.y, width: w, height: se.y - nw.y)
    }
    if parsed.charsetGiven { options.charset = parsed.charset }
    options.hideRoutesDuringChanges = !parsed.keepRoutes
    options.settleMilliseconds = parsed.settleMilliseconds
    options.eventLogPath = ProcessInfo.processInfo.environment["TERMMAP_EVENT_LOG"]
    options.dataDirectory = DataDirectory.locate()
    TerminalGuard.ensureNonInteractiveBacktraces()
    // After the re-execution above: standard input may be moved aside for `--follow -`.
    let provider = try follow.source.map(FollowOptions.makeProvider)
    let recorder = try FollowOptions.makeRecorder(follow.record)
    TerminalGuard.install()
    let viewer: Viewer
    do {
      viewer = try Viewer(options: options)
    } catch let e as TerminalError {
      throw UsageError(e.description)
    }
    viewer.map.addOverlays(try parsed.makeMapLayers(), level: .aboveRoads)
    if let p = provider { viewer.followLocation(p, recorder: recorder) }
    let status = viewer.run()
    TerminalGuard.restoreSettings()
    return status
  }
}
