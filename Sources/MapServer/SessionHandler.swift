import Foundation
import NIOCore
import NIOSSH
import Synchronization

#if os(Linux)
  import Glibc
#endif

/// One session channel: takes a pty request, a few environment variables, window changes and
/// one shell; refuses commands and subsystems. Runs on the connection's event loop.
final class SessionHandler: ChannelDuplexHandler {
  typealias InboundIn = SSHChannelData
  typealias InboundOut = ByteBuffer
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = SSHChannelData

  /// Environment variables a session may set: the locale and colour support. Nothing else
  /// from the client reaches the session.
  static func allowed(_ name: String) -> Bool {
    name == "LANG" || name == "COLORTERM" || name.hasPrefix("LC_")
  }

  let server: SSHServer
  let source: String
  let user: String
  var pty: SSHChannelRequestEvent.PseudoTerminalRequest?
  var environment: [String: String] = [:]
  var session: (any TerminalSession)?
  var counted = false

  init(server: SSHServer, source: String, user: String) {
    self.server = server
    self.source = source
    self.user = user
  }

  func handlerAdded(context: ChannelHandlerContext) {
    _ = context.channel.setOption(ChannelOptions.allowRemoteHalfClosure, value: true)
  }

  func channelInactive(context: ChannelHandlerContext) {
    session?.ended()
    session = nil
    if counted {
      counted = false
      server.endSession()
    }
    context.fireChannelInactive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let data = unwrapInboundIn(data)
    guard case .channel = data.type, case .byteBuffer(let buffer) = data.data,
      let session
    else { return }
    session.received(Array(buffer.readableBytesView))
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    switch event {
    case let pty as SSHChannelRequestEvent.PseudoTerminalRequest:
      self.pty = pty
      reply(context, pty.wantReply, true)
    case let env as SSHChannelRequestEvent.EnvironmentRequest:
      let ok = Self.allowed(env.name) && env.value.utf8.count <= 256
      if ok { environment[env.name] = SSHServer.clean(env.value) }
      reply(context, env.wantReply, ok)
    case let shell as SSHChannelRequestEvent.ShellRequest:
      startShell(context, wantReply: shell.wantReply)
    case let exec as SSHChannelRequestEvent.ExecRequest:
      // Taken, so that the client shows the one line and the exit status (a failed request
      // would end it with the client's own words before the line arrives).
      server.refused("command", source: source, user: user)
      reply(context, exec.wantReply, true)
      refuse(context, "termmap serve runs no commands: connect without one (ssh -p PORT HOST)")
    case let subsystem as SSHChannelRequestEvent.SubsystemRequest:
      server.refused(
        "subsystem \(SSHServer.clean(subsystem.subsystem))", source: source, user: user,
        reason: "subsystem")
      reply(context, subsystem.wantReply, false)
      refuse(context, "termmap serve has no subsystems")
    case let change as SSHChannelRequestEvent.WindowChangeRequest:
      session?.resized(
        columns: Self.clamp(change.terminalCharacterWidth),
        rows: Self.clamp(change.terminalRowHeight))
    case is ChannelEvent:
      context.fireUserInboundEventTriggered(event)
    default:
      context.fireUserInboundEventTriggered(event)
    }
  }

  /// Terminal sizes as sessions take them (a client may claim anything).
  static func clamp(_ n: Int) -> Int { min(max(n, 1), 1000) }

  func reply(_ context: ChannelHandlerContext, _ wantReply: Bool, _ ok: Bool) {
    guard wantReply else { return }
    let event: Any = ok ? ChannelSuccessEvent() : ChannelFailureEvent()
    context.triggerUserOutboundEvent(event, promise: nil)
  }

  func startShell(_ context: ChannelHandlerContext, wantReply: Bool) {
    guard session == nil else { return reply(context, wantReply, false) }
    guard let pty else {
      server.refused("no terminal", source: source, user: user)
      reply(context, wantReply, false)
      return refuse(context, "termmap serve draws a map and needs a terminal (ssh -t)")
    }
    guard server.beginSession() else {
      server.refused("server full", source: source, user: user)
      reply(context, wantReply, false)
      return refuse(context, "termmap serve: the server is full; try again later")
    }
    counted = true
    reply(context, wantReply, true)
    let request = SessionRequest(
      user: user, remoteAddress: source, term: SSHServer.clean(pty.term),
      columns: Self.clamp(pty.terminalCharacterWidth), rows: Self.clamp(pty.terminalRowHeight),
      environment: environment)
    let output = ChannelOutput(channel: context.channel, server: server)
    switch server.factory(request, output) {
    case .success(let session):
      self.session = session
      server.logger.info(
        "session",
        metadata: [
          "remote": .string(source), "user": .string(SSHServer.clean(user)),
          "size": .string("\(request.columns)x\(request.rows)"), "term": .string(request.term),
        ])
    case .failure(let refusal):
      server.refused(refusal.message, source: source, user: user, reason: "session refused")
      refuse(context, refusal.message)
    }
  }

  /// One line on the client's stderr, exit status 1, and the channel closes.
  func refuse(_ context: ChannelHandlerContext, _ message: String) {
    let channel = context.channel
    var buffer = channel.allocator.buffer(capacity: message.utf8.count + 2)
    buffer.writeString(SSHServer.clean(message, limit: 200) + "\r\n")
    // The line first, flushed; then the exit status; then the close (a request would
    // overtake data still waiting to be flushed).
    channel.writeAndFlush(SSHChannelData(type: .stdErr, data: .byteBuffer(buffer)))
      .whenComplete { _ in
        channel.triggerUserOutboundEvent(SSHChannelRequestEvent.ExitStatus(exitStatus: 1))
          .whenComplete { _ in channel.close(promise: nil) }
      }
  }
}

/// A session's output: bytes queued on its channel, counted until the client's side of the
/// link has them (one per shell, made when the shell starts). The count is what waits in the
/// connection (SwiftNIO's buffers and a full SSH window) plus, on Linux, what waits in the
/// kernel's send buffer not yet sent (`TCP_INFO`'s `tcpi_notsent_bytes`). A socket's send
/// buffer grows to megabytes, so without the kernel's part a slow link would look drained
/// while seconds of frames wait in it. (Bytes sent and not yet acknowledged are not counted: a
/// delayed acknowledgement would make a fast link look slow.)
struct ChannelOutput: SessionOutput {
  let channel: any Channel
  let queue: Queue
  let server: SSHServer?

  /// The shared count and the drain waiters of one channel.
  final class Queue: Sendable {
    struct State {
      var pending = 0
      var kernel = 0
      var polling = false
      var waiters: [(threshold: Int, body: @Sendable () -> Void)] = []
    }
    let state = Mutex(State())

    /// Sets the kernel's part; the waiters now due, and whether to look again soon.
    func update(kernel: Int? = nil, written: Int = 0, fromPoll: Bool = false) -> (
      due: [@Sendable () -> Void], poll: Bool
    ) {
      state.withLock { s in
        s.pending -= written
        if let kernel { s.kernel = kernel }
        let total = s.pending + s.kernel
        let due = s.waiters.filter { total < $0.threshold }.map(\.body)
        s.waiters.removeAll { total < $0.threshold }
        var poll = false
        if s.kernel > 0 && (!s.polling || fromPoll) {
          s.polling = true
          poll = true
        } else if s.kernel == 0 {
          s.polling = false
        }
        return (due, poll)
      }
    }
  }

  init(channel: any Channel, server: SSHServer? = nil) {
    self.channel = channel
    self.server = server
    queue = Queue()
  }

  var pendingBytes: Int { queue.state.withLock { $0.pending + $0.kernel } }

  func send(_ bytes: [UInt8]) {
    guard !bytes.isEmpty else { return }
    server?.countFrame(bytes: bytes.count)
    queue.state.withLock { $0.pending += bytes.count }
    let queue = queue
    let channel = channel
    channel.eventLoop.execute {
      var buffer = channel.allocator.buffer(capacity: bytes.count)
      buffer.writeBytes(bytes)
      channel.writeAndFlush(SSHChannelData(type: .channel, data: .byteBuffer(buffer)))
        .whenComplete { _ in Self.sample(channel, queue, written: bytes.count, fromPoll: false) }
    }
  }

  /// Reads how much the kernel holds for the client (on the connection's event loop) and,
  /// while it holds any, reads again every 2 ms, so a drain is noticed when it happens.
  static func sample(_ channel: any Channel, _ queue: Queue, written: Int, fromPoll: Bool) {
    #if os(Linux)
      if channel.isActive, let socket = channel.parent as? any SocketOptionProvider {
        let info: EventLoopFuture<KernelTCPInfo> = socket.unsafeGetSocketOption(
          level: SocketOptionLevel(IPPROTO_TCP), name: SocketOptionName(TCP_INFO))
        info.whenComplete { result in
          let queued = (try? result.get())?.notSentBytes ?? 0
          let (due, poll) = queue.update(kernel: queued, written: written, fromPoll: fromPoll)
          for body in due { body() }
          if poll {
            channel.eventLoop.scheduleTask(in: .milliseconds(2)) {
              sample(channel, queue, written: 0, fromPoll: true)
            }
          }
        }
        return
      }
    #endif
    let (due, _) = queue.update(kernel: 0, written: written)
    for body in due { body() }
  }

  func whenDrained(below threshold: Int, _ body: @escaping @Sendable () -> Void) {
    let now = queue.state.withLock { s -> Bool in
      if s.pending + s.kernel < threshold { return true }
      s.waiters.append((threshold, body))
      return false
    }
    if now { body() }
  }

  func finish(sending bytes: [UInt8], exitStatus: Int) {
    let channel = channel
    channel.eventLoop.execute {
      var buffer = channel.allocator.buffer(capacity: bytes.count)
      buffer.writeBytes(bytes)
      channel.writeAndFlush(SSHChannelData(type: .channel, data: .byteBuffer(buffer)))
        .whenComplete { _ in
          channel.triggerUserOutboundEvent(
            SSHChannelRequestEvent.ExitStatus(exitStatus: exitStatus)
          ).whenComplete { _ in channel.close(promise: nil) }
        }
    }
  }
}

#if os(Linux)
  /// The start of Linux's `struct tcp_info` (linux/tcp.h; Glibc's copy stops before the
  /// fields read here), as raw words: getsockopt fills what the kernel has, the rest stays 0.
  struct KernelTCPInfo: Sendable {
    var words:
      (
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
      ) = (
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
      )

    /// Bytes the kernel holds for the peer not yet sent (`tcpi_notsent_bytes`, at offset
    /// 144; kernels before 4.6 leave it 0).
    var notSentBytes: Int {
      withUnsafeBytes(of: words) { Int($0.loadUnaligned(fromByteOffset: 144, as: UInt32.self)) }
    }
  }
#endif
