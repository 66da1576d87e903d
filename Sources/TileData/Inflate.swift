import CZlib
import Foundation
import MapGeometry

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
    case .corrupt(let message): return "corrupt compressed data: \(SafeText.clean(message))"
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
    /// A gzip member (RFC 1952).
    case gzip
    /// A zlib stream (RFC 1950).
    case zlib
    /// Neither: the bytes as they are.
    case none
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
    guard !data.isEmpty else { throw .truncated(inputBytes: 0) }
    guard data.count <= Int(UInt32.max) else { throw .tooLarge(limit: limit) }
    // Inflate straight into the output, growing it as needed (tiles inflate 1.5-3x).
    var output = Data(count: min(max(limit, 1), max(data.count * 3, 4096)))
    var produced = 0
    let result: Result<Void, InflateError> = data.withUnsafeBytes { input in
      // zlib keeps a pointer back to the z_stream: give it a fixed address.
      let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
      stream.initialize(to: z_stream())
      defer { stream.deallocate() }
      stream.pointee.next_in = UnsafeMutablePointer(
        mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self))
      stream.pointee.avail_in = uInt(input.count)
      let initCode = czlib_inflateInit2(stream, 15 + 32)
      guard initCode == Z_OK else { return .failure(.zlibFailure(code: initCode)) }
      defer { inflateEnd(stream) }
      while true {
        if produced == output.count {
          // Full: grow, or fail when the limit is reached and more output is pending.
          if output.count >= limit {
            // Exactly at the limit is fine if the stream ends without more output.
            var probe: UInt8 = 0
            let ended = withUnsafeMutablePointer(to: &probe) { p -> Bool in
              stream.pointee.next_out = p
              stream.pointee.avail_out = 1
              let code = inflate(stream, Z_NO_FLUSH)
              return code == Z_STREAM_END && stream.pointee.avail_out == 1
            }
            if ended { return .success(()) }
            return .failure(.tooLarge(limit: limit))
          }
          output.count = min(limit, output.count * 2)
        }
        let (code, n) = output.withUnsafeMutableBytes { out -> (Int32, Int) in
          let free = out.count - produced
          stream.pointee.next_out = out.baseAddress!.assumingMemoryBound(to: Bytef.self) + produced
          stream.pointee.avail_out = uInt(clamping: free)
          let code = inflate(stream, Z_NO_FLUSH)
          return (code, Int(uInt(clamping: free)) - Int(stream.pointee.avail_out))
        }
        produced += n
        switch code {
        case Z_OK:
          continue
        case Z_STREAM_END:
          // Another gzip member may follow (concatenated gzip files are valid gzip).
          if stream.pointee.avail_in >= 2, let next = stream.pointee.next_in, next[0] == 0x1f,
            next[1] == 0x8b
          {
            guard inflateReset(stream) == Z_OK else { return .failure(.corrupt("cannot reset")) }
            continue
          }
          return .success(())
        case Z_BUF_ERROR:
          // No progress: with output space left, the input ran out before the stream ended.
          if stream.pointee.avail_in == 0 { return .failure(.truncated(inputBytes: input.count)) }
          if n == 0 && produced < output.count { return .failure(.corrupt("no progress")) }
          continue
        case Z_NEED_DICT:
          return .failure(.corrupt("needs a preset dictionary"))
        case Z_MEM_ERROR:
          return .failure(.zlibFailure(code: code))
        default:
          let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(code)"
          return .failure(.corrupt(message))
        }
      }
    }
    try result.get()
    output.count = produced
    return output
  }

}
