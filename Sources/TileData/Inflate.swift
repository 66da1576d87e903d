import CZlib
import Foundation

/// Why compressed tile data could not be inflated.
public enum InflateError: Error, Equatable, CustomStringConvertible {
  /// The input ended before the compressed stream did.
  case truncated(inputBytes: Int)
  /// The stream is not valid gzip/zlib data (zlib's message, when it gave one).
  case corrupt(String)
  /// The inflated data would be larger than the limit.
  case tooLarge(limit: Int)
  /// zlib could not start (out of memory or a library mismatch).
  case zlibFailure(code: Int32)

  public var description: String {
    switch self {
    case .truncated(let n): return "compressed data ends early (after \(n) bytes)"
    case .corrupt(let message): return "corrupt compressed data: \(message)"
    case .tooLarge(let limit): return "inflated data exceeds the limit of \(limit) bytes"
    case .zlibFailure(let code): return "zlib failed to start (code \(code))"
    }
  }
}

/// gzip and zlib decompression of whole buffers (tiles are small and already in memory).
public enum Inflate {
  /// The default limit on inflated size: 64 MiB, far above any real tile.
  public static let defaultLimit = 64 << 20

  /// The kind of compression a buffer starts with.
  public enum Compression: Sendable, Equatable {
    case gzip, zlib, none
  }

  /// Sniffs the first bytes: `1f 8b` is gzip; a valid zlib header (deflate method, check bits)
  /// is zlib; anything else is taken as uncompressed.
  public static func compression(of data: Data) -> Compression {
    guard data.count >= 2 else { return .none }
    let b0 = data[data.startIndex]
    let b1 = data[data.startIndex + 1]
    if b0 == 0x1f && b1 == 0x8b { return .gzip }
    if b0 & 0x0f == 8 && b0 >> 4 <= 7 && (UInt16(b0) << 8 | UInt16(b1)) % 31 == 0 { return .zlib }
    return .none
  }

  /// True when `data` starts like gzip or zlib data.
  public static func isCompressed(_ data: Data) -> Bool { compression(of: data) != .none }

  /// Inflates gzip or zlib data; returns anything else unchanged. Concatenated gzip members are
  /// inflated one after another; bytes after the last stream are ignored.
  public static func decompressIfNeeded(_ data: Data, limit: Int = defaultLimit)
    throws(InflateError)
    -> Data
  {
    guard isCompressed(data) else { return data }
    return try decompress(data, limit: limit)
  }

  /// Inflates gzip or zlib data (auto-detected by zlib with window bits 15 + 32).
  public static func decompress(_ data: Data, limit: Int = defaultLimit) throws(InflateError)
    -> Data
  {
    let input = [UInt8](data)
    var output = [UInt8]()
    output.reserveCapacity(min(limit, max(input.count * 4, 4096)))
    let result: Result<Void, InflateError> = input.withUnsafeBufferPointer { inBuf in
      inflateAll(inBuf, into: &output, limit: limit)
    }
    try result.get()
    return Data(output)
  }

  private static func inflateAll(
    _ input: UnsafeBufferPointer<UInt8>, into output: inout [UInt8], limit: Int
  ) -> Result<Void, InflateError> {
    guard let base = input.baseAddress, input.count > 0 else {
      return .failure(.truncated(inputBytes: 0))
    }
    var stream = z_stream()
    stream.next_in = UnsafeMutablePointer(mutating: base)
    stream.avail_in = uInt(clamping: input.count)
    let initCode = czlib_inflateInit2(&stream, 15 + 32)
    guard initCode == Z_OK else { return .failure(.zlibFailure(code: initCode)) }
    defer { inflateEnd(&stream) }

    let chunk = 64 * 1024
    var buffer = [UInt8](repeating: 0, count: chunk)
    while true {
      let (code, produced) = buffer.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
        stream.next_out = out.baseAddress
        stream.avail_out = uInt(out.count)
        let code = inflate(&stream, Z_NO_FLUSH)
        return (code, out.count - Int(stream.avail_out))
      }
      if produced > 0 {
        if output.count + produced > limit { return .failure(.tooLarge(limit: limit)) }
        output.append(contentsOf: buffer[0..<produced])
      }
      switch code {
      case Z_OK:
        continue
      case Z_STREAM_END:
        // Another gzip member may follow (concatenated gzip files are valid gzip).
        let remaining = Int(stream.avail_in)
        if remaining >= 2, let next = stream.next_in, next[0] == 0x1f, next[1] == 0x8b {
          guard inflateReset(&stream) == Z_OK else { return .failure(.corrupt("cannot reset")) }
          continue
        }
        return .success(())
      case Z_BUF_ERROR:
        // No progress possible: with output space available this means the input ran out.
        if stream.avail_in == 0 { return .failure(.truncated(inputBytes: input.count)) }
        if produced == 0 { return .failure(.corrupt("no progress")) }
        continue
      case Z_NEED_DICT:
        return .failure(.corrupt("needs a preset dictionary"))
      case Z_MEM_ERROR:
        return .failure(.zlibFailure(code: code))
      default:
        let message = stream.msg.map { String(cString: $0) } ?? "zlib error \(code)"
        return .failure(.corrupt(message))
      }
    }
  }
}
