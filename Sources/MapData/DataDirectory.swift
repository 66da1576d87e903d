import Foundation

/// Finds the offline data that ships in the repository's `Data/` folder.
public enum DataDirectory {
  /// The first of: `$TERMMAP_DATA`, a `Data/` folder beside or above the executable (a build
  /// inside a clone), `./Data`, `/usr/local/share/termmap`, `/usr/share/termmap` that holds
  /// `world.mbtiles`. Nil when none does.
  public static func locate(executable: String = CommandLine.arguments.first ?? "") -> URL? {
    let fm = FileManager.default
    var candidates: [URL] = []
    if let env = ProcessInfo.processInfo.environment["TERMMAP_DATA"], !env.isEmpty {
      candidates.append(URL(fileURLWithPath: env))
    }
    var dir = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<6 {
      candidates.append(dir.appendingPathComponent("Data"))
      dir = dir.deletingLastPathComponent()
    }
    candidates.append(URL(fileURLWithPath: fm.currentDirectoryPath).appendingPathComponent("Data"))
    candidates.append(URL(fileURLWithPath: "/usr/local/share/termmap"))
    candidates.append(URL(fileURLWithPath: "/usr/share/termmap"))
    return candidates.first {
      fm.fileExists(atPath: $0.appendingPathComponent("world.mbtiles").path)
    }
  }
}
