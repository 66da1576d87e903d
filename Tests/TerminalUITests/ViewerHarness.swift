import DotRaster
import Foundation
import Testing

@testable import TerminalUI

/// A viewer on an in-memory terminal: events go in, whole frames come out as text, and time is
/// the test's own (gestures settle and messages expire when the test says time has passed).
@MainActor
final class Harness {
  let backend: TestBackend
  /// The front that reads the backend and draws the viewer's frames on it.
  let front: TerminalFront
  let viewer: Viewer
  /// The viewer's clock.
  var now = Date(timeIntervalSince1970: 1_000_000_000)

  /// The place names, read once for all tests.
  nonisolated static let gazetteer: Gazetteer? = {
    guard let dir = dataDirectory else { return nil }
    return try? Gazetteer(directory: dir)
  }()

  nonisolated static let dataDirectory: URL? = {
    let dir = Tmux.repositoryRoot.appendingPathComponent("Data")
    return FileManager.default.fileExists(atPath: dir.appendingPathComponent("places.tsv.gz").path)
      ? dir : nil
  }()

  /// A repository file's path.
  nonisolated static func path(_ relative: String) -> String {
    relative.hasPrefix("/") ? relative : Tmux.repositoryRoot.appendingPathComponent(relative).path
  }

  /// Starts a viewer on `files` (repository paths) and waits until they have loaded.
  /// `places`: give it the gazetteer at once (else it has none, as if still loading).
  init(
    _ files: [String] = [], columns: Int = 100, rows: Int = 30, unicode: Bool = true,
    places: Bool = true, configure: (inout ViewerOptions) -> Void = { _ in }
  ) throws {
    backend = TestBackend(columns: columns, rows: rows, unicode: unicode)
    var options = ViewerOptions()
    options.files = files.map(Harness.path)
    configure(&options)
    options.dataDirectory = nil
    front = TerminalFront(options: options, backend: backend)
    viewer = front.viewer
    viewer.clock = { [unowned self] in now }
    if places {
      guard let g = Harness.gazetteer else {
        Issue.record("Data/places.tsv.gz not found")
        throw TmuxError("no places")
      }
      viewer.gazetteer = g
    }
    front.start()
    // Without places: still loading, until the test hands them over.
    if !places { viewer.gazetteerError = nil }
    try waitForLoads()
    settle()
  }

  /// Hands over the place names, as the loading thread does when it is done.
  func deliverPlaces() throws {
    let places: Gazetteer? = Harness.gazetteer
    viewer.gazetteerInbox.put(.success(try #require(places)))
    viewer.displayRequested.set()
    settle()
  }

  /// Runs the loop until every file has arrived (a failure time-out, not a measurement).
  func waitForLoads(timeout: Double = 60) throws {
    let end = Date().addingTimeInterval(timeout)
    while viewer.pendingLoads > 0 {
      try #require(Date() < end, "files still loading after \(timeout) s")
      usleep(1000)
      step()
    }
  }

  /// One turn of the loop, 20 ms later on the viewer's clock.
  func step() {
    now = now.addingTimeInterval(0.02)
    front.step(timeout: 0)
  }

  /// Runs the loop until input is used up, gestures have settled, animations have ended and
  /// messages are as they will stay for a while (at most 500 turns: 10 s of viewer time).
  func settle() {
    for _ in 0..<500 {
      step()
      if !backend.hasPendingInput && !viewer.map.isAnimating && !viewer.map.isInteracting {
        break
      }
    }
    step()
  }

  /// Sends events and settles.
  func send(_ events: InputEvent...) {
    backend.send(events)
    settle()
  }

  /// Types text (each character an event) and settles.
  func type(_ text: String) {
    backend.type(text)
    settle()
  }

  /// Moves the viewer's clock on and runs the loop once.
  func wait(seconds: Double) {
    now = now.addingTimeInterval(seconds)
    step()
  }

  /// The screen as text lines.
  var screen: [String] { backend.lines }
  var text: String { screen.joined(separator: "\n") }
  /// The last row.
  var status: String { screen.last ?? "" }

  /// Where a string starts on screen (column, row), in cells.
  func find(_ needle: String) -> (column: Int, row: Int)? {
    for (row, line) in screen.enumerated() {
      if let r = line.range(of: needle) {
        return (CellBuffer.displayWidth(of: String(line[..<r.lowerBound])), row)
      }
    }
    return nil
  }

  /// The cells of the last frame.
  var frame: CellBuffer? { backend.frame }
}
