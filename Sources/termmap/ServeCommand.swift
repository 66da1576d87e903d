import Dispatch
import Foundation
import LiveLayers
import Logging
import MapData
import MapGeometry
import MapServer
import MapTiles
import Synchronization
import TermMapKit
import TerminalUI

/// `termmap serve`: the map over SSH. Each shell gets its own viewer (a `SessionFront`) on
/// the main actor; the map layers, the files given and the place names are made once and
/// shared by every session.
@MainActor
enum ServeCommand {
  /// The sessions open now, by id (main actor only).
  static var sessions: [Int: SessionHolder] = [:]
  static var nextID = 0
  /// The zoom a session opens at when its user name names a place (a town fills the screen).
  static let placeZoom = 11.0

  static func run(_ c: Termmap.Serve) throws -> Int32 {
    let (host, port) = try listenAddress(c.listen)
    let metricsAddress = try c.metrics.map { try listenAddress($0, option: "--metrics") }
    guard c.anonymous != (c.authorizedKeys != nil) else {
      throw UsageError("serve: give --authorized-keys FILE or --anonymous (one of the two)")
    }
    let keysPath = c.authorizedKeys
    let access: SSHServer.Access
    if let keysPath {
      access = .keys(try loadKeys(keysPath))
    } else {
      access = .anonymous
    }
    var limits = SSHServer.Limits()
    if let v = c.maxSessions {
      limits.maxSessions = Int(try number(v, "--max-sessions", 1...100_000))
    }
    if let v = c.idleTimeout {
      limits.idleTimeout = try number(v, "--idle-timeout", 0...604_800)
    }
    let hostKeyPath = c.hostKey ?? defaultHostKeyPath()
    if c.check && !FileManager.default.fileExists(atPath: hostKeyPath) {
      _ = try RenderCommand(position: c.position, map: c.map, tiles: c.tiles, files: c.input.files)
        .makeMapLayers(reportMissingMap: false)
      FileHandle.standardError.write(
        Data(
          "termmap serve: configuration OK; would listen on \(host):\(port) and make a host key at \(hostKeyPath)\n"
            .utf8))
      return 0
    }
    let hostKey: HostKey
    do {
      try FileManager.default.createDirectory(
        atPath: (hostKeyPath as NSString).deletingLastPathComponent,
        withIntermediateDirectories: true)
      hostKey = try HostKey.loadOrGenerate(path: hostKeyPath)
    } catch let e as KeyFileError {
      throw UsageError("--host-key: \(e.description)")
    } catch {
      throw UsageError("--host-key: \(hostKeyPath): \(error.localizedDescription)")
    }

    // What every session shows: the map layers, the files, the place names.
    let shown = try Shown(c)
    let options = shown.options
    let gazetteer = try? Gazetteer(directory: options.dataDirectory)
    // Live layers every session sees: each source read once, its targets on every map.
    let live = try c.layers.parse()

    if c.check {
      FileHandle.standardError.write(
        Data(
          "termmap serve: configuration OK; would listen on \(host):\(port), host key \(hostKey.fingerprint)\n"
            .utf8))
      return 0
    }
    shown.shareTiles()
    Self.shown = shown
    let liveRun = live.sources.isEmpty ? nil : LiveLayerRun(live, follows: true)
    liveRun?.start()
    let liveLayer = liveRun?.layer
    LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
    let logger = Logger(label: "termmap.serve")
    let server = SSHServer(hostKey: hostKey, access: access, limits: limits, logger: logger) {
      request, output in
      let holder = SessionHolder()
      DispatchQueue.main.async {
        MainActor.assumeIsolated {
          // What the server shows now (SIGHUP may have read the configuration again).
          let now = Self.shown ?? shown
          var options = now.options
          options.labelLanguage = now.language ?? LabelLanguage.fromLocale(request.environment)
          open(
            holder, request: request, output: output, options: options, layers: now.layers,
            live: liveLayer, gazetteer: gazetteer)
        }
      }
      return .success(ServeSession(holder: holder))
    }
    let bound: Int
    do {
      bound = try server.start(host: host, port: port)
    } catch {
      throw UsageError("--listen: \(c.listen): \(error)")
    }
    // The metrics listener first: "listening on" says the server is ready, metrics included
    // (a supervisor or a test that waits for that line can scrape at once). Both lines go in
    // one write, so a reader sees neither or both.
    var metricsLine = ""
    if let (metricsHost, metricsPort) = metricsAddress {
      do {
        let port = try server.startMetrics(host: metricsHost, port: metricsPort)
        metricsLine = "termmap serve: metrics on http://\(metricsHost):\(port)/metrics\n"
      } catch {
        server.stop()
        throw UsageError("--metrics: \(c.metrics ?? ""): \(error)")
      }
    }
    if hostKey.generated {
      FileHandle.standardError.write(Data("termmap serve: made a host key: \(hostKeyPath)\n".utf8))
    }
    FileHandle.standardError.write(
      Data(
        ("termmap serve: listening on \(host):\(bound), host key \(hostKey.fingerprint)\n"
          + metricsLine).utf8))

    // SIGTERM and SIGINT: every session gets a last line and its terminal back; exit 0.
    // SIGHUP: the authorized keys and the configuration are read again (sessions that start
    // after it show the new map; open ones keep theirs).
    var sources: [any DispatchSourceSignal] = []
    for sig in [SIGTERM, SIGINT, SIGHUP] {
      signal(sig, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
      source.setEventHandler {
        MainActor.assumeIsolated {
          if sig == SIGHUP {
            reload(keysPath, server: server, logger: logger)
            reloadMap(c, logger: logger)
          } else {
            shutDown(server, logger: logger)
          }
        }
      }
      source.resume()
      sources.append(source)
    }
    withExtendedLifetime(sources) { dispatchMain() }
  }

  static func open(
    _ holder: SessionHolder, request: SessionRequest, output: any SessionOutput,
    options base: ViewerOptions, layers: [any Overlay], live: LiveLayer?,
    gazetteer: Gazetteer?
  ) {
    var options = base
    // The user name may name a place: `ssh lyon@host` opens at Lyon.
    if let place = gazetteer?.search(request.user, limit: 1).first,
      !request.user.isEmpty, request.user.count <= 64
    {
      options.center = place.coordinate
      options.zoom = placeZoom
      options.bbox = nil
    }
    nextID += 1
    let id = nextID
    let link = SessionFront.Link(
      send: { output.send($0) }, backlog: { output.pendingBytes },
      whenDrained: { output.whenDrained(below: $0, $1) },
      finish: { bytes, status in
        output.finish(sending: bytes, exitStatus: status)
        DispatchQueue.main.async {
          MainActor.assumeIsolated { _ = sessions.removeValue(forKey: id) }
        }
      })
    let front = SessionFront(
      options: options, columns: request.columns, rows: request.rows, term: request.term,
      environment: request.environment, gazetteer: gazetteer, link: link
    ) { viewer in
      viewer.map.addOverlays(layers, level: .aboveRoads)
      if let live { viewer.addLiveLayer(live) }
    }
    holder.front = front
    holder.id = id
    sessions[id] = holder
    front.start()
    if holder.closed { close(holder) }
  }

  static func close(_ holder: SessionHolder) {
    holder.closed = true
    holder.front?.closed()
    holder.front = nil
    if let id = holder.id { sessions[id] = nil }
  }

  static func shutDown(_ server: SSHServer, logger: Logger) {
    logger.info("stopping", metadata: ["sessions": .stringConvertible(sessions.count)])
    for holder in sessions.values {
      holder.front?.stop(message: "termmap serve is stopping; goodbye")
    }
    // The last lines go out on the connections' threads (each session closes its channel
    // after them); what is still open a moment later is closed.
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
      server.stop()
      exit(0)
    }
  }

  /// What sessions show: the viewer's options, the labels' language (nil: each session's
  /// locale) and the map layers, made from the command line and the configuration file.
  struct Shown: Sendable {
    var options = ViewerOptions()
    var language: String?
    var layers: [TileOverlay] = []

    @MainActor init(_ c: Termmap.Serve) throws {
      let parsed = try RenderCommand(
        position: c.position, map: c.map, tiles: c.tiles, files: c.input.files)
      options.center = parsed.center
      options.zoom = parsed.zoom
      options.bbox = parsed.bboxRect
      if parsed.charsetGiven { options.charset = parsed.charset }
      options.dataDirectory = DataDirectory.locate()
      options.allowsDownloads = false
      options.files = parsed.files
      // The labels' language: --lang or the config's for every session, else each session's
      // own locale (LANG, LC_* come through the SSH session's environment).
      language = parsed.languageGiven ? parsed.language : nil
      layers = try parsed.makeMapLayers(reportMissingMap: false)
    }

    /// One decoded-tile cache per tile layer for every session: a tile one user loaded is
    /// drawn for the next without a second load or decode, and held once.
    func shareTiles() {
      for tiles in layers {
        tiles.sharedContent = SharedTileContent(byteLimit: 128 << 20)
      }
    }
  }

  /// What sessions that start now show (set once listening; SIGHUP makes it again).
  static var shown: Shown?

  /// SIGHUP: the configuration file (tile sources, `[style]`) and the files read again; a
  /// problem is logged and the map stays as it was.
  static func reloadMap(_ c: Termmap.Serve, logger: Logger) {
    do {
      let made = try Shown(c)
      made.shareTiles()
      shown = made
      logger.info("reloaded", metadata: ["map-layers": .stringConvertible(made.layers.count)])
    } catch {
      logger.error("reload failed", metadata: ["why": .string(SafeText.clean("\(error)"))])
    }
  }

  static func reload(_ path: String?, server: SSHServer, logger: Logger) {
    guard let path else { return }
    do {
      server.setAccess(.keys(try loadKeys(path)))
      logger.info("reloaded", metadata: ["authorized-keys": .string(SafeText.clean(path))])
    } catch {
      logger.error("reload failed", metadata: ["why": .string("\(error)")])
    }
  }

  static func loadKeys(_ path: String) throws -> AuthorizedKeys {
    do {
      let keys = try AuthorizedKeys(path: path)
      for p in keys.problems {
        FileHandle.standardError.write(
          Data("termmap serve: \(SafeText.clean(p.description))\n".utf8))
      }
      return keys
    } catch {
      throw UsageError("--authorized-keys: \(error.description)")
    }
  }

  static func listenAddress(_ text: String, option: String = "--listen") throws -> (String, Int) {
    guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
      (0...65535).contains(port)
    else { throw UsageError("\(option): \(text): expected ADDRESS:PORT, as 127.0.0.1:2222") }
    var host = String(text[..<colon])
    if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    return (host.isEmpty ? "0.0.0.0" : host, port)
  }

  /// A number in a range (ArgumentValues reads it; the range's message as --wait's).
  static func number(_ text: String, _ name: String, _ range: ClosedRange<Double>) throws -> Double
  {
    let v = try ArgumentValues.number(text, name)
    guard range.contains(v) else {
      throw UsageError("\(name): expected \(Int(range.lowerBound))...\(Int(range.upperBound))")
    }
    return v
  }

  /// `$XDG_DATA_HOME/termmap/ssh_host_ed25519_key` (~/.local/share/termmap/…).
  static func defaultHostKeyPath() -> String {
    XDGDirectories.dataHome().appendingPathComponent("termmap/ssh_host_ed25519_key").path
  }
}

/// A session's viewer, once the main actor has made it. The factory queues the making on the
/// main queue before the connection can deliver anything, so every call after finds it (or a
/// closed session).
@MainActor
final class SessionHolder {
  var front: SessionFront?
  var id: Int?
  var closed = false
}

/// The server's handle on a session: every call hops to the main actor, in order.
/// Bounded: at most `maxInFlight` bytes of a client's input wait for the main actor; what a
/// client sends beyond that (a flood, a paste of megabytes) is dropped, as a terminal drops
/// keys it cannot take, so the server's memory never grows with what a peer sends.
final class ServeSession: TerminalSession {
  let holder: SessionHolder
  let inFlight = Atomic<Int>(0)
  static let maxInFlight = 64 * 1024
  init(holder: SessionHolder) { self.holder = holder }

  func received(_ bytes: [UInt8]) {
    let n = bytes.count
    guard inFlight.add(n, ordering: .relaxed).newValue <= Self.maxInFlight else {
      inFlight.subtract(n, ordering: .relaxed)
      return
    }
    DispatchQueue.main.async { [self] in
      MainActor.assumeIsolated {
        holder.front?.received(bytes)
      }
      inFlight.subtract(n, ordering: .relaxed)
    }
  }

  func resized(columns: Int, rows: Int) {
    let holder = holder
    DispatchQueue.main.async {
      MainActor.assumeIsolated { holder.front?.resized(columns: columns, rows: rows) }
    }
  }

  func ended() {
    let holder = holder
    DispatchQueue.main.async { MainActor.assumeIsolated { ServeCommand.close(holder) } }
  }
}
