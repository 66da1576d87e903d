import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What tells one version of an archive from another: its ETag and size, as far as known.
struct ArchiveVersion: Sendable, Equatable {
  var etag: String?
  var size: UInt64?

  /// True when `other` is evidently another version: another ETag, or another known size.
  func differs(from other: ArchiveVersion) -> Bool {
    if etag != other.etag { return true }
    if let a = size, let b = other.size, a != b { return true }
    return false
  }
}

/// Positioned reads from an archive: a local file or an HTTP(S) resource.
protocol ByteRangeReader: Sendable {
  /// The path or URL, for messages.
  var location: String { get }
  /// Reads `length` bytes at `offset` (fewer only where the archive ends) and tells which
  /// version of the archive answered. With `expecting`, an answer from another version throws
  /// `ByteRangeReadError.changed` instead: the caller's offsets belong to the old one.
  func read(offset: UInt64, length: Int, expecting: ArchiveVersion?) throws -> (
    data: Data, version: ArchiveVersion
  )
}

/// Raised by a reader when the archive changed under it (another ETag or size).
enum ByteRangeReadError: Error, CustomStringConvertible {
  case changed(old: String?, new: String?)

  var description: String {
    switch self {
    case .changed(let old, let new):
      return "the archive changed on the server during the download (ETag \(old ?? "none"), "
        + "now \(new ?? "none"))"
    }
  }
}

/// A local file read with `pread` (never read whole). The descriptor is opened once; `pread`
/// carries its own offset, so reads on several threads need no lock.
final class FileByteRangeReader: ByteRangeReader {
  let location: String
  let size: UInt64
  private let fd: Int32

  init(path: String) throws {
    location = path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
      !isDirectory.boolValue
    else { throw TileSourceError.notFound(path: path) }
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw TileSourceError.readFailed(path: path, message: String(cString: strerror(errno)))
    }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let message = String(cString: strerror(errno))
      close(fd)
      throw TileSourceError.readFailed(path: path, message: message)
    }
    self.fd = fd
    size = UInt64(max(0, info.st_size))
  }

  deinit { close(fd) }

  func read(offset: UInt64, length: Int, expecting: ArchiveVersion?) throws -> (
    data: Data, version: ArchiveVersion
  ) {
    let version = ArchiveVersion(etag: nil, size: size)
    guard length > 0, offset < size else { return (Data(), version) }
    let wanted = Int(min(UInt64(length), size - offset))
    var data = Data(count: wanted)
    var done = 0
    let failure: Int32? = data.withUnsafeMutableBytes { raw -> Int32? in
      while done < wanted {
        let n = pread(fd, raw.baseAddress! + done, wanted - done, off_t(offset) + off_t(done))
        if n < 0 {
          if errno == EINTR { continue }
          return errno
        }
        if n == 0 { break }  // the file shrank
        done += n
      }
      return nil
    }
    if let failure {
      throw TileSourceError.readFailed(
        path: location, message: "read at byte \(offset): \(String(cString: strerror(failure)))")
    }
    data.count = done
    return (data, version)
  }
}

/// An archive already in memory (tests, and a body fetched whole).
final class DataByteRangeReader: ByteRangeReader {
  let location: String
  let data: Data

  init(data: Data, location: String) {
    self.data = data
    self.location = location
  }

  func read(offset: UInt64, length: Int, expecting: ArchiveVersion?) throws -> (
    data: Data, version: ArchiveVersion
  ) {
    (
      HTTPByteRangeReader.slice(data, offset: offset, length: length),
      ArchiveVersion(etag: nil, size: UInt64(data.count))
    )
  }
}
