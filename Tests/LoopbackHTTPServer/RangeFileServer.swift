import Foundation
import Synchronization

/// A loopback server for whole files: `GET /name` answers with the file's bytes, honouring
/// `Range: bytes=a-b` (and `a-`, `-n`) with `206` and `Content-Range`, `416` past the end, and
/// an `ETag` per file. Files can be replaced while it runs (a new ETag: "the archive changed").
/// With `honoursRange: false` it answers every request `200` with the whole file, as servers
/// without range support do. `gate` holds answers until `openGate()` (for non-blocking tests).
public final class RangeFileServer: Sendable {
  public struct File: Sendable {
    public var body: Data
    public var etag: String?
    public var contentType: String
    public init(body: Data, etag: String? = nil, contentType: String = "application/octet-stream") {
      self.body = body
      self.etag = etag
      self.contentType = contentType
    }
  }

  private struct State {
    var files: [String: File]
    var honoursRange: Bool
    var gated = false
  }
  /// Shared with the server's handler.
  private final class Shared: Sendable {
    let state: Mutex<State>
    init(_ state: State) { self.state = Mutex(state) }
  }
  private let shared: Shared
  public let server: LoopbackHTTPServer

  /// - Parameter files: by path, e.g. `"/world.pmtiles"`.
  public init(files: [String: File], honoursRange: Bool = true) throws {
    let shared = Shared(State(files: files, honoursRange: honoursRange))
    self.shared = shared
    server = try LoopbackHTTPServer { request in
      while shared.state.withLock({ $0.gated }) { usleep(2_000) }
      let (file, ranges) = shared.state.withLock { ($0.files[request.path], $0.honoursRange) }
      guard let file else { return .respond(status: 404, body: Data("not found".utf8)) }
      var headers = ["Content-Type": file.contentType, "Accept-Ranges": "bytes"]
      if let etag = file.etag { headers["ETag"] = etag }
      let size = file.body.count
      guard ranges, let range = request.headers["range"] else {
        return .respond(status: 200, headers: headers, body: file.body)
      }
      guard let (first, last) = Self.parse(range, size: size) else {
        headers["Content-Range"] = "bytes */\(size)"
        return .respond(status: 416, headers: headers)
      }
      headers["Content-Range"] = "bytes \(first)-\(last)/\(size)"
      return .respond(status: 206, headers: headers, body: file.body.subdata(in: first..<last + 1))
    }
  }

  /// The URL of a file, e.g. `http://127.0.0.1:40123/world.pmtiles`.
  public func url(_ path: String) -> String { server.baseURL + path }

  /// Replaces (or adds) a file.
  public func replace(_ path: String, with file: File) {
    shared.state.withLock { $0.files[path] = file }
  }

  /// Holds every answer until `openGate()`.
  public func closeGate() { shared.state.withLock { $0.gated = true } }
  public func openGate() { shared.state.withLock { $0.gated = false } }

  /// Answers `200` with the whole file from now on (or honours `Range` again).
  public func setHonoursRange(_ honours: Bool) {
    shared.state.withLock { $0.honoursRange = honours }
  }

  public var requests: [LoopbackHTTPServer.Request] { server.requests }
  public func stop() {
    openGate()
    server.stop()
  }

  /// `bytes=a-b`, `bytes=a-` or `bytes=-n` → an inclusive range within `size`; nil when it
  /// starts past the end.
  static func parse(_ header: String, size: Int) -> (Int, Int)? {
    let spec = header.trimmingCharacters(in: .whitespaces)
    guard spec.hasPrefix("bytes=") else { return nil }
    let parts = spec.dropFirst(6).split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2 else { return nil }
    if parts[0].isEmpty {
      guard let n = Int(parts[1]), n > 0, size > 0 else { return nil }
      return (max(0, size - n), size - 1)
    }
    guard let first = Int(parts[0]), first < size else { return nil }
    let last = parts[1].isEmpty ? size - 1 : min(Int(parts[1]) ?? size - 1, size - 1)
    guard last >= first else { return nil }
    return (first, last)
  }
}
