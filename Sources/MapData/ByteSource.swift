import Foundation

/// Bytes of a data file, read in chunks so a large file never has to be in memory at once.
///
/// A source is either an open file or bytes already in memory (for tests and for callers that
/// have the data). It reports how far it has read through an optional progress callback.
final class ByteSource {
  let path: String
  /// The file's size in bytes when known (regular files and memory), for progress.
  let totalSize: Int?
  private var fd: Int32 = -1
  private var memory: [UInt8] = []
  private var memoryOffset = 0
  private(set) var bytesRead = 0
  private var progress: ((Double) -> Void)?
  private var lastReported = -1
  /// Bytes given back by `unread`, served before the rest.
  private var pushedBack: [UInt8] = []

  /// Opens the file at `path`, or says in one line why it cannot be read.
  init(path: String, progress: ((Double) -> Void)? = nil) throws(DataFileError) {
    self.path = path
    self.progress = progress
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    if fd < 0 { throw Self.openError(path: path, errno: errno) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      throw DataFileError(path: path, message: "cannot read file: \(Self.describe(code))")
    }
    if (info.st_mode & S_IFMT) == S_IFDIR {
      close(fd)
      throw DataFileError(path: path, message: "is a directory, not a file")
    }
    self.fd = fd
    totalSize = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
  }

  /// A source over bytes in memory; `path` is used only in messages.
  init(bytes: [UInt8], path: String, progress: ((Double) -> Void)? = nil) {
    self.path = path
    self.progress = progress
    memory = bytes
    totalSize = bytes.count
  }

  deinit {
    if fd >= 0 { close(fd) }
  }

  /// Reads up to `count` bytes into `buffer`; 0 only at the end of the file.
  func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) throws(DataFileError) -> Int {
    if count <= 0 { return 0 }
    var got = 0
    if !pushedBack.isEmpty {
      got = min(count, pushedBack.count)
      pushedBack.withUnsafeBufferPointer { b in buffer.update(from: b.baseAddress!, count: got) }
      pushedBack.removeFirst(got)
    } else if fd < 0 {
      got = min(count, memory.count - memoryOffset)
      if got > 0 {
        memory.withUnsafeBufferPointer { m in
          buffer.update(from: m.baseAddress! + memoryOffset, count: got)
        }
        memoryOffset += got
      }
    } else {
      while true {
        let n = systemRead(fd, buffer, count)
        if n < 0 {
          let code = errno
          if code == EINTR { continue }
          if code == EISDIR {
            throw DataFileError(path: path, message: "is a directory, not a file")
          }
          throw DataFileError(path: path, message: "cannot read file: \(Self.describe(code))")
        }
        got = n
        break
      }
    }
    bytesRead += got
    report()
    return got
  }

  /// Reads up to `count` bytes (fewer only at the end of the file).
  func read(upTo count: Int) throws(DataFileError) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: count)
    var used = 0
    while used < count {
      var n = 0
      var failure: DataFileError?
      out.withUnsafeMutableBufferPointer { b in
        do throws(DataFileError) {
          n = try read(into: b.baseAddress! + used, count: count - used)
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
      if n == 0 { break }
      used += n
    }
    out.removeLast(count - used)
    return out
  }

  /// Gives bytes back to be read again first.
  func unread(_ bytes: [UInt8]) {
    pushedBack = bytes + pushedBack
    bytesRead -= bytes.count
  }

  /// Reads everything that is left.
  func readAll() throws(DataFileError) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: max((totalSize ?? 0) - bytesRead + 1, 1 << 16))
    var used = 0
    while true {
      if used == out.count { out.append(contentsOf: [UInt8](repeating: 0, count: out.count)) }
      var n = 0
      var failure: DataFileError?
      out.withUnsafeMutableBufferPointer { b in
        do throws(DataFileError) {
          n = try read(into: b.baseAddress! + used, count: b.count - used)
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
      if n == 0 { break }
      used += n
    }
    out.removeLast(out.count - used)
    return out
  }

  /// The share of the progress that reading stands for (the rest is for parsing what was read
  /// whole, as for GeoJSON and CSV).
  var readingShare = 1.0

  /// Tells the callback the fraction read, in steps of at least 1%.
  func report(fraction override: Double? = nil) {
    guard let progress else { return }
    let fraction: Double
    if let override {
      fraction = override
    } else if let total = totalSize, total > 0 {
      fraction = min(Double(bytesRead) / Double(total), 1) * readingShare
    } else {
      return
    }
    let percent = Int(fraction * 100)
    if percent > lastReported {
      lastReported = percent
      progress(fraction)
    }
  }

  private func systemRead(_ fd: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    Foundation.read(fd, buffer, count)
  }

  static func openError(path: String, errno code: Int32) -> DataFileError {
    let message: String
    switch code {
    case ENOENT: message = "file not found"
    case ENOTDIR: message = "file not found (a part of the path is not a directory)"
    case EACCES, EPERM: message = "cannot read file: permission denied"
    case EISDIR: message = "is a directory, not a file"
    default: message = "cannot open file: \(describe(code))"
    }
    return DataFileError(path: path, message: message)
  }

  static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}
