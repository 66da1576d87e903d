import Foundation
import MapGeometry
import Synchronization
import TileData

// `termmap bench get-city` (issue 19): `termmap get`'s cut of a city from a planet-shaped
// archive over HTTP, through a loopback server that waits 50 ms before every answer (a far
// server's round trip), against the floor no client can beat: the requests' round trips at
// --parallel 4, plus the bytes at the loopback's own rate.

extension BenchCommand {
  /// The cut of central Berlin (13.3–13.5 E, 52.45–52.55 N, zooms 0–15; 0–14 with --quick)
  /// from a generated archive laid out as a planet is (`writeBenchPlanet`: root and leaf
  /// directories, tiles in Hilbert order), served with 50 ms per request.
  func getCityScenario(quick: Bool) throws -> Result {
    let dir = NSTemporaryDirectory() + "termmap-bench-get-\(getpid())"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let planet = dir + "/planet.pmtiles"
    let made = try writeBenchPlanet(path: planet, deepest: quick ? 14 : 15)
    let server = try RangeServer(path: planet)
    defer { server.stop() }
    let url = "http://127.0.0.1:\(server.port)/planet.pmtiles"
    // The loopback's rate: one read of up to 16 MiB over a plain socket, the best of three.
    let probe = min(made.bytes, 16 << 20)
    var best = Double.infinity
    for _ in 0..<3 {
      let start = ContinuousClock.now
      try server.fetchRaw(bytes: probe)
      best = min(best, Self.seconds(ContinuousClock.now - start))
    }
    let rate = Double(probe) / best
    server.delay.withLock { $0 = 0.050 }
    let (before, sentBefore) = (server.requests, server.bytes)
    let out = dir + "/city.pmtiles"
    let start = ContinuousClock.now
    let plan = try PMTilesExtract.plan(
      location: url, west: 13.3, south: 52.45, east: 13.5, north: 52.55, maxZoom: 15,
      parallel: 4)
    let header = try plan.download(to: out, parallel: 4)
    let wall = Self.seconds(ContinuousClock.now - start)
    let requests = server.requests - before
    let bytes = server.bytes - sentBefore
    let floor = (Double(requests) / 4).rounded(.up) * 0.050 + Double(bytes) / rate
    return Result(
      name: "get-city", frames: 1, median: wall * 1000, p95: wall * 1000,
      peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576,
      note: String(
        format:
          "%d tiles, %.1f MB fetched of %.1f MB kept, %d requests (%d directory); floor %.0f ms "
          + "(%d x 50 ms + bytes at %.0f MB/s): %.2fx; from a %.0f MB archive of %d tiles",
        Int(header.addressedTilesCount), Double(bytes) / 1e6,
        Double(header.tileDataLength) / 1e6, requests, plan.directoryRequests, floor * 1000,
        (requests + 3) / 4, rate / 1e6, wall / floor, Double(made.bytes) / 1e6, made.tiles))
  }

  static func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
  }
}

/// Writes a planet-shaped archive: every tile of zooms 0–6 between 60 S and 75 N, of zooms
/// 7–12 over Brandenburg (11.3–14.8 E, 51.3–53.6 N) and of 13 to `deepest` over greater
/// Berlin (13.0–13.8 E, 52.3–52.7 N), with sizes growing with the zoom (about 7 kB on
/// average at zoom 15) and
/// incompressible contents (no two tiles alike). Returns its size and tile count.
func writeBenchPlanet(path: String, deepest: Int) throws -> (bytes: Int, tiles: Int) {
  let header = PMTiles.Header(
    tileType: .mvt, tileCompression: .gzip, minZoom: 0, maxZoom: deepest, west: -180,
    south: -60, east: 180, north: 75)
  let writer = try PMTilesWriter(path: path, header: header, metadata: Data("{}".utf8))
  var ids: [UInt64] = []
  func add(z: Int, west: Double, south: Double, east: Double, north: Double) {
    let n = Double(1 << z)
    func x(_ lon: Double) -> Int { min(Int((lon + 180) / 360 * n), (1 << z) - 1) }
    func y(_ lat: Double) -> Int {
      let r = lat * .pi / 180
      return min(Int((1 - log(tan(r) + 1 / cos(r)) / .pi) / 2 * n), (1 << z) - 1)
    }
    for tx in x(west)...x(east) {
      for ty in y(north)...y(south) {
        if let id = PMTiles.tileID(TileID(z: z, x: tx, y: ty)) { ids.append(id) }
      }
    }
  }
  for z in 0...6 { add(z: z, west: -180, south: -60, east: 180, north: 75) }
  for z in 7...min(12, deepest) { add(z: z, west: 11.3, south: 51.3, east: 14.8, north: 53.6) }
  if deepest >= 13 {
    for z in 13...deepest { add(z: z, west: 13.0, south: 52.3, east: 13.8, north: 52.7) }
  }
  ids.sort()
  var rng = SplitMix64(state: 19)
  var bytes = [UInt8](repeating: 0, count: 1 << 16)
  for id in ids {
    let z = PMTiles.tile(forID: id)?.z ?? 0
    // Larger with the zoom, about 7 kB on average at zoom 15.
    let mean = 300 + z * z * 30
    let size = mean / 2 + Int(rng.next() % UInt64(mean))
    for k in stride(from: 0, to: size, by: 8) {
      let v = rng.next()
      for b in 0..<min(8, size - k) { bytes[k + b] = UInt8(truncatingIfNeeded: v >> (8 * b)) }
    }
    try writer.add(tileID: id, data: Data(bytes[0..<size]))
  }
  let h = try writer.finish()
  return (Int(h.tileDataOffset + h.tileDataLength), ids.count)
}

/// A loopback HTTP/1.1 server of one file's byte ranges, for the bench: keep-alive, `Range:
/// bytes=A-B` answered with 206, `delay` seconds before every answer. It counts requests and
/// the body bytes it sent.
final class RangeServer: Sendable {
  let port: UInt16
  let delay = Mutex(0.0)
  private let listener: Int32
  private let file: Int32
  private let size: Int
  private let counts = Mutex((requests: 0, bytes: 0, stopped: false))

  init(path: String) throws {
    file = open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { throw UsageError("bench: \(path): cannot be opened") }
    var st = stat()
    fstat(file, &st)
    size = Int(st.st_size)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &a) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard fd >= 0, bound == 0, listen(fd, 64) == 0 else {
      throw UsageError("bench: cannot listen on 127.0.0.1")
    }
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &a) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
    }
    port = UInt16(bigEndian: a.sin_port)
    listener = fd
    Thread { [self] in
      while true {
        let c = accept(listener, nil, nil)
        if c < 0 {
          if errno == EINTR { continue }
          return
        }
        Thread { [self] in self.serve(c) }.start()
      }
    }.start()
  }

  var requests: Int { counts.withLock { $0.requests } }
  var bytes: Int { counts.withLock { $0.bytes } }

  func stop() {
    let first = counts.withLock { c -> Bool in
      defer { c.stopped = true }
      return !c.stopped
    }
    guard first else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  /// Reads the file's first `bytes` bytes from the server over a socket of its own (no HTTP
  /// client in between): how fast the loopback and the server move bytes.
  func fetchRaw(bytes: Int) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_addr.s_addr = inet_addr("127.0.0.1")
    a.sin_port = port.bigEndian
    let connected = withUnsafePointer(to: &a) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw UsageError("bench: cannot reach the loopback server") }
    let request =
      "GET /planet.pmtiles HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=0-\(bytes - 1)\r\n\r\n"
    _ = request.withCString { write(fd, $0, strlen($0)) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var got = 0
    var headEnd: Int?
    var head: [UInt8] = []
    while headEnd == nil || got - headEnd! < bytes {
      let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      guard n > 0 else { throw UsageError("bench: the loopback server closed early") }
      if headEnd == nil {
        head += buffer[0..<n]
        if let r = head.firstRange(of: [13, 10, 13, 10]) { headEnd = r.upperBound }
      }
      got += n
    }
  }

  private func serve(_ c: Int32) {
    defer { close(c) }
    var pending: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 8192)
    while true {
      // One request's head (the bench's client sends no body).
      var end: Int?
      while end == nil {
        if let r = pending.firstRange(of: [13, 10, 13, 10]) { end = r.upperBound; break }
        guard pending.count < 65536 else { return }
        let n = buffer.withUnsafeMutableBytes { read(c, $0.baseAddress, $0.count) }
        guard n > 0 else { return }
        pending += buffer[0..<n]
      }
      guard let end else { return }
      let head = String(decoding: pending[0..<end], as: UTF8.self)
      pending.removeFirst(end)
      var from = 0
      var to = size - 1
      var partial = false
      for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("range:") {
        let spec = line.split(separator: "=", maxSplits: 1).last ?? ""
        let ends = spec.split(separator: "-", omittingEmptySubsequences: false)
        if ends.count == 2, let a = Int(ends[0].trimmingCharacters(in: .whitespaces)) {
          from = a
          to = min(Int(ends[1].trimmingCharacters(in: .whitespaces)) ?? size - 1, size - 1)
          partial = true
        }
      }
      let wait = delay.withLock { $0 }
      if wait > 0 { usleep(useconds_t(wait * 1e6)) }
      guard from <= to else { return }
      let length = to - from + 1
      var answer =
        partial
        ? "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes \(from)-\(to)/\(size)\r\n"
        : "HTTP/1.1 200 OK\r\n"
      answer += "Content-Length: \(length)\r\nETag: \"bench\"\r\nAccept-Ranges: bytes\r\n\r\n"
      var out = Array(answer.utf8)
      let headLength = out.count
      out += [UInt8](repeating: 0, count: length)
      let got = out.withUnsafeMutableBytes {
        pread(file, $0.baseAddress! + headLength, length, off_t(from))
      }
      guard got == length else { return }
      var sent = 0
      while sent < out.count {
        let w = out.withUnsafeBytes { write(c, $0.baseAddress! + sent, out.count - sent) }
        guard w > 0 else { return }
        sent += w
      }
      counts.withLock {
        $0.requests += 1
        $0.bytes += length
      }
    }
  }
}
