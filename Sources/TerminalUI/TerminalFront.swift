import DotRaster
import Foundation

/// The viewer on a terminal backend: the loop that reads the backend's input, hands it to a
/// `Viewer` and draws the viewer's frames on the backend. This is the local front: `run()`
/// also answers the process's signals (`TerminalGuard`: a stop, a continue after Ctrl-Z) and
/// gives the terminal back at the end. The viewer itself holds no terminal, no ncurses and no
/// process-wide state, so another front (a session over SSH, writing frames with a
/// `TerminalWriter`) can drive a viewer of its own the same way.
@MainActor
public final class TerminalFront {
  /// The viewer this front drives.
  public let viewer: Viewer
  /// Where its frames go and its input comes from.
  public let backend: any TerminalBackend
  /// When the event log is on: when the input being answered arrived, for latency figures.
  var inputArrived: DispatchTime?

  /// A viewer in this process's terminal (ncurses). Throws when there is no usable terminal.
  public convenience init(options: ViewerOptions) throws {
    // An explicit --charset braille or block is drawn whatever the locale says.
    let unicode = options.charset.map { $0 != .ascii } ?? false
    self.init(options: options, backend: try Screen(unicode: unicode))
  }

  /// A viewer on any backend (a `TestBackend` in tests), at the backend's size.
  public init(options: ViewerOptions, backend: any TerminalBackend) {
    self.backend = backend
    viewer = Viewer(
      options: options, columns: backend.columns, rows: backend.rows, unicode: backend.unicode)
  }

  /// Runs until `q` or a stop signal; gives the terminal back and returns the exit status.
  public func run() -> Int32 {
    defer {
      backend.end()
      viewer.finish()
    }
    start()
    while viewer.isRunning {
      if let s = TerminalGuard.pendingStop {
        viewer.stop(exitStatus: 128 + s)
        break
      }
      if TerminalGuard.takeContinued() {
        // Back from Ctrl-Z: the terminal shows what the shell left; draw everything again.
        backend.resume()
        viewer.setNeedsFrame()
      }
      step(timeout: viewer.inputTimeout)
    }
    return viewer.exitStatus
  }

  /// Starts the viewer (the first view, the loads).
  func start() {
    viewer.start()
    backend.measuresBytes = viewer.logsEvents
  }

  /// One turn of the loop: waits up to `timeout` ms for input, hands it and everything already
  /// queued to the viewer, and draws the viewer's frame when it has a new one.
  func step(timeout: Int32) {
    var input = false
    if let event = backend.nextEvent(timeout: timeout) {
      input = true
      if inputArrived == nil { inputArrived = .now() }
      deliver(event)
      // Take everything already queued (held keys) before drawing, so repeats stay smooth.
      while viewer.isRunning, let more = backend.nextEvent(timeout: 0) { deliver(more) }
    }
    guard let frame = viewer.turn(afterInput: input) else { return }
    if viewer.takeRepaintRequest() { backend.invalidate() }
    backend.draw(frame)
    if let t = inputArrived {
      let ms = Double(DispatchTime.now().uptimeNanoseconds - t.uptimeNanoseconds) / 1e6
      viewer.log(String(format: "latency ms=%.3f bytes=%d", ms, backend.lastFrameBytes))
      inputArrived = nil
    }
  }

  /// An event to the viewer; a resize first makes the backend take the terminal's new size.
  func deliver(_ event: InputEvent) {
    if event == .resize {
      backend.refreshSize()
      viewer.resize(columns: backend.columns, rows: backend.rows)
    }
    viewer.handle(event)
  }
}
