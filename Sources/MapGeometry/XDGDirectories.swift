import Foundation

/// The XDG base directories termmap uses, from an environment (relative values are ignored,
/// as the specification says).
public enum XDGDirectories {
  /// `$XDG_DATA_HOME`, else `~/.local/share`.
  public static func dataHome(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> URL {
    if let x = environment["XDG_DATA_HOME"], x.hasPrefix("/") {
      return URL(fileURLWithPath: x, isDirectory: true)
    }
    return home(environment).appendingPathComponent(".local/share", isDirectory: true)
  }

  /// `$HOME` (when set and not empty), else the account's home directory.
  static func home(_ environment: [String: String]) -> URL {
    let h = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
    return URL(fileURLWithPath: h, isDirectory: true)
  }
}

/// FNV-1a, 64 bits: a hash that is the same on every run and machine (cache folder names,
/// tile contents, a journal's plan).
public enum FNV1a {
  /// The hash of `bytes`.
  public static func hash(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes {
      h ^= UInt64(b)
      h = h &* 0x100_0000_01b3
    }
    return h
  }
}
