import DotRaster
import Foundation

/// The viewer on a remote terminal (a session over SSH): bytes in, frames out as ANSI
/// differences, with no ncurses, no signals and no file descriptor. The server hands it the
/// client's bytes and window changes; it answers through the closures it was given.
///
/// Output is paced by the link: while more than `backlogLimit` bytes wait to be sent, no frame
/// is written; when they drain, the newest state is written (frames coalesce, so a slow link
/// sees fewer frames, never a growing queue). The link is measured: a frame of at least 4 KB
/// and half the largest, written to an idle link, is timed until it has left. When at that
/// rate a full repaint (the largest frame sent) would take longer than three animation steps
/// (48 ms), the link is slow; it is fast again only when a frame of a full repaint's size
/// leaves in that time. On a slow link, or when an animation step finds more than the last
/// frame still waiting, an animation jumps to its end, so a zoom over a slow link costs one
/// frame (one full repaint at most) instead of every step. Keys that arrive while frames are held change
/// the view at once; the frame that follows shows them all.
@MainActor
public final class SessionFront {
  /// The link to the client.
  public struct Link: Sendable {
    /// Queues bytes for the client.
    public var send: @Sendable ([UInt8]) -> Void
    /// Bytes queued and not yet taken by the connection.
    public var backlog: @Sendable () -> Int
    /// Calls the closure once the backlog is below the threshold.
    public var whenDrained: @Sendable (Int, @escaping @Sendable () -> Void) -> Void
    /// Sends the last bytes and the exit status, and closes.
    public var finish: @Sendable ([UInt8], Int) -> Void

    /// A link of these closures.
    public init(
      send: @escaping @Sendable ([UInt8]) -> Void, backlog: @escaping @Sendable () -> Int,
      whenDrained: @escaping @Sendable (Int, @escaping @Sendable () -> Void) -> Void,
      finish: @escaping @Sendable ([UInt8], Int) -> Void
    ) {
      self.send = send
      self.backlog = backlog
      self.whenDrained = whenDrained
      self.finish = finish
    }
  }

  /// The viewer this front drives.
  public let viewer: Viewer
  let link: Link
  let unicode: Bool
  var writer: TerminalWriter
  var decoder = InputDecoder()
  var ticking = false
  var waitingForDrain = false
  var escapeDeadline: DispatchTime?
  var ended = false
  var asciiCache: [Unicode.Scalar: Unicode.Scalar] = [:]
  /// Bytes allowed to wait on the link before frames are held back (one large frame).
  public var backlogLimit = 32 * 1024
  /// Frames written.
  public private(set) var framesSent = 0
  /// Bytes written.
  public private(set) var bytesSent = 0
  /// Whether the link was measured too slow to animate: at the rate a timed frame left, a
  /// full repaint (the largest frame sent so far, at least 5 bytes a cell) would take longer
  /// than ``slowDrain``. Once slow, the link is fast again only when a frame of a full
  /// repaint's size leaves in time (a smaller one leaving early proves nothing: most of it may
  /// have fitted in what the line holds in flight).
  public private(set) var linkIsSlow = false
  /// A full repaint that takes longer than this to leave makes the link slow (three animation
  /// steps).
  public static let slowDrain = Duration.milliseconds(48)
  var timingFrame = false
  var lastFrameBytes = 0
  var largestFrameBytes = 0

  /// Sets the terminal up for the map: the alternate screen, no cursor, the mouse's button
  /// and motion reports in SGR form.
  static let setUp = Array(
    "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?1002h\u{1B}[?1006h\u{1B}[H\u{1B}[2J".utf8)
  /// Gives the terminal back as it was.
  static let tearDown = Array("\u{1B}[0m\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?25h\u{1B}[?1049l".utf8)

  /// A viewer for a client's terminal of this size, `TERM` and environment (LANG, LC_*,
  /// COLORTERM), searching `gazetteer` (one for all sessions; nil: the viewer loads its own);
  /// `prepare` may add shared overlays to the map before the viewer starts.
  public init(
    options: ViewerOptions, columns: Int, rows: Int, term: String,
    environment: [String: String], gazetteer: Gazetteer? = nil, link: Link,
    prepare: (Viewer) -> Void = { _ in }
  ) {
    unicode = Self.showsUnicode(environment)
    let colors: ColorDepth =
      ColorDepth.announcesTrueColor(environment)
      ? .truecolor
      : term.contains("256color") || term.contains("direct")
        ? .palette256
        : term == "dumb" ? .none : .basic16
    writer = TerminalWriter(features: TerminalWriter.Features(colors: colors))
    viewer = Viewer(options: options, columns: columns, rows: rows, unicode: unicode)
    self.link = link
    if let gazetteer { viewer.gazetteer = gazetteer }
    prepare(viewer)
  }

  /// Whether a locale shows braille: UTF-8, or no locale sent at all (most SSH clients send
  /// none; most terminals today are UTF-8).
  static func showsUnicode(_ environment: [String: String]) -> Bool {
    let locale = environment["LC_ALL"] ?? environment["LC_CTYPE"] ?? environment["LANG"]
    guard let locale, !locale.isEmpty else { return true }
    let l = locale.lowercased()
    return l.contains("utf-8") || l.contains("utf8")
  }

  /// Sets the terminal up, starts the viewer and its clock.
  public func start() {
    link.send(Self.setUp)
    viewer.start()
    SessionClock.shared.add(self)
    ticking = true
  }

  /// The client typed.
  public func received(_ bytes: [UInt8]) {
    guard !ended else { return }
    for event in decoder.decode(bytes) { deliver(event) }
    escapeDeadline = decoder.hasPending ? .now() + .milliseconds(40) : nil
    tick(afterInput: true)
  }

  /// The client's window changed.
  public func resized(columns: Int, rows: Int) {
    guard !ended else { return }
    viewer.resize(columns: columns, rows: rows)
    viewer.handle(.resize)
    writer.reset()
    tick(afterInput: true)
  }

  /// The connection is gone: stop without writing.
  public func closed() {
    guard !ended else { return }
    ended = true
    if ticking { SessionClock.shared.remove(self) }
    ticking = false
    viewer.finish()
  }

  /// The server is stopping: a last line, the terminal given back.
  public func stop(message: String) {
    guard !ended else { return }
    viewer.stop(exitStatus: 0)
    end(lastLine: message)
  }

  func deliver(_ event: InputEvent) {
    guard viewer.isRunning else { return }
    viewer.handle(event)
  }

  func end(lastLine: String?) {
    guard !ended else { return }
    ended = true
    if ticking { SessionClock.shared.remove(self) }
    ticking = false
    viewer.finish()
    var bytes = Self.tearDown
    if let lastLine { bytes += Array("\(lastLine)\r\n".utf8) }
    link.finish(bytes, Int(viewer.exitStatus))
  }

  /// One turn: a pending lone Esc becomes the Esc key once nothing followed it, the viewer
  /// turns, and its frame is written when the link has room.
  func tick(afterInput input: Bool) {
    guard !ended else { return }
    if let deadline = escapeDeadline, DispatchTime.now() >= deadline {
      escapeDeadline = nil
      for event in decoder.flush() { deliver(event) }
    }
    guard viewer.isRunning else { return end(lastLine: nil) }
    // On a slow link frames go one at a time: the next (the newest state) once the last has
    // left, so what changes meanwhile (tiles arriving, keys) costs one frame, not several.
    let limit = linkIsSlow ? 0 : backlogLimit
    if link.backlog() > limit {
      // The client is behind: no frame, and no animation step, until it catches up.
      if !waitingForDrain {
        waitingForDrain = true
        link.whenDrained(linkIsSlow ? 1 : backlogLimit / 4) { [weak self] in
          DispatchQueue.main.async {
            MainActor.assumeIsolated {
              self?.waitingForDrain = false
              self?.viewer.setNeedsFrame()
              self?.tick(afterInput: true)
            }
          }
        }
      }
      return
    }
    if viewer.map.isAnimating && (linkIsSlow || link.backlog() > lastFrameBytes) {
      // A slow link, or more than one frame waiting: the animation's end, in one frame.
      viewer.map.finishChanges()
    }
    guard var frame = viewer.turn(afterInput: input) else {
      if !viewer.isRunning { end(lastLine: nil) }
      return
    }
    if viewer.takeRepaintRequest() { writer.reset() }
    frame.repairWideGlyphs()
    if !unicode { frame = ASCIIFolding.fold(frame, cache: &asciiCache) }
    let bytes = writer.update(to: frame)
    framesSent += 1
    bytesSent += bytes.count
    lastFrameBytes = bytes.count
    largestFrameBytes = max(largestFrameBytes, bytes.count)
    let idle = link.backlog() == 0
    // The clock read before the bytes are handed over: the connection's thread may send them
    // (and a fast line take them) before this thread runs on, and a clock read after that,
    // on a loaded machine, timed a slow line as if it were fast.
    let start = ContinuousClock.now
    link.send(bytes)
    // Only a large frame is timed: a small one fits in what the line holds in flight (a few
    // KB) and leaves at once however slow the line is.
    if idle && bytes.count >= max(4096, largestFrameBytes / 2) && !timingFrame {
      timingFrame = true
      // A full repaint: the largest frame so far, and at least 5 bytes a cell (a braille
      // character and its share of colour codes), as the first view may be mostly empty.
      let full = max(largestFrameBytes, viewer.columns * viewer.rows * 5)
      let count = bytes.count
      // Called on the connection's thread when the bytes have left: the time is taken there.
      link.whenDrained(1) { [weak self] in
        let took = ContinuousClock.now - start
        DispatchQueue.main.async {
          MainActor.assumeIsolated { self?.measured(bytes: count, took: took, fullRepaint: full) }
        }
      }
    }
    if !viewer.isRunning { end(lastLine: nil) }
  }
}

extension SessionFront {
  /// A timed frame of `bytes` has left `took` after it was handed over; a full repaint is
  /// `fullRepaint` bytes.
  ///
  /// The frame proves the link slow when at that rate a full repaint takes longer than
  /// ``slowDrain``: the line carried at most `bytes` in `took` (less on a loaded machine,
  /// whose clock ran on while the threads waited for a core). It cannot prove it fast: what
  /// the line holds in flight (several KB on the test's proxy, a bandwidth-delay product on a
  /// real line) leaves at once however slow the line is, so a frame little larger than that
  /// leaves early. Only a whole full repaint leaving within ``slowDrain`` shows that the link
  /// carries one in time, and makes a slow link fast again.
  ///
  /// (Before, a fast reading made the link fast unless a larger frame had read slow. In traces
  /// of the test's 1 Mbit/s line, 4 of 43 timed frames, of 6.1–7.3 KB, read fast; a session
  /// whose only slow reading came from a smaller frame was then judged fast: the likely way,
  /// on a loaded machine, its zoom key once animated, 4 frames and 49,792 bytes.)
  func measured(bytes: Int, took: Duration, fullRepaint: Int) {
    timingFrame = false
    if took * (Double(fullRepaint) / Double(bytes)) > Self.slowDrain {
      linkIsSlow = true
    } else if bytes >= fullRepaint {
      linkIsSlow = false
    }
  }
}

/// One clock for every session front: each front turns every 16 ms. One timer for all, not
/// one each: with 100 sessions, 100 timers of 16 ms cost the dispatch machinery (its timer
/// heap, a timerfd re-armed, a thread woken) more than the turns themselves (a profile of
/// `termmap bench serve`: about 10 % of the server's samples).
@MainActor
final class SessionClock {
  static let shared = SessionClock()
  final class Entry {
    weak var front: SessionFront?
    init(_ front: SessionFront) { self.front = front }
  }
  var fronts: [ObjectIdentifier: Entry] = [:]
  var timer: DispatchSourceTimer?

  func add(_ front: SessionFront) {
    fronts[ObjectIdentifier(front)] = Entry(front)
    guard timer == nil else { return }
    let timer = DispatchSource.makeTimerSource(queue: .main)
    timer.schedule(deadline: .now(), repeating: .milliseconds(16), leeway: .milliseconds(4))
    timer.setEventHandler { [weak self] in
      MainActor.assumeIsolated { self?.tick() }
    }
    timer.resume()
    self.timer = timer
  }

  func remove(_ front: SessionFront) {
    fronts[ObjectIdentifier(front)] = nil
    if fronts.isEmpty {
      timer?.cancel()
      timer = nil
    }
  }

  func tick() {
    // A turn may end its session (and remove it): turn a copy.
    var gone: [ObjectIdentifier] = []
    for (id, entry) in Array(fronts) {
      if let front = entry.front { front.tick(afterInput: false) } else { gone.append(id) }
    }
    for id in gone { fronts[id] = nil }
  }
}
