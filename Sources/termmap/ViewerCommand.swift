import Foundation
import MapData
import MapGeometry
import TerminalUI

extension RenderCommand {
  /// `--bbox` as a map rect (west past east crosses the antimeridian), nil without one.
  var bboxRect: MapRect? {
    guard let b = bbox else { return nil }
    let nw = MapPoint(Coordinate(latitude: b[3], longitude: b[0]))
    let se = MapPoint(Coordinate(latitude: b[1], longitude: b[2]))
    var w = se.x - nw.x
    if w < 0 { w += MapSize.world.width }
    return MapRect(x: nw.x, y: nw.y, width: w, height: se.y - nw.y)
  }
}

/// `termmap [options] FILE...`: the interactive viewer.
@MainActor
enum ViewerCommand {
  static func run(_ command: Termmap.View) throws -> Int32 {
    var parsed = try RenderCommand(command)
    var options = ViewerOptions()
    options.files = parsed.files
    options.center = parsed.center
    options.zoom = parsed.zoom
    options.bbox = parsed.bboxRect
    if parsed.charsetGiven { options.charset = parsed.charset }
    options.hideRoutesDuringChanges = !parsed.keepRoutes
    options.settleMilliseconds = parsed.settleMilliseconds
    options.eventLogPath = ProcessInfo.processInfo.environment["TERMMAP_EVENT_LOG"]
    options.dataDirectory = DataDirectory.locate()
    options.searchesStoredRegions = true
    if parsed.basemap && options.dataDirectory == nil {
      options.missingMapMessage = DataDirectory.missingMessage()
    }
    TerminalGuard.ensureNonInteractiveBacktraces()
    // --follow and --record (FollowOptions.swift), after the re-execution above: standard
    // input may be moved aside for `--follow -`.
    if command.live.follow == "-" && parsed.layers.sources.contains(.standardInput) {
      throw UsageError("--layer -: standard input is already --follow -")
    }
    let (provider, recorder) = try command.live.make()
    // The theme from the terminal's background (asked before the screen is taken over).
    parsed.resolveTheme(queryTerminal: true)
    // `--layer -`: standard input moved aside, as for `--follow -`, so keys reach the viewer.
    var layerInput: Int32?
    if parsed.layers.sources.contains(.standardInput) {
      layerInput = try LayerOptions.moveStandardInput()
    }
    let layers =
      parsed.layers.sources.isEmpty
      ? nil : LiveLayerRun(parsed.layers, follows: true, standardInput: layerInput)
    TerminalGuard.install()
    let front: TerminalFront
    do {
      front = try TerminalFront(options: options)
    } catch let e as TerminalError {
      throw UsageError(e.description)
    }
    let viewer = front.viewer
    viewer.map.addOverlays(try parsed.makeMapLayers(reportMissingMap: false), level: .aboveRoads)
    if let p = provider { viewer.followLocation(p, recorder: recorder) }
    if let layers {
      viewer.addLiveLayer(layers.layer)
      layers.start()
    }
    var status = front.run()
    layers?.stop()
    TerminalGuard.restoreSettings()
    // A recording that stopped early (a full disk): said at exit too, and the status is 2.
    for line in viewer.exitProblems {
      FileHandle.standardError.write(Data("termmap: \(line)\n".utf8))
      if status == 0 { status = 2 }
    }
    return status
  }
}
