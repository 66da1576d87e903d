import Foundation

/// Finds the offline data that ships in the repository's `Data/` folder.
public enum DataDirectory {
  /// The `Data/` folder of the termmap package this library was built from (its checkout, for
  /// a package that depends on termmap; the clone, for termmap itself).
  public static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Data")

  /// The first of these that holds `world.mbtiles`, nil when none does:
  /// 1. `$TERMMAP_DATA`;
  /// 2. the `Data/` folder of the termmap package the library was built from (`package`), so a
  ///    program that depends on termmap through SwiftPM finds it with no setting;
  /// 3. a `Data/` folder beside or above the executable (a build moved with its data);
  /// 4. `./Data`, `/usr/local/share/termmap`, `/usr/share/termmap`.
  public static func locate(
    executable: String = CommandLine.arguments.first ?? "",
    environment: [String: String] = ProcessInfo.processInfo.environment,
    currentDirectory: String = FileManager.default.currentDirectoryPath
  ) -> URL? {
    let fm = FileManager.default
    var candidates: [URL] = []
    if let env = environment["TERMMAP_DATA"], !env.isEmpty {
      candidates.append(URL(fileURLWithPath: env))
    }
    candidates.append(package)
    var dir = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
    for _ in 0..<6 {
      candidates.append(dir.appendingPathComponent("Data"))
      dir = dir.deletingLastPathComponent()
    }
    candidates.append(URL(fileURLWithPath: currentDirectory).appendingPathComponent("Data"))
    candidates.append(URL(fileURLWithPath: "/usr/local/share/termmap"))
    candidates.append(URL(fileURLWithPath: "/usr/share/termmap"))
    return candidates.first {
      fm.fileExists(atPath: $0.appendingPathComponent("world.mbtiles").path)
    }
  }
}
