import Foundation
import LiveLocation
import MapGeometry
import Synchronization
import Testing

/// Runs `body` on a thread and waits up to `seconds` for it; nil when it did not return (it
/// blocked), after `unblock` was called to release it.
func returnsPromptly<T: Sendable>(
  within seconds: Double, unblock: () -> Void, _ body: @escaping @Sendable () -> T
) -> T? {
  let result = Mutex<T?>(nil)
  let done = DispatchSemaphore(value: 0)
  Thread {
    let r = body()
    result.withLock { $0 = r }
    done.signal()
  }.start()
  if done.wait(timeout: .now() + seconds) == .timedOut {
    unblock()
    _ = done.wait(timeout: .now() + 10)
    return nil
  }
  return result.withLock { $0 }
}

func fix(_ k: Int) -> LocationFix {
  LocationFix(
    coordinate: Coordinate(latitude: 60.17 + Double(k) * 0.001, longitude: 24.94), altitude: 10,
    timestamp: Date(timeIntervalSince1970: 1_700_000_000 + Double(k)))
}

@Suite("The GPX recording: what it opens, what it keeps")
struct RecordingTests {
  @Test("a FIFO or a device is refused at once with a one-line reason, never opened for writing")
  func refusesWhatIsNotARegularFile() throws {
    let dir = try Scratch()
    let fifo = dir.path("pipe.gpx")
    #expect(mkfifo(fifo, 0o644) == 0)
    // 60 s: a failure bound only (the refusal takes no time; a loaded machine may keep the
    // thread from a core for seconds). An open() waiting for a reader would wait for ever.
    let outcome = returnsPromptly(
      within: 60,
      unblock: {
        // The old recorder waited in open() for a reader: be one, so the test ends.
        let fd = open(fifo, O_RDONLY | O_NONBLOCK)
        usleep(500_000)
        close(fd)
      }
    ) { () -> String in
      do {
        _ = try GPXRecorder(path: fifo)
        return "opened"
      } catch {
        return "\(error)"
      }
    }
    #expect(outcome == "\(fifo): not a regular file (a FIFO); not recorded")
    var error: LocationSourceError?
    do { _ = try GPXRecorder(path: "/dev/null") } catch let e { error = e }
    #expect(
      error?.description == "/dev/null: not a regular file (a character device); not recorded")
  }

  @Test("a file that is there and not a termmap recording is kept, directly or through a link")
  func keepsOtherFiles() throws {
    let dir = try Scratch()
    let notes = dir.path("notes.gpx")
    let text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"a phone\"></gpx>\n"
    try text.write(toFile: notes, atomically: false, encoding: .utf8)
    let link = dir.path("link.gpx")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: notes)
    for path in [notes, link] {
      var error: LocationSourceError?
      do { _ = try GPXRecorder(path: path) } catch let e { error = e }
      #expect(
        error?.description
          == "\(path): the file exists and is not a GPX track termmap recorded; it is kept (give a new name)"
      )
      #expect(try String(contentsOfFile: notes, encoding: .utf8) == text)
    }
    // A link to nowhere is not followed to create a file.
    let dangling = dir.path("dangling.gpx")
    try FileManager.default.createSymbolicLink(
      atPath: dangling, withDestinationPath: dir.path("elsewhere.gpx"))
    var error: LocationSourceError?
    do { _ = try GPXRecorder(path: dangling) } catch let e { error = e }
    #expect(error?.description == "\(dangling): a symbolic link to a file that does not exist")
    #expect(!FileManager.default.fileExists(atPath: dir.path("elsewhere.gpx")))
  }

  @Test("a recording termmap made gets a new track, the old points kept (also through a link)")
  func addsATrack() throws {
    let dir = try Scratch()
    let path = dir.path("ride.gpx")
    do {
      let first = try GPXRecorder(path: path, name: "morning")
      #expect(!first.appended)
      first.append(fix(0))
      first.append(fix(1))
    }
    #expect(try GPXValidity.check(path) == 2)
    // Reopened without a point: the file is unchanged.
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    do { _ = try GPXRecorder(path: path) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    let link = dir.path("latest.gpx")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    let second = try GPXRecorder(path: link, name: "evening")
    #expect(second.appended)
    second.append(fix(2))
    #expect(try GPXValidity.check(path) == 3)
    second.newSegment()
    second.newSegment()
    second.append(fix(3))
    #expect(try GPXValidity.check(path) == 4)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.components(separatedBy: "<trk>").count == 3)
    #expect(text.components(separatedBy: "<trkseg>").count == 4)
    #expect(text.contains("<name>morning</name>") && text.contains("<name>evening</name>"))
    #expect(text.hasPrefix(String(decoding: before.prefix(200), as: UTF8.self)))
  }

  @Test("the writer records every fix in order from a bounded queue, and says what it wrote")
  func writerKeepsEveryFix() throws {
    let dir = try Scratch()
    let path = dir.path("queued.gpx")
    let writer = RecordingWriter(recorder: try GPXRecorder(path: path), capacity: 8)
    for k in 0..<500 {
      #expect(writer.put(.fix(fix(k))))
      if k == 250 { writer.put(.gap) }
    }
    #expect(writer.close(timeout: 30))
    #expect(!writer.put(.fix(fix(501))))
    #expect(writer.recorder.pointCount == 500 && writer.notWritten == 0)
    #expect(try GPXValidity.check(path) == 500)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.components(separatedBy: "<trkseg>").count == 3)
    let lats: [String] = text.components(separatedBy: "lat=\"").dropFirst().map {
      String($0.prefix(10))
    }
    let expected: [String] = (0..<500).map { String(format: "%.7f", 60.17 + Double($0) * 0.001) }
    #expect(lats == expected)
  }
}

@Suite("Following a file that is replaced by a FIFO")
struct FollowFIFOTests {
  @Test("the follower says the path is not a regular file and stops at once when asked")
  func replacedByFIFO() throws {
    let dir = try Scratch()
    let path = dir.path("log.csv")
    try "lat,lon\n43.7338,7.4207\n".write(toFile: path, atomically: false, encoding: .utf8)
    let log = EventLog()
    let p = FileFollowProvider(path: path, pollInterval: 0.05)
    p.start(log.handler)
    #expect(log.wait(timeout: 30) { $0.fixes.count == 1 })
    try FileManager.default.removeItem(atPath: path)
    #expect(mkfifo(path, 0o644) == 0)
    let said = log.wait(timeout: 60) { !$0.failures.isEmpty }
    if !said {
      // The old follower waits in open() for a writer: be one, so the test ends.
      let fd = open(path, O_WRONLY | O_NONBLOCK)
      close(fd)
    }
    #expect(said)
    #expect(log.failures.first == "\(path): not a regular file (a FIFO); not read")
    // stop() waits for the reading thread, giving up after 200 sleeps of 10 ms (at least 2 s
    // however loaded the machine): under 2 s, the thread had ended (a thread waiting in
    // open() never does). A bound of 1.5 s also failed a stop that waited for a starved core.
    let start = Date()
    p.stop()
    #expect(Date().timeIntervalSince(start) < 2)
  }
}
