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
    try run(command, picks: false).status
  }

  /// `termmap pick`: the viewer on /dev/tty, standard output kept for the picked feature,
  /// which is written there (one line) after the terminal has been given back.
  static func pick(_ command: Termmap.Pick) throws -> Int32 {
    let (status, feature, output) = try run(command, picks: true)
    if let output {
      if let feature {
        var bytes = Array((feature + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
          let n = bytes.withUnsafeMutableBytes {
            write(output, $0.baseAddress! + offset, $0.count - offset)
          }
          if n < 0 && errno == EINTR { continue }
          guard n > 0 else {
            FileHandle.standardError.write(
              Data("termmap: pick: stdout: \(String(cString: strerror(errno)))\n".utf8))
            return 2
          }
          offset += n
        }
      }
      close(output)
    }
    return status
  }

  /// Puts the terminal (/dev/tty) on standard output, and on standard input when that is not
  /// a terminal, for `termmap pick`; answers a descriptor of the old standard output.
  static func moveToTerminal() throws -> Int32 {
    let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard tty >= 0 else {
      throw UsageError(
        "pick: no terminal to show the map on (/dev/tty: \(String(cString: strerror(errno))))")
    }
    let output = fcntl(1, F_DUPFD_CLOEXEC, 3)
    guard output >= 0, dup2(tty, 1) >= 0 else {
      close(tty)
      throw UsageError("pick: cannot move standard output aside")
    }
    if isatty(0) == 0 { dup2(tty, 0) }
    close(tty)
    return output
  }

  static func run(_ command: some ViewerCommandLine, picks: Bool) throws -> (
    status: Int32, feature: String?, output: Int32?
  ) {
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
    options.picks = picks
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
    // pick: the terminal for the map and the keys, standard output kept for the feature
    // (after --follow -, which moves standard input aside itself).
    let output = picks ? try moveToTerminal() : nil
    TerminalGuard.install()
    let front: TerminalFront
    do {
      front = try TerminalFront(options: options)
    } catch let e as TerminalError {
      throw UsageError(e.description)
    }
    let viewer = front.viewer
    viewer.map.addOverlays(try parsed.makeMapLayers(reportMissingMap: false), level: .aboveRoads)
    if let note = parsed.styleNotes.summary { viewer.showNote(note) }
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
    return (status, viewer.pickedFeature, output)
  }
}
