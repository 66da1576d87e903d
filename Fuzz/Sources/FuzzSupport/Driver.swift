import Foundation
import TermMap

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The input handler of the running fuzzer. Set once, before libFuzzer starts, and read only by
/// libFuzzer's single fuzzing thread.
nonisolated(unsafe) var currentBody: ((Data) -> Void)?

/// Runs libFuzzer over `body` with the process's arguments (libFuzzer's own flags and corpus
/// folders); every input is handed to `body` as `Data`. Returns libFuzzer's exit status.
public func runFuzzer(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ body: @escaping (Data) -> Void
) -> CInt {
  currentBody = body
  var count = argc
  var vector = argv
  return LLVMFuzzerRunDriver(&count, &vector) { bytes, size in
    let data = bytes.map { Data(bytes: $0, count: size) } ?? Data()
    currentBody?(data)
    return 0
  }
}

/// A file that holds the current input (for parsers that open paths), in a private folder.
public let scratchFile: String = {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
    "termmap-fuzz-\(getpid())")
  try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
  return dir.appendingPathComponent("input").path
}()

/// The fuzzer of a data file reader: any bytes, read as a file named `path` (detection goes by
/// content; the seed corpus picks the format): a result or a located DataFileError, never a
/// crash.
public func runDataFileFuzzer(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, path: String
) -> CInt {
  runFuzzer(argc, argv) { data in
    do {
      let content = try MapContentLoader.load(data: data, path: path)
      _ = content.pointCount
    } catch {
      _ = "\(error)"
    }
  }
}

/// Decodes `data` as a raster tile (`RasterImage.decode`, the call `RasterTileRenderer` makes,
/// with a limit of 1024 px so that one input cannot spend seconds on a 4096² image) and checks
/// the result: pixels for every pixel, or an error of one line. Anything else traps.
public func checkRasterDecode(_ data: Data) {
  do {
    let image = try RasterImage.decode(data, maxDimension: 1024)
    precondition(image.width > 0 && image.height > 0 && image.width <= 1024 && image.height <= 1024)
    precondition(image.pixels.count == image.width * image.height * 4)
    _ = image[image.width - 1, image.height - 1]
  } catch {
    precondition(!error.description.contains("\n"), "error of more than one line")
  }
}
