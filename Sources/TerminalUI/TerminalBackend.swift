import DotRaster
import Foundation

/// What the viewer draws on and reads from: the ncurses `Screen` in a terminal, or a
/// `TestBackend` in memory. All calls happen on the main actor.
@MainActor
public protocol TerminalBackend: AnyObject {
  /// The size in cells.
  var columns: Int { get }
  var rows: Int { get }
  /// Whether braille and other non-ASCII glyphs can be shown (a UTF-8 locale).
  var unicode: Bool { get }
  /// Count the bytes each frame writes (for the event log's latency lines).
  var measuresBytes: Bool { get set }
  /// Bytes the last frame wrote (0 when not measured).
  var lastFrameBytes: Int { get }
  /// Takes the new size after a `.resize` event.
  func refreshSize()
  /// Draws a whole frame (a backend may write only what changed).
  func draw(_ frame: CellBuffer)
  /// Forgets the last frame, so the next one is drawn whole.
  func invalidate()
  /// After the process was stopped and continued (Ctrl-Z, `fg`): puts back the terminal modes
  /// the program set itself and forgets the last frame.
  func resume()
  /// Waits up to `timeout` milliseconds for input (0: only what is already there).
  func nextEvent(timeout milliseconds: Int32) -> InputEvent?
  /// Gives the terminal back.
  func end()
}

/// A key that is not a plain character.
public enum Key: Equatable, Sendable {
  case left, right, up, down
  /// Shift with an arrow.
  case shiftLeft, shiftRight, shiftUp, shiftDown
  case backTab
  case enter
  case backspace
}

/// What the terminal sent, in the viewer's own terms (no ncurses codes).
public enum InputEvent: Equatable, Sendable {
  /// A typed character, including control characters such as Esc, Tab and Return.
  case character(Character)
  case key(Key)
  case mouse(MouseEvent)
  case resize
}

/// A mouse report: where, and what happened.
public struct MouseEvent: Equatable, Sendable {
  public enum Action: Equatable, Sendable {
    /// The left button went down.
    case press
    /// The pointer moved (with or without the left button held).
    case motion
    /// The left button went up.
    case release
    /// A press and release reported as one.
    case click
    case wheelUp
    case wheelDown
  }
  public let column: Int
  public let row: Int
  public let action: Action

  public init(column: Int, row: Int, action: Action) {
    self.column = column
    self.row = row
    self.action = action
  }
}

/// An in-memory terminal for tests (like ratatui's `TestBackend`): events are queued by the
/// test, frames are kept whole and read back as text.
@MainActor
public final class TestBackend: TerminalBackend {
  public private(set) var columns: Int
  public private(set) var rows: Int
  public let unicode: Bool
  public var measuresBytes = false
  public var lastFrameBytes: Int { 0 }
  /// The last frame drawn.
  public private(set) var frame: CellBuffer?
  /// How many frames were drawn.
  public private(set) var framesDrawn = 0
  public private(set) var ended = false
  private var pending: [InputEvent] = []
  private var pendingSize: (columns: Int, rows: Int)?

  public init(columns: Int = 80, rows: Int = 24, unicode: Bool = true) {
    self.columns = columns
    self.rows = rows
    self.unicode = unicode
  }

  /// Queues events for the viewer to read.
  public func send(_ events: InputEvent...) { pending += events }
  public func send(_ events: [InputEvent]) { pending += events }
  /// Queues each character of `text`.
  public func type(_ text: String) { pending += text.map { .character($0) } }
  /// Changes the size and queues the resize event.
  public func resize(columns: Int, rows: Int) {
    pendingSize = (columns, rows)
    pending.append(.resize)
  }
  /// Whether events are waiting to be read.
  public var hasPendingInput: Bool { !pending.isEmpty }

  public func refreshSize() {
    if let s = pendingSize {
      columns = s.columns
      rows = s.rows
      pendingSize = nil
    }
  }

  public func draw(_ frame: CellBuffer) {
    self.frame = frame
    framesDrawn += 1
  }

  public func invalidate() {}

  /// Counted: how often the viewer came back from a stop.
  public private(set) var resumes = 0

  public func resume() { resumes += 1 }

  public func nextEvent(timeout milliseconds: Int32) -> InputEvent? {
    pending.isEmpty ? nil : pending.removeFirst()
  }

  public func end() { ended = true }

  /// The last frame as text lines, one per row (wide glyphs' second cells left out).
  public var lines: [String] { frame?.lines ?? [] }
}
