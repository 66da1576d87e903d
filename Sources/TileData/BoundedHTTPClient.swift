import CCurl
import Foundation
import MapGeometry
import Synchronization

/// HTTP(S) GETs over libcurl whose bodies are read only up to a limit, whatever the framing:
/// libcurl hands the body over in pieces of at most 16 KiB as it reads them from the socket
/// (after decoding gzip, deflate, brotli or zstd), and the first piece past the limit stops the
/// transfer, so a server that sends too much — a huge `Content-Length`, an endless chunked body,
/// a compression bomb — costs at most the limit in memory. A `Content-Length` over the limit is
/// refused before the body. Headers are bounded too (64 KiB in all).
///
/// - Connections are kept alive: each request is a fresh libcurl easy handle attached to a
///   share object (connection cache, DNS cache, TLS sessions) taken from a pool, one thread at
///   a time; the share keeps its connections for the next request to the same host.
///   HTTPS negotiates HTTP/2 where the server offers it.
/// - Proxies: `https_proxy`/`HTTPS_PROXY` for https URLs, `http_proxy`/`HTTP_PROXY` for http,
///   `all_proxy`/`ALL_PROXY` for both, and `no_proxy`/`NO_PROXY` (host names, domains, IP
///   addresses and CIDR ranges, or `*`), read from the environment given at creation.
/// - TLS: the system's CA certificates (libcurl's default bundle), or the PEM file that
///   `SSL_CERT_FILE` or `CURL_CA_BUNDLE` names (for a company's own CA); a certificate that does
///   not verify fails with libcurl's reason (for example "SSL certificate problem: self-signed
///   certificate").
/// - Only http and https, also when following redirects (at most 5, each hop a new handle).
/// - `timeout` bounds each request as a whole (connecting, waiting and reading).
///
/// `fetch` blocks its thread; callers run it on threads of their own (`BlockingWorkPool`).
/// See docs/reliability.md for why libcurl rather than URLSession or AsyncHTTPClient.
package final class BoundedHTTPClient: Sendable {
  /// A request: the URL and extra header fields.
  package struct Request: Sendable {
    package var url: String
    package var headers: [(name: String, value: String)] = []
    /// Accept compressed bodies (libcurl announces and decodes gzip, deflate, br and zstd).
    /// Off for byte ranges, whose offsets mean the stored bytes.
    package var decompress = true
  }

  /// A whole answer: status, header fields and body.
  package struct Reply: Sendable {
    package let response: HTTPResponseHead
    package let body: Data
  }

  /// Body limits by status: `200 OK`, `206 Partial Content`, and any other (an error page,
  /// read only to be dropped).
  package struct Limits: Sendable {
    package var ok: Int
    package var partial: Int
    package var other: Int = 64 << 10
  }

  package enum Failure: Error, Equatable {
    /// The body would exceed the limit for its status.
    case tooLarge(status: Int, limit: Int)
    /// The headers would exceed 64 KiB.
    case headersTooLarge
    /// No whole answer within the time-out.
    case timedOut
    /// `Cancellation.cancel()` was called.
    case cancelled
    /// Anything else: connecting, TLS, a broken answer (libcurl's words).
    case transport(String)
  }

  /// Stops a running `fetch` from another thread (within about a second: libcurl asks at
  /// least that often).
  package final class Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    package init() {}
    package func cancel() { flag.store(true, ordering: .relaxed) }
    var isCancelled: Bool { flag.load(ordering: .relaxed) }
  }

  static let maxHeaderBytes = 64 << 10

  let timeout: TimeInterval
  let userAgent: String
  /// The proxy settings, from the environment given at creation.
  let proxies: ProxySettings
  /// A PEM file of trusted CA certificates instead of the system's, or nil.
  let caBundle: String?
  private let maxIdleHandles: Int
  private let idle = Mutex<[ShareHandle]>([])

  package init(
    timeout: TimeInterval, maxConnections: Int,
    userAgent: String = "termmap (terminal map viewer)",
    environment: [String: String] = ProcessInfo.processInfo.environment,
    caBundle: String? = nil
  ) {
    _ = Self.globalInit
    self.timeout = timeout
    self.userAgent = userAgent
    self.proxies = ProxySettings(environment: environment)
    self.caBundle =
      caBundle
      ?? ["SSL_CERT_FILE", "CURL_CA_BUNDLE"].lazy.compactMap { environment[$0] }
      .first { !$0.isEmpty }
    maxIdleHandles = max(1, maxConnections)
  }

  deinit {
    for share in idle.withLock({ $0 }) { curl_share_cleanup(share.pointer) }
  }

  /// libcurl's process-wide set-up, once, before the first handle.
  private static let globalInit: Void = {
    curl_global_init(Int(CURL_GLOBAL_DEFAULT))
  }()

  /// Sends a GET and waits (at most `timeout`) for the whole answer. Redirects (at most 5, to
  /// http or https only) are followed here, each hop with a fresh easy handle.
  package func fetch(
    _ request: Request, limits: Limits, cancellation: Cancellation? = nil
  ) throws -> Reply {
    guard let share = takeShare() else { throw Failure.transport("libcurl could not start") }
    defer { returnShare(share) }
    let deadline = Date().addingTimeInterval(timeout)
    var url = request.url
    var hops = 0
    while true {
      let (reply, location) = try perform(
        request, url: url, share: share, limits: limits, cancellation: cancellation,
        timeout: max(deadline.timeIntervalSinceNow, 0.001))
      guard (300..<400).contains(reply.response.status), reply.response.status != 304,
        let next = location
      else { return reply }
      hops += 1
      guard hops <= 5 else { throw Failure.transport("more than 5 redirects") }
      let lower = next.lowercased()
      guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
        throw Failure.transport(
          SafeText.clean("a redirect to \(next), which is not http or https"))
      }
      url = next
    }
  }

  /// One request on a fresh easy handle that shares `share`'s connections, DNS and TLS
  /// sessions; the answer and where a redirect points (libcurl resolves it).
  ///
  /// A fresh handle per request, not one reused: FuzzHTTP found libcurl 7.88 (Debian 12)
  /// reading a stored header freed by an earlier response on the same handle — a folded
  /// header line first in the next response, after a redirect or on a reused handle
  /// (use-after-free under AddressSanitizer; newer libcurl resets the pointer). A fresh handle
  /// starts without that state; the share keeps the connections alive between handles.
  private func perform(
    _ request: Request, url: String, share: ShareHandle, limits: Limits,
    cancellation: Cancellation?, timeout: TimeInterval
  ) throws -> (Reply, String?) {
    guard let h = curl_easy_init() else { throw Failure.transport("libcurl could not start") }
    defer { curl_easy_cleanup(h) }
    let transfer = Transfer(limits: limits, cancellation: cancellation)
    var headerList: UnsafeMutablePointer<curl_slist>?
    defer { curl_slist_free_all(headerList) }
    var location: String?
    let code = withExtendedLifetime(transfer) { () -> CURLcode in
      let user = Unmanaged.passUnretained(transfer).toOpaque()
      var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
      return errorBuffer.withUnsafeMutableBufferPointer { buffer -> CURLcode in
        termmap_curl_set_pointer(h, CURLOPT_ERRORBUFFER, buffer.baseAddress)
        termmap_curl_set_pointer(h, CURLOPT_SHARE, share.pointer)
        termmap_curl_set_string(h, CURLOPT_URL, url)
        termmap_curl_set_string(h, CURLOPT_PROTOCOLS_STR, "http,https")
        termmap_curl_set_long(h, CURLOPT_FOLLOWLOCATION, 0)
        // Threads: no signals (libcurl would otherwise use SIGALRM for DNS time-outs).
        termmap_curl_set_long(h, CURLOPT_NOSIGNAL, 1)
        let ms = Int(min(max(timeout, 0.001), 86_400) * 1000)
        termmap_curl_set_long(h, CURLOPT_TIMEOUT_MS, ms)
        termmap_curl_set_long(h, CURLOPT_CONNECTTIMEOUT_MS, ms)
        termmap_curl_set_string(h, CURLOPT_USERAGENT, userAgent)
        if let caBundle { termmap_curl_set_string(h, CURLOPT_CAINFO, caBundle) }
        if request.decompress {
          termmap_curl_set_string(h, CURLOPT_ACCEPT_ENCODING, "")
        }
        let proxy = proxies.proxy(forURL: url)
        termmap_curl_set_string(h, CURLOPT_PROXY, proxy ?? "")
        if proxy != nil, let noProxy = proxies.noProxy {
          termmap_curl_set_string(h, CURLOPT_NOPROXY, noProxy)
        }
        for (name, value) in request.headers {
          headerList = curl_slist_append(headerList, "\(name): \(value)")
        }
        if let headerList { termmap_curl_set_headers(h, headerList) }
        termmap_curl_set_data_fn(h, CURLOPT_WRITEFUNCTION, receiveBody)
        termmap_curl_set_pointer(h, CURLOPT_WRITEDATA, user)
        termmap_curl_set_data_fn(h, CURLOPT_HEADERFUNCTION, receiveHeader)
        termmap_curl_set_pointer(h, CURLOPT_HEADERDATA, user)
        termmap_curl_set_long(h, CURLOPT_NOPROGRESS, 0)
        termmap_curl_set_progress_fn(h, checkCancelled)
        termmap_curl_set_pointer(h, CURLOPT_XFERINFODATA, user)
        let code = curl_easy_perform(h)
        if code != CURLE_OK {
          transfer.message = buffer[0] != 0 ? String(cString: buffer.baseAddress!) : nil
        } else {
          var redirect: UnsafeMutablePointer<CChar>?
          if termmap_curl_get_string(h, CURLINFO_REDIRECT_URL, &redirect) == CURLE_OK,
            let redirect
          {
            location = String(cString: redirect)
          }
        }
        // The buffer is about to go: libcurl must not write there after this call.
        termmap_curl_set_pointer(h, CURLOPT_ERRORBUFFER, nil)
        return code
      }
    }
    if let exceeded = transfer.exceeded {
      throw Failure.tooLarge(status: exceeded.status, limit: exceeded.limit)
    }
    if transfer.headersExceeded { throw Failure.headersTooLarge }
    switch code {
    case CURLE_OK:
      guard transfer.status > 0 else { throw Failure.transport("not an HTTP response") }
      let reply = Reply(
        response: HTTPResponseHead(status: transfer.status, fields: transfer.fields),
        body: transfer.body)
      return (reply, location)
    case CURLE_ABORTED_BY_CALLBACK where cancellation?.isCancelled == true:
      throw Failure.cancelled
    case CURLE_OPERATION_TIMEDOUT:
      throw Failure.timedOut
    default:
      let words = transfer.message ?? String(cString: curl_easy_strerror(code))
      throw Failure.transport(SafeText.clean(Self.explain(code, words)))
    }
  }

  /// libcurl's reason, with what it means for TLS failures.
  static func explain(_ code: CURLcode, _ words: String) -> String {
    switch code {
    case CURLE_PEER_FAILED_VERIFICATION:
      return "TLS: the server's certificate is not trusted (\(words))"
    case CURLE_SSL_CONNECT_ERROR:
      return "TLS handshake failed (\(words))"
    case CURLE_SSL_CACERT_BADFILE:
      return "TLS: the system's CA certificates could not be read (\(words))"
    default:
      return words
    }
  }

  private func takeShare() -> ShareHandle? {
    if let share = idle.withLock({ $0.popLast() }) { return share }
    guard let pointer = curl_share_init() else { return nil }
    termmap_curl_share_set_long(pointer, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_CONNECT.rawValue))
    termmap_curl_share_set_long(pointer, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
    termmap_curl_share_set_long(
      pointer, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
    return ShareHandle(pointer)
  }

  private func returnShare(_ share: ShareHandle) {
    let kept = idle.withLock { pool -> Bool in
      guard pool.count < maxIdleHandles else { return false }
      pool.append(share)
      return true
    }
    if !kept { curl_share_cleanup(share.pointer) }
  }
}

/// A libcurl share object: a connection cache (with its kept-alive connections), DNS cache
/// and TLS sessions for the easy handles made one after another by one `fetch`.
/// `@unchecked Sendable`: a share is used by one thread at a time — it is either in the
/// client's idle pool (behind its mutex) or taken out of it by the one `fetch` that uses it and
/// puts it back — so it needs no lock callbacks (libcurl does not support sharing connections
/// between concurrent threads, and this never does).
private final class ShareHandle: @unchecked Sendable {
  let pointer: UnsafeMutableRawPointer
  init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
}

/// One transfer's state, reached from libcurl's callbacks, which run on the thread inside
/// `curl_easy_perform` (the one `fetch` that owns it), so it needs no lock.
private final class Transfer {
  let limits: BoundedHTTPClient.Limits
  let cancellation: BoundedHTTPClient.Cancellation?
  var status = 0
  var fields: [(name: String, value: String)] = []
  var headerBytes = 0
  var headersExceeded = false
  var body = Data()
  var exceeded: (status: Int, limit: Int)?
  var message: String?

  init(limits: BoundedHTTPClient.Limits, cancellation: BoundedHTTPClient.Cancellation?) {
    self.limits = limits
    self.cancellation = cancellation
  }

  var limit: Int {
    switch status {
    case 200: return limits.ok
    case 206: return limits.partial
    default: return limits.other
    }
  }

  /// One header line (with its CR LF). A status line starts a new answer (after a redirect or
  /// a `100 Continue`); the blank line ends the fields, when a `Content-Length` over the limit
  /// stops the transfer before the body.
  func header(_ line: UnsafeRawBufferPointer) -> Bool {
    headerBytes += line.count
    guard headerBytes <= BoundedHTTPClient.maxHeaderBytes else {
      headersExceeded = true
      return false
    }
    var end = line.count
    while end > 0, line[end - 1] == 0x0D || line[end - 1] == 0x0A { end -= 1 }
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<end]), as: UTF8.self)
    if text.hasPrefix("HTTP/") {
      let parts = text.split(separator: " ", maxSplits: 2)
      status = parts.count >= 2 ? Int(parts[1]) ?? 0 : 0
      fields = []
      body = Data()
      return true
    }
    if text.isEmpty {
      if let length = HTTPResponseHead(status: status, fields: fields).expectedContentLength,
        length > Int64(limit)
      {
        exceeded = (status, limit)
        return false
      }
      return true
    }
    guard let colon = text.firstIndex(of: ":") else { return true }
    let name = text[..<colon].trimmingCharacters(in: .whitespaces)
    let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    fields.append((name, value))
    return true
  }

  /// A piece of the body: kept while the whole stays within the limit for the status. The
  /// buffer grows by doubling, never past the limit.
  func receive(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let limit = limit
    guard body.count + bytes.count <= limit else {
      exceeded = (status, limit)
      body = Data()
      return false
    }
    if body.isEmpty,
      let length = HTTPResponseHead(status: status, fields: fields)
        .expectedContentLength, length > 0, length <= Int64(limit)
    {
      body.reserveCapacity(Int(length))
    }
    body.append(contentsOf: bytes)
    return true
  }
}

private let receiveBody: termmap_curl_data_fn = { data, size, count, user in
  let transfer = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
  let n = size * count
  return transfer.receive(UnsafeRawBufferPointer(start: data, count: n)) ? n : 0
}

private let receiveHeader: termmap_curl_data_fn = { data, size, count, user in
  let transfer = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
  let n = size * count
  return transfer.header(UnsafeRawBufferPointer(start: data, count: n)) ? n : 0
}

private let checkCancelled: termmap_curl_progress_fn = { user, _, _, _, _ in
  let transfer = Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue()
  return transfer.cancellation?.isCancelled == true ? 1 : 0
}

/// An HTTP answer's status and header fields.
public struct HTTPResponseHead: Sendable {
  /// The status code (200, 404, …).
  public let status: Int
  /// The header fields in the order received (names as the server wrote them).
  public let fields: [(name: String, value: String)]

  /// A head from a status and fields.
  public init(status: Int, fields: [(name: String, value: String)]) {
    self.status = status
    self.fields = fields
  }

  /// The status code (as `HTTPURLResponse` names it).
  public var statusCode: Int { status }

  /// A field's value (the last one of that name, compared without case), or nil.
  public func value(forHTTPHeaderField name: String) -> String? {
    fields.last { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
  }

  /// The `Content-Length`, when present and valid.
  public var expectedContentLength: Int64? {
    value(forHTTPHeaderField: "Content-Length").flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil }
  }

  /// The standard reason phrase of a status (RFC 9110), e.g. "Not Found".
  public static func reason(_ status: Int) -> String {
    switch status {
    case 100: return "Continue"
    case 200: return "OK"
    case 201: return "Created"
    case 202: return "Accepted"
    case 204: return "No Content"
    case 206: return "Partial Content"
    case 301: return "Moved Permanently"
    case 302: return "Found"
    case 303: return "See Other"
    case 304: return "Not Modified"
    case 307: return "Temporary Redirect"
    case 308: return "Permanent Redirect"
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 406: return "Not Acceptable"
    case 407: return "Proxy Authentication Required"
    case 408: return "Request Timeout"
    case 410: return "Gone"
    case 412: return "Precondition Failed"
    case 416: return "Range Not Satisfiable"
    case 418: return "I'm a teapot"
    case 429: return "Too Many Requests"
    case 500: return "Internal Server Error"
    case 501: return "Not Implemented"
    case 502: return "Bad Gateway"
    case 503: return "Service Unavailable"
    case 504: return "Gateway Timeout"
    default:
      switch status / 100 {
      case 1: return "Informational"
      case 2: return "Success"
      case 3: return "Redirection"
      case 4: return "Client Error"
      case 5: return "Server Error"
      default: return "Unknown Status"
      }
    }
  }
}

/// Which proxy a URL goes through, from the environment's `*_proxy` variables (as curl, wget
/// and most HTTP clients read them).
struct ProxySettings: Sendable, Equatable {
  var http: String?
  var https: String?
  /// `no_proxy`: hosts, domains (`example.com` also matches its subdomains), addresses and
  /// CIDR ranges that go direct, or `*` for all.
  var noProxy: String?

  init(http: String? = nil, https: String? = nil, noProxy: String? = nil) {
    self.http = http
    self.https = https
    self.noProxy = noProxy
  }

  init(environment env: [String: String]) {
    func value(_ names: String...) -> String? {
      for name in names {
        if let v = env[name]?.trimmingCharacters(in: .whitespaces), !v.isEmpty { return v }
      }
      return nil
    }
    let all = value("all_proxy", "ALL_PROXY")
    http = value("http_proxy", "HTTP_PROXY") ?? all
    https = value("https_proxy", "HTTPS_PROXY") ?? all
    noProxy = value("no_proxy", "NO_PROXY")
  }

  /// The proxy for `url` before `no_proxy` is applied (libcurl applies it), or nil.
  func proxy(forURL url: String) -> String? {
    url.lowercased().hasPrefix("https://") ? https : http
  }
}

extension BoundedHTTPClient.Failure {
  /// The failure in one line, for an error naming the URL.
  package func message(timeout: TimeInterval) -> String {
    switch self {
    case .tooLarge(let status, let limit):
      return "HTTP \(status): the answer is larger than the limit of \(limit) bytes"
    case .headersTooLarge:
      return "the answer's headers are larger than \(BoundedHTTPClient.maxHeaderBytes) bytes"
    case .timedOut: return "timed out after \(HTTPTileSource.seconds(timeout))"
    case .cancelled: return "cancelled"
    case .transport(let words): return words
    }
  }
}

extension BoundedHTTPClient.Request {
  /// A GET of a URL (LiveLayers polls with it).
  package init(url: String) { self.init(url: url, headers: []) }
}

extension BoundedHTTPClient.Limits {
  /// Limits for a `200 OK` body and a `206` one.
  package init(ok: Int, partial: Int) { self.init(ok: ok, partial: partial, other: 64 << 10) }
}
