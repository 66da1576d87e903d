import Foundation

/// A decoded raster image: `width × height` pixels, row-major, 4 bytes each (red, green, blue,
/// alpha; straight, not premultiplied, alpha).
public struct RasterImage: Sendable, Equatable {
  /// The width in pixels.
  public let width: Int
  /// The height in pixels.
  public let height: Int
  /// `width * height * 4` bytes: R, G, B, A for each pixel, rows from the top.
  public let pixels: [UInt8]

  /// The largest width or height `decode` accepts unless told otherwise (a 512 px @2x tile is
  /// far below it; a 4096² image is 64 MiB of pixels).
  public static let defaultMaxDimension = 4096

  /// An image from its pixels; nil when the byte count is not `width * height * 4`.
  public init?(width: Int, height: Int, pixels: [UInt8]) {
    guard width >= 0, height >= 0, pixels.count == width * height * 4 else { return nil }
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// The pixel at (x, y).
  public subscript(x: Int, y: Int) -> RGBA {
    let i = (y * width + x) * 4
    return RGBA(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
  }
}

/// One pixel: red, green, blue and alpha, 0–255.
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
  /// Red, 0–255.
  public var r: UInt8
  /// Green, 0–255.
  public var g: UInt8
  /// Blue, 0–255.
  public var b: UInt8
  /// Opacity, 0 (transparent) to 255.
  public var a: UInt8

  /// A pixel.
  public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
    self.r = r
    self.g = g
    self.b = b
    self.a = a
  }

  public var description: String { "(\(r), \(g), \(b), \(a))" }
}

/// The kinds of image data `RasterImage.decode` recognises by their first bytes.
public enum RasterImageFormat: String, Sendable {
  /// PNG.
  case png
  /// JPEG.
  case jpeg
  /// WebP (recognised, not decoded).
  case webp
  /// GIF (recognised, not decoded).
  case gif

  /// The format whose signature starts `data`, or nil.
  public init?(sniffing data: Data) {
    let b = [UInt8](data.prefix(12))
    if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
      self = .png
    } else if b.starts(with: [0xFF, 0xD8, 0xFF]) {
      self = .jpeg
    } else if b.count >= 12, b.starts(with: Array("RIFF".utf8)),
      Array(b[8..<12]) == Array("WEBP".utf8)
    {
      self = .webp
    } else if b.starts(with: Array("GIF8".utf8)) {
      self = .gif
    } else {
      return nil
    }
  }
}

/// Why image data could not be decoded. Its description is one line, for a status line.
public enum RasterDecodingError: Error, Equatable, CustomStringConvertible {
  /// The data is not PNG or JPEG by its first bytes.
  case unrecognized
  /// A known format that termmap does not decode (WebP, GIF).
  case unsupported(RasterImageFormat)
  /// The image's header gives a size over the limit (nothing was allocated for it).
  case tooLarge(width: Int, height: Int, limit: Int)
  /// The decoder refused the data: corrupt or truncated. The message is the library's.
  case corrupt(RasterImageFormat, String)

  public var description: String {
    switch self {
    case .unrecognized: return "not a PNG or JPEG image"
    case .unsupported(let format): return "\(format.rawValue.uppercased()) images are not supported"
    case .tooLarge(let w, let h, let limit):
      return "image of \(w)×\(h) pixels is larger than \(limit)×\(limit)"
    case .corrupt(let format, let message):
      let line = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
      return "corrupt \(format.rawValue.uppercased()) image: \(line.isEmpty ? "unreadable" : line)"
    }
  }
}
