import Foundation
import MapGeometry

/// Positions from a file that a logger is writing (NMEA 0183, GPX or CSV, recognised by its
/// first bytes), followed like `tail -f`: what is there is read, then the file is watched for
/// more. A file truncated (shorter than what was read) is read again from its start; a file
/// replaced by another (rotation: a new inode at the path) is finished and the new one read
/// from its start. Both report `.restarted`. A missing file is waited for.
public final class FileFollowProvider: LocationProvider {
  public let path: String
  public var name: String { SafeText.clean(path) }
  /// How often the file is looked at once everything in it has been read (seconds).
  public let pollInterval: Double
  let core = ProviderCore()

  public init(path: String, pollInterval: Double = 0.2) {
    self.path = path
    self.pollInterval = pollInterval
  }

  public var statistics: SourceStatistics { core.statistics }

  public func start(_ handler: @escaping @Sendable (LocationEvent) -> Void) {
    core.start(name: "follow \(name)") { [self] in run(handler) }
  }

  public func stop() { core.stop() }

  struct Opened {
    var fd: Int32
    var device: UInt64
    var inode: UInt64
    var offset: Int = 0
    var size: Int = -1
    var modified = timespec()
    var decoder: (any TrackDecoder)?
    var format: TrackFileFormat?
    var lastProgress = Date()
    var flushed = true
  }

  private func run(_ handler: @escaping @Sendable (LocationEvent) -> Void) {
    var file: Opened?
    var lastFailure: String?
    var totals = SourceStatistics()
    var first = true
    while !core.isStopped {
      if file == nil {
        // O_NONBLOCK: a FIFO put in the file's place cannot block the open.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        if fd < 0 {
          let text = "\(name): \(errnoText().lowercased())"
          if text != lastFailure { handler(.failed(text)) }
          lastFailure = text
          if !core.sleep(pollInterval * 2) { return }
          continue
        }
        var st = stat()
        fstat(fd, &st)
        let kind = st.st_mode & S_IFMT
        if kind == S_IFDIR {
          close(fd)
          handler(.failed("\(name): is a directory"))
          return
        }
        if kind != S_IFREG {
          // Only regular files are followed; the path is watched for one.
          close(fd)
          let text = "\(name): not a regular file (\(BoundedFile.kindName(kind))); not read"
          if text != lastFailure { handler(.failed(text)) }
          lastFailure = text
          if !core.sleep(pollInterval * 2) { return }
          continue
        }
        file = Opened(fd: fd, device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
        if !first { handler(.restarted("\(name): a new file")) }
        first = false
        lastFailure = nil
      }
      guard var f = file else { continue }
      // Read what is new.
      let progressed = readNew(&f, &totals, handler)
      if case .failure(let failure) = progressed {
        handler(.failed(failure.text))
        close(f.fd)
        file = nil
        return
      }
      if case .success(true) = progressed {
        f.lastProgress = Date()
        f.flushed = false
        file = f
        continue
      }
      // Quiet for half a second: what waits for more (an NMEA epoch) is delivered.
      if !f.flushed, Date().timeIntervalSince(f.lastProgress) > 0.5, var d = f.decoder {
        for e in d.idle() { handler(e) }
        f.decoder = d
        f.flushed = true
      }
      file = f
      if !core.sleep(pollInterval) { break }
      var now = stat()
      if stat(path, &now) == 0 && (UInt64(now.st_ino) != f.inode || UInt64(now.st_dev) != f.device)
      {
        // Rotated: finish the old file, then take the new one.
        var old = f
        _ = readNew(&old, &totals, handler)
        close(old.fd)
        file = nil
        continue
      }
      var st = stat()
      fstat(f.fd, &st)
      if Int(st.st_size) < f.offset {
        handler(.restarted("\(name): truncated"))
        f.offset = 0
        f.size = -1
        f.decoder = nil
        f.format = nil
        file = f
      }
    }
    if let f = file { close(f.fd) }
  }

  /// Reads from the consumed offset to the end; success(true) when anything was taken.
  private func readNew(
    _ f: inout Opened, _ totals: inout SourceStatistics,
    _ handler: @Sendable (LocationEvent) -> Void
  ) -> Result<Bool, FollowFailure> {
    var st = stat()
    fstat(f.fd, &st)
    let size = Int(st.st_size)
    guard
      size != f.size || st.st_mtim.tv_sec != f.modified.tv_sec
        || st.st_mtim.tv_nsec != f.modified.tv_nsec
    else { return .success(false) }
    var took = false
    while f.offset < size && !core.isStopped {
      let want = min(size - f.offset, 1 << 20)
      var buffer = [UInt8](repeating: 0, count: want)
      let n = buffer.withUnsafeMutableBytes { pread(f.fd, $0.baseAddress, want, off_t(f.offset)) }
      if n < 0 && errno == EINTR { continue }
      if n < 0 { return .failure(FollowFailure("\(name): \(errnoText().lowercased())")) }
      if n == 0 { break }
      let bytes = buffer[0..<n]
      if f.decoder == nil {
        switch TrackFileFormat.detect(bytes) {
        case nil: return .success(took)
        case .some(nil):
          return .failure(FollowFailure(LocationSourceError.unknownFormat(path).description))
        case .some(.some(let format)):
          f.format = format
          switch format {
          case .nmea: f.decoder = NMEADecoder(sourceName: name)
          case .gpx: f.decoder = GPXTrackDecoder(sourceName: name)
          case .csv: f.decoder = CSVTrackDecoder(sourceName: name)
          }
        }
      }
      var d = f.decoder!
      let (events, consumed) = d.decode(bytes)
      f.decoder = d
      core.set(d.statistics)
      for e in events { handler(e) }
      if consumed == 0 { break }
      f.offset += consumed
      took = true
    }
    f.size = size
    f.modified = st.st_mtim
    return .success(took)
  }

  struct FollowFailure: Error {
    let text: String
    init(_ t: String) { text = t }
  }
}

/// NMEA 0183 from a stream: a serial device (set to raw mode; its speed is left as it is, or
/// set with `baud`), a pipe, or standard input. A device that fails (unplugged) is reopened
/// with back-off; a pipe or standard input that ends reports `.ended`.
public final class NMEAStreamProvider: LocationProvider {
  public let path: String
  public let baud: Int?
  public var name: String { path == "-" ? "standard input" : SafeText.clean(path) }
  let core = ProviderCore()
  let inheritedDescriptor: Int32?

  /// `path` "-" is standard input.
  public init(path: String, baud: Int? = nil) {
    self.path = path
    self.baud = baud
    inheritedDescriptor = nil
  }

  /// Reads an open descriptor (e.g. standard input moved aside before the terminal took fd 0).
  public init(fileDescriptor: Int32, name: String) {
    path = name
    baud = nil
    inheritedDescriptor = fileDescriptor
  }

  public var statistics: SourceStatistics { core.statistics }

  public func start(_ handler: @escaping @Sendable (LocationEvent) -> Void) {
    core.start(name: "nmea \(name)") { [self] in run(handler) }
  }

  public func stop() { core.stop() }

  private func run(_ handler: @escaping @Sendable (LocationEvent) -> Void) {
    var decoder = NMEADecoder(sourceName: name)
    var backoff = 0.25
    var lastFailure: String?
    while !core.isStopped {
      let fd: Int32
      if let d = inheritedDescriptor {
        fd = d
      } else if path == "-" {
        fd = 0
      } else {
        fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
          let text = "\(name): \(errnoText().lowercased())"
          if text != lastFailure { handler(.failed(text)) }
          lastFailure = text
          if !core.sleep(backoff) { return }
          backoff = min(backoff * 2, 4)
          continue
        }
        if isatty(fd) == 1 { configureSerial(fd) }
      }
      lastFailure = nil
      var quiet = 0
      var ended = false
      while !core.isStopped {
        let (readable, stopped) = core.waitReadable(fd, milliseconds: 200)
        if stopped { break }
        if !readable {
          quiet += 1
          // Half a second of silence closes a waiting epoch.
          if quiet == 3 { for e in decoder.flushEpoch() { handler(e) } }
          continue
        }
        quiet = 0
        guard let chunk = readChunk(fd) else {
          ended = true
          break
        }
        if chunk.isEmpty { continue }
        let events = decoder.feed(chunk)
        core.set(decoder.statistics)
        for e in events { handler(e) }
      }
      let isDevice = inheritedDescriptor == nil && path != "-" && isatty(fd) == 1
      if inheritedDescriptor == nil && path != "-" { close(fd) }
      if core.isStopped { return }
      if ended && !isDevice {
        for e in decoder.finish() { handler(e) }
        core.set(decoder.statistics)
        handler(.ended)
        return
      }
      handler(.failed("\(name): the device went away"))
      if !core.sleep(backoff) { return }
      backoff = min(backoff * 2, 4)
    }
  }

  private func configureSerial(_ fd: Int32) {
    var t = termios()
    guard tcgetattr(fd, &t) == 0 else { return }
    cfmakeraw(&t)
    t.c_cflag |= tcflag_t(CLOCAL | CREAD)
    if let b = baud, let speed = Self.speed(b) {
      cfsetispeed(&t, speed)
      cfsetospeed(&t, speed)
    }
    tcsetattr(fd, TCSANOW, &t)
  }

  /// The termios constant of a baud rate.
  static func speed(_ baud: Int) -> speed_t? {
    switch baud {
    case 4800: return speed_t(B4800)
    case 9600: return speed_t(B9600)
    case 19200: return speed_t(B19200)
    case 38400: return speed_t(B38400)
    case 57600: return speed_t(B57600)
    case 115200: return speed_t(B115200)
    default: return nil
    }
  }
}

/// Makes the provider a `--follow` argument names: `gpsd[://HOST:PORT]`, `-` (standard
/// input), a character device or FIFO (NMEA as a stream), or a file (followed).
public enum LocationSource {
  public static func provider(for spec: String) throws(LocationSourceError) -> any LocationProvider
  {
    if let (host, port) = try GPSDProvider.address(spec) {
      return GPSDProvider(host: host, port: port)
    }
    if spec == "-" { return NMEAStreamProvider(path: "-") }
    var st = stat()
    if stat(spec, &st) == 0 {
      let kind = st.st_mode & S_IFMT
      if kind == S_IFCHR || kind == S_IFIFO || kind == S_IFSOCK {
        return NMEAStreamProvider(path: spec)
      }
      if kind == S_IFDIR { throw .cannotOpen(spec, "is a directory") }
    } else if spec.hasPrefix("/dev/") {
      throw .cannotOpen(spec, "no such device")
    }
    return FileFollowProvider(path: spec)
  }
}
