import DotRaster
import Foundation
import LiveLayers
import MapData
import MapGeometry
import MapTiles
import Synchronization
import TermMapKit
import TerminalUI

extension BenchCommand {
  /// Live targets (`--layer`): 10,000 targets around Monaco, each updated 10 times a second.
  ///
  /// - `live-targets-ingest`: NDJSON decoded and applied to the target store on this thread
  ///   (one core), as a reader does: the note gives the updates a second.
  /// - `live-targets-frame`: per frame, a thirtieth of a second of updates (3,333) applied to
  ///   the feed, then the layer synchronized with the map and the frame drawn over the offline
  ///   map (its tiles cached): the time of synchronizing and drawing.
  /// - `live-targets-keys`: the viewer with the layer fed by a reader thread from a pipe as
  ///   fast as it reads, a key every 50 ms: the time from a key's arrival to the frame that
  ///   answers it (median, p95; the note gives the worst).
  func liveTargets(frames: Int) throws -> [Result] {
    let targets = 10_000
    var results: [Result] = []
    func wants(_ name: String) -> Bool {
      only.map { name.hasPrefix($0) || $0.hasPrefix(name) } ?? true
    }
    if wants("live-targets-ingest") { results.append(liveTargetIngest(targets: targets)) }
    if wants("live-targets-frame") {
      results += try liveTargetFrames(targets: targets, frames: frames)
    }
    if wants("live-targets-keys") {
      results.append(try liveTargetKeys(targets: targets, seconds: quick ? 2 : 5))
    }
    return results
  }

  /// NDJSON decoded and applied to a store on this thread.
  func liveTargetIngest(targets: Int) -> Result {
    Memory.resetPeak()
    let lines = quick ? 200_000 : 1_000_000
    var text: [UInt8] = []
    text.reserveCapacity(lines * 150)
    var walk = TargetWalk(count: targets)
    for n in 0..<lines {
      text += Array(walk.line(n % targets).utf8)
      text.append(0x0A)
    }
    let clock = ContinuousClock()
    var rates: [Double] = []
    var cpuRates: [Double] = []
    for _ in 0..<(quick ? 3 : 5) {
      var decoder = LiveDecoder(sourceName: "bench")
      var store = TargetStore()
      var out: [LiveUpdate] = []
      out.reserveCapacity(4096)
      let start = clock.now
      let cpuStart = Self.threadCPUSeconds()
      text.withUnsafeBufferPointer { all in
        var i = 0
        while i < all.count {
          let n = min(65_536, all.count - i)
          decoder.feed(UnsafeBufferPointer(rebasing: all[i..<i + n]), into: &out)
          store.apply(out, now: 0)
          out.removeAll(keepingCapacity: true)
          i += n
        }
      }
      let seconds = Self.milliseconds(clock.now - start) / 1000
      cpuRates.append(Double(lines) / (Self.threadCPUSeconds() - cpuStart))
      precondition(store.count == targets && decoder.statistics.malformed == 0)
      rates.append(Double(lines) / seconds)
    }
    cpuRates.sort()
    rates.sort()
    let rate = rates[rates.count / 2]
    let result =
      (Result(
        name: "live-targets-ingest", frames: rates.count,
        median: Double(lines) / rate * 1000, p95: Double(lines) / rates[0] * 1000,
        peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576,
        note: String(
          format:
            "%.2fM point updates/s from NDJSON on one core (%.2fM/s of the thread's CPU time; %d lines of %d bytes)",
          rate / 1e6, cpuRates[cpuRates.count / 2] / 1e6, lines, text.count / lines)))
    return result
  }

  /// Frames at 160x48 and 300x100 while targets move.
  func liveTargetFrames(targets: Int, frames: Int) throws -> [Result] {
    var results: [Result] = []
    let clock = ContinuousClock()
    for (cols, rws, clusters) in [
      (160, 48, true), (300, 100, true), (160, 48, false), (300, 100, false),
    ] {
      let name = "live-targets-frame-\(cols)x\(rws)\(clusters ? "" : "-no-clusters")"
      // Only the scenarios asked for (`--only live-targets-frame-300x100` runs two).
      if let only, !name.hasPrefix(only) { continue }
      Memory.resetPeak()
      let map = MapView(columns: cols, rows: rws)
      let style = ContentStyle()
      map.delegate = style
      BenchCommand.keepAlive.append(style)
      if let dir = DataDirectory.locate() {
        map.addOverlays(try OfflineMap.overlays(dataDirectory: dir), level: .aboveRoads)
      }
      map.setCenter(TargetWalk.home, animated: false)
      map.setZoomLevel(10, animated: false)
      let feed = LiveFeed()
      let layer = LiveLayer(feed: feed)
      layer.clustersTargets = clusters
      layer.attach(to: map)
      var walk = TargetWalk(count: targets)
      feed.apply((0..<targets).map { walk.update($0) })
      layer.synchronize()
      _ = map.renderCompleteFrame(timeout: 15)
      var times: [Double] = []
      var cpu: [Double] = []
      var syncCPU: [Double] = []
      var next = 0
      let perFrame = targets * 10 / 30
      for _ in 0..<max(frames * 3, 60) {
        var batch: [LiveUpdate] = []
        batch.reserveCapacity(perFrame)
        for _ in 0..<perFrame {
          batch.append(walk.update(next))
          next = (next + 1) % targets
        }
        feed.apply(batch)
        let start = clock.now
        let cpuStart = Self.threadCPUSeconds()
        Self.measuredFrameSynchronize(layer)
        let cpuSynced = Self.threadCPUSeconds()
        let frame = Self.measuredFrame(map)
        times.append(Self.milliseconds(clock.now - start))
        let cpuEnd = Self.threadCPUSeconds()
        cpu.append((cpuEnd - cpuStart) * 1000)
        syncCPU.append((cpuSynced - cpuStart) * 1000)
        precondition(frame.rows == rws)
      }
      times.sort()
      cpu.sort()
      syncCPU.sort()
      results.append(
        Result(
          name: name,
          frames: times.count,
          median: times[times.count / 2],
          p95: times[min(times.count - 1, Int(Double(times.count) * 0.95))],
          peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576,
          note: String(
            format:
              "10,000 targets, 3,333 updates a frame (10/s each at 30 frames/s); main thread CPU median %.2f ms, p95 %.2f ms (synchronize: median %.2f ms)",
            cpu[cpu.count / 2], cpu[min(cpu.count - 1, Int(Double(cpu.count) * 0.95))],
            syncCPU[syncCPU.count / 2])))
    }
    return results
  }

  /// A measured frame's `synchronize()`. Not inlined: with `measuredFrame(_:)`, what
  /// `valgrind --tool=callgrind --toggle-collect='*measuredFrame*'` counts of a live frame.
  @inline(never) static func measuredFrameSynchronize(_ layer: LiveLayer) {
    layer.synchronize()
  }

  /// The viewer fed through a pipe as fast as a reader takes it, a key every 50 ms.
  func liveTargetKeys(targets: Int, seconds: Double) throws -> Result {
    Memory.resetPeak()
    var options = ViewerOptions()
    options.center = TargetWalk.home
    options.zoom = 10
    options.dataDirectory = DataDirectory.locate()
    let viewer = Viewer(options: options, columns: columns, rows: rows + 1, unicode: true)
    if let dir = options.dataDirectory {
      viewer.map.addOverlays(try OfflineMap.overlays(dataDirectory: dir), level: .aboveRoads)
    }
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw UsageError("bench: no pipe") }
    let feed = LiveFeed()
    let layer = LiveLayer(feed: feed)
    viewer.addLiveLayer(layer)
    let reader = LiveSourceReader(
      spec: .standardInput, feed: feed, index: 0, follows: true, fileDescriptor: fds[0])
    viewer.start()
    reader.start()
    // The writer: NDJSON as fast as the pipe takes it.
    let writeEnd = fds[1]
    let written = Counter()
    let stop = Counter()
    let writerDone = DispatchSemaphore(value: 0)
    // The read end is closed while the writer may be in `write`: that write must fail with
    // EPIPE, not kill the process (no terminal guard ignores SIGPIPE here).
    signal(SIGPIPE, SIG_IGN)
    let writer = Thread {
      defer { writerDone.signal() }
      var walk = TargetWalk(count: targets)
      var n = 0
      while stop.value == 0 {
        var chunk: [UInt8] = []
        for _ in 0..<500 {
          chunk += Array(walk.line(n % targets).utf8)
          chunk.append(0x0A)
          n += 1
        }
        var off = 0
        while off < chunk.count {
          let w = chunk.withUnsafeBytes {
            write(writeEnd, $0.baseAddress! + off, chunk.count - off)
          }
          if w <= 0 { return }
          off += w
        }
        written.add(500)
      }
    }
    writer.start()
    let clock = ContinuousClock()
    let end = clock.now + .milliseconds(Int(seconds * 1000))
    var nextKey = clock.now + .milliseconds(50)
    var pending: [ContinuousClock.Instant] = []
    var latencies: [Double] = []
    var zoomIn = true
    while clock.now < end {
      // A key arrives every 50 ms; the first frame after it answers it, whichever turn
      // makes it.
      // Keys that arrived while the last turn ran are all read now, as a terminal's are.
      var input = false
      while clock.now >= nextKey {
        pending.append(nextKey)
        viewer.handle(.character(zoomIn ? "+" : "-"))
        zoomIn.toggle()
        nextKey = nextKey + .milliseconds(50)
        input = true
      }
      if let f = viewer.turn(afterInput: input) {
        precondition(f.rows > 0)
        for p in pending { latencies.append(Self.milliseconds(clock.now - p)) }
        pending.removeAll()
      } else {
        usleep(1000)
      }
    }
    // The writer stops at its next chunk, or at once when the read end goes; the write end is
    // closed only after it has returned, so no write can reach a descriptor number reused since.
    stop.add(1)
    reader.stop()
    close(fds[0])
    writerDone.wait()
    close(fds[1])
    viewer.finish()
    latencies.sort()
    let updates = written.value
    return Result(
      name: "live-targets-keys", frames: latencies.count,
      median: latencies.isEmpty ? 0 : latencies[latencies.count / 2],
      p95: latencies.isEmpty
        ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.95))],
      peakRSS: Double(Memory.peakResidentBytes()) / 1_048_576,
      note: String(
        format: "key to frame while %.0fk updates/s arrive through a pipe; worst %.1f ms",
        Double(updates) / seconds / 1000, latencies.last ?? 0))
  }
}

extension BenchCommand {
  /// The CPU time this thread has used, in seconds (what "on one core" means on a busy
  /// machine).
  static func threadCPUSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
  }
}

/// A counter shared with a writer thread.
final class Counter: Sendable {
  private let v = Mutex(0)
  func add(_ n: Int) { v.withLock { $0 += n } }
  var value: Int { v.withLock { $0 } }
}

/// Targets moving around Monaco, each on its own heading, deterministic.
struct TargetWalk {
  static let home = Coordinate(latitude: 43.7384, longitude: 7.4246)
  var positions: [Coordinate]
  var headings: [Double]

  init(count: Int) {
    var state: UInt64 = 42
    func random() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    positions = (0..<count).map { _ in
      Coordinate(
        latitude: Self.home.latitude + (random() - 0.5) * 0.6,
        longitude: Self.home.longitude + (random() - 0.5) * 0.8)
    }
    headings = (0..<count).map { _ in random() * 360 }
  }

  mutating func step(_ k: Int) -> Coordinate {
    let a = headings[k] * .pi / 180
    var c = positions[k]
    c.latitude += cos(a) * 0.0002
    c.longitude += sin(a) * 0.0003
    if abs(c.latitude - Self.home.latitude) > 0.3 || abs(c.longitude - Self.home.longitude) > 0.4 {
      headings[k] = (headings[k] + 180).truncatingRemainder(dividingBy: 360)
    }
    positions[k] = c
    return c
  }

  mutating func update(_ k: Int) -> LiveUpdate {
    let c = step(k)
    return LiveUpdate(
      id: "t\(k)", kind: .aircraft, geometry: .point(c),
      properties: [LiveProperty("track", .number(headings[k]))])
  }

  mutating func line(_ k: Int) -> String {
    let c = step(k)
    return String(
      format:
        "{\"type\":\"Feature\",\"id\":\"t%d\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[%.6f,%.6f]},\"properties\":{\"track\":%.1f,\"title\":\"T%d\"}}",
      k, c.longitude, c.latitude, headings[k], k)
  }
}
