import Foundation
import FuzzSupport
import TermMap

/// Any bytes as a raster tile, through `RasterImage.decode` as the raster overlay calls it
/// (PNG by the signature: libpng's simplified API): an image whose size matches its pixels,
/// or a one-line RasterDecodingError.
exit(runFuzzer(CommandLine.argc, CommandLine.unsafeArgv) { checkRasterDecode($0) })
