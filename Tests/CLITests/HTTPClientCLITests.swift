import Foundation
import LoopbackHTTPServer
import TestProcesses
import Testing

/// termmap against servers that send without end, and through a proxy: what a user sees and
/// what the process holds in memory (the kernel's peak resident size of the child).
@Suite("termmap render over hostile HTTP servers and proxies")
struct HTTPClientCLITests {
  static let world = WorldMBTiles.path

  /// Runs termmap to its end: exit status, peak resident KiB, standard output and error.
  func measured(_ arguments: [String], environment: [String: String]) throws -> (
    status: Int32, kib: Int, stdout: String, stderr: String
  ) {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cli-rss-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var env = environment
    env["XDG_CACHE_HOME"] = dir.appendingPathComponent("cache").path
    let out = dir.appendingPathComponent("out").path
    let err = dir.appendingPathComponent("err").path
    let pid = try ChildProcess.spawn(
      [termmapBinary.path] + arguments, stdout: out, stderr: err, environment: env)
    let (status, kib) = ChildProcess.waitMeasured(pid)
    let stdout = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
    let stderr = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
    return (status, kib, stdout, stderr)
  }

  func render(_ tiles: String, environment: [String: String] = [:]) throws -> (
    status: Int32, kib: Int, stdout: String, stderr: String
  ) {
    try measured(
      [
        "render", "--no-basemap", "--color", "never", "--size", "80x24", "--zoom", "1",
        "--center", "30,10", "--tiles", tiles,
      ], environment: environment)
  }

  static let endless = Data(repeating: 0x41, count: 64 << 10)

  @Test("tile servers sending endless chunked bodies: under 64 MiB above a run whose tiles 404")
  func endlessTiles() throws {
    let missing = try LoopbackHTTPServer { _ in .respond(status: 404) }
    defer { missing.stop() }
    let baseline = try render(missing.baseURL + "/{z}/{x}/{y}.pbf")
    #expect(baseline.status == 0, "\(baseline.stderr)")
    let hostile = try LoopbackHTTPServer { _ in .stream(chunk: Self.endless, total: 2 << 30) }
    defer { hostile.stop() }
    let r = try render(hostile.baseURL + "/{z}/{x}/{y}.pbf")
    #expect(r.stdout.split(separator: "\n").count == 24)
    #expect(
      r.stderr.contains("the response is larger than the limit of 8388608 bytes"), "\(r.stderr)")
    #expect(r.kib - baseline.kib < 64 << 10, "\(r.kib) KiB against \(baseline.kib) KiB")
    #expect(hostile.requests.count >= 1)
  }

  @Test("a PMTiles server that ignores Range and streams: one line, bounded memory")
  func pmtilesIgnoringRange() throws {
    let missing = try LoopbackHTTPServer { _ in .respond(status: 404) }
    defer { missing.stop() }
    let baseline = try render(missing.baseURL + "/a.pmtiles")
    let hostile = try LoopbackHTTPServer { _ in .stream(chunk: Self.endless, total: 2 << 30) }
    defer { hostile.stop() }
    let r = try render(hostile.baseURL + "/a.pmtiles")
    #expect(r.status == 2)
    #expect(
      r.stderr
        == "termmap: --tiles: \(hostile.baseURL)/a.pmtiles: the server ignores Range requests "
        + "and the archive is larger than 16777216 bytes\n")
    #expect(r.kib - baseline.kib < 64 << 10, "\(r.kib) KiB against \(baseline.kib) KiB")
  }

  @Test("HTTP_PROXY: tiles of a host this machine cannot resolve arrive through the proxy")
  func throughAProxy() throws {
    let proxy = try LoopbackHTTPServer.tileServer(mbtiles: Self.world)
    defer { proxy.stop() }
    let direct = try render(proxy.baseURL + "/{z}/{x}/{y}.pbf")
    let proxied = try render(
      "http://tiles.invalid/{z}/{x}/{y}.pbf", environment: ["HTTP_PROXY": proxy.baseURL])
    #expect(proxied.status == 0)
    #expect(proxied.stderr.isEmpty, "\(proxied.stderr)")
    #expect(proxied.stdout == direct.stdout)
    let dots = proxied.stdout.unicodeScalars.filter { $0.value > 0x2800 && $0.value <= 0x28FF }
    #expect(dots.count > 100)
    #expect(proxy.requests.contains { $0.path.hasPrefix("http://tiles.invalid/") })
  }
}
