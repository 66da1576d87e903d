import CJPEG
import CPNG
import Foundation

extension RasterImage {
  /// Decodes PNG (any colour type and bit depth, with transparency) or JPEG data into RGBA8,
  /// after checking the size in the header against `maxDimension`.
  ///
  /// Throws `RasterDecodingError`: WebP and GIF are `unsupported`; damaged data is `corrupt`
  /// (libjpeg's recoverable warnings, such as a truncated file, count as damage too).
  public static func decode(_ data: Data, maxDimension: Int = defaultMaxDimension)
    throws(RasterDecodingError) -> RasterImage
  {
    guard let format = RasterImageFormat(sniffing: data) else {
      throw .unrecognized
    }
    switch format {
    case .png: return try decodePNG(data, maxDimension: maxDimension)
    case .jpeg: return try decodeJPEG(data, maxDimension: maxDimension)
    case .webp, .gif: throw .unsupported(format)
    }
  }

  /// libpng's simplified API: it reads the header, then converts any PNG to 8-bit RGBA.
  /// Its errors come back as a failed call and a message in the `png_image`, never as exit().
  static func decodePNG(_ data: Data, maxDimension: Int) throws(RasterDecodingError)
    -> RasterImage
  {
    // libpng keeps the data pointer from begin_read to finish_read, so both run inside one
    // withUnsafeBytes (a small Data's bytes are only pinned for the closure's duration).
    let result: Result<RasterImage, RasterDecodingError> = data.withUnsafeBytes { raw in
      if let problem = pngChunkProblem(raw) { return .failure(.corrupt(.png, problem)) }
      var image = png_image()
      image.version = cpng_image_version()
      defer { png_image_free(&image) }
      guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
        return .failure(.corrupt(.png, pngMessage(&image)))
      }
      let width = Int(image.width)
      let height = Int(image.height)
      guard width > 0, height > 0, width <= maxDimension, height <= maxDimension else {
        return .failure(.tooLarge(width: width, height: height, limit: maxDimension))
      }
      image.format = cpng_format_rgba()
      // Without gAMA or sRGB chunks, libpng takes 16-bit samples as linear light and would
      // brighten them on the way to 8-bit sRGB; tiles' 16-bit PNGs are sRGB like 8-bit ones.
      image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
      var pixels = [UInt8](repeating: 0, count: width * height * 4)
      let finished = pixels.withUnsafeMutableBytes { out in
        png_image_finish_read(&image, nil, out.baseAddress, Int32(width * 4), nil)
      }
      guard finished != 0 else { return .failure(.corrupt(.png, pngMessage(&image))) }
      return .success(RasterImage(width: width, height: height, pixels: pixels)!)
    }
    return try result.get()
  }

  /// Walks the chunk headers up to IEND (lengths only, not contents or CRCs) and says what is
  /// wrong when a chunk claims more bytes than the data holds. libpng would act on such a
  /// length before it found the data missing: a 44-byte tile whose zTXt chunk claims 1.9 GB
  /// (found by FuzzPNG) made it take 1.9 GB and 10 s.
  static func pngChunkProblem(_ bytes: UnsafeRawBufferPointer) -> String? {
    var offset = 8
    while offset < bytes.count {
      let left = bytes.count - offset
      guard left >= 8 else { return "the data ends inside the chunk header at byte \(offset)" }
      let length = Int(
        UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
      let typeBytes = bytes[(offset + 4)..<(offset + 8)]
      let type =
        typeBytes.allSatisfy { (65...90).contains($0) || (97...122).contains($0) }
        ? String(decoding: typeBytes, as: UTF8.self)
        : "0x" + typeBytes.map { String(format: "%02X", $0) }.joined()
      guard length <= left - 8 else {
        return "chunk \(type) at byte \(offset) claims \(length) bytes, but \(left - 8) are left"
      }
      guard length + 4 <= left - 8 else {
        return "the data ends inside the CRC of chunk \(type) at byte \(offset)"
      }
      if type == "IEND" { return nil }
      offset += 12 + length
    }
    return nil
  }

  private static func pngMessage(_ image: inout png_image) -> String {
    withUnsafeBytes(of: &image.message) { raw in
      let bytes = raw.prefix { $0 != 0 }
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// libjpeg through the shim, which does the setjmp so that a fatal error returns here.
  static func decodeJPEG(_ data: Data, maxDimension: Int) throws(RasterDecodingError)
    -> RasterImage
  {
    var width: UInt32 = 0
    var height: UInt32 = 0
    var out: UnsafeMutablePointer<UInt8>? = nil
    var warnings = 0
    var message = [CChar](repeating: 0, count: Int(cjpeg_message_length()))
    let status = data.withUnsafeBytes { raw in
      cjpeg_decode_rgba(
        raw.bindMemory(to: UInt8.self).baseAddress, UInt(raw.count), UInt32(maxDimension),
        &width, &height, &out, &warnings, &message)
    }
    defer { if let out { cjpeg_free(out) } }
    let text = String(
      decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    switch Int(status) {
    case Int(CJPEG_OK): break
    case Int(CJPEG_TOO_LARGE):
      throw .tooLarge(width: Int(width), height: Int(height), limit: maxDimension)
    case Int(CJPEG_NO_MEMORY): throw .corrupt(.jpeg, "out of memory")
    default: throw .corrupt(.jpeg, text)
    }
    guard warnings == 0 else { throw .corrupt(.jpeg, text) }
    guard let out else { throw .corrupt(.jpeg, "no pixels") }
    let count = Int(width) * Int(height) * 4
    let pixels = [UInt8](UnsafeBufferPointer(start: out, count: count))
    return RasterImage(width: Int(width), height: Int(height), pixels: pixels)!
  }
}
