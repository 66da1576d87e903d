import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads small files that an untrusted directory names, without trusting what they are.
///
/// The file is opened with `O_NONBLOCK` (a FIFO cannot block the reading thread) and checked
/// with `fstat` on the open descriptor (no race with a rename): only regular files are read
/// (not devices such as `/dev/zero` behind a symlink, FIFOs, sockets or directories), and only
/// when their size is within `limit` (a 3 GB sparse file is refused before a byte is read). At
/// most `limit` bytes are ever read, even from a file that grows meanwhile. Tile directories,
/// the tile disk cache and tile overlays' `file:` URLs read through it.
public enum BoundedFile {
  /// The file's bytes; nil when it does not exist. Throws `BoundedFileError` for anything
  /// else that is not a regular file of at most `limit` bytes.
  public static func read(_ path: String, limit: Int) throws(BoundedFileError) -> Data? {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    if fd < 0 {
      let code = errno
      if code == ENOENT || code == ENOTDIR { return nil }
      throw BoundedFileError(path: path, message: "cannot open: \(describe(code))")
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw BoundedFileError(path: path, message: "cannot read: \(describe(errno))")
    }
    let kind = info.st_mode & S_IFMT
    guard kind == S_IFREG else {
      throw BoundedFileError(
        path: path, message: "not a regular file (\(kindName(kind))); it is not read")
    }
    let size = Int(info.st_size)
    guard size <= limit else {
      throw BoundedFileError(
        path: path, message: "the file is \(size) bytes, over the limit of \(limit) bytes")
    }
    // One byte more than the limit tells a file that grew after fstat.
    let capacity = min(size, limit) + 1
    var data = Data(count: capacity)
    var total = 0
    let failure: Int32? = data.withUnsafeMutableBytes { raw -> Int32? in
      while total < capacity {
        let n = Foundation.read(fd, raw.baseAddress! + total, capacity - total)
        if n == 0 { break }
        if n < 0 {
          if errno == EINTR { continue }
          return errno
        }
        total += n
      }
      return nil
    }
    if let failure {
      throw BoundedFileError(path: path, message: "cannot read: \(describe(failure))")
    }
    guard total <= limit else {
      throw BoundedFileError(
        path: path, message: "the file grew past the limit of \(limit) bytes while being read")
    }
    data.count = total
    return data
  }

  private static func describe(_ code: Int32) -> String {
    String(cString: strerror(code))
  }

  /// "a FIFO", "a directory"…: what a file that is not a regular file is, for messages.
  public static func kindName(_ kind: mode_t) -> String {
    switch kind {
    case S_IFDIR: return "a directory"
    case S_IFIFO: return "a FIFO"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    default: return "a special file"
    }
  }
}

/// A file `BoundedFile` would not read, or could not: its path and why, as one line.
public struct BoundedFileError: Error, CustomStringConvertible, Equatable {
  /// The file.
  public let path: String
  /// What is wrong with it.
  public let message: String
  public var description: String { "\(path): \(message)" }
}
