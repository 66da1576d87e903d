import Foundation
import FuzzSupport
import TermMap

/// Any bytes as a raster tile, through `RasterImage.decode` as the raster overlay calls it
/// (JPEG by the signature: libjpeg-turbo through the CJPEG shim, with its scan limit): an image
/// whose size matches its pixels, or a one-line RasterDecodingError.
exit(runFuzzer(CommandLine.argc, CommandLine.unsafeArgv) { checkRasterDecode($0) })
