import Crypto
import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSH
import Synchronization

/// An SSH server that gives each connection a terminal session (the map viewer) and nothing
/// else: session channels with a pty, a shell and window changes, a few environment variables.
/// Commands (`ssh host command`), subsystems (sftp), port forwarding both ways, agent and X11
/// forwarding are refused. Connections are limited per source address (at once and per
/// minute) and sessions in all.
public final class SSHServer: Sendable {
  /// Who may connect.
  public enum Access: Sendable {
    /// Anyone, with any user name and no password (the mapscii.me way).
    case anonymous
    /// Holders of these keys.
    case keys(AuthorizedKeys)
  }

  /// What the server allows.
  public struct Limits: Sendable {
    /// Sessions at once, over all clients.
    public var maxSessions = 100
    /// Connections at once from one address.
    public var maxConnectionsPerSource = 10
    /// New connections a minute from one address (a burst of this many, refilled evenly).
    public var connectionsPerMinutePerSource = 60
    /// A connection with nothing read from it for this long is closed (seconds; 0: never).
    public var idleTimeout: TimeInterval = 30 * 60
    /// A connection must finish authenticating within this time (seconds).
    public var loginGraceTime: TimeInterval = 30
    /// Limits with these defaults.
    public init() {}
  }

  let hostKey: HostKey
  let access: Mutex<Access>
  let limits: Limits
  let factory: SessionFactory
  let logger: Logger
  let group: MultiThreadedEventLoopGroup
  let state = Mutex(ServerState())
  let channel: Mutex<(any Channel)?> = Mutex(nil)
  let metricsChannel: Mutex<(any Channel)?> = Mutex(nil)
  let framesSent = Atomic<Int>(0)
  let bytesOut = Atomic<Int>(0)

  struct ServerState {
    var sessions = 0
    var connections: [String: Int] = [:]
    var buckets: [String: (tokens: Double, at: ContinuousClock.Instant)] = [:]
    var open: [ObjectIdentifier: any Channel] = [:]
    var counters = Counters()
  }

  /// What the server has done so far (for logs and metrics).
  public struct Counters: Sendable, Equatable {
    /// Connections accepted.
    public var connections = 0
    /// Sessions started.
    public var sessions = 0
    /// Connections, channels and requests refused.
    public var refusals = 0
    /// Refusals by reason (`command`, `subsystem`, `port forwarding`, `too many connections`,
    /// `server full`, …): a fixed set, never a client's words.
    public var refusalsByReason: [String: Int] = [:]
    /// Failed authentications.
    public var authFailures = 0
    /// Frames (writes of the sessions' terminals) sent.
    public var framesSent = 0
    /// Bytes the sessions wrote for their terminals (before SSH's framing and encryption).
    public var bytesOut = 0
  }

  /// A server with this host key, access and limits; `factory` makes each shell's session.
  public init(
    hostKey: HostKey, access: Access, limits: Limits = Limits(), logger: Logger,
    threads: Int = System.coreCount, factory: @escaping SessionFactory
  ) {
    self.hostKey = hostKey
    self.access = Mutex(access)
    self.limits = limits
    self.logger = logger
    self.factory = factory
    group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, threads))
  }

  /// The counters now.
  public var counters: Counters {
    var c = state.withLock { $0.counters }
    c.framesSent = framesSent.load(ordering: .relaxed)
    c.bytesOut = bytesOut.load(ordering: .relaxed)
    return c
  }
  /// Connections open now.
  public var connectionCount: Int { state.withLock { $0.open.count } }

  func countFrame(bytes: Int) {
    framesSent.add(1, ordering: .relaxed)
    bytesOut.add(bytes, ordering: .relaxed)
  }
  /// Sessions open now.
  public var sessionCount: Int { state.withLock { $0.sessions } }

  /// Replaces who may connect (SIGHUP reloads the authorized keys); open sessions stay.
  public func setAccess(_ access: Access) { self.access.withLock { $0 = access } }

  /// Starts listening; returns the port (useful when asked for port 0).
  public func start(host: String, port: Int) throws -> Int {
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
      .childChannelInitializer { [self] channel in
        channel.eventLoop.makeCompletedFuture {
          try self.setUp(channel)
        }
      }
    let listening = try bootstrap.bind(host: host, port: port).wait()
    channel.withLock { $0 = listening }
    return listening.localAddress?.port ?? port
  }

  /// Stops listening and closes every connection (sessions were told to finish before: a
  /// `TerminalSession` writes its last line itself); returns within about a second however the
  /// clients behave.
  public func stop() {
    let listening = channel.withLock { c -> (any Channel)? in
      defer { c = nil }
      return c
    }
    try? listening?.close().wait()
    let metrics = metricsChannel.withLock { c -> (any Channel)? in
      defer { c = nil }
      return c
    }
    try? metrics?.close().wait()
    let open = state.withLock { Array($0.open.values) }
    // What sessions wrote last goes out before the close (writes are in order).
    let closed = open.map { $0.close() }
    let all = EventLoopFuture.andAllComplete(closed, on: group.next())
    _ = try? all.wait()
    group.shutdownGracefully { _ in }
  }

  // MARK: - Connections

  private func setUp(_ channel: any Channel) throws {
    let source = Self.address(channel.remoteAddress)
    guard admit(source) else {
      refused("too many connections", source: source)
      channel.close(promise: nil)
      return
    }
    let id = ObjectIdentifier(channel)
    state.withLock {
      $0.open[id] = channel
      $0.counters.connections += 1
    }
    logger.info("connect", metadata: ["remote": .string(source)])
    channel.closeFuture.whenComplete { [self] _ in
      state.withLock {
        $0.open[id] = nil
        $0.connections[source, default: 1] -= 1
        if $0.connections[source] == 0 { $0.connections[source] = nil }
      }
      logger.info("disconnect", metadata: ["remote": .string(source)])
    }
    let auth = AuthDelegate(server: self, source: source, eventLoop: channel.eventLoop)
    let handler = NIOSSHHandler(
      role: .server(
        .init(
          hostKeys: [hostKey.privateKey], userAuthDelegate: auth,
          globalRequestDelegate: RefuseForwarding(server: self, source: source))),
      allocator: channel.allocator,
      inboundChildChannelInitializer: { [self] child, type in
        self.child(child, type: type, source: source, auth: auth)
      })
    try channel.pipeline.syncOperations.addHandler(
      ConnectionGuard(limits: limits, auth: auth, server: self, source: source))
    try channel.pipeline.syncOperations.addHandler(handler)
  }

  /// Whether a new connection from `source` is within its limits (counted in if so).
  func admit(_ source: String) -> Bool {
    let now = ContinuousClock.now
    return state.withLock { s in
      let burst = Double(limits.connectionsPerMinutePerSource)
      var bucket = s.buckets[source] ?? (burst, now)
      let elapsed =
        Double((now - bucket.at).components.seconds)
        + Double((now - bucket.at).components.attoseconds) / 1e18
      bucket.tokens = min(burst, bucket.tokens + elapsed * burst / 60)
      bucket.at = now
      guard bucket.tokens >= 1, s.connections[source, default: 0] < limits.maxConnectionsPerSource
      else {
        s.buckets[source] = bucket
        return false
      }
      bucket.tokens -= 1
      s.buckets[source] = bucket
      s.connections[source, default: 0] += 1
      // Forget quiet addresses so the table stays as small as the busy ones.
      if s.buckets.count > 4096 {
        s.buckets = s.buckets.filter { now - $0.value.at < .seconds(60) }
      }
      return true
    }
  }

  /// Logs and counts a refusal; `reason` is its label in the metrics (default `why`).
  func refused(_ why: String, source: String, user: String? = nil, reason: String? = nil) {
    state.withLock {
      $0.counters.refusals += 1
      $0.counters.refusalsByReason[reason ?? why, default: 0] += 1
    }
    var metadata: Logger.Metadata = ["remote": .string(source), "why": .string(why)]
    if let user { metadata["user"] = .string(Self.clean(user)) }
    logger.info("refused", metadata: metadata)
  }

  private func child(
    _ channel: any Channel, type: SSHChannelType, source: String, auth: AuthDelegate
  ) -> EventLoopFuture<Void> {
    guard case .session = type else {
      refused("port forwarding", source: source, user: auth.user)
      return channel.eventLoop.makeFailedFuture(RefusedChannel())
    }
    return channel.eventLoop.makeCompletedFuture {
      try channel.pipeline.syncOperations.addHandler(
        SessionHandler(server: self, source: source, user: auth.user ?? ""))
    }
  }

  /// Counts a session in, or says why not.
  func beginSession() -> Bool {
    state.withLock {
      guard $0.sessions < limits.maxSessions else { return false }
      $0.sessions += 1
      $0.counters.sessions += 1
      return true
    }
  }

  func endSession() { state.withLock { $0.sessions -= 1 } }

  static func address(_ address: SocketAddress?) -> String {
    guard let address else { return "?" }
    return address.ipAddress ?? "\(address)"
  }

  /// A client's string as it may be printed: control characters as `?`, at most `limit`
  /// characters.
  static func clean(_ s: String, limit: Int = 64) -> String {
    String(
      s.unicodeScalars.prefix(limit).map {
        $0.properties.generalCategory == .control ? "?" : Character($0)
      })
  }

}

struct RefusedChannel: Error {}

/// Closes a connection that has not authenticated in time, or has been idle too long.
final class ConnectionGuard: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  let limits: SSHServer.Limits
  let auth: AuthDelegate
  let server: SSHServer
  let source: String
  var lastRead = NIODeadline.now()
  var timer: RepeatedTask?

  init(limits: SSHServer.Limits, auth: AuthDelegate, server: SSHServer, source: String) {
    self.limits = limits
    self.auth = auth
    self.server = server
    self.source = source
  }

  func handlerAdded(context: ChannelHandlerContext) {
    let started = NIODeadline.now()
    let loop = context.eventLoop
    let channel = context.channel
    let limits = limits
    let grace = TimeAmount.milliseconds(Int64(limits.loginGraceTime * 1000))
    let idle = TimeAmount.milliseconds(Int64(limits.idleTimeout * 1000))
    let bound = NIOLoopBound(self, eventLoop: loop)
    timer = loop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
      let guardian = bound.value
      let now = NIODeadline.now()
      if guardian.auth.user == nil && now - started > grace {
        guardian.server.refused("login timeout", source: guardian.source)
        channel.close(promise: nil)
      } else if limits.idleTimeout > 0 && now - guardian.lastRead > idle {
        guardian.server.logger.info("idle", metadata: ["remote": .string(guardian.source)])
        channel.close(promise: nil)
      }
    }
  }

  func handlerRemoved(context: ChannelHandlerContext) { timer?.cancel() }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    lastRead = .now()
    context.fireChannelRead(data)
  }
}

/// Who may log in: anyone (`none`), or the holders of the authorized keys.
final class AuthDelegate: NIOSSHServerUserAuthenticationDelegate, Sendable {
  let server: SSHServer
  let source: String
  let eventLoop: any EventLoop
  let authenticated = Mutex<String?>(nil)

  init(server: SSHServer, source: String, eventLoop: any EventLoop) {
    self.server = server
    self.source = source
    self.eventLoop = eventLoop
  }

  /// The user name, once authenticated.
  var user: String? { authenticated.withLock { $0 } }

  var supportedAuthenticationMethods: NIOSSHAvailableUserAuthenticationMethods {
    switch server.access.withLock({ $0 }) {
    case .anonymous: return [.publicKey, .password]
    case .keys: return .publicKey
    }
  }

  func requestReceived(
    request: NIOSSHUserAuthenticationRequest,
    responsePromise: EventLoopPromise<NIOSSHUserAuthenticationOutcome>
  ) {
    let access = server.access.withLock { $0 }
    let ok: Bool
    var method = "none"
    switch (access, request.request) {
    case (.anonymous, _):
      ok = true
    case (.keys(let keys), .publicKey(let key)):
      method = "publickey \(HostKey.fingerprint(of: key.publicKey))"
      ok = keys.keys.contains(key.publicKey)
    case (.keys, .password):
      method = "password"
      ok = false
    default:
      ok = false
    }
    if ok {
      authenticated.withLock { $0 = request.username }
      server.logger.info(
        "auth",
        metadata: [
          "remote": .string(source), "user": .string(SSHServer.clean(request.username)),
          "method": .string(method),
        ])
      responsePromise.succeed(.success)
    } else {
      if method != "none" {
        server.state.withLock { $0.counters.authFailures += 1 }
        server.logger.info(
          "auth failed",
          metadata: [
            "remote": .string(source), "user": .string(SSHServer.clean(request.username)),
            "method": .string(method),
          ])
      }
      responsePromise.succeed(.failure)
    }
  }
}

/// Refuses `ssh -R` (and logs it); `ssh -L` is refused when its channel opens.
struct RefuseForwarding: GlobalRequestDelegate {
  let server: SSHServer
  let source: String
  func tcpForwardingRequest(
    _ request: GlobalRequest.TCPForwardingRequest, handler: NIOSSHHandler,
    promise: EventLoopPromise<GlobalRequest.TCPForwardingResponse>
  ) {
    server.refused("remote port forwarding", source: source)
    promise.fail(RefusedChannel())
  }
}
