import Foundation

/// What a client asked for when it opened its shell: who, from where, and its terminal.
public struct SessionRequest: Sendable, Equatable {
  /// The SSH user name (may name a place to open at; never a file, URL or command).
  public var user: String
  /// The client's address, as the logs show it.
  public var remoteAddress: String
  /// The terminal type from the pty request (`TERM`).
  public var term: String
  /// The terminal's size in cells.
  public var columns: Int
  /// The terminal's height in cells.
  public var rows: Int
  /// The environment variables the server lets through (LANG, LC_*, COLORTERM).
  public var environment: [String: String]

  /// A request (the server makes these; tests may too).
  public init(
    user: String, remoteAddress: String, term: String, columns: Int, rows: Int,
    environment: [String: String]
  ) {
    self.user = user
    self.remoteAddress = remoteAddress
    self.term = term
    self.columns = columns
    self.rows = rows
    self.environment = environment
  }
}

/// Where a session writes its terminal's bytes. Thread-safe: a session may write from any
/// thread. Writes are queued on the connection; `pendingBytes` says how far the client is
/// behind, so a session coalesces frames (sends only the newest state) instead of queueing.
public protocol SessionOutput: Sendable {
  /// Queues bytes for the client's terminal.
  func send(_ bytes: [UInt8])
  /// Bytes queued and not yet taken by the connection (the client reads slower than the
  /// session writes when this grows).
  var pendingBytes: Int { get }
  /// Calls `body` once (on any thread) when the queue has drained below `threshold` bytes,
  /// at once if it already has.
  func whenDrained(below threshold: Int, _ body: @escaping @Sendable () -> Void)
  /// Ends the session: sends `bytes` last (restoring the client's terminal), then the exit
  /// status, and closes the channel.
  func finish(sending bytes: [UInt8], exitStatus: Int)
}

/// The program a session runs (the viewer): it hears the client's keys and resizes and
/// writes its frames to its ``SessionOutput``. Called from the connection's thread; a session
/// hops to its own thread or actor itself.
public protocol TerminalSession: Sendable {
  /// Bytes the client typed (keys, mouse reports, pasted text), as its terminal sent them.
  func received(_ bytes: [UInt8])
  /// The client's terminal was resized.
  func resized(columns: Int, rows: Int)
  /// The connection closed (the client left, or the server is stopping); the session
  /// releases what it holds. Nothing more may be sent.
  func ended()
}

/// Makes the session for a new shell. Nil refuses it with `refusal` sent to the client.
public typealias SessionFactory =
  @Sendable (SessionRequest, any SessionOutput) -> Result<any TerminalSession, SessionRefusal>

/// Why a shell was not started, in one line the client sees.
public struct SessionRefusal: Error, Sendable, Equatable {
  /// The line (sanitised by the server before it is sent).
  public var message: String
  /// A refusal saying `message`.
  public init(_ message: String) { self.message = message }
}
