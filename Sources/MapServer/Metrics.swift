import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

extension SSHServer {
  /// The counters in Prometheus' text format (version 0.0.4), as `GET /metrics` answers.
  public func metricsText() -> String {
    let c = counters
    var out = ""
    func metric(_ name: String, _ type: String, _ help: String, _ values: [(String, Int)]) {
      out += "# HELP termmap_\(name) \(help)\n# TYPE termmap_\(name) \(type)\n"
      for (labels, value) in values { out += "termmap_\(name)\(labels) \(value)\n" }
    }
    metric("sessions", "gauge", "Sessions open now.", [("", sessionCount)])
    metric("sessions_total", "counter", "Sessions started.", [("", c.sessions)])
    metric("connections", "gauge", "Connections open now.", [("", connectionCount)])
    metric("connections_total", "counter", "Connections accepted.", [("", c.connections)])
    metric(
      "frames_sent_total", "counter", "Frames the sessions wrote to their terminals.",
      [("", c.framesSent)])
    metric(
      "bytes_out_total", "counter",
      "Bytes the sessions wrote to their terminals (before SSH's framing).", [("", c.bytesOut)])
    metric(
      "refusals_total", "counter", "Connections, channels and requests refused, by reason.",
      c.refusalsByReason.sorted { $0.key < $1.key }.map {
        ("{reason=\"\(Self.labelValue($0.key))\"}", $0.value)
      })
    metric(
      "auth_failures_total", "counter", "Failed authentications.", [("", c.authFailures)])
    return out
  }

  /// A label value as Prometheus reads it: backslash, quote and newline escaped.
  static func labelValue(_ s: String) -> String {
    s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
      .replacingOccurrences(of: "\n", with: "\\n")
  }

  /// Serves ``metricsText()`` over HTTP at `GET /metrics` on this address; returns the port.
  /// Bounded: at most 16 connections at once, one request each (the answer closes the
  /// connection), at most 8 KiB read from a connection, 10 s to send the request.
  public func startMetrics(host: String, port: Int) throws -> Int {
    let open = Atomic<Int>(0)
    let bootstrap = ServerBootstrap(group: group)
      .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { [self] channel in
        channel.eventLoop.makeCompletedFuture {
          guard open.add(1, ordering: .relaxed).newValue <= MetricsLimits.connections else {
            open.subtract(1, ordering: .relaxed)
            channel.close(promise: nil)
            return
          }
          channel.closeFuture.whenComplete { _ in open.subtract(1, ordering: .relaxed) }
          let sync = channel.pipeline.syncOperations
          try sync.addHandler(RequestSizeLimit(limit: MetricsLimits.requestBytes))
          try sync.addHandler(
            IdleStateHandler(readTimeout: .seconds(MetricsLimits.readTimeoutSeconds)))
          try sync.configureHTTPServerPipeline(withErrorHandling: true)
          try sync.addHandler(MetricsHandler(server: self))
        }
      }
    let listening = try bootstrap.bind(host: host, port: port).wait()
    metricsChannel.withLock { $0 = listening }
    return listening.localAddress?.port ?? port
  }
}

/// The bounds of the metrics endpoint.
enum MetricsLimits {
  static let connections = 16
  static let requestBytes = 8192
  static let readTimeoutSeconds: Int64 = 10
}

/// Closes a connection that sends more than `limit` bytes (one small GET is all it may send).
final class RequestSizeLimit: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  let limit: Int
  var seen = 0
  init(limit: Int) { self.limit = limit }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    seen += unwrapInboundIn(data).readableBytes
    guard seen <= limit else {
      context.close(promise: nil)
      return
    }
    context.fireChannelRead(data)
  }
}

/// Answers one request: `GET /metrics` with the counters, anything else with 404 or 405;
/// then closes. A request with a body is refused (413). A connection silent for the read
/// time-out is closed.
final class MetricsHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart
  let server: SSHServer
  var head: HTTPRequestHead?
  var hasBody = false
  var answered = false

  init(server: SSHServer) { self.server = server }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let h): head = h
    case .body: hasBody = true
    case .end: respond(context)
    }
  }

  func respond(_ context: ChannelHandlerContext) {
    guard !answered, let head else { return }
    answered = true
    let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
    let (status, body): (HTTPResponseStatus, String)
    if hasBody {
      (status, body) = (.payloadTooLarge, "no request body is taken\n")
    } else if path != "/metrics" {
      (status, body) = (.notFound, "only /metrics is here\n")
    } else if head.method != .GET && head.method != .HEAD {
      (status, body) = (.methodNotAllowed, "GET /metrics\n")
    } else {
      (status, body) = (.ok, server.metricsText())
    }
    var headers = HTTPHeaders()
    headers.add(
      name: "Content-Type",
      value: status == .ok ? "text/plain; version=0.0.4; charset=utf-8" : "text/plain")
    headers.add(name: "Content-Length", value: "\(body.utf8.count)")
    headers.add(name: "Connection", value: "close")
    context.write(
      wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
      promise: nil)
    if head.method != .HEAD {
      var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
      buffer.writeString(body)
      context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
    }
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
      channel.close(promise: nil)
    }
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is IdleStateHandler.IdleStateEvent {
      context.close(promise: nil)
    } else {
      context.fireUserInboundEventTriggered(event)
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }
}
