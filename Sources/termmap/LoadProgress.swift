import Foundation
import MapData

/// Loading progress on standard error ("reading track.gpx 45%"), only when it is a terminal.
enum LoadProgress {
  static var enabled: Bool { isatty(2) == 1 }

  /// A progress callback for a file, or nil when progress is not shown.
  static func reporter(for path: String) -> ((Double) -> Void)? {
    guard enabled else { return nil }
    let name = TextSanitizer.clean((path as NSString).lastPathComponent)
    return { fraction in
      FileHandle.standardError.write(Data("\rreading \(name) \(Int(fraction * 100))%\u{1B}[K".utf8))
    }
  }

  /// Clears the progress line.
  static func clear() {
    if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
  }
}
